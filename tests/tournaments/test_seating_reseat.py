"""Late changes in the pure seating module: ``reseat_remaining`` and the new quality figure.

Property tests (hypothesis) over random played rounds and random late changes: the played rounds are
never touched, every new round seats every player still in exactly once at tables of four (substitute
seats fill the rest), and the repeats are never worse than a fresh greedy draw given the same history.
"""

from __future__ import annotations

import copy
import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.seating import (
    Schedule,
    event_quality,
    generate,
    quality,
    reseat_remaining,
)
from tournaments.seating.search import greedy, pair_cost, pair_cost_floor

FAST = 300  # search steps: enough to exercise the search, quick enough for many examples


def random_rounds(rng: random.Random, players: list[int], n_rounds: int) -> list[list[list[int]]]:
    rounds = []
    for _ in range(n_rounds):
        order = players[:]
        rng.shuffle(order)
        rounds.append([order[i : i + 4] for i in range(0, len(order), 4)])
    return rounds


def repeated_pairs(rounds) -> int:
    met: dict[tuple[int, int], int] = {}
    for round_ in rounds:
        for table in round_:
            for pair in itertools.combinations(sorted(table), 2):
                met[pair] = met.get(pair, 0) + 1
    return sum(n - 1 for n in met.values())


@st.composite
def late_changes(draw):
    tables = draw(st.integers(2, 6))
    n_played = draw(st.integers(0, 4))
    start = list(range(4 * tables))
    played = random_rounds(random.Random(draw(st.integers(0, 10**6))), start, n_played)
    dropped = draw(st.sets(st.sampled_from(start), max_size=5))
    arrivals = draw(st.integers(0, 5))
    n_players = 4 * tables + arrivals
    players = [p for p in range(n_players) if p not in dropped]
    if len(players) < 4:
        players = list(range(4))
    needed = -(-len(players) // 4)
    new_tables = needed + draw(st.integers(0, 1))
    n_rounds = draw(st.integers(1, 4))
    seed = draw(st.integers(1, 10**6))
    return played, players, n_players, new_tables, n_rounds, seed


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(late_changes())
def test_reseating_keeps_the_played_rounds_and_seats_everyone_still_in_once(change):
    played, players, n_players, tables, n_rounds, seed = change
    before = copy.deepcopy(played)
    result = reseat_remaining(
        played, players, n_rounds, n_players=n_players, tables=tables, seed=seed, iterations=FAST
    )
    assert played == before  # the played rounds are input only: never changed
    assert len(result.rounds) == n_rounds
    substitutes = tables * 4 - len(players)
    for round_ in result.rounds:
        assert len(round_) == tables and all(len(table) == 4 for table in round_)
        seated = [p for table in round_ for p in table]
        assert len(seated) == len(set(seated))
        assert sorted(p for p in seated if p < n_players) == sorted(players)
        assert sorted(p for p in seated if p >= n_players) == list(range(n_players, n_players + substitutes))
    whole = quality(Schedule(tuple(tuple(tuple(t) for t in r) for r in played) + result.rounds), n_players)
    assert result.event_quality.repeated_pairs == whole.repeated_pairs
    assert result.event_quality.wind_counts == whole.wind_counts
    assert result.quality == quality(Schedule(result.rounds), n_players)


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(late_changes())
def test_reseating_is_never_worse_than_a_fresh_greedy_draw(change):
    played, players, n_players, tables, n_rounds, seed = change
    result = reseat_remaining(
        played, players, n_rounds, n_players=n_players, tables=tables, seed=seed, iterations=FAST
    )
    # The greedy draw the function starts from, rebuilt here: players still in first, then substitutes.
    size = tables * 4
    local = {p: i for i, p in enumerate(players)}
    base = [[0] * size for _ in range(size)]
    for round_ in played:
        for table in round_:
            for a, b in itertools.combinations([local[p] for p in table if p in local], 2):
                base[a][b] += 1
                base[b][a] += 1
    draw = greedy(size, n_rounds, random.Random(seed), None, base)
    names = players + list(range(n_players, n_players + size - len(players)))
    fresh = [[[names[p] for p in table] for table in round_] for round_ in draw]
    assert result.event_quality.repeated_pairs <= event_quality(played, fresh, n_players).repeated_pairs
    # ... and no schedule can beat the water-filling floor of the cost.
    assert pair_cost(base) <= pair_cost_floor(base, 6 * tables * n_rounds)


def test_nothing_changed_keeps_a_perfect_plan():
    schedule = generate(32, 8, seed=4)
    for cut in (1, 3, 4, 6):
        result = reseat_remaining(
            schedule.rounds[:cut], list(range(32)), 8 - cut, n_players=32, planned=schedule.rounds[cut:]
        )
        q = result.event_quality
        assert (q.repeated_pairs, q.wind_imbalance) == (0, 0), cut


def test_a_drop_out_whose_seats_a_substitute_takes_keeps_the_tables():
    schedule = generate(32, 8, seed=2)
    leaver = schedule.rounds[3][0][0]
    players = [p for p in range(32) if p != leaver]
    result = reseat_remaining(
        schedule.rounds[:3], players, 5, n_players=32, planned=schedule.rounds[3:], iterations=FAST
    )
    assert result.event_quality.repeated_pairs == 0 and result.event_quality.wind_imbalance == 0
    assert all(any(32 in table for table in round_) for round_ in result.rounds)  # the substitute seat


def test_a_late_arrival_after_a_block_of_four_rounds_gets_balanced_winds():
    schedule = generate(28, 8, seed=3)
    result = reseat_remaining(schedule.rounds[:4], list(range(29)), 4, n_players=29, tables=8)
    q = result.event_quality
    assert q.wind_imbalance == 0
    assert q.wind_counts[28] == (1, 1, 1, 1)  # the late arrival, over the four rounds they play


def test_one_table_fewer_spreads_the_unavoidable_repeats():
    schedule = generate(32, 8, seed=1)
    result = reseat_remaining(schedule.rounds[:4], list(range(28)), 4, n_players=32)
    assert all(len(round_) == 7 for round_ in result.rounds)
    assert result.event_quality.max_meetings <= 2
    assert result.event_quality.min_shared_opponents is not None


def test_zero_rounds_and_bad_requests():
    played = [[[0, 1, 2, 3], [4, 5, 6, 7]]]
    assert reseat_remaining(played, list(range(8)), 0, n_players=8).rounds == ()
    for kwargs, message in [
        ({"players": [0, 0, 1, 2]}, "listed twice"),
        ({"players": [0, 1, 2, 9]}, "not one of the 8 registered players"),
        ({"players": []}, "nobody is left"),
        ({"players": list(range(8)), "tables": 1}, "do not fit at 1 tables"),
        ({"players": list(range(8)), "n_rounds": -1}, "must not be negative"),
    ]:
        arguments = {"n_rounds": 2, **kwargs}
        with pytest.raises(ValueError, match=message):
            reseat_remaining(
                played, arguments.pop("players"), arguments.pop("n_rounds"), n_players=8, **arguments
            )
    with pytest.raises(ValueError, match="seated twice"):
        reseat_remaining([[[0, 1, 2, 3], [3, 4, 5, 6]]], list(range(8)), 1, n_players=8)


# ------------------------------------------------------------------------- the new quality figure


def reference_min_shared(rounds, n_players):
    opponents = {p: set() for p in range(n_players)}
    for round_ in rounds:
        for table in round_:
            for a, b in itertools.permutations([p for p in table if p < n_players], 2):
                opponents[a].add(b)
    shared = [
        len(opponents[a] & opponents[b])
        for a, b in itertools.combinations(range(n_players), 2)
        if b not in opponents[a]
    ]
    return min(shared, default=None)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 6), st.integers(1, 5), st.integers(0, 3), st.integers(0, 10**6))
