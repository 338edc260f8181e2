"""MERS preview figures, worked by hand from docs/rules.md §9.4."""

import pytest

from tournaments.ema.mers import Result, age_factor, base_rank, ranking, tournament_weight


@pytest.mark.parametrize(
    ("place", "n", "rank"),
    [
        (1, 40, 1000),
        (40, 40, 0),
        (2, 40, 974),
        (20, 40, 513),
        (3, 5, 500),
        (2, 3, 500),
        (2, 9, 875),
        (2, 7, 833),
        (3, 9, 750),
    ],
)
def test_base_rank(place, n, rank):
    # 2 of 40: 1000 × 38/39 = 974.36 → 974; 20 of 40: 1000 × 20/39 = 512.8 → 513; 2 of 7: 833.3 → 833
    assert base_rank(place, n) == rank


def test_base_rank_rounds_half_up():
    # 1000 × (N − place) / (N − 1) = 62.5 for place 16 of 17 → 63 (Python's round would give 62)
    assert base_rank(16, 17) == 63


def test_base_rank_rejects_impossible_places():
    with pytest.raises(ValueError):
        base_rank(0, 10)
    with pytest.raises(ValueError):
        base_rank(11, 10)
    with pytest.raises(ValueError):
        base_rank(1, 1)


@pytest.mark.parametrize(
    ("days", "players", "countries", "qualification", "weight"),
    [
        (1, 40, 5, False, 1.0),
        (2, 41, 6, False, 3.0),
        (2, 80, 9, False, 3.0),
        (3, 81, 10, True, 6.0),
        (4, 20, 1, False, 3.0),
        (1, 100, 2, False, 2.0),
    ],
)
def test_tournament_weight(days, players, countries, qualification, weight):
    assert (
        tournament_weight(days=days, players=players, countries=countries, qualification=qualification)
        == weight
    )


def test_age_factor():
    assert [age_factor(y) for y in (0, 1, 2, 5)] == [1.0, 0.5, 0.0, 0.0]


def test_ranking_needs_two_results():
    assert ranking([Result(900, 1.0)]) is None


def test_ranking_pads_to_five_with_zero_results():
    # Two results 1000 and 500 (weight 1) padded with three zeros of weight 1:
    # Part A = best 5 = (1000 + 500) / 5 = 300; Part B = best 4 = 1500 / 4 = 375; ranking 337.5
    assert ranking([Result(1000, 1.0), Result(500, 1.0)]) == pytest.approx(337.5)


def test_ranking_weights_and_many_results():
    results = [
        Result(r, w)
        for r, w in [(900, 2.0), (800, 1.0), (700, 1.0), (600, 1.0), (500, 1.0), (400, 1.0), (300, 1.0)]
    ]
    # n = 7: Part A counts ceil(5 + 0.8 × 2) = 7 results: (1800+800+700+600+500+400+300)/8 = 637.5
    # Part B: best 4: (1800 + 800 + 700 + 600) / 5 = 780
    assert ranking(results) == pytest.approx((637.5 + 780) / 2)
