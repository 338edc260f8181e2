"""Reading and writing game records (the game-record contract), checked against its worked examples.

The record is a public contract (docs/game-record.md): scripts outside Tenbou compare ``replay``'s answers
with the worked examples of the contract, so the engine's output must equal them exactly. Those examples
(docs/game-record.md §9), and the two JSON blocks of the document itself (its example record and the
replay it prints, docs/game-record.md §1 and §6), are fixtures under ``tests/scoring/fixtures``
(``examples/`` and ``game-record/``); ``tests/test_docs.py`` checks that the document shows the same.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scoring.engine import (
    ABORT,
    CHOMBO,
    DRAW,
    RON,
    TSUMO,
    GameRecord,
    Hand,
    RecordError,
    Win,
    hand_to_dict,
    load_record,
    make_ruleset,
    record_from_dict,
    replay_output,
)

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
EXAMPLE_DIR = FIXTURES / "examples"
DOC_DIR = FIXTURES / "game-record"
EXAMPLES: list[str] = sorted(
    path.name.removesuffix(".json")
    for path in EXAMPLE_DIR.glob("*.json")
    if not path.name.endswith(".expected.json")
)


def read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def doc_record() -> dict[str, Any]:
    """The example record of docs/game-record.md §1, a fresh copy on every call."""
    record = read_json(DOC_DIR / "example.json")
    assert len(record["hands"]) == 7
    return record


def doc_replay() -> dict[str, Any]:
    """The ``replay`` output of docs/game-record.md §6: the example's first hand under ema2016."""
    return read_json(DOC_DIR / "example-first-hand.expected.json")


# Rules under which every hand of the document's example is legal: it holds a chombo (not under
# tenhou), an abortive draw and a nagashi (not under ema2016), a double ron with a pao yakuman (not under
# atamahane); under tenhou, seat 2 also goes below zero (tobi) and then pays a riichi deposit.
DOC_RULES = [
    {"preset": "ema2016", "abortive_draws": True, "nagashi_mangan": True},
    {"preset": "tenhou", "chombo": "deduction", "tobi": False, "riichi_below_1000": True},
]


# -- the worked examples --------------------------------------------------------------------------------


def test_examples_present() -> None:
    """Fail loudly rather than silently testing nothing when the example fixtures are missing."""
    assert len(EXAMPLES) == 4, f"expected the 4 worked examples in {EXAMPLE_DIR}, found {EXAMPLES}"
    for name in EXAMPLES:
        assert (EXAMPLE_DIR / f"{name}.expected.json").is_file(), f"{name}.expected.json is missing"


@pytest.mark.parametrize("name", EXAMPLES)
def test_example_replays_to_expected(name: str) -> None:
    """Each worked example replays to exactly its expected output (parsed JSON, not text)."""
    record = load_record((EXAMPLE_DIR / f"{name}.json").read_text(encoding="utf-8"))
    expected = read_json(EXAMPLE_DIR / f"{name}.expected.json")
    assert replay_output(record) == expected


@pytest.mark.parametrize("name", EXAMPLES)
def test_example_round_trips(name: str) -> None:
    """Written back, an example reads as the same record and replays the same."""
    data = read_json(EXAMPLE_DIR / f"{name}.json")
    record = record_from_dict(data)
    again = record_from_dict(json.loads(json.dumps(record.to_dict())))
    assert again == record
    assert replay_output(again) == replay_output(record)


# -- the example of docs/game-record.md -----------------------------------------------------------------


def test_doc_example_replay_of_first_hand() -> None:
    """docs/game-record.md's replay output is that of its example's first hand under ema2016."""
    data = {**doc_record(), "rules": "ema2016"}
    data["hands"] = data["hands"][:1]
    del data["penalties"]
    assert replay_output(record_from_dict(data)) == doc_replay()


def test_doc_example_replays_under_its_own_rules() -> None:
    """As printed, the example's rules allow every hand it holds (abortive draws, nagashi): it replays."""
    data = doc_record()
    assert data["rules"] == DOC_RULES[0]
    record = record_from_dict(data)
    assert len(record.replay().hands) == 7


