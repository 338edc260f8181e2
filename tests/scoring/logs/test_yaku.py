"""The yaku table: one romaji name per yaku, Tenhou's ids and the Japanese spellings both sites use."""

from __future__ import annotations

import re

import pytest

from scoring.engine.logs.yaku import (
    AKA,
    DORA,
    DORA_TENHOU_IDS,
    LOCAL,
    MAHJONGSOUL_DOUBLE,
    ROUND_WIND,
    SEAT_WIND,
    URA,
    YAKU,
    YAKU_BY_NAME,
    YAKU_BY_TENHOU_ID,
    from_japanese,
    is_yaku_name,
    wind_yaku,
)


def test_names_are_unique_romaji_with_an_english_meaning() -> None:
    names = [y.name for y in YAKU]
    assert len(names) == len(set(names))
    for yaku in YAKU:
        assert re.fullmatch(r"[a-z][a-z0-9_]*", yaku.name), yaku.name
        assert yaku.english and yaku.english[0].isupper()
        assert yaku.is_yakuman == (yaku.yakuman > 0)
        if not yaku.is_yakuman:
            assert 1 <= yaku.han_closed <= 6 and 0 <= yaku.han_open <= yaku.han_closed, yaku


def test_every_tenhou_id_maps_to_a_yaku_or_a_dora_kind() -> None:
    """mjlog's ids 0–51 are yaku, 52–54 dora, ura dora and red fives: all of them are known."""
    assert set(YAKU_BY_TENHOU_ID) == set(range(52))
    assert DORA_TENHOU_IDS == {52: DORA, 53: URA, 54: AKA}
    assert YAKU_BY_TENHOU_ID[1].name == "riichi" and YAKU_BY_TENHOU_ID[39].name == "daisangen"
    assert all(YAKU_BY_TENHOU_ID[i].is_yakuman for i in range(37, 52))


@pytest.mark.parametrize(
    ("japanese", "name"),
    [
        ("立直", "riichi"),
        ("門前清自摸和", "menzen_tsumo"),
        ("役牌 發", "hatsu"),
        ("役牌:發", "hatsu"),
        ("役牌 発", "hatsu"),
        ("自風 南", "jikaze_nan"),
        ("場風 東", "bakaze_ton"),
        ("両立直", "double_riichi"),
        ("ダブル立直", "double_riichi"),  # Mahjong Soul
        ("国士無双１３面", "kokushi_musou_13"),  # Tenhou, full-width digits
        ("国士無双13面", "kokushi_musou_13"),
        ("国士無双十三面待ち", "kokushi_musou_13"),  # Mahjong Soul
        ("純正九蓮宝燈", "junsei_chuuren_poutou"),
        ("ドラ", DORA),
        ("赤ドラ", AKA),
        ("裏ドラ", URA),
        ("役牌:自風牌", SEAT_WIND),
        ("役牌：場風牌", ROUND_WIND),
        ("八連荘", "paarenchan"),
    ],
)
def test_japanese_spellings(japanese: str, name: str) -> None:
    assert from_japanese(japanese) == name


def test_unknown_spellings_are_none() -> None:
    assert from_japanese("立直立直") is None
    assert from_japanese("") is None


def test_wind_yaku_from_the_wind_index() -> None:
    assert wind_yaku(SEAT_WIND, 0) == "jikaze_ton"
    assert wind_yaku(ROUND_WIND, 1) == "bakaze_nan"
    assert all(wind_yaku(kind, w) in YAKU_BY_NAME for kind in (SEAT_WIND, ROUND_WIND) for w in range(4))


def test_record_names() -> None:
    """A record names yaku only: dora kinds are counts, and the names are exact (no Japanese, no case)."""
    assert is_yaku_name("riichi") and is_yaku_name("kokushi_musou_13")
    assert not any(is_yaku_name(n) for n in ("dora", "aka", "ura", "Riichi", "立直", None, 3))


def test_mahjongsoul_doubles_and_local_yaku_are_in_the_table() -> None:
    assert set(YAKU_BY_NAME) >= MAHJONGSOUL_DOUBLE
    assert all(YAKU_BY_NAME[n].is_yakuman for n in MAHJONGSOUL_DOUBLE)
    assert {y.name for y in YAKU if y.kind == LOCAL} >= {"paarenchan", "tsubame_gaeshi", "daisharin"}
