"""Results from elsewhere: the EMA results file as Tenbou writes it (CSV and XLSX) and as other tools write
it (the grid alone); players matched by EMA number or created, never by name; a bad file imports nothing
and says which line and column."""

from __future__ import annotations

import contextlib
from datetime import date

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from hypothesis import given, settings
from hypothesis import strategies as st

from league.models import Player
from rankings.imports import HEADER_KEYS, Details, ImportProblem, import_results, read
from rankings.models import Tournament, TournamentResult
from rankings.selectors import ema_ranking
from tournaments.ema.report import EmaResultsExport

pytestmark = pytest.mark.django_db

GRID = "Place,First Name,Last name,EMA number,Table points,Score,Ema Member,Country\r\n"
OTHER_TOOL = (
    GRID
    + "1,Anne,Martin,04000001,0,45000,YES,FRA\r\n"
    + "2,Jan,Kowalski,,0,12000,NO,POL\r\n"
    + "2,Eva,Berg,09000005,0,12000,YES,SWE\r\n"
    + "4,Anne,Martin,,0,-69000,NO,FRA\r\n"
)


def details(club, **overrides) -> Details:
    values = {"club": club, "name": "Warsaw Open", "end_date": timezone.localdate(), "days": 2}
    values.update(overrides)
    return Details(**values)


def test_a_grid_from_another_tool_matches_by_ema_number_and_never_by_name(club, organiser):
    anne = Player.objects.create(display_name="Anne M.", ema_number="04000001", club=club)
    players_before = Player.objects.count()
    tournament = import_results(
        data=OTHER_TOOL.encode(), filename="warsaw.csv", details=details(club), user=organiser
    )
    assert (tournament.players, tournament.days, tournament.countries, tournament.mers) == (4, 2, 3, True)
    assert tournament.weight == 2.0  # 2 days, 4 players, 3 countries
    results = {
        r.player_id: (r.place, r.base_rank) for r in TournamentResult.objects.filter(tournament=tournament)
    }
    assert results[anne.pk] == (1, 1000)
    # Three players created: Jan and Eva, and a second "Anne Martin" without an EMA number — not Anne.
    assert Player.objects.count() == players_before + 3
    namesakes = Player.objects.filter(given_name="Anne", family_name="Martin")
    assert namesakes.count() == 1 and namesakes.get().ema_number is None
    eva = Player.objects.get(ema_number="09000005")
    assert eva.country == "SE" and results[eva.pk] == (2, 667)  # tied second: the better place's base rank


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_tenbous_own_report_imports_with_its_header(fmt, two_tournaments, club, organiser):
    """The report of a tournament held here, imported as if it came from elsewhere: same places."""
    export = EmaResultsExport(two_tournaments[1])
    file = export.render(fmt)
    tournament = import_results(
        data=file.data, filename=file.filename, details=Details(club=club), user=organiser
    )
    assert tournament.name == "Autumn Open"
    assert tournament.end_date == two_tournaments[1].end_date
    assert tournament.weight == 1.0
    places = sorted(TournamentResult.objects.filter(tournament=tournament).values_list("player_id", "place"))
    assert places == sorted((row.player_id, row.place) for row in export.rows)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (GRID + "1,A,B,04000001,0,1,YES,FRA\r\nx,C,D,,0,1,NO,FRA\r\n", "Line 3, column A (Place)"),
        (GRID + "1,A,B,99000001,0,1,YES,FRA\r\n2,C,D,,0,1,NO,FRA\r\n", "Line 2, column D (EMA number)"),
        (GRID + "1,A,B,04000001,0,1,YES,FRA\r\n2,C,D,04000001,0,1,YES,FRA\r\n", "already on line 2"),
        (GRID + "1,A,B,,0,1,NO,FRA\r\n3,C,D,,0,1,NO,FRA\r\n", "Line 3, column A (Place): place 3"),
        (GRID + "1,A,B,,0,abc,NO,FRA\r\n2,C,D,,0,1,NO,FRA\r\n", "Line 2, column F (Score)"),
        (GRID + "1,A,B,,0,1,NO,XYZ\r\n2,C,D,,0,1,NO,FRA\r\n", "Line 2, column H (Country)"),
        (GRID + "1,,,,0,1,NO,FRA\r\n2,C,D,,0,1,NO,FRA\r\n", "Line 2, columns B and C"),
        (GRID + "1,A,B,,0,1,NO,FRA\r\n", "at least 2 players"),
        ("Tournament,X\r\nEnd date,yesterday\r\n\r\n" + GRID, "Line 2: yesterday is not a date"),
        ("Name,First,Last\r\n1,A,B\r\n", "Line 1: expected the grid's header row"),
        ("Days,-3\r\n\r\n" + GRID, "Line 1: -3 is out of range"),
        ("Players,99999999\r\n\r\n" + GRID, "Line 1: 99999999 is out of range"),
        ("MERS weight,-1\r\n\r\n" + GRID, "Line 1: -1 is not a MERS weight"),
        (GRID + "1,A,B,,0,1e30,NO,FRA\r\n2,C,D,,0,1,NO,FRA\r\n", "Line 2, column F (Score)"),
    ],
)
def test_a_bad_file_names_its_line_and_column_and_imports_nothing(content, message, club, organiser):
    players = Player.objects.count()
    with pytest.raises(ImportProblem) as caught:
        import_results(data=content.encode(), filename="bad.csv", details=details(club), user=organiser)
    assert any(message in m for m in caught.value.messages), caught.value.messages
    assert Tournament.objects.count() == 0 and Player.objects.count() == players


