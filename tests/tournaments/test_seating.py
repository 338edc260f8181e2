"""Tournament seating (``tournaments.seating``): no repeated opponents, balanced winds, swaps, Swiss rounds.

The module is pure Python; these tests need no database. Quality is checked against a small reference
implementation written here independently, so a bug in ``quality`` cannot hide a bug in ``generate``.
"""

from __future__ import annotations

import itertools
import random
import time
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.seating import (
    Quality,
    Schedule,
    balance_winds,
    generate,
    padded_count,
    pair_cost_lower_bound,
    quality,
    repeated_pairs_lower_bound,
    swap,
    swiss_round,
)

TIME_LIMIT = 10.0  # seconds per schedule on a 2-core machine; the goal sizes take milliseconds


def assert_valid(schedule: Schedule, n_players: int, n_rounds: int) -> None:
    """Every round seats every player exactly once, at tables of four."""
    assert len(schedule.rounds) == n_rounds
    for round_ in schedule.rounds:
        assert len(round_) == n_players // 4
        assert all(len(table) == 4 for table in round_)
        assert sorted(p for table in round_ for p in table) == list(range(n_players))


def reference_quality(schedule: Schedule, n_players: int) -> tuple[int, int, list[list[int]]]:
    """(repeated pairs, most meetings, wind counts) counted the obvious way, for real players only."""
    met: Counter[frozenset[int]] = Counter()
    winds = [[0] * 4 for _ in range(n_players)]
    for round_ in schedule.rounds:
        for table in round_:
            for seat, p in enumerate(table):
                if p < n_players:
                    winds[p][seat] += 1
            for a, b in itertools.combinations(table, 2):
                if a < n_players and b < n_players:
                    met[frozenset((a, b))] += 1
    return sum(t - 1 for t in met.values()), max(met.values(), default=0), winds


def assert_winds_balanced(q: Quality, n_rounds: int) -> None:
    low, high = n_rounds // 4, -(-n_rounds // 4)
    assert all(low <= c <= high for counts in q.wind_counts for c in counts)
    assert q.wind_imbalance == 0
    assert q.perfect_winds


# ---------------------------------------------------------------------------------------------- goals


@pytest.mark.parametrize("n_players", [32, 48, 64])
def test_goal_sizes_have_no_repeats_and_every_wind_twice(n_players):
    start = time.perf_counter()
    schedule = generate(n_players, 8, seed=1)
    seconds = time.perf_counter() - start

    assert seconds < TIME_LIMIT
    assert_valid(schedule, n_players, 8)
    q = quality(schedule, n_players)
    assert q.repeated_pairs == 0
    assert q.max_meetings == 1
    assert all(counts == (2, 2, 2, 2) for counts in q.wind_counts)
    assert q.wind_imbalance == 0 and q.perfect_winds
    repeats, most, winds = reference_quality(schedule, n_players)
    assert (repeats, most) == (0, 1)
    assert all(w == [2, 2, 2, 2] for w in winds)


@pytest.mark.parametrize("seed", [2, 3, 4])
@pytest.mark.parametrize("n_players", [32, 48, 64])
def test_goal_sizes_hold_for_other_seeds(n_players, seed):
    q = quality(generate(n_players, 8, seed=seed), n_players)
    assert (q.repeated_pairs, q.wind_imbalance) == (0, 0)


def test_sixteen_players_five_rounds_is_the_affine_plane():
    """AG(2, 4): 5 rounds in which all 120 pairs meet exactly once."""
    schedule = generate(16, 5)
    repeats, most, _ = reference_quality(schedule, 16)
    assert (repeats, most) == (0, 1)
    met = {
        frozenset(pair)
        for round_ in schedule.rounds
        for table in round_
        for pair in itertools.combinations(table, 2)
    }
    assert len(met) == 16 * 15 // 2


@pytest.mark.parametrize("n_rounds", [6, 7, 8, 9, 10])
def test_sixteen_players_spread_unavoidable_repeats_evenly(n_rounds):
    """Past 5 rounds repeats are forced (16 x 8: 3 opponents a round make 24 > 15 possible ones); none
    meets a third time before every pair has met twice."""
    q = quality(generate(16, n_rounds), 16)
    assert q.repeated_pairs == repeated_pairs_lower_bound(16, n_rounds) == (n_rounds - 5) * 24
    assert q.max_meetings == 2
    assert_winds_balanced(q, n_rounds)


