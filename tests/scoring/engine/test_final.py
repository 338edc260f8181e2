"""Final result of a game (docs/rules.md §6): leftover sticks, placement and ties, uma, oka, penalties."""

from __future__ import annotations

import pytest

from scoring.engine import Hand, Win, make_ruleset, replay
from scoring.engine.final import final_result, places

EMA2016 = make_ruleset("ema2016")
WRC2022 = make_ruleset("wrc2022")
MLEAGUE = make_ruleset("mleague")
TENHOU = make_ruleset("tenhou")
NO_PENALTIES = (0, 0, 0, 0)


def check_result(final, rules, penalties=NO_PENALTIES) -> None:
    """results = scores − return + uma + oka + rounding + penalties; uma and oka hand out exactly what
    the rules say, and the rounding to thousands (Tenhou's points) sums to 0."""
    for s in range(4):
        assert final.results[s] == (
            final.scores[s]
            - rules.return_points
            + final.uma[s]
            + final.oka[s]
            + final.rounding[s]
            + penalties[s]
        )
    assert sum(final.rounding) == 0
    assert sum(final.uma) == sum(rules.uma) == 0
    assert sum(final.oka) == rules.oka
    assert tuple(final.penalties) == tuple(penalties)


# -- the tie table of docs/rules.md §6.5 (EMA) -------------------------------------------------------


@pytest.mark.parametrize(
    ("scores", "expected_places", "uma"),
    [
        pytest.param((30000, 30000, 30000, 30000), (1, 1, 1, 1), (0, 0, 0, 0), id="four-way"),
        pytest.param((28000, 28000, 37000, 27000), (2, 2, 1, 4), (0, 0, 15000, -15000), id="tie-for-2nd"),
        pytest.param(
            (27000, 27000, 39000, 27000), (2, 2, 1, 2), (-5000, -5000, 15000, -5000), id="three-for-2nd"
        ),
        pytest.param(
            (33000, 33000, 22000, 32000), (1, 1, 4, 3), (10000, 10000, -15000, -5000), id="tie-for-1st"
        ),
        pytest.param(
            (36000, 24000, 24000, 36000), (1, 3, 3, 1), (10000, -10000, -10000, 10000), id="two-pairs"
        ),
    ],
)
@pytest.mark.parametrize("preset", ["ema2016", "ema2025", "wrc2022"])
def test_ema_tie_table(preset, scores, expected_places, uma):
    rules = make_ruleset(preset)
    assert places(scores, "split") == expected_places
    final = final_result(scores, 0, NO_PENALTIES, rules)
    assert final.places == expected_places
    assert final.uma == uma
    assert final.oka == (0, 0, 0, 0)
    assert final.scores == scores
    assert final.results == tuple(s - 30000 + u for s, u in zip(scores, uma, strict=True))
    assert sum(final.results) == 0
    check_result(final, rules)


def test_ema_tie_table_as_in_rules_md_by_place():
    """docs/rules.md §6.5 gives uma by seat; sorted best first (by place) they read +15000, 0, 0, −15000."""
    final = final_result((28000, 28000, 37000, 27000), 0, NO_PENALTIES, EMA2016)
    assert sorted(final.uma, reverse=True) == [15000, 0, 0, -15000]


# -- seat-order ties (tenhou) -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("scores", "expected_places"),
    [
        pytest.param((25000, 25000, 25000, 25000), (1, 2, 3, 4), id="four-way"),
        pytest.param((28000, 30000, 30000, 12000), (3, 1, 2, 4), id="tie-for-1st"),
        pytest.param((20000, 40000, 20000, 20000), (2, 1, 3, 4), id="three-for-2nd"),
        pytest.param((30000, 20000, 30000, 20000), (1, 3, 2, 4), id="two-pairs"),
    ],
)
def test_seat_order_ties(scores, expected_places):
    assert places(scores, "seat_order") == expected_places
    final = final_result(scores, 0, NO_PENALTIES, TENHOU)
    assert final.places == expected_places
    by_place = dict(zip(expected_places, range(4), strict=True))
    assert [final.uma[by_place[p]] for p in (1, 2, 3, 4)] == [20000, 10000, -10000, -20000]
    assert final.oka[by_place[1]] == 20000
    assert sum(final.results) == 0
    check_result(final, TENHOU)


def test_no_ties():
    assert places((10000, 40000, 30000, 40001), "split") == (4, 2, 3, 1)
    assert places((10000, 40000, 30000, 40001), "seat_order") == (4, 2, 3, 1)


