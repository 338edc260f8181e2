"""Teams: groups of players who must never share a table (teammates do not play each other).

A *group* is a set of player indices; teammates never sit at the same table in any round where that is
possible at all — a team no larger than the number of tables can always be split, a larger one cannot
(some two of its members must share a table each round). :func:`~tournaments.seating.generate`,
:func:`~tournaments.seating.reseat_remaining` and :func:`~tournaments.seating.swiss_round` take the same
``groups`` argument, and :func:`~tournaments.seating.quality` counts ``teammates_together``.

How the seating keeps them apart: a construction without repeats leaves many pairs unmet — every table
of a round it does not use, every group of a transversal design — so the players are *placed* on its
points so that teammates land on points that never meet (:func:`place`, a local search over the
labelling that changes nobody's opponents but the names). Where no placement does (a complete design:
everyone meets everyone), the tabu search runs with each teammate pair counted as if it had already met
:data:`TEAMMATE_WEIGHT` times, so a teammate meeting costs far more than any repeated opponent.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Sequence

TEAMMATE_WEIGHT = 1000
"""The meetings a teammate pair counts as having had, for the tabu search: its first meeting at a table
then costs ``TEAMMATE_WEIGHT`` in ``sum over pairs of C(times_met, 2)``, more than any repeats the rest
of a schedule can have (a repeat costs 1, and there are fewer than 1000 of them at the sizes seated)."""

PLACE_STEPS = 20_000
"""Label exchanges :func:`place` may try (about 2 µs of work each, plus a bit-count)."""


def normalise(groups: Iterable[Iterable[int]] | None, n_players: int) -> list[list[int]]:
    """``groups`` as sorted lists of two or more players (a team of one constrains nothing).

    Raises ValueError naming the rule when an index is not a player ``0 .. n_players - 1`` or a player
    is in two groups.
    """
    result: list[list[int]] = []
    seen: set[int] = set()
    for group in groups or ():
        members = sorted(set(group))
        for p in members:
            if not 0 <= p < n_players:
                raise ValueError(f"groups: player {p} is not one of the {n_players} players")
            if p in seen:
                raise ValueError(f"groups: player {p} is in two groups")
            seen.add(p)
        if len(members) > 1:
            result.append(members)
    return result


def teammate_pairs(groups: Iterable[Iterable[int]]) -> list[tuple[int, int]]:
    """Every pair ``(a, b)``, ``a < b``, of players in the same group."""
    return [pair for group in groups for pair in itertools.combinations(sorted(set(group)), 2)]


def team_masks(groups: Sequence[Sequence[int]], n: int) -> list[int]:
    """``mask[p]``: the bits of ``p``'s teammates (0 for a player in no group)."""
    masks = [0] * n
    for group in groups:
        bits = sum(1 << p for p in group)
        for p in group:
            masks[p] = bits & ~(1 << p)
    return masks


def weighted_base(
    n: int, groups: Sequence[Sequence[int]], base: list[list[int]] | None = None
) -> list[list[int]]:
    """A meeting matrix (``base`` or zeros) with every teammate pair raised by :data:`TEAMMATE_WEIGHT`:
    what the tabu search and the greedy draw see, so that seating teammates together is the last
    resort."""
    matrix = [list(row) for row in base] if base is not None else [[0] * n for _ in range(n)]
    for a, b in teammate_pairs(groups):
        matrix[a][b] += TEAMMATE_WEIGHT
        matrix[b][a] += TEAMMATE_WEIGHT
    return matrix


def together(rounds: Iterable[Iterable[Sequence[int]]], groups: Sequence[Sequence[int]]) -> int:
    """How many times two teammates sit at one table in ``rounds``."""
    team = {p: i for i, group in enumerate(groups) for p in group}
    count = 0
    for round_ in rounds:
        for table in round_:
            for a, b in itertools.combinations(table, 2):
                if a in team and team.get(b) == team[a]:
                    count += 1
    return count


def place(
    rounds: Sequence[Sequence[Sequence[int]]],
    n: int,
    groups: Sequence[Sequence[int]],
    rng: random.Random,
    steps: int = PLACE_STEPS,
    slots: Sequence[Sequence[int]] | None = None,
) -> tuple[list[int], int]:
    """Which point of ``rounds`` each player takes so that teammates meet as little as possible.

    ``rounds`` are over points ``0 .. n - 1``; the answer is ``(point_of, conflicts)``: player ``p``
    sits where point ``point_of[p]`` does, and ``conflicts`` teammate pairs still meet (0: all apart).

    ``slots`` are sets of points that never meet in ``rounds`` — the tables of a round the construction
    has but ``rounds`` leave out: the teams are packed into them first (largest first, each into the
    first slot with room), which settles teams of up to four at once. Then, from that placement (or a
    seeded random one), it exchanges the points of two players — one of them in a
    teammate pair that meets — when that does not add conflicts (sideways moves let it cross plateaus),
    for at most ``steps`` exchanges. Opponents, repeats and shared opponents are those of ``rounds``
    whatever the placement: only names move.
    """
    met = [0] * n
    for round_ in rounds:
        for table in round_:
            bits = sum(1 << p for p in table)
            for p in table:
                met[p] |= bits & ~(1 << p)
    point_of = list(range(n))
    rng.shuffle(point_of)
    if slots:
        free = [list(slot) for slot in slots]
        rng.shuffle(free)
        taken: dict[int, int] = {}
        for group in sorted(groups, key=len, reverse=True):
            slot = next((s for s in free if len(s) >= len(group)), None)
            if slot is not None:
                for p in group:
                    taken[p] = slot.pop()
        rest = [point for point in range(n) if point not in set(taken.values())]
        rng.shuffle(rest)
        others = iter(rest)
        point_of = [taken[p] if p in taken else next(others) for p in range(n)]
    team_of = [-1] * n
    for i, group in enumerate(groups):
        for p in group:
            team_of[p] = i
    # points[i]: the bits of the points team i sits on.
    points = [sum(1 << point_of[p] for p in group) for group in groups]

    def clashes(point: int, team_bits: int) -> int:
        return (met[point] & team_bits).bit_count()

    def total() -> int:
        return sum(clashes(point_of[p], points[team_of[p]]) for g in groups for p in g) // 2

    conflicts = total()
    members = [p for group in groups for p in group]
    for _ in range(steps):
        if conflicts == 0 or not members:
            break
        a = rng.choice(members)
        ta, pa = team_of[a], point_of[a]
        if not met[pa] & points[ta]:
            continue  # a meets no teammate: try another
        b = rng.randrange(n)
        tb, pb = team_of[b], point_of[b]
        if tb == ta:
            continue
        # Conflicts of a's team and b's team before and after a and b exchange points.
        bits_a = points[ta] & ~(1 << pa)
        before = clashes(pa, bits_a)
        after = clashes(pb, bits_a)
        if tb >= 0:
            bits_b = points[tb] & ~(1 << pb)
            before += clashes(pb, bits_b)
            after += clashes(pa, bits_b)
        if after > before:
            continue
        point_of[a], point_of[b] = pb, pa
        points[ta] = bits_a | 1 << pb
        if tb >= 0:
            points[tb] = (points[tb] & ~(1 << pb)) | 1 << pa
        conflicts += after - before
    return point_of, conflicts
