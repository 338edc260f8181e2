"""Two organisers entering hands into one game at the same moment, or one tapping "Save hand" twice.

The services lock the game row (SELECT … FOR UPDATE) and compare the version the organiser saw, so the
second submission waits for the first, then either gets "the game changed" (same version seen),
"already saved" (the same hand resubmitted) or is appended after it — never a lost or a duplicated
hand. The row-lock tests run where CI points DATABASE_URL at PostgreSQL; the double-tap test runs on
both: on SQLite, writers queue thanks to the IMMEDIATE transactions of config/settings.py (in a
file-based test database, see tests/conftest.py).
"""

from __future__ import annotations

import logging
import threading
import time

import pytest
from django.contrib.messages import get_messages
from django.db import OperationalError, connection, connections, transaction
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from background.models import Pending
from background.worker import run_ready
from league.models import Hanchan, Player, Registration
from scoring import ratings, services
from scoring.engine import Hand, Win
from scoring.models import Hand as HandRow
from scoring.models import RatingChange
from scoring.ratings import rebuild_all_ratings
from scoring.services.hands import lock_game

pytestmark = pytest.mark.django_db(transaction=True)
# Row locks need PostgreSQL: these run in CI's second pass, where DATABASE_URL points at it.
postgresql_only = pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks: DATABASE_URL")


def run_concurrently(calls: list) -> list:
    """Run each call in its own thread and database connection, released together by a barrier."""
    barrier = threading.Barrier(len(calls))
    outcomes: list = [None] * len(calls)

    def worker(index: int, call) -> None:
        try:
            barrier.wait()
            outcomes[index] = call()
        except Exception as exc:  # noqa: BLE001 - the outcome is what the test inspects
            outcomes[index] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return outcomes


@postgresql_only
def test_same_version_seen_twice_saves_one_hand(event, players, organiser):
    game = services.start_game(event=event, players=players[:4], user=organiser)
    hands = [Hand.ron(2, Win(0, 3, 40)), Hand.tsumo(Win(1, 2, 30))]
    for _ in range(5):
        version = Hanchan.objects.get(pk=game.pk).version
        before = HandRow.objects.filter(hanchan=game).count()
        outcomes = run_concurrently(
            [
                lambda h=h, version=version: services.record_hand(
                    hanchan=Hanchan.objects.get(pk=game.pk), hand=h, user=organiser, expected_version=version
                )
                for h in hands
            ]
        )
        saved = [o for o in outcomes if isinstance(o, HandRow)]
        refused = [o for o in outcomes if isinstance(o, services.GameChanged)]
        assert len(saved) == 1 and len(refused) == 1, outcomes
        assert refused[0].current_version == version + 1
        assert HandRow.objects.filter(hanchan=game).count() == before + 1


@postgresql_only
def test_concurrent_appends_get_distinct_numbers(event, players, organiser):
    game = services.start_game(event=event, players=players[:4], user=organiser)
    outcomes = run_concurrently(
        [
            lambda: services.record_hand(
                hanchan=Hanchan.objects.get(pk=game.pk), hand=Hand.draw(()), user=organiser
            )
            for _ in range(4)
        ]
    )
    assert all(isinstance(o, HandRow) for o in outcomes), outcomes
    numbers = sorted(HandRow.objects.filter(hanchan=game).values_list("number", flat=True))
    assert numbers == [1, 2, 3, 4]
    assert Hanchan.objects.get(pk=game.pk).version == 4


