"""Hostile and careless input to the commands: exit 0, or exit 2 with one line — never a traceback.

Issue 9 fed 323 bad inputs to ``replay`` and ``import_games`` and got tracebacks, multi-line errors and
runs of minutes. The whole class is fuzzed here: valid records (generated games with every extra field
``import_games`` reads) mutated by hypothesis — values replaced by deep nesting, integers of thousands
of digits, numbers beyond the database columns, wrong types, control characters, lone surrogates,
impossible dates, oversize lists — and run through both commands in process. Whatever the input, the
contract of docs/game-record.md §7 holds: exit 0 with JSON on standard output, or exit 2 with nothing on
standard output and exactly one line on standard error; and no run takes more than a few seconds.

Argument errors (an unknown option, a missing ``--event``) are one line too, for every command of the
project, in process and as the real process a script starts.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import random
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command, get_commands
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from league.models import Event
from scoring.engine import make_ruleset
from scoring.engine.generator import random_game

REPO = Path(__file__).resolve().parents[2]
PLAYERS = ("Ann", "Bob", "Cho", "Dan")
SECONDS = 5.0  # "no run takes more than a few seconds"

# -- valid records to start from -------------------------------------------------------------------------


def base_record(seed: int) -> dict[str, Any]:
    """A valid record with every extra field import_games reads (a generated ema2016 game)."""
    rng = random.Random(seed)
    game = random_game(make_ruleset("ema2016"), rng, stop_early=0.3, penalty_chance=0.6, players=PLAYERS)
    record = game.to_dict()
    for number, penalty in enumerate(record.get("penalties", [])):
        penalty["kind"] = "other" if number % 2 else "chombo"
    record |= {
        "round_number": rng.randint(1, 9),
        "table_number": rng.randint(1, 9),
        "finished_at": "2025-03-01T18:30:00+01:00",
        "played_on": "2025-03-01",
        "on_behalf_of": [None, "Eve", None, None],
    }
    if seed % 3 == 0:  # a game entered as final scores
        record |= {"hands": [], "final_scores": [40000, 30000, 29000, 20000], "final_sticks": 1}
    return record


BASES = [base_record(seed) for seed in range(6)]

# -- hostile values --------------------------------------------------------------------------------------


class Raw(str):
    """JSON text put into the file as it is (what ``json.dumps`` cannot write: 100 000 brackets)."""


RAW = st.sampled_from(
    [
        Raw("[" * 100_000 + "]" * 100_000),
        Raw('{"a":' * 5_000 + "1" + "}" * 5_000),
        Raw("[" * 40 + "]" * 40),
        Raw("9" * 4301),
        Raw("-" + "9" * 5000),
        Raw("1e400"),
        Raw("NaN"),
        Raw("-Infinity"),
        Raw('"\\ud800"'),
        Raw('"\\udfff x"'),
        Raw('"A\\u0000n"'),
    ]
)
INTEGERS = (
    st.sampled_from(
        [0, -1, 1, 3, 4, 5, 6, 7, 13, 20, 25, 35, 99, 100, 110, 130, 140, 999, 1000, 32767, 32768, 65536]
        + [2**31 - 1, 2**31, -(2**31) - 1, 2**63, -(10**30), 10**4000, -1_000_000, -1_000_001]
    )
    | st.integers()
)
TEXTS = st.sampled_from(
    [
        "",
        " ",
        "x" * 21,
        "x" * 201,
        "A\x00n",
        "line\nbreak",
        "\x7f",
        "\ud800",
        "Ann",
        "Eve",
        "=HYPERLINK()",
        "2025-02-30T10:00:00",
        "2025-02-30",
        "0001-01-01T00:00:00+14:00",
        "9999-12-31T23:59:59-14:00",
        "2025-01-01T25:00:00",
        "2025-01-01T10:00:00+99:00",
        "ron",
        "tsumo",
        "abort",
        "chombo",
        "draw",
        "ema2016",
        "tenhou",
    ]
) | st.text(max_size=30)
VALUES = st.one_of(
    RAW,
    INTEGERS,
    TEXTS,
    st.sampled_from([None, True, False, 1.5, [], {}, [0], [0, 0], [5], [None] * 4, ["Ann"] * 4]),
    st.lists(INTEGERS, max_size=5),
    st.lists(TEXTS, min_size=4, max_size=4),
)
KEYS = st.sampled_from(
    [
        "format",
        "rules",
        "players",
        "hands",
        "penalties",
        "round_number",
        "table_number",
        "finished_at",
        "played_on",
        "final_scores",
        "final_sticks",
        "on_behalf_of",
        "kind",
        "reason",
        "result",
        "winner",
        "loser",
        "han",
        "fu",
        "yakuman",
        "pao",
        "riichi",
        "tenpai",
        "nagashi",
        "seat",
        "points",
        "wins",
    ]
)


def fresh(draw: st.DrawFn) -> Any:
    """A hostile value, copied: sampled lists are shared objects, and mutations must not touch them."""
    return copy.deepcopy(draw(VALUES))


def paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a record that a mutation may change: the path of each value, root included."""
    found = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            found += paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += paths(value, (*prefix, index))
    return found


