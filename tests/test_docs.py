"""The repository cites only documents it contains (docs/developers.md, "Documents").

Code, templates, tests and documents point readers to ``docs/rules.md §6``, ``docs/game-record.md §4``,
``docs/architecture.md §2`` and the like. A citation of a document that is not in the repository, or of a
section the document does not have, sends the reader nowhere — as the ninety citations of documents kept
outside the repository once did. So every file of the project is scanned:

- every ``NAME.md`` path it mentions must be a file, from the repository root or from the citing file's
  own folder (a Markdown link is relative to its file);
- every ``§N`` (``§6.1``, ``§2–§5``) must follow such a path and be a numbered heading of that document,
  or, written bare inside a document, a numbered heading of that document itself;
- every Markdown link to a file of the repository must reach it, and its ``#anchor`` a heading there;
- nothing may point outside the repository to the documents it once borrowed.

The JSON examples that ``docs/game-record.md`` shows are the fixtures the tests replay, so the public
contract's examples cannot drift from what the engine is tested to print.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
THIS = Path(__file__).resolve()

SKIPPED_FOLDERS = {"node_modules", "__pycache__", "staticfiles", "build", "artifacts", "migrations"}
SCANNED = {".py", ".html", ".md", ".toml", ".sh", ".txt", ".cfg", ".ini", ".js", ".css", ".yml", ".yaml"}

URL = re.compile(r"[a-z][a-z0-9+.-]*://\S+", re.IGNORECASE)
DOCUMENT = re.compile(r"(?<![\w/.-])((?:\.{1,2}/)*(?:[\w-]+/)*[\w.-]+\.md)(?![\w-])")
SECTION_NUMBER = r"\d+(?:\.\d+)*"
RANGE = rf"§[ \t]*({SECTION_NUMBER})(?:[ \t]*[–-][ \t]*§?[ \t]*({SECTION_NUMBER}))?"  # §6, §6.1, §2–§5, §2–5
SECTIONS = rf"(?:[ \t]*(?:,|and|or)?[ \t]*{RANGE})"
CITATION = re.compile(DOCUMENT.pattern + rf"(?P<sections>{SECTIONS}+)")
BARE_SECTION = re.compile(RANGE)
LINK = re.compile(r"\[[^\]\n]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
HEADING = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t]*#*[ \t]*$")
NUMBERED = re.compile(rf"^({SECTION_NUMBER})\.?(?:\s|$)")
FENCE = re.compile(r"^\s*(```|~~~)")
# What the repository once cited without containing it (this file, which names them, is not scanned).
OUTSIDE = re.compile(r"\.\./shared|shared/docs|shared docs?\b|\.\./seeds")
MODULE = sys.modules[__name__]


def project_files() -> Iterator[Path]:
    """Every text file of the project: code, templates, tests, documents, configuration."""
    for path in sorted(REPO.rglob("*")):
        relative = path.relative_to(REPO)
        if any(part.startswith(".") or part in SKIPPED_FOLDERS for part in relative.parts[:-1]):
            continue
        if any(part.endswith(".egg-info") for part in relative.parts):
            continue
        if path.is_file() and path.suffix in SCANNED and path != THIS:
            yield path


def text_of(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def without_urls(text: str) -> str:
    """``text`` with web addresses blanked out (same length, so positions still give line numbers)."""
    return URL.sub(lambda m: " " * len(m.group()), text)


def without_code_blocks(text: str) -> list[str]:
    """The lines of a Markdown text, those inside fenced code blocks blanked."""
    lines, inside = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            inside = not inside
            lines.append("")
            continue
        lines.append("" if inside else line)
    return lines


def heading_texts(document: Path) -> list[str]:
    """The titles of a Markdown document's headings, in order (code blocks skipped)."""
    found = []
    for line in without_code_blocks(text_of(document)):
        match = HEADING.match(line)
        if match:
            found.append(match.group(2))
    return found


@cache
def section_numbers(document: Path) -> frozenset[str]:
    """The numbers of a document's numbered headings: ``## 6. Final result`` is 6, ``### 6.1 …`` 6.1."""
    numbers = set()
    for title in heading_texts(document):
        match = NUMBERED.match(title)
        if match:
            numbers.add(match.group(1))
    return frozenset(numbers)


