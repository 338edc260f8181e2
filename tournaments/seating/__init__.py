"""Tournament seating: who plays whom, and in which seat, in every round of an EMA riichi tournament.

Pure Python (standard library only) so that it can be used and tested without Django, and re-run offline
by anyone who wants to check a published seating.

Model
-----
A tournament of ``n`` players (a multiple of 4) plays ``R`` rounds, all tables at once. A round is a tuple
of tables; a table is a tuple of four *player indices* in seat order East, South, West, North (seat
``s`` is wind ``s``). The caller maps indices to people, in any order: every round, the first included,
is a seeded random draw.

Two things make a seating fair, and they are handled separately because they are independent:

* **Opponents.** Nobody should meet the same opponent twice while there are still people they have not
  played (the "social golfer" problem). :func:`generate` minimises ``sum over pairs of C(times_met, 2)``:
  zero exactly when no pair meets twice, and when repeats are unavoidable it spreads them as evenly as
  possible (two pairs meeting twice is better than one pair meeting three times). It starts from as many
  perfect rounds as a finite-geometry construction gives: the affine geometries AG(2, 4) and AG(3, 4)
  for 16 and 64 players (5 and 21 rounds), otherwise a resolvable transversal design TD(4, n/4) (up to
  ``n/4`` rounds, e.g. all 8 for 32 players, over a finite field when ``n/4`` is a prime power, else
  from a small search). Remaining rounds are drawn greedily and a seeded tabu search (swapping two
  players of different tables within a round) then removes what repeats it can. Local search alone
  struggles on tight instances such as 32 players over 8 rounds, where everyone must meet 24 of their 31
  possible opponents exactly once; the constructions make those instant.
* **Winds.** Everyone should sit each wind ``R/4`` times. :func:`balance_winds` solves this exactly as a
  bipartite edge colouring (König's theorem), see its docstring; it can only reorder seats within a
  table, so it never changes who meets whom.

Players not divisible by 4
--------------------------
:func:`generate` needs a multiple of 4. Pad with substitute seats: ask for :func:`padded_count` players;
indices ``0 .. n_players - 1`` are the real players and ``n_players .. padded_count(n_players) - 1`` are
the substitute seats (filled on the day by a substitute or played as a "ghost" seat). :func:`quality`
with the real ``n_players`` ignores meetings with and winds of substitute seats.

Everything here is deterministic for a given seed: randomness comes only from ``random.Random(seed)``,
and iteration budgets are counted in search steps, never in wall-clock time.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass

WINDS = ("East", "South", "West", "North")
TABLE_SIZE = 4

Table = tuple[int, int, int, int]
Round = tuple[Table, ...]
Rounds = tuple[Round, ...]

DEFAULT_ITERATIONS = 10_000
"""Tabu-search steps :func:`generate` may take. Each step scans every move of (a sample of at most 96)
players who have a repeated opponent, around a millisecond, so this bounds the running time where no
perfect schedule is reached; the search also gives up after 2 000 steps without improvement, and stops at
once when the constructions already meet the lower bound (32, 48, 64 players over 8 rounds)."""


@dataclass(frozen=True)
class Schedule:
    """A complete seating plan.

    ``rounds[r][t]`` is the four player indices at table ``t`` in round ``r``, in seat order E, S, W, N.
    """

    rounds: Rounds

    @property
    def n_rounds(self) -> int:
        return len(self.rounds)


@dataclass(frozen=True)
class Quality:
    """How fair a schedule is, for the real players ``0 .. n_players - 1``.

    ``repeated_pairs`` is ``sum over pairs of max(0, times_met - 1)``: the number of games spent facing
    somebody already faced. ``wind_counts[p][w]`` is how often player ``p`` sat wind ``w``.
    ``wind_imbalance`` sums, over players and winds, how far each count lies outside ``[floor(k/4),
    ceil(k/4)]`` (``k`` the rounds that player sat, ``R`` for a complete schedule): the best any schedule
    can do, so 0 means perfect (and equals ``sum |count - R/4|`` when ``R`` is a multiple of 4).
    """

    repeated_pairs: int
    max_meetings: int
    wind_counts: tuple[tuple[int, int, int, int], ...]
    wind_imbalance: int
    perfect_winds: bool


def padded_count(n: int) -> int:
    """The number of seats for ``n`` players: ``n`` rounded up to a multiple of 4.

    Indices ``n .. padded_count(n) - 1`` are substitute seats; pass ``padded_count(n)`` to
    :func:`generate` and ``n`` to :func:`quality`.
    """
    if n < 1:
        raise ValueError(f"need at least one player, got {n}")
    return -(-n // TABLE_SIZE) * TABLE_SIZE


# --------------------------------------------------------------------------------------------------------
# Quality


def quality(schedule: Schedule, n_players: int) -> Quality:
    """Measure ``schedule`` for the real players ``0 .. n_players - 1`` (higher indices are substitutes).

    Substitute seats are left out because their meetings and winds are not a fairness question for the
    tournament's ranking.
    """
    meetings: dict[tuple[int, int], int] = {}
    counts = [[0, 0, 0, 0] for _ in range(n_players)]
    for round_ in schedule.rounds:
        for table in round_:
            real = [p for p in table if 0 <= p < n_players]
            for seat, player in enumerate(table):
                if 0 <= player < n_players:
                    counts[player][seat] += 1
            for a, b in itertools.combinations(sorted(real), 2):
                meetings[a, b] = meetings.get((a, b), 0) + 1
    repeated = sum(times - 1 for times in meetings.values())
    imbalance = 0
    for row in counts:
        played = sum(row)
        low, high = played // TABLE_SIZE, -(-played // TABLE_SIZE)
        imbalance += sum(max(0, low - c, c - high) for c in row)
    return Quality(
        repeated_pairs=repeated,
        max_meetings=max(meetings.values(), default=0),
        wind_counts=tuple((r[0], r[1], r[2], r[3]) for r in counts),
        wind_imbalance=imbalance,
        perfect_winds=imbalance == 0,
    )


def pair_cost_lower_bound(n_players: int, n_rounds: int) -> int:
    """The least ``sum over pairs of C(times_met, 2)`` any schedule can have (by counting alone).

    There are ``n * 3R / 2`` pair meetings to share among ``C(n, 2)`` pairs and the sum is smallest when
    they are shared out evenly. The search stops as soon as it reaches this bound. It is not always
    attainable: 8 players fit 24 meetings in 2 rounds among 28 pairs, but the second round must seat two
    players of each first-round table together.
    """
    pairs = n_players * (n_players - 1) // 2
    meetings = n_players * (TABLE_SIZE - 1) * n_rounds // 2
    if pairs == 0:
        return 0
    q, r = divmod(meetings, pairs)
    return r * (q + 1) * q // 2 + (pairs - r) * q * (q - 1) // 2


def repeated_pairs_lower_bound(n_players: int, n_rounds: int) -> int:
    """The least ``repeated_pairs`` by counting: meetings beyond one per pair, ``max(0, n*3R/2 - C(n,2))``."""
    return max(0, n_players * (TABLE_SIZE - 1) * n_rounds // 2 - n_players * (n_players - 1) // 2)


# --------------------------------------------------------------------------------------------------------
# Validation and manual edits


def _validate_rounds(rounds: Sequence[Sequence[Sequence[int]]]) -> None:
    """Tables of four distinct players, nobody twice in a round (a player may be absent from a round)."""
    for r, round_ in enumerate(rounds):
        seen: set[int] = set()
        for t, table in enumerate(round_):
            if len(table) != TABLE_SIZE:
                raise ValueError(f"round {r + 1}, table {t + 1} has {len(table)} seats, not {TABLE_SIZE}")
            for player in table:
                if player in seen:
                    raise ValueError(f"player {player} is seated twice in round {r + 1}")
                seen.add(player)


def _freeze(rounds: Sequence[Sequence[Sequence[int]]]) -> Rounds:
    return tuple(tuple((t[0], t[1], t[2], t[3]) for t in round_) for round_ in rounds)


def swap(schedule: Schedule, round_index: int, a: int, b: int) -> Schedule:
    """A copy of ``schedule`` in which players ``a`` and ``b`` exchange seats in round ``round_index``.

    The organiser's manual override (friends or family who must not meet, a late arrival). They may be at
    different tables or at the same table (then they only exchange winds); each takes the other's exact
    seat, so the other rounds and everyone else are untouched. Re-run :func:`quality` to see the effect.
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
    rounds[round_index] = _freeze([round_])[0]
    return Schedule(tuple(rounds))


