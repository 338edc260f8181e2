"""The layer rules of docs/architecture.md §2 as import-linter contracts (``[tool.importlinter]``).

``scripts/test.sh`` runs ``lint-imports`` before pytest; this test runs it too, so that a plain
``pytest`` (or an editor's test runner) also fails when an import breaks a layer: league importing
tournaments, scoring importing tournaments, or Django reaching the engine or the seating algorithm.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def lint_imports() -> subprocess.CompletedProcess[str]:
    command = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or "lint-imports"
    return subprocess.run(
        [command, "--no-cache"], cwd=REPO, capture_output=True, text=True, timeout=300, check=False
    )


def test_every_contract_is_kept() -> None:
    done = lint_imports()
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def test_the_contracts_say_what_architecture_md_says() -> None:
    """The three rules are there: one-way layers, and the two pure packages forbidding Django."""
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    contracts = config["contracts"]
    layers = [c for c in contracts if c["type"] == "layers"]
    expected = [
        "config",
        "api | accounts | rankings | registration",
        "notifications",
        "tournaments",
        "scoring",
        "league",
        "background",
    ]
    assert layers and layers[0]["layers"] == expected
    pure = {c["source_modules"][0]: c["forbidden_modules"] for c in contracts if c["type"] == "forbidden"}
    assert "django" in pure["scoring.engine"] and "league" in pure["scoring.engine"]
    assert "django" in pure["tournaments.seating"] and "scoring" in pure["tournaments.seating"]


def test_the_forbidden_lists_name_every_sibling_module() -> None:
    """A new module beside the engine (or beside seating) must join the forbidden list, or the contract
    would silently let the pure package import it."""
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    pure = {
        c["source_modules"][0]: set(c["forbidden_modules"])
        for c in config["contracts"]
        if c["type"] == "forbidden"
    }
    for source in pure:
        app, package = source.split(".")
        siblings = {
            f"{app}.{p.stem if p.is_file() else p.name}"
            for p in (REPO / app).iterdir()
            if (p.suffix == ".py" and p.stem != "__init__") or (p.is_dir() and (p / "__init__.py").exists())
        } - {source, f"{app}.apps", f"{app}.migrations"}
        assert siblings <= pure[source], f"{source}: add {sorted(siblings - pure[source])} to its contract"
