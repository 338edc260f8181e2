"""Tenhou R and OpenSkill: the formulas by hand, the stored history per event and lifetime, and its
rebuild after a game is corrected, voided, reopened or finished.

The services mark the games to rebuild in their transaction and a background worker rebuilds them once
it commits, so the database tests run in real transactions (``transaction=True``) and call
:func:`worker` where the site's worker would run: what they see is what a visitor sees once it has.
"""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse
from openskill.models import PlackettLuce

from background.models import Pending
from background.worker import run_ready
from league.models import Event, Player, Registration
from scoring import ratings, services
from scoring.engine import Hand, Win
from scoring.models import RatingChange
from scoring.ratings import (
    Rating,
    current_ratings,
    rate_game,
    rebuild_all_ratings,
    tenhou_adjustment,
    tenhou_bases,
    tenhou_deltas,
)
from tests.conftest import make_event

TENHOU, OPENSKILL = RatingChange.System.TENHOU, RatingChange.System.OPENSKILL

# -- the formulas ----------------------------------------------------------------------------------------


def test_tenhou_adjustment_slows_down_to_a_floor_at_400_games():
    assert tenhou_adjustment(0) == 1
    assert tenhou_adjustment(1) == pytest.approx(0.998)
    assert tenhou_adjustment(399) == pytest.approx(0.202)
    assert tenhou_adjustment(400) == tenhou_adjustment(5000) == 0.2


def test_four_new_players_move_by_the_bases():
    assert tenhou_deltas([1500] * 4, [0] * 4, [1, 2, 3, 4]) == [30, 10, -10, -30]
    assert tenhou_deltas([1500] * 4, [0] * 4, [3, 1, 4, 2]) == [-10, 30, -30, 10]


def test_the_table_average_is_over_the_other_three_players():
    # Ann 1530 (1 game), Bob 1510 (1), Cho 1490 (1), Eve new; Eve 1st, Cho 2nd, Bob 3rd, Ann 4th.
    deltas = tenhou_deltas([1530, 1510, 1490, 1500], [1, 1, 1, 0], [4, 3, 2, 1])
    ann = 0.998 * (-30 + ((1510 + 1490 + 1500) / 3 - 1530) / 40)  # 0.998 × −30.75
    bob = 0.998 * (-10 + ((1530 + 1490 + 1500) / 3 - 1510) / 40)
    cho = 0.998 * (10 + ((1530 + 1510 + 1500) / 3 - 1490) / 40)
    eve = 1.0 * (30 + ((1530 + 1510 + 1490) / 3 - 1500) / 40)  # 30.25
    assert deltas == pytest.approx([ann, bob, cho, eve])
    assert deltas == pytest.approx([-30.6885, -10.0631667, 10.5621667, 30.25])


def test_shared_places_share_the_bases_of_the_places_they_occupy():
    assert tenhou_bases([1, 1, 3, 4]) == [20, 20, -10, -30]
    assert tenhou_bases([1, 2, 2, 4]) == [30, 0, 0, -30]
    assert tenhou_bases([1, 2, 2, 2]) == pytest.approx([30, -10, -10, -10])
    assert tenhou_bases([1, 1, 1, 1]) == [0, 0, 0, 0]
    assert sum(tenhou_deltas([1500, 1520, 1480, 1500], [3, 9, 0, 400], [2, 2, 1, 4])) != 0  # adj differs


def test_openskill_ranks_by_place_with_ties_as_equal_ranks():
    after = rate_game([Rating()] * 4, [1, 2, 2, 4])
    assert after[1].mu == after[2].mu and after[1].sigma == after[2].sigma
    assert after[0].mu > after[1].mu > after[3].mu
    model = PlackettLuce()
    expected = model.rate([[model.rating()] for _ in range(4)], ranks=[1, 2, 2, 4])
    assert [r.mu for r in after] == pytest.approx([team[0].mu for team in expected])
    assert Rating().openskill == pytest.approx(0)  # μ − 3σ of a new player: 25 − 3 × 25/3


