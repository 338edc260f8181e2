"""Every CSV Tenbou writes opens right in a spreadsheet (scoring/exports/csvfile.py).

A downloaded file (HTTP, or ``--output FILE``) is UTF-8 behind a byte-order mark, so that Excel reads
``Zoé Lefèvre`` rather than ``ZoÃ© LefÃ¨vre``; standard output has no mark (scripts read it, and the
command contract of docs/game-record.md §7 promises none). Numbers are plain — ``-20.0`` with an ASCII hyphen,
``17.5`` without ``+`` — so a spreadsheet reads them as numbers (``+17.5`` and ``−20.0`` with U+2212 are
text to it). An EMA number keeps its leading zeros everywhere: the 8-digit string in a CSV, a text cell
(format ``@``) in the XLSX, a string in JSON.

The event: a tournament of four, one game on paper, 35000 31000 29000 25000 under EMA 2016 (start =
return = 30000, uma +15/+5/−5/−15): Ann +5000+15000 = +20000, then a −2500 penalty = +17500; Bob
+1000+5000 = +6000; Cho −1000−5000 = −6000; Zoé (EMA number 04390002) −5000−15000 = −20000.
"""

from __future__ import annotations

import csv
import io
import json
import re
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openpyxl import load_workbook

from league.models import Event, Hanchan, Player, Registration
from scoring import services
from scoring.exports.csvfile import cell_text, csv_bytes, csv_response, csv_text
from tests.conftest import make_event
from tests.scoring.commands import run
from tournaments.ema.report import EmaResultsExport

pytestmark = pytest.mark.django_db

BOM = b"\xef\xbb\xbf"
ZOE = "Zoé Lefèvre"


def rows_of(content: bytes) -> list[list[str]]:
    """A CSV file's rows: it must start with the BOM and be UTF-8 behind it."""
    assert content.startswith(BOM), content[:20]
    return list(csv.reader(io.StringIO(content[len(BOM) :].decode("utf-8"))))


@pytest.fixture
def open_cup(club, organiser) -> Event:
    event = make_event(club, slug="csv-open")
    event.kind = Event.Kind.TOURNAMENT
    event.save()
    people = [
        ("Ann Martin", "Ann", "Martin", "04000001"),
        ("Bob Keller", "Bob", "Keller", "05000002"),
        ("Cho Rossi", "Cho", "Rossi", ""),
        (ZOE, "Zoé", "Lefèvre", "04390002"),
    ]
    four = [
        Player.objects.create(
            display_name=name, given_name=given, family_name=family, ema_number=ema or None, country="FR",
            club=club,
        )
        for name, given, family, ema in people
    ]  # fmt: skip
    for player in four:
        Registration.objects.create(event=event, player=player)
    game = services.start_game(
        event=event, players=four, user=organiser, entry_mode=Hanchan.EntryMode.FINAL_SCORES
    )
    services.record_final_scores(hanchan=game, scores=[35000, 31000, 29000, 25000], user=organiser)
    services.add_penalty(event=event, player=four[0], points=-2500, reason="late", user=organiser)
    return event


# -- the module ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (-20.0, "-20.0"),
        (12.5, "12.5"),
        (-0.0, "0.0"),
        (1e16, "10000000000000000"),
        (Decimal("-20.0"), "-20.0"),
        (Decimal("-0.0"), "0.0"),
        (Decimal("1E+3"), "1000"),
        (-36000, "-36000"),
        (0, "0"),
        ("04390002", "04390002"),
        ("+12.5", "'+12.5"),  # text is never formatted as a number, and never starts a formula
        ("Ann-Marie", "Ann-Marie"),  # a formula character inside a name is harmless
        (date(2025, 3, 15), "2025-03-15"),
        (None, ""),
    ],
)
def test_cell_text_writes_numbers_plainly_and_text_as_given(value, text):
    assert cell_text(value) == text


@pytest.mark.parametrize(
    ("value", "text"),
    [
        ('=HYPERLINK("http://evil.example/","Click me")', '\'=HYPERLINK("http://evil.example/","Click me")'),
        ("+1+1", "'+1+1"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1:A2)", "'@SUM(A1:A2)"),
        ("\t=1+1", "'\t=1+1"),
        ("\r=1+1", "'\r=1+1"),
        ("-20.0", "'-20.0"),  # a str is text, even when it reads like a number
    ],
)
def test_text_that_would_start_a_formula_is_quoted(value, text):
    assert cell_text(value) == text


@pytest.mark.parametrize("value", [float("nan"), float("inf"), Decimal("NaN"), True, object()])
def test_cell_text_refuses_what_a_spreadsheet_cannot_read(value):
    with pytest.raises((TypeError, ValueError)):
        cell_text(value)