@pytest.mark.parametrize("rules", DOC_RULES, ids=["ema2016+abort+nagashi", "tenhou+chombo"])
def test_doc_example_parses_and_round_trips(rules: dict[str, Any]) -> None:
    """With rules that allow all its outcomes, the 7-hand example reads, and is written back as it was."""
    data = {**doc_record(), "rules": rules}
    record = record_from_dict(data)
    assert [h.result for h in record.hands] == [RON, TSUMO, DRAW, RON, CHOMBO, ABORT, DRAW]
    assert record.players == ("Ann", "Bob", "Cho", "Dan")
    assert record.hands[3].wins[1] == Win(3, yakuman=1, pao=2)
    assert record.hands[6].nagashi == (2,)
    assert record.to_dict() == data  # the example is already in canonical form
    again = record_from_dict(json.loads(json.dumps(record.to_dict())))
    assert again == record
    assert replay_output(again) == replay_output(record)


def test_doc_example_values() -> None:
    """Hand by hand under ema2016 with abortive draws and nagashi, worked from docs/rules.md."""
    record = record_from_dict({**doc_record(), "rules": DOC_RULES[0]})
    out = replay_output(record)
    rows = [(h["round"], h["dealer"], h["honba"], h["sticks"], h["deltas"]) for h in out["hands"]]
    assert rows == [
        ("E1", 0, 0, 0, [7700, 0, -7700, 0]),  # dealer 3/40 ron 7700, own deposit back
        ("E1", 0, 1, 0, [-800, 1800, -500, -500]),  # 2/20 tsumo 400/700 + 100 honba each
        ("E2", 1, 0, 0, [1500, -1500, -1500, 500]),  # 2 tenpai ±1500, Dan's deposit on the table
        # double ron off Ann: Bob 2000 + 300, Dan yakuman 32000 with Cho liable for half + 300 (EMA:
        # honba to each); the stick goes to Bob, nearest Ann's right
        ("E3", 2, 1, 1, [-18600, 3300, -16000, 32300]),
        ("E4", 3, 0, 0, [0, 0, 0, 0]),  # chombo: deduction after uma, hand replayed
        ("E4", 3, 0, 0, [-1000, -1000, -1000, -1000]),  # four riichi abort: deposits stay, honba +1
        ("E4", 3, 1, 4, [-2000, -2000, 8000, -4000]),  # nagashi mangan for Cho, no noten payments
    ]
    assert out["finished"] is False
    final = out["final"]
    assert final["scores"] == [16800, 30600, 11300, 61300]  # the four sticks to Dan, first
    assert final["places"] == [3, 2, 4, 1]
    # the chombo hand's deduction and the record's penalty are both applied (see docs/game-record.md §1:
    # `penalties` are extra penalties; chombo deductions come from the chombo hands)
    expected = [0, 0, -20000, 0]  # Cho's chombo hand, a deduction after uma
    for penalty in doc_record().get("penalties", []):
        expected[penalty["seat"]] += penalty["points"]
    assert final["penalties"] == expected
    assert sum(final["results"]) == sum(expected)


# -- rules ------------------------------------------------------------------------------------------------


def record_with(rules: Any, *hands: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"format": 1, "rules": rules, "hands": list(hands), **extra}


KIRIAGE_RON = {"result": "ron", "loser": 2, "wins": [{"winner": 1, "han": 4, "fu": 30}]}


def test_rules_object_with_overrides() -> None:
    """``{"preset": …, overrides}`` applies the overrides and is written back the same way."""
    rules = {"preset": "ema2016", "kiriage": True, "uma": [20000, 10000, -10000, -20000]}
    record = record_from_dict(record_with(rules, KIRIAGE_RON))
    assert record.rules == make_ruleset("ema2016", {"kiriage": True, "uma": [20000, 10000, -10000, -20000]})
    assert record.rules.kiriage is True and record.rules.uma == (20000, 10000, -10000, -20000)
    assert replay_output(record)["hands"][0]["deltas"] == [0, 8000, -8000, 0]  # 4/30 as mangan
    assert replay_output(record)["final"]["uma"] == [0, 20000, -20000, 0]  # 2nd/3rd tied: shared
    assert record.to_dict()["rules"] == rules
    plain = record_from_dict(record_with("ema2016", KIRIAGE_RON))
    assert replay_output(plain)["hands"][0]["deltas"] == [0, 7700, -7700, 0]


def test_redundant_override_is_written_as_the_preset() -> None:
    """Canonical writing: overrides equal to the preset's own values are left out."""
    record = record_from_dict(record_with({"preset": "ema2025", "kiriage": True}, KIRIAGE_RON))
    assert record.to_dict()["rules"] == "ema2025"
    assert record.rules == make_ruleset("ema2025")