# Repeated pairs found for the small and odd sizes. Equal to the counting lower bound
# (repeated_pairs_lower_bound) except where marked; those sizes are tight social-golfer instances
# (20 x 6 would need every player to meet 18 of 19 others with no repeat) and the values guard against
# regressions of the search.
EDGE_REPEATS = {
    (8, 6): 44,
    (8, 7): 56,
    (8, 8): 68,
    (8, 9): 80,
    (8, 10): 92,
    (12, 6): 43,  # bound 42
    (12, 7): 60,
    (12, 8): 78,
    (12, 9): 96,
    (12, 10): 114,
    (20, 6): 6,  # bound 0
    (20, 7): 20,
    (20, 8): 50,
    (20, 9): 80,
    (20, 10): 110,
    (36, 6): 0,
    (36, 7): 0,
    (36, 8): 0,
    (36, 9): 0,
    (36, 10): 6,  # bound 0
    (40, 6): 0,
    (40, 7): 0,
    (40, 8): 0,
    (40, 9): 0,
    (40, 10): 1,  # bound 0
}


@pytest.mark.parametrize(("n_players", "n_rounds"), sorted(EDGE_REPEATS))
def test_edge_sizes_are_valid_with_few_repeats_and_balanced_winds(n_players, n_rounds):
    schedule = generate(n_players, n_rounds, seed=1)
    assert_valid(schedule, n_players, n_rounds)
    q = quality(schedule, n_players)
    assert (
        repeated_pairs_lower_bound(n_players, n_rounds)
        <= q.repeated_pairs
        <= EDGE_REPEATS[n_players, n_rounds]
    )
    assert_winds_balanced(q, n_rounds)
    repeats, most, winds = reference_quality(schedule, n_players)
    assert (repeats, most) == (q.repeated_pairs, q.max_meetings)
    assert [list(c) for c in q.wind_counts] == winds


@pytest.mark.parametrize(
    ("n_players", "n_rounds"),
    [(20, 5), (24, 5), (28, 7), (32, 9), (44, 10), (48, 10), (52, 13), (64, 21), (100, 10)],
)
def test_constructions_give_perfect_rounds(n_players, n_rounds):
    """Transversal designs over GF(q) (20, 100), over Z_q by search (48), AG(3, 4) (64), cyclic starters
    (24, 28, 44, 52): whichever gives the most rounds; 32 x 9 is TD(4, 8)'s eight rounds plus search."""
    q = quality(generate(n_players, n_rounds), n_players)
    assert (q.repeated_pairs, q.max_meetings, q.wind_imbalance) == (0, 1, 0)


def test_past_every_construction_the_search_starts_from_each_and_keeps_the_best(monkeypatch):
    """68 players: a starter gives 21 rounds, TD(4, 17) 17 of another shape; for 22 rounds both are
    searched from, and the schedule is the better of the two — better here than the starter alone."""
    from tournaments.seating import generator
    from tournaments.seating.search import meeting_matrix, pair_cost

    found = generator.constructions(68, 22, random.Random(1))
    assert [(len(rounds), complete) for rounds, complete in found] == [(21, False), (17, False)]
    both = generate(68, 22, seed=3)
    monkeypatch.setattr(generator, "transversal_rounds", lambda q, wanted, rng: [])
    starter_only = generate(68, 22, seed=3)
    assert pair_cost(meeting_matrix(68, both.rounds)) < pair_cost(meeting_matrix(68, starter_only.rounds))
    assert quality(both, 68).wind_imbalance == quality(starter_only, 68).wind_imbalance == 0


def test_search_budget_only_trades_quality_for_time():
    """With no search at all the schedule is still valid with exact winds (construction + greedy)."""
    schedule = generate(24, 8, time_budget_iterations=0)
    assert_valid(schedule, 24, 8)
    assert quality(schedule, 24).wind_imbalance == 0
    assert quality(generate(24, 8), 24).repeated_pairs <= quality(schedule, 24).repeated_pairs


def test_pair_cost_lower_bound():
    assert pair_cost_lower_bound(32, 8) == 0
    assert pair_cost_lower_bound(16, 8) == 72  # 192 meetings over 120 pairs: 72 pairs twice
    assert pair_cost_lower_bound(8, 10) == 200  # 120 meetings over 28 pairs: 8 five times, 20 four times
    assert repeated_pairs_lower_bound(16, 8) == 72
    assert repeated_pairs_lower_bound(48, 8) == 0


