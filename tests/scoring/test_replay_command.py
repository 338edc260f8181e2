"""``manage.py replay`` end to end, as the scripts outside Tenbou run it (the game-record contract).

Those scripts read standard output, standard error and the exit status, so the command runs here as a
real subprocess: a success prints JSON (one object, or JSON Lines for several files) and exits 0; an
invalid record exits 2 with nothing on standard output and exactly one line on standard error naming the
hand (1-based) and the rule. Every rejection rule of the document has its own test; the rejection
subprocesses are started together to keep the file fast. The same cases also go through
``call_command`` to show the in-process path gives the same line and status. The worked examples are
the contract's (docs/game-record.md §9), kept in ``tests/scoring/fixtures/examples``.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from scoring.engine import record_from_dict, replay_output

HERE = Path(__file__).resolve()
REPO = HERE.parents[2]
EXAMPLE_DIR = HERE.parent / "fixtures" / "examples"
EXAMPLES: list[str] = sorted(
    p.name.removesuffix(".json") for p in EXAMPLE_DIR.glob("*.json") if ".expected." not in p.name
)


@dataclass(frozen=True)
class Run:
    """What a script sees of one run of the command."""

    code: int
    stdout: str
    stderr: str


def run_replay(*args: str | Path, stdin: str | None = None) -> Run:
    """``python manage.py replay ARGS`` from the repository root, as a separate process."""
    done = subprocess.run(
        [sys.executable, "manage.py", "replay", *map(str, args)],
        cwd=REPO,
        input=stdin if stdin is not None else "",
        capture_output=True,
        text=True,
        timeout=120,
    )
    return Run(done.returncode, done.stdout, done.stderr)


def call_replay(*args: str | Path) -> Run:
    """The same command in this process, through ``call_command``."""
    out, err = io.StringIO(), io.StringIO()
    code = 0
    try:
        call_command("replay", *map(str, args), stdout=out, stderr=err)
    except SystemExit as exc:
        code = int(exc.code or 0)
    return Run(code, out.getvalue(), err.getvalue())


def expected(name: str) -> Any:
    return json.loads((EXAMPLE_DIR / f"{name}.expected.json").read_text(encoding="utf-8"))


def assert_rejected(run: Run) -> str:
    """The failure contract: status 2, nothing on stdout, exactly one line on stderr. Returns the line."""
    assert run.code == 2, run
    assert run.stdout == "", run
    assert run.stderr.endswith("\n") and run.stderr.count("\n") == 1, run
    line = run.stderr.rstrip("\n")
    assert line.strip() and "Traceback" not in line and "CommandError" not in line
    return line


def write_record(folder: Path, name: str, record: dict[str, Any] | str) -> Path:
    path = folder / f"{name}.json"
    path.write_text(record if isinstance(record, str) else json.dumps(record), encoding="utf-8")
    return path


# -- successes ---------------------------------------------------------------------------------------------


def test_examples_are_present() -> None:
    """Fail clearly rather than testing nothing when the example fixtures are missing."""
    assert len(EXAMPLES) == 4, f"expected the 4 worked examples in {EXAMPLE_DIR}, found {EXAMPLES}"


@pytest.mark.parametrize("name", EXAMPLES)
def test_example_prints_expected_json(name: str) -> None:
    """Each example prints exactly its expected JSON object and exits 0."""
    run = run_replay(EXAMPLE_DIR / f"{name}.json")
    assert run.code == 0, run
    assert run.stderr == ""
    assert json.loads(run.stdout) == expected(name)


def test_dash_reads_standard_input() -> None:
    """``-`` reads the record from standard input."""
    name = EXAMPLES[0]
    text = (EXAMPLE_DIR / f"{name}.json").read_text(encoding="utf-8")
    run = run_replay("-", stdin=text)
    assert run.code == 0, run
    assert json.loads(run.stdout) == expected(name)


def test_rules_option_replaces_the_records_rules() -> None:
    """``--rules tenhou`` replays an ema2016 record under tenhou: 25000 start, seat-order ties, oka."""
    path = EXAMPLE_DIR / "ema-dealer-ron.json"
    run = run_replay("--rules", "tenhou", path)
    assert run.code == 0, run
    printed = json.loads(run.stdout)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert printed == replay_output(record_from_dict(data, rules="tenhou"))
    assert printed["hands"][0]["scores"] == [32700, 25000, 17300, 25000]
    assert printed["final"]["places"] == [1, 2, 4, 3]  # seat order breaks the 25000 tie
    assert printed["final"]["oka"] == [20000, 0, 0, 0]
    assert printed != expected("ema-dealer-ron")


def test_rules_option_can_make_a_record_invalid() -> None:
    """The replacing rules are the ones checked: an EMA chombo is invalid under tenhou."""
    line = assert_rejected(run_replay("--rules", "tenhou", EXAMPLE_DIR / "ema-chombo-tied-leaders.json"))
    assert line.startswith("hand 1: ") and "chombo" in line


def test_rules_option_with_unknown_preset() -> None:
    line = assert_rejected(call_replay("--rules", "ema1999", EXAMPLE_DIR / "ema-dealer-ron.json"))
    assert "ema1999" in line


def test_several_files_print_json_lines_in_order() -> None:
    """``replay A B …``: one JSON object per line, in the order given (repeats included)."""
    names = [*EXAMPLES, *reversed(EXAMPLES), EXAMPLES[0]]
    run = run_replay(*(EXAMPLE_DIR / f"{n}.json" for n in names))
    assert run.code == 0, run
    assert run.stderr == ""
    lines = run.stdout.splitlines()
    assert len(lines) == len(names)
    assert [json.loads(line) for line in lines] == [expected(n) for n in names]


def test_several_files_in_process() -> None:
    run = call_replay(*(EXAMPLE_DIR / f"{n}.json" for n in EXAMPLES))
    assert run.code == 0
    assert [json.loads(line) for line in run.stdout.splitlines()] == [expected(n) for n in EXAMPLES]


# -- rejections ----------------------------------------------------------------------------------------------

OK = {"result": "draw", "tenpai": [0]}  # a legal first hand, so that the bad one is hand 2


def ron(loser: int, *wins: dict[str, Any]) -> dict[str, Any]:
    return {"result": "ron", "loser": loser, "wins": list(wins)}


def rec(rules: Any, *hands: dict[str, Any]) -> dict[str, Any]:
    return {"format": 1, "rules": rules, "hands": list(hands)}


@dataclass(frozen=True)
class Rejection:
    """An invalid record, the hand the error must name (None for the whole record) and the rule's words."""

    record: dict[str, Any] | str
    hand: int | None
    rule: str  # a regular expression the message must match (case-insensitive)


