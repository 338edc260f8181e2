"""The standings as django-tables2 tables, and the same tables as CSV.

The page renders these tables and the CSV download and ``manage.py standings`` write their
``as_values()``: one definition of the columns, headers and cell text, so the three outputs hold the
same rows, columns, order and values. Every cell renders plain text (only the player's name is wrapped in
a link, and ``value_name`` gives the bare name), and an empty cell is empty in all three.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Iterable, Sequence
from decimal import Decimal
from typing import Any

import django_tables2 as tables
from django.http import HttpRequest
from django.urls import reverse
from django.utils import translation
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from .exports.csvfile import Cell, csv_text
from .standings import StandingRow
from .templatetags.tenbou import localized, plain_thousands, thousands
from .templatetags.tenbou import points as points_text

PER_PAGE = 50
EXPORT_LANGUAGE = "en"
"""The language of the CSV/JSON headers: an export is a machine format, the same whatever the page's."""
UNRANKED_PREFIX = "nr-"
NUM = {"th": {"class": "num"}, "td": {"class": "num"}}


class IntColumn(tables.Column):
    """A count, as text."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("attrs", NUM)
        super().__init__(*args, **kwargs)

    def render(self, value: Any) -> str:
        return str(value)


class ScoreColumn(IntColumn):
    """A score in points (an average final score: 33850), written as the scoreboards and the game pages
    write points — grouped in French and Polish (33 850) — and plain in the export."""

    def render(self, value: Any) -> str:
        return points_text(value)

    def value(self, value: Any) -> str:
        return str(value)


class PointsColumn(IntColumn):
    """Points in thousands with one decimal, signed (+23.4), like every standings page in the hobby."""

    def render(self, value: Any) -> str:
        return thousands(value)

    def value(self, value: Any) -> str:
        """The export's form (+23.4), never the page's language's (+23,4)."""
        return plain_thousands(value)


class StandingsTable(tables.Table):
    """One table class for the ranked players and for those not yet ranked: the same columns in both.

    A column's ``order_by`` is what its first click sorts by, so the first click puts the best first
    (most points, lowest average placement, most games); the second click reverses it. Python's sort is
    stable, so rows equal in the clicked column keep their standings order.
    """

    rank = IntColumn(verbose_name=_("Rank"), attrs={"th": {"class": "num rank"}, "td": {"class": "num rank"}})
    name = tables.Column(
        verbose_name=_("Player"), order_by=("sort_name", "player_id"), attrs={"td": {"class": "name"}}
    )
    points = PointsColumn(verbose_name=_("Points"), order_by=("-points",))  # second: visible on a phone
    games = IntColumn(verbose_name=_("Games"), order_by=("-games",))
    average_place = tables.Column(verbose_name=_("Avg place"), order_by=("placement",), attrs=NUM)
    firsts = IntColumn(verbose_name=_("1st"), order_by=("-firsts",))
    seconds = IntColumn(verbose_name=_("2nd"), order_by=("-seconds",))
    thirds = IntColumn(verbose_name=_("3rd"), order_by=("-thirds",))
    fourths = IntColumn(verbose_name=_("4th"), order_by=("-fourths",))
    average_score = ScoreColumn(verbose_name=_("Avg score"), order_by=("-average_score",))
    best = PointsColumn(verbose_name=_("Best"), order_by=("-best",))
    chombos = IntColumn(verbose_name=pgettext_lazy("standings column", "Chombo"), order_by=("-chombos",))
    penalties = PointsColumn(verbose_name=_("Penalties"), order_by=("penalties",))

    class Meta:
        template_name = "scoring/public/standings_table.html"
        attrs = {"class": "standings"}
        default = ""
        empty_text = _("No players.")
        orderable = True

    def render_name(self, value: str, record: StandingRow) -> str:
        # .cell-name caps the cell's width and breaks a long name anywhere, so the points stay in view.
        url = reverse("scoring:player", args=[record.player_id])
        return format_html('<a class="cell-name" href="{}">{}</a>', url, value)

    def value_name(self, value: str) -> str:
        return value

    def render_average_place(self, value: Any) -> str:
        return localized(value, 2)

    def lean_rows(self) -> list[tuple[str, list[tuple[str, Any]]]]:
        """The rows of the current page for the table's body, as (row attributes, [(cell attributes,
        cell)]): the same cells, attributes and order as django-tables2's own body (a test compares the
        two), computed once per column instead of once per cell.

        django-tables2 renders a cell by resolving its accessor, inspecting the signature of the
        column's ``render`` and recomputing the column's attributes — for every cell: three quarters of
        a standings page's time (650 cells). Here each column's attributes and render call are worked
        out once, and a cell is an attribute read and one call.
        """
        plan = []
        for column in self.columns:
            render = getattr(self, f"render_{column.name}", None)
            if render is None and type(column.column).render is not tables.Column.render:
                render = column.column.render
            wants_record = render is not None and "record" in inspect.signature(render).parameters
            empty = column.column.empty_values
            td = column.attrs["td"].as_html()
            plan.append((td, tables.A(column.accessor), render, wants_record, empty))
        default = self._meta.default
        body = []
        for row in self.paginated_rows:
            record = row.record
            cells = []
            for attrs, accessor, render, wants_record, empty in plan:
                value = accessor.resolve(record, quiet=True)
                if value in empty:
                    cell = default
                elif render is None:
                    cell = value
                else:
                    cell = render(value, record) if wants_record else render(value)
                cells.append((attrs, cell))
            body.append((row.attrs.as_html(), cells))
        return body

    def value_average_place(self, value: Any) -> str:
        return f"{value:.2f}"