def test_csv_bytes_has_the_bom_and_csv_text_none():
    rows = [("Name", "Points", "EMA"), (ZOE, Decimal("-20.0"), "04390002"), ("Ann", 17.5, None)]
    assert csv_text(rows) == "Name,Points,EMA\r\nZoé Lefèvre,-20.0,04390002\r\nAnn,17.5,\r\n"
    assert csv_bytes(rows) == BOM + csv_text(rows).encode("utf-8")
    response = csv_response(rows, "cup-standings.csv")
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="cup-standings.csv"'
    assert response.content == csv_bytes(rows)


# -- the standings download and ``manage.py standings`` ---------------------------------------------------


def test_standings_download_opens_right_in_a_spreadsheet(open_cup):
    response = Client().get(reverse("scoring:standings_csv", args=[open_cup.slug]))
    assert response.status_code == 200
    content = response.content
    text = content.decode("utf-8")
    assert "\u2212" not in text and "+" not in text
    header, *body = rows_of(content)
    assert [row[1] for row in body] == ["Ann Martin", "Bob Keller", "Cho Rossi", ZOE]  # accents intact
    points = header.index("Points")
    assert [row[points] for row in body] == ["17.5", "6.0", "-6.0", "-20.0"]  # ASCII hyphen
    for name in ("Points", "Best", "Penalties", "Games", "Avg place", "Avg score"):
        column = header.index(name)
        for row in body:
            float(row[column])  # every figure parses as a number
    assert body[0][header.index("Penalties")] == "-2.5"


def test_a_negative_average_score_is_a_number_in_the_download(club, organiser):
    """Issue 23: a player who ended below zero averaged −5000, which the download wrote as text behind
    the formula guard (``'-5000``); every figure column is numbers, the names stay guarded text."""
    event = make_event(club, slug="csv-below-zero")
    four = [Player.objects.create(display_name=name, club=club) for name in ("Ann", "Bob", "Cho", "-Dan")]
    for player in four:
        Registration.objects.create(event=event, player=player)
    game = services.start_game(
        event=event, players=four, user=organiser, entry_mode=Hanchan.EntryMode.FINAL_SCORES
    )
    services.record_final_scores(hanchan=game, scores=[65000, 31000, 29000, -5000], user=organiser)
    download = Client().get(reverse("scoring:standings_csv", args=[event.slug])).content
    header, *body = rows_of(download)
    last = body[-1]
    assert last[header.index("Player")] == "'-Dan"  # text that starts like a formula stays guarded
    assert last[header.index("Avg score")] == "-5000"
    assert last[header.index("Points")] == "-50.0"
    assert not [cell for row in body for cell in row if cell.startswith("'") and cell != "'-Dan"]
    status, out, _ = run("standings", "--event", event.slug, "--format", "csv")
    assert status == 0 and BOM + out.encode("utf-8") == download


def test_standings_command_prints_the_download_without_the_bom(open_cup):
    status, out, err = run("standings", "--event", open_cup.slug, "--format", "csv")
    assert (status, err) == (0, "")
    assert not out.startswith("\ufeff")
    download = Client().get(reverse("scoring:standings_csv", args=[open_cup.slug])).content
    assert BOM + out.encode("utf-8") == download
    # JSON stays the page's cell text, as the contract and the command's JSON have always had it.
    status, out, err = run("standings", "--event", open_cup.slug)
    assert (status, err) == (0, "")
    assert [row["Points"] for row in json.loads(out)] == ["+17.5", "+6.0", "\u22126.0", "\u221220.0"]


# -- the EMA report ----------------------------------------------------------------------------------------


def test_ema_csv_keeps_the_leading_zeros_and_has_the_bom(open_cup, organiser, tmp_path: Path):
    report = EmaResultsExport(open_cup).render("csv")
    rows = rows_of(report.data)
    grid = rows[rows.index(["Place", "First Name", "Last name", "EMA number", "Table points", "Score",
                            "Ema Member", "Country"]) + 1 :]  # fmt: skip
    assert [(r[1], r[2], r[3], r[5]) for r in grid] == [
        ("Ann", "Martin", "04000001", "17500"),
        ("Bob", "Keller", "05000002", "6000"),
        ("Cho", "Rossi", "", "-6000"),
        ("Zoé", "Lefèvre", "04390002", "-20000"),
    ]
    # The organiser's download and --output FILE are that file; standard output is it without the BOM.
    client = Client()
    client.force_login(organiser)
    download = client.get(reverse("tournaments_manage:ema_download", args=[open_cup.slug, "csv"]))
    assert download.content == report.data
    target = tmp_path / "ema.csv"
    assert run("export_ema", "--event", open_cup.slug, "--output", str(target)) == (0, "", "")
    assert target.read_bytes() == report.data
    status, out, err = run("export_ema", "--event", open_cup.slug)
    assert (status, err) == (0, "")
    assert BOM + out.encode("utf-8") == report.data