DOC_EXAMPLE_HAND_7 = rec(
    {"preset": "ema2016", "abortive_draws": True, "nagashi_mangan": True},
    ron(2, {"winner": 0, "han": 3, "fu": 40}) | {"riichi": [0]},
    {"result": "tsumo", "winner": 1, "han": 2, "fu": 20},
    {"result": "draw", "tenpai": [0, 3], "riichi": [3]},
    ron(0, {"winner": 1, "han": 2, "fu": 30}, {"winner": 3, "yakuman": 1, "pao": 2}),
    {"result": "chombo", "seat": 2},
    {"result": "abort", "riichi": [0, 1, 2, 3]},
    ron(1, {"winner": 0, "han": 1, "fu": 25}),
)

REJECTIONS: dict[str, Rejection] = {
    "bad-json": Rejection('{"format": 1, "rules": "ema2016", "hands": [', None, r"json"),
    "unknown-preset": Rejection(rec("ema1999", OK), None, r"preset.*ema1999"),
    "seat-out-of-range-winner-4": Rejection(
        rec("ema2016", OK, ron(2, {"winner": 4, "han": 3, "fu": 40})), 2, r"winner.*\b4\b"
    ),
    "seat-out-of-range-loser-minus-1": Rejection(
        rec("ema2016", OK, ron(-1, {"winner": 0, "han": 3, "fu": 40})), 2, r"loser.*-1\b"
    ),
    "seat-out-of-range-tenpai-5": Rejection(
        rec("ema2016", OK, {"result": "draw", "tenpai": [0, 5]}), 2, r"tenpai.*\b5\b"
    ),
    "winner-is-loser": Rejection(
        rec("ema2016", OK, ron(1, {"winner": 1, "han": 3, "fu": 40})), 2, r"seat 1\b.*(own discard|loser)"
    ),
    "1-han-20-fu-tsumo": Rejection(
        rec("ema2016", OK, {"result": "tsumo", "winner": 1, "han": 1, "fu": 20}), 2, r"fu 20.*2 han"
    ),
    "1-han-20-fu-ron": Rejection(rec("ema2016", OK, ron(0, {"winner": 1, "han": 1, "fu": 20})), 2, r"fu 20"),
    "1-han-25-fu-ron": Rejection(
        rec("ema2016", OK, ron(0, {"winner": 1, "han": 1, "fu": 25})),
        2,
        r"^hand 2: fu 25 needs at least 2 han on a ron$",  # the document's own example line
    ),
    "fu-35": Rejection(rec("ema2016", OK, ron(0, {"winner": 1, "han": 2, "fu": 35})), 2, r"fu 35"),
    "doc-line-hand-7": Rejection(DOC_EXAMPLE_HAND_7, 7, r"^hand 7: fu 25 needs at least 2 han on a ron$"),
    "abort-under-ema2016": Rejection(rec("ema2016", OK, {"result": "abort"}), 2, r"abortive"),
    "nagashi-under-ema2016": Rejection(
        rec("ema2016", OK, {"result": "draw", "tenpai": [], "nagashi": [1]}), 2, r"nagashi"
    ),
    "chombo-under-tenhou": Rejection(rec("tenhou", OK, {"result": "chombo", "seat": 1}), 2, r"chombo"),
    "triple-ron-under-tenhou": Rejection(
        rec(
            "tenhou",
            OK,
            ron(0, *({"winner": w, "han": 2, "fu": 30} for w in (1, 2, 3))),
        ),
        2,
        r"triple ron.*abort",
    ),
    "double-ron-under-wrc2022": Rejection(
        rec("wrc2022", OK, ron(0, {"winner": 1, "han": 2, "fu": 30}, {"winner": 3, "han": 2, "fu": 30})),
        2,
        r"atamahane|nearest",
    ),
    "yakuman-7": Rejection(
        rec("ema2016", OK, {"result": "tsumo", "winner": 1, "yakuman": 7}), 2, r"yakuman.*1 to 6"
    ),
    "pao-on-non-yakuman": Rejection(
        rec("ema2016", OK, ron(0, {"winner": 1, "han": 6, "pao": 2})), 2, r"pao.*yakuman"
    ),
    "unknown-result": Rejection(rec("ema2016", OK, {"result": "win"}), 2, r"unknown result.*win"),
    "hand-after-the-end": Rejection(
        rec("tenhou", ron(3, {"winner": 0, "yakuman": 1}), OK), 2, r"ended|end of the game"
    ),
    "riichi-listed-twice": Rejection(
        rec("ema2016", OK, {"result": "draw", "tenpai": [0], "riichi": [0, 0]}),
        2,
        r"riichi.*twice|twice.*riichi",
    ),
    "unknown-override": Rejection(
        rec({"preset": "ema2016", "bogus": 1}, OK), None, r"unknown setting.*bogus"
    ),
    "wrong-override-type": Rejection(rec({"preset": "ema2016", "kiriage": "yes"}, OK), None, r"kiriage"),
    # Hostile and careless input (issue 9): each once as a real subprocess, one line and exit 2.
    "nested-too-deep-for-json": Rejection(
        '{"format": 1, "rules": "ema2016", "hands": ' + "[" * 100_000 + "]" * 100_000 + "}",
        None,
        r"^not valid JSON: nested too deeply$",
    ),
    "nested-deeper-than-a-record": Rejection(
        rec("ema2016", OK) | {"extra": json.loads("[" * 40 + "]" * 40)}, None, r"nested more than 32 levels"
    ),
    "integer-over-4300-digits": Rejection(
        '{"format": 1, "rules": "ema2016", "hands": [{"result": "tsumo", "winner": 1, "han": '
        + "9" * 5000
        + ', "fu": 30}]}',
        None,
        r"^not valid JSON: a number has more than 4300 digits$",
    ),
    "han-32768": Rejection(
        rec("ema2016", OK, {"result": "tsumo", "winner": 1, "han": 32768}), 2, r"'han' must be from 1 to 99"
    ),
    "fu-32768-on-a-mangan": Rejection(
        rec("ema2016", OK, {"result": "tsumo", "winner": 1, "han": 6, "fu": 32768}), 2, r"fu 32768 does not"
    ),
    "round-number-32768": Rejection(
        rec("ema2016", OK) | {"round_number": 32768}, None, r"^round_number: .*from 1 to 999, not 32768$"
    ),
    "table-number-0": Rejection(rec("ema2016", OK) | {"table_number": 0}, None, r"^table_number: .*1 to 999"),
    "penalty-beyond-32-bit": Rejection(
        rec("ema2016", OK) | {"penalties": [{"seat": 0, "points": -(2**31) - 1, "reason": "x"}]},
        None,
        r"^penalty 1: points must be negative, from -1000000 to -1",
    ),
    "too-many-penalties": Rejection(
        rec("ema2016", OK) | {"penalties": [{"seat": 0, "points": -100, "reason": "x"}] * 501},
        None,
        r"at most 500 penalties, not 501",
    ),
    "abort-reason-over-20-characters": Rejection(
        rec({"preset": "ema2016", "abortive_draws": True}, OK, {"result": "abort", "reason": "x" * 21}),
        2,
        r"'reason' is 21 characters long; at most 20",
    ),
    "nul-in-a-name": Rejection(
        rec("ema2016", OK) | {"players": ["A\x00n", "Bob", "Cho", "Dan"]},
        None,
        r"^players: .*seat 0.*U\+0000",
    ),
    "lone-surrogate-in-a-name": Rejection(
        rec("ema2016", OK) | {"players": ["Ann", "Bob", "\ud800", "Dan"]},
        None,
        r"^players: .*seat 2.*U\+D800",
    ),
    "name-over-200-characters": Rejection(
        rec("ema2016", OK) | {"players": ["Ann", "Bob", "Cho", "D" * 201]},
        None,
        r"201 characters.*at most 200",
    ),
    "control-character-in-a-penalty-reason": Rejection(
        rec("ema2016", OK) | {"penalties": [{"seat": 1, "points": -100, "reason": "slow\nplay"}]},
        None,
        r"^penalty 1: reason holds the character U\+000A",
    ),
    # The fields export_games adds are checked by the record reader too, for every caller (issue 23):
    # replay refuses a record whose finished_at is not a moment of the calendar, as the import does.
    "finished-at-30-february": Rejection(
        rec("ema2016", OK) | {"finished_at": "2025-02-30T10:00:00"},
        None,
        r"^finished_at: must be an ISO 8601 date and time that exists, not '2025-02-30T10:00:00'$",
    ),
    "finished-at-hour-25": Rejection(
        rec("ema2016", OK) | {"finished_at": "2025-03-01T25:00:00+01:00"},
        None,
        r"^finished_at: must be an ISO 8601 date and time that exists",
    ),
    "finished-at-not-text": Rejection(
        rec("ema2016", OK) | {"finished_at": 20250301}, None, r"^finished_at: .* not 20250301$"
    ),
    "played-on-30-february": Rejection(
        rec("ema2016", OK) | {"played_on": "2025-02-30"},
        None,
        r"^played_on: must be an ISO 8601 date \(YYYY-MM-DD\) that exists",
    ),
    "final-sticks-out-of-range": Rejection(
        rec("ema2016") | {"final_scores": [40000, 30000, 30000, 20000], "final_sticks": 32768},
        None,
        r"^final_sticks: must be a whole number from 0 to 999, not 32768$",
    ),
    "final-scores-not-four-numbers": Rejection(
        rec("ema2016") | {"final_scores": [40000, 30000, "30000", 20000]},
        None,
        r"^final_scores: must be a list of four whole numbers in seat order$",
    ),
    "on-behalf-of-a-nul": Rejection(
        rec("ema2016", OK) | {"on_behalf_of": [None, "E\x00ve", None, None]},
        None,
        r"^on_behalf_of: the name of seat 1 holds the character U\+0000",
    ),
    "penalty-of-an-unknown-kind": Rejection(
        rec("ema2016", OK) | {"penalties": [{"seat": 0, "points": -100, "reason": "x", "kind": "yellow"}]},
        None,
        r"^penalty 1: kind must be chombo or other, not 'yellow'$",
    ),
    "more-than-500-hands": Rejection(
        rec("ema2016", *[{"result": "draw", "tenpai": [0, 1, 2, 3]}] * 501),
        None,
        r"at most 500 hands, not 501",
    ),
}

