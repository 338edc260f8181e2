"""Hands written as tiles, scored through the ``mahjong`` library.

Every expected han and fu is counted by hand from the rules (the comment above each case shows the count),
not copied from the library's output, so that a wrong mapping of rules or flags shows up here.
"""

from __future__ import annotations

import pytest

from scoring.engine.errors import EngineError, TileError
from scoring.engine.ruleset import make_ruleset
from scoring.engine.tiles import TileHand, TileScore, parse_tiles, score_tiles

EMA = make_ruleset("ema2016")  # no red fives, open tanyao, yakuman do not stack, kazoe capped at sanbaiman
TENHOU = make_ruleset("tenhou")  # 3 red fives, yakuman stack, kazoe yakuman

# 123m 456m 345p 789s 99p, waiting on 45p (3p or 6p): a pinfu shape with terminals (no tanyao).
PINFU = "123456m34599p789s"


def score(rules=EMA, **kwargs) -> TileScore:
    return score_tiles(TileHand(**kwargs), rules)


def fails(message: str, rules=EMA, **kwargs) -> TileError:
    with pytest.raises(TileError, match=message) as info:
        score(rules, **kwargs)
    return info.value


# -- ordinary hands ------------------------------------------------------------------------------------------


def test_riichi_pinfu_tsumo():
    # riichi 1 + menzen tsumo 1 + pinfu 1 = 3 han; pinfu tsumo: 20 fu, no tsumo fu
    result = score(tiles=PINFU, win_tile="3p", tsumo=True, riichi=True)
    assert (result.han, result.fu, result.yakuman) == (3, 20, 0)
    assert set(result.yaku) == {"Riichi 1", "Pinfu 1", "Menzen Tsumo 1"}
    assert result.fu_details == (("Base", 20),)


def test_pinfu_ron_is_30_fu():
    # pinfu 1; closed ron: 20 + 10 = 30 fu
    result = score(tiles=PINFU, win_tile="3p")
    assert (result.han, result.fu) == (1, 30)
    assert result.yaku == ("Pinfu 1",)
    assert result.fu_details == (("Base (closed ron)", 30),)


def test_chiitoitsu_is_25_fu():
    # 11m 33m 55p 77p 22s 88s 66z, ron on the green dragon: chiitoitsu 2 han, always 25 fu
    result = score(tiles="1133m5577p2288s66z", win_tile="6z")
    assert (result.han, result.fu) == (2, 25)
    assert result.yaku == ("Chiitoitsu 2",)
    assert result.fu_details == (("Base (seven pairs)", 25),)


def test_open_pon_rounds_up_to_30_fu():
    # pon of white dragons + 234m 678p 345s 99s, ron on 5s (two-sided): yakuhai 1 han;
    # 20 (open) + 4 (open honour pon) = 24 -> 30 fu
    result = score(tiles="234m678p34599s", win_tile="5s", melds=("pon:555z",))
    assert (result.han, result.fu) == (1, 30)
    assert result.yaku == ("Yakuhai (haku) 1",)
    assert result.fu_details == (("Base", 20), ("Open pon of terminals or honours", 4))


def test_double_east_for_the_dealer_in_the_east_round():
    # closed 111z + 234m 567p 789s 99m, ron on 4m (two-sided): seat wind 1 + round wind 1 = 2 han;
    # 30 (closed ron) + 8 (closed honour pon) = 38 -> 40 fu
    result = score(tiles="23499m567p789s111z", win_tile="4m", seat_wind=0, round_wind=0)
    assert (result.han, result.fu) == (2, 40)
    assert set(result.yaku) == {"Yakuhai (seat wind east) 1", "Yakuhai (round wind east) 1"}


def test_east_is_worth_one_han_to_south_in_the_east_round():
    result = score(tiles="23499m567p789s111z", win_tile="4m", seat_wind=1, round_wind=0)
    assert (result.han, result.fu) == (1, 40)
    assert result.yaku == ("Yakuhai (round wind east) 1",)


