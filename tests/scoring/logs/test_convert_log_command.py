"""``manage.py convert_log FILE``: the record on standard output, or exit 2 with one line naming the file.

The contract of docs/game-record.md §8.3: JSON on standard output, ready for ``replay`` and
``import_games``; a log it cannot read exits 2, prints nothing on standard output and one line on
standard error naming the file and what is wrong. ``-`` reads standard input (bytes: a log may be gzip).
"""

from __future__ import annotations

import gzip
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from scoring.engine import load_record, replay_output
from scoring.engine.logs import read_log
from tests.scoring.commands import run

FIXTURES = Path(__file__).resolve().parent / "fixtures"
REPO = Path(__file__).resolve().parents[3]
TOBI = FIXTURES / "tenhou-hanchan-tobi.json"


def assert_failed(code: int, out: str, err: str, *words: str) -> str:
    assert code == 2, (code, out, err)
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert "Traceback" not in err and "CommandError" not in err
    for word in words:
        assert word in err, err
    return err


@pytest.mark.parametrize("name", sorted(p.name for p in FIXTURES.glob("*.json")))
def test_prints_the_record_that_read_log_gives(name: str) -> None:
    code, out, err = run("convert_log", str(FIXTURES / name))
    assert (code, err) == (0, "")
    printed = json.loads(out)
    assert printed == read_log((FIXTURES / name).read_bytes(), name=name)[0].to_dict()
    assert replay_output(load_record(out))["finished"] is True  # the printed record is a valid record


def test_gzip_mjlog_named_after_its_tenhou_id(tmp_path: Path) -> None:
    path = tmp_path / "2023080212gm-00e1-0000-5e6f7a8b&tw=2.mjlog"
    path.write_bytes(gzip.compress((FIXTURES / "tenhou-tonpuu-pao.xml").read_bytes()))
    code, out, err = run("convert_log", str(path))
    assert (code, err) == (0, "")
    assert json.loads(out)["log"]["id"] == "2023080212gm-00e1-0000-5e6f7a8b"


def test_several_games_print_a_list(tmp_path: Path) -> None:
    one = json.loads(TOBI.read_text(encoding="utf-8"))
    path = tmp_path / "two.json"
    path.write_text(json.dumps([one, one]), encoding="utf-8")
    code, out, err = run("convert_log", str(path))
    assert (code, err) == (0, "")
    printed = json.loads(out)
    assert isinstance(printed, list) and len(printed) == 2 and printed[0] == printed[1]


def test_dash_reads_standard_input_as_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    data = gzip.compress(TOBI.read_bytes())
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    code, out, err = run("convert_log", "-")
    assert (code, err) == (0, "")
    assert json.loads(out)["log"]["id"] == "2023061523gm-0089-0000-1a2b3c4d"


def test_a_log_the_rules_disagree_with_names_the_file_and_the_hand(tmp_path: Path) -> None:
    log = json.loads(TOBI.read_text(encoding="utf-8"))
    log["log"][2][16][1] = [-4000, -3900, 11700, -3800]
    path = tmp_path / "changed.json"
    path.write_text(json.dumps(log, ensure_ascii=False), encoding="utf-8")
    assert_failed(*run("convert_log", str(path)), f"{path}: hand 3: the log's score changes are")


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"", "the file is empty"),
        (b"not a log at all", "not a game log"),
        (b'{"log": 3}', "not a tenhou.net/6 log"),
        (b"<mjloggm><GO type='25'/></mjloggm>", "three-player"),
    ],
)
def test_unreadable_logs_exit_2_with_one_line(tmp_path: Path, content: bytes, words: str) -> None:
    path = tmp_path / "bad.log"
    path.write_bytes(content)
    assert_failed(*run("convert_log", str(path)), f"{path}: ", words)


def test_missing_file_and_missing_argument(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert_failed(*run("convert_log", str(tmp_path / "nowhere.json")), "nowhere.json: cannot read the file")
    assert_failed(*run("convert_log"), "error: ", "FILE")
    code, out, _ = run("convert_log", str(TOBI), "--no-such-option")  # argparse writes to sys.stderr
    assert_failed(code, out, capsys.readouterr().err, "--no-such-option")


def test_as_a_script_runs_it() -> None:
    """The command line itself: exit status, standard output and error as a shell sees them."""
    done = subprocess.run(
        [sys.executable, "manage.py", "convert_log", str(TOBI)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert json.loads(done.stdout)["rules"] == "tenhou"
    bad = subprocess.run(
        [sys.executable, "manage.py", "convert_log", "-"],
        cwd=REPO,
        input=b"\x1f\x8bnot gzip",
        capture_output=True,
        timeout=120,
    )
    assert bad.returncode == 2 and bad.stdout == b""
    assert bad.stderr.decode().count("\n") == 1 and bad.stderr.startswith(b"-: not a readable gzip file")
