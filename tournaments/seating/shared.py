"""Shared opponents: the second goal of a seating without repeats.

Two players who never meet are compared by the standings only through the opponents they both faced, so
among schedules with no repeated pair the better one has a higher *fewest shared opponents* over the
unmet pairs (:attr:`~tournaments.seating.Quality.min_shared_opponents`), and fewer pairs at that
fewest. Relabelling players changes nothing here (it is a property of the design), but two things do:

* **which rounds** of a construction are played when it has more than needed (:func:`choose_rounds`:
  a swap of one played round for an unplayed one, kept when the figure does not drop), and which
  construction they come from — a transversal design's groups share every opponent, 24 at 32 × 8;
* **local changes** (:class:`SharedSearch`): an unmet pair with the fewest shared opponents gets one
  more when one of them moves, in some round, to a table where an opponent of the other sits,
  exchanging seats with somebody there — kept only if nobody meets anybody twice, no teammates meet,
  and the figure (fewest, then how many pairs have it) does not get worse.

Opponents are sets of bits, so a pair's shared opponents are one AND and a bit count.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

Rounds = list[list[list[int]]]

SHARED_WORK = 3_000_000
"""The budget of :class:`SharedSearch`, in pair recounts (about a third of a microsecond each): a move
recounts the pairs of the eight players whose opponents changed, twice when it is undone, so ``n``
players get ``SHARED_WORK // (16 n)`` moves — about 1 100 for 172 players, 5 900 for 32. Counted in
steps, never seconds, so results depend only on the seed."""

CHOOSE_EVALUATIONS = 40
"""How many sets of rounds :func:`choose_rounds` measures, at most, per construction."""


def opponents(rounds: Sequence[Sequence[Sequence[int]]], n: int) -> list[int]:
    """``bits[p]``: the players ``p`` meets over ``rounds``, as bits."""
    bits = [0] * n
    for round_ in rounds:
        for table in round_:
            mask = 0
            for p in table:
                mask |= 1 << p
            for p in table:
                bits[p] |= mask & ~(1 << p)
    return bits


def profile(bits: Sequence[int], n: int) -> tuple[int, int]:
    """``(fewest, -pairs)``: the fewest opponents shared by an unmet pair and minus how many pairs have
    that few (higher is better: compare profiles as tuples); ``(1 << 30, 0)`` when everyone meets."""
    low, count = 1 << 30, 0
    for a in range(n):
        row = bits[a]
        for b in range(a + 1, n):
            if not row >> b & 1:
                s = (row & bits[b]).bit_count()
                if s < low:
                    low, count = s, 1
                elif s == low:
                    count += 1
    return low, -count


def _round_bits(round_: Sequence[Sequence[int]], n: int) -> list[int]:
    return opponents([round_], n)


def choose_rounds(
    rounds: Rounds, wanted: int, n: int, rng: random.Random
) -> tuple[Rounds, Rounds, tuple[int, int]]:
    """``wanted`` of ``rounds`` (rounds without a repeated pair), chosen for the best :func:`profile`:
    the first ``wanted``, then up to :data:`CHOOSE_EVALUATIONS` exchanges of a chosen round for an
    unchosen one, each kept when the profile does not get worse. Returns the chosen rounds, the others
    (whose tables seat players who never meet in the chosen ones: where teams go) and the profile."""
    per_round = [_round_bits(r, n) for r in rounds]
    chosen = list(range(wanted))
    rest = list(range(wanted, len(rounds)))

    def measure(indices: list[int]) -> tuple[int, int]:
        bits = [0] * n
        for i in indices:
            row = per_round[i]
            bits = [b | r for b, r in zip(bits, row, strict=True)]
        return profile(bits, n)

    score = measure(chosen)
    if rest:
        for _ in range(CHOOSE_EVALUATIONS):
            i, j = rng.randrange(len(chosen)), rng.randrange(len(rest))
            chosen[i], rest[j] = rest[j], chosen[i]
            trial = measure(chosen)
            if trial >= score:
                score = trial
            else:
                chosen[i], rest[j] = rest[j], chosen[i]
    return [rounds[i] for i in chosen], [rounds[i] for i in rest], score


class SharedSearch:
    """Raise the fewest shared opponents of a schedule without repeats, keeping it without repeats and
    keeping teammates apart (``forbid[p]``: bits of the players ``p`` must never sit with).

    Each step takes an unmet pair ``(a, b)`` with the fewest shared opponents, one of them ``x`` (the
    other ``y``) and a random round; ``x`` exchanges seats with a player ``d`` of a table where an
    opponent of ``y`` that ``x`` has not met sits, if ``x`` has met nobody there and ``d`` nobody at
    ``x``'s table (no repeat, no teammates). The move is kept when the profile ``(fewest, -pairs at the
    fewest)`` is no worse, so the search walks plateaus too; otherwise undone.
    """

    def __init__(
        self, rounds: Rounds, n: int, rng: random.Random, forbid: Sequence[int] | None = None
    ) -> None:
        self.n = n
        self.rng = rng
        self.rounds = [[list(t) for t in round_] for round_ in rounds]
        self.forbid = list(forbid) if forbid is not None else [0] * n
        self.where = [[0] * n for _ in self.rounds]
        for r, round_ in enumerate(self.rounds):
            for t, table in enumerate(round_):
                for p in table:
                    self.where[r][p] = t
        self.nb = opponents(self.rounds, n)
        top = 3 * len(self.rounds) + 2
        self.hist = [0] * top
        self.shared = [[-1] * n for _ in range(n)]
        for a in range(n):
            row, out = self.nb[a], self.shared[a]
            for b in range(n):
                if b != a and not row >> b & 1:
                    s = (row & self.nb[b]).bit_count()
                    out[b] = s
                    if b > a:
                        self.hist[s] += 1

    def score(self) -> tuple[int, int]:
        for s, count in enumerate(self.hist):
            if count:
                return s, -count
        return 1 << 30, 0

    def _refresh(self, x: int) -> None:
        """Recount the shared opponents of every pair with ``x`` after ``x``'s opponents changed."""
        nb, hist, shared = self.nb, self.hist, self.shared
        nbx, row = nb[x], shared[x]
        for y in range(self.n):
            if y == x:
                continue
            new = -1 if nbx >> y & 1 else (nbx & nb[y]).bit_count()
            old = row[y]
            if new != old:
                if old >= 0:
                    hist[old] -= 1
                if new >= 0:
                    hist[new] += 1
                row[y] = new
                shared[y][x] = new

    def _exchange(self, r: int, x: int, d: int) -> None:
        """``x`` and ``d`` (at different tables) exchange seats in round ``r``; opponents and counts
        follow."""
        where, tables, nb = self.where[r], self.rounds[r], self.nb
        tx, td = where[x], where[d]
        table_x, table_d = tables[tx], tables[td]
        mates_x = [p for p in table_x if p != x]
        mates_d = [p for p in table_d if p != d]
        bits_x = sum(1 << p for p in mates_x)
        bits_d = sum(1 << p for p in mates_d)
        nb[x] = (nb[x] & ~bits_x) | bits_d
        nb[d] = (nb[d] & ~bits_d) | bits_x
        for p in mates_x:
            nb[p] = (nb[p] & ~(1 << x)) | 1 << d
        for p in mates_d:
            nb[p] = (nb[p] & ~(1 << d)) | 1 << x
        table_x[table_x.index(x)] = d
        table_d[table_d.index(d)] = x
        where[x], where[d] = td, tx
        for p in (x, d, *mates_x, *mates_d):
            self._refresh(p)

    def run(self, steps: int, target: int) -> Rounds:
        """At most ``steps`` moves, or until the fewest shared opponents reaches ``target``; the rounds."""
        rng, n = self.rng, self.n
        score = self.score()
        if not self.rounds or len(self.rounds[0]) < 2:
            return self.rounds
        for _ in range(steps):
            low = score[0]
            if low >= target:
                break
            worst = [p for p in range(n) if low in self.shared[p]]
            a = rng.choice(worst)
            b = rng.choice([q for q in range(n) if self.shared[a][q] == low])
            x, y = (a, b) if rng.random() < 0.5 else (b, a)
            r = rng.randrange(len(self.rounds))
            wanted = self.nb[y] & ~self.nb[x] & ~self.forbid[x]
            where, tables = self.where[r], self.rounds[r]
            tx = where[x]
            mates_x = sum(1 << p for p in tables[tx] if p != x)
            options = [t for t, table in enumerate(tables) if t != tx and any(wanted >> p & 1 for p in table)]
            if not options:
                continue
            table = tables[rng.choice(options)]
            d = rng.choice([p for p in table if not wanted >> p & 1] or table)
            stays = sum(1 << p for p in table if p != d)
            if stays & (self.nb[x] | self.forbid[x]) or mates_x & (self.nb[d] | self.forbid[d]):
                continue  # a repeat or teammates together
            self._exchange(r, x, d)
            trial = self.score()
            if trial >= score:
                score = trial
            else:
                self._exchange(r, x, d)
        return self.rounds
