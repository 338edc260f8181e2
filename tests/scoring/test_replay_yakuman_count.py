"""``manage.py replay`` values a yakuman count by the ruleset, never rejects it (docs/game-record.md §3):
a double yakuman under ema2016 (no stacking) is paid as one yakuman and exits 0; under tenhou it is two."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def replay(record: dict) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", "replay", "-"],
        cwd=REPO,
        input=json.dumps(record),
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    ("rules", "deltas"),
    [("ema2016", [-16000, 32000, -8000, -8000]), ("tenhou", [-32000, 64000, -16000, -16000])],
)
def test_double_yakuman_tsumo_is_valued_by_the_ruleset(rules: str, deltas: list[int]) -> None:
    done = replay({"format": 1, "rules": rules, "hands": [{"result": "tsumo", "winner": 1, "yakuman": 2}]})
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert json.loads(done.stdout)["hands"][0]["deltas"] == deltas
