"""Rounds fixed by a group of translations: each round is the orbit of a few base tables under Z_2^k.

Where the cyclic starters of :mod:`.starters` have no answer — 32 players over 10 rounds, a resolvable
4-GDD of type 2^16 (the social golfer instance 8-4-10, which Aguado showed to exist in 2004) — a
different symmetry does: the players are ``levels`` copies of the group Z_2^k (point ``g`` of level
``l``, ``g`` a k-bit number), and the group acts by ``g -> g XOR h`` on every level at once. Each
*round* is mapped onto itself by every ``h``: it is the union of the orbits of its *base tables*
``{g XOR h : g in table}``. A base table with no symmetry of its own gives ``2^k`` tables; one that some
``h`` maps onto itself (``0a 1a 2a 3a`` under ``h = 1, 2, 3``) gives fewer. So a whole round is written
as one to four base tables, and the ten rounds of 32 players as sixteen.

Who meets whom is read from the orbits of pairs: the pair ``(g)_l, (g XOR d)_k`` meets in the round
whose base tables hold a pair of levels ``l, k`` and XOR difference ``d``, and so do all ``2^k`` of its
translates. The *partners* ``g`` and ``g XOR partner`` of one level never meet (the groups of two of the
GDD): every other pair meets exactly once, which is the most any 10 rounds of 32 can do (``floor(31 /
3) = 10``).

The family of :data:`FAMILIES` was found once, offline, by a constraint solver (CP-SAT) given exactly
this model — one Boolean per orbit of (pair, round) under the group, every non-partner pair meeting in
exactly one round, three others per player per round, and "p meets q and q meets r in a round, then p
meets r" — in about a second. It is recorded as base tables plus the rule above, not as a copied
table, and :func:`is_family` (run by the tests) checks the developed rounds themselves.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .schedule import without_repeats

LEVEL_NAMES = "abcdefghijklmnop"


@dataclass(frozen=True)
class Family:
    """Rounds over ``levels`` copies of Z_2^``bits``, each the orbit of its base tables under XOR.

    Points are coded ``l * 2^bits + g``; ``rounds`` holds each round's base tables in point codes.
    """

    bits: int
    levels: int
    rounds: tuple[tuple[tuple[int, ...], ...], ...]

    @property
    def n_players(self) -> int:
        return self.levels << self.bits

    @property
    def n_rounds(self) -> int:
        return len(self.rounds)


def translate(p: int, h: int, bits: int) -> int:
    """Point ``p`` moved by the group element ``h``: ``g XOR h`` on its own level."""
    mask = (1 << bits) - 1
    return (p & ~mask) | ((p & mask) ^ h)


def develop(family: Family) -> list[list[list[int]]]:
    """The rounds of ``family``: every translate of every base table, each distinct table once."""
    rounds = []
    for base in family.rounds:
        tables: dict[frozenset[int], list[int]] = {}
        for table in base:
            for h in range(1 << family.bits):
                moved = sorted(translate(p, h, family.bits) for p in table)
                tables.setdefault(frozenset(moved), moved)
        rounds.append(sorted(tables.values()))
    return rounds


def is_family(family: Family) -> bool:
    """Whether ``family`` develops into rounds that each seat every player once at tables of four, with
    no pair meeting twice."""
    return without_repeats(develop(family), family.n_players)


def parse(bits: int, text: str) -> Family:
    """A family from its written form: rounds separated by ``;``, base tables by ``|``, points as
    ``<g><level letter>``, e.g. ``"0a 1a 2a 3a | 0b 1b 6b 7b ; 0a 2b 3c 3d"``."""
    rounds = []
    levels = 0
    for round_text in text.split(";"):
        tables = []
        for table_text in round_text.split("|"):
            table = []
            for word in table_text.split():
                match = re.fullmatch(r"(\d+)([a-p])", word)
                if match is None or int(match[1]) >= 1 << bits:
                    raise ValueError(f"cannot read point {word!r}")
                level = LEVEL_NAMES.index(match[2])
                levels = max(levels, level + 1)
                table.append((level << bits) + int(match[1]))
            tables.append(tuple(table))
        rounds.append(tuple(tables))
    return Family(bits=bits, levels=levels, rounds=tuple(rounds))


def write(family: Family) -> str:
    """The written form read by :func:`parse`."""
    mask = (1 << family.bits) - 1

    def name(p: int) -> str:
        return f"{p & mask}{LEVEL_NAMES[p >> family.bits]}"

    return " ; ".join(
        " | ".join(" ".join(name(p) for p in table) for table in base) for base in family.rounds
    )


_WRITTEN: dict[int, tuple[int, str]] = {
    # players: (bits, rounds). Found by CP-SAT as described in the module docstring; partners differ by
    # 4 (g and g XOR 4 of one level never meet).
    32: (
        3,
        "0a 1a 2a 3a | 0b 1b 6b 7b | 0c 2c 5c 7c | 0d 3d 5d 6d"
        " ; 0a 7a 2d 5d | 0b 3b 0c 3c"
        " ; 0a 2b 3c 3d"
        " ; 0a 5b 2c 0d"
        " ; 0a 1b 7c 1d"
        " ; 0a 6a 0c 6c | 0b 2b 4d 6d"
        " ; 0a 7b 5c 4d"
        " ; 0a 5a 3b 6b | 0c 1c 4d 5d"
        " ; 0a 0b 4c 7d"
        " ; 0a 4b 1c 6d",
    ),
}

FAMILIES: dict[int, Family] = {n: parse(bits, text) for n, (bits, text) in _WRITTEN.items()}
"""Families by number of players."""
