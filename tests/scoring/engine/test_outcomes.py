"""Every outcome of a hand and the flow of a game (docs/rules.md §2–§5), under each preset that differs.

Every replay goes through ``play``, which also checks the invariant that no point is created or lost at
the table: after every hand, the four scores plus the riichi sticks on the table add up to 4 × start.
"""

from __future__ import annotations

import re

import pytest

from scoring.engine import Hand, RecordError, Win, make_ruleset, nearest_first, replay

# -- helpers ------------------------------------------------------------------------------------------


def check_invariants(result) -> None:
    """Points are only moved: scores + sticks on the table stay 4 × start; deltas add up to the scores."""
    start = result.rules.start_points
    previous = [start] * 4
    for i, hand in enumerate(result.hands):
        sticks_after = result.hands[i + 1].sticks if i + 1 < len(result.hands) else result.state.sticks
        assert sum(hand.scores) + 1000 * sticks_after == 4 * start, f"hand {i + 1} creates or loses points"
        assert list(hand.scores) == [p + d for p, d in zip(previous, hand.deltas, strict=True)]
        assert sum(hand.deltas) == -1000 * (sticks_after - hand.sticks)
        previous = list(hand.scores)
    assert list(result.state.scores) == previous


def play(hands, preset="ema2016", **overrides):
    result = replay(hands, make_ruleset(preset, overrides or None))
    check_invariants(result)
    return result


def rejected(hands, preset="ema2016", *, match: str, hand: int | None = None, **overrides) -> RecordError:
    """The replay fails with a RecordError whose message contains ``match`` (literally), on hand ``hand``."""
    with pytest.raises(RecordError, match=re.escape(match)) as info:
        replay(hands, make_ruleset(preset, overrides or None))
    expected_hand = len(hands) if hand is None else hand
    assert info.value.hand == expected_hand
    assert str(info.value).startswith(f"hand {expected_hand}: ")
    return info.value


def honba_draws(n: int) -> list[Hand]:
    """``n`` exhaustive draws with all four tenpai: no payment, the dealer stays, +1 honba each."""
    return [Hand.draw((0, 1, 2, 3)) for _ in range(n)]


def rotations(n: int) -> list[Hand]:
    """``n`` exhaustive draws with nobody tenpai: no payment, the dealer rotates (+1 honba each)."""
    return [Hand.draw() for _ in range(n)]


def rotating_rons(n: int) -> list[Hand]:
    """``n`` hands won by the seat after the dealer off the one after that (1 han 30 fu): dealer rotates."""
    return [Hand.ron((d + 2) % 4, Win((d + 1) % 4, 1, 30)) for d in range(n)]


PROBE = Hand.draw((0, 1, 2, 3))  # a hand that moves nothing, to look at the state a hand leaves behind


# -- single ron and tsumo ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("honba", "hand", "deltas"),
    [
        pytest.param(0, Hand.ron(2, Win(1, 1, 30)), (0, 1000, -1000, 0), id="ron-non-dealer"),
        pytest.param(1, Hand.ron(2, Win(1, 1, 30)), (0, 1300, -1300, 0), id="ron-non-dealer-1-honba"),
        pytest.param(3, Hand.ron(2, Win(1, 1, 30)), (0, 1900, -1900, 0), id="ron-non-dealer-3-honba"),
        pytest.param(0, Hand.ron(3, Win(0, 2, 30)), (2900, 0, 0, -2900), id="ron-dealer"),
        pytest.param(2, Hand.ron(3, Win(0, 2, 30)), (3500, 0, 0, -3500), id="ron-dealer-2-honba"),
        pytest.param(1, Hand.ron(0, Win(3, 5)), (-8300, 0, 0, 8300), id="ron-mangan-off-dealer-1-honba"),
        pytest.param(0, Hand.tsumo(Win(2, 1, 30)), (-500, -300, 1100, -300), id="tsumo-non-dealer"),
        pytest.param(2, Hand.tsumo(Win(2, 1, 30)), (-700, -500, 1700, -500), id="tsumo-non-dealer-2-honba"),
        pytest.param(
            1, Hand.tsumo(Win(3, 5)), (-4100, -2100, -2100, 8300), id="tsumo-non-dealer-mangan-1-honba"
        ),
        pytest.param(0, Hand.tsumo(Win(0, 2, 30)), (3000, -1000, -1000, -1000), id="tsumo-dealer"),
        pytest.param(1, Hand.tsumo(Win(0, 2, 30)), (3300, -1100, -1100, -1100), id="tsumo-dealer-1-honba"),
        pytest.param(
            4, Hand.tsumo(Win(0, 2, 20)), (3300, -1100, -1100, -1100), id="tsumo-dealer-pinfu-4-honba"
        ),
    ],
)
@pytest.mark.parametrize("preset", ["ema2016", "tenhou", "wrc2022"])
def test_single_win(preset, honba, hand, deltas):
    """Ron: +300 per honba from the discarder; tsumo: +100 per honba from each payer (docs/rules.md §1.2)."""
    result = play([*honba_draws(honba), hand, PROBE], preset)
    won, after = result.hands[honba], result.hands[honba + 1]
    assert (won.round, won.dealer, won.honba, won.sticks) == ("E1", 0, honba, 0)
    assert won.deltas == deltas
    start = result.rules.start_points
    assert won.scores == tuple(start + d for d in deltas)
    if 0 in hand.winners:  # the dealer won: stays, +1 honba
        assert (after.round, after.dealer, after.honba) == ("E1", 0, honba + 1)
        assert won.renchan
    else:  # a non-dealer won: the deal rotates, honba back to 0
        assert (after.round, after.dealer, after.honba) == ("E2", 1, 0)
        assert not won.renchan


