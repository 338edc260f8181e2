"""Rounds fixed by a group of translations (``tournaments.seating.orbits``): 32 players over 10 rounds.

Each recorded family is developed and checked the plain way (every round a partition into tables of
four, no pair twice, partners never met), then ``generate`` is checked to reach it.
"""

from __future__ import annotations

import itertools

import pytest

from tournaments.seating import generate, max_rounds_without_repeats, quality
from tournaments.seating.orbits import FAMILIES, Family, develop, is_family, parse, translate, write


@pytest.mark.parametrize("n_players", sorted(FAMILIES))
def test_every_recorded_family_develops_into_rounds_without_repeats(n_players):
    family = FAMILIES[n_players]
    rounds = develop(family)
    assert family.n_players == n_players
    assert len(rounds) == family.n_rounds == max_rounds_without_repeats(n_players)
    for round_ in rounds:
        assert sorted(p for table in round_ for p in table) == list(range(n_players))
        assert all(len(table) == 4 for table in round_)
    met = [pair for round_ in rounds for table in round_ for pair in itertools.combinations(table, 2)]
    assert len(met) == len(set(met))
    assert is_family(family)


def test_32_players_meet_everyone_but_their_partner():
    """A resolvable 4-GDD of type 2^16: the 16 pairs g, g XOR 4 of a level never meet, all others once."""
    rounds = develop(FAMILIES[32])
    met = {pair for round_ in rounds for table in round_ for pair in itertools.combinations(table, 2)}
    unmet = {(p, q) for p, q in itertools.combinations(range(32), 2) if (p, q) not in met}
    assert unmet == {(p, translate(p, 4, 3)) for p in range(32) if p & 4 == 0}


def test_every_round_is_fixed_by_the_group():
    family = FAMILIES[32]
    for round_ in develop(family):
        tables = {frozenset(t) for t in round_}
        for h in range(8):
            assert {frozenset(translate(p, h, 3) for p in t) for t in tables} == tables


def test_generate_reaches_10_rounds_for_32_players_balanced_and_seeded():
    a, b = generate(32, 10, seed=1), generate(32, 10, seed=2)
    assert a != b
    for schedule in (a, b):
        q = quality(schedule, 32)
        assert (q.repeated_pairs, q.max_meetings, q.wind_imbalance) == (0, 1, 0)
        assert q.min_shared_opponents is not None and q.min_shared_opponents > 0
    # Past the maximum the search spreads the repeats: round 11 repeats, but no pair meets three times.
    q = quality(generate(32, 11, seed=1), 32)
    assert q.repeated_pairs > 0 and q.max_meetings == 2


def test_a_family_breaking_the_rule_is_refused():
    good = FAMILIES[32]
    rounds = [list(map(list, base)) for base in good.rounds]
    rounds[2][0][1], rounds[3][0][1] = rounds[3][0][1], rounds[2][0][1]  # two base tables trade a player
    bad = Family(good.bits, good.levels, tuple(tuple(map(tuple, base)) for base in rounds))
    assert not is_family(bad)
    # A base table whose translates overlap: 0a 1a 2a 4a and its XOR by 1 share 0a and 1a.
    assert not is_family(parse(3, "0a 1a 2a 4a"))
    assert is_family(parse(3, "0a 4a 1b 5b"))  # the same shape without overlap is one good round
    # Two rounds that repeat a pair.
    assert not is_family(parse(2, "0a 1a 2a 3a ; 0a 1a 2a 3a"))


def test_written_form_round_trips_and_names_a_bad_point():
    assert parse(3, write(FAMILIES[32])) == FAMILIES[32]
    assert parse(2, "0a 1a 2a 3a ; 0a 1a 2a 3a").n_players == 4
    with pytest.raises(ValueError, match="cannot read point '8a'"):
        parse(3, "0a 1a 2a 8a")
    with pytest.raises(ValueError, match="cannot read point"):
        parse(3, "0a 1a 2a 3z")
