"""The team league: match days drawn by team (every team at one seat per slot, opponents and winds even
over the season), each team sending one of its players to each seat for every hanchan and substituting
between hanchans, the season's team standings and the team's players' statistics."""

from __future__ import annotations

import itertools
from collections import Counter
from datetime import date

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from league.models import Event, Hanchan, Player, Registration
from scoring import services
from scoring.engine import Hand, Win
from scoring.models import SeatResult
from tests.conftest import make_event
from tournaments import team_league, teams
from tournaments.models import MatchDay, MatchGame, MatchSlot, Team

pytestmark = pytest.mark.django_db

DAY = date(2025, 3, 1)


def make_league(club, organiser, n_teams: int, size: int = 2, slug: str = "team-league") -> Event:
    """A club league of ``n_teams`` teams of ``size`` players; the last player of each team is its
    substitute (registered as one)."""
    event = make_event(club, slug=slug)
    lines = []
    for t in range(n_teams):
        for i in range(size):
            flag = "; substitute" if i == size - 1 and size > 1 else ""
            lines.append(f"Team {t}; T{t}P{i}{flag}")
    teams.register_teams(event=event, text="\n".join(lines), user=organiser)
    return event


def slots(day: MatchDay) -> dict[int, list[int]]:
    """Table -> team ids in seat order."""
    found: dict[int, list[int]] = {}
    for table, _seat, team in (
        MatchSlot.objects.filter(match_day=day)
        .order_by("table", "seat")
        .values_list("table", "seat", "team_id")
    ):
        found.setdefault(table, []).append(team)
    return found


def members(team_id: int) -> list[Player]:
    return list(Player.objects.filter(registrations__team_member__team_id=team_id).order_by("pk"))


def test_match_days_seat_every_team_once_per_slot_with_opponents_and_winds_even(club, organiser):
    event = make_league(club, organiser, 4)
    winds: Counter[tuple[int, int]] = Counter()
    for number in range(1, 5):
        day = team_league.schedule_match_day(
            event=event, number=number, played_on=DAY, slots=1, user=organiser
        )
        (table,) = slots(day).values()
        assert len(set(table)) == 4
        for seat, team in enumerate(table):
            winds[team, seat] += 1
    assert set(winds.values()) == {1} and len(winds) == 16  # each team sat each wind once in 4 days
    eight = make_league(club, organiser, 8, slug="eight-teams")
    met: Counter[tuple[int, int]] = Counter()
    for number in range(1, 8):
        day = team_league.schedule_match_day(
            event=eight, number=number, played_on=DAY, slots=2, user=organiser
        )
        tables = slots(day)
        assert len(tables) == 4
        seats = Counter(team for table in tables.values() for team in table)
        assert set(seats.values()) == {2}  # two seats per team, at two different tables
        for table in tables.values():
            assert len(set(table)) == 4
            for pair in itertools.combinations(sorted(table), 2):
                met[pair] += 1
    # 7 days x 4 tables x 6 pairs = 168 meetings among 28 pairs: each pair exactly 6 times.
    assert set(met.values()) == {6}


def test_drawing_is_checked_and_a_form_sent_twice_draws_once(club, organiser):
    event = make_league(club, organiser, 4)
    team_league.schedule_match_day(event=event, number=1, played_on=DAY, slots=1, user=organiser)
    with pytest.raises(ValidationError, match="Match day 1 is already drawn: the next one is match day 2."):
        team_league.schedule_match_day(event=event, number=1, played_on=DAY, slots=1, user=organiser)
    with pytest.raises(ValidationError, match="drawn in order: the next one is match day 2"):
        team_league.schedule_match_day(event=event, number=3, played_on=DAY, slots=1, user=organiser)
    with pytest.raises(ValidationError, match="Seats per team: a whole number from 1 to 8"):
        team_league.schedule_match_day(event=event, number=2, played_on=DAY, slots=0, user=organiser)
    assert MatchDay.objects.filter(event=event).count() == 1
    five = make_league(club, organiser, 5, slug="five-teams")
    with pytest.raises(ValidationError, match="multiple of four .* the event has 5 teams"):
        team_league.schedule_match_day(event=five, number=1, played_on=DAY, slots=1, user=organiser)
    cup = make_league(club, organiser, 4, slug="cup")
    Event.objects.filter(pk=cup.pk).update(kind=Event.Kind.TOURNAMENT)
    cup.refresh_from_db()
    with pytest.raises(ValidationError, match="Match days belong to a team league"):
        team_league.schedule_match_day(event=cup, number=1, played_on=DAY, slots=1, user=organiser)


