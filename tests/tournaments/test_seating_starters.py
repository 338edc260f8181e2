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


def test_the_88_player_starter_is_the_radical_difference_family_of_its_docstring():
    """Z_87 = Z_3 × Z_29 (by the Chinese remainder theorem); the base tables are B, μB, …, μ^6 B with
    μ = 16 (order 7 mod 29) acting on the Z_29 part, each with its shifts by 29 and 58."""
    q, mu, base = 29, 16, [(0, 1), (1, 2), (1, 9), (0, 27)]
    assert pow(mu, 7, q) == 1 and all(pow(mu, e, q) != 1 for e in range(1, 7))

    def point(a: int, b: int) -> int:
        return next(x for x in range(3 * q) if x % 3 == a and x % q == b)

    tables = {frozenset({0, q, 2 * q, 3 * q})}  # X0 (code 87) with the subgroup of order 3
    for i in range(7):
        block = [point(a, b * pow(mu, i, q) % q) for a, b in base]
        tables |= {frozenset((x + h) % (3 * q) for x in block) for h in (0, q, 2 * q)}
    starter = STARTERS[88]
    assert (starter.m, starter.n_rounds) == (87, 29)
    assert set(map(frozenset, starter.tables)) == tables


def _mapped(starter: Starter, level_map, fixed_map) -> set[frozenset[int]]:
    """The base class's tables moved by ``x_l -> level_map(l, x)``, ``X_i -> X_fixed_map(i)``."""
    m, finite = starter.m, starter.levels * starter.m

    def move(p: int) -> int:
        if p >= finite:
            return finite + fixed_map(p - finite)
        level, x = level_map(p // m, p % m)
        return level * m + x % m

    return {frozenset(map(move, table)) for table in starter.tables}


@pytest.mark.parametrize("n_players", [48, 60, 72, 76, 84, 96, 100])
def test_tau_symmetric_starters_are_mapped_onto_themselves_by_tau(n_players):
    starter = STARTERS[n_players]
    tau = _mapped(starter, lambda level, x: ((level + 1) % 3, x), lambda i: (i + 1) % starter.fixed)
    assert tau == set(map(frozenset, starter.tables))


@pytest.mark.parametrize(("n_players", "u"), [(44, 9), (56, 7), (80, 3)])
def test_sigma_symmetric_starters_are_mapped_onto_themselves_by_sigma(n_players, u):
    starter = STARTERS[n_players]
    assert (starter.levels, starter.fixed, starter.m) == (3, 2, (n_players - 2) // 3)
    assert pow(u, 3, starter.m) == 1
    sigma = _mapped(starter, lambda level, x: ((level + 1) % 3, u * x), lambda i: i)
    assert sigma == set(map(frozenset, starter.tables))
