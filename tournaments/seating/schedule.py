"""The shape of a seating plan, its validation, and the organiser's manual swap.

A round is a tuple of tables; a table is a tuple of four *player indices* in seat order East, South, West,
North (seat ``s`` is wind ``s``). Everything else in the package builds, measures or rearranges these
tuples, so the types and the one check that a round is well formed live here, apart from the algorithms.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

WINDS = ("East", "South", "West", "North")
TABLE_SIZE = 4

Table = tuple[int, int, int, int]
Round = tuple[Table, ...]
Rounds = tuple[Round, ...]


@dataclass(frozen=True)
class Schedule:
    """A complete seating plan.

    ``rounds[r][t]`` is the four player indices at table ``t`` in round ``r``, in seat order E, S, W, N.
    """

    rounds: Rounds

    @property
    def n_rounds(self) -> int:
        return len(self.rounds)


def without_repeats(rounds: Iterable[Iterable[Sequence[int]]], n_players: int) -> bool:
    """Whether every round seats each of ``n_players`` once at tables of four and no pair meets twice
    over them all: the plain check that the recorded constructions (:mod:`.starters`, :mod:`.orbits`)
    pass, on their developed rounds, independently of the bookkeeping that found them."""
    everyone = list(range(n_players))
    met: set[tuple[int, int]] = set()
    for round_ in rounds:
        tables = [sorted(table) for table in round_]
        if sorted(p for t in tables for p in t) != everyone or any(len(t) != TABLE_SIZE for t in tables):
            return False
        for table in tables:
            for pair in itertools.combinations(table, 2):
                if pair in met:
                    return False
                met.add(pair)
    return True


def padded_count(n: int) -> int:
    """The number of seats for ``n`` players: ``n`` rounded up to a multiple of 4.

    Indices ``n .. padded_count(n) - 1`` are substitute seats; pass ``padded_count(n)`` to
    :func:`~tournaments.seating.generate` and ``n`` to :func:`~tournaments.seating.quality`.
    """
    if n < 1:
        raise ValueError(f"need at least one player, got {n}")
    return -(-n // TABLE_SIZE) * TABLE_SIZE


def validate_rounds(rounds: Sequence[Sequence[Sequence[int]]]) -> None:
    """Tables of four distinct players, nobody twice in a round (a player may be absent from a round).

    Raises ValueError naming the round and table (counted from 1, as the organiser sees them).
    """
    for r, round_ in enumerate(rounds):
        seen: set[int] = set()
        for t, table in enumerate(round_):
            if len(table) != TABLE_SIZE:
                raise ValueError(f"round {r + 1}, table {t + 1} has {len(table)} seats, not {TABLE_SIZE}")
            for player in table:
                if player in seen:
                    raise ValueError(f"player {player} is seated twice in round {r + 1}")
                seen.add(player)


def freeze(rounds: Sequence[Sequence[Sequence[int]]]) -> Rounds:
    """Nested lists to the immutable tuples a :class:`Schedule` holds (tables must have four seats)."""
    return tuple(tuple((t[0], t[1], t[2], t[3]) for t in round_) for round_ in rounds)


def tidy(rounds: Sequence[Sequence[Sequence[int]]]) -> Rounds:
    """List each round's tables by their lowest player index: a fixed, readable order (table order is
    otherwise meaningless, as all tables of a round play at once)."""
    return tuple(tuple(sorted(round_, key=min)) for round_ in freeze(rounds))


def swap(schedule: Schedule, round_index: int, a: int, b: int) -> Schedule:
    """A copy of ``schedule`` in which players ``a`` and ``b`` exchange seats in round ``round_index``.

    The organiser's manual override (friends or family who must not meet, a late arrival). They may be at
    different tables or at the same table (then they only exchange winds); each takes the other's exact
    seat, so the other rounds and everyone else are untouched. Re-run
    :func:`~tournaments.seating.quality` to see the effect.
    """
    if not 0 <= round_index < len(schedule.rounds):
        raise ValueError(f"no round {round_index} (the schedule has {len(schedule.rounds)})")
    if a == b:
        raise ValueError(f"cannot swap player {a} with themselves")
    round_ = [list(table) for table in schedule.rounds[round_index]]
    where = {p: (t, s) for t, table in enumerate(round_) for s, p in enumerate(table)}
    for player in (a, b):
        if player not in where:
            raise ValueError(f"player {player} does not play in round {round_index}")
    (ta, sa), (tb, sb) = where[a], where[b]
    round_[ta][sa], round_[tb][sb] = b, a
    rounds = list(schedule.rounds)
    rounds[round_index] = freeze([round_])[0]
    return Schedule(tuple(rounds))
