"""Two tournaments held here, played by the same four players, and a helper that runs the worker."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest
from django.utils import timezone

from background.worker import run_ready
from league.models import Event, Hanchan, Player, Registration
from scoring import services
from tests.conftest import make_event
from tests.league.conftest import other_club, other_organiser  # noqa: F401


def paper_game(event: Event, who: list[Player], scores: list[int], user: Any) -> Hanchan:
    game = services.start_game(event=event, players=who, user=user, entry_mode=Hanchan.EntryMode.FINAL_SCORES)
    services.record_final_scores(hanchan=game, scores=scores, user=user)
    game.refresh_from_db()
    return game


def make_tournament(club, slug: str, players: list[Player], scores: list[int], user, held_on: date) -> Event:
    event = make_event(club, slug=slug)
    Event.objects.filter(pk=event.pk).update(
        kind=Event.Kind.TOURNAMENT, start_date=held_on, end_date=held_on, ema_days=1
    )
    event.refresh_from_db()
    for player in players:
        Registration.objects.create(event=event, player=player)
    paper_game(event, players, scores, user)
    return event


def worker() -> None:
    """Where the worker would run: every ready task, in the test's process. The ratings rebuild that a
    finished game asks for moves the events' versions too, so a page then marks one more recomputation
    (which finds the same rows): run until nothing is stale."""
    from rankings import local

    for _ in range(3):
        run_ready()
        if not local.stale():
            return


@pytest.fixture
def four(club) -> list[Player]:
    return [
        Player.objects.create(display_name=name, club=club, country="FR", ema_number=f"0400000{i}")
        for i, name in enumerate(["Ann", "Bob", "Cho", "Dan"], start=1)
    ]


@pytest.fixture
def two_tournaments(club, four, organiser) -> list[Event]:
    """Spring: Ann 1, Bob 2, Cho 3, Dan 4. Autumn: Bob 1, Ann and Cho tied 2nd, Dan 4.

    Base ranks among 4: 1 → 1000, 2 → 667, 3 → 333, 4 → 0. Weights 1 (one day, 4 players, 1 country).
    Ann: 1000 and 667 → Part A (1667 + 0 × 3) / 5 = 333.4, Part B 1667 / 4 = 416.75 → 375.075.
    Bob: 667 and 1000 → the same 375.075. Cho: 333 and 667 → 200 and 250 → 225. Dan: 0 and 0 → 0.
    """
    today = timezone.localdate()
    ann, bob, cho, dan = four
    spring = make_tournament(
        club,
        "spring-open",
        [ann, bob, cho, dan],
        [45000, 32000, 25000, 18000],
        organiser,
        today - timedelta(days=200),
    )
    autumn = make_tournament(
        club,
        "autumn-open",
        [bob, ann, cho, dan],
        [45000, 28000, 28000, 19000],
        organiser,
        today - timedelta(days=20),
    )
    return [spring, autumn]
