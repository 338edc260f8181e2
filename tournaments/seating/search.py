"""Search for the rounds no construction gives: a greedy draw, then a tabu search on repeated meetings.

Used for the rounds past a size's zero-repeat maximum, for sizes without a construction, and for
reseating the rest of an event after a late change, where the meetings already played count too
(``base``): everything here works on a matrix of how often each pair has met.
"""

from __future__ import annotations

import itertools
import random

from .schedule import TABLE_SIZE

DEFAULT_ITERATIONS = 10_000
"""Tabu-search steps :func:`~tournaments.seating.generate` may take. Each step scans every move of (a
sample of at most 96) players who have a repeated opponent, around a millisecond, so this bounds the
running time where no perfect schedule is reached; the search also gives up after 2 000 steps without
improvement, and stops at once when the constructions already meet the lower bound."""

Matrix = list[list[int]]

SEARCH_WORK = 7_000_000
"""The tabu search's budget in units of work, not seconds: a step over ``n`` players and ``R`` rounds
costs about ``n * (96 + 2R)`` (its candidate moves and its scan of the rounds), so sizes without a
construction for all their rounds (the search's case) get ``SEARCH_WORK // (n * (96 + 2R))`` steps at
most: about 1 900 for 32 players over 10 rounds, 590 for 80 over 26, a few seconds each on a 2-core
machine. Results depend only on the seed, never on the machine's speed."""


def step_budget(n: int, n_rounds: int, cap: int) -> int:
    """Tabu-search steps for ``n`` players over ``n_rounds`` searched rounds: ``cap``, or fewer so that
    the work stays within :data:`SEARCH_WORK`."""
    return min(cap, SEARCH_WORK // (n * (96 + 2 * n_rounds)))


def meeting_matrix(n: int, rounds: list[list[list[int]]], base: Matrix | None = None) -> Matrix:
    """``meet[a][b]``: how often players ``a`` and ``b`` (indices below ``n``) sit at the same table in
    ``rounds``, on top of ``base`` if given."""
    meet = [list(row) for row in base] if base is not None else [[0] * n for _ in range(n)]
    for round_ in rounds:
        for table in round_:
            for a, b in itertools.combinations(table, 2):
                meet[a][b] += 1
                meet[b][a] += 1
    return meet


def pair_cost(meet: Matrix) -> int:
    """``sum over pairs of C(times_met, 2)``: what the search minimises (0 when no pair meets twice)."""
    return sum(m * (m - 1) // 2 for row in meet for m in row) // 2


def pair_cost_floor(base: Matrix, new_meetings: int) -> int:
    """The least :func:`pair_cost` once ``new_meetings`` more meetings are shared among the pairs of
    ``base``: each goes to a pair that has met least so far (water-filling), which no seating can beat.

    With an all-zero ``base`` this is :func:`~tournaments.seating.pair_cost_lower_bound`; the reseating
    search stops as soon as it gets there.
    """
    n = len(base)
    counts = [base[a][b] for a in range(n) for b in range(a + 1, n)]
    if not counts:
        return 0
    # The water level: the highest L with sum(max(0, L - c)) <= new_meetings, by bisection.
    low, high = min(counts), max(counts) + new_meetings + 1
    while high - low > 1:
        middle = (low + high) // 2
        if sum(middle - c for c in counts if c < middle) <= new_meetings:
            low = middle
        else:
            high = middle
    level = low
    extra = new_meetings - sum(level - c for c in counts if c < level)  # pairs raised to level + 1
    total = 0
    for c in counts:
        m = max(c, level)
        if m == level and extra:
            m, extra = m + 1, extra - 1
        total += m * (m - 1) // 2
    return total


def greedy(
    n: int,
    n_rounds: int,
    rng: random.Random,
    rounds: list[list[list[int]]] | None = None,
    base: Matrix | None = None,
) -> list[list[list[int]]]:
    """Extend ``rounds`` to ``n_rounds``: each table is filled with the players who met its members least
    (counting ``base``, the meetings of rounds already played)."""
    rounds = [[list(t) for t in round_] for round_ in rounds or []]
    meet = meeting_matrix(n, rounds, base)
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


class TabuSearch:
    """Tabu search on ``sum over pairs of C(times_met, 2)`` (after Dotú & Van Hentenryck, "Scheduling
    social golfers locally", 2005).

    A move swaps two players of different tables in one round; only players who have a repeated opponent
    in that round are moved (other moves cannot help directly), and when there are many of them a random
    sample of ``candidates`` is examined. Each step takes the best move, even a
    worsening one, unless the same swap was made recently (tabu for a random tenure) — except when it
    would beat the best schedule so far. After ``stall`` steps without a new best the search restarts
    from the best schedule with a few random swaps (a "kick"); after ``patience`` steps without a new
    best it gives up, since on instances with no perfect schedule it could otherwise only stop at the
    step budget. ``base`` holds meetings from rounds that are not searched (already played): they count
    in the cost but never move.
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
        base: Matrix | None = None,
    ) -> None:
        self.n = n
        self.base = base
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
        for r, round_ in enumerate(self.rounds):
            for t, table in enumerate(round_):
                for p in table:
                    self.where[r][p] = t
        self.meet = meeting_matrix(n, self.rounds, self.base)
        self.cost = pair_cost(self.meet)

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
