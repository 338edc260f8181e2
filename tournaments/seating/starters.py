"""Cyclic starters: one round (the *base class*) that, shifted ``m`` times, gives ``m`` rounds with no
repeated pair — up to ``floor((n - 1) / 3)`` rounds, the most any seating of ``n`` players can have.

The development rule
--------------------
The ``n`` players are ``levels`` orbits of ``m`` points, point ``x`` of level ``l`` (``x`` in Z_m), plus
``fixed`` points ``X0, X1, ...``; so ``n = levels * m + fixed``. Round ``t`` is the base class with every
``x`` replaced by ``x + t`` (mod m) and the fixed points left in place. Two points meet in round ``t``
exactly when a base table holds their shift by ``-t``, so no pair meets twice when no two pairs of base
tables are shifts of one another: for a pair ``x_l, y_k`` its *difference* is ``(l, k, y - x)`` (with
``(l, l, d)`` the same as ``(l, l, -d)``), and for a fixed point with ``x_l`` it is ``(X, l)``. The base
class is a starter when each difference occurs at most once in it, and no table holds two fixed points
or a same-level pair ``(l, l, m/2)`` (those would meet in every round, or twice). This is the classical
*difference family* method of design theory, and the differences of the base class are exactly whom each
player meets over the ``m`` rounds:

* three levels, one fixed point, ``m = (n - 1) / 3`` (``n ≡ 4 mod 12``): a resolvable BIBD(n, 4, 1),
  every pair meets exactly once (the symmetry of Denniston's packings of PG(3, 3) for 40 players);
* three levels, three fixed points, ``m = n/3 - 1`` (``n ≡ 0 mod 12``): a resolvable 4-GDD with groups
  of three, everyone meets all but two others;
* three levels, two fixed points, ``m = (n - 2) / 3`` (``n ≡ 8 mod 12``): a resolvable 4-GDD of type
  2^(n/2), everyone meets all but one other — the two fixed points never meet, nor ``x`` and ``x + m/2``
  of one level (that difference is forbidden above). For 32 players (``m = 10``) no such starter is
  known; its maximum, 10 rounds, comes from a different symmetry: :mod:`.orbits`.

*1-rotational* starters use one level of ``m = 3R`` points and one fixed point, shifted only ``R``
times: their base class is mapped onto itself by the shift ``R`` (its tables come in threes ``B, B + R,
B + 2R``, and ``X0`` sits with ``0, R, 2R``), so the shift ``t + R`` repeats round ``t``. Fewer base
tables to find, which is why the larger resolvable BIBDs are recorded this way.

*τ-symmetric* starters are the same idea on three levels: the base class is mapped onto itself by
``τ: x_l -> x_(l+1), X_i -> X_(i+1)``, so its tables come in threes ``B, τB, τ²B`` (with one fixed point,
``X0`` sits with ``0a 0b 0c``). Only a third of the tables are unknowns, which is what let a search or a
constraint solver find the starters of 60 to 100 players in seconds to minutes. With two fixed points
(``n ≡ 8 mod 12``) τ cannot work — both ``X`` tables would be τ-invariant, ``X0 xa xb xc`` and ``X1 ya
yb yc``, and use the same three differences — so the *σ-symmetric* starters of 44, 56 and 80 players
use ``σ: x_l -> (u·x)_(l+1)`` instead, with ``u`` of order 3 modulo ``m`` (9 modulo 14, 7 modulo 18, 3
modulo 26), which fixes both ``X`` and gives their tables different differences. For 68 and 92 players
(``m`` = 22 and 30) no such ``u`` exists, no symmetry ``x_l -> (u·x + s)_π(l)`` of order 2 allows a
starter either (a constraint solver proves each impossible in seconds), and the plain search has not
found one: there :data:`STARTERS` records the most rounds found with more fixed points, who simply
never meet each other — 21 of 22 rounds for 68 players (``Z_21``, five fixed points), 28 of 30 for 92
(``Z_28``, eight).

Whether 68 × 22 and 92 × 30 can be seated without a repeat at all is a question of design theory: such a
schedule is a resolvable 4-GDD of type 2^34 or 2^46 (everyone meets all but one other player, the unmet
pairs a perfect matching). G. Ge, C.W.H. Lam, A.C.H. Ling and H. Shen, "Resolvable maximum packings with
quadruples", Designs, Codes and Cryptography 35 (2005) 287–302, prove that a 4-RGDD of type 2^n exists
for every n ≡ 4 (mod 6), n ≥ 16, with 18 possible exceptions (the largest n = 346), and none for n = 4
or 10. Whether 34 and 46 are among those 18, and whether a later paper settled them, could not be
checked from the sources at hand (only the abstract): so neither size is known here to exist or not,
and an exhaustive search is far out of reach. One more symmetric form was tried for 68 players, offline
and bounded (a few CPU minutes): four levels of ``Z_17``, 17 rounds as the shifts of one base round
plus five rounds ``{(l, x + a_l)}`` fixed by the shift, the matching ``(0, x)-(1, x)``, ``(2, x)-(3,
x)`` (the counts fit exactly: 134 difference classes, 102 from the base round, 30 from the five
columns); a tabu search on it stalled at 5 colliding classes (and at 4 on the same form for 44 players,
where other forms do have 14 rounds), so it found nothing.

The *radical* starter of 88 players is a classical difference-family construction rather than a search:
in the 1-rotational form over ``Z_87 = Z_3 × Z_29`` its base tables are ``B, μB, ..., μ^6 B`` (and their
shifts by 29 and 58), where ``μ`` multiplies the ``Z_29`` part by an element of order 7. One table of
four points, ``B = {(0, 1), (1, 2), (1, 9), (0, 27)}`` in ``Z_3 × Z_29`` with ``μ = 16``, is the whole
unknown; it was found by trying every candidate (under a second) for the two conditions left: its four
``Z_29`` parts lie in the four cosets of ``<μ>``, and its twelve differences in twelve distinct classes
``(Z_3 part, coset of <μ>)``.

The starters of :data:`STARTERS` were found by :func:`find_starter` (a tabu search on the base class,
seeded, pure Python), by the same search on the 1-rotational form, or by the same model given to a
constraint solver, once, offline; they are generators plus the rule above, not copied tables, and
:func:`is_starter` (run by the tests on each) checks the developed rounds themselves. The seating then
relabels the players and shuffles the rounds per seed.
"""