@pytest.fixture
def season(club, organiser):
    event = make_league(club, organiser, 4)
    day = team_league.schedule_match_day(event=event, number=1, played_on=DAY, slots=1, user=organiser)
    (table,) = slots(day).values()
    return event, day, table


def test_each_team_sends_one_of_its_players_and_substitutes_between_hanchans(season, organiser):
    event, day, table = season
    first = [members(team)[0] for team in table]
    finals = Hanchan.EntryMode.FINAL_SCORES
    game = team_league.start_match_game(
        match_day=day, table=1, players=first, user=organiser, entry_mode=finals
    )
    assert game.played_on == DAY and MatchGame.objects.get(hanchan=game).table == 1
    same = team_league.start_match_game(
        match_day=day, table=1, players=first, user=organiser, entry_mode=finals
    )
    assert same == game  # a form sent twice
    second = [members(team)[1] for team in table]  # every team sends its substitute
    with pytest.raises(ValidationError, match="still playing its hanchan"):
        team_league.start_match_game(match_day=day, table=1, players=second, user=organiser)
    services.record_final_scores(hanchan=game, scores=[40000, 32000, 28000, 20000], user=organiser)
    again = team_league.start_match_game(
        match_day=day, table=1, players=second, user=organiser, entry_mode=finals
    )
    services.record_final_scores(hanchan=again, scores=[20000, 28000, 32000, 40000], user=organiser)
    found = teams.team_standings(event)
    by_team = {row.team: row.points for row in found.rows}
    for team in table:
        expected = sum(SeatResult.objects.filter(player__in=members(team)).values_list("result", flat=True))
        assert by_team[team] == expected
    assert all(row.games == 2 for row in found.rows)
    page = teams.team_page(Team.objects.get(pk=table[0]))
    assert [(kind, value) for kind, value, _points in page.rounds] == [("day", 1)]
    assert sorted(m.standing.games for m in page.members) == [1, 1]


def test_a_player_of_another_team_or_none_is_refused_by_seat(season, club, organiser):
    event, day, table = season
    lineup = [members(team)[0] for team in table]
    outsider = Player.objects.create(display_name="Outsider", club=club)
    Registration.objects.create(event=event, player=outsider)
    wrong = [lineup[1], lineup[0], outsider, None]
    with pytest.raises(ValidationError) as caught:
        team_league.start_match_game(match_day=day, table=1, players=wrong, user=organiser)
    errors = caught.value.message_dict
    names = [Team.objects.get(pk=t).name for t in table]
    assert errors["seat_0"] == [f"East: {lineup[1]} is not in team {names[0]}, whose seat this is."]
    assert errors["seat_2"] == [f"West: Outsider is not in team {names[2]}, whose seat this is."]
    assert errors["seat_3"] == [f"North: team {names[3]} sends a player."]
    with pytest.raises(ValidationError, match="has no table 2"):
        team_league.start_match_game(match_day=day, table=2, players=lineup, user=organiser)
    assert not Hanchan.objects.filter(event=event).exists()


def test_a_player_cannot_sit_at_two_tables_of_a_match_day_at_once(club, organiser):
    event = make_league(club, organiser, 4, size=3)
    day = team_league.schedule_match_day(event=event, number=1, played_on=DAY, slots=2, user=organiser)
    tables = slots(day)
    one = [members(team)[0] for team in tables[1]]
    team_league.start_match_game(match_day=day, table=1, players=one, user=organiser)
    two = [members(team)[0] for team in tables[2]]
    with pytest.raises(ValidationError, match="is playing at table 1 of this match day"):
        team_league.start_match_game(match_day=day, table=2, players=two, user=organiser)
    two = [members(team)[1] for team in tables[2]]
    assert team_league.start_match_game(match_day=day, table=2, players=two, user=organiser).pk