def test_rules_argument_replaces_the_records_rules() -> None:
    """``rules=`` (the command's ``--rules``) wins over the record's own."""
    record = record_from_dict(record_with("ema2016", KIRIAGE_RON), rules="tenhou")
    assert record.rules == make_ruleset("tenhou")
    assert replay_output(record)["hands"][0]["scores"] == [25000, 32700, 17300, 25000]


@pytest.mark.parametrize(
    ("rules", "words"),
    [
        ("ema1999", "unknown preset"),
        ({"kiriage": True}, "preset"),
        ({"preset": "ema2016", "bogus": 1}, "unknown setting 'bogus'"),
        ({"preset": "ema2016", "kiriage": "yes"}, "'kiriage' must be true or false"),
        ({"preset": "ema2016", "start_points": "30000"}, "'start_points' must be a whole number"),
        ({"preset": "ema2016", "uma": [15000, 5000, -5000, -5000]}, "'uma' must sum to 0"),
    ],
)
def test_bad_rules_are_rejected(rules: Any, words: str) -> None:
    """A record with rules the engine cannot build is invalid, with a message naming the setting."""
    with pytest.raises(RecordError) as caught:
        record_from_dict(record_with(rules, KIRIAGE_RON))
    assert caught.value.hand is None
    assert words in str(caught.value)


# -- players, canonical writing --------------------------------------------------------------------------


def test_players_are_optional() -> None:
    """Without names the record still reads, and none are invented when it is written."""
    record = record_from_dict(record_with("ema2016", KIRIAGE_RON))
    assert record.players is None
    assert "players" not in record.to_dict()
    named = record_from_dict(record_with("ema2016", KIRIAGE_RON, players=["Ann", "Bob", "Cho", "Dan"]))
    assert named.players == ("Ann", "Bob", "Cho", "Dan")
    assert named.to_dict()["players"] == ["Ann", "Bob", "Cho", "Dan"]
    assert replay_output(named) == replay_output(record)


def test_canonical_writing_omits_empty_optional_lists() -> None:
    """Empty ``riichi``, ``nagashi``, ``penalties`` (and absent ``fu``, ``reason``, ``pao``) are left out."""
    data = record_with(
        "mleague",
        {"result": "draw", "tenpai": [0], "riichi": [], "nagashi": []},
        {"result": "abort", "riichi": []},
        {"result": "tsumo", "winner": 2, "han": 6, "riichi": []},
        {"result": "ron", "loser": 1, "wins": [{"winner": 3, "han": 2, "fu": 30}], "riichi": []},
        penalties=[],
    )
    written = record_from_dict(data).to_dict()
    assert written == {
        "format": 1,
        "rules": "mleague",
        "hands": [
            {"result": "draw", "tenpai": [0]},
            {"result": "abort"},
            {"result": "tsumo", "winner": 2, "han": 6},
            {"result": "ron", "loser": 1, "wins": [{"winner": 3, "han": 2, "fu": 30}]},
        ],
    }


def test_canonical_writing_keeps_what_was_given() -> None:
    """Non-empty optional fields are written, in the document's names."""
    assert hand_to_dict(Hand.abort(riichi=(1,), reason="four_winds")) == {
        "result": "abort",
        "reason": "four_winds",
        "riichi": [1],
    }
    assert hand_to_dict(Hand.draw((1,), nagashi=(2,), riichi=(0,))) == {
        "result": "draw",
        "tenpai": [1],
        "nagashi": [2],
        "riichi": [0],
    }
    assert hand_to_dict(Hand.tsumo(Win(0, yakuman=2, pao=1))) == {
        "result": "tsumo",
        "winner": 0,
        "yakuman": 2,
        "pao": 1,
    }
    assert hand_to_dict(Hand.chombo(3)) == {"result": "chombo", "seat": 3}
    record = GameRecord(rules=make_ruleset("ema2016"), hands=(Hand.chombo(3),))
    data = record_from_dict(
        record_with("ema2016", {"result": "chombo", "seat": 3}, penalties=[{"seat": 1, "points": -5000}])
    ).to_dict()
    assert data["penalties"] == [{"seat": 1, "points": -5000, "reason": ""}]
    assert record.to_dict() == {"format": 1, "rules": "ema2016", "hands": [{"result": "chombo", "seat": 3}]}