# ----------------------------------------------------------------------------------- determinism


@pytest.mark.parametrize(("n_players", "n_rounds"), [(32, 8), (12, 6), (40, 10)])
def test_same_seed_same_schedule(n_players, n_rounds):
    assert generate(n_players, n_rounds, seed=7) == generate(n_players, n_rounds, seed=7)


def test_every_round_is_a_seeded_draw_with_tables_listed_by_lowest_player():
    """Indices may come in any order (say alphabetical): even round 1 does not seat 0, 1, 2, 3 together."""
    first_rounds = {generate(32, 8, seed=seed).rounds[0] for seed in (1, 2, 3)}
    assert len(first_rounds) == 3
    assert tuple(range(4)) not in {table for round_ in first_rounds for table in round_}
    for round_ in generate(32, 8).rounds:
        assert [min(t) for t in round_] == sorted(min(t) for t in round_)


def test_different_seeds_usually_differ():
    assert len({generate(32, 8, seed=seed) for seed in range(1, 6)}) == 5
    assert len({generate(12, 6, seed=seed) for seed in range(1, 6)}) >= 4


def test_generate_does_not_touch_global_random():
    random.seed(123)
    expected = random.random()
    random.seed(123)
    generate(20, 6)
    assert random.random() == expected


# ----------------------------------------------------------------------------- sizes and padding


@pytest.mark.parametrize("n_players", [30, 31, 33, 2, 0, -4])
def test_generate_requires_a_multiple_of_four(n_players):
    with pytest.raises(ValueError, match="tables of 4"):
        generate(n_players, 8)


def test_error_message_says_how_to_pad():
    with pytest.raises(ValueError, match=r"padded_count\(30\) = 32"):
        generate(30, 8)


def test_generate_rejects_no_rounds():
    with pytest.raises(ValueError, match="round"):
        generate(32, 0)


def test_padded_count():
    assert [padded_count(n) for n in (1, 4, 5, 29, 30, 31, 32, 33)] == [4, 4, 8, 32, 32, 32, 32, 36]
    with pytest.raises(ValueError):
        padded_count(0)


def test_substitute_seats_are_the_highest_indices_and_ignored_by_quality():
    schedule = generate(padded_count(30), 8)  # players 0..29, substitute seats 30 and 31
    q = quality(schedule, 30)
    assert len(q.wind_counts) == 30
    assert (q.repeated_pairs, q.wind_imbalance) == (0, 0)
    substitutes = {30, 31}
    assert all(any(p in substitutes for table in round_ for p in table) for round_ in schedule.rounds)


# ---------------------------------------------------------------------------------------- quality


def test_quality_of_a_hand_made_schedule():
    schedule = Schedule(
        (
            ((0, 1, 2, 3), (4, 5, 6, 7)),
            ((0, 1, 4, 5), (2, 3, 6, 7)),
        )
    )
    q = quality(schedule, 8)
    # (0,1), (2,3), (4,5) and (6,7) met twice.
    assert (q.repeated_pairs, q.max_meetings) == (4, 2)
    assert q.wind_counts[0] == (2, 0, 0, 0)  # East twice in two rounds: ceil(2/4) = 1 exceeded by one
    assert q.wind_counts[2] == (1, 0, 1, 0)
    # Players 0 (E, E), 1 (S, S), 6 (W, W) and 7 (N, N) each sit one wind once too often.
    assert q.wind_imbalance == 4
    assert not q.perfect_winds
    # Without players 6 and 7 (substitute seats): (6,7) no longer counts, nor do their winds.
    q6 = quality(schedule, 6)
    assert (q6.repeated_pairs, q6.wind_imbalance, len(q6.wind_counts)) == (3, 2, 6)


def test_quality_measures_distance_from_the_exact_share_when_rounds_divide_by_four():
    schedule = Schedule(tuple((tuple(range(4)),) for _ in range(4)))  # same seats 4 rounds running
    q = quality(schedule, 4)
    assert q.wind_counts == ((4, 0, 0, 0), (0, 4, 0, 0), (0, 0, 4, 0), (0, 0, 0, 4))
    assert q.wind_imbalance == 4 * (3 + 1 + 1 + 1)  # |4 - 1| + 3 * |0 - 1| per player
    assert (q.repeated_pairs, q.max_meetings) == (18, 4)


