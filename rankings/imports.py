"""Results of a tournament held elsewhere, from its EMA results file: read, checked, then imported whole.

The file is the EMA results grid (docs/rules.md §9.2) as Tenbou writes it (``tournaments.ema.report``:
CSV or XLSX, a ``Key,Value`` header block, an empty line, the grid) or as other tools write it (the grid
alone, the same columns in the same order; the header row's spelling and case may differ)::

    Place, First Name, Last name, EMA number, Table points, Score, Ema Member, Country

What the header block does not give (or a file without one), the organiser's form does: the name, the
end date, the days, the countries and whether the tournament is MERS. The MERS weight is the file's when
it has one, else computed from days, players, countries and qualification.

**Players** are matched by EMA number only. A line without an EMA number, or with one nobody here has,
creates a player — never merged with a namesake (two "Anne Martin" may be two people). Two records of
one person are joined later by a merge that both clubs agree to (``rankings.merge``).

**A bad file imports nothing**: every problem is an :class:`ImportProblem` naming the line (and column)
as a spreadsheet numbers them, all collected before anything is written; the writes are one transaction.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from league.countries import EMA_PREFIXES, lookup_country
from league.models import Club, Player

from . import method
from .local import bump_version
from .models import Tournament, TournamentResult

COLUMNS = ("place", "first name", "last name", "ema number", "table points", "score", "ema member", "country")
HEADER_KEYS = {
    "tournament": "name",
    "city": "city",
    "country": "country",
    "start date": "start_date",
    "end date": "end_date",
    "days": "days",
    "players": "players",
    "countries": "countries",
    "rules": "rules",
    "mers weight": "weight",
    "mers": "mers",
}
MAX_BYTES = 2 * 1024 * 1024
MAX_PLAYERS = 5000
MAX_COUNT = 10_000
"""Days, players and countries of a header block: beyond this, the file is wrong."""
MAX_WEIGHT = 20.0
MAX_SCORE = 2_000_000_000
"""A score beyond this is no tournament's (and would not fit the column)."""
EMA_NUMBER = re.compile(r"^\d{8}$")


class ImportProblem(Exception):
    """Why a file cannot be imported: a list of messages, each naming its line (and column)."""

    def __init__(self, messages: list[str]) -> None:
        super().__init__("; ".join(messages))
        self.messages = messages


@dataclass
class Line:
    """One player's line of the grid."""

    number: int
    place: int
    first_name: str
    last_name: str
    ema_number: str
    score: int | None
    country: str


@dataclass
class ResultsFile:
    """What a file says: its header block (possibly empty) and its grid."""

    header: dict[str, Any] = field(default_factory=dict)
    lines: list[Line] = field(default_factory=list)


def _cells_csv(data: bytes) -> list[tuple[int, list[Any]]]:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("cp1252", errors="replace")  # older spreadsheets' "CSV" (Windows)
    sample = text[:4096]
    try:
        dialect = csv.Sniffer().sniff(sample, delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    try:
        return [
            (n, row)
            for n, row in enumerate(csv.reader(io.StringIO(text.replace("\x00", "")), dialect), start=1)
        ]
    except csv.Error as exc:  # a stray carriage return inside a field, and the like
        raise ImportProblem([_("The file is not a readable CSV file: %(error)s.") % {"error": exc}]) from None


def _cells_xlsx(data: bytes) -> list[tuple[int, list[Any]]]:
    from openpyxl import load_workbook

    try:
        workbook = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
        try:
            sheet = workbook.worksheets[0]
            return [(n, list(row)) for n, row in enumerate(sheet.iter_rows(values_only=True), start=1)]
        finally:
            workbook.close()
    except Exception as exc:  # noqa: BLE001 -- any unreadable workbook is the same answer to the organiser
        raise ImportProblem([_("The file is not a readable XLSX workbook.")]) from exc


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, datetime):
        return value.date().isoformat()
    return str(value).strip().lstrip("'")  # a CSV cell written as text behind a ' (Tenbou's own files)


def _blank(row: list[Any]) -> bool:
    return all(_text(v) == "" for v in row)