def slug(title: str) -> str:
    """A heading's anchor as GitHub and most Markdown renderers write it."""
    text = re.sub(r"[^\w\- ]", "", title.strip().lower())
    return text.replace(" ", "-")


@cache
def anchors(document: Path) -> frozenset[str]:
    seen: dict[str, int] = {}
    out = set()
    for title in heading_texts(document):
        base = slug(title)
        count = seen.get(base, 0)
        out.add(base if count == 0 else f"{base}-{count}")
        seen[base] = count + 1
    return frozenset(out)


def resolve(mention: str, citing: Path, *, literal: bool = False) -> Path | None:
    """The file a mentioned path names: from the repository root, else from the citing file's folder.

    A Markdown document may also name a file of a folder above its own (``rulesets.md`` in
    ``docs/fr/organisers.md``), as its readers do. ``literal``: the mention is a whole string literal of
    code that builds a path from parts (``REPO / "docs" / "rulesets.md"``), found by its name.
    """
    bases = [REPO, citing.parent]
    if citing.suffix == ".md":
        bases += [folder for folder in citing.parent.parents if folder.is_relative_to(REPO)]
    for base in bases:
        candidate = (base / mention).resolve()
        if candidate.is_file() and candidate.is_relative_to(REPO):
            return candidate
    if literal and "/" not in mention:
        return next((path for path in project_files() if path.name == mention), None)
    return None


def is_literal(text: str, match: re.Match[str]) -> bool:
    """Whether the match is a whole quoted string (``"rulesets.md"``), not a path in prose."""
    before, after = text[match.start() - 1 : match.start()], text[match.end() : match.end() + 1]
    return before in ("'", '"') and after == before


def where(path: Path, text: str, position: int) -> str:
    return f"{path.relative_to(REPO)}:{text.count(chr(10), 0, position) + 1}"


def cited_sections(sections: str) -> list[str]:
    """Every section number of a run such as ``§2–§5`` or ``§3, §6.1 and §9``."""
    return [number for pair in BARE_SECTION.findall(sections) for number in pair if number]


def citation_problems() -> list[str]:
    """Missing documents, missing sections, stray ``§`` and links that reach nothing, across the project."""
    problems = []
    for path in project_files():
        text = without_urls(text_of(path))
        for match in DOCUMENT.finditer(text):
            if resolve(match.group(1), path, literal=is_literal(text, match)) is None:
                problems.append(
                    f"{where(path, text, match.start())}: {match.group(1)} is not in the repository"
                )
        covered: set[int] = set()
        for match in CITATION.finditer(text):
            document = resolve(match.group(1), path)
            covered.update(range(match.start("sections"), match.end("sections")))
            if document is None:
                continue  # reported above
            for number in cited_sections(match.group("sections")):
                if number not in section_numbers(document):
                    problems.append(
                        f"{where(path, text, match.start())}: {match.group(1)} has no section §{number}"
                    )
        for match in BARE_SECTION.finditer(text):
            if match.start() in covered:
                continue
            if path.suffix != ".md":
                problems.append(
                    f"{where(path, text, match.start())}: {match.group()} names no document "
                    "(write docs/NAME.md §N)"
                )
                continue
            for number in cited_sections(match.group()):
                if number not in section_numbers(path):
                    problems.append(
                        f"{where(path, text, match.start())}: this document has no section §{number}"
                    )
        if path.suffix == ".md":
            problems += link_problems(path)
    return problems


def link_problems(path: Path) -> list[str]:
    """Markdown links from ``path`` to a missing file, or to a heading the target does not have."""
    problems = []
    for number, line in enumerate(without_code_blocks(text_of(path)), start=1):
        for match in LINK.finditer(line):
            target = match.group(1).strip("<>")
            if URL.match(target) or target.startswith("mailto:"):
                continue
            name, _, anchor = target.partition("#")
            document = (path.parent / name).resolve() if name else path
            if not document.exists() or not document.is_relative_to(REPO):
                problems.append(f"{path.relative_to(REPO)}:{number}: link to {target}: no such file")
            elif anchor and document.suffix == ".md" and anchor not in anchors(document):
                problems.append(f"{path.relative_to(REPO)}:{number}: link to {target}: no such heading")
    return problems