# -- leftover riichi sticks ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "scores", "sticks", "final_scores"),
    [
        pytest.param(
            EMA2016, (40000, 30000, 27000, 20000), 3, (43000, 30000, 27000, 20000), id="ema-to-first"
        ),
        pytest.param(
            EMA2016, (20000, 30000, 27000, 40000), 3, (20000, 30000, 27000, 43000), id="ema-first-is-seat-3"
        ),
        # split ties: equal shares rounded down to 100, the remainder lost
        pytest.param(
            EMA2016,
            (35000, 35000, 27000, 20000),
            3,
            (36500, 36500, 27000, 20000),
            id="ema-3-sticks-2-leaders",
        ),
        pytest.param(
            EMA2016, (33000, 33000, 33000, 20000), 1, (33300, 33300, 33300, 20000), id="ema-1-stick-3-leaders"
        ),
        pytest.param(
            EMA2016,
            (29000, 29000, 29000, 29000),
            4,
            (30000, 30000, 30000, 30000),
            id="ema-4-sticks-4-leaders",
        ),
        pytest.param(
            EMA2016,
            (30000, 30000, 29000, 29000),
            2,
            (31000, 31000, 29000, 29000),
            id="ema-2-sticks-2-leaders",
        ),
        pytest.param(
            EMA2016,
            (31000, 20000, 31000, 31000),
            7,
            (33300, 20000, 33300, 33300),
            id="ema-7-sticks-3-leaders",
        ),
        pytest.param(
            MLEAGUE, (40000, 20000, 20000, 19000), 1, (41000, 20000, 20000, 19000), id="mleague-to-first"
        ),
        # seat order: the leader earliest in seat order takes all
        pytest.param(
            TENHOU, (20000, 30000, 30000, 18000), 2, (20000, 32000, 30000, 18000), id="tenhou-seat-order"
        ),
        pytest.param(
            TENHOU, (24000, 24000, 24000, 25000), 3, (24000, 24000, 24000, 28000), id="tenhou-single"
        ),
        # lost
        pytest.param(WRC2022, (40000, 30000, 27000, 20000), 3, (40000, 30000, 27000, 20000), id="wrc-lost"),
        pytest.param(
            WRC2022, (35000, 35000, 27000, 20000), 3, (35000, 35000, 27000, 20000), id="wrc-lost-tied"
        ),
    ],
)
def test_leftover_sticks(rules, scores, sticks, final_scores):
    assert sum(scores) + 1000 * sticks == 4 * rules.start_points
    final = final_result(scores, sticks, NO_PENALTIES, rules)
    assert final.scores == final_scores
    check_result(final, rules)
    lost = sum(scores) + 1000 * sticks - sum(final_scores)
    # without penalties the results sum to 0, less what the rules let go (lost sticks, split remainders)
    assert sum(final.results) == -lost


def test_leftover_sticks_split_remainder_is_lost():
    final = final_result((33000, 33000, 33000, 20000), 1, NO_PENALTIES, EMA2016)
    assert final.scores == (33300, 33300, 33300, 20000)
    assert sum(final.scores) == 4 * 30000 - 100


def test_leftover_sticks_before_placement():
    """The sticks go out before placement: they can break what would otherwise be a tie for first."""
    final = final_result((31000, 30000, 30000, 28000), 1, NO_PENALTIES, EMA2016)
    assert final.scores == (32000, 30000, 30000, 28000)
    assert final.places == (1, 2, 2, 4)
    # under lost sticks placement uses the scores as they are
    final = final_result((31000, 30000, 30000, 28000), 1, NO_PENALTIES, WRC2022)
    assert final.scores == (31000, 30000, 30000, 28000)
    assert final.uma == (15000, 0, 0, -15000)


def test_leftover_sticks_override_lost():
    rules = make_ruleset("ema2016", {"leftover_sticks": "lost"})
    final = final_result((40000, 30000, 27000, 20000), 3, NO_PENALTIES, rules)
    assert final.scores == (40000, 30000, 27000, 20000)


# -- oka ---------------------------------------------------------------------------------------------


def test_oka_to_first_mleague():
    assert MLEAGUE.oka == 20000
    final = final_result((40000, 30000, 20000, 10000), 0, NO_PENALTIES, MLEAGUE)
    assert final.uma == (30000, 10000, -10000, -30000)
    assert final.oka == (20000, 0, 0, 0)
    assert final.results == (60000, 10000, -20000, -50000)
    check_result(final, MLEAGUE)


