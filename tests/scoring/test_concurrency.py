"""Two organisers entering hands into one game at the same moment, on a real PostgreSQL server.

The services lock the game row (SELECT … FOR UPDATE) and compare the version the organiser saw, so the
second submission waits for the first, then either gets "the game changed" (same version seen) or is
appended after it — never a lost or a duplicated hand. SQLite serialises writers by itself and has no
row locks, so this runs where CI points DATABASE_URL at PostgreSQL.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections

from league.models import Hanchan
from scoring import services
from scoring.engine import Hand, Win
from scoring.models import Hand as HandRow

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL (DATABASE_URL)"),
]


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
        thread.join(timeout=30)
    return outcomes


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