from __future__ import annotations

import itertools
import random
import re
from dataclasses import dataclass

from .schedule import TABLE_SIZE, without_repeats

LEVEL_NAMES = "abcdef"


@dataclass(frozen=True)
class Starter:
    """A base class over Z_m with ``levels`` orbits and ``fixed`` fixed points; see the module docstring.

    ``tables`` are in point codes: ``l * m + x`` for point ``x`` of level ``l``, then
    ``levels * m + i`` for fixed point ``i``.
    """

    m: int
    levels: int
    fixed: int
    tables: tuple[tuple[int, ...], ...]
    shifts: int | None = None

    @property
    def n_players(self) -> int:
        return self.levels * self.m + self.fixed

    @property
    def n_rounds(self) -> int:
        """The shifts ``0 .. n_rounds - 1`` that make the rounds: ``m``, or fewer for a base class that
        some shift maps onto itself (a 1-rotational starter)."""
        return self.m if self.shifts is None else self.shifts


def parse(m: int, text: str, shifts: int | None = None) -> Starter:
    """A starter from its written form: tables separated by ``|``, points as ``<x><level letter>`` for
    point ``x`` of level ``a``, ``b``, ... and ``X0``, ``X1``, ... for the fixed points, e.g.
    ``"X0 0a 0b 0c | 1a 2a 4b 7c | ..."``."""
    words = [table.split() for table in text.split("|")]
    points = [w for table in words for w in table]
    finite = [re.fullmatch(r"(\d+)([a-f])", w) for w in points]
    fixed = [re.fullmatch(r"X(\d+)", w) for w in points]
    for word, a, b in zip(points, finite, fixed, strict=True):
        if a is None and b is None:
            raise ValueError(f"cannot read point {word!r}")
    levels = 1 + max(LEVEL_NAMES.index(a[2]) for a in finite if a is not None)
    n_fixed = sum(b is not None for b in fixed)

    def code(word: str) -> int:
        if word.startswith("X"):
            return levels * m + int(word[1:])
        return LEVEL_NAMES.index(word[-1]) * m + int(word[:-1]) % m

    tables = tuple(tuple(map(code, t)) for t in words)
    return Starter(m=m, levels=levels, fixed=n_fixed, tables=tables, shifts=shifts)