def test_closed_kan():
    # ankan 9999s + 234m 66m 567p 345s, riichi, ron on 3s (two-sided): riichi 1 han;
    # 30 (closed ron) + 32 (closed terminal kan) = 62 -> 70 fu. The closed kan keeps the hand closed.
    result = score(tiles="23466m567p345s", win_tile="3s", melds=("ankan:9999s",), riichi=True)
    assert (result.han, result.fu) == (1, 70)
    assert result.yaku == ("Riichi 1",)
    assert ("Closed kan of terminals or honours", 32) in result.fu_details


def test_rinshan_after_a_closed_kan():
    # riichi 1 + tsumo 1 + rinshan 1 = 3 han; 20 + 32 + 2 (tsumo) = 54 -> 60 fu
    result = score(
        tiles="23466m567p345s", win_tile="3s", melds=("ankan:9999s",), riichi=True, tsumo=True, rinshan=True
    )
    assert (result.han, result.fu) == (3, 60)
    assert set(result.yaku) == {"Riichi 1", "Menzen Tsumo 1", "Rinshan Kaihou 1"}


def test_open_kan_is_an_open_hand():
    # kan 2222m (open) + pon 777z + 345p 678s 99s, ron on 9s (pair wait):
    # yakuhai 1 han; 20 + 8 (open simple kan) + 4 (open honour pon) + 2 (pair wait) = 34 -> 40 fu
    result = score(tiles="345p67899s", win_tile="9s", melds=("kan:2222m", "pon:777z"))
    assert (result.han, result.fu) == (1, 40)
    assert result.yaku == ("Yakuhai (chun) 1",)


def test_riichi_on_an_open_hand_is_refused():
    fails(
        "riichi needs a closed hand", tiles="234m678p34599s", win_tile="5s", melds=("pon:555z",), riichi=True
    )


# -- dora and red fives --------------------------------------------------------------------------------------


def test_dora_and_red_five_only_when_red_fives_are_in_play():
    # the pinfu hand with a red 5p and the 2m indicator (dora 3m, one in the hand)
    hand = {
        "tiles": "123456m34099p789s",
        "win_tile": "3p",
        "tsumo": True,
        "riichi": True,
        "dora_indicators": "2m",
    }
    # ema2016: no red fives, the 0p is a plain 5p: 3 han + dora 1 = 4 han
    ema = score(EMA, **hand)
    assert (ema.han, ema.fu) == (4, 20)
    assert "Dora 1" in ema.yaku
    assert not any(y.startswith("Aka Dora") for y in ema.yaku)
    # tenhou: 3 red fives: + aka dora 1 = 5 han
    tenhou = score(TENHOU, **hand)
    assert (tenhou.han, tenhou.fu) == (5, 20)
    assert {"Dora 1", "Aka Dora 1"} <= set(tenhou.yaku)


def test_dora_indicator_wraps_around():
    # 9m indicates 1m (one in 123m), North indicates East, red dragon indicates white: 1 dora in all
    result = score(tiles=PINFU, win_tile="3p", tsumo=True, riichi=True, dora_indicators="9m4z7z")
    assert result.han == 4
    assert "Dora 1" in result.yaku


def test_ura_dora_count_with_riichi():
    # ura indicator 8s -> 9s, one in 789s: 3 han + ura 1
    result = score(tiles=PINFU, win_tile="3p", tsumo=True, riichi=True, ura_dora_indicators="8s")
    assert result.han == 4
    assert "Ura Dora 1" in result.yaku


def test_ura_dora_without_riichi_is_refused():
    fails("only for a riichi hand", tiles=PINFU, win_tile="3p", tsumo=True, ura_dora_indicators="8s")


def test_red_five_in_a_meld_counts():
    # open chi 406p with the red five (tenhou), + 234m 678m 345s 22s, ron on 2s (pair wait):
    # tanyao 1 + aka 1 = 2 han; 20 + 2 (pair wait) = 22 -> 30 fu
    result = score(TENHOU, tiles="234678m34522s", win_tile="2s", melds=("chi:406p",))
    assert (result.han, result.fu) == (2, 30)
    assert set(result.yaku) == {"Tanyao 1", "Aka Dora 1"}