def test_oka_split_when_first_is_tied_mleague():
    final = final_result((35000, 35000, 20000, 10000), 0, NO_PENALTIES, MLEAGUE)
    assert final.places == (1, 1, 3, 4)
    assert final.uma == (20000, 20000, -10000, -30000)
    assert final.oka == (10000, 10000, 0, 0)
    assert final.results == (35000, 35000, -20000, -50000)
    assert sum(final.results) == 0


def test_oka_with_seat_order_goes_to_one_player():
    final = final_result((30000, 30000, 20000, 20000), 0, NO_PENALTIES, TENHOU)
    assert final.oka == (20000, 0, 0, 0)
    assert final.results == (40000, 10000, -20000, -30000)


def test_no_oka_when_return_equals_start():
    assert EMA2016.oka == 0
    final = final_result((40000, 30000, 30000, 20000), 0, NO_PENALTIES, EMA2016)
    assert final.oka == (0, 0, 0, 0)


# -- uneven splits still sum exactly -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "overrides", "scores", "uma", "oka"),
    [
        pytest.param(
            "ema2016",
            {"uma": [20000, 10000, -10000, -20000]},
            (35000, 35000, 35000, 15000),
            # 20000 between three: 6666.67 each → 6700, 6700, 6600 (the extra hundreds to the earliest seats)
            (6700, 6700, 6600, -20000),
            (0, 0, 0, 0),
            id="uma-3-way-tie-for-1st",
        ),
        pytest.param(
            "ema2016",
            {"uma": [20000, 10000, -10000, -20000]},
            (15000, 35000, 35000, 35000),
            (-20000, 6700, 6700, 6600),
            (0, 0, 0, 0),
            id="uma-3-way-tie-for-1st-seats-1-3",
        ),
        pytest.param(
            "ema2016",
            {"uma": [20000, 10000, -10000, -20000], "start_points": 25000},
            (35000, 20000, 35000, 10000),
            (15000, -10000, 15000, -20000),
            (10000, 0, 10000, 0),
            id="uma-and-oka-2-way-tie",
        ),
        pytest.param(
            "mleague",
            None,
            (30000, 30000, 30000, 10000),
            # uma 30000+10000-10000 = 30000 → 10000 each; oka 20000 → 6700, 6700, 6600
            (10000, 10000, 10000, -30000),
            (6700, 6700, 6600, 0),
            id="mleague-oka-3-way-tie",
        ),
        pytest.param(
            "ema2016",
            {"uma": [10001, 0, 0, -10001]},
            (40000, 40000, 20000, 20000),
            # not a multiple of 100: shared point by point
            (5001, 5000, -5000, -5001),
            (0, 0, 0, 0),
            id="odd-uma-point-by-point",
        ),
        pytest.param(
            "ema2016",
            {"uma": [20000, 10000, -10000, -20000]},
            (30000, 30000, 30000, 30000),
            (0, 0, 0, 0),
            (0, 0, 0, 0),
            id="four-way-tie",
        ),
        pytest.param(
            "ema2016",
            {"uma": [25000, 5000, -10000, -20000]},
            (40000, 20000, 20000, 40000),
            (15000, -15000, -15000, 15000),
            (0, 0, 0, 0),
            id="custom-uneven-uma",
        ),
        pytest.param(
            "ema2016",
            {"uma": [25000, 10000, -15000, -20000]},
            (20000, 20000, 20000, 60000),
            # 10000 - 15000 - 20000 = -25000 → -8300, -8300, -8400 (floor, extra to the earliest seats)
            (-8300, -8300, -8400, 25000),
            (0, 0, 0, 0),
            id="negative-3-way-tie",
        ),
    ],
)
def test_uneven_splits_sum_exactly(preset, overrides, scores, uma, oka):
    rules = make_ruleset(preset, overrides)
    assert sum(scores) == 4 * rules.start_points
    final = final_result(scores, 0, NO_PENALTIES, rules)
    assert final.uma == uma
    assert final.oka == oka
    assert sum(final.results) == 0
    check_result(final, rules)
    # tied players get the same share to within one unit
    for place in set(final.places):
        shares = [final.uma[s] + final.oka[s] for s in range(4) if final.places[s] == place]
        assert max(shares) - min(shares) <= 100