ALL_TENPAI = {"result": "draw", "tenpai": [0, 1, 2, 3]}  # the dealer stays: a game that never ends


@pytest.fixture(scope="module")
def rejection_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("rejections")
    return {name: write_record(folder, name, case.record) for name, case in REJECTIONS.items()}


@pytest.fixture(scope="module")
def rejection_runs(rejection_files: dict[str, Path]) -> dict[str, Run]:
    """Every rejection case through a real subprocess, started a few at a time."""
    with ThreadPoolExecutor(max_workers=max(2, min(8, (os.cpu_count() or 2) * 2))) as pool:
        runs = pool.map(run_replay, rejection_files.values())
        return dict(zip(rejection_files, runs, strict=True))


@pytest.mark.parametrize("name", list(REJECTIONS))
def test_rejection(name: str, rejection_runs: dict[str, Run]) -> None:
    """Exit 2, nothing on stdout, one stderr line that names the hand (1-based) and the rule."""
    case = REJECTIONS[name]
    line = assert_rejected(rejection_runs[name])
    if case.hand is not None:
        assert line.startswith(f"hand {case.hand}: "), line
    else:
        assert not re.match(r"hand \d+:", line), line  # a fault of the whole record, not of a hand
    assert re.search(case.rule, line, flags=re.I), line