# -- the stored history ----------------------------------------------------------------------------------

db = pytest.mark.django_db(transaction=True)


def worker() -> None:
    """What the background worker does after a change commits: every queued task (scoring/tasks.py)."""
    run_ready()


def final_game(event: Event, table: list[Player], scores: list[int], user, *, rebuilt: bool = True):  # type: ignore[no-untyped-def]
    game = services.start_game(event=event, players=table, user=user, entry_mode="final_scores")
    services.record_final_scores(hanchan=game, scores=scores, user=user)
    if rebuilt:
        worker()
    return game


def history(
    player: Player, system: str = TENHOU, event: Event | None = None
) -> list[tuple[int, float, float]]:
    rows = RatingChange.objects.filter(player=player, system=system, event=event).order_by("at", "hanchan_id")
    return [(r.hanchan_id, r.before, r.after) for r in rows]


def snapshot() -> list[tuple]:
    return list(
        RatingChange.objects.order_by("system", "event_id", "player_id", "at", "hanchan_id").values_list(
            "system", "event_id", "player_id", "hanchan_id", "games", "before", "after", "mu", "sigma"
        )
    )


def assert_same_as_a_full_rebuild() -> None:
    """What the incremental rebuilds left equals rating every game again from nothing."""
    before = snapshot()
    rebuild_all_ratings()
    after = snapshot()
    assert len(before) == len(after)
    for old, new in zip(before, after, strict=True):
        assert old[:5] == new[:5]
        assert old[5:] == pytest.approx(new[5:])


@db
def test_a_first_game_and_a_second_one_with_different_ratings(event, players, organiser):
    ann, bob, cho, dan, eve = players[:5]
    first = final_game(event, [ann, bob, cho, dan], [40000, 32000, 28000, 20000], organiser)
    for scope in (event, None):
        rows = RatingChange.objects.filter(hanchan=first, system=TENHOU, event=scope).order_by("player__pk")
        assert [(r.before, r.after, r.games) for r in rows] == [
            (1500, 1530, 1),
            (1500, 1510, 1),
            (1500, 1490, 1),
            (1500, 1470, 1),
        ]
    second = final_game(event, [ann, bob, cho, eve], [20000, 28000, 32000, 40000], organiser)
    got = {
        r.player_id: r.after - r.before
        for r in RatingChange.objects.filter(hanchan=second, system=TENHOU, event=event)
    }
    assert [got[p.pk] for p in (ann, bob, cho, eve)] == pytest.approx(
        [-30.6885, -10.0631667, 10.5621667, 30.25]
    )
    assert RatingChange.objects.get(hanchan=second, system=TENHOU, event=event, player=ann).games == 2
    assert RatingChange.objects.get(hanchan=second, system=TENHOU, event=event, player=eve).games == 1
    openskill = RatingChange.objects.get(hanchan=first, system=OPENSKILL, event=event, player=ann)
    assert openskill.before == pytest.approx(0)
    assert openskill.after == pytest.approx(openskill.mu - 3 * openskill.sigma)
    assert RatingChange.objects.count() == 2 * 2 * 8  # 2 systems × 2 scopes × 2 games × 4 players


@db
def test_tied_players_with_equal_ratings_get_the_same_change(event, players, organiser):
    game = final_game(event, players[:4], [40000, 30000, 30000, 20000], organiser)  # split tie for 2nd
    for system in (TENHOU, OPENSKILL):
        rows = RatingChange.objects.filter(hanchan=game, event=event, system=system)
        bob, cho = (rows.get(player=p) for p in players[1:3])
        assert bob.after - bob.before == pytest.approx(cho.after - cho.before)
        assert (bob.mu, bob.sigma) == pytest.approx((cho.mu, cho.sigma)) if system == OPENSKILL else True
        assert rows.get(player=players[0]).after > bob.after > rows.get(player=players[3]).after
    assert RatingChange.objects.get(hanchan=game, event=event, system=TENHOU, player=players[1]).after == 1500