# -- penalties ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "scores", "penalties"),
    [
        pytest.param(EMA2016, (40000, 30000, 30000, 20000), (-20000, 0, 0, 0), id="ema-first-penalised"),
        pytest.param(EMA2016, (33000, 33000, 22000, 32000), (0, -20000, -20000, 0), id="ema-two-penalties"),
        pytest.param(WRC2022, (50000, 30000, 25000, 15000), (0, 0, 0, -30000), id="wrc"),
        pytest.param(MLEAGUE, (35000, 35000, 20000, 10000), (-20000, 0, -5000, 0), id="mleague-tied"),
        pytest.param(TENHOU, (30000, 30000, 20000, 20000), (0, -1000, 0, 0), id="tenhou"),
    ],
)
def test_results_sum_to_the_penalties(rules, scores, penalties):
    final = final_result(scores, 0, penalties, rules)
    check_result(final, rules, penalties)
    assert sum(final.results) == sum(penalties)
    # penalties do not change places, uma or oka
    unpenalised = final_result(scores, 0, NO_PENALTIES, rules)
    assert (final.places, final.uma, final.oka) == (unpenalised.places, unpenalised.uma, unpenalised.oka)
    assert final.results == tuple(r + p for r, p in zip(unpenalised.results, penalties, strict=True))


def test_penalty_applied_after_uma():
    """A first place with a chombo keeps 1st place and its uma; the deduction comes off the result."""
    final = final_result((35000, 33000, 32000, 20000), 0, (-20000, 0, 0, 0), EMA2016)
    assert final.places == (1, 2, 3, 4)
    assert final.uma == (15000, 5000, -5000, -15000)
    assert final.results == (35000 - 30000 + 15000 - 20000, 8000, -3000, -25000)
    assert final.results[0] < final.results[1]  # below 2nd on result, still 1st on placement and uma


def test_chombo_deductions_from_a_replay():
    rules = make_ruleset("ema2016")
    result = replay([Hand.ron(2, Win(1, 5)), Hand.chombo(1), Hand.chombo(3)], rules)
    final = result.final()
    assert final.scores == (30000, 38000, 22000, 30000)
    assert final.places == (2, 1, 4, 2)
    assert final.penalties == (0, -20000, 0, -20000)
    assert final.results == (0, 8000 + 15000 - 20000, -8000 - 15000, -20000)
    assert sum(final.results) == -40000
    # extra penalties (a referee's) add to the chombo deductions
    final = result.final((0, 0, -5000, -1000))
    assert final.penalties == (0, -20000, -5000, -21000)
    assert sum(final.results) == -46000


def test_final_of_a_replay_hands_out_leftover_sticks():
    rules = make_ruleset("ema2016")
    result = replay([Hand.ron(2, Win(1, 5)), Hand.draw((1,), riichi=(0, 1))], rules)
    assert result.state.sticks == 2
    final = result.final()
    # hand 2 (dealer 1 tenpai alone, 0 and 1 in riichi): the 2 sticks go to the first, seat 1
    assert result.state.scores == [28000, 40000, 21000, 29000]
    assert final.scores == (28000, 42000, 21000, 29000)
    assert sum(final.results) == 0


def test_to_dict():
    final = final_result((40000, 30000, 27000, 20000), 3, NO_PENALTIES, EMA2016)
    assert final.to_dict() == {
        "scores": [43000, 30000, 27000, 20000],
        "places": [1, 2, 3, 4],
        "uma": [15000, 5000, -5000, -15000],
        "oka": [0, 0, 0, 0],
        "penalties": [0, 0, 0, 0],
        "results": [28000, 5000, -8000, -25000],
    }


# -- Tenhou's points: rounded to whole thousands ---------------------------------------------------------


def test_tenhou_rounds_to_thousands_as_tenhou_showed_the_game():
    """Issue 23's game: Tenhou showed −20, +16, −45, +49 where exact points are −19.9, +15.8, −44.8, +48.9."""
    final = final_result((20100, 35800, 5200, 38900), 0, NO_PENALTIES, TENHOU)
    assert final.places == (3, 2, 4, 1)
    assert final.results == (-20000, 16000, -45000, 49000)
    assert final.rounding == (-100, 200, -200, 100)
    assert final.uma == (-10000, 10000, -20000, 20000) and final.oka == (0, 0, 0, 20000)  # as the rules say
    check_result(final, TENHOU)
    exact = final_result(
        (20100, 35800, 5200, 38900), 0, NO_PENALTIES, make_ruleset("tenhou", {"round_to_thousands": False})
    )
    assert exact.results == (-19900, 15800, -44800, 48900)
    assert exact.rounding == (0, 0, 0, 0)


