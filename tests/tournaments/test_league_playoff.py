"""A club season's play-off (tournaments/stages.py on a league): a league of 10 players whose season ends
with a tie at 4th, a play-off of the top 4 (the organiser decides the tie, the history keeps it), one final
table seated, its game entered, the final ranking with the play-off's players first; the carry-over
arithmetic from the season's standings; the season's standings unchanged by the play-off; and a league
without a play-off showing exactly what it showed before."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from league.models import Event, Hanchan, HistoryEntry, Player, Registration
from scoring import services
from scoring.standings import standings
from tests.conftest import make_event
from tests.tournaments.test_tournament import tables_of
from tournaments import stages
from tournaments.models import Stage, StageEntrant

pytestmark = pytest.mark.django_db

SCORES = [40000, 32000, 28000, 20000]  # EMA 2016: +25 000, +7 000, -7 000, -25 000
# The season: seat order, East first (players by index). P0 50 000, P1 32 000, P9 25 000, then P2 and
# P4 tied at 0 on every tie-break (two games each, places 3+2 and 2+3), P5 and P7 -7 000, P3 -18 000,
# P8 -25 000, P6 -50 000.
SEASON = [(0, 1, 2, 3), (0, 4, 5, 6), (1, 2, 7, 8), (9, 3, 4, 6)]


def play(event, players, seats, user, scores=SCORES):
    game = services.start_game(
        event=event,
        players=[players[i] for i in seats],
        user=user,
        entry_mode=Hanchan.EntryMode.FINAL_SCORES,
    )
    services.record_final_scores(hanchan=game, scores=list(scores), user=user)
    return game


def make_league(club, organiser, slug="winter-league"):
    event = make_event(club, slug=slug)
    assert event.kind == Event.Kind.LEAGUE
    players = [Player.objects.create(display_name=f"{slug}-P{i}", club=club) for i in range(10)]
    for player in players:
        Registration.objects.create(event=event, player=player)
    for seats in SEASON:
        play(event, players, seats, organiser)
    return event, players


def ids(players, *indexes):
    return [players[i].pk for i in indexes]


def test_a_season_play_off_of_the_top_4_with_a_tie_at_4th(club, organiser):
    event, p = make_league(club, organiser)
    season = standings(event)
    assert [r.player_id for r in season[:5]] == ids(p, 0, 1, 9, 2, 4)
    assert season[3].rank == season[4].rank == 4  # the tie-breaks cannot separate P2 and P4

    final = stages.add_stage(
        event=event, user=organiser, name="Final", cut_size=4, carry_over="half", seating_method="final"
    )
    event.refresh_from_db()
    # The season is one stage (its games have no round number); the play-off's rounds come after it.
    assert (final.order, final.first_round) == (2, 2) and event.playoff_first_round == 2
    first = stages.stages_of(event)[0]
    assert first.label == "Season"

    preview = stages.cut_preview(first)
    assert preview.cut.through == ids(p, 0, 1, 9) and preview.cut.tied == ids(p, 2, 4)
    assert preview.cut.places == 1
    with pytest.raises(ValidationError, match="cannot separate"):
        stages.close_stage(stage=first, user=organiser)
    assert not StageEntrant.objects.filter(stage=final).exists()
    with pytest.raises(ValidationError, match="exactly the number"):
        stages.close_stage(stage=first, user=organiser, decided=ids(p, 2, 4))  # both: too many

    # A season game still in play would be missing from the cut: finish or void it first.
    late = services.start_game(event=event, players=[p[i] for i in (5, 6, 7, 8)], user=organiser)
    with pytest.raises(ValidationError, match="still in play"):
        stages.close_stage(stage=first, user=organiser, decided=ids(p, 4))
    services.void_game(hanchan=late, user=organiser, reason="abandoned")

    stages.close_stage(stage=first, user=organiser, decided=ids(p, 4))
    entrants = StageEntrant.objects.filter(stage=final).order_by("seed")
    assert [e.player_id for e in entrants] == ids(p, 0, 1, 9, 4)
    decided = HistoryEntry.objects.get(event=event, action="stage tie decided")
    assert p[4].display_name in str(decided.summary) and decided.user == organiser
    assert HistoryEntry.objects.filter(event=event, action="stage closed").count() == 1

    # Half the season's points carried over (rounded towards zero).
    rows = stages.stage_standings(event, final)
    assert {r.player_id: r.carried for r in rows} == dict(
        zip(ids(p, 0, 1, 9, 4), [25000, 16000, 12500, 0], strict=True)
    )

    # One final table, winds drawn; its game is entered as any table's final scores.
    assert stages.seat_stage(stage=final, user=organiser) == [2]
    (table,) = tables_of(event, 2)
    assert sorted(table) == sorted(ids(p, 0, 1, 9, 4))
    with pytest.raises(ValidationError, match="seated"):
        stages.seat_stage(stage=final, user=organiser)  # sent twice: refused, nothing added
    assert Hanchan.objects.filter(event=event, round_number=2).count() == 1
    game = Hanchan.objects.get(event=event, round_number=2)
    # P4 wins the final, P9 second, P1 third, P0 fourth.
    wanted = dict(zip(ids(p, 4, 9, 1, 0), SCORES, strict=True))
    services.record_final_scores(hanchan=game, scores=[wanted[pk] for pk in table], user=organiser)

    rows = stages.stage_standings(event, final)
    assert [(r.player_id, r.total) for r in rows] == list(
        zip(ids(p, 4, 9, 1, 0), [25000, 12500 + 7000, 16000 - 7000, 25000 - 25000], strict=True)
    )
    ranking = stages.final_ranking(event)
    assert [f.line.player_id for f in ranking] == ids(p, 4, 9, 1, 0, 2, 5, 7, 3, 8, 6)
    assert [f.rank for f in ranking] == [1, 2, 3, 4, 5, 6, 6, 8, 9, 10]
    assert [f.stage.order for f in ranking] == [2] * 4 + [1] * 6

    # The season's standings stay as they were: the final's game is the play-off's, not the season's.
    assert standings(event) == season

    stages.close_stage(stage=stages.stages_of(event)[1], user=organiser)
    with pytest.raises(ValidationError, match="closed"):
        stages.add_stage(event=event, user=organiser, cut_size=4, seating_method="final")


def test_a_league_play_off_is_the_top_players_at_one_table_or_by_rank(club, organiser):
    event, _p = make_league(club, organiser)
    with pytest.raises(ValidationError) as caught:
        stages.add_stage(event=event, user=organiser, entrants="everyone", seating_method="rank")
    assert "entrants" in caught.value.message_dict
    with pytest.raises(ValidationError) as caught:
        stages.add_stage(event=event, user=organiser, cut_size=8, seating_method="swiss")
    assert "seating" in caught.value.message_dict
    with pytest.raises(ValidationError) as caught:
        stages.add_stage(event=event, user=organiser, cut_size=8, seating_method="final")
    assert "seating" in caught.value.message_dict  # one final table is four players
    event.refresh_from_db()
    assert event.playoff_first_round is None and Stage.objects.filter(event=event, order=2).count() == 0
    season = stages.stages_of(event)[0]
    with pytest.raises(ValidationError, match="play-off first"):
        stages.close_stage(stage=season, user=organiser)
    with pytest.raises(ValidationError, match="entered one by one"):
        stages.seat_stage(stage=season, user=organiser)
    stages.add_stage(event=event, user=organiser, cut_size=4, seating_method="final", after=1)
    with pytest.raises(ValidationError, match="sent twice"):
        stages.add_stage(event=event, user=organiser, cut_size=4, seating_method="final", after=1)
    assert Stage.objects.filter(event=event).count() == 2
    # Hidden standings are a tournament's (league/hidden_rounds.py hides no league game): refused, not
    # saved as a setting that would do nothing.
    from tournaments import reveal

    playoff = Stage.objects.get(event=event, order=2)
    with pytest.raises(ValidationError) as caught:
        reveal.set_stage_hiding(stage=playoff, user=organiser, hidden_after_round=playoff.first_round)
    assert "a tournament's" in caught.value.message_dict["standings_hidden_after_round"][0]
    assert Stage.objects.get(pk=playoff.pk).standings_hidden_after_round is None


@pytest.mark.parametrize(
    ("carry_over", "bonus", "expected"),
    [
        ("all", "", [50000, 32000, 25000, 0, 0, -7000, -7000, -18000]),
        ("half", "", [25000, 16000, 12500, 0, 0, -3500, -3500, -9000]),
        ("none", "", [0] * 8),
        # Bonus by place in the season's standings: P2 and P4 share 4th, so both get the 4th's bonus;
        # P5 and P7 share 6th; places past the list get nothing.
        ("bonus", "8000, 6000, 4000, 2000, 1000, 500", [8000, 6000, 4000, 2000, 2000, 500, 500, 0]),
    ],
)
def test_the_carry_over_from_the_season(club, organiser, carry_over, bonus, expected):
    event, p = make_league(club, organiser)
    playoff = stages.add_stage(
        event=event, user=organiser, cut_size=8, carry_over=carry_over, bonus=bonus, seating_method="rank"
    )
    stages.close_stage(stage=stages.stages_of(event)[0], user=organiser)
    order = ids(p, 0, 1, 9, 2, 4, 5, 7, 3)
    assert list(StageEntrant.objects.filter(stage=playoff).values_list("player_id", flat=True)) == order
    carried = {r.player_id: r.carried for r in stages.stage_standings(event, playoff)}
    assert [carried[pk] for pk in order] == expected
    # By rank: the season's 1st–4th at table 1, 5th–8th at table 2.
    stages.seat_stage(stage=playoff, user=organiser)
    assert [sorted(t) for t in tables_of(event, 2)] == [sorted(order[:4]), sorted(order[4:])]


def test_a_player_short_of_the_minimum_of_games_does_not_go_through(club, organiser):
    event, p = make_league(club, organiser)
    event.min_games = 2
    event.save()
    stages.add_stage(event=event, user=organiser, cut_size=4, seating_method="final")
    preview = stages.cut_preview(stages.stages_of(event)[0])
    # P9 (one game, third with 25 000) is not ranked in the season's standings: P2 and P4 go through.
    assert preview.cut.through == ids(p, 0, 1, 2, 4) and preview.status(p[9].pk) == "out"


def test_a_league_without_a_play_off_is_unchanged(club, organiser, client):
    """A league's games may carry a round number (an imported record's): without a play-off they all
    count in its standings, and its pages show no stage."""
    event, p = make_league(club, organiser)
    before = standings(event)
    numbered = play(event, p, (2, 3, 5, 6), organiser)
    Hanchan.objects.filter(pk=numbered.pk).update(round_number=3)
    after = standings(event)
    assert sum(r.games for r in after) == sum(r.games for r in before) + 4
    assert {r.player_id: r.points for r in after}[p[2].pk] == 25000  # 0 + the numbered game's 1st
    page = client.get(reverse("scoring:event", args=[event.slug])).content.decode()
    assert 'id="event-stages"' not in page
    assert not Stage.objects.filter(event=event).exists()
    assert [f.line.row for f in stages.final_ranking(event)] == after


def test_the_organisers_pages_of_a_play_off(client, club, organiser):
    event, p = make_league(club, organiser)
    client.force_login(organiser)
    page = client.get(reverse("tournaments_manage:stages", args=[event.slug]))
    text = page.content.decode()
    assert page.status_code == 200 and "Season play-off" in text and "Add the play-off" in text
    assert "Rounds and seating" not in text  # a league has no rounds page
    manage = client.get(reverse("league_manage:event", args=[event.slug])).content.decode()
    assert reverse("tournaments_manage:stages", args=[event.slug]) in manage

    url = reverse("tournaments_manage:stage_add", args=[event.slug])
    data = {"rounds": 1, "entrants": "top", "cut_size": 4, "carry_over": "all", "seating": "final"}
    data["winds"] = "rank"
    junk = client.post(url, {**data, "entrants": "list", "cut_size": "four", "after": "x"})
    assert junk.status_code == 422
    assert "Who plays it" in junk.content.decode() and "Players going through" in junk.content.decode()
    assert client.post(url, {**data, "after": 1}).status_code == 302
    added = HistoryEntry.objects.get(event=event, action="stage added")
    assert str(added.summary) == "Play-off added: 1 round from round 2"
    again = client.post(url, {**data, "after": 1})  # the same form sent twice
    assert again.status_code == 422 and "sent twice" in again.content.decode()
    assert Stage.objects.filter(event=event).count() == 2

    close = reverse("tournaments_manage:stage_close", args=[event.slug, 1])
    preview = client.get(close).content.decode()
    assert "cannot separate" in preview and "3 players go through to Play-off." in preview
    refused = client.post(close, {"accept": "1"})
    assert refused.status_code == 422 and not StageEntrant.objects.exists()
    done = client.post(close, {"accept": "1", "decided": [p[2].pk]})
    assert done.status_code == 302
    assert client.post(close, {"accept": "1", "decided": [p[2].pk]}).status_code == 422  # already closed

    seat = reverse("tournaments_manage:stage_seat", args=[event.slug, 2])
    assert client.get(seat).status_code == 303
    assert client.post(seat).status_code == 302
    (game,) = Hanchan.objects.filter(event=event, round_number=2)
    assert [s.player_id for s in game.seats.order_by("seat")] == ids(p, 0, 1, 9, 2)  # winds by rank
    overview = client.get(reverse("tournaments_manage:stages", args=[event.slug])).content.decode()
    assert reverse("scoring_manage:game", args=[game.pk]) in overview

    public = client.get(reverse("scoring:event", args=[event.slug])).content.decode()
    assert 'id="event-stages"' in public and reverse("tournaments:final_ranking", args=[event.slug]) in public
    assert ">Season</a>" in public and ">Play-off</a>" in public
    stage_page = client.get(reverse("tournaments:stage_standings", args=[event.slug, 2]))
    assert stage_page.status_code == 200 and p[9].display_name in stage_page.content.decode()
    assert 'id="stage-wall"' not in stage_page.content.decode()
    ranking = client.get(reverse("tournaments:final_ranking", args=[event.slug]))
    assert ranking.status_code == 200 and "Season" in ranking.content.decode()
    assert client.get(reverse("tournaments:wall_stage", args=[event.slug, 2])).status_code == 404
