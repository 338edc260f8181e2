"""Every CSV Tenbou writes goes through here, so that each opens right in a spreadsheet.

- **Plain numbers**: ints, floats and Decimals are written as a spreadsheet parses them: an ASCII hyphen
  for a negative (``-20.0``), never a ``+`` sign nor the typographic minus U+2212 (Excel and LibreOffice
  read ``+12.5`` and ``−20.0`` as text, so the column no longer sums or sorts), never an exponent.
- **Text stays text**: a ``str`` is written as given. An EMA number is a string (``"04390002"``)
  everywhere in Tenbou, so its leading zeros are written as they are, never turned into ``4390002``.
- **Text never runs as a formula** (OWASP "CSV injection"): a spreadsheet runs a cell starting with ``=``,
  ``+``, ``-`` or ``@`` (and, in some, a tab or carriage return before one) as a formula, so a player
  named ``=HYPERLINK("http://evil.example/","Click me")`` would be a live link in the organiser's
  spreadsheet. Such a ``str`` is written behind a single quote (``'=HYPERLINK(…)``), which every
  spreadsheet shows as text. Only strings are touched: a real negative number is an ``int``, ``float``
  or ``Decimal`` and stays a number a spreadsheet sums (``-20.0``). Every CSV goes through
  :func:`cell_text`, so this holds for the standings download, the EMA report and ``standings --format
  csv`` alike.
- **UTF-8 with a byte-order mark** in every file a person opens (HTTP downloads, files written with
  ``--output``): without the BOM Excel reads UTF-8 as the local code page and garbles ``Zoé Lefèvre``.
  Standard output has no BOM: scripts read it, and the commands' contract (docs/game-record.md §7) has none.
- ``\\r\\n`` line endings, the csv module's RFC 4180 default, which every spreadsheet reads.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Iterable, Sequence
from datetime import date
from decimal import Decimal

from django.http import HttpResponse
from django.utils.http import content_disposition_header

BOM = "\ufeff"
CONTENT_TYPE = "text/csv; charset=utf-8"

Cell = str | int | float | Decimal | date | None

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What makes a spreadsheet read a text cell as a formula (OWASP's list for CSV injection)."""


def neutralise(text: str) -> str:
    """``text`` as a spreadsheet shows it but never runs it: behind a ``'`` when it starts like a formula."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def cell_text(value: Cell) -> str:
    """One cell as CSV text: a number plainly (``-20.0``, ``12.5``, ``36000``), a date as ISO 8601,
    a blank as empty, a string as given unless it would start a formula (then behind a ``'``)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        raise TypeError("csv cell: a bool is neither a number nor text; write it as a string")
    if isinstance(value, str):
        return neutralise(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"csv cell: {value!r} is not a number a spreadsheet can read")
        # repr is the shortest text that reads back as the same float (12.5, not 12.500000); through
        # Decimal so that 1e+16 is written out in full.
        value = Decimal(repr(value))
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise ValueError(f"csv cell: {value!r} is not a number a spreadsheet can read")
        if value.is_zero():
            value = abs(value)  # no "-0.0"
        return format(value, "f")
    if isinstance(value, date):
        return value.isoformat()
    raise TypeError(f"csv cell: cannot write a {type(value).__name__}")


def csv_text(rows: Iterable[Sequence[Cell]]) -> str:
    """The rows as CSV text without a BOM (what a command prints on standard output)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    for row in rows:
        writer.writerow([cell_text(value) for value in row])
    return buffer.getvalue()


def csv_bytes(rows: Iterable[Sequence[Cell]]) -> bytes:
    """The rows as a CSV file: UTF-8 with a byte-order mark (downloads and files written to disk)."""
    return (BOM + csv_text(rows)).encode("utf-8")


def csv_response(rows: Iterable[Sequence[Cell]], filename: str) -> HttpResponse:
    """The rows as a CSV download named ``filename``."""
    response = HttpResponse(csv_bytes(rows), content_type=CONTENT_TYPE)
    response["Content-Disposition"] = content_disposition_header(as_attachment=True, filename=filename)
    return response