def test_the_team_page_gives_the_players_statistics_of_hand_by_hand_games(season, organiser):
    event, day, table = season
    lineup = [members(team)[0] for team in table]
    game = team_league.start_match_game(match_day=day, table=1, players=lineup, user=organiser)
    services.record_hand(hanchan=game, hand=Hand.ron(2, Win(0, 3, 40), riichi=(0,)), user=organiser)
    services.record_hand(hanchan=game, hand=Hand.ron(0, Win(1, 2, 30)), user=organiser)
    services.finish_game(hanchan=game, user=organiser, reason="time limit")
    page = teams.team_page(Team.objects.get(pk=table[0]))
    east = next(m for m in page.members if m.player == lineup[0])
    assert (east.hands.hands, east.hands.wins, east.hands.riichi, east.hands.deal_ins) == (2, 1, 1, 1)
    assert page.hands.hands == 2 and page.hands.wins == 1  # the substitute did not play
    html = Client().get(reverse("tournaments:team", args=[event.slug, table[0]])).content.decode()
    assert "50.0 %" in html  # East's win rate: 1 of 2 hands


def test_the_match_day_pages(season, organiser):
    event, day, table = season
    client = Client(raise_request_exception=False)
    client.force_login(organiser)
    listing = client.get(reverse("tournaments_manage:match_days", args=[event.slug]))
    assert listing.status_code == 200 and listing.context["next_number"] == 2
    twice = client.post(
        reverse("tournaments_manage:match_days", args=[event.slug]),
        {"number": 1, "played_on": "2025-03-08", "slots": 1},
    )
    assert twice.status_code == 422 and "Match day 1 is already drawn" in twice.content.decode()
    drawn = client.post(
        reverse("tournaments_manage:match_days", args=[event.slug]),
        {"number": 2, "played_on": "2025-03-08", "slots": 1},
    )
    assert drawn.status_code == 302 and MatchDay.objects.filter(event=event, number=2).exists()
    page = client.get(reverse("tournaments_manage:match_day", args=[event.slug, 1]))
    assert page.status_code == 200
    start = reverse("tournaments_manage:match_game_start", args=[event.slug, 1, 1])
    lineup = {f"t1-seat_{i}": members(team)[0].pk for i, team in enumerate(table)}
    bad = client.post(start, {**lineup, "t1-seat_0": members(table[1])[0].pk, "t1-entry_mode": "hands"})
    assert bad.status_code == 422
    started = client.post(start, {**lineup, "t1-entry_mode": "hands"})
    game = Hanchan.objects.get(event=event)
    assert started.status_code == 302 and started.url == reverse("scoring_manage:game", args=[game.pk])
    # The next hanchan's form offers the same players by default (a team substitutes by changing one).
    services.record_hand(hanchan=game, hand=Hand.ron(0, Win(1, 2, 30)), user=organiser)
    services.finish_game(hanchan=game, user=organiser, reason="time limit")
    form = client.get(reverse("tournaments_manage:match_day", args=[event.slug, 1])).context["tables"][0][1]
    assert [form[f"seat_{i}"].initial for i in range(4)] == [members(team)[0].pk for team in table]
    tournament = make_event(event.club, slug="a-cup")
    Event.objects.filter(pk=tournament.pk).update(kind=Event.Kind.TOURNAMENT)
    assert client.get(reverse("tournaments_manage:match_days", args=["a-cup"])).status_code == 404
    assert client.get(reverse("tournaments_manage:match_day", args=[event.slug, 9])).status_code == 404
    assert (
        client.post(reverse("tournaments_manage:match_game_start", args=[event.slug, 1, 7])).status_code
        == 404
    )


@pytest.mark.parametrize(("n_teams", "slots_"), [(4, 1), (8, 2)])
def test_the_match_day_pages_cost_the_same_few_queries_for_1_or_4_tables(
    club, organiser, n_teams, slots_, django_assert_max_num_queries
):
    event = make_league(club, organiser, n_teams)
    day = team_league.schedule_match_day(event=event, number=1, played_on=DAY, slots=slots_, user=organiser)
    sent: Counter[int] = Counter()  # each team's next player: its two seats, two players
    for table, teams_ in slots(day).items():
        lineup = [members(t)[sent[t]] for t in teams_]
        sent.update(teams_)
        team_league.start_match_game(match_day=day, table=table, players=lineup, user=organiser)
    client = Client()
    client.force_login(organiser)
    for url, most in {
        reverse("tournaments_manage:match_days", args=[event.slug]): 9,
        reverse("tournaments_manage:match_day", args=[event.slug, 1]): 9,
        reverse("tournaments:team_standings", args=[event.slug]): 9,  # logged in: session and user
    }.items():
        with django_assert_max_num_queries(most):
            assert client.get(url).status_code == 200