@db
def test_a_correction_rewrites_the_later_history(event, players, organiser):
    ann, bob, cho, dan, eve = players[:5]
    first = final_game(event, [ann, bob, cho, dan], [40000, 32000, 28000, 20000], organiser)
    second = final_game(event, [ann, bob, cho, eve], [20000, 28000, 32000, 40000], organiser)
    assert history(ann, event=event)[1][1] == 1530
    services.record_final_scores(
        hanchan=first, scores=[20000, 32000, 28000, 40000], user=organiser, reason="swapped slips"
    )
    worker()
    # Ann now 1470 after one game, 4th against Bob 1510, Cho 1490, Eve 1500: 0.998 × (−30 + 30 / 40).
    assert history(ann, event=event) == [(first.pk, 1500, 1470), (second.pk, 1470, pytest.approx(1440.8085))]
    assert history(dan, event=event) == [(first.pk, 1500, 1530)]
    assert_same_as_a_full_rebuild()


@db
def test_a_hand_correction_in_a_finished_game_rewrites_the_history(event, players, organiser):
    game = services.start_game(event=event, players=players[:4], user=organiser)
    services.record_hand(hanchan=game, hand=Hand.ron(2, Win(0, 3, 40)), user=organiser)
    services.finish_game(hanchan=game, user=organiser, reason="time limit")
    worker()
    assert history(players[0], event=event) == [(game.pk, 1500, 1530)]
    services.correct_hand(
        hanchan=game, number=1, hand=Hand.ron(0, Win(2, 3, 40)), user=organiser, reason="wrong winner"
    )
    worker()
    assert history(players[0], event=event) == [(game.pk, 1500, 1470)]
    assert history(players[2], event=event) == [(game.pk, 1500, 1530)]


@db
def test_a_void_and_a_reopen_take_the_game_out_of_the_history(event, players, organiser):
    ann, bob, cho, dan, eve = players[:5]
    first = final_game(event, [ann, bob, cho, dan], [40000, 32000, 28000, 20000], organiser)
    second = final_game(event, [ann, bob, cho, eve], [20000, 28000, 32000, 40000], organiser)
    services.void_game(hanchan=first, user=organiser, reason="wrong event")
    worker()
    assert not RatingChange.objects.filter(hanchan=first).exists()
    assert history(ann, event=event) == [(second.pk, 1500, 1470)]  # a new player again
    assert history(ann) == [(second.pk, 1500, 1470)]  # lifetime too
    assert RatingChange.objects.get(hanchan=second, event=event, system=TENHOU, player=ann).games == 1
    assert_same_as_a_full_rebuild()

    services.reopen_game(hanchan=first, user=organiser, reason="it was right")
    worker()
    assert not RatingChange.objects.filter(hanchan=first).exists()
    services.record_final_scores(hanchan=first, scores=[40000, 32000, 28000, 20000], user=organiser)
    worker()
    # Finished again now, so it comes after the second game.
    assert [h for h, *_ in history(ann, event=event)] == [second.pk, first.pk]
    assert_same_as_a_full_rebuild()


@db
def test_lifetime_runs_across_events_and_each_event_keeps_its_own(event, players, organiser, club):
    spring = make_event(club, slug="spring-cup")
    for player in players:
        Registration.objects.create(event=spring, player=player)
    ann, bob, cho, dan = players[:4]
    autumn_game = final_game(event, [ann, bob, cho, dan], [40000, 32000, 28000, 20000], organiser)
    spring_game = final_game(spring, [ann, bob, cho, dan], [40000, 32000, 28000, 20000], organiser)
    assert history(ann, event=spring) == [(spring_game.pk, 1500, 1530)]  # the event's own rating
    # Lifetime: the same four again, Ann 1530 against 1510, 1490, 1470: 0.998 × (30 + (1490 − 1530) / 40).
    assert history(ann) == [(autumn_game.pk, 1500, 1530), (spring_game.pk, 1530, pytest.approx(1558.942))]

    services.void_game(hanchan=autumn_game, user=organiser, reason="not rated")
    worker()
    assert history(ann) == [(spring_game.pk, 1500, 1530)]
    assert history(ann, event=spring) == [(spring_game.pk, 1500, 1530)]
    assert_same_as_a_full_rebuild()