# -- riichi deposits and sticks ----------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["ema2016", "tenhou"])
def test_riichi_sticks_carried_over_draws_and_collected_by_the_next_winner(preset):
    hands = [
        Hand.draw((1,), riichi=(1,)),  # 1 tenpai after riichi: +3000 -1000; dealer 0 noten: rotates; sticks 1
        Hand.draw((0, 2), riichi=(0, 2)),  # dealer 1 noten: rotates; sticks 3
        Hand.ron(0, Win(3, 1, 30), riichi=(1,)),  # 3 gets 1000 + 2 honba + 3 sticks + the deposit of 1
        PROBE,
    ]
    result = play(hands, preset)
    first, second, win, after = result.hands
    assert first.deltas == (-1000, 2000, -1000, -1000)
    assert (first.sticks, second.sticks, win.sticks, after.sticks) == (0, 1, 3, 0)
    assert second.deltas == (-1000 + 1500, -1500, -1000 + 1500, -1500)
    assert (second.dealer, second.honba) == (1, 1)
    assert (win.dealer, win.honba) == (2, 2)
    assert win.deltas == (-1600, -1000, 0, 1600 + 4000)
    assert (after.dealer, after.honba) == (3, 0)


def test_riichi_by_the_ron_winner_comes_back_with_the_pot():
    result = play([Hand.ron(1, Win(2, 2, 30), riichi=(2, 0))])
    assert result.hands[0].deltas == (-1000, -2000, 2000 - 1000 + 2000, 0)
    assert result.state.sticks == 0


def test_riichi_sticks_stay_on_the_table_at_the_end():
    result = play([Hand.draw((0,), riichi=(0, 3))])
    assert result.state.sticks == 2
    assert sum(result.state.scores) == 4 * 30000 - 2000


def test_tsumo_collects_sticks():
    result = play([Hand.draw((), riichi=(3,)), Hand.tsumo(Win(2, 1, 30), riichi=(2,))])
    hand = result.hands[1]
    assert (hand.dealer, hand.honba, hand.sticks) == (1, 1, 1)
    # dealer 1 pays 500 + 100, the others 300 + 100; 2 also takes the stick and its own deposit back
    assert hand.deltas == (-400, -600, -1000 + 1400 + 2000, -400)
    assert result.state.sticks == 0


# -- several winners on one discard ------------------------------------------------------------------


def double_ron_game():
    """Honba 1 and one stick on the table (seat 3), then 2 discards into 3 (nearest) and 1 (riichi)."""
    return [
        Hand.draw((0,), riichi=(3,)),  # dealer tenpai alone: +3000; seat 3 -1000 -1000
        Hand.ron(2, Win(1, 2, 30), Win(3, 1, 30), riichi=(1,)),
        PROBE,
    ]


@pytest.mark.parametrize(
    ("preset", "deltas"),
    [
        # EMA: honba to each (+300 each); own riichi back to 1; the rest (1 stick) to the nearest, 3.
        pytest.param("ema2016", (0, -1000 + 2300 + 1000, -3600, 1300 + 1000), id="ema2016"),
        pytest.param("ema2025", (0, -1000 + 2300 + 1000, -3600, 1300 + 1000), id="ema2025"),
        # Tenhou: honba and all sticks (the old one and 1's deposit) to the nearest, 3.
        pytest.param("tenhou", (0, -1000 + 2000, -3300, 1300 + 2000), id="tenhou"),
    ],
)
def test_double_ron_non_nearest_winner_in_riichi(preset, deltas):
    result = play(double_ron_game(), preset)
    hand, after = result.hands[1], result.hands[2]
    assert (hand.dealer, hand.honba, hand.sticks) == (0, 1, 1)
    assert nearest_first(2, (1, 3)) == [3, 1]
    assert hand.deltas == deltas
    # the dealer (0) did not win: rotates, honba reset, table cleared
    assert (after.dealer, after.honba, after.sticks) == (1, 0, 0)


