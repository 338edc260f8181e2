"""Logs that cannot be converted: each is refused with one line saying what is wrong, never a crash.

Damaged files (not a log, bad JSON or XML, cut short, gzip garbage or a gzip bomb), logs Tenbou does not
record (three players), and logs that disagree with the rules their lobby played (a changed score, a
hand after the end): the error names the hand and shows the log's numbers beside the engine's.
"""

from __future__ import annotations

import copy
import gzip
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.engine import EngineError
from scoring.engine.logs import LogError, read_log
from scoring.engine.logs.reader import MAX_BYTES

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def tobi_log() -> dict[str, Any]:
    return json.loads((FIXTURES / "tenhou-hanchan-tobi.json").read_text(encoding="utf-8"))


def mjlog_text() -> str:
    return (FIXTURES / "tenhou-tonpuu-pao.xml").read_text(encoding="utf-8")


def refused(data: bytes | dict[str, Any] | list[Any], *, name: str = "log.json") -> str:
    """The one-line message a log is refused with."""
    if not isinstance(data, bytes):
        data = json.dumps(data, ensure_ascii=False).encode("utf-8")
    with pytest.raises(LogError) as caught:
        read_log(data, name=name)
    message = str(caught.value)
    assert "\n" not in message and 0 < len(message) < 400, message
    return message


def test_a_changed_score_change_names_the_hand_and_both_numbers() -> None:
    log = tobi_log()
    log["log"][2][16][1] = [-3900, -3900, 12700, -4900]  # a dealer tsumo that does not add up
    message = refused(log)
    assert message.startswith("hand 3: ")
    assert "[-3900, -3900, 12700, -4900]" in message and "[-3900, -3900, 11700, -3900]" in message


def test_a_changed_starting_score_names_the_hand() -> None:
    log = tobi_log()
    log["log"][3][1] = [6100, 22600, 41700, 29700]
    assert refused(log).startswith("hand 4: the log starts the hand at [6100, 22600, 41700, 29700]")


def test_a_round_the_rules_do_not_reach_names_the_hand() -> None:
    log = tobi_log()
    log["log"][2][0] = [3, 0, 0]  # the log says E4 where the rules say E3
    message = refused(log)
    assert message.startswith("hand 3: the log plays E4 with 0 honba")
    assert "E3 with 0 honba" in message


def test_wrong_final_scores() -> None:
    log = tobi_log()
    log["sc"][0] = -15900
    assert "the log's final scores are [-15900, 30600, 37700, 47500]" in refused(log)


def test_a_hand_after_the_end_of_the_game() -> None:
    log = tobi_log()
    log["log"].append(copy.deepcopy(log["log"][-1]))  # play on after seat 0 went below zero
    message = refused(log)
    assert message.startswith("hand 7: the log goes on after hand 6")
    assert "cannot express" in message


def test_an_unknown_yaku_is_named() -> None:
    log = tobi_log()
    log["log"][2][16][2][4] = "大車輪風(1飜)"
    assert "hand 3: seat 2's win lists a yaku Tenbou does not know: '大車輪風'" in refused(log)


def test_a_value_text_that_is_not_one() -> None:
    log = tobi_log()
    log["log"][2][16][2][3] = "many points"
    assert refused(log).startswith("hand 3: seat 2's win has a value the log format does not allow")


def test_a_three_player_game() -> None:
    log = tobi_log()
    log["rule"]["disp"] = "三般南喰赤"
    assert "three-player" in refused(log)
    xml = mjlog_text().replace('<GO type="161"', '<GO type="177"')
    assert "three-player" in refused(xml.encode(), name="x.mjlog")


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"hello", "not a game log"),
        (b"\xff\xfe\x00garbage", "not UTF-8"),
        (b'{"log": [', "not valid JSON"),
        (b"[]", "expected an object"),
        (b'{"title": "no log"}', "not a tenhou.net/6 log"),
        (b'{"log": []}', "no hand"),
        (b'{"log": [[1, 2, 3]]}', "hand 1: a hand must be a list of 17 items"),
        (b"<notmjlog/>", "not an mjlog"),
        (b"<mjloggm><INIT", "not valid XML"),
        (b"<mjloggm ver='2.3'></mjloggm>", "no hand"),
        (b"\x1f\x8b\x08\x00garbage", "not a readable gzip file"),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_not_a_log(data: bytes, words: str) -> None:
    assert words in refused(data)