def test_twenty_taps_on_save_hand_save_one_hand(event, players, organiser, settings):
    """The same form posted 20 times at once (a frantic double tap, a resent page): one hand is saved,
    every other request answers "already saved", and none fails (no "database is locked" on SQLite)."""
    game = services.start_game(event=event, players=players[:4], user=organiser)
    logged_in = Client()
    logged_in.force_login(organiser)
    session = logged_in.cookies[settings.SESSION_COOKIE_NAME].value
    url = reverse("scoring_manage:hand_add", args=[game.pk])
    data = {
        "result": "ron",
        "winner": 1,
        "loser": 3,
        "han": 2,
        "fu": 30,
        "riichi": [1],
        "version": 0,
        "entry_key": "form-key-0001",  # one rendered form, posted 20 times
    }

    def tap() -> HttpResponse:
        client = Client()  # one per thread: each request runs on its own database connection
        client.cookies[settings.SESSION_COOKIE_NAME] = session
        return client.post(url, data)

    outcomes = run_concurrently([tap for _ in range(20)])
    errors = [o for o in outcomes if not isinstance(o, HttpResponse)]
    assert errors == []  # the test client re-raises a server error: none here
    assert {o.status_code for o in outcomes} <= {200, 302, 409}  # never a 500
    said = sorted(str(m) for o in outcomes for m in get_messages(o.wsgi_request))
    assert said == ["Hand 1 saved."] + ["This hand was already saved (hand 1)."] * 19
    assert [o.status_code for o in outcomes] == [302] * 20
    assert HandRow.objects.filter(hanchan=game).count() == 1
    assert Hanchan.objects.get(pk=game.pk).version == 1


def _rating_rows() -> list[tuple]:
    """Every stored rating row, in a stable order, for comparing two histories."""
    return list(
        RatingChange.objects.order_by("system", "event_id", "player_id", "at", "hanchan_id").values_list(
            "system", "event_id", "player_id", "hanchan_id", "games", "before", "after", "mu", "sigma", "at"
        )
    )


def test_sixteen_tables_of_one_event_write_at_once_without_an_error(event, club, organiser, caplog):
    """Tournament day: 16 tables of one event enter hands, finish, correct and enter final scores at the
    same moment. Every write succeeds (no "deadlock detected": each service locks its own game row only,
    and the ratings rebuilds after each commit are serialised by one lock taken first), no after-commit
    rebuild fails, and the stored ratings are exactly those of a full rebuild."""
    people = [Player.objects.create(display_name=f"P{i:02}", club=club) for i in range(16)]
    Registration.objects.bulk_create([Registration(event=event, player=p) for p in people])
    games = []
    for i in range(16):
        seated = [people[(i + step * 5) % 16] for step in range(4)]  # 4 different players per table
        mode = Hanchan.EntryMode.HANDS if i % 2 else Hanchan.EntryMode.FINAL_SCORES
        games.append(services.start_game(event=event, players=seated, user=organiser, entry_mode=mode))
    # Two tables of the rush already have their final scores: correcting them moves the ratings too.
    for game in games[0:4:2]:
        services.record_final_scores(hanchan=game, scores=[40000, 30000, 25000, 25000], user=organiser)

    def table(game: Hanchan, i: int):
        def write() -> str:
            fresh = Hanchan.objects.get(pk=game.pk)
            if fresh.entry_mode == Hanchan.EntryMode.HANDS:
                for hand in (
                    Hand.ron((i + 1) % 4, Win(i % 4, 2, 30)),
                    Hand.draw((0, 2)),
                    Hand.tsumo(Win((i + 2) % 4, 3, 30)),
                    Hand.ron(i % 4, Win((i + 3) % 4, 1, 30)),
                ):
                    services.record_hand(hanchan=Hanchan.objects.get(pk=game.pk), hand=hand, user=organiser)
                services.finish_game(hanchan=Hanchan.objects.get(pk=game.pk), user=organiser, reason="time")
                for tenpai in ((1,), (0, 2), (3,)):  # corrections of a finished game: ratings move
                    services.correct_hand(
                        hanchan=Hanchan.objects.get(pk=game.pk),
                        number=2,
                        hand=Hand.draw(tenpai),
                        user=organiser,
                        reason="tenpai misread",
                    )
            else:
                scores = [30000 + 1000 * (i % 5), 30000, 30000, 30000 - 1000 * (i % 5)]
                services.record_final_scores(hanchan=fresh, scores=scores, user=organiser, reason="slip")
                for _ in range(3):
                    scores = [scores[3], scores[1], scores[2], scores[0]]
                    services.record_final_scores(
                        hanchan=Hanchan.objects.get(pk=game.pk),
                        scores=scores,
                        user=organiser,
                        reason="seats swapped on the slip",
                    )
            return "ok"

        return write

    with caplog.at_level(logging.ERROR):
        outcomes = run_concurrently([table(game, i) for i, game in enumerate(games)])
    assert outcomes == ["ok"] * 16
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []  # no lost rebuild
    assert Hanchan.objects.filter(event=event, status=Hanchan.Status.FINISHED).count() == 16
    run_ready()  # the background worker rebuilds what the 16 tables marked (scoring/tasks.py)
    assert not Pending.objects.exists()
    stored = _rating_rows()
    assert len(stored) == 16 * 4 * 2 * 2  # 16 games × 4 players × 2 systems × (event + lifetime)
    rebuild_all_ratings()
    assert _rating_rows() == stored


