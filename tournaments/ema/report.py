"""The EMA results report (docs/rules.md §9.2): the legacy EMA results grid with a tournament header block.

The EMA accepts one grid per tournament, whose column order two independent tools agree on::

    Place, First Name, Last name, EMA number, Table points, Score, Ema Member, Country

Decisions worth knowing (the EMA's reviewers read these files, so they are stated, not implied):

- **Who is listed**: everyone credited with at least one finished game, except players registered as
  substitutes. A substitute who only filled seats played *on behalf of* a registered player, whose
  results they are (``Seat.credited_player``); a substitute who padded a table of their own is still not
  a participant of the tournament. Players who dropped out *are* listed: they took part, and the games
  played for them are credited as the event's substitute setting says (already in ``SeatResult``).
  Registered players without a game (no-shows) are not listed.
- **Place** is the standings rank, computed without the event's minimum-games setting (a league notion:
  every participant of a tournament has a place). Tied players share the better place (1, 2, 2, 4), as in
  the standings; should a substitute with results of their own stand among the ranked players, the places
  of the listed players are closed up (1 + the number of listed players ranked strictly better), so the
  report always runs 1..N without holes. An event of several stages (qualifying, semifinals, a final)
  is placed by its final ranking (``tournaments.stages.final_ranking``): the finalists first, then the
  others by the stage they reached; every participant still appears once.
- **Score** is the standings total in points (an int: results minus event penalties) — with several
  stages, every point of every stage, so the column still adds up to the games' results (the
  reconciliation); *Table points* is an MCR notion and always 0.
- **EMA number**: the 8-digit string with its leading zeros, blank without one; *Ema Member* is YES iff
  there is a number.
- **Names**: the given and family names as stored; when both are blank the display name is split at its
  first space (``"Oliver Smith"`` → ``Oliver`` / ``Smith``; a single word goes to the first name).
- **Country**: the EMA three-letter code of the player's ISO country, else of the member country named by
  the EMA number's first two digits, else blank. The tournament's city and country fall back to the
  club's when the event has none.
- **CSV** (written by :mod:`scoring.exports.csvfile`, like every CSV of Tenbou): UTF-8 with a byte-order
  mark in the file (so that Excel reads ``Horváthová`` right; ``manage.py export_ema`` prints the same
  text without the mark on standard output, for scripts), ``\\r\\n`` line endings, numbers plain
  (``-1000``), the EMA number as its 8-digit string (``04000001``, never ``4000001``): the header block
  as ``Key,Value`` lines, one empty line, then the grid with its header row.
- **XLSX**: the same rows in the same cells: numbers as numbers, dates as dates (shown ``yyyy-mm-dd``),
  the EMA number as text (number format ``@``) so that its leading zeros survive, the grid header bold.
- **Names are data, never formulas**: a name such as ``=HYPERLINK("http://evil.example/","Click me")``
  is written behind a ``'`` in the CSV (:mod:`scoring.exports.csvfile`) and as a string cell in the XLSX
  (openpyxl would otherwise store it as a live formula); a real negative score stays a number in both.
"""

from __future__ import annotations

import io
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import date
from functools import cached_property

from openpyxl import Workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Font

from league.countries import EMA_PREFIXES, ema_code
from league.models import Event, Player, Registration
from scoring.exports.csvfile import CONTENT_TYPE, csv_bytes, csv_text
from scoring.standings import StandingRow
from tournaments import stages
from tournaments.ema.mers import base_rank, tournament_weight

COLUMNS: tuple[str, ...] = (
    "Place",
    "First Name",
    "Last name",
    "EMA number",
    "Table points",
    "Score",
    "Ema Member",
    "Country",
)
RULES = "RCR"
"""The EMA's name for riichi competition rules in its results files."""

EMA_NUMBER_COLUMN = COLUMNS.index("EMA number") + 1  # 1-based, as spreadsheets count

Cell = str | int | float | date | None