@db
def test_one_rebuild_per_transaction_from_the_earliest_game(event, players, organiser):
    with transaction.atomic():
        games = [
            final_game(event, players[:4], [40000, 32000, 28000, 20000], organiser, rebuilt=False),
            final_game(event, players[1:5], [40000, 32000, 28000, 20000], organiser, rebuilt=False),
        ]
        wakes = [f for _, f, _ in connection.run_on_commit if getattr(f, "wakes_kind", None) == "ratings"]
        assert len(wakes) == 1  # one wake-up for the transaction
        assert set(Pending.objects.filter(kind="ratings").values_list("key", flat=True)) == {
            str(g.pk) for g in games
        }
    assert not RatingChange.objects.exists()  # committed: the worker has not run yet
    assert ratings.ratings_pending(event) and ratings.ratings_pending()
    worker()
    assert RatingChange.objects.filter(event=event).count() == 16
    assert not Pending.objects.exists() and not ratings.ratings_pending()
    assert_same_as_a_full_rebuild()


@db
def test_a_rolled_back_change_schedules_nothing(event, players, organiser):
    with pytest.raises(RuntimeError), transaction.atomic():
        final_game(event, players[:4], [40000, 32000, 28000, 20000], organiser, rebuilt=False)
        raise RuntimeError("undo")
    assert not connection.run_on_commit and not Pending.objects.exists()
    worker()
    assert not RatingChange.objects.exists()
    final_game(event, players[:4], [40000, 32000, 28000, 20000], organiser)
    assert RatingChange.objects.count() == 16


@db
def test_unfinished_games_change_nothing(event, players, organiser):
    game = services.start_game(event=event, players=players[:4], user=organiser)
    services.record_hand(hanchan=game, hand=Hand.ron(2, Win(0, 3, 40)), user=organiser)
    assert not RatingChange.objects.exists()
    report = ratings.rebuild_ratings_from(game)
    assert report.games == 0 and report.rows_written == 0


@db
def test_ratings_page_lists_players_by_each_system(event, players, organiser):
    ann, bob, cho, dan = players[:4]
    final_game(event, [ann, bob, cho, dan], [20000, 40000, 32000, 28000], organiser)
    table = current_ratings(event)
    assert [r.name for r in table[TENHOU]] == ["Bob", "Cho", "Dan", "Ann"]
    assert [r.name for r in table[OPENSKILL]] == ["Bob", "Cho", "Dan", "Ann"]
    assert table[TENHOU][0].rating == 1530 and table[TENHOU][0].games == 1
    html = Client().get(reverse("scoring:ratings", args=[event.slug])).content.decode()
    assert "1530.0" in html and "other three" in html
    assert html.index("Bob") < html.index("Cho") < html.index("Ann")
    assert ">Eve<" not in html  # registered, not rated


@db
def test_members_only_ratings_need_a_login(event, players, organiser, player_user):
    event.visibility = Event.Visibility.MEMBERS
    event.save()
    url = reverse("scoring:ratings", args=[event.slug])
    response = Client().get(url)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    member = Client()
    member.force_login(player_user)
    assert member.get(url).status_code == 200


@db
def test_player_page_shows_both_rating_histories(event, players, organiser):
    for n in range(3):
        final_game(event, players[:4], [40000 - n * 100, 32000 + n * 100, 28000, 20000], organiser)
    html = Client().get(reverse("scoring:player", args=[players[0].pk])).content.decode()
    assert "Tenhou R" in html and "OpenSkill" in html
    assert "after 3 games" in html
    from tests.scoring.test_statistics import charts

    assert set(charts(Client(), html)) == {"cumulative", "places", "tenhou", "openskill"}
    event_html = Client().get(reverse("scoring:player", args=[players[0].pk]), {"event": event.slug}).content
    assert reverse("scoring:ratings", args=[event.slug]) in event_html.decode()


