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
        # Beside the pure module at every level up to its app (tournaments.ema.mers: tournaments.ema's
        # modules and tournaments' own), leaving out its own ancestors.
        parts = source.split(".")
        ancestors = {".".join(parts[:depth]) for depth in range(1, len(parts) + 1)}
        siblings = {
            f"{'.'.join(parts[:depth])}.{p.stem if p.is_file() else p.name}"
            for depth in range(1, len(parts))
            for p in REPO.joinpath(*parts[:depth]).iterdir()
            if (p.suffix == ".py" and p.stem != "__init__") or (p.is_dir() and (p / "__init__.py").exists())
        } - ancestors - {f"{parts[0]}.apps", f"{parts[0]}.migrations"}
        assert siblings <= pure[source], f"{source}: add {sorted(siblings - pure[source])} to its contract"
