"""Swiss rounds: the next round seated by the standings, for events that pair by results as they go.

Unlike :func:`~tournaments.seating.generate`, which plans every round in advance, a Swiss round is drawn
after the previous one is scored, so it can only avoid repeats and even out winds given what was played.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Sequence

from .schedule import TABLE_SIZE, Schedule, Table
from .teams import TEAMMATE_WEIGHT


def _wind_cost(count: int, played: int) -> int:
    """Cost of giving a player who has sat a wind ``count`` times (of ``played`` rounds) that wind again.

    Overshooting the ceiling of ``(played + 1) / 4`` is what breaks floor/ceil balance, so it dominates;
    below it, the cubic prefers the least-used wind and evens out the rest.
    """
    new = count + 1
    over = max(0, new - -(-(played + 1) // TABLE_SIZE))
    return 1000 * over + new**3 - count**3


def swiss_round(
    standings_order: list[int],
    previous: Schedule | None,
    *,
    seed: int = 1,
    groups: Iterable[Iterable[int]] | None = None,
) -> tuple[Table, ...]:
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

    ``groups`` are teams whose members must not share a table: a teammate pair counts as
    :data:`~tournaments.seating.teams.TEAMMATE_WEIGHT` previous meetings in the re-divisions above, and
    teammates still together after them (three of a team among four neighbouring places) are split by
    exchanging one of them with a player of another table, however far: the exchange that separates the
    most teammates, then adds the fewest previous meetings, then moves the players closest in standings.
    So teammates sit apart whenever the tables allow it (a team no larger than the number of tables).

    ``standings_order`` lists every player seated this round, best first (pad with substitute indices
    to a multiple of 4). ``seed`` only breaks ties. Raises ValueError when a player is listed twice or
    is in two groups.
    """
    n = len(standings_order)
    if n == 0 or n % TABLE_SIZE:
        raise ValueError(f"{n} players cannot be seated at tables of {TABLE_SIZE}; pad with substitutes")
    if len(set(standings_order)) != n:
        raise ValueError("a player appears twice in the standings")
    team_of: dict[int, int] = {}
    for i, group in enumerate(groups or ()):
        for p in set(group):
            if p in team_of:
                raise ValueError(f"groups: player {p} is in two groups")
            team_of[p] = i

    def mates(a: int, b: int) -> bool:
        return a in team_of and team_of.get(b) == team_of[a]

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
        return meetings.get((a, b) if a < b else (b, a), 0) + (TEAMMATE_WEIGHT if mates(a, b) else 0)

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

    def clashes(group: Sequence[int]) -> int:
        return sum(mates(a, b) for a, b in itertools.combinations(group, 2))

    while team_of:
        best_split: tuple[int, int, int, float] | None = None
        exchange = None
        for t, table in enumerate(tables):
            here = clashes(table)
            if not here:
                continue
            for p in table:
                if not any(mates(p, x) for x in table if x != p):
                    continue
                for u, other in enumerate(tables):
                    if u == t:
                        continue
                    for q in other:
                        new_t = [q if x == p else x for x in table]
                        new_u = [p if x == q else x for x in other]
                        gain = here + clashes(other) - clashes(new_t) - clashes(new_u)
                        if gain <= 0:
                            continue
                        added = pair_cost(new_t) + pair_cost(new_u) - pair_cost(table) - pair_cost(other)
                        key = (-gain, added, abs(rank[p] - rank[q]), rng.random())
                        if best_split is None or key < best_split:
                            best_split, exchange = key, (t, u, new_t, new_u)
        if exchange is None:
            break
        t, u, tables[t], tables[u] = exchange

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