@postgresql_only
def test_a_game_lock_leaves_the_event_and_the_rating_rows_free(event, players, organiser):
    """The footprint behind "deadlock detected" on tournament day, played step by step.

    A ratings rebuild writes rows pointing at the event and at games; their foreign keys are checked
    when it commits, which takes a key-share lock on each row pointed at. When ``lock_game`` locked the
    event row too (FOR UPDATE), a writer holding game B waited for the event while the rebuild's commit
    waited for B: a cycle. Now a writer locks its game alone, FOR NO KEY UPDATE, which blocks neither
    the event nor the rating rows pointing at that very game: the rebuild commits without waiting."""
    game_a = services.start_game(event=event, players=players[:4], user=organiser)
    game_b = services.start_game(event=event, players=players[2:6], user=organiser)
    locked, release = threading.Event(), threading.Event()

    def writer() -> str:
        with transaction.atomic():
            lock_game(Hanchan.objects.get(pk=game_b.pk), None)
            locked.set()
            release.wait(timeout=3)  # a writer busy with its game
        return "written"

    def rating_row(game: Hanchan) -> RatingChange:
        return RatingChange(
            system=RatingChange.System.TENHOU,
            event=event,
            player=players[0],
            hanchan=game,
            games=1,
            before=1500,
            after=1530,
            at=timezone.now(),
        )

    outcome: list = []
    thread = threading.Thread(target=lambda: outcome.append(run_concurrently([writer])[0]))
    thread.start()
    try:
        assert locked.wait(timeout=5)
        started = time.monotonic()
        with transaction.atomic():  # the rebuild: rows pointing at the event, at A and at B (locked)
            rating_row(game_a).save()
            rating_row(game_b).save()
        waited = time.monotonic() - started
    finally:
        release.set()
        thread.join(timeout=20)
    assert waited < 1, f"the rebuild waited {waited:.1f} s for the writer of a game"
    assert outcome == ["written"]


def test_a_rebuild_aborted_by_the_database_is_run_again(event, players, organiser, monkeypatch, caplog):
    """A ratings rebuild the database aborts (a deadlock or a serialization failure: SQLSTATE 40P01 or
    40001) after the scores are committed is not lost: the worker keeps the game's mark with the error
    and runs the rebuild again when it is due, to the same ratings as a full rebuild."""

    class Deadlock(Exception):
        sqlstate = "40P01"

    real = ratings.rebuild_ratings_for
    calls: list[int] = []

    def aborted_once(hanchan_ids):
        calls.append(1)
        if len(calls) == 1:
            try:
                raise Deadlock("deadlock detected")
            except Deadlock as cause:
                raise OperationalError("deadlock detected") from cause
        return real(hanchan_ids)

    monkeypatch.setattr(ratings, "rebuild_ratings_for", aborted_once)
    game = services.start_game(event=event, players=players[:4], user=organiser, entry_mode="final_scores")
    services.record_final_scores(hanchan=game, scores=[40000, 30000, 25000, 25000], user=organiser)
    with caplog.at_level(logging.ERROR):
        run_ready()
    assert len(calls) == 1 and not RatingChange.objects.filter(hanchan=game).exists()
    mark = Pending.objects.get()
    assert mark.attempts == 1 and not mark.failed and "deadlock detected" in mark.last_error
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []  # a retry, not a loss
    Pending.objects.update(run_after=timezone.now())  # its retry is due
    run_ready()
    assert len(calls) == 2 and not Pending.objects.exists()
    assert RatingChange.objects.filter(hanchan=game).count() == 16  # 4 players × 2 systems × 2 scopes
    stored = _rating_rows()
    rebuild_all_ratings()
    assert _rating_rows() == stored
