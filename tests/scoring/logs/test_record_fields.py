"""The record's optional facts of online games: per win ``yaku``, ``dora``, ``aka``, ``ura``; ``log``.

They say what a hand was made of and where a game comes from, never what it is worth: a record replays
to the same points with or without them. The reader holds them to bounds with one-line errors naming the
hand and the field; the writer writes them back so that a record read and written is unchanged.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import LogInfo, RecordError, ScoredYaku, load_record, record_from_dict, replay_output
from scoring.engine.logs.yaku import YAKU

RON_WITH_FACTS: dict[str, Any] = {
    "result": "ron",
    "loser": 2,
    "wins": [
        {
            "winner": 0,
            "han": 4,
            "fu": 30,
            "yaku": [{"name": "riichi", "han": 1}, {"name": "pinfu", "han": 1}],
            "dora": 1,
            "aka": 1,
            "ura": 0,
        }
    ],
    "riichi": [0],
}
YAKUMAN_TSUMO: dict[str, Any] = {
    "result": "tsumo",
    "winner": 3,
    "yakuman": 2,
    "pao": 1,
    "yaku": [{"name": "daisangen", "yakuman": 1}, {"name": "tsuuiisou", "yakuman": 1}],
}


def record(*hands: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"format": 1, "rules": "tenhou", **extra, "hands": list(hands)}


def strip_facts(data: dict[str, Any]) -> dict[str, Any]:
    out = json.loads(json.dumps(data))
    out.pop("log", None)
    for hand in out["hands"]:
        for win in hand.get("wins", [hand]):
            for key in ("yaku", "dora", "aka", "ura"):
                win.pop(key, None)
    return out


def test_facts_are_read_written_back_and_do_not_change_payments() -> None:
    data = record(
        RON_WITH_FACTS, YAKUMAN_TSUMO, log={"source": "tenhou", "id": "2023061523gm-0089-0000-1a2b3c4d"}
    )
    read = record_from_dict(data)
    assert read.to_dict() == data
    assert read.log == LogInfo(source="tenhou", id="2023061523gm-0089-0000-1a2b3c4d")
    win = read.hands[0].wins[0]
    assert win.yaku == (ScoredYaku("riichi", han=1), ScoredYaku("pinfu", han=1))
    assert (win.dora, win.aka, win.ura) == (1, 1, 0)
    assert read.hands[1].wins[0].yaku == (
        ScoredYaku("daisangen", yakuman=1),
        ScoredYaku("tsuuiisou", yakuman=1),
    )
    assert replay_output(read) == replay_output(record_from_dict(strip_facts(data)))


def test_a_record_without_facts_is_written_as_before() -> None:
    data = strip_facts(record(RON_WITH_FACTS))
    assert record_from_dict(data).to_dict() == data


def _with(win_fields: dict[str, Any]) -> dict[str, Any]:
    hand = json.loads(json.dumps(RON_WITH_FACTS))
    hand["wins"][0].update(win_fields)
    return record({"result": "draw", "tenpai": []}, hand)


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"yaku": "riichi"}, "'yaku' must be a list of yaku"),
        ({"yaku": ["riichi"]}, "'yaku' must list objects"),
        ({"yaku": [{"name": "reach", "han": 1}]}, "'yaku': unknown yaku 'reach'"),
        ({"yaku": [{"name": "dora", "han": 1}]}, "unknown yaku 'dora'"),
        ({"yaku": [{"name": "riichi"}]}, "riichi needs either 'han' or 'yakuman'"),
        ({"yaku": [{"name": "riichi", "han": 1, "yakuman": 1}]}, "not both"),
        (
            {"yaku": [{"name": "riichi", "han": 0}]},
            "'han' of yaku riichi must be a whole number from 1 to 13",
        ),
        ({"yaku": [{"name": "riichi", "han": True}]}, "from 1 to 13, not True"),
        ({"yaku": [{"name": "daisangen", "yakuman": 7}]}, "'yakuman' of yaku daisangen"),
        ({"yaku": [{"name": "riichi", "han": 1}] * 31}, "'yaku' lists 31 yaku: at most 30"),
        ({"dora": -1}, "'dora' (dora in the hand) must be a whole number from 0 to 99, not -1"),
        ({"aka": "2"}, "'aka' (red fives in the hand) must be a whole number"),
        ({"ura": 10**30}, "'ura' (ura dora in the hand)"),
    ],
)
def test_bad_win_facts_name_the_hand_and_the_field(fields: dict[str, Any], words: str) -> None:
    with pytest.raises(RecordError) as caught:
        record_from_dict(_with(fields))
    message = str(caught.value)
    assert message.startswith("hand 2: ") and words in message, message
    assert "\n" not in message and len(message) < 300


@pytest.mark.parametrize(
    ("log", "words"),
    [
        ("tenhou", "log: must be an object"),
        ({"id": "x"}, "log: 'source' must be one of tenhou, mahjongsoul, not None"),
        ({"source": "riichi city"}, "not 'riichi city'"),
        ({"source": "tenhou", "id": 12}, "log: 'id' must be text"),
        ({"source": "tenhou", "id": "x" * 101}, "'id' is 101 characters long; at most 100"),
        ({"source": "tenhou", "lobby": "L1\x00"}, "'lobby' holds the character U+0000"),
    ],
)
def test_bad_log_info_is_one_line(log: Any, words: str) -> None:
    with pytest.raises(RecordError) as caught:
        record_from_dict(record(log=log))
    assert words in str(caught.value) and "\n" not in str(caught.value)


YAKU_NAMES = [y.name for y in YAKU]
scored_yaku = st.one_of(
    st.builds(lambda n, h: {"name": n, "han": h}, st.sampled_from(YAKU_NAMES), st.integers(1, 13)),
    st.builds(lambda n, y: {"name": n, "yakuman": y}, st.sampled_from(YAKU_NAMES), st.integers(1, 6)),
)


@settings(max_examples=200, deadline=None)
@given(
    yaku=st.none() | st.lists(scored_yaku, max_size=30),
    counts=st.fixed_dictionaries({}, optional={k: st.integers(0, 99) for k in ("dora", "aka", "ura")}),
    log=st.none()
    | st.builds(
        lambda s, i, lobby: {"source": s, **({"id": i} if i else {}), **({"lobby": lobby} if lobby else {})},
        st.sampled_from(["tenhou", "mahjongsoul"]),
        st.text(st.characters(blacklist_categories=("Cc", "Cs")), max_size=100),
        st.text(st.characters(blacklist_categories=("Cc", "Cs")), max_size=100),
    ),
)
def test_any_valid_facts_survive_a_write_read_cycle(
    yaku: list[dict[str, Any]] | None, counts: dict[str, int], log: dict[str, Any] | None
) -> None:
    win: dict[str, Any] = {"winner": 1, "han": 5, **counts}
    if yaku is not None:
        win["yaku"] = yaku
    data = record({"result": "tsumo", **win}, **({"log": log} if log else {}))
    read = load_record(json.dumps(data))
    assert read.to_dict() == data
    assert load_record(json.dumps(read.to_dict())) == read