def test_two_red_5p_in_a_four_red_set():
    rules = make_ruleset("tenhou", {"red_fives": 4})
    # 123m 456m 340p 789s 05p (two red 5p and a plain one), riichi tsumo on 3p (two-sided):
    # riichi 1 + tsumo 1 + pinfu 1 + aka dora 2 = 5 han, 20 fu
    result = score(rules, tiles="123456m34005p789s", win_tile="3p", tsumo=True, riichi=True)
    assert (result.han, result.fu) == (5, 20)
    assert "Aka Dora 2" in result.yaku


def test_too_many_red_fives_is_refused():
    fails("2 red 5p but the set has only 1", TENHOU, tiles="123456m34005p789s", win_tile="3p", tsumo=True)


def test_four_plain_fives_with_red_fives_in_play_is_refused():
    fails(
        "one of the four is red: write it as 0p",
        TENHOU,
        tiles="123456m789s11z",
        win_tile="1z",
        melds=("ankan:5555p",),
        tsumo=True,
    )


# -- open tanyao ---------------------------------------------------------------------------------------------


OPEN_TANYAO = {"tiles": "22567p345678s", "win_tile": "8s", "melds": ("chi:234m",)}


def test_open_tanyao_allowed():
    # chi 234m + 567p 345s 678s 22p, ron on 8s (two-sided): tanyao 1 han;
    # 20 (open) + nothing -> 2 fu for an open hand without fu = 22 -> 30 fu
    result = score(EMA, **OPEN_TANYAO)
    assert (result.han, result.fu) == (1, 30)
    assert result.yaku == ("Tanyao 1",)
    assert ("Open hand without fu", 2) in result.fu_details


def test_open_tanyao_forbidden_by_override():
    fails("no yaku", make_ruleset("ema2016", {"open_tanyao": False}), **OPEN_TANYAO)


def test_closed_tanyao_counts_without_open_tanyao():
    # the same tiles closed (234m in hand), ron: tanyao 1 + pinfu 1 = 2 han, 30 fu
    result = score(make_ruleset("ema2016", {"open_tanyao": False}), tiles="234m22567p345678s", win_tile="8s")
    assert (result.han, result.fu) == (2, 30)
    assert set(result.yaku) == {"Tanyao 1", "Pinfu 1"}


# -- yakuman and kazoe ---------------------------------------------------------------------------------------


def test_daisangen_is_a_yakuman():
    # 555z 666z 777z 123m 44p, ron on 4p
    result = score(tiles="123m44p555666777z", win_tile="4p")
    assert (result.han, result.fu, result.yakuman) == (0, 0, 1)
    assert result.yaku == ("Daisangen yakuman",)
    assert result.fu_details == ()


def test_kokushi_is_a_yakuman():
    # thirteen orphans with the 1m pair, ron on 9m: a single yakuman under any ruleset
    for rules in (EMA, TENHOU):
        result = score(rules, tiles="119m19p19s1234567z", win_tile="9m")
        assert result.yakuman == 1
        assert result.yaku == ("Kokushi Musou yakuman",)


def test_thirteen_sided_kokushi_is_double_only_when_yakuman_stack():
    # ron on the pair tile: the 13-sided wait
    hand = {"tiles": "119m19p19s1234567z", "win_tile": "1m"}
    assert score(TENHOU, **hand).yakuman == 2
    assert score(TENHOU, **hand).yaku == ("Kokushi Musou 13-sided wait double yakuman",)
    assert score(EMA, **hand).yakuman == 1


