"""Perfect rounds from finite geometry: affine geometries AG(d, 4) and resolvable transversal designs.

A *perfect* set of rounds is one in which no pair meets twice. These are the classical constructions,
each a family of parallel classes (a round = a parallel class: a partition of the players into tables):

* the lines of the affine geometry AG(d, 4): 16 players over 5 rounds, 64 over 21 (a resolvable
  BIBD(4^d, 4, 1): every pair meets exactly once);
* a resolvable transversal design TD(4, q): ``4q`` players over ``q`` rounds when ``q`` is a prime power
  of at least 4 (columns over GF(q)), and fewer rounds over Z_q otherwise (a small search). Its players
  never meet their own group, so it stops short of the most rounds a size allows.

:mod:`tournaments.seating.starters` reaches further, up to ``floor((n - 1) / 3)`` rounds.
"""

from __future__ import annotations

import random

from .fields import field
from .schedule import TABLE_SIZE


def affine_rounds(dimension: int) -> list[list[list[int]]]:
    """The parallel classes of AG(dimension, 4) as rounds of 4 ** dimension players.

    A point is a vector over GF(4), coded as the base-4 number of its coordinates; a line is
    ``{p + x·d : x in GF(4)}`` for a direction ``d``. Lines with the same direction partition the points
    (a round) and any two points lie on exactly one line, so no pair meets twice across all
    ``(4**dimension - 1) / 3`` rounds: 5 for 16 players, 21 for 64.
    """
    n = TABLE_SIZE**dimension
    gf4 = field(4)
    assert gf4 is not None  # 4 is a prime power
    add, mul = gf4

    def coords(p: int) -> list[int]:
        return [(p >> (2 * i)) & 3 for i in range(dimension)]

    def point(c: list[int]) -> int:
        return sum(x << (2 * i) for i, x in enumerate(c))

    rounds = []
    for d in range(1, n):
        direction = coords(d)
        if direction[next(i for i, x in enumerate(direction) if x)] != 1:
            continue  # one representative per direction: leading coordinate 1
        seen: set[int] = set()
        round_ = []
        for p in range(n):
            if p in seen:
                continue
            base = coords(p)
            line = [
                point([add[b][mul[x][dx]] for b, dx in zip(base, direction, strict=True)]) for x in range(4)
            ]
            seen.update(line)
            round_.append(line)
        rounds.append(round_)
    return rounds


def transversal_rounds(q: int, wanted: int, rng: random.Random) -> list[list[list[int]]]:
    """Up to ``wanted`` perfect rounds for ``4q`` players from a resolvable transversal design TD(4, q).

    Players are pairs (group ``i`` in 0..3, element ``x`` of an additive group of order ``q``), coded
    ``i * q + x``. A round is given by a column ``(a0, a1, a2, a3)``: its tables are
    ``{(0, x + a0), (1, x + a1), (2, x + a2), (3, x + a3)}`` for every ``x``. Players ``(i, u)`` and
    ``(j, v)`` meet in that round exactly when ``v - u == aj - ai``, so no pair meets twice as long as
    every two rows differ by a different amount in every column. Over a field GF(q) (``q`` a prime power
    >= 4) the columns ``(0, r, l2 r, l3 r)`` for each element ``r`` do that (``0, 1, l2, l3`` distinct,
    so ``(lj - li) r`` takes each value once as ``r`` varies), giving ``q`` rounds;
    otherwise columns over Z_q come from a small search. Players of the same group never meet, which is
    the price of the structure: each player meets ``3q`` others in ``q`` rounds, i.e. all but their group.
    """
    gf = field(q) if q >= 4 else None
    if gf is not None:
        add, mul = gf
        lambdas = (0, 1, 2, 3)  # distinct field elements
        elements = rng.sample(range(q), min(wanted, q))
        columns = [tuple(mul[lam][r] for lam in lambdas) for r in elements]
    else:
        add = [[(a + b) % q for b in range(q)] for a in range(q)]
        columns = _difference_columns(q, wanted, rng)
    return [[[i * q + add[x][column[i]] for i in range(TABLE_SIZE)] for x in range(q)] for column in columns]


def _difference_columns(
    q: int, wanted: int, rng: random.Random, node_limit: int = 50_000
) -> list[tuple[int, ...]]:
    """Columns ``(0, a1, a2, a3)`` over Z_q in which any two rows differ by a different amount in each.

    A bounded, seeded depth-first search; returns as many columns as it found (at most ``wanted``). Used
    when ``q`` is no prime power (so there is no field to build them from).
    """
    used = [[[False] * q for _ in range(4)] for _ in range(4)]
    columns: list[tuple[int, ...]] = []
    best: list[tuple[int, ...]] = []
    nodes = 0
    values = list(range(q))

    def place(column: list[int]) -> bool:
        nonlocal nodes, best
        if len(column) == 4:
            columns.append(tuple(column))
            if len(columns) > len(best):
                best = list(columns)
            done = len(columns) == wanted or extend()
            if not done:
                columns.pop()
            return done
        i = len(column)
        order = values[:]
        rng.shuffle(order)
        for a in order:
            nodes += 1
            if nodes > node_limit:
                return False
            diffs = [(a - column[h]) % q for h in range(i)]
            if any(used[h][i][d] for h, d in enumerate(diffs)):
                continue
            for h, d in enumerate(diffs):
                used[h][i][d] = True
            column.append(a)
            if place(column):
                return True
            column.pop()
            for h, d in enumerate(diffs):
                used[h][i][d] = False
        return False

    def extend() -> bool:
        return place([0])

    extend()
    return best[:wanted]