@pytest.mark.parametrize(
    ("preset", "deltas"),
    [
        # nearest (3) in riichi takes its own deposit with the pot either way; honba differs
        pytest.param("ema2016", (0, 2300, -3600, -1000 + 1300 + 2000), id="ema2016"),
        pytest.param("tenhou", (0, 2000, -3300, -1000 + 1300 + 2000), id="tenhou"),
    ],
)
def test_double_ron_nearest_winner_in_riichi(preset, deltas):
    hands = [Hand.draw((0,), riichi=(0,)), Hand.ron(2, Win(1, 2, 30), Win(3, 1, 30), riichi=(3,))]
    result = play(hands, preset)
    assert result.hands[0].deltas == (2000, -1000, -1000, -1000)
    assert result.hands[1].deltas == deltas


@pytest.mark.parametrize(
    ("preset", "deltas"),
    [
        # discarder 3; winners 2 (riichi) and 0 (the dealer); nearest is 0 = (3 + 1) mod 4; honba 1, 1 stick.
        # EMA: 0 gets 1500 + 300 + the old stick; 2 gets 2000 + 300 and its own deposit back.
        pytest.param("ema2016", (1500 + 300 + 1000, 0, -1000 + 2000 + 300 + 1000, -4100), id="ema2016"),
        # Tenhou: 0 gets 1500 + 300 + both sticks; 2 gets 2000 alone.
        pytest.param("tenhou", (1500 + 300 + 2000, 0, -1000 + 2000, -3800), id="tenhou"),
    ],
)
def test_nearest_winner_wraps_around(preset, deltas):
    assert nearest_first(3, (2, 0)) == [0, 2]
    assert nearest_first(3, [0, 2]) == [0, 2]
    hands = [
        Hand.draw((0, 1, 2, 3), riichi=(1,)),  # honba 1, one stick, dealer 0 stays
        Hand.ron(3, Win(2, 2, 30), Win(0, 1, 30), riichi=(2,)),
        PROBE,
    ]
    result = play(hands, preset)
    hand, after = result.hands[1], result.hands[2]
    assert (hand.dealer, hand.honba, hand.sticks) == (0, 1, 1)
    assert hand.deltas == deltas
    assert (after.dealer, after.honba, after.sticks) == (0, 2, 0)  # the dealer won: stays


@pytest.mark.parametrize("preset", ["ema2016", "tenhou"])
def test_double_ron_with_the_dealer_among_winners_keeps_the_deal(preset):
    result = play([Hand.ron(1, Win(0, 1, 30), Win(2, 1, 30)), PROBE], preset)
    assert result.hands[0].deltas == (1500, -2500, 1000, 0)
    assert result.hands[0].renchan
    assert (result.hands[1].dealer, result.hands[1].honba) == (0, 1)


@pytest.mark.parametrize(
    ("discarder", "winners", "nearest"),
    [(3, (2, 0), 0), (3, (0, 2), 0), (2, (1, 3), 3), (1, (3, 2), 2), (0, (3, 1), 1), (0, (2, 3), 2)],
    ids=lambda v: str(v),
)
@pytest.mark.parametrize("preset", ["wrc2022", "mleague"])
def test_atamahane_rejects_double_ron_naming_the_nearest(preset, discarder, winners, nearest):
    hand = Hand.ron(discarder, *(Win(w, 1, 30) for w in winners))
    error = rejected([hand], preset, match=f"record seat {nearest} alone")
    assert "atamahane" in error.message
    # recording the nearest alone is fine
    result = play([Hand.ron(discarder, Win(nearest, 1, 30))], preset)
    assert result.hands[0].deltas[nearest] == (1500 if nearest == 0 else 1000)


def test_triple_ron_is_a_win_under_ema2016():
    hands = [
        *honba_draws(1),
        Hand.ron(0, Win(1, 1, 30), Win(2, 2, 30), Win(3, 3, 30), riichi=(2, 3)),
        PROBE,
    ]
    result = play(hands)
    hand, after = result.hands[1], result.hands[2]
    # honba to each (+300); 2 and 3 (not the nearest) get their own deposit back; nearest 1 gets the rest (0)
    assert hand.deltas == (-(1300 + 2300 + 4200), 1300, -1000 + 2300 + 1000, -1000 + 4200 + 1000)
    assert (after.dealer, after.honba, after.sticks) == (1, 0, 0)


def test_triple_ron_is_rejected_under_tenhou_and_recorded_as_abort():
    hand = Hand.ron(0, Win(1, 1, 30), Win(2, 2, 30), Win(3, 3, 30))
    rejected([hand], "tenhou", match="a triple ron is an abortive draw under this ruleset")
    result = play([Hand.abort(reason="triple_ron"), PROBE], "tenhou")
    assert result.hands[0].deltas == (0, 0, 0, 0)
    assert (result.hands[1].dealer, result.hands[1].honba) == (0, 1)


@pytest.mark.parametrize("preset", ["wrc2022", "mleague"])
def test_triple_ron_is_rejected_under_atamahane(preset):
    hand = Hand.ron(0, Win(1, 1, 30), Win(2, 2, 30), Win(3, 3, 30))
    rejected([hand], preset, match="record seat 1 alone")