def test_a_file_that_is_not_a_workbook(club, organiser):
    with pytest.raises(ImportProblem, match="not a readable XLSX"):
        import_results(data=b"PK\x03\x04junk", filename="x.xlsx", details=details(club), user=organiser)


def test_the_leading_zeros_a_spreadsheet_dropped_are_put_back():
    found = read((GRID + "1,A,B,4000001,0,1,YES,FRA\r\n2,C,D,,0,1,NO,FRA\r\n").encode(), "x.csv")
    assert found.lines[0].ema_number == "04000001"


def test_a_non_mers_tournament_is_listed_but_does_not_count(club, organiser):
    import_results(
        data=OTHER_TOOL.encode(), filename="a.csv", details=details(club, mers=False), user=organiser
    )
    import_results(
        data=OTHER_TOOL.encode(),
        filename="b.csv",
        details=details(club, name="Second", mers=True),
        user=organiser,
    )
    assert ema_ranking(timezone.localdate()) == []  # one MERS result each: nobody ranked
    import_results(
        data=OTHER_TOOL.encode(),
        filename="c.csv",
        details=details(club, name="Third", end_date=date(2020, 1, 1)),
        user=organiser,
    )
    assert ema_ranking(timezone.localdate()) == []  # six years ago: does not count


def test_the_import_page(club, organiser, other_organiser, other_club):
    client = Client()
    url = reverse("rankings_manage:import")
    assert client.get(url).status_code == 302  # login first
    client.force_login(organiser)
    assert client.get(url).status_code == 200
    from django.core.files.uploadedfile import SimpleUploadedFile

    bad = client.post(
        url, {"file": SimpleUploadedFile("x.csv", b"junk\r\n"), "club": club.pk, "name": "X", "mers": "on"}
    )
    assert bad.status_code == 400 and "Nothing was imported" in bad.content.decode()
    good = client.post(
        url,
        {
            "file": SimpleUploadedFile("x.csv", OTHER_TOOL.encode()),
            "club": club.pk,
            "name": "Warsaw",
            "mers": "on",
            "end_date": "2026-05-01",
        },
    )
    assert good.status_code == 302 and Tournament.objects.get().name == "Warsaw"
    # Another club's organiser cannot import in this club's name.
    client.force_login(other_organiser)
    refused = client.post(url, {"file": SimpleUploadedFile("x.csv", OTHER_TOOL.encode()), "club": club.pk})
    assert refused.status_code == 200 and Tournament.objects.count() == 1


CELL = st.one_of(
    st.text(max_size=12),
    st.integers(-(10**25), 10**25).map(str),
    st.sampled_from(["", "1", "2", "04000001", "4000001", "FRA", "YES", "NO", "2026-05-01", "1e309", "nan"]),
)


@settings(max_examples=150, deadline=None)
@given(
    header=st.lists(st.tuples(st.sampled_from(list(HEADER_KEYS) + ["junk"]), CELL), max_size=4),
    rows=st.lists(st.lists(CELL, min_size=0, max_size=9), max_size=6),
    grid=st.booleans(),
)
def test_any_file_is_read_or_refused_with_reasons_never_an_error(header, rows, grid):
    lines = [",".join(pair) for pair in header] + [""]
    if grid:
        lines.append(GRID.strip())
    lines += [",".join(f'"{c}"' for c in row) for row in rows]
    try:
        found = read("\r\n".join(lines).encode(), "any.csv")
    except ImportProblem as exc:
        assert exc.messages and all(isinstance(m, str) and m for m in exc.messages)
    else:
        assert len(found.lines) >= 2
        assert all(line.place >= 1 for line in found.lines)


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=300))
def test_any_bytes_are_read_or_refused(data):
    for name in ("x.csv", "x.xlsx"):
        with contextlib.suppress(ImportProblem):  # refused with reasons: fine; anything else fails
            read(data, name)
