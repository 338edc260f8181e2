"""Results versions: the numbers that the cached public pages are keyed by (``scoring/cache.py``).

``Event.results_version`` and ``Player.results_version`` move forward in the same transaction as every
change of what an event's or a player's pages show, so a page cached under a version is never stale and
nothing waits for a timer. The writer lives here, beside the columns, because league's own services
(event settings, registrations, player edits) bump them too and league may not import scoring;
``scoring.cache.bump_results`` is this function.

A new version is never an old one again, even after the database is restored from a backup: it is the
larger of the old version + 1 and the current time in microseconds. A page cached under a number that a
restored database hands out again would otherwise come back with content from the lost timeline.
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from django.db.models import F, Q, Value
from django.db.models.functions import Greatest

from .models import Event, Player, Registration, Seat


def _next_version() -> Greatest:
    now = Value(time.time_ns() // 1000)
    return Greatest(F("results_version") + 1, now)


def _ids(values: Iterable[int | None]) -> list[int]:
    return sorted({int(v) for v in values if v is not None})


def bump_results(
    *,
    event_ids: Iterable[int | None] = (),
    player_ids: Iterable[int | None] = (),
    hanchan_ids: Iterable[int | None] = (),
    event_players: bool = False,
) -> None:
    """Move the results version of these events and players forward (the caller holds the transaction).

    ``hanchan_ids``: also the players seated in those games (and those a substitute sat for), whose
    pages list the game. ``event_players``: also every player registered or seated in those events — for
    a change that shows on all of their pages (the event renamed, its visibility or rules changed, a
    player renamed: opponents' pages show the name).
    Events first, then players, each in one statement: two services bumping the same event queue on its
    row rather than crossing each other's player rows.
    """
    events = _ids(event_ids)
    players = _ids(player_ids)
    games = _ids(hanchan_ids)
    if events:
        Event.objects.filter(pk__in=events).update(results_version=_next_version())
    who = Q(pk__in=players) if players else Q()
    if events and event_players:
        who |= (
            Q(pk__in=Registration.objects.filter(event__in=events).values("player_id"))
            | Q(pk__in=Seat.objects.filter(hanchan__event__in=events).values("player_id"))
            | Q(pk__in=Seat.objects.filter(hanchan__event__in=events).values("on_behalf_of_id"))
        )
    if games:
        seats = Seat.objects.filter(hanchan__in=games)
        who |= Q(pk__in=seats.values("player_id")) | Q(pk__in=seats.values("on_behalf_of_id"))
    if who:
        Player.objects.filter(who).update(results_version=_next_version())