def _header_value(key: str, value: Any, number: int) -> Any:
    text = _text(value)
    if key in ("start_date", "end_date"):
        if isinstance(value, datetime | date):
            return value.date() if isinstance(value, datetime) else value
        if not text:
            return None
        try:
            return date.fromisoformat(text[:10])
        except ValueError:
            raise ImportProblem(
                [_("Line %(line)d: %(value)s is not a date (YYYY-MM-DD).") % {"line": number, "value": text}]
            ) from None
    if key in ("days", "players", "countries"):
        try:
            value = int(float(text)) if text else None
        except (ValueError, OverflowError):
            raise ImportProblem(
                [_("Line %(line)d: %(value)s is not a whole number.") % {"line": number, "value": text}]
            ) from None
        if value is not None and not 1 <= value <= MAX_COUNT:
            raise ImportProblem(
                [
                    _("Line %(line)d: %(value)s is out of range (1 to %(max)d).")
                    % {"line": number, "value": text, "max": MAX_COUNT}
                ]
            )
        return value
    if key == "weight":
        try:
            weight = float(text.replace(",", ".")) if text else None
            if weight is not None and not 0 < weight <= MAX_WEIGHT:
                raise ValueError
            return weight
        except ValueError:
            raise ImportProblem(
                [_("Line %(line)d: %(value)s is not a MERS weight.") % {"line": number, "value": text}]
            ) from None
    if key == "mers":
        return text.upper() not in ("NO", "N", "FALSE", "0", "NON-MERS")
    return text


def read(data: bytes, filename: str) -> ResultsFile:
    """Read and check an EMA results file (CSV or XLSX, by its name or its first bytes)."""
    if len(data) > MAX_BYTES:
        raise ImportProblem([_("The file is larger than 2 MB.")])
    xlsx = filename.lower().endswith(".xlsx") or data[:2] == b"PK"
    rows = _cells_xlsx(data) if xlsx else _cells_csv(data)
    found = ResultsFile()
    problems: list[str] = []
    grid_at = None
    for number, row in rows:
        cells = [_text(v).lower() for v in row]
        if tuple(c for c in cells[: len(COLUMNS)]) == COLUMNS:
            grid_at = number
            break
        if _blank(row):
            continue
        key = HEADER_KEYS.get(cells[0].rstrip(":")) if cells else None
        if key is None:
            problems.append(
                _(
                    "Line %(line)d: expected the grid's header row (%(columns)s) or a header line such as "
                    "“End date, 2026-05-17”; found “%(found)s”."
                )
                % {"line": number, "columns": ", ".join(c.title() for c in COLUMNS), "found": _text(row[0])}
            )
            break
        try:
            found.header[key] = _header_value(key, row[1] if len(row) > 1 else None, number)
        except ImportProblem as exc:
            problems += exc.messages
    if grid_at is None and not problems:
        problems.append(
            _("No grid found: the file needs a header row %(columns)s.") % {"columns": ", ".join(COLUMNS)}
        )
    if problems:
        raise ImportProblem(problems)
    seen_numbers: dict[str, int] = {}
    for number, row in rows:
        if number <= (grid_at or 0) or _blank(row):
            continue
        line, line_problems = _line(number, row)
        problems += line_problems
        if line is None:
            continue
        if line.ema_number:
            if line.ema_number in seen_numbers:
                problems.append(
                    _("Line %(line)d, column D: EMA number %(number)s is already on line %(other)d.")
                    % {"line": number, "number": line.ema_number, "other": seen_numbers[line.ema_number]}
                )
            seen_numbers[line.ema_number] = number
        found.lines.append(line)
    if not problems and len(found.lines) < 2:
        problems.append(
            _("A ranked tournament needs at least 2 players; the file lists %(count)d.")
            % {"count": len(found.lines)}
        )
    if len(found.lines) > MAX_PLAYERS:
        problems.append(_("The file lists more than %(count)d players.") % {"count": MAX_PLAYERS})
    if not problems:
        problems += _check_places(found.lines)
    if problems:
        raise ImportProblem(problems)
    return found