# --------------------------------------------------------------------------------------------------------
# Winds


def balance_winds(rounds: Sequence[Sequence[Sequence[int]]]) -> Rounds:
    """Reorder the seats of every table so that every player sits every wind ``R/4`` times.

    Exactly: each player ends with each wind ``floor(k/4)`` or ``ceil(k/4)`` times (``k`` = rounds they
    sit, so exactly ``R/4`` when ``R`` is a multiple of 4) and moreover sits each wind once in each block
    of four of their rounds (1-4, 5-8, ...). Who sits at which table is unchanged.

    Why it always works: cut each player's appearances, in round order, into blocks of at most four
    ("player copies"). Join every copy to the round-tables it sits at. This bipartite graph has maximum
    degree 4 (a table has 4 players, a copy at most 4 rounds), so by König's edge-colouring theorem its
    edges can be coloured with 4 colours so that no two edges at a vertex share one. Read the colour as
    the wind: a table gets four different winds and a copy of four rounds gets each wind once. The
    colouring is built edge by edge, flipping an alternating two-colour path (a Kempe chain) when the
    two ends have no free colour in common. A seat's current wind is kept whenever it is free at both
    ends, so already-balanced input (and in particular the first round) keeps its seat order.
    """
    _validate_rounds(rounds)
    # Vertices: tables get ids 0..T-1, player copies T.. ; colour_at[v][c] = neighbour along colour c.
    table_ids: list[list[int]] = []
    next_id = 0
    for round_ in rounds:
        table_ids.append(list(range(next_id, next_id + len(round_))))
        next_id += len(round_)
    copy_id: dict[tuple[int, int], int] = {}
    appearances: dict[int, int] = {}
    edges: list[tuple[int, int, int]] = []  # (player copy, table vertex, preferred colour)
    for r, round_ in enumerate(rounds):
        for t, table in enumerate(round_):
            for seat, player in enumerate(table):
                k = appearances.get(player, 0)
                appearances[player] = k + 1
                key = (player, k // TABLE_SIZE)
                if key not in copy_id:
                    copy_id[key] = next_id
                    next_id += 1
                edges.append((copy_id[key], table_ids[r][t], seat))
    colour_at: list[list[int | None]] = [[None] * TABLE_SIZE for _ in range(next_id)]

    def free(v: int) -> int:
        return colour_at[v].index(None)

    for u, v, preferred in edges:
        if colour_at[u][preferred] is None and colour_at[v][preferred] is None:
            alpha = preferred
        else:
            alpha, beta = free(u), free(v)
            if colour_at[v][alpha] is not None:
                # Flip the alpha/beta path that starts at v with its alpha edge. In a bipartite graph it
                # cannot reach u (u lacks alpha and the path reaches u's side only by alpha edges), so
                # afterwards alpha is free at both u and v.
                path = [v]
                colour = alpha
                while (nxt := colour_at[path[-1]][colour]) is not None:
                    path.append(nxt)
                    colour = beta if colour == alpha else alpha
                colour = alpha
                for x, y in itertools.pairwise(path):
                    colour_at[x][colour] = colour_at[y][colour] = None
                    colour = beta if colour == alpha else alpha
                colour = beta
                for x, y in itertools.pairwise(path):
                    colour_at[x][colour], colour_at[y][colour] = y, x
                    colour = beta if colour == alpha else alpha
        colour_at[u][alpha], colour_at[v][alpha] = v, u

    inverse = {vertex: player for (player, _), vertex in copy_id.items()}
    result = []
    for r, round_ in enumerate(rounds):
        tables = []
        for t in range(len(round_)):
            seats = colour_at[table_ids[r][t]]  # all four colours are used: a table has four players
            tables.append([inverse[v] for v in seats if v is not None])
        result.append(tables)
    return _freeze(result)


# --------------------------------------------------------------------------------------------------------
# Opponents: constructions and search


def _affine_rounds(dimension: int) -> list[list[list[int]]]:
    """The parallel classes of AG(dimension, 4) as rounds of 4 ** dimension players.

    A point is a vector over GF(4), coded as the base-4 number of its coordinates; a line is
    ``{p + x·d : x in GF(4)}`` for a direction ``d``. Lines with the same direction partition the points
    (a round) and any two points lie on exactly one line, so no pair meets twice across all
    ``(4**dimension - 1) / 3`` rounds: 5 for 16 players, 21 for 64.
    """
    n = TABLE_SIZE**dimension
    field = _field(4)
    assert field is not None  # 4 is a prime power
    add, mul = field

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


def _transversal_rounds(q: int, wanted: int, rng: random.Random) -> list[list[list[int]]]:
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
    field = _field(q) if q >= 4 else None
    if field is not None:
        add, mul = field
        lambdas = (0, 1, 2, 3)  # distinct field elements
        elements = rng.sample(range(q), min(wanted, q))
        columns = [tuple(mul[lam][r] for lam in lambdas) for r in elements]
    else:
        add = [[(a + b) % q for b in range(q)] for a in range(q)]
        columns = _difference_columns(q, wanted, rng)
    return [[[i * q + add[x][column[i]] for i in range(TABLE_SIZE)] for x in range(q)] for column in columns]


def _construction(n: int, n_rounds: int, rng: random.Random) -> list[list[list[int]]]:
    """As many good rounds as a known construction gives, up to ``n_rounds``.

    For 16 and 64 players the affine geometry: its 5 or 21 rounds have no repeat, and beyond them the
    rounds are reused in turn, which keeps the repeats as even as possible (every pair meets once before
    any meets twice, and so on). Otherwise a transversal design: up to ``n / 4`` perfect rounds (reusing
    them would be worse than drawing new ones, since its players never meet their own group). Rounds are
    picked and ordered at random and the players relabelled at random, so that different seeds give
    different schedules.
    """
    dimension = {16: 2, 64: 3}.get(n)
    if dimension is not None:
        classes = _affine_rounds(dimension)
        rng.shuffle(classes)
        rounds = [classes[r % len(classes)] for r in range(n_rounds)]
    else:
        rounds = _transversal_rounds(n // TABLE_SIZE, n_rounds, rng)
    labels = list(range(n))
    rng.shuffle(labels)
    return [[[labels[p] for p in table] for table in round_] for round_ in rounds]


def _prime_power(q: int) -> tuple[int, int] | None:
    """``(p, k)`` with ``q == p ** k`` and ``p`` prime, or None."""
    for p in range(2, q + 1):
        if q % p == 0:
            k = 0
            while q % p == 0:
                q //= p
                k += 1
            return (p, k) if q == 1 else None
    return None


def _poly_mod(a: list[int], m: list[int], p: int) -> list[int]:
    """``a`` modulo the monic polynomial ``m`` over Z_p (coefficients lowest first)."""
    a = list(a)
    while len(a) >= len(m):
        lead = a[-1]
        shift = len(a) - len(m)
        for i, c in enumerate(m):
            a[shift + i] = (a[shift + i] - lead * c) % p
        a.pop()
    return a


@functools.cache
def _field(q: int) -> tuple[list[list[int]], list[list[int]]] | None:
    """Addition and multiplication tables of GF(q), elements coded 0..q-1, or None if q is no prime power.

    Elements are polynomials over Z_p of degree < k, coded by their base-p digits; the modulus is the
    first monic degree-k polynomial with no monic factor of degree 1..k/2 (found by trial division).
    """
    pk = _prime_power(q)
    if pk is None:
        return None
    p, k = pk

    def digits(e: int, length: int) -> list[int]:
        return [(e // p**i) % p for i in range(length)]

    def code(c: list[int]) -> int:
        return sum(x * p**i for i, x in enumerate(c))

    modulus: list[int] = []
    for low in range(p**k):
        candidate = digits(low, k) + [1]
        if all(
            any(_poly_mod(candidate, digits(f, d) + [1], p))
            for d in range(1, k // 2 + 1)
            for f in range(p**d)
        ):
            modulus = candidate
            break
    add = [
        [code([(x + y) % p for x, y in zip(digits(a, k), digits(b, k), strict=True)]) for b in range(q)]
        for a in range(q)
    ]
    mul = [[0] * q for _ in range(q)]
    for a in range(q):
        da = digits(a, k)
        for b in range(q):
            db = digits(b, k)
            product = [0] * (2 * k - 1)
            for i, x in enumerate(da):
                for j, y in enumerate(db):
                    product[i + j] = (product[i + j] + x * y) % p
            mul[a][b] = code(_poly_mod(product, modulus, p)[:k] + [0] * k)
    return add, mul


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


def _greedy(
    n: int, n_rounds: int, rng: random.Random, rounds: list[list[list[int]]] | None = None
) -> list[list[list[int]]]:
    """Extend ``rounds`` to ``n_rounds``: each table is filled with the players who met its members least."""
    rounds = [[list(t) for t in round_] for round_ in rounds or []]
    meet = [[0] * n for _ in range(n)]
    for round_ in rounds:
        for table in round_:
            for a, b in itertools.combinations(table, 2):
                meet[a][b] += 1
                meet[b][a] += 1
    for _ in range(n_rounds - len(rounds)):
        pool = list(range(n))
        rng.shuffle(pool)
        round_ = []
        while pool:
            table = [pool.pop()]
            while len(table) < TABLE_SIZE:
                best_i = min(range(len(pool)), key=lambda i: sum(meet[pool[i]][q] for q in table))
                table.append(pool.pop(best_i))
            for a, b in itertools.combinations(table, 2):
                meet[a][b] += 1
                meet[b][a] += 1
            round_.append(table)
        rounds.append(round_)
    return rounds


class _TabuSearch:
    """Tabu search on ``sum over pairs of C(times_met, 2)`` (after Dotú & Van Hentenryck, "Scheduling
    social golfers locally", 2005).

    A move swaps two players of different tables in one round; only players who have a repeated opponent
    in that round are moved (other moves cannot help directly), and when there are many of them a random
    sample of ``candidates`` is examined. Each step takes the best move, even a
    worsening one, unless the same swap was made recently (tabu for a random tenure) — except when it
    would beat the best schedule so far. After ``stall`` steps without a new best the search restarts
    from the best schedule with a few random swaps (a "kick"); after ``patience`` steps without a new
    best it gives up, since on instances with no perfect schedule it could otherwise only stop at the
    step budget.
    """

    def __init__(
        self,
        rounds: list[list[list[int]]],
        n: int,
        rng: random.Random,
        *,
        tenure: tuple[int, int] = (2, 8),
        stall: int | None = None,
        patience: int | None = None,
        candidates: int = 96,
    ) -> None:
        self.n = n
        self.rng = rng
        self.candidates = candidates
        self.tenure = tenure
        self.stall = stall if stall is not None else 200 + 4 * n
        self.patience = patience if patience is not None else 2000
        self._load(rounds)
        self.best_cost = self.cost
        self.best = [[list(t) for t in round_] for round_ in self.rounds]
        self.steps = 0

    def _load(self, rounds: list[list[list[int]]]) -> None:
        n = self.n
        self.rounds = [[list(t) for t in round_] for round_ in rounds]
        self.where = [[0] * n for _ in rounds]
        self.meet = [[0] * n for _ in range(n)]
        for r, round_ in enumerate(self.rounds):
            for t, table in enumerate(round_):
                for p in table:
                    self.where[r][p] = t
                for a, b in itertools.combinations(table, 2):
                    self.meet[a][b] += 1
                    self.meet[b][a] += 1
        self.cost = sum(m * (m - 1) // 2 for row in self.meet for m in row) // 2

    def _apply(self, r: int, a: int, b: int) -> None:
        """Swap players ``a`` and ``b`` (at different tables) in round ``r``, updating meetings and cost."""
        meet, where, tables = self.meet, self.where[r], self.rounds[r]
        ta, tb = where[a], where[b]
        table_a, table_b = tables[ta], tables[tb]
        row_a, row_b = meet[a], meet[b]
        delta = 0
        for x in table_a:
            if x != a:
                delta += row_b[x] - row_a[x] + 1
                row_a[x] -= 1
                meet[x][a] -= 1
                row_b[x] += 1
                meet[x][b] += 1
        for y in table_b:
            if y != b:
                delta += row_a[y] - row_b[y] + 1
                row_b[y] -= 1
                meet[y][b] -= 1
                row_a[y] += 1
                meet[y][a] += 1
        table_a[table_a.index(a)] = b
        table_b[table_b.index(b)] = a
        where[a], where[b] = tb, ta
        self.cost += delta

    def _best_move(self, step: int, tabu: dict[tuple[int, int, int], int]) -> tuple[int, int, int] | None:
        """The best admissible swap ``(round, a, b)`` with ``a < b``; ties broken at random.

        When more than ``candidates`` players have a repeat (when repeats are unavoidable, most do), a
        random sample of that many is examined, which keeps a step cheap where improving moves abound.
        """
        rng, meet, n = self.rng, self.meet, self.n
        aspiration = self.best_cost - self.cost  # a tabu move is allowed if its delta is below this
        inners: list[list[int]] = []
        conflicted: list[tuple[int, int]] = []
        for r, round_ in enumerate(self.rounds):
            inner = [0] * n
            inners.append(inner)
            for table in round_:
                p0, p1, p2, p3 = table
                row0, row1, row2 = meet[p0], meet[p1], meet[p2]
                m01, m02, m03, m12, m13, m23 = row0[p1], row0[p2], row0[p3], row1[p2], row1[p3], row2[p3]
                inner[p0] = m01 + m02 + m03
                inner[p1] = m01 + m12 + m13
                inner[p2] = m02 + m12 + m23
                inner[p3] = m03 + m13 + m23
                if m01 > 1 or m02 > 1 or m03 > 1 or m12 > 1 or m13 > 1 or m23 > 1:
                    if m01 > 1 or m02 > 1 or m03 > 1:
                        conflicted.append((r, p0))
                    if m01 > 1 or m12 > 1 or m13 > 1:
                        conflicted.append((r, p1))
                    if m02 > 1 or m12 > 1 or m23 > 1:
                        conflicted.append((r, p2))
                    if m03 > 1 or m13 > 1 or m23 > 1:
                        conflicted.append((r, p3))
        if len(conflicted) > self.candidates:
            conflicted = rng.sample(conflicted, self.candidates)
        best_delta = 1 << 30
        chosen = None
        ties = 0
        for r, a in conflicted:
            round_, inner = self.rounds[r], inners[r]
            ta = self.where[r][a]
            x0, x1, x2, x3 = round_[ta]
            row_a = meet[a]
            base = 6 - inner[a]
            for tb, table_b in enumerate(round_):
                if tb == ta:
                    continue
                y0, y1, y2, y3 = table_b
                into_b = base + row_a[y0] + row_a[y1] + row_a[y2] + row_a[y3]
                for b in table_b:
                    row_b = meet[b]
                    # Change in the cost: a leaves its table for b's and b the reverse.
                    delta = into_b - 2 * row_a[b] - inner[b] + row_b[x0] + row_b[x1] + row_b[x2] + row_b[x3]
                    if delta > best_delta:
                        continue
                    key = (r, a, b) if a < b else (r, b, a)
                    if tabu.get(key, -1) >= step and delta >= aspiration:
                        continue
                    if delta < best_delta:
                        best_delta, chosen, ties = delta, key, 1
                    else:
                        ties += 1
                        if rng.randrange(ties) == 0:
                            chosen = key
        return chosen

    def run(self, iterations: int, target: int) -> list[list[list[int]]]:
        """Search for at most ``iterations`` steps or until the cost reaches ``target``; the best rounds."""
        rng, n = self.rng, self.n
        tabu: dict[tuple[int, int, int], int] = {}
        since_kick = since_best = 0
        if len(self.rounds[0]) < 2:
            return self.best  # one table: nothing to swap
        for step in range(iterations):
            if self.best_cost <= target or since_best > self.patience:
                break
            self.steps += 1
            if since_kick > self.stall:
                self._load(self.best)
                for _ in range(rng.randint(1, 1 + n // 8)):
                    r = rng.randrange(len(self.rounds))
                    a, b = rng.sample(range(n), 2)
                    if self.where[r][a] != self.where[r][b]:
                        self._apply(r, a, b)
                tabu.clear()
                since_kick = 0
            move = self._best_move(step, tabu)
            since_kick += 1
            since_best += 1
            if move is None:
                since_kick = self.stall + 1  # every move is tabu: kick
                continue
            self._apply(*move)
            tabu[move] = step + rng.randint(*self.tenure)
            if self.cost < self.best_cost:
                self.best_cost = self.cost
                self.best = [[list(t) for t in round_] for round_ in self.rounds]
                since_kick = since_best = 0
        return self.best


def _tidy(rounds: Sequence[Sequence[Sequence[int]]]) -> Rounds:
    """List each round's tables by their lowest player index: a fixed, readable order (table order is
    otherwise meaningless, as all tables of a round play at once)."""
    return tuple(tuple(sorted(round_, key=min)) for round_ in _freeze(rounds))


def generate(
    n_players: int,
    n_rounds: int,
    *,
    seed: int = 1,
    time_budget_iterations: int = DEFAULT_ITERATIONS,
) -> Schedule:
    """A full seating for ``n_players`` (a multiple of 4) over ``n_rounds``.

    Opponents: as few repeated meetings as the constructions and the search find, spread evenly when
    unavoidable. None for ``4q`` players over up to ``q`` rounds when ``q`` is a prime power (20, 28,
    32, 36, 44, 52, 64, … players; up to 21 rounds for 64), and (measured) for every multiple of 4 from
    32 to 128 players over 6 to 9 rounds and from 44 over 10 rounds. For 16 players the counting lower
    bound :func:`pair_cost_lower_bound`, i.e. no pair meets k+1 times before every pair has met k times.

    Winds: exactly balanced by :func:`balance_winds`. Every round, the first included, is a seeded
    random draw (players are relabelled at random), so indices may be assigned in any order, e.g.
    alphabetically; tables are listed by their lowest player index.

    ``time_budget_iterations`` caps the tabu-search steps (not seconds, so results never depend on the
    machine's speed); the search stops earlier once it reaches the counting lower bound.

    Raises ValueError unless ``n_players`` is a positive multiple of 4 (pad with substitute seats: see
    :func:`padded_count`) and ``n_rounds`` is positive.
    """
    if n_players < 1:
        raise ValueError(f"{n_players} players cannot be seated at tables of {TABLE_SIZE}")
    if n_players % TABLE_SIZE:
        raise ValueError(
            f"{n_players} players cannot be seated at tables of {TABLE_SIZE}: generate a schedule for "
            f"padded_count({n_players}) = {padded_count(n_players)} seats and give indices {n_players} "
            "and up to substitutes"
        )
    if n_rounds < 1:
        raise ValueError(f"need at least one round, got {n_rounds}")
    if time_budget_iterations < 0:
        raise ValueError("time_budget_iterations must not be negative")
    rng = random.Random(seed)
    start = _greedy(n_players, n_rounds, rng, _construction(n_players, n_rounds, rng))
    search = _TabuSearch(start, n_players, rng)
    best = search.run(time_budget_iterations, pair_cost_lower_bound(n_players, n_rounds))
    return Schedule(_tidy(balance_winds(best)))


# --------------------------------------------------------------------------------------------------------
# Swiss rounds


def _wind_cost(count: int, played: int) -> int:
    """Cost of giving a player who has sat a wind ``count`` times (of ``played`` rounds) that wind again.

    Overshooting the ceiling of ``(played + 1) / 4`` is what breaks floor/ceil balance, so it dominates;
    below it, the cubic prefers the least-used wind and evens out the rest.
    """
    new = count + 1
    over = max(0, new - -(-(played + 1) // TABLE_SIZE))
    return 1000 * over + new**3 - count**3


def swiss_round(standings_order: list[int], previous: Schedule | None, *, seed: int = 1) -> tuple[Table, ...]:
    """Next round's tables for a Swiss (by-standings) system: 1st-4th together, 5th-8th, and so on.

    Then, because meeting the same opponents again is what Swiss draws most often get wrong, pairs who
    already met in ``previous`` are split where re-dividing two neighbouring tables removes the repeat:
    of all ways to share out the eight players of tables ``t`` and ``t+1``, the one with the fewest
    previous meetings, then the fewest players moved, then the best standings at the upper table (so a
    single swap of the two players closest in standings is preferred). Such re-divisions are made one at
    a time, the best first, while they strictly reduce the previous meetings at the new tables (so it
    terminates), and nobody ever moves more than one table from their standings table. Finally each
    table's seats are chosen, given the winds everyone sat in ``previous``, to keep every player within
    floor/ceil of (rounds played)/4 wherever this table's players allow (the future tables are unknown,
    so unlike :func:`balance_winds` this is best effort; in practice everyone stays within one of R/4).

    ``standings_order`` lists every player seated this round, best first (pad with substitute indices
    to a multiple of 4). ``seed`` only breaks ties.
    """
    n = len(standings_order)
    if n == 0 or n % TABLE_SIZE:
        raise ValueError(f"{n} players cannot be seated at tables of {TABLE_SIZE}; pad with substitutes")
    if len(set(standings_order)) != n:
        raise ValueError("a player appears twice in the standings")
    rng = random.Random(seed)
    rounds = previous.rounds if previous is not None else ()
    meetings: dict[tuple[int, int], int] = {}
    winds: dict[int, list[int]] = {}
    for round_ in rounds:
        for table in round_:
            for seat, p in enumerate(table):
                winds.setdefault(p, [0, 0, 0, 0])[seat] += 1
            for a, b in itertools.combinations(sorted(table), 2):
                meetings[a, b] = meetings.get((a, b), 0) + 1

    def met(a: int, b: int) -> int:
        return meetings.get((a, b) if a < b else (b, a), 0)

    rank = {p: i for i, p in enumerate(standings_order)}
    tables = [list(standings_order[i : i + TABLE_SIZE]) for i in range(0, n, TABLE_SIZE)]
    home = {p: i // TABLE_SIZE for i, p in enumerate(standings_order)}

    def pair_cost(group: Sequence[int]) -> int:
        return sum(met(a, b) for a, b in itertools.combinations(group, 2))

    while True:
        best: tuple[int, int, int, float] | None = None
        move = None
        for t in range(len(tables) - 1):
            upper, lower = tables[t], tables[t + 1]
            current = pair_cost(upper) + pair_cost(lower)
            if current == 0:
                continue
            both = upper + lower
            for chosen in itertools.combinations(range(2 * TABLE_SIZE), TABLE_SIZE):
                new_upper = [both[i] for i in chosen]
                new_lower = [both[i] for i in range(2 * TABLE_SIZE) if i not in chosen]
                if any(abs(t - home[p]) > 1 for p in new_upper) or any(
                    abs(t + 1 - home[p]) > 1 for p in new_lower
                ):
                    continue
                delta = pair_cost(new_upper) + pair_cost(new_lower) - current
                if delta >= 0:
                    continue
                moved = sum(p not in upper for p in new_upper)
                key = (delta, moved, sum(rank[p] for p in new_upper), rng.random())
                if best is None or key < best:
                    best, move = key, (t, new_upper, new_lower)
        if move is None:
            break
        t, tables[t], tables[t + 1] = move

    result = []
    for table in tables:
        table.sort(key=rank.__getitem__)
        orders = list(itertools.permutations(table))
        rng.shuffle(orders)
        result.append(
            min(
                orders,
                key=lambda order: sum(
                    _wind_cost(winds.get(p, (0, 0, 0, 0))[seat], sum(winds.get(p, ())))
                    for seat, p in enumerate(order)
                ),
            )
        )
    return tuple((t[0], t[1], t[2], t[3]) for t in result)