@pytest.mark.parametrize(
    "hand",
    [
        pytest.param(Hand.ron(2, Win(2, 1, 30)), id="own-discard"),
        pytest.param(Hand.ron(2, Win(1, 1, 30), Win(1, 2, 30)), id="same-winner-twice"),
        pytest.param(Hand.ron(4, Win(1, 1, 30)), id="loser-out-of-range"),
        pytest.param(Hand.tsumo(Win(5, 1, 30)), id="winner-out-of-range"),
        pytest.param(Hand.ron(2, Win(1, 1, 20)), id="ron-20-fu"),
        pytest.param(Hand.tsumo(Win(1, 2, 25)), id="tsumo-2-han-25-fu"),
        pytest.param(Hand(result="ron", loser=1), id="ron-without-winner"),
        pytest.param(Hand.draw((1, 1)), id="tenpai-twice"),
    ],
)
def test_impossible_hands_are_rejected(hand):
    with pytest.raises(RecordError) as info:
        replay([PROBE, hand], make_ruleset("ema2016"))
    assert info.value.hand == 2


# -- exhaustive draw ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tenpai", "deltas"),
    [
        pytest.param((), (0, 0, 0, 0), id="0-tenpai"),
        pytest.param((2,), (-1000, -1000, 3000, -1000), id="1-tenpai"),
        pytest.param((0,), (3000, -1000, -1000, -1000), id="1-tenpai-dealer"),
        pytest.param((1, 3), (-1500, 1500, -1500, 1500), id="2-tenpai"),
        pytest.param((0, 3), (1500, -1500, -1500, 1500), id="2-tenpai-dealer"),
        pytest.param((1, 2, 3), (-3000, 1000, 1000, 1000), id="3-tenpai"),
        pytest.param((0, 1, 2), (1000, 1000, 1000, -3000), id="3-tenpai-dealer"),
        pytest.param((0, 1, 2, 3), (0, 0, 0, 0), id="4-tenpai"),
    ],
)
@pytest.mark.parametrize("honba", [0, 2])
@pytest.mark.parametrize("preset", ["ema2016", "tenhou"])
def test_exhaustive_draw(preset, honba, tenpai, deltas):
    result = play([*honba_draws(honba), Hand.draw(tenpai), PROBE], preset)
    draw, after = result.hands[honba], result.hands[honba + 1]
    assert draw.deltas == deltas
    assert after.honba == honba + 1  # always +1
    if 0 in tenpai:
        assert (after.round, after.dealer) == ("E1", 0)
    else:
        assert (after.round, after.dealer) == ("E2", 1)


def test_exhaustive_draw_with_a_non_first_dealer():
    result = play([*rotations(2), Hand.draw((2,)), Hand.draw((1,)), PROBE])
    assert [h.dealer for h in result.hands] == [0, 1, 2, 2, 3]
    assert [h.honba for h in result.hands] == [0, 1, 2, 3, 4]
    assert result.hands[3].deltas == (-1000, 3000, -1000, -1000)


# -- nagashi mangan ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "deltas", "dealer_after"),
    [
        pytest.param(Hand.draw((), nagashi=(0,)), (12000, -4000, -4000, -4000), 1, id="dealer-4000-all"),
        pytest.param(
            Hand.draw((0,), nagashi=(0,)), (12000, -4000, -4000, -4000), 0, id="dealer-tenpai-stays"
        ),
        # dealer 0 tenpai alone: no noten payments; the nagashi player is paid 4000/2000
        pytest.param(
            Hand.draw((0,), nagashi=(2,)), (-4000, -2000, 8000, -2000), 0, id="non-dealer-4000-2000"
        ),
        pytest.param(
            Hand.draw((1,), nagashi=(2,)), (-4000, -2000, 8000, -2000), 1, id="dealer-noten-rotates"
        ),
        pytest.param(
            Hand.draw((), nagashi=(1, 3)),
            (-8000, 8000 - 2000, -4000, 8000 - 2000),
            1,
            id="two-nagashi",
        ),
    ],
)
def test_nagashi_mangan_tenhou(hand, deltas, dealer_after):
    result = play([*honba_draws(1), Hand.draw((0, 1, 2, 3), riichi=(3,)), hand, PROBE], "tenhou")
    nagashi, after = result.hands[2], result.hands[3]
    assert (nagashi.honba, nagashi.sticks) == (2, 1)
    assert nagashi.deltas == deltas  # no honba, no noten payments
    assert (after.dealer, after.honba, after.sticks) == (dealer_after, 3, 1)  # +1 honba; sticks stay


@pytest.mark.parametrize("preset", ["ema2016", "ema2025", "wrc2022"])
def test_nagashi_mangan_rejected(preset):
    rejected([Hand.draw((), nagashi=(2,))], preset, match="nagashi mangan is not played under this ruleset")