def write(starter: Starter) -> str:
    """The written form read by :func:`parse` (how :func:`find_starter`'s finds are recorded)."""
    m, finite = starter.m, starter.levels * starter.m

    def name(p: int) -> str:
        return f"X{p - finite}" if p >= finite else f"{p % m}{LEVEL_NAMES[p // m]}"

    ordered = sorted(starter.tables, key=lambda t: (-max(t), min(t)))
    return " | ".join(" ".join(name(p) for p in sorted(t, key=lambda p: (p < finite, p))) for t in ordered)


def develop(starter: Starter) -> list[list[list[int]]]:
    """The rounds of ``starter``: round ``t`` shifts every non-fixed point by ``t`` (mod m)."""
    m, finite = starter.m, starter.levels * starter.m
    return [
        [[p if p >= finite else p - p % m + (p + t) % m for p in table] for table in starter.tables]
        for t in range(starter.n_rounds)
    ]


def _difference_keys(m: int, levels: int, fixed: int) -> tuple[list[list[int]], int, set[int]]:
    """``key[p][q]``: the difference class of the pair, numbered ``0 .. count - 1``, and the classes that
    must never be used (a same-level difference of ``m/2`` meets twice; two fixed points every round)."""
    finite = levels * m
    n = finite + fixed
    key = [[-1] * n for _ in range(n)]
    forbidden: set[int] = set()
    same_level = levels * m  # (l, ±d) for d in 0..m-1 (d > m/2 folded onto m - d)
    mixed = same_level + levels * levels * m
    with_fixed = mixed + fixed * levels
    for p in range(n):
        for q in range(n):
            if p == q:
                continue
            if p >= finite and q >= finite:
                key[p][q] = with_fixed
            elif p >= finite or q >= finite:
                f, x = (p, q) if p >= finite else (q, p)
                key[p][q] = mixed + (f - finite) * levels + x // m
            else:
                lp, lq, xp, xq = p // m, q // m, p % m, q % m
                if lp == lq:
                    d = (xq - xp) % m
                    key[p][q] = lp * m + min(d, m - d)
                    if 2 * d == m:
                        forbidden.add(key[p][q])
                else:
                    if lp > lq:
                        lp, lq, xp, xq = lq, lp, xq, xp
                    key[p][q] = same_level + (lp * levels + lq) * m + (xq - xp) % m
    forbidden.add(with_fixed)
    return key, with_fixed + 1, forbidden


def is_starter(starter: Starter) -> bool:
    """Whether ``starter`` develops into rounds that each seat every player once at tables of four, with
    no pair meeting twice — checked on the developed rounds themselves, the plain way."""
    return without_repeats(develop(starter), starter.n_players)


