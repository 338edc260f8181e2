"""Late changes on the day: the ways out after drop-outs or late arrivals, and who sits out when the
tables cannot seat everyone.

After drop-outs the players still in rarely fill their tables: 17 players at 5 tables leave 3 seats
empty. There are two ways out, and the organiser picks one (:func:`ways_out` lists those possible):

* **substitutes in**: keep the tables (or add one) and fill the empty seats with registered substitutes,
  who play every round left — possible when enough substitutes are registered;
* **fewer tables**: seat the players at fewer tables; when they do not fill them exactly, one to three
  players **sit out each round** (a *bye*: no game, so no points, that round). Byes go round the room
  (:func:`sit_outs`): nobody sits out twice before everyone still in has sat out once, counting the
  rounds each has already missed (a late arrival has missed some), and among those equal, whoever has
  missed the fewest rounds of the whole event sits out first.

Pure Python, like the rest of :mod:`tournaments.seating`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .schedule import TABLE_SIZE

MAX_BYES = TABLE_SIZE - 1
"""The most players who may sit out a round: four more would fill one more table."""


@dataclass(frozen=True)
class WayOut:
    """One way to seat the players still in from now on: ``tables`` tables a round, ``substitutes``
    substitute seats a round, ``byes`` players sitting out each round (never both)."""

    tables: int
    substitutes: int
    byes: int

    def change(self, current_tables: int) -> str:
        """How it differs from the tables played now: "same", "fewer" or "more" tables."""
        if self.tables == current_tables:
            return "same"
        return "fewer" if self.tables < current_tables else "more"


def ways_out(players: int, substitutes: int, current_tables: int) -> list[WayOut]:
    """The seatings possible for ``players`` still in, ``substitutes`` registered substitutes and the
    ``current_tables`` of the rounds left: as many tables as seat everyone (substitutes filling the
    empty seats), as many as the players fill (the rest sitting out, fewer than four a round), and the
    current number of tables, each when it can be done. Ordered from the most tables to the fewest.

    Raises ValueError for negative counts or fewer than four players (no table at all).
    """
    if players < 0 or substitutes < 0 or current_tables < 0:
        raise ValueError("player, substitute and table counts must not be negative")
    if players < TABLE_SIZE:
        raise ValueError(f"{players} players cannot fill a table of {TABLE_SIZE}")
    found = []
    for tables in sorted({players // TABLE_SIZE, -(-players // TABLE_SIZE), current_tables}, reverse=True):
        if tables < 1:
            continue
        seats = tables * TABLE_SIZE
        if seats >= players and seats - players <= substitutes:
            found.append(WayOut(tables, seats - players, 0))
        elif seats < players <= seats + MAX_BYES:
            found.append(WayOut(tables, 0, players - seats))
    return found


def sit_outs(
    players: Sequence[int],
    per_round: int,
    n_rounds: int,
    *,
    missed: Mapping[int, int] | None = None,
    seed: int = 1,
) -> list[list[int]]:
    """Who of ``players`` sits out each of ``n_rounds`` rounds, ``per_round`` of them a round.

    Whoever has missed the fewest rounds sits out next (``missed``: rounds each has already missed —
    earlier byes, rounds before a late arrival — 0 when not given), so the byes go round the room and
    nobody sits out twice while someone else still in has missed fewer rounds; nobody sits out two
    rounds running while that can be avoided. Ties are drawn by ``seed``. Deterministic for a seed.

    Raises ValueError unless ``0 <= per_round <= len(players)`` and ``n_rounds >= 0``, or when a player
    is listed twice.
    """
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice among the players still in")
    if not 0 <= per_round <= len(players):
        raise ValueError(f"{per_round} of {len(players)} players cannot sit out each round")
    if n_rounds < 0:
        raise ValueError(f"the number of rounds must not be negative, got {n_rounds}")
    rng = random.Random(seed)
    draw = {p: rng.random() for p in players}
    counts = {p: (missed or {}).get(p, 0) for p in players}
    rounds: list[list[int]] = []
    last: set[int] = set()
    for _ in range(n_rounds):
        order = sorted(players, key=lambda p: (counts[p], p in last, draw[p]))
        out = sorted(order[:per_round])
        for p in out:
            counts[p] += 1
        rounds.append(out)
        last = set(out)
    return rounds
