"""The ruleset reference in docs/ is generated from the code: it must be current."""

from pathlib import Path

from scoring.engine.docs import render
from scoring.engine.ruleset import SETTINGS

DOC = Path(__file__).resolve().parents[3] / "docs" / "rulesets.md"


def test_rulesets_doc_is_current():
    hint = "run: python -m scoring.engine.docs > docs/rulesets.md"
    assert DOC.read_text(encoding="utf-8") == render(), hint


def test_every_setting_is_documented():
    text = DOC.read_text(encoding="utf-8")
    for name in SETTINGS:
        assert f"| `{name}` |" in text
