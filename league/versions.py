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
from typing import Any

from django.db import connection

from .models import Event, Player, Registration, Seat


def _ids(values: Iterable[int | None]) -> list[int]:
    return sorted({int(v) for v in values if v is not None})


def _marks(values: list[Any]) -> str:
    return ", ".join(["%s"] * len(values))


def _bump(model: type, where: str, params: list[Any]) -> None:
    """Set the results version of ``model``'s rows where ``where`` holds to the larger of their version
    + 1 and the time now in microseconds: one statement, written here rather than compiled by the ORM
    (an UPDATE with subqueries cost more to compile than to run, twice per hand saved)."""
    quote = connection.ops.quote_name
    table, column = quote(model._meta.db_table), quote("results_version")  # type: ignore[attr-defined]
    larger = "MAX" if connection.vendor == "sqlite" else "GREATEST"  # SQLite's MAX of two is scalar
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET {column} = {larger}({column} + 1, %s) WHERE {where}",
            [time.time_ns() // 1000, *params],
        )


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
    quote = connection.ops.quote_name
    if events:
        _bump(Event, f"{quote('id')} IN ({_marks(events)})", events)
    who: list[str] = []
    params: list[Any] = []
    if players:
        who.append(f"{quote('id')} IN ({_marks(players)})")
        params += players
    if events and event_players:
        # Rare (a change to a whole event): the ORM's subqueries, compiled (unordered: an IN needs none).
        for subquery in (
            Registration.objects.filter(event__in=events).values("player_id"),
            Seat.objects.filter(hanchan__event__in=events).values("player_id"),
            Seat.objects.filter(hanchan__event__in=events).values("on_behalf_of_id"),
        ):
            sql, sub_params = subquery.order_by().query.sql_with_params()
            who.append(f"{quote('id')} IN ({sql})")
            params += sub_params
    if games:
        seats = quote(Seat._meta.db_table)
        for column in ("player_id", "on_behalf_of_id"):
            who.append(
                f"{quote('id')} IN (SELECT {seats}.{quote(column)} FROM {seats} "
                f"WHERE {seats}.{quote('hanchan_id')} IN ({_marks(games)}))"
            )
            params += games
    if who:
        _bump(Player, " OR ".join(who), params)