@pytest.mark.parametrize(
    ("scores", "results"),
    [
        # 31 500 → +1.5 → +2 and 24 500 → −5.5 → −5: a half goes upwards, on either side of zero
        pytest.param((34000, 31500, 24500, 10000), (43000, 12000, -15000, -40000), id="halves-up"),
        pytest.param((34100, 31400, 24400, 10100), (45000, 11000, -16000, -40000), id="below-half"),
        pytest.param((33900, 31600, 24600, 9900), (43000, 12000, -15000, -40000), id="above-half"),
        # seat order breaks the tie for first: seat 0 is first and takes the rest, seat 1 is rounded
        pytest.param((30500, 30500, 24500, 14500), (39000, 11000, -15000, -35000), id="tie-for-first"),
        pytest.param((15500, 34500, 34500, 15500), (-24000, 43000, 15000, -34000), id="two-pairs"),
    ],
)
def test_tenhou_rounding(scores, results):
    final = final_result(scores, 0, NO_PENALTIES, TENHOU)
    assert final.results == results
    assert sum(final.results) == 0
    assert all(r % 1000 == 0 for r in final.results)
    check_result(final, TENHOU)


def test_tenhou_rounding_after_the_sticks_and_before_the_penalties():
    """Leftover sticks go to first place before the rounding; a penalty comes off after it, unrounded."""
    final = final_result((33000, 30500, 24500, 10000), 2, (0, 0, -1500, 0), TENHOU)
    assert final.scores == (35000, 30500, 24500, 10000)
    assert final.results == (44000, 11000, -15000 - 1500, -40000)
    assert final.rounding == (-1000, 500, 500, 0)
    assert sum(final.results) == -1500
    check_result(final, TENHOU, (0, 0, -1500, 0))


def test_rounding_with_a_tie_for_first_shared_like_uma():
    """Turned on under split ties, players tied for first share what the rounding moved, by 100s."""
    rules = make_ruleset("ema2016", {"round_to_thousands": True})
    final = final_result((40500, 40500, 24500, 14500), 0, NO_PENALTIES, rules)
    assert final.places == (1, 1, 3, 4)
    assert final.rounding == (-500, -500, 500, 500)
    assert final.results == (20000, 20000, -10000, -30000)
    check_result(final, rules)


def test_rounding_only_shows_in_the_output_when_it_moved_a_result():
    """``replay`` writes ``rounding`` beside uma and oka when it moved something, so that results =
    scores − return + uma + oka + rounding + penalties stays readable; a game it did not move prints as
    before (the published tenhou example among them)."""
    moved = final_result((20100, 35800, 5200, 38900), 0, NO_PENALTIES, TENHOU).to_dict()
    assert moved["rounding"] == [-100, 200, -200, 100]
    assert moved["results"] == [-20000, 16000, -45000, 49000]
    still = final_result((73000, 25000, 25000, -23000), 0, NO_PENALTIES, TENHOU).to_dict()
    assert "rounding" not in still


def test_exact_points_everywhere_but_tenhou():
    """EMA, WRC, M-League and Mahjong Soul keep exact points (Mahjong Soul shows them to one decimal,
    32 700 → +7.7, which is a whole number of hundreds)."""
    assert [
        name
        for name in ("ema2016", "ema2025", "wrc2022", "mleague", "mahjongsoul", "tenhou")
        if make_ruleset(name).round_to_thousands
    ] == ["tenhou"]
    # A Mahjong Soul friendly room's game, as its result screen shows it: −7.3, +3.2, +39.1, −35.0.
    final = final_result((22700, 23200, 49100, 5000), 0, NO_PENALTIES, make_ruleset("mahjongsoul"))
    assert final.results == (-7300, 3200, 39100, -35000)


def test_final_scores_must_add_up_to_the_start_less_the_sticks_left():
    from scoring.engine import RuleViolation, check_final_scores, expected_total, make_ruleset

    rules = make_ruleset("tenhou")
    assert expected_total(rules, 2) == 98000
    check_final_scores([40000, 30000, 20000, 8000], 2, rules)
    with pytest.raises(RuleViolation, match=r"sum to 100000, but must sum to 98000 .*2 riichi sticks"):
        check_final_scores([40000, 30000, 20000, 10000], 2, rules)
    with pytest.raises(RuleViolation, match="West's score 20050 is not a multiple of 100"):
        check_final_scores([40000, 30000, 20050, 9950], 0, rules)
    with pytest.raises(RuleViolation, match="cannot be negative"):
        check_final_scores([25000] * 4, -1, rules)
    with pytest.raises(RuleViolation, match="four final scores"):
        check_final_scores([25000] * 3, 0, rules)
