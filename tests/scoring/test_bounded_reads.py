"""Every command that reads a file or standard input reads a bounded amount (issue 23's security probe).

``replay``, ``import_games`` and ``convert_log`` once read a whole file or standard input: ``/dev/zero``
ended in a ``MemoryError`` traceback. Now each reads at most its documented size (8 MB for a record or a
log, 64 MB for a file of records) and answers a larger input with the contract's failure: exit 2,
nothing on standard output, one line naming the file. ``/dev/zero`` runs as a real subprocess, as a
script would feed it (by path, and on standard input).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from scoring.management.contract import MAX_LOG_BYTES, MAX_RECORD_BYTES, MAX_RECORDS_BYTES
from tests.scoring.commands import run

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "tests" / "scoring" / "fixtures" / "examples" / "ema-dealer-ron.json"
LOG = REPO / "tests" / "scoring" / "logs" / "fixtures" / "tenhou-hanchan-west.json"
MB = 1024 * 1024


def padded(source: Path, target: Path, size: int) -> Path:
    """``source``'s JSON followed by spaces up to ``size`` bytes: a valid file, only too large."""
    data = source.read_bytes()
    target.write_bytes(data + b" " * (size - len(data)))
    return target


def subprocess_run(*args: str, stdin: Path | None = None) -> tuple[int, str, str]:
    with open(stdin or "/dev/null", "rb") as feed:
        done = subprocess.run(
            [sys.executable, "manage.py", *args], cwd=REPO, stdin=feed, capture_output=True, timeout=120
        )
    return done.returncode, done.stdout.decode(), done.stderr.decode()


def assert_one_line(result: tuple[int, str, str], *fragments: str) -> str:
    code, out, err = result
    assert code == 2, result
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert "Traceback" not in err and "MemoryError" not in err
    for fragment in fragments:
        assert fragment in err, err
    return err


def test_the_limits_are_the_documented_ones() -> None:
    assert (MAX_RECORD_BYTES, MAX_LOG_BYTES, MAX_RECORDS_BYTES) == (8 * MB, 8 * MB, 64 * MB)


def test_replay_reads_a_record_up_to_the_limit_and_refuses_a_byte_more(tmp_path: Path) -> None:
    at_limit = padded(EXAMPLE, tmp_path / "at-limit.json", MAX_RECORD_BYTES)
    code, out, err = run("replay", str(at_limit))
    assert code == 0 and err == ""
    assert json.loads(out)["finished"] is False
    over = padded(EXAMPLE, tmp_path / "over.json", MAX_RECORD_BYTES + 1)
    assert_one_line(run("replay", str(over)), f"{over}: the file is larger than 8 MB")


def test_convert_log_refuses_a_log_a_byte_over_the_limit(tmp_path: Path) -> None:
    over = padded(LOG, tmp_path / "over.json", MAX_LOG_BYTES + 1)
    assert_one_line(run("convert_log", str(over)), f"{over}: the file is larger than 8 MB")
    at_limit = padded(LOG, tmp_path / "at-limit.json", MAX_LOG_BYTES)
    code, out, _ = run("convert_log", str(at_limit))
    assert code == 0 and json.loads(out)["log"]["source"] == "tenhou"


@pytest.mark.django_db
def test_import_games_refuses_files_over_their_limits(tmp_path: Path, event) -> None:
    """A file of records may hold a whole event's export (64 MB), a log 8 MB; one byte more is refused
    before anything is parsed, and nothing is imported."""
    records = tmp_path / "records.json"
    with open(records, "wb") as handle:  # sparse: 64 MB + 1 of zeros costs no disk
        handle.truncate(MAX_RECORDS_BYTES + 1)
    assert_one_line(
        run("import_games", "--event", event.slug, str(records)), f"{records}: the file is larger than 64 MB"
    )
    log = padded(LOG, tmp_path / "log.json", MAX_LOG_BYTES + 1)
    assert_one_line(
        run("import_games", "--event", event.slug, "--format", "tenhou6", str(log)),
        f"{log}: the file is larger than 8 MB",
    )
    for args, limit in ((("/dev/zero",), "64 MB"), (("--format", "mjlog", "/dev/zero"), "8 MB")):
        assert_one_line(
            run("import_games", "--event", event.slug, *args), f"/dev/zero: the file is larger than {limit}"
        )
    assert not event.hanchans.exists()


@pytest.mark.parametrize(
    ("args", "limit"),
    [
        (("replay", "/dev/zero"), "8 MB"),
        (("replay", "-"), "8 MB"),
        (("convert_log", "/dev/zero"), "8 MB"),
        (("convert_log", "-"), "8 MB"),
    ],
)
def test_dev_zero_is_one_line_never_a_traceback(args: tuple[str, ...], limit: str) -> None:
    """An endless input, by path or on standard input: read up to the limit, then one line."""
    line = assert_one_line(subprocess_run(*args, stdin=Path("/dev/zero") if "-" in args else None))
    assert f"{args[-1]}: the file is larger than {limit}" in line
