"""Late changes: reseat the rounds still to play after late arrivals, drop-outs or a change in the
number of tables (players sitting out when the tables cannot seat them all: :mod:`.late`), keeping the
rounds already played exactly as they were.

What was played cannot change, so it enters only as a matrix of meetings that the new rounds must work
around: a pair who met in round 2 should not meet again while others are still unmet. The new rounds are
drawn greedily and improved by the same tabu search as :func:`~tournaments.seating.generate`, with the
played meetings counted (:class:`~tournaments.seating.search.TabuSearch` ``base``); winds are balanced
over the whole event, played rounds included.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from .quality import Quality, min_shared_opponents, quality
from .schedule import TABLE_SIZE, Rounds, Schedule, freeze, tidy, validate_rounds
from .search import (
    DEFAULT_ITERATIONS,
    Matrix,
    TabuSearch,
    greedy,
    meeting_matrix,
    pair_cost,
    pair_cost_floor,
    step_budget,
)
from .teams import normalise, together, weighted_base
from .winds import balance_winds

WIND_STEPS = 20_000
"""Seat exchanges :func:`_anneal_winds` may try (a few milliseconds per thousand)."""


@dataclass(frozen=True)
class Reseating:
    """New rounds for the rest of an event, and how fair they make it.

    ``rounds`` are the new remaining rounds (player indices; indices from ``n_players`` up are
    substitute seats). ``quality`` measures the new rounds alone; ``event_quality`` the whole event,
    played rounds included, which is what the organiser compares with the current plan: repeats count
    meetings already played, winds count every round a player sat.
    """

    rounds: Rounds
    quality: Quality
    event_quality: Quality


def event_quality(
    played: Sequence[Sequence[Sequence[int]]],
    remaining: Sequence[Sequence[Sequence[int]]],
    n_players: int,
    *,
    among: Collection[int] | None = None,
    groups: Iterable[Iterable[int]] | None = None,
) -> Quality:
    """:func:`~tournaments.seating.quality` of ``played + remaining`` for the real players ``0 ..
    n_players - 1``, with ``min_shared_opponents`` taken over the pairs of ``among`` (default: all).

    ``among`` is there for drop-outs: someone who left after two rounds shares few opponents with anyone,
    which says nothing about the seating of the players still in.
    """
    whole = quality(Schedule(freeze([*played, *remaining])), n_players, groups=groups)
    if among is None:
        return whole
    meetings: dict[tuple[int, int], int] = {}
    for round_ in [*played, *remaining]:
        for table in round_:
            for a, b in itertools.combinations(sorted(p for p in table if 0 <= p < n_players), 2):
                meetings[a, b] = meetings.get((a, b), 0) + 1
    return Quality(
        repeated_pairs=whole.repeated_pairs,
        max_meetings=whole.max_meetings,
        wind_counts=whole.wind_counts,
        wind_imbalance=whole.wind_imbalance,
        perfect_winds=whole.perfect_winds,
        min_shared_opponents=min_shared_opponents(meetings, sorted(set(among))),
        teammates_together=whole.teammates_together,
    )


def reseat_remaining(
    played: Sequence[Sequence[Sequence[int]]],
    players: Sequence[int],
    n_rounds: int,
    *,
    n_players: int,
    tables: int | None = None,
    planned: Sequence[Sequence[Sequence[int]]] | None = None,
    seed: int = 1,
    iterations: int = DEFAULT_ITERATIONS,
    groups: Iterable[Iterable[int]] | None = None,
    sit_out: Sequence[Sequence[int]] | None = None,
) -> Reseating:
    """Seat ``n_rounds`` more rounds for ``players`` after the ``played`` rounds, which stay as they are.

    ``sit_out`` (one list per new round, see :func:`~tournaments.seating.late.sit_outs`) names the
    players who sit out each round (a bye) when the tables cannot seat them all: each round then seats
    the others, round by round, each round drawn and searched as below with the rounds before it
    counted as played.

    ``players`` are the real players still in (indices below ``n_players``): a late arrival is simply
    in the list without having played, a drop-out is left out. ``tables`` is the number of tables from
    now on (default: as few as seat everyone); seats beyond the players are substitute seats, numbered
    ``n_players``, ``n_players + 1``, … as in :func:`~tournaments.seating.generate`.

    ``planned`` are the remaining rounds of the current plan, if any: adapted to the change
    (:func:`_adapt`) they are a candidate too, so a change the plan absorbs (a drop-out whose seats a
    substitute takes) keeps the printed tables, and the result is never worse than the plan.

    The new rounds minimise ``sum over pairs of C(times_met, 2)`` counting the played meetings, so
    nobody meets someone again while unmet opponents remain where the tables allow it. Of the greedy
    draw, the searched schedule and the adapted plan, the one with the fewest repeated pairs over the
    whole event wins (then the best winds), so the result is never worse than the greedy draw for the
    same seed. Winds are balanced over the whole event as far as the new tables allow
    (:func:`_balance_event_winds`): the search does not look at winds, and after an odd number of
    played rounds a table whose four players all lack the same wind cannot give it to all of them.
    Deterministic for a seed.

    ``groups`` are teams (as for :func:`~tournaments.seating.generate`): teammates never share a new
    table where the tables allow it — a teammate pair counts for the search as already met
    :data:`~tournaments.seating.teams.TEAMMATE_WEIGHT` times, and of the candidates the one with the
    fewest teammates together wins first. ``quality`` and ``event_quality`` report ``teammates_together``
    (the event's counts the played rounds too).

    Raises ValueError, naming the rule, when a played round is malformed, a player is listed twice or is
    not a real player, the players do not fit at ``tables`` tables, counts are negative, or a group
    names a player twice or one who is not registered; or when ``sit_out`` does not give one list per
    round of players still in.
    """
    if sit_out is not None and any(sit_out):
        return _round_by_round(
            played, players, n_rounds, n_players=n_players, tables=tables, seed=seed,
            iterations=iterations, sit_out=sit_out, groups=groups,
        )  # fmt: skip
    validate_rounds(played)
    if planned is not None:
        validate_rounds(planned)
    if n_rounds < 0:
        raise ValueError(f"the number of rounds to reseat must not be negative, got {n_rounds}")
    if iterations < 0:
        raise ValueError("iterations must not be negative")
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice among the players still in")
    outside = [p for p in players if not 0 <= p < n_players]
    if outside:
        raise ValueError(f"player {outside[0]} is not one of the {n_players} registered players")
    if not players:
        raise ValueError("nobody is left to seat")
    teams = normalise(groups, n_players)
    needed = -(-len(players) // TABLE_SIZE)
    if tables is None:
        tables = needed
    if tables < needed:
        raise ValueError(
            f"{len(players)} players do not fit at {tables} tables of {TABLE_SIZE}: "
            f"at least {needed} tables are needed"
        )
    if n_rounds == 0:
        empty = Schedule(())
        return Reseating(
            (),
            quality(empty, n_players, groups=teams),
            event_quality(played, (), n_players, among=players, groups=teams),
        )

    # The search works on local indices 0 .. size-1: the players still in, then the substitute seats
    # (who have met nobody: a substitute seat of a played round was somebody else).
    local = {p: i for i, p in enumerate(players)}
    size = tables * TABLE_SIZE
    base: Matrix = [[0] * size for _ in range(size)]
    for round_ in played:
        for table in round_:
            here = [local[p] for p in table if p in local]
            for a, b in itertools.combinations(here, 2):
                base[a][b] += 1
                base[b][a] += 1
    # Teammates still in, in local indices: what the new rounds must keep apart.
    local_teams = [[local[p] for p in team if p in local] for team in teams]
    local_teams = [team for team in local_teams if len(team) > 1]
    plain_base = base
    if local_teams:
        base = weighted_base(size, local_teams, base)

    def to_global(rounds: list[list[list[int]]], subs: Sequence[int]) -> list[list[list[int]]]:
        names = list(players) + list(subs)
        return [[[names[p] for p in table] for table in round_] for round_ in rounds]

    sub_seats = range(n_players, n_players + size - len(players))
    # Substitute seats get names no played round uses while winds are balanced: a substitute seat now
    # is nobody in particular, so its winds must not be tied to the seats numbered alike back then.
    fresh = 1 + max([n_players, *(p for r in played for t in r for p in t)])
    rename = {fresh + i: seat for i, seat in enumerate(sub_seats)}

    def finished(rounds: list[list[list[int]]]) -> tuple[tuple[int, int, int], Rounds]:
        """The candidate with balanced winds, and its rank: teammates together in the new rounds, repeated
        pairs over the whole event, then wind imbalance, then the searched cost (lower is better)."""
        balanced = _balance_event_winds(played, to_global(rounds, range(fresh, fresh + len(sub_seats))), rng)
        named = tidy([[[rename.get(p, p) for p in table] for table in round_] for round_ in balanced])
        whole = event_quality(played, named, n_players)
        return (
            together(rounds, local_teams),
            whole.repeated_pairs,
            whole.wind_imbalance,
            pair_cost(meeting_matrix(size, rounds, base)),
        ), named

    rng = random.Random(seed)
    start = greedy(size, n_rounds, rng, None, base)
    kept = _adapt(planned, players, size, n_rounds) if planned is not None else None
    begin = start
    if kept is not None and pair_cost(meeting_matrix(size, kept, base)) <= pair_cost(
        meeting_matrix(size, start, base)
    ):
        begin = kept
    target = pair_cost_floor(plain_base, tables * 6 * n_rounds) + pair_cost(base) - pair_cost(plain_base)
    found = TabuSearch(begin, size, rng, base=base).run(step_budget(size, n_rounds, iterations), target)
    candidates = [found, start] + ([kept] if kept is not None else [])
    _, new_rounds = min((finished(c) for c in candidates), key=lambda ranked: ranked[0])
    return Reseating(
        rounds=new_rounds,
        quality=quality(Schedule(new_rounds), n_players, groups=teams),
        event_quality=event_quality(played, new_rounds, n_players, among=players, groups=teams),
    )


def _round_by_round(
    played: Sequence[Sequence[Sequence[int]]],
    players: Sequence[int],
    n_rounds: int,
    *,
    n_players: int,
    tables: int | None,
    seed: int,
    iterations: int,
    sit_out: Sequence[Sequence[int]],
    groups: Iterable[Iterable[int]] | None = None,
) -> Reseating:
    """:func:`reseat_remaining` with players sitting out: each round seats those present, one round at
    a time (drawn greedily, then searched), the rounds already drawn counted as played, teammates kept
    apart as there; winds are then balanced once over the whole event, as for the other reseatings."""
    validate_rounds(played)
    if len(sit_out) != n_rounds:
        raise ValueError(f"sit_out must list who sits out each of the {n_rounds} rounds, got {len(sit_out)}")
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice among the players still in")
    outside = [p for p in players if not 0 <= p < n_players]
    if outside:
        raise ValueError(f"player {outside[0]} is not one of the {n_players} registered players")
    if iterations < 0:
        raise ValueError("iterations must not be negative")
    still_in = set(players)
    present_by_round = []
    for number, out in enumerate(sit_out):
        if any(p not in still_in for p in out) or len(set(out)) != len(out):
            raise ValueError(f"round {number + 1}: who sits out must be players still in, each once")
        present_by_round.append([p for p in players if p not in set(out)])
    most = max(len(present) for present in present_by_round)
    if not min(len(present) for present in present_by_round):
        raise ValueError("nobody is left to seat in a round")
    tables = -(-most // TABLE_SIZE) if tables is None else tables
    if most > tables * TABLE_SIZE:
        raise ValueError(f"{most} players do not fit at {tables} tables of {TABLE_SIZE}")
    size = tables * TABLE_SIZE
    rng = random.Random(seed)
    # Substitute seats get names no played round uses until the winds are balanced (see reseat_remaining).
    fresh = 1 + max([n_players, *(p for r in played for t in r for p in t)])
    teams = normalise(groups, n_players)
    new_rounds: list[list[list[int]]] = []
    for present in present_by_round:
        local = {p: i for i, p in enumerate(present)}
        base: Matrix = [[0] * size for _ in range(size)]
        for round_ in [*played, *new_rounds]:
            for table in round_:
                here = [local[p] for p in table if p in local]
                for a, b in itertools.combinations(here, 2):
                    base[a][b] += 1
                    base[b][a] += 1
        local_teams = [[local[p] for p in team if p in local] for team in teams]
        local_teams = [team for team in local_teams if len(team) > 1]
        if local_teams:
            base = weighted_base(size, local_teams, base)
        start = greedy(size, 1, rng, None, base)
        target = pair_cost_floor(base, tables * 6)
        found = TabuSearch(start, size, rng, base=base).run(step_budget(size, 1, iterations), target)
        best = min((found, start), key=lambda c: pair_cost(meeting_matrix(size, c, base)))
        names = [*present, *range(fresh, fresh + size - len(present))]
        new_rounds.append([[names[i] for i in table] for table in best[0]])
    balanced = _balance_event_winds(played, new_rounds, rng)
    rename = {fresh + i: n_players + i for i in range(size)}
    rounds = tidy([[[rename.get(p, p) for p in table] for table in round_] for round_ in balanced])
    return Reseating(
        rounds=rounds,
        quality=quality(Schedule(rounds), n_players, groups=teams),
        event_quality=event_quality(played, rounds, n_players, among=players, groups=teams),
    )


def _adapt(
    planned: Sequence[Sequence[Sequence[int]]], players: Sequence[int], size: int, n_rounds: int
) -> list[list[list[int]]] | None:
    """The ``planned`` remaining rounds in local indices, changed as little as the late change needs:
    a player no longer in leaves an empty seat, and whoever is in but not seated in a round (a late
    arrival) takes the first empty seat; seats still empty become substitute seats. None when the plan
    does not fit (another number of rounds or of tables)."""
    if len(planned) != n_rounds or any(len(round_) * TABLE_SIZE != size for round_ in planned):
        return None
    local = {p: i for i, p in enumerate(players)}
    rounds = []
    for round_ in planned:
        seated = [[local.get(p, -1) for p in table] for table in round_]
        present = {p for table in seated for p in table if p >= 0}
        waiting = [i for i in range(len(players)) if i not in present]
        waiting += list(range(len(players), size))
        for table in seated:
            for seat, p in enumerate(table):
                if p < 0:
                    table[seat] = waiting.pop(0)
        rounds.append(seated)
    return rounds


def _balance_event_winds(
    played: Sequence[Sequence[Sequence[int]]], new: list[list[list[int]]], rng: random.Random
) -> list[list[list[int]]]:
    """Seat orders for the ``new`` tables that balance winds over ``played + new``, played seats fixed.

    First :func:`~tournaments.seating.balance_winds` over the whole event: exact, and kept when it
    leaves every played seat where it was (it keeps a seat's wind whenever it can, so it often does).
    Otherwise the new rounds are balanced on their own, then repaired by :func:`_repair_winds` and
    :func:`_anneal_winds`.
    """
    whole = balance_winds([*played, *new])
    if whole[: len(played)] == freeze(played):
        return [[list(t) for t in r] for r in whole[len(played) :]]
    rounds = [[list(t) for t in r] for r in balance_winds(new)]
    _repair_winds(played, rounds)
    _anneal_winds(played, rounds, rng)
    return rounds


def _imbalance(row: list[int]) -> int:
    """How far one player's wind counts lie outside floor/ceil of (rounds sat)/4 (as in ``quality``)."""
    total = sum(row)
    low, high = total // TABLE_SIZE, -(-total // TABLE_SIZE)
    return sum(max(0, low - c, c - high) for c in row)


def _anneal_winds(
    played: Sequence[Sequence[Sequence[int]]], rounds: list[list[list[int]]], rng: random.Random
) -> None:
    """Finish what :func:`_repair_winds` left: exchange two seats of a new table at random, keeping
    the exchange when the whole event's imbalance does not grow, now and then even when it does
    (simulated annealing, :data:`WIND_STEPS` steps at most, seeded). Chains that must pass through a
    player who is momentarily out of bounds are found this way."""
    counts: dict[int, list[int]] = {}
    for round_ in [*played, *rounds]:
        for table in round_:
            for seat, p in enumerate(table):
                counts.setdefault(p, [0, 0, 0, 0])[seat] += 1
    total = sum(_imbalance(row) for row in counts.values())
    tables = [table for round_ in rounds for table in round_]
    if not tables:
        return
    best, best_seats = total, [list(t) for t in tables]
    for step in range(WIND_STEPS):
        if best == 0:
            break
        table = tables[rng.randrange(len(tables))]
        i, j = rng.sample(range(TABLE_SIZE), 2)
        x, y = table[i], table[j]
        before = _imbalance(counts[x]) + _imbalance(counts[y])
        counts[x][i] -= 1
        counts[x][j] += 1
        counts[y][j] -= 1
        counts[y][i] += 1
        change = _imbalance(counts[x]) + _imbalance(counts[y]) - before
        temperature = 0.6 * (1 - step / WIND_STEPS)
        if change <= 0 or rng.random() < math.exp(-change / max(temperature, 1e-9)):
            table[i], table[j] = y, x
            total += change
            if total < best:
                best, best_seats = total, [list(t) for t in tables]
        else:
            counts[x][i] += 1
            counts[x][j] -= 1
            counts[y][j] += 1
            counts[y][i] -= 1
    for table, seats in zip(tables, best_seats, strict=True):
        table[:] = seats


def _repair_winds(played: Sequence[Sequence[Sequence[int]]], rounds: list[list[list[int]]]) -> None:
    """Move the new ``rounds``' seats (in place) until every player's winds over the whole event lie
    within floor/ceil of (rounds sat)/4, as far as exchanges of seats within a table can get there.

    A player with a wind ``a`` too many gives up an ``a`` seat for another seat ``d`` at the same table.
    The player who sat ``d`` there now has one ``a`` more and one ``d`` fewer; if that is still within
    their bounds the repair is done, otherwise they pass the ``a`` on at another table where they sit
    ``a``, taking some seat there (ideally ``d`` back), and so on: a chain searched breadth first, as
    for the Kempe chains of edge colouring. Each exchange stays within a table, so who meets whom is
    unchanged, and every link leaves its player within bounds: the repair never makes anyone worse.
    Best effort: a manual swap in the played rounds may have put someone's winds out of reach.
    """
    counts: dict[int, list[int]] = {}
    for round_ in [*played, *rounds]:
        for table in round_:
            for seat, p in enumerate(table):
                counts.setdefault(p, [0, 0, 0, 0])[seat] += 1
    seats_of: dict[int, list[tuple[int, int]]] = {}  # player -> the new (round, table) they sit at
    for r, round_ in enumerate(rounds):
        for t, table in enumerate(round_):
            for p in table:
                seats_of.setdefault(p, []).append((r, t))

    def bounds(p: int) -> tuple[int, int]:
        total = sum(counts[p])
        return total // TABLE_SIZE, -(-total // TABLE_SIZE)

    def fits(p: int, plus: int, minus: int) -> bool:
        """Whether ``p`` stays within bounds with one ``plus`` seat more and one ``minus`` fewer."""
        low, high = bounds(p)
        return plus == minus or (counts[p][plus] + 1 <= high and counts[p][minus] - 1 >= low)

    Link = tuple[int, int, int]  # (round, table, seat taken by the player who gives up seat a)

    def chain(start: int, a: int, targets: Sequence[int]) -> list[Link] | None:
        """Exchanges moving one ``a`` seat away from ``start``, who takes a seat in ``targets``
        instead, to a player who can take the ``a``; or None."""
        parent: dict[tuple[int, int], tuple[tuple[int, int] | None, Link]] = {}
        frontier: list[tuple[int, int]] = []
        for r, t in seats_of[start]:
            table = rounds[r][t]
            if table[a] != start:
                continue
            for d in targets:
                state = (table[d], d)
                if state not in parent:
                    parent[state] = (None, (r, t, d))
                    frontier.append(state)
        used = {(r, t) for r, t, _ in (link for _, link in parent.values())}
        while frontier:
            following = []
            for state in frontier:
                y, minus = state
                if fits(y, a, minus):
                    path: list[Link] = []
                    node: tuple[int, int] | None = state
                    while node is not None:
                        node, link = parent[node]
                        path.append(link)
                    return path
                for r, t in seats_of.get(y, ()):
                    table = rounds[r][t]
                    if table[a] != y or (r, t) in used:
                        continue
                    for d in range(TABLE_SIZE):
                        nxt = (table[d], d)
                        if d == a or nxt in parent or not fits(y, d, minus):
                            continue
                        parent[nxt] = (state, (r, t, d))
                        used.add((r, t))
                        following.append(nxt)
            frontier = following
        return None

    progress = True
    while progress:  # every repair lowers the total imbalance, so this ends
        progress = False
        for p in sorted(seats_of):
            low, high = bounds(p)
            row = counts[p]
            moves = [
                (a, [d for d in range(TABLE_SIZE) if row[d] < high])
                for a in range(TABLE_SIZE)
                if row[a] > high
            ]
            moves += [
                (a, [b]) for b in range(TABLE_SIZE) if row[b] < low for a in range(TABLE_SIZE) if row[a] > low
            ]
            for a, targets in moves:
                path = chain(p, a, targets)
                if path is None:
                    continue
                for r, t, d in path:
                    table = rounds[r][t]
                    giver, taker = table[a], table[d]
                    counts[giver][a] -= 1
                    counts[giver][d] += 1
                    counts[taker][d] -= 1
                    counts[taker][a] += 1
                    table[a], table[d] = taker, giver
                progress = True
                break