# -- abortive draw -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "reason", ["nine_terminals", "four_winds", "four_riichi", "four_kans", "triple_ron", None]
)
def test_abortive_draw_tenhou(reason):
    riichi = (0, 1, 2, 3) if reason == "four_riichi" else ()
    result = play([*rotations(1), Hand.abort(riichi=riichi, reason=reason), PROBE], "tenhou")
    abort, after = result.hands[1], result.hands[2]
    assert abort.deltas == tuple(-1000 if s in riichi else 0 for s in range(4))
    assert (after.dealer, after.honba, after.sticks) == (1, 2, len(riichi))  # dealer stays, honba +1


def test_abortive_draw_rejected_under_ema2016():
    rejected([PROBE, Hand.abort(reason="four_winds")], "ema2016", match="abortive draws are not played")


def test_abortive_draw_without_honba_override():
    result = play([*honba_draws(1), Hand.abort(), PROBE], "tenhou", abortive_draw_honba=False)
    assert (result.hands[1].honba, result.hands[2].honba) == (1, 1)
    assert result.hands[2].dealer == 0


def test_abortive_draw_allowed_by_override():
    result = play([Hand.abort(riichi=(1,)), PROBE], "ema2016", abortive_draws=True)
    assert (result.hands[1].dealer, result.hands[1].honba, result.hands[1].sticks) == (0, 1, 1)


# -- chombo ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "points"), [("ema2016", -20000), ("ema2025", -20000), ("wrc2022", -30000)]
)
@pytest.mark.parametrize("offender", [0, 2])
def test_chombo_deduction(preset, points, offender):
    hands = [
        Hand.draw((0, 1, 2, 3), riichi=(3,)),  # honba 1, one stick on the table
        Hand.chombo(offender, riichi=(1, offender)),
        PROBE,
    ]
    result = play(hands, preset)
    chombo, after = result.hands[1], result.hands[2]
    assert chombo.deltas == (0, 0, 0, 0)  # no points move; deposits made this hand come back
    assert chombo.scores == result.hands[0].scores
    assert (after.round, after.dealer, after.honba, after.sticks) == ("E1", 0, 1, 1)
    expected = [0, 0, 0, 0]
    expected[offender] = points
    assert tuple(chombo.penalties) == tuple(expected)
    assert result.penalties == expected
    final = result.final()
    assert final.penalties == tuple(expected)


def test_two_chombos_add_up():
    result = play([Hand.chombo(1), Hand.chombo(1), Hand.chombo(3)])
    assert result.penalties == [0, -40000, 0, -20000]


@pytest.mark.parametrize(
    ("offender", "deltas"),
    [
        pytest.param(0, (-12000, 4000, 4000, 4000), id="dealer-pays-4000-x3"),
        pytest.param(2, (4000, 2000, -8000, 2000), id="non-dealer-pays-4000-2000-2000"),
        pytest.param(1, (4000, -8000, 2000, 2000), id="non-dealer-next-to-dealer"),
    ],
)
def test_chombo_reverse_mangan(offender, deltas):
    hands = [*honba_draws(2), Hand.chombo(offender, riichi=(3,)), PROBE]
    result = play(hands, "ema2016", chombo="reverse_mangan")
    chombo, after = result.hands[2], result.hands[3]
    assert chombo.deltas == deltas  # no honba; the deposit of seat 3 is returned
    assert chombo.penalties == (0, 0, 0, 0)
    assert result.penalties == [0, 0, 0, 0]
    assert (after.dealer, after.honba, after.sticks) == (0, 2, 0)


def test_chombo_reverse_mangan_dealer_other_than_seat_0():
    result = play([*rotations(1), Hand.chombo(1)], "ema2016", chombo="reverse_mangan")
    assert result.hands[1].deltas == (4000, -12000, 4000, 4000)


def test_chombo_rejected_under_tenhou():
    rejected([PROBE, Hand.chombo(2)], "tenhou", match="a chombo cannot happen under this ruleset")


