"""Two organisers entering hands into one game at the same moment, or one tapping "Save hand" twice.

The services lock the game row (SELECT … FOR UPDATE) and compare the version the organiser saw, so the
second submission waits for the first, then either gets "the game changed" (same version seen),
"already saved" (the same hand resubmitted) or is appended after it — never a lost or a duplicated
hand. The row-lock tests run where CI points DATABASE_URL at PostgreSQL; the double-tap test runs on
both: on SQLite, writers queue thanks to the IMMEDIATE transactions of config/settings.py (in a
file-based test database, see tests/conftest.py).
"""

from __future__ import annotations

import threading

import pytest
from django.contrib.messages import get_messages
from django.db import connection, connections
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse

from league.models import Hanchan
from scoring import services
from scoring.engine import Hand, Win
from scoring.models import Hand as HandRow

pytestmark = pytest.mark.django_db(transaction=True)
postgresql_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="row locks need PostgreSQL (DATABASE_URL)"
)


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
    data = {"result": "ron", "winner": 1, "loser": 3, "han": 2, "fu": 30, "riichi": [1], "version": 0}

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
