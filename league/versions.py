"""Results versions: the numbers that the cached public pages are keyed by (``scoring/cache.py``).

``Event.results_version`` and ``Player.results_version`` move forward in the same transaction as every
change of what an event's or a player's pages show, so a page cached under a version is never stale and
nothing waits for a timer. The writer lives here, beside the columns, because league's own services
(event settings, registrations, player edits) bump them too and league may not import scoring;
``scoring.cache.bump_results`` is this function.

The versions key *public* pages only, so they move only for what the public may see: a change that
concerns only games of rounds a tournament keeps for its final reveal (``league.hidden_rounds``) moves
nothing (``because_of``), or a visitor polling the standings would learn from a new ETag when hidden
results come in; the release moves every page of the event.

Two numbers move: ``results_version`` at every change, and ``shown_version`` at every change that is
not only results — a registration, a visibility, a reveal, a rename: any bump without ``because_of``.
A change of results alone (a hand, a result, a rating rebuilt from games: the bumps that name the games
they are about) moves only ``results_version``. The whole-page cache (``league/wholepage.py``) may serve
a page a few seconds behind its results version while one request renders the new one, never across a
move of ``shown_version``.

A new version is never an old one again, even after the database is restored from a backup: it is the
larger of the old version + 1 and the current time in microseconds. A page cached under a number that a
restored database hands out again would otherwise come back with content from the lost timeline.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

from django.db import connection

from .hidden_rounds import PUBLIC_GAME_SQL
from .models import Event, Hanchan, Player, Registration, Seat

BECAUSE_OF_MAX = 100
"""The most games ``because_of`` checks; a change of more (every game of an event: a rules change) moves
the versions whatever its games."""


def _ids(values: Iterable[int | None]) -> list[int]:
    return sorted({int(v) for v in values if v is not None})


def _marks(values: list[Any]) -> str:
    return ", ".join(["%s"] * len(values))


def _bump(model: type, where: str, params: list[Any], *, shown: bool = True) -> None:
    """Set the results version of ``model``'s rows where ``where`` holds to the larger of their version
    + 1 and the time now in microseconds, and the shown version too unless ``shown`` is false (a change
    of results only): one statement, written here rather than compiled by the ORM (an UPDATE with
    subqueries cost more to compile than to run, twice per hand saved)."""
    quote = connection.ops.quote_name
    table = quote(model._meta.db_table)  # type: ignore[attr-defined]
    larger = "MAX" if connection.vendor == "sqlite" else "GREATEST"  # SQLite's MAX of two is scalar
    columns = [quote("results_version"), *([quote("shown_version")] if shown else [])]
    sets = ", ".join(f"{column} = {larger}({column} + 1, %s)" for column in columns)
    now = time.time_ns() // 1000
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {table} SET {sets} WHERE {where}", [*([now] * len(columns)), *params])


def _public_games(games: list[int]) -> tuple[str, list[Any]]:
    """A condition (for the WHERE of a bump) that holds when one of ``games`` is one the public may see."""
    quote = connection.ops.quote_name
    hanchans, events = quote(Hanchan._meta.db_table), quote(Event._meta.db_table)
    public = PUBLIC_GAME_SQL.format(game="g", event="e")
    sql = (
        f"EXISTS (SELECT 1 FROM {hanchans} g INNER JOIN {events} e "
        f"ON e.{quote('id')} = g.{quote('event_id')} "
        f"WHERE g.{quote('id')} IN ({_marks(games)}) AND {public})"
    )
    return sql, list(games)


def bump_results(
    *,
    event_ids: Iterable[int | None] = (),
    player_ids: Iterable[int | None] = (),
    hanchan_ids: Iterable[int | None] = (),
    event_players: bool = False,
    because_of: Iterable[int | None] | None = None,
) -> None:
    """Move the results version of these events and players forward (the caller holds the transaction).

    ``hanchan_ids``: also the players seated in those games (and those a substitute sat for), whose
    pages list the game. ``event_players``: also every player registered or seated in those events — for
    a change that shows on all of their pages (the event renamed, its visibility or rules changed, a
    player renamed: opponents' pages show the name).
    ``because_of``: the games this change is about, when it is about games only (a hand, a result, a
    rating rebuilt from a game): when none of them is one the public may see (all in hidden rounds),
    nothing public changed and no version moves. Checked inside the same two statements (no query more).
    A bump with ``because_of`` is a change of results only: it leaves ``shown_version`` where it is;
    every other bump moves both.
    Events first, then players, each in one statement: two services bumping the same event queue on its
    row rather than crossing each other's player rows.
    """
    events = _ids(event_ids)
    players = _ids(player_ids)
    games = _ids(hanchan_ids)
    quote = connection.ops.quote_name
    cause = _ids(because_of or ())
    only_if, only_if_params = _public_games(cause) if 0 < len(cause) <= BECAUSE_OF_MAX else ("", [])
    shown = because_of is None
    if events:
        where = f"{quote('id')} IN ({_marks(events)})"
        _bump(Event, f"{where} AND {only_if}" if only_if else where, [*events, *only_if_params], shown=shown)
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
        where = " OR ".join(who)
        _bump(
            Player, f"({where}) AND {only_if}" if only_if else where, [*params, *only_if_params], shown=shown
        )