def find_starter(m: int, levels: int, fixed: int, *, seed: int = 1, steps: int = 60_000) -> Starter | None:
    """Search for a starter (tabu search on the base class), or None within ``steps`` moves.

    The base class is a partition of the points into tables; the cost counts colliding differences
    (``sum over classes of C(uses, 2)``, forbidden classes starting at one use). A move swaps two points
    of different tables, chosen among those in a collision; each step takes the best move that is not
    tabu (recently swapped) unless it beats the best cost so far. Deterministic for a seed. Small sizes
    take milliseconds to seconds; the table of :data:`STARTERS` records the results so that
    :func:`~tournaments.seating.generate` never has to wait for one.
    """
    n = levels * m + fixed
    if n % TABLE_SIZE or fixed > n // TABLE_SIZE:
        raise ValueError(f"{levels} levels of {m} and {fixed} fixed points do not make tables of 4")
    rng = random.Random(seed)
    key, count, forbidden = _difference_keys(m, levels, fixed)
    finite = levels * m
    order = list(range(finite))
    rng.shuffle(order)
    tables = [[finite + i, order.pop(), order.pop(), order.pop()] for i in range(fixed)]
    tables += [order[i : i + TABLE_SIZE] for i in range(0, len(order), TABLE_SIZE)]
    where = [0] * n
    uses = [0] * count
    for k in forbidden:
        uses[k] = 1
    for t, table in enumerate(tables):
        for p in table:
            where[p] = t
        for a, b in itertools.combinations(table, 2):
            uses[key[a][b]] += 1
    cost = sum(u * (u - 1) // 2 for u in uses)
    best = cost

    def delta(p: int, q: int, keep: bool) -> int:
        """Cost change of swapping finite points ``p`` and ``q``; applied to ``uses`` only if ``keep``."""
        table_p, table_q = tables[where[p]], tables[where[q]]
        kp, kq = key[p], key[q]
        removed = [kp[x] for x in table_p if x != p] + [kq[y] for y in table_q if y != q]
        added = [kq[x] for x in table_p if x != p] + [kp[y] for y in table_q if y != q]
        change = 0
        for k in removed:
            uses[k] -= 1
            change -= uses[k]
        for k in added:
            change += uses[k]
            uses[k] += 1
        if not keep:
            for k in added:
                uses[k] -= 1
            for k in removed:
                uses[k] += 1
        return change

    tabu: dict[tuple[int, int], int] = {}
    for step in range(steps):
        if cost == 0:
            return Starter(m=m, levels=levels, fixed=fixed, tables=tuple(tuple(sorted(t)) for t in tables))
        conflicted: set[int] = set()
        for table in tables:
            for a, b in itertools.combinations(table, 2):
                if uses[key[a][b]] > 1:
                    conflicted.update(x for x in (a, b) if x < finite)
        candidates = sorted(conflicted)
        if len(candidates) > 24:
            candidates = rng.sample(candidates, 24)
        chosen: tuple[int, int] | None = None
        best_change, ties = 1 << 30, 0
        for p in candidates:
            for q in range(finite):
                if where[q] == where[p]:
                    continue
                change = delta(p, q, keep=False)
                pair = (p, q) if p < q else (q, p)
                if tabu.get(pair, -1) >= step and cost + change >= best:
                    continue
                if change < best_change:
                    best_change, chosen, ties = change, pair, 1
                elif change == best_change:
                    ties += 1
                    if rng.randrange(ties) == 0:
                        chosen = pair
        if chosen is None:
            continue
        p, q = chosen
        cost += delta(p, q, keep=True)
        tp, tq = where[p], where[q]
        tables[tp][tables[tp].index(p)] = q
        tables[tq][tables[tq].index(q)] = p
        where[p], where[q] = tq, tp
        tabu[chosen] = step + rng.randint(2, 2 + finite // 8)
        best = min(best, cost)
    return None


_WRITTEN: dict[int, tuple[int, int | None, str]] = {
    # players: (m, shifts or None for all m, base class). How each was found: "search" is
    # find_starter's tabu search; "tau-symmetric" the same search restricted to base classes that
    # (x, l) -> (x, l + 1), X_i -> X_(i+1) maps onto themselves (a third of the unknowns);
    # "sigma-symmetric" likewise with (x, l) -> (u x, l + 1) and the X fixed (module docstring);
    # "1-rotational search" the same search on the Z_3R form of the module docstring; "CP-SAT" the
    # same model (a partition of the points, each difference at most once) given to a constraint
    # solver. The tests develop every one and check it.
    24: (  # search
        7,
        None,
        "X2 4a 4b 1c | X1 3a 5b 6c | X0 5a 1b 4c | 3b 2c 3c 5c | 0a 2a 6a 0c | 1a 0b 2b 6b",
    ),
    28: (  # search
        9,
        None,
        "X0 2a 7b 4c | 0a 4a 6b 8c | 1a 1c 2c 7c | 3a 2b 3b 6c | 7a 5b 3c 5c | 1b 4b 8b 0c | 5a 6a 8a 0b",
    ),
    36: (  # search
        11,
        None,
        "X2 7a 0b 7c | X1 8a 9b 0c | X0 4a 2b 1c | 4b 7b 8c 10c | 3a 5a 4c 9c | 8b 2c 5c 6c"
        " | 1a 9a 3b 3c | 2a 1b 5b 10b | 0a 6a 10a 6b",
    ),
    40: (  # 1-rotational search
        39,
        13,
        "X0 0a 13a 26a | 14a 31a 34a 38a | 3a 28a 36a 37a | 7a 17a 19a 35a | 4a 6a 22a 33a"
        " | 9a 20a 30a 32a | 15a 23a 24a 29a | 5a 8a 12a 27a | 1a 18a 21a 25a | 2a 10a 11a 16a",
    ),
    44: (  # CP-SAT, sigma-symmetric
        14,
        None,
        "X1 8a 2b 4c | X0 7a 7b 7c | 2a 4a 6b 13c | 5a 4b 8b 12c | 1b 13b 10c 11c | 1a 6a 5c 9c"
        " | 10a 3b 2c 8c | 0b 1c 3c 6c | 9a 12a 13a 0c | 3a 11a 9b 12b | 0a 5b 10b 11b",
    ),
    48: (  # search, tau-symmetric
        15,
        None,
        "X2 14a 10b 1c | X1 10a 1b 14c | X0 1a 14b 10c | 8a 7c 9c 13c | 2a 4b 5b 12c"
        " | 0a 3c 6c 11c | 7b 9b 13b 8c | 12a 2b 4c 5c | 4a 5a 12b 2c | 3b 6b 11b 0c | 7a 9a 13a 8b"
        " | 3a 6a 11a 0b",
    ),
    52: (  # 1-rotational search
        51,
        17,
        "X0 0a 17a 34a | 1a 13a 42a 50a | 2a 21a 46a 49a | 6a 24a 37a 48a | 25a 33a 35a 47a"
        " | 9a 39a 44a 45a | 22a 27a 28a 43a | 3a 14a 23a 41a | 7a 20a 31a 40a | 12a 15a 19a 38a"
        " | 4a 29a 32a 36a | 8a 16a 18a 30a | 5a 10a 11a 26a",
    ),
    56: (  # CP-SAT, sigma-symmetric
        18,
        None,
        "X1 6a 6b 6c | X0 4a 10b 16c | 7a 12b 15c 17c | 17b 7c 8c 14c | 14a 0c 10c 13c"
        " | 11a 15a 13b 12c | 2a 8a 13a 11c | 3a 16b 5c 9c | 9a 17a 3b 4c | 10a 9b 11b 3c"
        " | 0b 4b 7b 2c | 12a 5b 15b 1c | 5a 1b 2b 14b | 0a 1a 16a 8b",
    ),
    60: (  # search, tau-symmetric
        19,
        None,
        "X2 5a 16b 0c | X1 16a 0b 5c | X0 0a 5b 16c | 8b 1c 4c 18c | 6a 2c 11c 17c | 13a 14a 7c 15c"
        " | 7b 15b 13c 14c | 9a 3b 10b 12c | 12a 9b 3c 10c | 3a 10a 12b 9c | 1a 4a 18a 8c"
        " | 2b 11b 17b 6c | 8a 1b 4b 18b | 7a 15a 13b 14b | 2a 11a 17a 6b",
    ),
    68: (  # search (21 of 22 rounds)
        21,
        None,
        "X4 19a 12b 1c | X3 1a 5b 16c | X2 2a 15b 20c | X1 16a 17b 3c | X0 11a 9b 10c"
        " | 18a 7b 13b 19c | 7a 9c 11c 18c | 0a 0b 0c 17c | 6a 18b 12c 15c | 4a 1b 10b 14c"
        " | 14b 2c 7c 13c | 10a 13a 17a 8c | 20a 8b 19b 6c | 12a 2b 4c 5c | 3a 5a 15a 20b"
        " | 8a 9a 14a 16b | 3b 4b 6b 11b",
    ),
    72: (  # CP-SAT, tau-symmetric
        23,
        None,
        "X2 1a 15b 0c | X1 15a 0b 1c | X0 0a 1b 15c | 6a 4b 10c 22c | 8b 13c 20c 21c | 5a 9b 2c 19c"
        " | 3b 7b 16b 18c | 11a 12c 14c 17c | 18a 3c 7c 16c | 12b 14b 17b 11c | 2a 19a 5b 9c"
        " | 13a 20a 21a 8c | 4a 10b 22b 6c | 9a 2b 19b 5c | 10a 22a 6b 4c | 8a 13b 20b 21b"
        " | 3a 7a 16a 18b | 12a 14a 17a 11b",
    ),
    76: (  # CP-SAT, tau-symmetric
        25,
        None,
        "X0 0a 0b 0c | 13a 21b 12c 24c | 14b 17b 16c 23c | 8a 4b 11c 22c | 12a 24a 13b 21c"
        " | 10a 15a 5c 20c | 6a 2c 18c 19c | 16a 23a 14c 17c | 5b 20b 10c 15c | 21a 12b 24b 13c"
        " | 1a 3a 7a 9c | 4a 11b 22b 8c | 9b 1c 3c 7c | 2b 18b 19b 6c | 11a 22a 8b 4c"
        " | 14a 17a 16b 23b | 5a 20a 10b 15b | 9a 1b 3b 7b | 2a 18a 19a 6b",
    ),
    80: (  # search, sigma-symmetric
        26,
        None,
        "X1 9a 1b 3c | X0 21a 11b 7c | 18a 6b 1c 25c | 11a 4b 13c 24c | 12b 23b 0c 23c"
        " | 24a 15b 21b 22c | 10a 8b 13b 21c | 6a 10b 14b 20c | 14a 20b 11c 19c | 3a 23a 2b 18c"
        " | 0a 17a 10c 17c | 8a 18b 4c 16c | 5c 9c 14c 15c | 13a 20a 7b 12c | 5a 7a 16b 8c"
        " | 2a 9b 17b 6c | 12a 22a 24b 2c | 4a 25a 0b 25b | 3b 5b 19b 22b | 1a 15a 16a 19a",
    ),
    84: (  # CP-SAT, tau-symmetric
        27,
        None,
        "X2 1a 3b 0c | X1 3a 0b 1c | X0 0a 1b 3c | 25a 10b 17b 26c | 10a 17a 26b 25c | 2c 15c 18c 24c"
        " | 9a 12b 19c 23c | 5a 20a 14c 22c | 8a 16b 4c 21c | 14b 22b 5c 20c | 26a 25b 10c 17c"
        " | 4a 21a 8b 16c | 6a 7a 11c 13c | 19a 23a 9b 12c | 12a 19b 23b 9c | 16a 4b 21b 8c"
        " | 11b 13b 6c 7c | 2b 15b 18b 24b | 14a 22a 5b 20b | 11a 13a 6b 7b | 2a 15a 18a 24a",
    ),
    88: (  # radical (module docstring)
        87,
        29,
        "X0 0a 29a 58a | 16a 32a 55a 86a | 1a 2a 38a 85a | 28a 45a 61a 84a | 8a 21a 51a 83a"
        " | 10a 71a 77a 82a | 4a 12a 46a 81a | 25a 37a 50a 80a | 22a 54a 66a 79a | 18a 40a 64a 78a"
        " | 11a 35a 49a 76a | 23a 33a 41a 75a | 3a 26a 57a 74a | 5a 7a 14a 73a | 44a 63a 65a 72a"
        " | 17a 52a 62a 70a | 6a 20a 47a 69a | 42a 48a 53a 68a | 27a 30a 31a 67a | 9a 56a 59a 60a"
        " | 15a 34a 36a 43a | 13a 19a 24a 39a",
    ),
    92: (  # search (28 of 30 rounds)
        28,
        None,
        "X7 1a 24b 8c | X6 21a 15b 13c | X5 5a 1b 19c | X4 8a 10b 5c | X3 9a 13b 18c | X2 22a 4b 26c"
        " | X1 11a 17b 21c | X0 2a 21b 10c | 2b 12b 12c 27c | 13a 23a 6c 25c | 3b 18b 14c 24c"
        " | 0c 2c 3c 23c | 26a 14b 16c 22c | 20a 6b 9c 20c | 14a 19a 26b 17c | 0a 24a 27b 15c"
        " | 6a 12a 7c 11c | 10a 19b 25b 4c | 0b 9b 20b 1c | 3a 11b 16b 23b | 4a 17a 25a 22b"
        " | 7a 5b 7b 8b | 15a 16a 18a 27a",
    ),
    96: (  # search, tau-symmetric
        31,
        None,
        "X2 6a 24b 0c | X1 24a 0b 6c | X0 0a 6b 24c | 3b 8c 26c 30c | 16b 17c 28c 29c"
        " | 13a 7b 23b 27c | 10a 20c 22c 25c | 27a 13b 7c 23c | 5a 19b 14c 21c | 14a 21a 5b 19c"
        " | 15a 4c 12c 18c | 17a 28a 29a 16c | 4b 12b 18b 15c | 7a 23a 27b 13c | 9a 2b 1c 11c"
        " | 20b 22b 25b 10c | 2a 1b 11b 9c | 19a 14b 21b 5c | 8a 26a 30a 3c | 1a 11a 9b 2c"
        " | 3a 8b 26b 30b | 16a 17b 28b 29b | 4a 12a 18a 15b | 20a 22a 25a 10b",
    ),
    100: (  # search, tau-symmetric
        33,
        None,
        "X0 0a 0b 0c | 9b 18b 31b 32c | 32a 9c 18c 31c | 26a 4c 22c 30c | 2a 16a 1b 29c"
        " | 10a 20b 27c 28c | 4b 22b 30b 26c | 3a 6b 23c 25c | 12a 7c 19c 24c | 13a 11c 15c 21c"
        " | 27a 28a 10b 20c | 8a 5b 14c 17c | 1a 29b 2c 16c | 11b 15b 21b 13c | 7b 19b 24b 12c"
        " | 20a 27b 28b 10c | 5a 14b 17b 8c | 23a 25a 3b 6c | 14a 17a 8b 5c | 6a 23b 25b 3c"
        " | 29a 2b 16b 1c | 9a 18a 31a 32b | 4a 22a 30a 26b | 11a 15a 21a 13b | 7a 19a 24a 12b",
    ),
}

STARTERS: dict[int, Starter] = {n: parse(m, text, shifts) for n, (m, shifts, text) in _WRITTEN.items()}
"""Starters by number of players."""