def test_two_yakuman_stack_only_when_the_ruleset_says_so():
    # pon 555z + 666z 777z 111z 22z: daisangen + tsuuiisou
    hand = {"tiles": "11122666777z", "win_tile": "2z", "melds": ("pon:555z",)}
    tenhou = score(TENHOU, **hand)
    assert tenhou.yakuman == 2
    assert set(tenhou.yaku) == {"Daisangen yakuman", "Tsuu Iisou yakuman"}
    assert score(EMA, **hand).yakuman == 1


def test_kazoe_hand_keeps_its_han():
    # 123m 123m 456m 789m 55m, riichi tsumo on 9m (two-sided), dora indicator 4m (three 5m):
    # riichi 1 + tsumo 1 + pinfu 1 + iipeiko 1 + ittsu 2 + chinitsu 6 + dora 3 = 15 han, 20 fu.
    # It is not a yakuman: han stay han, and the ruleset's kazoe_limit decides what 13+ han pay.
    hand = {
        "tiles": "11223345556789m",
        "win_tile": "9m",
        "tsumo": True,
        "riichi": True,
        "dora_indicators": "4m",
    }
    for rules in (EMA, TENHOU):
        result = score(rules, **hand)
        assert (result.han, result.fu, result.yakuman) == (15, 20, 0)
        assert set(result.yaku) == {
            "Riichi 1",
            "Menzen Tsumo 1",
            "Pinfu 1",
            "Iipeiko 1",
            "Ittsu 2",
            "Chinitsu 6",
            "Dora 3",
        }


def test_dora_do_not_add_to_a_yakuman():
    result = score(tiles="123m44p555666777z", win_tile="4p", dora_indicators="3p")
    assert result.yakuman == 1
    assert result.han == 0


# -- errors --------------------------------------------------------------------------------------------------


def test_no_yaku():
    # chi 123m + 456m 345p 789s 99p, ron: open, terminals, no yakuhai; dora are not a yaku
    error = fails("no yaku", tiles="456m34599p789s", win_tile="3p", melds=("chi:123m",), dora_indicators="8p")
    assert isinstance(error, EngineError)


def test_not_a_winning_hand():
    fails("the tiles do not form a winning hand", tiles="123m456p789s11223z", win_tile="3z")


@pytest.mark.parametrize("notation", ["x5m", "123", "12m3", "8z", "0z", "5q", "m"])
def test_bad_tile_notation(notation):
    error = fails("bad tile notation", tiles=notation, win_tile="5m")
    assert error.field == "tiles"


def test_bad_notation_message_quotes_the_input():
    fails("bad tile notation 'x5m'", tiles="x5m", win_tile="5m")


def test_bad_winning_tile():
    fails("bad tile notation", tiles=PINFU, win_tile="3x")
    fails("the winning tile must be one tile", tiles=PINFU, win_tile="34p")
    fails("the winning tile must be one tile", tiles=PINFU, win_tile="")


def test_winning_tile_missing():
    error = fails("winning tile 5s is not in the hand", tiles=PINFU, win_tile="5s")
    assert error.field == "win_tile"


def test_wrong_number_of_tiles():
    fails(
        r"hand has 13 tiles; a winning hand needs 14 \(counting each kan as 3\)",
        tiles="123456m3459p789s",
        win_tile="3p",
    )
    # a meld counts as three, so repeating its tiles in the concealed part is too many
    fails("hand has 17 tiles", tiles="234m678p34599s555z", win_tile="5s", melds=("pon:555z",))


def test_winning_tile_left_out_of_the_tiles_gets_a_hint():
    error = fails(
        "the tiles include the winning tile, so add 3z to them", tiles="123m456p789s2233z", win_tile="3z"
    )
    assert error.field == "tiles"


def test_kan_written_in_the_concealed_tiles_gets_a_hint():
    fails("a kan goes in melds, like ankan:9999s", tiles="23466m567p345s9999s", win_tile="3s")


def test_more_than_four_of_a_tile():
    fails("more than four 5m", tiles="55555m456p789s111z", win_tile="1z")
    # the dora indicator is a tile too
    fails(
        "more than four 6z",
        tiles="123m456p789s11z",
        win_tile="1z",
        melds=("pon:666z",),
        dora_indicators="6z6z",
    )


