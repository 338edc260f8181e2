"""``scoring/engine`` stays pure Python: no Django, nothing from the rest of the project.

The engine is what benchmarks, scripts and property tests import without a database or settings, and
what keeps scoring rules in one place; a stray ``from league.models import …`` would quietly tie it to
Django. Two checks: a static scan of every import statement, and a real import in a fresh interpreter in
which Django and the project's other packages cannot be imported at all.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
ENGINE = REPO / "scoring" / "engine"
ALLOWED_THIRD_PARTY = {"mahjong"}  # PyPI, MIT, no dependencies (docs/rules.md §1.4)
PROJECT_PACKAGES = {"config", "league", "scoring", "tests", "bench"}
ENGINE_FILES = sorted(ENGINE.rglob("*.py"))


def _dynamic_import_name(node: ast.Call) -> str:
    """The module named by ``importlib.import_module("x")`` or ``__import__("x")``, or ``""``."""
    func = getattr(node.func, "id", getattr(node.func, "attr", ""))
    first = node.args[0] if node.args else None
    if func not in ("import_module", "__import__") or not isinstance(first, ast.Constant):
        return ""
    name = first.value
    return name if isinstance(name, str) and not name.startswith(".") else ""


def absolute_imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) for every non-relative import in a file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
        elif isinstance(node, ast.Call) and _dynamic_import_name(node):
            found.append((node.lineno, _dynamic_import_name(node)))
    return found


def test_engine_has_modules() -> None:
    assert (ENGINE / "__init__.py").is_file(), f"no engine package at {ENGINE}"
    assert len(ENGINE_FILES) > 1


@pytest.mark.parametrize("path", ENGINE_FILES, ids=lambda p: str(p.relative_to(ENGINE)))
def test_engine_imports_only_stdlib_relative_and_mahjong(path: Path) -> None:
    """Every import is the standard library, a relative import inside the engine, or ``mahjong``."""
    bad = []
    for line, module in absolute_imports(path):
        top = module.split(".")[0]
        if top == "__future__" or top in sys.stdlib_module_names or top in ALLOWED_THIRD_PARTY:
            continue
        reason = "the project" if top in PROJECT_PACKAGES else "Django" if top == "django" else "third party"
        bad.append(f"{path.relative_to(REPO)}:{line}: import {module} ({reason})")
    assert not bad, "scoring/engine must import only the standard library, itself and mahjong:\n" + "\n".join(
        bad
    )


BLOCKER = textwrap.dedent(
    """
    import importlib.abc, sys

    class Blocked(importlib.abc.MetaPathFinder):
        # Refuse Django and every project package other than the engine itself.
        def find_spec(self, name, path=None, target=None):
            top = name.split(".")[0]
            if top in {"django", "config", "league", "tests", "bench"}:
                raise ImportError(f"blocked import of {name} (scoring.engine must be pure)")
            if top == "scoring" and name != "scoring" and not name.startswith("scoring.engine"):
                raise ImportError(f"blocked import of {name} (scoring.engine must be pure)")
            return None

    sys.meta_path.insert(0, Blocked())
    sys.modules["django"] = None  # belt and braces: 'import django' fails even if already findable
    import importlib
    for name in sys.argv[1:]:
        importlib.import_module(name)
    loaded = [m for m, module in sys.modules.items() if module is not None]
    leaked = sorted(m for m in loaded if m.split(".")[0] in {"django", "config", "league"})
    leaked += sorted(m for m in loaded if m.startswith("scoring.") and not m.startswith("scoring.engine"))
    assert not leaked, leaked
    print("ok")
    """
)


def import_pure(*modules: str) -> subprocess.CompletedProcess[str]:
    """Import ``modules`` in a fresh interpreter where Django and the rest of the project are blocked."""
    return subprocess.run(
        [sys.executable, "-c", BLOCKER, *modules],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO)},
    )


def test_engine_imports_without_django() -> None:
    """The package and every module in it import in an interpreter that cannot import Django."""
    modules = ["scoring.engine"] + [
        "scoring.engine." + ".".join(p.relative_to(ENGINE).with_suffix("").parts)
        for p in ENGINE_FILES
        if p.name != "__init__.py"
    ]
    done = import_pure(*modules)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


def test_tiles_imports_without_django() -> None:
    """``scoring.engine.tiles`` (hands entered as tiles, through ``mahjong``) is part of the pure engine."""
    done = import_pure("scoring.engine", "scoring.engine.tiles")
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr
