"""The cut between stages and the carry-over arithmetic (tournaments/cuts.py), without a database: worked
examples, then properties over random standings with ties, drop-outs and the organiser's decision."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments import cuts
from tournaments.cuts import Candidate


def standings(*keys: int) -> list[Candidate]:
    """Players 0, 1, 2, … in standings order with these tie-break keys (equal keys: a tie)."""
    return [Candidate(player=i, key=(k,)) for i, k in enumerate(keys)]


def test_a_clean_line_takes_the_best():
    found = cuts.cut(standings(1, 2, 3, 4, 5, 6), 4)
    assert found.through == [0, 1, 2, 3] and found.out == [4, 5] and found.decided


def test_a_tie_across_the_line_is_left_to_the_organiser():
    found = cuts.cut(standings(1, 2, 5, 5, 5, 6), 4)
    assert found.through == [0, 1] and found.tied == [2, 3, 4] and found.places == 2 and found.out == [5]
    assert not found.decided
    decided = cuts.cut(standings(1, 2, 5, 5, 5, 6), 4, decided=[4, 2])
    assert decided.through == [0, 1, 4, 2] and decided.out == [3, 5] and decided.decided
    assert decided.chosen == [4, 2]
    assert cuts.cut(standings(1, 2, 3, 4, 5), 4, decided=[4]).chosen == []  # no tie: nothing to decide


def test_a_tie_inside_the_line_is_no_matter():
    found = cuts.cut(standings(1, 1, 3, 4, 5), 4)
    assert found.through == [0, 1, 2, 3] and found.decided


def test_a_wrong_decision_is_refused():
    with pytest.raises(ValueError, match="choose 2"):
        cuts.cut(standings(1, 2, 5, 5, 5, 6), 4, decided=[2])
    with pytest.raises(ValueError, match="choose 2"):
        cuts.cut(standings(1, 2, 5, 5, 5, 6), 4, decided=[2, 5])


def test_a_drop_out_is_replaced_by_the_next_in_line():
    found = cuts.cut(standings(1, 2, 3, 4, 5, 6), 4, dropped=[1])
    assert found.through == [0, 2, 3, 4] and found.stepped_in == {4: 1} and found.dropped == [1]
    assert found.out == [5]


def test_a_drop_out_below_the_line_changes_nothing():
    found = cuts.cut(standings(1, 2, 3, 4, 5, 6), 4, dropped=[5])
    assert found.through == [0, 1, 2, 3] and found.stepped_in == {}


def test_carry_over_rules():
    assert cuts.carried(cuts.ALL, 12300, 3) == 12300
    assert cuts.carried(cuts.HALF, 12300, 3) == 6150
    assert cuts.carried(cuts.HALF, -12301, 3) == -6150
    assert cuts.carried(cuts.NONE, 12300, 3) == 0
    assert cuts.carried(cuts.BONUS, 12300, 2, [15000, 10000]) == 10000
    assert cuts.carried(cuts.BONUS, 12300, 3, [15000, 10000]) == 0
    with pytest.raises(ValueError):
        cuts.carried("most", 1, 1)


def test_bonus_parsing_names_the_bad_item():
    assert cuts.parse_bonus("15000, 10000,5000 ,") == [15000, 10000, 5000]
    with pytest.raises(ValueError, match="'ten'"):
        cuts.parse_bonus("15000, ten")


keys = st.lists(st.integers(min_value=0, max_value=6), min_size=0, max_size=24)


@st.composite
def cut_cases(draw):
    found = sorted(draw(keys))
    candidates = standings(*found)
    size = draw(st.integers(min_value=0, max_value=len(found) + 2))
    dropped = draw(st.sets(st.sampled_from(range(len(found))))) if found else set()
    return candidates, size, dropped


@given(cut_cases())
def test_the_cut_partitions_the_players_and_fills_exactly_the_places(case):
    candidates, size, dropped = case
    found = cuts.cut(candidates, size, dropped=dropped)
    everyone = [c.player for c in candidates]
    parts = found.through + found.tied + found.out + found.dropped
    assert sorted(parts) == sorted(everyone)  # each player in exactly one part
    staying = len(everyone) - len(dropped)
    assert len(found.through) + found.places == min(size, staying)
    assert 0 <= found.places <= len(found.tied)
    if found.tied:  # a real tie: more tied players than places, all with one key
        assert found.places < len(found.tied)
        assert len({c.key for c in candidates if c.player in found.tied}) == 1


@given(cut_cases())
def test_nobody_out_is_better_than_someone_through(case):
    candidates, size, dropped = case
    found = cuts.cut(candidates, size, dropped=dropped)
    key = {c.player: c.key for c in candidates}
    if found.through and found.out:
        assert max(key[p] for p in found.through) <= min(key[p] for p in found.out)
    for tied in found.tied:
        assert all(key[p] < key[tied] for p in found.through)
        assert all(key[p] > key[tied] for p in found.out)


@given(cut_cases(), st.randoms())
def test_any_valid_decision_resolves_the_tie(case, rng):
    candidates, size, dropped = case
    found = cuts.cut(candidates, size, dropped=dropped)
    chosen = rng.sample(found.tied, found.places)
    decided = cuts.cut(candidates, size, dropped=dropped, decided=chosen)
    assert decided.decided and decided.through == found.through + chosen
    assert len(decided.through) == min(size, len(candidates) - len(dropped))


@given(cut_cases())
def test_each_drop_out_above_the_line_is_replaced_once(case):
    candidates, size, dropped = case
    found = cuts.cut(candidates, size, dropped=dropped)
    assert len(set(found.stepped_in.values())) == len(found.stepped_in)
    assert set(found.stepped_in.values()) <= set(dropped)
    assert not set(found.stepped_in) & set(dropped)
    plain = cuts.cut(candidates, size)
    if not plain.tied and not found.tied:
        newcomers = set(found.through) - set(plain.through)
        assert set(found.stepped_in) == newcomers


points = st.integers(min_value=-500_000, max_value=500_000)


@given(points, st.integers(min_value=1, max_value=200))
def test_half_is_symmetric_and_never_more_than_half(p, place):
    half = cuts.carried(cuts.HALF, p, place)
    assert cuts.carried(cuts.HALF, -p, place) == -half
    assert abs(p) - 1 <= 2 * abs(half) <= abs(p)
    assert cuts.carried(cuts.ALL, p, place) == p and cuts.carried(cuts.NONE, p, place) == 0


@given(st.lists(points, max_size=10).map(lambda b: sorted(b, reverse=True)), points, st.integers(1, 20))
def test_bonus_depends_on_the_place_only_and_better_places_never_get_less(bonus, p, place):
    got = cuts.carried(cuts.BONUS, p, place, bonus)
    assert got == cuts.carried(cuts.BONUS, p + 1000, place, bonus)
    if place > 1 and place <= len(bonus):
        assert cuts.carried(cuts.BONUS, p, place - 1, bonus) >= got


@st.composite
def events(draw):
    """Each stage's standings (best first): the first stage's players, some unranked (listed last); each
    later stage a subset of the one before, with keys of its own."""
    n = draw(st.integers(min_value=0, max_value=20))
    players = list(range(n))
    stages = []
    for index in range(draw(st.integers(min_value=1, max_value=4))):
        if index:
            players = draw(st.lists(st.sampled_from(players), unique=True)) if players else []
        rows = [
            Candidate(p, (draw(st.integers(0, 4)),), ranked=index > 0 or draw(st.booleans())) for p in players
        ]
        stages.append(sorted(rows, key=lambda c: (not c.ranked, c.key)))
    return stages


@given(events())
def test_the_final_ranking_lists_everyone_once_at_the_last_stage_they_reached(stages):
    order = cuts.final_order(stages)
    assert sorted(p.player for p in order) == sorted(c.player for c in stages[0])
    for placed in order:
        reached = max(i for i, rows in enumerate(stages) if placed.player in {c.player for c in rows})
        assert placed.stage == reached


@given(events())
def test_the_final_ranking_puts_later_stages_first_and_ranks_never_go_down(stages):
    order = cuts.final_order(stages)
    ranked = [p for p in order if p.rank is not None]
    assert order[: len(ranked)] == ranked  # the unranked come last
    assert [p.stage for p in ranked] == sorted((p.stage for p in ranked), reverse=True)
    assert [p.rank for p in ranked] == sorted(p.rank for p in ranked)
    for position, placed in enumerate(ranked, start=1):
        assert placed.rank <= position  # shared ranks are the better one
        if position == 1 or ranked[position - 2].stage != placed.stage:
            assert placed.rank == position  # a group never shares a rank with the one before
    keys = {(i, c.player): c.key for i, rows in enumerate(stages) for c in rows}
    for a, b in zip(ranked, ranked[1:], strict=False):
        if a.stage == b.stage:
            assert keys[a.stage, a.player] <= keys[b.stage, b.player]
            assert (a.rank == b.rank) == (keys[a.stage, a.player] == keys[b.stage, b.player])