# -- pao ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "prefix", "hand", "deltas"),
    [
        # tsumo: the liable player pays the whole hand as a ron, honba included
        pytest.param(
            "ema2016", 1, Hand.tsumo(Win(2, yakuman=1, pao=1)), (0, -32300, 32300, 0), id="tsumo-non-dealer"
        ),
        pytest.param(
            "ema2016", 1, Hand.tsumo(Win(0, yakuman=1, pao=3)), (48300, 0, 0, -48300), id="tsumo-dealer"
        ),
        # ron: liable and discarder pay half each; the discarder pays the honba
        pytest.param(
            "ema2016",
            1,
            Hand.ron(3, Win(2, yakuman=1, pao=1)),
            (0, -16000, 32300, -16300),
            id="ron-non-dealer",
        ),
        pytest.param(
            "ema2016", 2, Hand.ron(2, Win(0, yakuman=1, pao=1)), (48600, -24000, -24600, 0), id="ron-dealer"
        ),
        # double yakuman, tsumo: one yakuman as a ron (with honba) from the liable player, the rest as a tsumo
        pytest.param(
            "wrc2022",
            1,
            Hand.tsumo(Win(2, yakuman=2, pao=1)),
            (-16000, -32300 - 8000, 32300 + 32000, -8000),
            id="double-yakuman-tsumo-non-dealer",
        ),
        pytest.param(
            "tenhou",
            1,
            Hand.tsumo(Win(0, yakuman=2, pao=2)),
            (48300 + 48000, -16000, -48300 - 16000, -16000),
            id="double-yakuman-tsumo-dealer",
        ),
        # double yakuman, ron: the liable player pays half of one yakuman's ron value, the discarder the rest
        pytest.param(
            "wrc2022",
            1,
            Hand.ron(3, Win(2, yakuman=2, pao=1)),
            (0, -16000, 64300, -48300),
            id="double-yakuman-ron-non-dealer",
        ),
        pytest.param(
            "tenhou",
            0,
            Hand.ron(3, Win(0, yakuman=2, pao=1)),
            (96000, -24000, 0, -72000),
            id="double-yakuman-ron-dealer",
        ),
        # a liable seat that is the winner or the discarder changes nothing
        pytest.param(
            "ema2016",
            0,
            Hand.tsumo(Win(2, yakuman=1, pao=2)),
            (-16000, -8000, 32000, -8000),
            id="pao-is-winner-tsumo",
        ),
        pytest.param(
            "ema2016", 0, Hand.ron(3, Win(2, yakuman=1, pao=2)), (0, 0, 32000, -32000), id="pao-is-winner-ron"
        ),
        pytest.param(
            "ema2016",
            1,
            Hand.ron(3, Win(2, yakuman=1, pao=3)),
            (0, 0, 32300, -32300),
            id="pao-is-discarder-ron",
        ),
    ],
)
def test_pao(preset, prefix, hand, deltas):
    result = play([*honba_draws(prefix), hand], preset)
    assert result.hands[prefix].honba == prefix
    assert result.hands[prefix].deltas == deltas


def test_pao_in_a_double_ron():
    hands = [Hand.ron(3, Win(2, yakuman=1, pao=1), Win(0, 1, 30))]
    result = play(hands, "ema2016")
    assert result.hands[0].deltas == (1500, -16000, 32000, -17500)


@pytest.mark.parametrize(
    "win",
    [Win(2, 5, pao=1), Win(2, 13, pao=1), Win(2, 3, 30, pao=1)],
    ids=["mangan", "kazoe", "3-30"],
)
@pytest.mark.parametrize("tsumo", [True, False], ids=["tsumo", "ron"])
def test_pao_on_a_non_yakuman_rejected(win, tsumo):
    hand = Hand.tsumo(win) if tsumo else Hand.ron(3, win)
    rejected([hand], "tenhou", match="pao applies only to a yakuman win")


def test_pao_seat_out_of_range_rejected():
    rejected([Hand.tsumo(Win(2, yakuman=1, pao=4))], "ema2016", match="pao must be a seat from 0 to 3")


def test_pao_rejected_without_pao_yaku():
    rejected([Hand.tsumo(Win(2, yakuman=1, pao=1))], "ema2016", match="no liability (pao)", pao_yaku=[])


# -- riichi below 1000 -------------------------------------------------------------------------------


def low_seat_3():
    """Seat 3 at 1000 after hand 2 and at 700 after hand 3, from a 25000 start."""
    return [
        Hand.ron(3, Win(1, 6)),  # E1: 3 pays 12000 → 13000
        Hand.ron(3, Win(2, 6)),  # E2: 3 pays 12000 → 1000
        Hand.tsumo(Win(0, 1, 30)),  # E3 (dealer 2): 3 pays 300 → 700
    ]


@pytest.mark.parametrize("preset", ["tenhou", "mleague"])
def test_riichi_below_1000_rejected(preset):
    hands = low_seat_3()
    error = rejected(
        [*hands, Hand.draw((3,), riichi=(3,))], preset, match="seat 3 cannot declare riichi with 700"
    )
    assert error.field == "riichi"


@pytest.mark.parametrize("preset", ["tenhou", "mleague"])
def test_riichi_with_exactly_1000_allowed(preset):
    hands = low_seat_3()
    result = play([*hands[:2], Hand.draw((3,), riichi=(3,))], preset)
    assert result.hands[2].scores[3] == 1000 - 1000 + 3000


def test_riichi_below_1000_allowed_under_ema2016():
    result = play([*low_seat_3(), Hand.draw((3,), riichi=(3,))], "ema2016", start_points=25000)
    assert result.hands[2].scores[3] == 700
    assert result.hands[3].scores[3] == 700 - 1000 + 3000