# -- the checks ----------------------------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def _fresh_caches() -> Iterator[None]:
    """Headings are read once per document and test: a test that feeds its own text starts clean."""
    section_numbers.cache_clear()
    anchors.cache_clear()
    yield
    section_numbers.cache_clear()
    anchors.cache_clear()


def feed(monkeypatch: pytest.MonkeyPatch, path: Path, text: str, *, only: bool = True) -> None:
    """Scan ``text`` as the content of ``path`` (alone, with ``only``); other files read as they are."""
    real = MODULE.text_of
    monkeypatch.setattr(MODULE, "text_of", lambda p: text if p == path else real(p))
    if only:
        monkeypatch.setattr(MODULE, "project_files", lambda: iter([path]))


def test_the_scan_sees_the_project() -> None:
    """Fail loudly rather than pass by scanning nothing: the code and the documents are both read."""
    scanned = {path.relative_to(REPO).as_posix() for path in project_files()}
    for expected in ("README.md", "docs/rules.md", "scoring/engine/final.py", "templates/base.html"):
        assert expected in scanned


def test_every_cited_document_and_section_exists() -> None:
    problems = citation_problems()
    assert not problems, "\n".join(problems)


def test_nothing_points_outside_the_repository() -> None:
    found = [
        where(path, text_of(path), match.start()) + f": {match.group()}"
        for path in project_files()
        for match in OUTSIDE.finditer(text_of(path))
    ]
    assert not found, "\n".join(found)


CITING = REPO / "scoring" / "engine" / "final.py"


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("see rules.md §6 for the uma", "rules.md is not in the repository"),
        ("see docs/design.md", "docs/design.md is not in the repository"),
        ("the game-record.md contract", "game-record.md is not in the repository"),
        ("see docs/rules.md §42", "docs/rules.md has no section §42"),
        ("see docs/rules.md §2–§44", "docs/rules.md has no section §44"),
        ("see docs/rules.md §1 and §77", "docs/rules.md has no section §77"),
        ("as §6 says", "§6 names no document"),
    ],
)
def test_a_bad_citation_is_reported(monkeypatch: pytest.MonkeyPatch, text: str, problem: str) -> None:
    """The scan itself: each kind of broken citation, written into a scanned file, is named."""
    feed(monkeypatch, CITING, f'"""{text}"""\n')
    problems = citation_problems()
    assert any(f"scoring/engine/final.py:1: {problem}" in line for line in problems), problems


def test_good_citations_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    text = "docs/rules.md §6.1, docs/rules.md §2–§5, docs/game-record.md §4 and §7, docs/architecture.md §2"
    feed(monkeypatch, CITING, text)
    assert citation_problems() == []


def test_markdown_links_and_anchors_are_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    page = REPO / "docs" / "developers.md"
    text = (
        "[fine](rules.md#6-final-result-of-a-game) [gone](design.md) [nowhere](rules.md#no-such-heading)\n"
        "```\n[inside a code block](missing.md)\n```\n"
    )
    feed(monkeypatch, page, text)
    assert link_problems(page) == [
        "docs/developers.md:1: link to design.md: no such file",
        "docs/developers.md:1: link to rules.md#no-such-heading: no such heading",
    ]


# -- the game record's examples ----------------------------------------------------------------------------


def json_blocks(document: Path) -> list[object]:
    return [json.loads(block) for block in re.findall(r"```json\n(.*?)```", text_of(document), flags=re.S)]


def test_game_record_shows_the_fixtures() -> None:
    """docs/game-record.md §1's record and §6's ``replay`` output are the fixtures the tests replay."""
    fixtures = REPO / "tests" / "scoring" / "fixtures" / "game-record"
    blocks = json_blocks(REPO / "docs" / "game-record.md")
    assert blocks == [
        json.loads(text_of(fixtures / "example.json")),
        json.loads(text_of(fixtures / "example-first-hand.expected.json")),
    ]