def _line(number: int, row: list[Any]) -> tuple[Line | None, list[str]]:
    cells = [_text(v) for v in row] + [""] * len(COLUMNS)
    problems = []
    place = score = None
    try:
        place = int(cells[0])
        if place < 1:
            raise ValueError
    except ValueError:
        problems.append(
            _("Line %(line)d, column A (Place): %(value)s is not a place (1, 2, 3…).")
            % {"line": number, "value": cells[0] or "—"}
        )
    if cells[5]:
        try:
            score = int(float(cells[5].replace(",", ".")))
            if abs(score) > MAX_SCORE:
                raise ValueError
        except (ValueError, OverflowError):
            problems.append(
                _("Line %(line)d, column F (Score): %(value)s is not a number.")
                % {"line": number, "value": cells[5]}
            )
    ema = cells[3]
    known = set(EMA_PREFIXES) | set(getattr(settings, "TENBOU_EXTRA_EMA_PREFIXES", ()))
    if ema and (not EMA_NUMBER.match(ema) or ema[:2] not in known):
        if ema.isdigit() and len(ema) < 8:
            ema = ema.zfill(8)  # a spreadsheet that dropped the leading zeros
        if not EMA_NUMBER.match(ema) or ema[:2] not in known:
            problems.append(
                _(
                    "Line %(line)d, column D (EMA number): %(value)s is not an EMA number "
                    "(8 digits, a member country's prefix)."
                )
                % {"line": number, "value": cells[3]}
            )
    if not cells[1] and not cells[2]:
        problems.append(_("Line %(line)d, columns B and C: the player has no name.") % {"line": number})
    country = lookup_country(cells[7]) if cells[7] else ""
    if cells[7] and not country:
        problems.append(
            _("Line %(line)d, column H (Country): %(value)s is not a country code.")
            % {"line": number, "value": cells[7]}
        )
    if problems or place is None:
        return None, problems
    return Line(number, place, cells[1][:80], cells[2][:80], ema, score, country), []


def _check_places(lines: list[Line]) -> list[str]:
    """Places run 1..N, tied players sharing the better place: each place is 1 + the players above."""
    places = sorted(line.place for line in lines)
    problems = []
    for line in sorted(lines, key=lambda x: (x.place, x.number)):
        better = sum(1 for p in places if p < line.place)
        if line.place != better + 1:
            problems.append(
                _(
                    "Line %(line)d, column A (Place): place %(place)d does not follow the places above it "
                    "(expected %(expected)d)."
                )
                % {"line": line.number, "place": line.place, "expected": better + 1}
            )
            break
    return problems


@dataclass(frozen=True)
class Details:
    """What the organiser's form gives (used where the file's header block says nothing)."""

    club: Club
    name: str = ""
    end_date: date | None = None
    days: int | None = None
    countries: int | None = None
    mers: bool = True
    qualification: bool = False


def import_results(*, data: bytes, filename: str, details: Details, user: Any) -> Tournament:
    """Read, check and import a tournament's results in one transaction; ImportProblem (nothing imported)
    when the file or the details cannot be used."""
    found = read(data, filename)
    header = found.header
    name = details.name or header.get("name") or ""
    end_date = details.end_date or header.get("end_date") or header.get("start_date")
    problems = []
    if not name:
        problems.append(_("The tournament needs a name (the file's “Tournament” line or the form)."))
    if end_date is None:
        problems.append(_("The tournament needs a date (the file's “End date” line or the form)."))
    if problems:
        raise ImportProblem(problems)
    count = len(found.lines)
    days = details.days or header.get("days") or 1
    countries = (
        details.countries
        or header.get("countries")
        or len({ln.country for ln in found.lines if ln.country})
        or 1
    )
    weight = header.get("weight") or method.tournament_weight(
        days=days, players=count, countries=countries, qualification=details.qualification
    )
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=name[:160],
            city=(header.get("city") or "")[:80],
            country=lookup_country(header.get("country") or ""),
            club=details.club,
            start_date=header.get("start_date") or end_date,
            end_date=end_date,
            days=days,
            players=count,
            countries=countries,
            qualification=details.qualification,
            mers=details.mers and header.get("mers", True),
            weight=weight,
            imported_by=user if getattr(user, "is_authenticated", False) else None,
        )
        known = Player.objects.in_bulk(
            [ln.ema_number for ln in found.lines if ln.ema_number], field_name="ema_number"
        )
        results = []
        for line in found.lines:
            player = known.get(line.ema_number) if line.ema_number else None
            if player is None:
                player = Player.objects.create(
                    display_name=f"{line.first_name} {line.last_name}".strip()[:80],
                    given_name=line.first_name,
                    family_name=line.last_name,
                    ema_number=line.ema_number or None,
                    country=line.country or EMA_PREFIXES.get(line.ema_number[:2], ""),
                )
            results.append(
                TournamentResult(
                    tournament=tournament,
                    player=player,
                    place=line.place,
                    score=line.score,
                    base_rank=method.base_rank(line.place, count),
                )
            )
        TournamentResult.objects.bulk_create(results)
        bump_version()
    return tournament