def test_riichi_below_1000_override():
    result = play([*low_seat_3(), Hand.draw((3,), riichi=(3,))], "tenhou", riichi_below_1000=True)
    assert result.hands[3].deltas[3] == 2000


# -- renchan and honba -------------------------------------------------------------------------------


def test_renchan_and_honba_reset():
    hands = [
        Hand.ron(2, Win(0, 1, 30)),  # dealer wins: stays, honba 1
        Hand.tsumo(Win(0, 1, 30)),  # dealer wins: stays, honba 2
        Hand.draw((1,)),  # dealer noten: rotates, honba 3
        Hand.draw((1, 2)),  # dealer 1 tenpai: stays, honba 4
        Hand.ron(1, Win(2, 1, 30)),  # non-dealer wins: rotates, honba 0
        Hand.chombo(1),  # E3 chombo: same dealer, same honba
        Hand.tsumo(Win(2, 1, 30)),  # dealer 2 wins: honba 1
        Hand.ron(0, Win(3, 1, 30)),  # non-dealer wins: E4, honba 0
        PROBE,
    ]
    result = play(hands)
    got = [(h.round, h.dealer, h.honba) for h in result.hands]
    assert got == [
        ("E1", 0, 0),
        ("E1", 0, 1),
        ("E1", 0, 2),
        ("E2", 1, 3),
        ("E2", 1, 4),
        ("E3", 2, 0),
        ("E3", 2, 0),
        ("E3", 2, 1),
        ("E4", 3, 0),
    ]
    assert result.hands[4].deltas == (0, -(1000 + 1200), 1000 + 1200, 0)


# -- end of the game ---------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["ema2016", "ema2025", "wrc2022", "mleague"])
def test_hanchan_ends_after_south_4(preset):
    result = play(rotating_rons(8), preset)
    assert [h.round for h in result.hands] == ["E1", "E2", "E3", "E4", "S1", "S2", "S3", "S4"]
    assert [h.dealer for h in result.hands] == [0, 1, 2, 3, 0, 1, 2, 3]
    assert result.finished
    assert not play(rotating_rons(7), preset).finished


def test_dealer_renchan_in_south_4_continues_ema2016():
    s4_dealer_wins = Hand.tsumo(Win(3, 5))  # dealer 3 first by far: no agari-yame under ema2016
    result = play([*rotating_rons(7), s4_dealer_wins])
    assert result.hands[-1].round == "S4"
    assert not result.finished
    result = play([*rotating_rons(7), s4_dealer_wins, Hand.draw((3,))])  # dealer tenpai: continues
    assert not result.finished
    result = play([*rotating_rons(7), s4_dealer_wins, Hand.draw((3,)), Hand.draw((0,))])
    assert result.hands[-1].round == "S4"
    assert result.finished


@pytest.mark.parametrize("preset", ["ema2016", "tenhou"])
def test_abort_or_chombo_in_south_4_continues(preset):
    last = Hand.abort() if preset == "tenhou" else Hand.chombo(1)
    result = play([*rotations(7), last], preset)
    assert result.hands[-1].round == "S4"
    assert not result.finished


def test_tonpuusen_ends_after_east_4():
    result = play(rotating_rons(4), "ema2016", length="tonpuusen")
    assert result.finished
    assert result.hands[-1].round == "E4"
    assert not play(rotating_rons(3), "ema2016", length="tonpuusen").finished
    rejected([*rotating_rons(5)], "ema2016", match="the game already ended after hand 4", length="tonpuusen")


def test_tonpuusen_dealer_renchan_in_east_4_continues():
    result = play([*rotating_rons(3), Hand.tsumo(Win(3, 1, 30))], "ema2016", length="tonpuusen")
    assert not result.finished


def test_tobi_tenhou():
    hands = [
        Hand.ron(3, Win(1, 6)),  # 13000
        Hand.ron(3, Win(2, 6)),  # 1000
        Hand.ron(3, Win(0, 1, 30)),  # exactly 0: plays on
    ]
    result = play(hands, "tenhou")
    assert result.hands[-1].scores[3] == 0
    assert not result.finished
    hands.append(Hand.tsumo(Win(0, 1, 30)))  # E4: dealer 3 pays 500 → -500
    result = play(hands, "tenhou")
    assert result.hands[-1].scores[3] == -500
    assert result.finished
    error = rejected([*hands, PROBE], "tenhou", match="the game already ended after hand 4")
    assert error.hand == 5


def test_no_tobi_under_ema2016():
    hands = [Hand.ron(3, Win(1, yakuman=1)), PROBE]
    result = play(hands, "ema2016")
    assert result.hands[0].scores[3] == -2000
    assert not result.finished


def test_tobi_override():
    hands = [Hand.ron(3, Win(1, yakuman=1))]
    assert play(hands, "ema2016", tobi=True).finished


def seat_3_leads_into_south_4():
    """Seat 3 wins 12000 in E1, then six draws with nobody tenpai: South 4, dealer 3 at 37000."""
    return [Hand.ron(0, Win(3, 6)), *rotations(6)]


