"""Cyclic starters (``tournaments.seating.starters``) and the zero-repeat maximum they reach.

Each recorded starter is developed by the rule in the module docstring and checked here the obvious way
(every round a partition into tables of four, no pair twice), independently of ``is_starter``'s
difference bookkeeping; ``generate`` is then checked to use them at every size's maximum.
"""

from __future__ import annotations

import itertools
import time

import pytest

from tournaments.seating import generate, max_rounds_without_repeats, quality
from tournaments.seating.starters import STARTERS, Starter, develop, find_starter, is_starter, parse, write

TIME_LIMIT = 10.0  # seconds per schedule on a 2-core machine


def pairs_met(rounds) -> list[tuple[int, int]]:
    return [
        tuple(sorted(pair))
        for round_ in rounds
        for table in round_
        for pair in itertools.combinations(table, 2)
    ]


@pytest.mark.parametrize("n_players", sorted(STARTERS))
def test_every_recorded_starter_develops_into_rounds_without_repeats(n_players):
    starter = STARTERS[n_players]
    rounds = develop(starter)
    assert starter.n_players == n_players
    assert len(rounds) == starter.n_rounds <= max_rounds_without_repeats(n_players)
    for round_ in rounds:
        assert sorted(p for table in round_ for p in table) == list(range(n_players))
        assert all(len(table) == 4 for table in round_)
    met = pairs_met(rounds)
    assert len(met) == len(set(met))
    assert is_starter(starter)


@pytest.mark.parametrize("n_players", sorted(STARTERS))
def test_generate_reaches_the_starters_rounds_with_every_wind_balanced(n_players):
    rounds = STARTERS[n_players].n_rounds
    start = time.perf_counter()
    schedule = generate(n_players, rounds, seed=5)
    assert time.perf_counter() - start < TIME_LIMIT
    q = quality(schedule, n_players)
    assert (q.repeated_pairs, q.max_meetings, q.wind_imbalance) == (0, 1, 0)
    # n = 4 mod 12 is a resolvable BIBD: everybody meets everybody, so no pair is left unmet.
    if n_players % 12 == 4:
        assert q.min_shared_opponents is None
    else:
        assert q.min_shared_opponents is not None and q.min_shared_opponents > 0


def test_fewer_rounds_than_the_maximum_are_a_seeded_choice_of_the_rounds():
    a, b = generate(36, 6, seed=1), generate(36, 6, seed=2)
    assert a != b
    for schedule in (a, b):
        q = quality(schedule, 36)
        assert (q.repeated_pairs, q.wind_imbalance) == (0, 0)


def test_a_complete_design_is_repeated_in_turn_past_its_rounds():
    """28 players meet everyone in 9 rounds; round 10 and on, no pair meets a third time before all
    have met twice — the counting lower bound."""
    q = quality(generate(28, 12), 28)
    assert q.repeated_pairs == 3 * 28 * 3 // 2  # every meeting of rounds 10-12 is a second one
    assert q.max_meetings == 2


def test_a_starter_breaking_the_rule_is_refused():
    good = STARTERS[24]
    assert is_starter(good)
    tables = [list(t) for t in good.tables]
    tables[3][0], tables[4][0] = tables[4][0], tables[3][0]  # two tables exchange a player
    assert not is_starter(Starter(good.m, good.levels, good.fixed, tuple(map(tuple, tables))))
    # Two fixed points at one table would meet every round.
    assert not is_starter(parse(3, "X0 X1 0a 1a | 2a 0b 1b 2b"))


def test_written_form_round_trips():
    for n, starter in STARTERS.items():
        again = parse(starter.m, write(starter))
        assert sorted(map(sorted, again.tables)) == sorted(map(sorted, starter.tables)), n
    assert parse(5, "X0 0a 0b 0c | 1a 4a 2b 3c").tables[1] == (1, 4, 7, 13)
    with pytest.raises(ValueError, match="cannot read point"):
        parse(5, "X0 0a 0b 0z")


@pytest.mark.parametrize(("m", "fixed", "seed"), [(5, 1, 1), (7, 3, 1), (7, 3, 2)])
def test_the_finder_finds_small_starters_deterministically(m, fixed, seed):
    found = find_starter(m, 3, fixed, seed=seed)
    assert found is not None and is_starter(found)
    assert found == find_starter(m, 3, fixed, seed=seed)
    met = pairs_met(develop(found))
    assert len(met) == len(set(met))


def test_the_finder_gives_up_within_its_steps_and_rejects_impossible_shapes():
    # 20 players over 6 rounds (two fixed points, Z_6) has no starter: no resolvable 4-GDD of type 2^10.
    assert find_starter(6, 3, 2, steps=200) is None
    with pytest.raises(ValueError, match="tables of 4"):
        find_starter(5, 3, 2)


def test_max_rounds_without_repeats():
    assert [max_rounds_without_repeats(n) for n in (4, 8, 12, 16, 20, 24, 28, 32, 100)] == [
        1,
        1,
        1,
        5,
        5,
        7,
        9,
        10,
        33,
    ]