@pytest.mark.parametrize(
    ("meld", "message"),
    [
        ("pung:555z", "unknown kind 'pung'"),
        ("555z", "bad meld notation"),
        ("chi:135m", "chi needs three tiles in a row"),
        ("chi:123z", "chi needs three tiles in a row"),
        ("chi:891m", "chi needs three tiles in a row"),
        ("pon:556z", "pon needs 3 identical tiles"),
        ("ankan:999s", "ankan needs 4 identical tiles"),
        ("pon:5x5z", "bad tile notation"),
    ],
)
def test_bad_meld(meld, message):
    error = fails(message, tiles="234m678p34599s", win_tile="5s", melds=(meld,))
    assert error.field == "melds"


def test_meld_words_and_spacing():
    # shouminkan is an open kan; spaces and capitals are tolerated; a single string of melds is split
    a = score(tiles="345p67899s", win_tile="9s", melds=("kan:2222m", "pon:777z"))
    b = score(tiles="345p 678 99s", win_tile="9S", melds=("Shouminkan: 2222m", "pon:777z"))
    c = score(tiles="345p67899s", win_tile="9s", melds="kan:2222m, pon:777z")
    assert a == b == c


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        ({"ippatsu": True}, "ippatsu needs riichi"),
        ({"chankan": True, "tsumo": True}, "chankan"),
        ({"haitei": True}, "haitei is a tsumo"),
        ({"houtei": True, "tsumo": True}, "houtei is a ron"),
        ({"tenhou": True, "tsumo": True, "seat_wind": 2}, "seat wind must be East"),
        ({"chiihou": True, "tsumo": True, "seat_wind": 0}, "cannot be East"),
        ({"rinshan": True, "tsumo": True}, "has no kan"),
        ({"seat_wind": 4}, "seat wind must be 0-3"),
        ({"round_wind": -1}, "round wind must be 0-3"),
    ],
)
def test_contradictory_flags(flags, message):
    fails(message, tiles=PINFU, win_tile="3p", **flags)


def test_library_exceptions_become_tile_errors(monkeypatch):
    from mahjong.hand_calculating.hand import HandCalculator

    def broken(*args, **kwargs):
        raise IndexError("list index out of range")

    monkeypatch.setattr(HandCalculator, "estimate_hand_value", staticmethod(broken))
    fails("could not be scored", tiles=PINFU, win_tile="3p")


# -- the library's configuration is fresh on every call -----------------------------------------------------


def test_same_hand_twice_gives_the_same_result():
    hand = TileHand(tiles=PINFU, win_tile="3p", tsumo=True, riichi=True, dora_indicators="2m9s")
    assert score_tiles(hand, TENHOU) == score_tiles(hand, TENHOU)


def test_dora_count_does_not_leak_between_calls():
    # the library stores the dora count on its yaku objects: 2 dora, then 1, then 2 again
    two = TileHand(tiles=PINFU, win_tile="3p", tsumo=True, riichi=True, dora_indicators="2m3m")  # 3m, 4m
    one = TileHand(tiles=PINFU, win_tile="3p", tsumo=True, riichi=True, dora_indicators="2m")  # 3m
    first = score_tiles(two, EMA)
    assert first.han == 5
    assert score_tiles(one, EMA).han == 4
    assert score_tiles(two, EMA) == first


def test_double_yakuman_setting_does_not_leak_between_calls():
    # without stacking the library rewrites double yakuman to 13 han on its config
    hand = TileHand(tiles="119m19p19s1234567z", win_tile="1m")
    assert [score_tiles(hand, r).yakuman for r in (EMA, TENHOU, EMA, TENHOU)] == [1, 2, 1, 2]


def test_parse_tiles():
    tiles = parse_tiles("1m 0p 7z")
    assert [t.name for t in tiles] == ["1m", "0p", "7z"]
    assert [t.kind for t in tiles] == [0, 13, 33]
    assert parse_tiles("") == []