# ------------------------------------------------------------------------------------------- swap


def test_swap_between_tables_moves_players_and_updates_quality():
    schedule = generate(32, 8)
    first, second = schedule.rounds[0][0], schedule.rounds[0][1]
    a, b = first[0], second[1]  # a sits East at the first table, b South at the second
    swapped = swap(schedule, 0, a, b)

    assert swapped.rounds[0][0] == (b, *first[1:])
    assert swapped.rounds[0][1] == (second[0], a, *second[2:])
    assert swapped.rounds[0][2:] == schedule.rounds[0][2:]
    assert swapped.rounds[1:] == schedule.rounds[1:]
    assert schedule.rounds[0][0] == first  # the original is untouched
    assert_valid(swapped, 32, 8)

    q = quality(swapped, 32)
    repeats, most, winds = reference_quality(swapped, 32)
    assert (q.repeated_pairs, q.max_meetings) == (repeats, most)
    assert [list(c) for c in q.wind_counts] == winds
    # a traded an East for a South and b the reverse: both now sit those winds 1 and 3 times.
    assert q.wind_counts[a] == (1, 3, 2, 2)
    assert q.wind_counts[b] == (3, 1, 2, 2)
    assert q.wind_imbalance == 4 and not q.perfect_winds
    # New repeats: b now meets a's old table-mates again, and a b's, wherever they met in rounds 2-8.
    later = {frozenset(p) for r in schedule.rounds[1:] for t in r for p in itertools.combinations(t, 2)}
    new_pairs = [(b, x) for x in first[1:]] + [(a, y) for y in second if y != b]
    assert q.repeated_pairs == sum(frozenset(p) in later for p in new_pairs)


def test_swap_within_a_table_only_exchanges_winds():
    schedule = generate(32, 8)
    swapped = swap(schedule, 3, *schedule.rounds[3][2][:2])
    before, after = quality(schedule, 32), quality(swapped, 32)
    assert after.repeated_pairs == before.repeated_pairs == 0
    assert after.wind_imbalance == 4
    assert swap(swapped, 3, *schedule.rounds[3][2][:2]) == schedule  # swapping back restores it


def test_swap_rejects_bad_requests():
    schedule = generate(8, 6)
    with pytest.raises(ValueError, match="round"):
        swap(schedule, 6, 0, 1)
    with pytest.raises(ValueError, match="themselves"):
        swap(schedule, 0, 3, 3)
    with pytest.raises(ValueError, match="does not play"):
        swap(schedule, 0, 0, 99)


# ------------------------------------------------------------------------------------------ winds


def test_balance_winds_keeps_tables_and_already_balanced_seats():
    schedule = generate(32, 8)
    assert balance_winds(schedule.rounds) == schedule.rounds


def test_balance_winds_repairs_a_swap():
    schedule = swap(generate(48, 8), 2, 0, 1)
    repaired = Schedule(balance_winds(schedule.rounds))
    q = quality(repaired, 48)
    assert q.wind_imbalance == 0
    for before, after in zip(schedule.rounds, repaired.rounds, strict=True):
        assert [set(t) for t in before] == [set(t) for t in after]


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    n_tables=st.integers(1, 6),
    n_rounds=st.integers(1, 12),
    absent=st.integers(0, 3),
    seed=st.integers(0, 2**32),
)
def test_balance_winds_is_exact_for_any_seating(n_tables, n_rounds, absent, seed):
    """König: whatever the tables, even with players missing rounds, everyone gets floor/ceil of k/4."""
    rng = random.Random(seed)
    pool = list(range(4 * n_tables + absent))  # some players sit out some rounds
    rounds = []
    for _ in range(n_rounds):
        rng.shuffle(pool)
        rounds.append(tuple(tuple(pool[i : i + 4]) for i in range(0, 4 * n_tables, 4)))
    balanced = balance_winds(rounds)

    for before, after in zip(rounds, balanced, strict=True):
        assert [sorted(t) for t in before] == [sorted(t) for t in after]
    q = quality(Schedule(balanced), len(pool))
    assert q.wind_imbalance == 0
    # Stronger: each block of four of a player's rounds has four different winds.
    seats: dict[int, list[int]] = {}
    for round_ in balanced:
        for table in round_:
            for seat, p in enumerate(table):
                seats.setdefault(p, []).append(seat)
    for winds in seats.values():
        for block in range(0, len(winds), 4):
            assert len(set(winds[block : block + 4])) == len(winds[block : block + 4])