def test_fu_may_be_omitted_from_five_han() -> None:
    """docs/game-record.md §3: ``fu`` may be omitted when han ≥ 5, and not below."""
    record = record_from_dict(record_with("ema2016", {"result": "tsumo", "winner": 1, "han": 5}))
    assert replay_output(record)["hands"][0]["deltas"] == [-4000, 8000, -2000, -2000]
    with pytest.raises(RecordError) as caught:
        record_from_dict(record_with("ema2016", {"result": "tsumo", "winner": 1, "han": 4}))
    assert caught.value.hand == 1


def test_record_that_stops_early_is_valid() -> None:
    """A time limit may stop a game before South 4: the record is valid and not finished."""
    record = record_from_dict(record_with("ema2016", KIRIAGE_RON))
    out = replay_output(record)
    assert out["finished"] is False
    assert out["final"]["scores"] == out["hands"][-1]["scores"]


def test_empty_record_replays_to_start() -> None:
    """No hands yet: everyone at the start points, tied."""
    out = replay_output(record_from_dict(record_with("ema2016")))
    assert out["hands"] == []
    assert out["finished"] is False
    assert out["final"]["scores"] == [30000] * 4
    assert out["final"]["places"] == [1, 1, 1, 1]
    assert out["final"]["results"] == [0, 0, 0, 0]


# -- limits (docs/game-record.md §4: one place, the reader, so that replay, import and the web agree) -----

OK_HAND = {"result": "draw", "tenpai": [0]}
ALL_TENPAI = {"result": "draw", "tenpai": [0, 1, 2, 3]}  # the dealer stays: the game never ends
ABORTS = {"preset": "ema2016", "abortive_draws": True}
PLAYERS = ["Ann", "Bob", "Cho", "Dan"]


def tsumo(**value: Any) -> dict[str, Any]:
    return {"result": "tsumo", "winner": 1, **value}


@pytest.mark.parametrize(
    ("record", "words"),
    [
        (record_with("ema2016", OK_HAND, tsumo(han=100)), "hand 2: 'han' must be from 1 to 99, not 100"),
        (record_with("ema2016", tsumo(han=32768)), "hand 1: 'han' must be from 1 to 99, not 32768"),
        (record_with("ema2016", tsumo(han=6, fu=32768)), "hand 1: fu 32768 does not exist"),
        (record_with("ema2016", tsumo(han=6, fu=-30)), "hand 1: fu -30 does not exist"),
        (record_with("ema2016", *[ALL_TENPAI] * 501), "hands: a record holds at most 500 hands, not 501"),
        (record_with("ema2016", round_number=0), "round_number: must be a whole number from 1 to 999, not 0"),
        (record_with("ema2016", round_number=1000), "round_number: must be a whole number from 1 to 999"),
        (record_with("ema2016", round_number=True), "round_number: must be a whole number from 1 to 999"),
        (record_with("ema2016", table_number=32768), "table_number: must be a whole number from 1 to 999"),
        (record_with("ema2016", table_number="3"), "table_number: must be a whole number from 1 to 999"),
        (
            record_with("ema2016", penalties=[{"seat": 0, "points": -1_000_001, "reason": ""}]),
            "penalty 1: points must be negative, from -1000000 to -1, not -1000001",
        ),
        (
            record_with("ema2016", penalties=[{"seat": 0, "points": -(2**31) - 1, "reason": ""}]),
            "penalty 1: points must be negative",
        ),
        (
            record_with("ema2016", penalties=[{"seat": 0, "points": -100, "reason": ""}] * 501),
            "penalties: a record holds at most 500 penalties, not 501",
        ),
        (
            record_with("ema2016", penalties=[{"seat": 0, "points": -100, "reason": "r" * 201}]),
            "penalty 1: reason is 201 characters long; at most 200 are allowed",
        ),
        (
            record_with("ema2016", penalties=[{"seat": 0, "points": -100, "reason": "a\x00b"}]),
            "penalty 1: reason holds the character U+0000",
        ),
        (
            record_with(ABORTS, OK_HAND, {"result": "abort", "reason": "x" * 21}),
            "hand 2: 'reason' is 21 characters long; at most 20 are allowed",
        ),
        (
            record_with(ABORTS, {"result": "abort", "reason": "four\twinds"}),
            "hand 1: 'reason' holds the character U+0009",
        ),
        (
            record_with("ema2016", players=["A\x00n", *PLAYERS[1:]]),
            "players: the name of seat 0 holds the character U+0000",
        ),
        (
            record_with("ema2016", players=[*PLAYERS[:3], "D\ud800"]),
            "players: the name of seat 3 holds the character U+D800",
        ),
        (
            record_with("ema2016", players=[*PLAYERS[:3], "\x85"]),
            "players: the name of seat 3 holds the character U+0085",
        ),
        (
            record_with("ema2016", players=["A" * 201, *PLAYERS[1:]]),
            "players: the name of seat 0 is 201 characters long",
        ),
        (
            record_with("ema2016", extra=json.loads("[" * 40 + "]" * 40)),
            "the record is nested more than 32 levels deep",
        ),
        (
            record_with(
                "ema2016",
                tsumo(han=3, fu=30, note=[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[0]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]),
            ),
            "nested more than 32",
        ),
        (record_with("ema2016") | {"format": True}, "format: unsupported format True"),
    ],
)
def test_limits_are_refused_with_the_rule(record: dict[str, Any], words: str) -> None:
    with pytest.raises(RecordError) as caught:
        record_from_dict(record)
    assert words in str(caught.value)
    assert "\n" not in str(caught.value)