def test_an_mjlog_cut_short() -> None:
    text = mjlog_text()
    cut = text[: text.index('<AGARI ba="4,4"')] + "</mjloggm>"
    assert refused(cut.encode(), name="x.mjlog").startswith("hand 6: the hand has no result")


def test_entity_declarations_are_refused() -> None:
    bomb = '<?xml version="1.0"?><!DOCTYPE m [<!ENTITY a "aaaaaaaaaa">]><mjloggm>&a;</mjloggm>'
    assert "DOCTYPE" in refused(bomb.encode(), name="x.mjlog")


def test_a_gzip_bomb_is_not_unpacked() -> None:
    bomb = gzip.compress(b" " * (MAX_BYTES + 10))
    assert len(bomb) < 100_000
    assert "larger than" in refused(bomb)


def test_a_fragment_of_a_game_converts_only_unchecked() -> None:
    """A log that starts in South 4 (a cut-out hand) cannot be checked against the rules from East 1:
    ``check=False`` still gives its hands, as facts, for a caller that knows what it asks for."""
    log = tobi_log()
    log["log"] = log["log"][5:]
    log["log"][0][0] = [7, 0, 0]
    del log["sc"]
    assert refused(log).startswith("hand 1: the log plays S4 with 0 honba")
    (record,) = read_log(json.dumps(log).encode(), name="cut.json", check=False)
    assert record.hands[0].wins[0].han == 6


def test_several_games_name_the_game() -> None:
    good = tobi_log()
    bad = tobi_log()
    bad["log"][1][1] = [1, 2, 3, 4]
    assert len(read_log(json.dumps([good, good]).encode(), name="two.json")) == 2
    assert refused([good, bad]).startswith("game 2: hand 2: the log starts the hand at [1, 2, 3, 4]")


# -- fuzz: any damage is converted or refused, never a crash ------------------------------------------------

JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**12), 10**12),
    st.floats(allow_nan=True),
    st.text(max_size=12),
    st.lists(st.integers(-5, 60), max_size=5),
    st.just(["和了"]),
    st.just("r60"),
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    paths = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            paths += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            paths += _paths(item, (*prefix, index))
    return paths


TOBI_PATHS = _paths(tobi_log())[1:]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edits=st.lists(st.tuples(st.sampled_from(TOBI_PATHS), JUNK), min_size=1, max_size=3))
def test_damaged_tenhou6_logs_are_converted_or_refused(edits: list[tuple[tuple[Any, ...], Any]]) -> None:
    log = tobi_log()
    for path, junk in edits:
        target: Any = log
        try:
            for key in path[:-1]:
                target = target[key]
            target[path[-1]] = junk
        except (KeyError, IndexError, TypeError):
            continue  # an earlier edit replaced a parent
    data = json.dumps(log, ensure_ascii=False).encode("utf-8")
    try:
        records = read_log(data, name="fuzz.json")
    except EngineError as exc:
        assert "\n" not in str(exc)
    else:
        for record in records:
            record.replay()


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=st.integers(0, 10**6), junk=st.text(alphabet='0123456789,"=<>/ -abyhT', max_size=6))
def test_damaged_mjlogs_are_converted_or_refused(position: int, junk: str) -> None:
    text = mjlog_text()
    at = position % len(text)
    try:
        records = read_log((text[:at] + junk + text[at + len(junk) :]).encode(), name="fuzz.mjlog")
    except EngineError as exc:
        assert "\n" not in str(exc)
    else:
        for record in records:
            record.replay()