def standings_tables(rows: Sequence[StandingRow]) -> tuple[StandingsTable, StandingsTable]:
    """(ranked, not yet ranked) tables; the second has its own prefix so both sort and page apart."""
    ranked = StandingsTable([r for r in rows if r.ranked])
    unranked = StandingsTable([r for r in rows if not r.ranked], prefix=UNRANKED_PREFIX)
    return ranked, unranked


def export_rows(tables_: Iterable[tables.Table]) -> list[list[str]]:
    """The header once, then every row of every table (all pages) in the tables' current order."""
    out: list[list[str]] = []
    with translation.override(EXPORT_LANGUAGE):  # headers too: a CSV's columns never change names
        for index, table in enumerate(tables_):
            values = iter(table.as_values())
            header = next(values)
            if index == 0:
                out.append([str(h) for h in header])
            out.extend([("" if v is None else str(v)) for v in row] for row in values)
    return out


FIGURE = re.compile(r"[+\u2212-]?\d+(?:\.\d+)?")
"""A figure as the page shows it: signed points (``+23.4``, ``−20.0`` with U+2212, which a spreadsheet
reads as text), or a count, a placement or an average score (``12``, ``2.50``, ``-2400`` with an ASCII
hyphen, which the formula guard would otherwise quote as text)."""


TEXT_COLUMNS = frozenset({list(StandingsTable.base_columns).index("name")})
"""Columns that are text whatever they look like: a player named ``+12`` stays ``+12``."""


def csv_rows(rows: Iterable[Sequence[str]]) -> list[list[Cell]]:
    """The exported rows with every figure as the number it is (``+23.4`` → 23.4, ``−20.0`` → -20.0,
    ``-2400`` → -2400), so that the CSV writes it plainly — a negative number is a number, never text
    behind the formula guard's quote; every other cell (names, blanks, the header) as it is."""
    listed = list(rows)
    if not listed:
        return []
    header, *body = listed
    return [
        list(header),
        *(
            [
                Decimal(v.replace("\u2212", "-").lstrip("+"))
                if i not in TEXT_COLUMNS and FIGURE.fullmatch(v)
                else v
                for i, v in enumerate(row)
            ]
            for row in body
        ),
    ]


def to_csv(rows: Iterable[Sequence[str]]) -> str:
    """CSV text without a BOM (``manage.py standings`` on standard output): the download's content, plain
    numbers and ``\\r\\n`` line endings; the download is these same characters after a BOM."""
    return csv_text(csv_rows(rows))


def to_records(rows: Sequence[Sequence[str]]) -> list[dict[str, str]]:
    """The rows as objects keyed by the CSV header (for JSON), the values exactly as in the CSV."""
    header, *body = rows
    return [dict(zip(header, row, strict=True)) for row in body]


def configured_tables(
    request: HttpRequest, rows: Sequence[StandingRow], *, paginate: bool
) -> list[StandingsTable]:
    """Both tables sorted as the request asks (``sort`` and ``nr-sort``); paged for the page only, since
    a download holds every row."""
    both = standings_tables(rows)
    config = tables.RequestConfig(request, paginate={"per_page": PER_PAGE} if paginate else False)
    for table in both:
        config.configure(table)
    return list(both)