def test_values_at_the_limits_are_accepted() -> None:
    """The limits are inclusive: han 99, yakuman 6, 500 hands, 200-character names, −1 000 000 points;
    one past them is refused."""
    record_from_dict(record_with("ema2016", tsumo(han=99)))
    record_from_dict(record_with("ema2016", tsumo(yakuman=6)))
    record_from_dict(record_with("ema2016", tsumo(han=6, fu=110)))
    assert len(record_from_dict(record_with("ema2016", *[ALL_TENPAI] * 500)).hands) == 500
    record = record_from_dict(
        record_with(
            ABORTS,
            {"result": "abort", "reason": "x" * 20},
            players=["A" * 200, "Zoë", "陳", "Dan 🀄"],
            penalties=[{"seat": 0, "points": -1_000_000, "reason": "r" * 200}],
            round_number=999,
            table_number=1,
        )
    )
    assert record.hands[0].reason == "x" * 20 and record.penalties[0].points == -1_000_000
    for past in (tsumo(han=100), tsumo(yakuman=7), {"result": "abort", "reason": "x" * 21}):
        with pytest.raises(RecordError):  # one past each limit
            record_from_dict(record_with(ABORTS, past))
    with pytest.raises(RecordError):
        record_from_dict(record_with("ema2016", round_number=1000, players=["A" * 201, *PLAYERS[1:]]))


def test_oversize_record_is_refused_before_any_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """A million hands: refused by their count at once, not read nor replayed. Checked by what runs, not
    by a clock: neither the walk over every element nor any hand's parsing may start."""
    from scoring.engine import record as record_module

    def never(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("an oversize record must be refused before its elements are read")

    monkeypatch.setattr(record_module, "_check_depth", never)
    monkeypatch.setattr(record_module, "hand_from_dict", never)
    data = record_with("ema2016", *[ALL_TENPAI] * 1_000_000)
    with pytest.raises(RecordError, match="at most 500 hands, not 1000000"):
        record_from_dict(data)


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ('{"hands": ' + "[" * 100_000 + "]" * 100_000 + "}", "not valid JSON: nested too deeply"),
        ('{"hands": [' + "7" * 4301 + "]}", "not valid JSON: a number has more than 4300 digits"),
        ('{"hands": [-' + "7" * 9000 + "]}", "not valid JSON: a number has more than 4300 digits"),
    ],
)
def test_json_that_python_cannot_read_is_a_record_error(text: str, line: str) -> None:
    """``json.loads`` raises RecursionError and a bare ValueError too: both are one RecordError line."""
    with pytest.raises(RecordError) as caught:
        load_record(text)
    assert str(caught.value) == line


def test_errors_quote_hostile_values_briefly() -> None:
    """An error quoting a huge or deeply nested value stays short (and repr cannot recurse too deep)."""
    deep: Any = 0
    for _ in range(31):
        deep = [deep]
    with pytest.raises(RecordError) as caught:
        record_from_dict(record_with("ema2016", {"result": "draw", "tenpai": deep}))
    assert len(str(caught.value)) < 200
    with pytest.raises(RecordError) as caught:
        record_from_dict(record_with("ema2016", {"result": "x" * 1_000_000}))
    assert len(str(caught.value)) < 200