def test_balance_winds_rejects_invalid_rounds():
    with pytest.raises(ValueError, match="twice"):
        balance_winds([((0, 1, 2, 3), (3, 4, 5, 6))])
    with pytest.raises(ValueError, match="seats"):
        balance_winds([((0, 1, 2),)])


# ------------------------------------------------------------------------------------------ swiss


def test_swiss_first_round_seats_by_standings():
    order = [7, 3, 12, 0, 5, 9, 1, 14, 2, 4, 6, 8, 10, 11, 13, 15]
    tables = swiss_round(order, None, seed=1)
    assert [set(t) for t in tables] == [set(order[i : i + 4]) for i in range(0, 16, 4)]


def test_swiss_splits_repeats_with_small_swaps_between_neighbouring_tables():
    previous = Schedule((((0, 1, 8, 9), (2, 3, 10, 11), (4, 5, 12, 13), (6, 7, 14, 15)),))
    order = list(range(16))
    tables = swiss_round(order, previous, seed=1)

    naive = Schedule(previous.rounds + (tuple(tuple(order[i : i + 4]) for i in range(0, 16, 4)),))
    result = Schedule(previous.rounds + (tables,))
    assert quality(naive, 16).repeated_pairs == 8
    assert quality(result, 16).repeated_pairs == 0
    assert sorted(p for t in tables for p in t) == order
    for t, table in enumerate(tables):
        assert all(abs(p // 4 - t) <= 1 for p in table)  # nobody more than one table from their place
    assert 0 in tables[0]  # the leader stays at the top table


def test_swiss_leaves_tables_alone_when_no_swap_helps():
    previous = Schedule((((0, 1, 2, 3),),))
    assert sorted(swiss_round([0, 1, 2, 3], previous, seed=1)[0]) == [0, 1, 2, 3]
    # Everyone has met nobody: tables stay exactly the standings groups.
    order = list(range(8))
    previous = Schedule((((0, 4, 8, 9), (1, 5, 10, 11)),))  # only cross-group pairs met
    assert [sorted(t) for t in swiss_round(order, previous, seed=1)] == [[0, 1, 2, 3], [4, 5, 6, 7]]


def test_swiss_gives_each_player_the_wind_they_lack():
    # Player 0 sat E, N, W (lacks S); 1 sat S, E, N (lacks W); 2 lacks N; 3 lacks E.
    previous = Schedule((((0, 1, 2, 3),), ((1, 2, 3, 0),), ((2, 3, 0, 1),)))
    assert swiss_round([0, 1, 2, 3], previous, seed=1) == ((3, 0, 1, 2),)


def test_swiss_event_keeps_repeats_and_winds_in_check():
    """A 32-player, 8-round Swiss event with strength-driven standings, against plain standings tables."""
    rng = random.Random(5)
    strength = [rng.random() for _ in range(32)]
    score = [0.0] * 32
    rounds: list[tuple[tuple[int, int, int, int], ...]] = []
    naive_rounds = []
    for r in range(8):
        order = sorted(range(32), key=lambda p: -score[p]) if r else rng.sample(range(32), 32)
        naive_rounds.append(tuple(tuple(order[i : i + 4]) for i in range(0, 32, 4)))
        tables = swiss_round(order, Schedule(tuple(rounds)) if rounds else None, seed=5)
        assert sorted(p for t in tables for p in t) == list(range(32))
        assert tables == swiss_round(order, Schedule(tuple(rounds)) if rounds else None, seed=5)
        rounds.append(tables)
        for table in tables:
            for p in table:
                score[p] += strength[p] + rng.gauss(0, 1)
    q = quality(Schedule(tuple(rounds)), 32)
    naive = quality(Schedule(tuple(naive_rounds)), 32)
    assert q.repeated_pairs < naive.repeated_pairs
    assert all(1 <= c <= 3 for counts in q.wind_counts for c in counts)  # within one of R/4 = 2


@pytest.mark.parametrize("order", [[0, 1, 2], [0, 1, 2, 2], []])
def test_swiss_rejects_bad_standings(order):
    with pytest.raises(ValueError):
        swiss_round(order, None, seed=1)
