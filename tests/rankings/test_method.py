"""The EMA ranking's method on worked examples (docs/rankings.md shows the same figures), and its
invariants. Every figure here was worked by hand from docs/rules.md §9.4."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from datetime import date
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rankings.method import (
    Result,
    age_factor,
    base_rank,
    history,
    part_a_size,
    rank,
    standings,
    tournament_weight,
)
from tournaments.ema import mers

TODAY = date(2026, 11, 27)
REPO = Path(__file__).resolve().parents[2]


def result(tournament: int, held_on: date, base: int, weight: float = 1.0) -> Result:
    return Result(tournament, held_on, base, weight)


def test_tied_players_share_the_better_place_and_its_base_rank():
    # A tournament of 4: standings 1, 2, 2, 4 (two tied for second). Both tied players get place 2's
    # base rank, 1000 × 2/3 = 666.7 → 667; the last gets 0; nobody gets place 3's 333.
    assert [base_rank(place, 4) for place in (1, 2, 2, 4)] == [1000, 667, 667, 0]


def test_base_rank_rounds_half_up():
    assert base_rank(16, 17) == 63  # 62.5 → 63 (round() would give 62)


@pytest.mark.parametrize(("place", "n"), [(0, 5), (6, 5), (1, 1)])
def test_impossible_places_are_refused(place, n):
    with pytest.raises(ValueError):
        base_rank(place, n)


def test_weights():
    assert tournament_weight(days=2, players=41, countries=6) == 3.0
    assert tournament_weight(days=3, players=81, countries=10, qualification=True) == 6.0
    assert tournament_weight(days=5, players=12, countries=1) == 3.0


def test_age_factor_at_the_anniversaries():
    held = date(2025, 11, 27)
    assert age_factor(held, date(2026, 11, 26)) == 1.0  # the day before the first anniversary
    assert age_factor(held, date(2026, 11, 27)) == 0.5  # one year old: half
    assert age_factor(held, date(2027, 11, 26)) == 0.5
    assert age_factor(held, date(2027, 11, 27)) == 0.0  # two years old: gone
    assert age_factor(held, date(2025, 11, 26)) == 0.0  # not held yet on that day
    # 29 February: its anniversary in a common year is 1 March.
    assert age_factor(date(2024, 2, 29), date(2025, 2, 28)) == 1.0
    assert age_factor(date(2024, 2, 29), date(2025, 3, 1)) == 0.5


def test_fewer_than_five_results_are_padded_with_zeros():
    # Two results this year, 800 (weight 1) and 600 (weight 2): padded with three results of 0, weight 1.
    # Part A (best 5): (800×1 + 600×2 + 0×3) / (1 + 2 + 3) = 2000 / 6 = 333.33
    # Part B (best 4): (800×1 + 600×2 + 0×2) / (1 + 2 + 2) = 2000 / 5 = 400
    # Ranking: (333.33 + 400) / 2 = 366.67
    ranking = rank([result(1, date(2026, 3, 1), 800), result(2, date(2026, 6, 1), 600, 2.0)], TODAY)
    assert ranking is not None
    assert ranking.results == 2 and ranking.part_a_results == 5
    assert ranking.part_a == pytest.approx(2000 / 6)
    assert ranking.part_b == pytest.approx(400)
    assert ranking.value == pytest.approx((2000 / 6 + 400) / 2)


def test_results_older_than_one_and_two_years():
    # 900 from 14 months ago (weight 2, halved to 1); 500 from this year (weight 1); 1000 from 25 months
    # ago (no longer counts). Part A: (900 + 500 + 0 × 3) / 5 = 280; Part B: (900 + 500 + 0 + 0) / 4 = 350.
    results = [
        result(1, date(2025, 9, 20), 900, 2.0),
        result(2, date(2026, 10, 1), 500),
        result(3, date(2024, 10, 20), 1000, 3.0),
    ]
    ranking = rank(results, TODAY)
    assert ranking is not None
    assert ranking.results == 2
    assert [(c.tournament, c.weight, c.age_factor) for c in ranking.counted[:2]] == [
        (1, 1.0, 0.5),
        (2, 1.0, 1.0),
    ]
    assert ranking.part_a == pytest.approx(280)
    assert ranking.part_b == pytest.approx(350)
    assert ranking.value == pytest.approx(315)
    # A year earlier the 1000 still counted at half its weight (1.5) and the 900 fully (2); the 500 had
    # not been played. Part A: (1000×1.5 + 900×2 + 0×3) / 6.5 = 507.69; Part B: (1500 + 1800) / 5.5 = 600.
    earlier = rank(results, date(2025, 11, 27))
    assert earlier is not None
    assert earlier.part_a == pytest.approx(3300 / 6.5)
    assert earlier.part_b == pytest.approx(3300 / 5.5)


def test_one_result_is_not_a_ranking():
    assert rank([result(1, date(2026, 1, 1), 1000)], TODAY) is None
    # Two results, of which one is three years old: one counts, not ranked.
    assert rank([result(1, date(2026, 1, 1), 1000), result(2, date(2023, 1, 1), 1000)], TODAY) is None


def test_part_a_takes_five_and_eighty_percent_of_the_rest():
    assert [part_a_size(n) for n in (1, 5, 6, 7, 10, 11, 20)] == [5, 5, 6, 7, 9, 10, 17]
    # Seven results of weight 1: Part A averages the best 5 + ceil(1.6) = 7 (all), Part B the best 4.
    bases = [1000, 900, 800, 700, 600, 500, 400]
    ranking = rank([result(i, date(2026, 5, 1), b) for i, b in enumerate(bases)], TODAY)
    assert ranking is not None
    assert ranking.part_a == pytest.approx(sum(bases) / 7)
    assert ranking.part_b == pytest.approx(850)


def test_standings_share_positions_on_equal_rankings():
    day = date(2026, 5, 1)
    records = {
        10: [result(1, day, 800), result(2, day, 800)],
        11: [result(1, day, 800), result(3, day, 800)],
        12: [result(1, day, 1000), result(2, day, 1000)],
        13: [result(1, day, 200)],  # one result: not ranked
    }
    assert [(pos, player) for pos, player, _ in standings(records, TODAY)] == [(1, 12), (2, 10), (2, 11)]


def test_history_follows_results_and_their_anniversaries():
    results = [result(1, date(2025, 3, 1), 1000), result(2, date(2025, 6, 1), 500)]
    points = dict(history(results, TODAY))
    assert date(2025, 3, 1) not in points  # one result: not ranked yet
    assert points[date(2025, 6, 1)] == pytest.approx(((1500 / 5) + (1500 / 4)) / 2)
    # On 1 March 2026 the 1000 halves: (500 + 500) / 4.5 and (500 + 500) / 3.5.
    assert points[date(2026, 3, 1)] == pytest.approx((1000 / 4.5 + 1000 / 3.5) / 2)
    assert points[TODAY] == points[date(2026, 6, 1)]


results_strategy = st.lists(
    st.builds(
        Result,
        tournament=st.integers(1, 50),
        held_on=st.dates(date(2023, 1, 1), TODAY),
        base_rank=st.integers(0, 1000),
        tournament_weight=st.sampled_from([1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0]),
    ),
    max_size=15,
)


@given(results_strategy)
def test_a_ranking_lies_between_zero_and_the_best_base_rank(results):
    ranking = rank(results, TODAY)
    if ranking is not None:
        best = max(c.base_rank for c in ranking.counted)
        assert 0 <= ranking.part_b <= best + 1e-9
        assert 0 <= ranking.part_a <= ranking.part_b + 1e-9  # Part A adds worse results to Part B's
        assert ranking.value == pytest.approx((ranking.part_a + ranking.part_b) / 2)


@given(results_strategy, st.integers(0, 1000))
def test_a_better_result_never_lowers_the_ranking(results, base):
    before = rank(results, TODAY)
    after = rank([*results, Result(99, TODAY, 1000, 1.0)], TODAY)
    if before is not None:
        assert after is not None and after.value >= before.value - 1e-9


def test_the_ranking_and_the_reports_preview_share_one_base_rank_and_weight():
    """One home for each formula: the ranking uses the report's, not a copy that could drift."""
    assert base_rank is mers.base_rank and tournament_weight is mers.tournament_weight


def test_the_method_imports_without_django():
    code = textwrap.dedent(
        """
        import sys
        sys.modules["django"] = None
        import rankings.method
        project = {"django", "league", "scoring", "tournaments"}
        pure = {"tournaments", "tournaments.ema", "tournaments.ema.mers"}  # the report's formulas, pure too
        loaded = [m for m, mod in sys.modules.items() if mod is not None and m not in pure]
        leaked = sorted(m for m in loaded if m.split(".")[0] in project)
        assert not leaked, leaked
        print("ok")
        """
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=False)
    assert done.stdout.strip() == "ok", done.stderr