def test_min_shared_opponents_matches_a_plain_count(tables, n_rounds, substitutes, seed):
    n = 4 * tables
    rounds = random_rounds(random.Random(seed), list(range(n)), n_rounds)
    real = max(1, n - substitutes)
    schedule = Schedule(tuple(tuple(tuple(t) for t in r) for r in rounds))
    assert quality(schedule, real).min_shared_opponents == reference_min_shared(rounds, real)


def test_min_shared_opponents_of_known_designs():
    # Everyone meets everyone in AG(2, 4): nothing to compare.
    assert quality(generate(16, 5), 16).min_shared_opponents is None
    # Two tables each round, the same two tables twice: 0 and 4 never meet and share nobody.
    twice = Schedule((((0, 1, 2, 3), (4, 5, 6, 7)),) * 2)
    assert quality(twice, 8).min_shared_opponents == 0


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=1, max_size=15), st.integers(0, 20))
def test_pair_cost_floor_is_the_best_possible_sharing(counts, new):
    """Brute force over every way to share ``new`` meetings among the pairs agrees with water-filling."""
    # Lay the counts out as the pairs of the smallest matrix that holds them (the pairs left over have
    # met 0 times, in both computations).
    n = 2
    while n * (n - 1) // 2 < len(counts):
        n += 1
    pairs = list(itertools.combinations(range(n), 2))
    base = [[0] * n for _ in range(n)]
    values = counts + [0] * (len(pairs) - len(counts))
    for (a, b), c in zip(pairs, values, strict=True):
        base[a][b] = base[b][a] = c
    best = list(values)
    for _ in range(new):  # greedy on a convex cost is optimal: always raise a least-met pair
        i = min(range(len(best)), key=best.__getitem__)
        best[i] += 1
    assert pair_cost_floor(base, new) == sum(m * (m - 1) // 2 for m in best)