def test_ema_xlsx_keeps_the_ema_number_as_text(open_cup):
    sheet = load_workbook(io.BytesIO(EmaResultsExport(open_cup).render("xlsx").data)).active
    assert sheet is not None
    numbers = {row[1].value: row[3] for row in sheet.iter_rows(min_row=13)}
    cell = numbers["Zoé"]
    assert cell.value == "04390002"
    assert cell.data_type == "s" and cell.number_format == "@"
    assert numbers["Zoé"].row == 16 and sheet.cell(row=16, column=6).value == -20000  # a number
    # And in the CSV of the same report (a file: with its BOM), the same 8-digit string.
    rows = rows_of(EmaResultsExport(open_cup).render("csv").data)
    assert ["Zoé", "Lefèvre", "04390002"] in [row[1:4] for row in rows]


# -- formula injection, over every CSV and the XLSX --------------------------------------------------------

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
PLAIN_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
# Printable text (no surrogates, no control characters but the tab and CR the prefixes bring).
NAME_TAIL = st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=25)
HOSTILE_NAME = st.builds(lambda prefix, tail: prefix + tail, st.sampled_from(FORMULA_STARTS), NAME_TAIL)


def assert_no_formula(rows: list[list[str]]) -> None:
    """No cell starts like a formula unless it is a plain number (a spreadsheet sums it, runs nothing)."""
    for row in rows:
        for cell in row:
            assert not cell.startswith(FORMULA_STARTS) or PLAIN_NUMBER.fullmatch(cell), (row, cell)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(names=st.lists(HOSTILE_NAME, min_size=4, max_size=4, unique=True))
def test_hostile_names_never_become_formulas(open_cup, names):
    """Players named like formulas (``=HYPERLINK(…)``, ``+1+1``, ``-2+3``, ``@SUM(…)``, tab or CR first):
    every CSV writes them behind a ``'``, the XLSX as string cells; the negative scores stay numbers."""
    four = list(Player.objects.filter(registrations__event=open_cup).order_by("pk"))
    for player in four:  # out of the way of the names the next loop gives (unique in the club)
        Player.objects.filter(pk=player.pk).update(display_name=f"player {player.pk}")
    for player, name in zip(four, names, strict=True):
        Player.objects.filter(pk=player.pk).update(display_name=name, given_name=name, family_name=name)
    download = Client().get(reverse("scoring:standings_csv", args=[open_cup.slug]))
    assert download.status_code == 200
    standings_rows = rows_of(download.content)
    assert_no_formula(standings_rows)
    header = standings_rows[0]
    assert sorted(row[header.index("Points")] for row in standings_rows[1:]) == [
        "-20.0",
        "-6.0",
        "17.5",
        "6.0",
    ]
    status, out, err = run("standings", "--event", open_cup.slug, "--format", "csv")
    assert (status, err) == (0, "")
    assert_no_formula(list(csv.reader(io.StringIO(out))))
    report = EmaResultsExport(open_cup)
    ema_rows = rows_of(report.render("csv").data)
    assert_no_formula(ema_rows)
    assert sorted(row[1][1:] for row in ema_rows[-4:]) == sorted(names)  # the quote added, nothing lost
    sheet = load_workbook(io.BytesIO(report.render("xlsx").data)).active
    assert sheet is not None
    cells = [cell for row in sheet.iter_rows() for cell in row if cell.value is not None]
    assert all(cell.data_type != "f" for cell in cells)
    scores = [row[5].value for row in sheet.iter_rows(min_row=sheet.max_row - 3)]
    assert sorted(scores) == [-20000, -6000, 6000, 17500]  # numbers, not text
    names_cells = [row[column] for row in sheet.iter_rows(min_row=sheet.max_row - 3) for column in (1, 2)]
    assert all(cell.data_type == "s" and isinstance(cell.value, str) for cell in names_cells)


def test_the_hyperlink_name_is_text_in_the_ema_csv_and_xlsx(open_cup):
    evil = '=HYPERLINK("http://evil.example/","Click me")'
    Player.objects.filter(display_name=ZOE).update(given_name=evil)
    report = EmaResultsExport(open_cup)
    assert ["'" + evil, "Lefèvre", "04390002"] in [row[1:4] for row in rows_of(report.render("csv").data)]
    sheet = load_workbook(io.BytesIO(report.render("xlsx").data)).active
    assert sheet is not None
    cell = sheet.cell(row=16, column=2)
    assert (cell.value, cell.data_type) == (evil, "s")
    assert sheet.cell(row=16, column=6).value == -20000  # the score stays a number
    # Only text is quoted: real negative numbers stay numbers a spreadsheet sums.
    [row] = csv.reader(io.StringIO(csv_text([(evil, -20.0, -36000, Decimal("-2.5"))])))
    assert row == ["'" + evil, "-20.0", "-36000", "-2.5"]


def test_a_name_that_looks_like_a_signed_figure_stays_a_name():
    """Only the figures become numbers: a player called ``+12`` is written as a (neutralised) name."""
    from scoring.tables import csv_rows

    header = ["Rank", "Player", "Points"]
    rows = csv_rows([header, ["1", "+12", "\u221220.0"]])
    assert rows[1][1] == "+12"
    assert float(rows[1][2]) == -20.0
