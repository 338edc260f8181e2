"""The package metadata stays buildable: setuptools stops accepting a licence given as a TOML table
(``license = { text = "MIT" }``) in February 2027, so ``pip install -e .`` — the README's both
commands — would fail then. The licence is an SPDX expression, which needs setuptools 77 or later."""

from __future__ import annotations

import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_the_licence_is_an_spdx_expression_not_a_table():
    assert PYPROJECT["project"]["license"] == "MIT"


def test_the_build_asks_for_a_setuptools_that_reads_spdx_licences():
    (setuptools,) = [
        Requirement(r) for r in PYPROJECT["build-system"]["requires"] if Requirement(r).name == "setuptools"
    ]
    assert not setuptools.specifier.contains(Version("76.9")), setuptools
    assert setuptools.specifier.contains(Version("80.0")), setuptools