@pytest.mark.parametrize("name", list(REJECTIONS))
def test_rejection_in_process(
    name: str, rejection_files: dict[str, Path], rejection_runs: dict[str, Run]
) -> None:
    """``call_command`` fails the same way: status 2, the same single line."""
    run = call_replay(rejection_files[name])
    assert_rejected(run)
    assert run.stderr == rejection_runs[name].stderr


def test_one_invalid_file_among_several(rejection_files: dict[str, Path]) -> None:
    """Several files, one invalid: exit 2, nothing printed for the valid ones, the line names the file."""
    bad = rejection_files["fu-35"]
    good = [EXAMPLE_DIR / f"{n}.json" for n in EXAMPLES]
    run = run_replay(*good, bad, good[0])
    line = assert_rejected(run)
    assert line.startswith(f"{bad}: hand 2: "), line
    assert "fu 35" in line


def test_invalid_file_first_among_several(rejection_files: dict[str, Path]) -> None:
    bad = rejection_files["hand-after-the-end"]
    run = call_replay(bad, EXAMPLE_DIR / "ema-dealer-ron.json")
    line = assert_rejected(run)
    assert line.startswith(f"{bad}: hand 2: "), line


def test_unreadable_file(tmp_path: Path) -> None:
    """A file that does not exist: exit 2, one line naming it."""
    missing = tmp_path / "no-such-record.json"
    line = assert_rejected(run_replay(missing))
    assert str(missing) in line


