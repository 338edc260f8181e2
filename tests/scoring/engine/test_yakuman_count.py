"""A yakuman count is valued by the ruleset, never rejected (docs/rules.md §1.1: "a double yakuman under
a ruleset without stacking is paid as one yakuman and is never refused, just as 13 han is paid as the
``kazoe_limit`` says").

The record reader keeps its own limit (1–6 yakuman in one win); inside it, the count is a fact of the
table and only the payment depends on ``yakuman_stacking``.
"""

from __future__ import annotations

import pytest

from scoring.engine import (
    EngineError,
    Hand,
    HandValue,
    Win,
    make_ruleset,
    paid_as_one_yakuman,
    paid_yakuman,
    record_from_dict,
    replay,
)
from scoring.engine.value import limit_name

EMA2016 = make_ruleset("ema2016")  # yakuman do not stack
EMA2025 = make_ruleset("ema2025")  # yakuman do not stack
TENHOU = make_ruleset("tenhou")  # yakuman stack


def deltas(hand: Hand, rules, honba_draws: int = 0) -> tuple[int, ...]:
    hands = [Hand.draw((0, 1, 2, 3))] * honba_draws + [hand]
    return replay(hands, rules).hands[-1].deltas


@pytest.mark.parametrize("rules", [EMA2016, EMA2025], ids=["ema2016", "ema2025"])
@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        pytest.param(Hand.ron(3, Win(2, yakuman=2)), (0, 0, 32000, -32000), id="ron-non-dealer"),
        pytest.param(Hand.ron(3, Win(0, yakuman=3)), (48000, 0, 0, -48000), id="ron-dealer"),
        pytest.param(Hand.tsumo(Win(2, yakuman=2)), (-16000, -8000, 32000, -8000), id="tsumo-non-dealer"),
        pytest.param(Hand.tsumo(Win(0, yakuman=6)), (48000, -16000, -16000, -16000), id="tsumo-dealer"),
    ],
)
def test_multiple_yakuman_paid_as_one_without_stacking(rules, hand, expected):
    assert deltas(hand, rules) == expected


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        pytest.param(Hand.ron(3, Win(2, yakuman=2)), (0, 0, 64000, -64000), id="ron-non-dealer"),
        pytest.param(Hand.ron(3, Win(0, yakuman=3)), (144000, 0, 0, -144000), id="ron-dealer"),
        pytest.param(Hand.tsumo(Win(2, yakuman=2)), (-32000, -16000, 64000, -16000), id="tsumo-non-dealer"),
    ],
)
def test_multiple_yakuman_stack_under_tenhou(hand, expected):
    assert deltas(hand, TENHOU) == expected


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        # tsumo: the liable seat pays the one yakuman as a ron with the honba; nothing is left to pay
        pytest.param(Hand.tsumo(Win(2, yakuman=2, pao=1)), (0, -32300, 32300, 0), id="tsumo-non-dealer"),
        pytest.param(Hand.tsumo(Win(0, yakuman=2, pao=3)), (48300, 0, 0, -48300), id="tsumo-dealer"),
        # ron: the liable seat pays half of one yakuman, the discarder the other half and the honba
        pytest.param(Hand.ron(3, Win(2, yakuman=2, pao=1)), (0, -16000, 32300, -16300), id="ron-non-dealer"),
        pytest.param(Hand.ron(3, Win(0, yakuman=3, pao=1)), (48300, -24000, 0, -24300), id="ron-dealer"),
    ],
)
def test_pao_on_a_multiple_yakuman_without_stacking_is_that_of_one_yakuman(hand, expected):
    """docs/rules.md §3 with the count paid as one: exactly the single-yakuman pao payments."""
    assert deltas(hand, EMA2016, honba_draws=1) == expected
    single = Hand(
        hand.result, wins=(Win(hand.wins[0].winner, yakuman=1, pao=hand.wins[0].pao),), loser=hand.loser
    )
    assert deltas(single, EMA2016, honba_draws=1) == expected


def test_pao_on_a_double_yakuman_still_stacks_under_tenhou():
    """Under stacking, liability still covers one yakuman only (docs/rules.md §3): the rest is a tsumo."""
    assert deltas(Hand.tsumo(Win(2, yakuman=2, pao=1)), TENHOU, honba_draws=1) == (
        -16000,
        -32300 - 8000,
        32300 + 32000,
        -8000,
    )


def test_paid_yakuman_and_the_words_for_it():
    double = HandValue(yakuman=2)
    assert paid_yakuman(double, EMA2016) == 1
    assert paid_yakuman(double, TENHOU) == 2
    assert paid_yakuman(HandValue(5, None), EMA2016) == 0
    assert paid_as_one_yakuman(double, EMA2016)
    assert not paid_as_one_yakuman(double, TENHOU)
    assert not paid_as_one_yakuman(HandValue(yakuman=1), EMA2016)
    assert double.describe() == "double yakuman"  # what was at the table
    assert double.describe(EMA2016) == "double yakuman, paid as one yakuman"
    assert double.describe(TENHOU) == "double yakuman"
    assert limit_name(double, EMA2016) == "yakuman"
    assert limit_name(double, TENHOU) == "double yakuman"


def record(yakuman: int, rules: str = "ema2016") -> dict:
    return {"format": 1, "rules": rules, "hands": [{"result": "tsumo", "winner": 1, "yakuman": yakuman}]}


def test_record_with_a_double_yakuman_under_ema2016_replays():
    played = record_from_dict(record(2)).replay()
    assert played.hands[0].deltas == (-16000, 32000, -8000, -8000)


@pytest.mark.parametrize("rules", ["ema2016", "tenhou"])
def test_record_reader_limits_a_win_to_six_yakuman(rules):
    record_from_dict(record(6, rules))
    with pytest.raises(EngineError, match="from 1 to 6, not 7") as info:
        record_from_dict(record(7, rules))
    assert str(info.value).startswith("hand 1: ")
    assert info.value.field == "yakuman"