@dataclass(frozen=True)
class EmaRow:
    """One listed player's line of the grid, with the MERS base rank for the preview page."""

    player_id: int
    place: int
    first_name: str
    last_name: str
    ema_number: str
    score: int
    country: str
    base_rank: int | None = None
    """MERS base rank for this place (None with fewer than 2 players: MERS needs two)."""
    table_points: int = 0

    @property
    def ema_member(self) -> str:
        return "YES" if self.ema_number else "NO"

    def cells(self) -> tuple[Cell, ...]:
        """The grid's cells in column order (blank EMA number as None: an empty cell in both formats)."""
        return (
            self.place,
            self.first_name,
            self.last_name,
            self.ema_number or None,
            self.table_points,
            self.score,
            self.ema_member,
            self.country,
        )


@dataclass(frozen=True)
class EmaHeader:
    """The tournament header block the EMA asks for above the grid."""

    name: str
    city: str
    country: str
    start_date: date | None
    end_date: date | None
    days: int
    players: int
    countries: int
    rules: str
    weight: float

    def items(self) -> list[tuple[str, Cell]]:
        """(key, value) lines, in the order they are written. A whole weight is written as an int (``3``,
        not ``3.0``), a fractional one as is (``2.5``)."""
        weight: int | float = int(self.weight) if float(self.weight).is_integer() else self.weight
        return [
            ("Tournament", self.name),
            ("City", self.city),
            ("Country", self.country),
            ("Start date", self.start_date),
            ("End date", self.end_date),
            ("Days", self.days),
            ("Players", self.players),
            ("Countries", self.countries),
            ("Rules", self.rules),
            ("MERS weight", weight),
        ]


@dataclass(frozen=True)
class ExportFile:
    """A rendered export, ready to be sent or written."""

    filename: str
    content_type: str
    data: bytes


def player_names(player: Player) -> tuple[str, str]:
    """(first, last): the stored given and family names, or the display name split at its first space
    when both are blank (older players were created with a display name only)."""
    if player.given_name or player.family_name:
        return player.given_name, player.family_name
    parts = player.display_name.split(None, 1)
    return (parts[0] if parts else "", parts[1] if len(parts) > 1 else "")


def player_country(player: Player) -> str:
    """The EMA code of the player's country, else of the country their EMA number was issued in."""
    code = ema_code(player.country)
    if not code and player.ema_number:
        code = ema_code(EMA_PREFIXES.get(player.ema_number[:2], ""))
    return code


def xlsx_value(value: Cell) -> Cell:
    """A value as the XLSX cell holds it: a string without the control characters XML cannot carry
    (shown as U+FFFD, so that a stray byte in a name never makes the export fail), anything else as is."""
    if isinstance(value, str):
        return ILLEGAL_CHARACTERS_RE.sub("\ufffd", value)
    return value