def test_agari_yame_dealer_wins_and_is_first():
    hands = [*seat_3_leads_into_south_4(), Hand.tsumo(Win(3, 1, 30))]
    result = play(hands, "tenhou")
    last = result.hands[-1]
    assert (last.round, last.dealer) == ("S4", 3)
    assert last.scores[3] >= 30000 and last.scores[3] == max(last.scores)
    assert result.finished


def test_agari_yame_dealer_tenpai_and_first():
    result = play([*seat_3_leads_into_south_4(), Hand.draw((3,))], "tenhou")
    assert result.hands[-1].round == "S4"
    assert result.finished


def test_agari_yame_not_under_ema2016():
    result = play([*seat_3_leads_into_south_4(), Hand.tsumo(Win(3, 1, 30))], "ema2016")
    assert not result.finished


def test_agari_yame_dealer_wins_but_not_first_continues():
    hands = [Hand.ron(0, Win(1, 6)), *rotations(6), Hand.tsumo(Win(3, 1, 30))]
    result = play(hands, "tenhou")
    last = result.hands[-1]
    assert (last.round, last.dealer) == ("S4", 3)
    # honba 6 after the six draws: each pays 500 + 600
    assert last.scores == (13000 - 1100, 37000 - 1100, 25000 - 1100, 25000 + 3300)
    assert not result.finished
    # the next hand without renchan ends the game (seat 1 has the goal)
    result = play([*hands, Hand.draw((1,))], "tenhou")
    assert result.finished


def test_agari_yame_dealer_first_below_goal_continues_into_west():
    hands = [*rotations(7), Hand.tsumo(Win(3, 1, 30))]  # dealer 3 at 26500: first but below 30000
    result = play(hands, "tenhou")
    assert not result.finished
    result = play([*hands, Hand.draw()], "tenhou")
    assert not result.finished  # nobody at 30000 after S4: west
    assert play([*hands, Hand.draw(), PROBE], "tenhou").hands[-1].round == "W1"


def test_west_extension():
    result = play(rotations(8), "tenhou")
    assert result.hands[-1].round == "S4"
    assert not result.finished  # nobody has 30000 after South 4
    result = play([*rotations(8), Hand.ron(2, Win(1, 1, 30))], "tenhou")
    assert result.hands[-1].round == "W1"
    assert not result.finished  # nobody at 30000 yet
    result = play([*rotations(8), Hand.ron(2, Win(1, 6))], "tenhou")
    assert (result.hands[-1].round, result.hands[-1].honba) == ("W1", 8)
    assert result.hands[-1].scores[1] == 25000 + 12000 + 8 * 300
    assert result.finished  # a West hand that leaves someone at the goal ends the game


@pytest.mark.parametrize(
    ("win", "score", "finished"),
    [
        pytest.param(Win(1, 2, 40), 30000, True, id="exactly-the-goal-ends"),
        pytest.param(Win(1, 2, 30), 29400, False, id="below-the-goal-continues"),
    ],
)
def test_west_extension_goal_is_inclusive(win, score, finished):
    # W1 with honba 8 (eight draws): the ron pays its value + 2400
    result = play([*rotations(8), Hand.ron(2, win)], "tenhou")
    assert result.hands[-1].scores[1] == score
    assert result.finished is finished


def test_west_extension_dealer_keeps_the_deal():
    hands = [*rotations(8), Hand.ron(2, Win(0, 6))]  # W1 dealer 0 wins 18000: 43000, first
    result = play(hands, "tenhou")
    assert result.hands[-1].round == "W1"
    assert result.finished  # agari-yame
    hands = [*rotations(8), Hand.ron(1, Win(0, 1, 30))]  # dealer keeps the deal, below the goal
    assert not play(hands, "tenhou").finished


def test_west_4_is_the_last_deal():
    result = play(rotations(11), "tenhou")
    assert result.hands[-1].round == "W3"
    assert not result.finished
    result = play(rotations(12), "tenhou")
    assert result.hands[-1].round == "W4"
    assert result.finished
    rejected(rotations(13), "tenhou", match="the game already ended after hand 12")


def test_no_west_extension_under_ema2016():
    assert play(rotations(8), "ema2016").finished


def test_hand_after_the_end_is_rejected():
    error = rejected([*rotating_rons(8), PROBE], "ema2016", match="the game already ended after hand 8")
    assert error.hand == 9
    assert str(error) == "hand 9: the game already ended after hand 8"


def test_record_stopping_early_is_valid_and_not_finished():
    result = play(rotating_rons(3))
    assert not result.finished
    assert len(result.hands) == 3
    final = result.final()
    assert final.scores == tuple(result.state.scores)
    assert sum(final.results) == 0


def test_empty_record():
    result = play([])
    assert not result.finished
    assert result.hands == []
    assert result.final().scores == (30000, 30000, 30000, 30000)