@db
def test_lifetime_history_hides_the_games_of_members_only_events(event, players, organiser, club):
    members_event = make_event(club, slug="members-cup")
    members_event.visibility = Event.Visibility.MEMBERS
    members_event.save()
    for player in players[:4]:
        Registration.objects.create(event=members_event, player=player)
    hidden = final_game(members_event, players[:4], [40000, 32000, 28000, 20000], organiser)
    shown = final_game(event, players[:4], [40000, 32000, 28000, 20000], organiser)
    visible = ratings.rating_history(
        players[0], event=None, visible_events=Event.objects.filter(visibility="public")
    )
    [point] = visible[TENHOU]
    assert point.hanchan_id == shown.pk and point.before == 1530 and point.games == 2  # true values
    html = Client().get(reverse("scoring:player", args=[players[0].pk])).content.decode()
    assert reverse("scoring:game", args=[hidden.pk]) not in html


@db
def test_the_rebuild_command_rates_everything_again(event, players, organiser):
    final_game(event, players[:4], [40000, 32000, 28000, 20000], organiser)
    expected = snapshot()
    RatingChange.objects.all().delete()
    out = io.StringIO()
    call_command("rebuild_ratings", stdout=out)
    assert snapshot() == expected
    assert "1 game" in out.getvalue() and "16 rows" in out.getvalue()


@db
def test_pages_say_ratings_are_updating_until_the_worker_has_rebuilt_them(event, players, organiser):
    """While a correction waits for the worker, the ratings page and every player page say "updating…"
    — even the page of a player whose results version the correction did not move (Fay played only an
    earlier game), cached before it — and once the worker is done none does, whether or not the rebuild
    moved that player's version: the ratings state is part of the cache key and of the ETag."""
    ann, bob, cho, dan, _eve, fay = players
    final_game(event, [fay, bob, cho, dan], [40000, 32000, 28000, 20000], organiser)
    game = final_game(event, [ann, bob, cho, dan], [40000, 32000, 28000, 20000], organiser)
    client = Client()
    fay_url, ratings_url = (
        reverse("scoring:player", args=[fay.pk]),
        reverse("scoring:ratings", args=[event.slug]),
    )
    fay_version = Player.objects.get(pk=fay.pk).results_version
    first = client.get(fay_url)
    assert "ratings-updating" not in first.content.decode()

    services.record_final_scores(
        hanchan=game, scores=[20000, 32000, 28000, 40000], user=organiser, reason="x"
    )
    assert Player.objects.get(pk=fay.pk).results_version == fay_version  # her page's version did not move
    during = client.get(fay_url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert during.status_code == 200 and "Ratings updating…" in during.content.decode()
    assert "Ratings updating…" in client.get(ratings_url).content.decode()

    worker()
    assert Player.objects.get(pk=fay.pk).results_version == fay_version  # the rebuild did not move it either
    after = client.get(fay_url, HTTP_IF_NONE_MATCH=during["ETag"])
    assert after.status_code == 200 and "ratings-updating" not in after.content.decode()
    assert "ratings-updating" not in client.get(ratings_url).content.decode()
    assert client.get(fay_url, HTTP_IF_NONE_MATCH=after["ETag"]).status_code == 304


@db
def test_the_rebuild_command_takes_the_marks_it_supersedes(event, players, organiser):
    """``rebuild_ratings`` rates every game: the games marked for the worker before it are done with it,
    so the worker does not rate the whole history a second time (a bulk load marks every game)."""
    final_game(event, players[:4], [40000, 32000, 28000, 20000], organiser, rebuilt=False)
    assert Pending.objects.filter(kind="ratings").count() == 1 and not RatingChange.objects.exists()
    call_command("rebuild_ratings", stdout=io.StringIO())
    assert not Pending.objects.exists() and not ratings.ratings_pending()
    assert RatingChange.objects.count() == 16