class EmaResultsExport:
    """The EMA results report of one tournament: header block and grid, as CSV or XLSX."""

    identifier = "ema_results"
    verbose_name = "EMA results report"
    formats: dict[str, str] = {
        "csv": CONTENT_TYPE,
        "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    }

    def __init__(self, event: Event) -> None:
        self.event = event

    # -- data ----------------------------------------------------------------------------------------

    @cached_property
    def standing_rows(self) -> list[StandingRow]:
        """The standings without a minimum number of games (every participant gets a place), in the
        order of the event's final ranking when it has several stages (``tournaments.stages.ema_rows``:
        the finalists first, then everyone else by the stage they reached)."""
        return stages.ema_rows(self.event)

    @cached_property
    def substitute_ids(self) -> set[int]:
        return set(
            Registration.objects.filter(event=self.event, is_substitute=True).values_list(
                "player_id", flat=True
            )
        )

    def is_listed(self, row: StandingRow) -> bool:
        """Ranked (at least one game) and not a registered substitute."""
        return row.ranked and row.rank is not None and row.player_id not in self.substitute_ids

    @cached_property
    def unlisted(self) -> list[StandingRow]:
        """Standings rows left out of the report (substitutes, players without a game) that still carry
        points: the reconciliation must account for them."""
        return [r for r in self.standing_rows if not self.is_listed(r) and r.points]

    @cached_property
    def rows(self) -> list[EmaRow]:
        listed = [r for r in self.standing_rows if self.is_listed(r)]
        people = Player.objects.in_bulk([r.player_id for r in listed])
        ranks = sorted(r.rank for r in listed if r.rank is not None)
        count = len(listed)
        out: list[EmaRow] = []
        for row in listed:
            assert row.rank is not None
            # 1 + listed players ranked strictly better: the standings rank when nobody is left out.
            place = 1 + sum(1 for rank in ranks if rank < row.rank)
            player = people[row.player_id]
            first, last = player_names(player)
            out.append(
                EmaRow(
                    player_id=row.player_id,
                    place=place,
                    first_name=first,
                    last_name=last,
                    ema_number=player.ema_number or "",
                    score=row.points,
                    country=player_country(player),
                    base_rank=base_rank(place, count) if count >= 2 else None,
                )
            )
        return out

    @cached_property
    def header(self) -> EmaHeader:
        event = self.event
        countries = len({r.country for r in self.rows if r.country})
        return EmaHeader(
            name=event.name,
            city=event.city or event.club.city,
            country=ema_code(event.country or event.club.country),
            start_date=event.start_date,
            end_date=event.end_date,
            days=event.ema_days,
            players=len(self.rows),
            countries=countries,
            rules=RULES,
            weight=tournament_weight(
                days=event.ema_days,
                players=len(self.rows),
                countries=countries,
                qualification=event.ema_qualification,
            ),
        )

    def iterate_list(self) -> Iterator[Sequence[Cell]]:
        """Every line of the report: the header block, an empty line, the grid header, the players."""
        yield from self.header.items()
        yield ()
        yield COLUMNS
        for row in self.rows:
            yield row.cells()

    # -- formats -------------------------------------------------------------------------------------

    def filename(self, fmt: str) -> str:
        return f"{self.event.slug}-ema-results.{fmt}"

    def to_csv(self) -> str:
        """The report as CSV text without a BOM, for standard output (``\\r\\n`` line endings; dates ISO,
        blanks empty, numbers plain, EMA numbers as their strings)."""
        return csv_text(self.iterate_list())

    def to_xlsx(self) -> bytes:
        """The report as an XLSX workbook of one sheet, the same rows in the same cells as the CSV."""
        workbook = Workbook()
        sheet = workbook.active
        assert sheet is not None
        sheet.title = "EMA results"
        bold = Font(bold=True)
        grid_header: int | None = None
        for index, line in enumerate(self.iterate_list(), start=1):
            if not line:
                continue  # the empty line stays an empty row
            for column, value in enumerate(line, start=1):
                cell = sheet.cell(row=index, column=column, value=xlsx_value(value))
                if isinstance(value, str):
                    # openpyxl makes any str starting with "=" a formula: a text cell is never one.
                    cell.data_type = "s"
                elif isinstance(value, date):
                    cell.number_format = "yyyy-mm-dd"
            if tuple(line) == COLUMNS:
                grid_header = index
                for cell in sheet[index]:
                    cell.font = bold
            elif grid_header is not None:
                # Text, so that Excel keeps the leading zeros (and a blank stays text when typed into).
                sheet.cell(row=index, column=EMA_NUMBER_COLUMN).number_format = "@"
        for letter, width in zip("ABCDEFGH", (14, 16, 18, 12, 12, 10, 11, 9), strict=True):
            sheet.column_dimensions[letter].width = width
        buffer = io.BytesIO()
        workbook.save(buffer)
        return buffer.getvalue()

    def render(self, fmt: str) -> ExportFile:
        """The report in ``fmt`` (``csv`` or ``xlsx``); ValueError for any other format."""
        if fmt == "csv":
            data = csv_bytes(self.iterate_list())  # a file: with the BOM
        elif fmt == "xlsx":
            data = self.to_xlsx()
        else:
            raise ValueError(f"format: choose csv or xlsx, not {fmt!r}")
        return ExportFile(self.filename(fmt), self.formats[fmt], data)