@pytest.mark.parametrize("kind", ["missing", "directory", "not-utf8"])
def test_unreadable_file_among_several(tmp_path: Path, kind: str) -> None:
    """Unreadable in any way, even after valid files: exit 2, nothing on stdout, the file named."""
    if kind == "missing":
        path = tmp_path / "gone.json"
    elif kind == "directory":
        path = tmp_path / "folder.json"
        path.mkdir()
    else:
        path = tmp_path / "latin1.json"
        path.write_bytes(b'{"format": 1, "rules": "ema2016", "players": ["Jos\xe9", "B", "C", "D"]}')
    line = assert_rejected(call_replay(EXAMPLE_DIR / "ema-dealer-ron.json", path))
    assert line.startswith(f"{path}: "), line


def test_oversize_record_is_refused_and_the_largest_replays_within_seconds(tmp_path: Path) -> None:
    """100 000 hands: refused by counting, before any hand is read or replayed; 500 hands, the most the
    limits allow, replay quickly (the whole process, Django's start included)."""
    path = write_record(tmp_path, "huge", rec("ema2016", *[ALL_TENPAI] * 100_000))
    started = time.perf_counter()
    line = assert_rejected(run_replay(path))
    assert time.perf_counter() - started < 10
    assert line == "hands: a record holds at most 500 hands, not 100000"

    path = write_record(tmp_path, "long", rec("ema2016", *[ALL_TENPAI] * 500))
    started = time.perf_counter()
    run = run_replay(path)
    assert time.perf_counter() - started < 10
    assert run.code == 0, run
    printed = json.loads(run.stdout)
    assert len(printed["hands"]) == 500 and printed["hands"][-1]["honba"] == 499