def at(record: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        record = record[step]
    return record


@st.composite
def hostile_records(draw: st.DrawFn) -> Any:
    """A valid record with one to three hostile changes: a value replaced, a key added or removed, a
    list grown past its limit."""
    record = json.loads(json.dumps(draw(st.sampled_from(BASES))))  # a fresh copy
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(paths(record)))
        action = draw(st.sampled_from(["replace", "replace", "add", "remove", "grow"]))
        if not path:
            if action == "replace":
                record = fresh(draw)
                break
            action = "add"
        target = at(record, path[:-1]) if path else record
        if action == "replace":
            target[path[-1]] = fresh(draw)
        elif action == "add":
            node = at(record, path)
            if isinstance(node, dict):
                node[draw(KEYS)] = fresh(draw)
            elif isinstance(node, list):
                node.append(fresh(draw))
        elif action == "remove" and isinstance(target, (dict, list)):
            del target[path[-1]]
        elif action == "grow":
            node = at(record, path)
            if isinstance(node, list) and node:
                target_size = draw(st.sampled_from([501, 2_000, 20_000]))
                node[:] = (node * (target_size // len(node) + 1))[:target_size]
    return record


def to_text(record: Any) -> str:
    """The record as a file's text, raw JSON values written in place."""
    raws: list[str] = []

    def mark(value: Any) -> Any:
        if isinstance(value, Raw):
            raws.append(str(value))
            return f"@@raw{len(raws) - 1}@@"
        if isinstance(value, dict):
            return {key: mark(item) for key, item in value.items()}
        if isinstance(value, list):
            return [mark(item) for item in value]
        return value

    text = json.dumps(mark(record))
    for number, raw in enumerate(raws):
        text = text.replace(f'"@@raw{number}@@"', raw, 1)
    return text


# -- the contract ----------------------------------------------------------------------------------------


def run_command(*args: str) -> tuple[int, str, str, float]:
    """(exit status, stdout, stderr, seconds) of a command run in process; an exception escapes."""
    out, err = io.StringIO(), io.StringIO()
    started = time.perf_counter()
    code = 0
    with contextlib.redirect_stderr(err):  # argparse errors write to sys.stderr
        try:
            call_command(*args, stdout=out, stderr=err)
        except SystemExit as exc:
            code = int(exc.code or 0)
    return code, out.getvalue(), err.getvalue(), time.perf_counter() - started


def assert_contract(code: int, out: str, err: str) -> None:
    if code == 0:
        assert err == "", err
        json.loads(out)
        return
    assert code == 2, (code, out, err)
    assert out == "", out
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert err.strip() and "Traceback" not in err, err


def write(folder: str, text: str) -> str:
    path = Path(folder) / "record.json"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    return str(path)


FUZZ = settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)


@FUZZ
@given(record=hostile_records())
def test_replay_answers_every_hostile_record_in_one_line(record: Any) -> None:
    with tempfile.TemporaryDirectory() as folder:
        code, out, err, seconds = run_command("replay", write(folder, to_text(record)))
    assert_contract(code, out, err)
    assert seconds < SECONDS


@pytest.mark.django_db
@FUZZ
@given(record=hostile_records())
def test_import_answers_every_hostile_record_in_one_line(record: Any, event: Event, players: Any) -> None:
    """With --create-players, so that hostile names reach the database path too."""
    with tempfile.TemporaryDirectory() as folder:
        path = write(folder, to_text(record))
        code, out, err, seconds = run_command("import_games", "--event", event.slug, "--create-players", path)
    assert_contract(code, out, err)
    assert seconds < SECONDS


@pytest.mark.django_db
def test_import_of_the_largest_record_takes_seconds(event: Event, players: Any) -> None:
    """500 hands, the most a record may hold: imported within a few seconds; 1000 are refused."""
    record = {
        "format": 1,
        "rules": "ema2016",
        "players": list(PLAYERS),
        "hands": [{"result": "draw", "tenpai": [0, 1, 2, 3]}] * 500,  # the dealer stays: never ends
    }
    with tempfile.TemporaryDirectory() as folder:
        code, out, err, seconds = run_command(
            "import_games", "--event", event.slug, write(folder, json.dumps(record))
        )
    assert (code, err) == (0, ""), err
    assert json.loads(out)["imported"] == 1
    assert seconds < SECONDS
    record["hands"] = record["hands"] * 2  # one past the limit (and more): refused as quickly
    with tempfile.TemporaryDirectory() as folder:
        code, out, err, seconds = run_command(
            "import_games", "--event", event.slug, write(folder, json.dumps(record))
        )
    assert_contract(code, out, err)
    assert code == 2 and "at most 500 hands, not 1000" in err
    assert seconds < SECONDS


# -- argument errors -------------------------------------------------------------------------------------

PROJECT_COMMANDS = sorted(
    name
    for name, app in get_commands().items()
    if app.split(".")[0] in {"scoring", "league", "tournaments", "config"}
)
REQUIRES_EVENT = ["export_ema", "export_games", "import_games", "standings"]
# What each command needs besides the bad option, so that the option is what argparse complains about.
NEEDED = {name: ["--event", "x"] for name in REQUIRES_EVENT} | {"replay": ["f.json"]}
NEEDED["import_games"] += ["f.json"]


def assert_one_argument_error(code: int, out: str, err: str, *words: str) -> None:
    assert code == 2, (code, out, err)
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert "error: " in err and "usage:" not in err and "Traceback" not in err, err
    for word in words:
        assert word in err, err


@pytest.mark.parametrize("name", PROJECT_COMMANDS)
def test_unknown_option_is_one_line_in_process(name: str) -> None:
    code, out, err, _ = run_command(name, *NEEDED.get(name, []), "--no-such-option")
    assert_one_argument_error(code, out, err, "--no-such-option")


@pytest.mark.parametrize("name", REQUIRES_EVENT)
def test_missing_event_is_one_line_in_process(name: str) -> None:
    args = ["record.json"] if name == "import_games" else []
    code, out, err, _ = run_command(name, *args)
    assert_one_argument_error(code, out, err, "--event")


def test_bad_option_value_is_one_line_in_process() -> None:
    code, out, err, _ = run_command("replay", "--verbosity", "loud", "record.json")
    assert_one_argument_error(code, out, err, "verbosity")


def run_process(*args: str) -> tuple[int, str, str]:
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    return done.returncode, done.stdout, done.stderr


def test_argument_errors_are_one_line_for_every_command_as_a_process() -> None:
    """What a script sees: an unknown option to every command, and import_games without --event."""
    assert {"replay", "import_games", "export_games", "standings", "export_ema", "rebuild_ratings"} <= set(
        PROJECT_COMMANDS
    )
    calls = [(name, *NEEDED.get(name, []), "--no-such-option") for name in PROJECT_COMMANDS]
    calls.append(("import_games", "record.json"))
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda call: run_process(*call), calls))
    for call, (code, out, err) in zip(calls, results, strict=True):
        words = ["--event"] if call[-1] == "record.json" else ["--no-such-option"]
        assert_one_argument_error(code, out, err, *words)
        assert err.startswith(f"manage.py {call[0]}: error: "), err
