"""The EMA results report (docs/rules.md §9.2): the grid as CSV (byte for byte) and XLSX (cell by cell), the
MERS preview, the reconciliation panel, ``manage.py export_ema`` and who may see the page.

The fixture tournament is built the way an organiser builds one, through the services: 16 players and a
registered substitute, ``seat_tournament`` for 2 rounds, scores on paper, a chombo, a referee penalty (and
a cancelled one), and a player who drops out after round 1. The seating generator is a seeded random draw
that may change, so the seating is then pinned with ``swap_players`` (the organiser's manual override):
the figures below depend on who sits where, never on the generator.

EMA 2016 throughout: start = return = 30 000 (no oka), uma +15/+5/−5/−15 (×1000), ties split (tied
players share the average of the uma of the places they occupy and the better place), leftover sticks
to first place — shared between tied leaders, each share rounded down to 100, the remainder lost —,
chombo −20 000 after uma. A result is ``final score − 30 000 + uma + penalties``.

Players (number: display name — EMA number, ISO country → EMA code)::

     1 Anne Martin       04000001 FR FRA      9 Ivana Horváthová  17000009 SK SVK
     2 Bruno Keller      05000002 DE GER     10 Jakub Novák       22000010 CZ CZE
     3 Chiara Rossi      07000003 IT ITA     11 Kasper Jensen     03000011 DK DEN
     4 Dirk de Vries     08000004 NL NED     12 Lucía García      10000012 ES ESP
     5 Elin Berg         09000005 SE SWE     13 Mika Virtanen     14000013 —  FIN (from prefix 14)
     6 Zoé Lefèvre       04000006 FR FRA     14 Nora Walsh        (none)   IE IRL → blank, NO
     7 Gábor Nagy        06000007 HU HUN     15 Oliver Smith      11000015 GB GBR (no given/family)
     8 Hanna Nowak       19000008 PL POL     16 Pia Huber         01000016 AT AUT (drops out)
     Substitute: Sam Sub 04000017 FR — registered as a substitute, plays round 2 for Pia.

Round 1 (seats East, South, West, North)::

  T1 Anne 45000, Bruno 32000, Chiara 25000, Dirk 18000 → places 1 2 3 4
     Anne +15000+15000 = +30000 · Bruno +2000+5000 = +7000 · Chiara −5000−5000 = −10000
     Dirk −12000−15000 = −27000                                                            sum 0
  T2 Elin 33000, Zoé 33000, Gábor 20000, Hanna 33000, 1 riichi stick left (sum 119000)
     three leaders share 1000: 1000 // 3 = 333 → 300 each, 100 LOST → 33300, 33300, 20000, 33300
     places 1 1 4 1: uma (15+5−5)/3 = +5000 each, 4th −15000
     Elin = Zoé = Hanna +3300+5000 = +8300 · Gábor −10000−15000 = −25000            sum −100
  T3 Ivana 40000, Jakub 28000, Kasper 28000, Lucía 24000 → places 1 2 2 4
     uma: 1st +15000; 2nd/3rd share (5−5)/2 = 0; 4th −15000
     Ivana +10000+15000 = +25000 · Jakub −2000 · Kasper −2000 −20000 (chombo) = −22000
     Lucía −6000−15000 = −21000                                                       sum −20000
  T4 Mika 36000, Nora 30000, Oliver 27000, Pia 25000, 2 sticks left (sum 118000) → Mika 38000
     Mika +8000+15000 = +23000 · Nora 0+5000 = +5000 · Oliver −3000−5000 = −8000
     Pia −5000−15000 = −20000                                                              sum 0

Pia drops out: Sam takes her seat in round 2, on her behalf (credit "registered": Pia gets his result).

Round 2::

  T1 Anne 31000, Elin 38000, Ivana 22000, Mika 29000 → Elin 1, Anne 2, Mika 3, Ivana 4
     Elin +8000+15000 = +23000 · Anne +1000+5000 = +6000 · Mika −1000−5000 = −6000
     Ivana −8000−15000 = −23000                                                            sum 0
  T2 Bruno 27000, Zoé 32000, Jakub 41000, Nora 20000 → Jakub 1, Zoé 2, Bruno 3, Nora 4
     Jakub +11000+15000 = +26000 · Zoé +2000+5000 = +7000 · Bruno −3000−5000 = −8000
     Nora −10000−15000 = −25000                                                            sum 0
  T3 Chiara 30000, Gábor 34000, Kasper 26000, Oliver 30000 → Gábor 1, Chiara 2, Oliver 2, Kasper 4
     Gábor +4000+15000 = +19000 · Chiara 0 + (5−5)/2 = 0 · Oliver 0 · Kasper −4000−15000 = −19000
  T4 Dirk 23000, Hanna 32000, Lucía 35000, Sam(for Pia) 30000 → Lucía 1, Hanna 2, Sam 3, Dirk 4
     Lucía +5000+15000 = +20000 · Hanna +7000 · Pia (Sam) 0−5000 = −5000
     Dirk −7000−15000 = −22000                                                             sum 0

Event penalty: Oliver −5000 (late). Cancelled: Anne −1000 (does not count).

Totals (place sum over 2 games) → standings, ties share the better rank, then by name:

   1 Anne   +30000+6000  = 36000 (1+2)      8 Bruno  +7000−8000   = −1000 (2+3)
   2 Elin   +8300+23000  = 31300 (1+1)      8 Lucía  −21000+20000 = −1000 (4+1)  tie with Bruno
   3 Jakub  −2000+26000  = 24000 (2+1)     10 Gábor  −25000+19000 = −6000
   4 Mika   +23000−6000  = 17000 (1+3)     11 Chiara −10000+0     = −10000
   5 Hanna  +8300+7000   = 15300 (1+2)     12 Oliver −8000+0−5000 = −13000
   5 Zoé    +8300+7000   = 15300 (1+2)     13 Nora   +5000−25000  = −20000
     (tie with Hanna: same points, placement and games)          14 Pia −20000−5000 = −25000
   7 Ivana  +25000−23000 = 2000            15 Kasper −22000−19000 = −41000
                                           16 Dirk   −27000−22000 = −49000

Sum of Scores: 36000+31300+24000+17000+15300+15300+2000 = 140900; the negatives sum to 166000;
140900 − 166000 = −25100 = penalties (−20000 chombo −5000 Oliver = −25000) − 100 lost at R1 T2. ✓

Header: 16 players; countries FRA GER ITA NED SWE HUN POL SVK CZE DEN ESP FIN IRL GBR AUT = 15
(FRA twice). MERS weight = 2 days + 0 (16 players) + 1 (10+ countries) + 0 (no qualification) = 3.
Base ranks, round(1000 × (16 − place) / 15) half up: 1→1000, 2→933 (933.3), 3→867 (866.7), 4→800,
5→733 (733.3), 7→600, 8→533 (533.3), 10→400, 11→333 (333.3), 12→267 (266.7), 13→200, 14→133 (133.3),
15→67 (66.7), 16→0.
"""

from __future__ import annotations

import csv
import io
import json
from datetime import date, datetime
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.db.models import F
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from openpyxl import load_workbook

from league.models import Event, Hanchan, Player, Registration, Seat
from scoring import services
from scoring.engine import Hand, make_ruleset
from scoring.models import Penalty, SeatResult
from tests.conftest import make_event
from tests.scoring.commands import run
from tournaments.ema.reconciliation import reconcile
from tournaments.ema.report import COLUMNS, EmaResultsExport
from tournaments.services import replace_player, seat_tournament, swap_players

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).parent / "fixtures" / "ema"
OPEN = "lyon-open-2025"

# (display name, given, family, EMA number, ISO country)
PEOPLE = [
    ("Anne Martin", "Anne", "Martin", "04000001", "FR"),
    ("Bruno Keller", "Bruno", "Keller", "05000002", "DE"),
    ("Chiara Rossi", "Chiara", "Rossi", "07000003", "IT"),
    ("Dirk de Vries", "Dirk", "de Vries", "08000004", "NL"),
    ("Elin Berg", "Elin", "Berg", "09000005", "SE"),
    ("Zoé Lefèvre", "Zoé", "Lefèvre", "04000006", "FR"),
    ("Gábor Nagy", "Gábor", "Nagy", "06000007", "HU"),
    ("Hanna Nowak", "Hanna", "Nowak", "19000008", "PL"),
    ("Ivana Horváthová", "Ivana", "Horváthová", "17000009", "SK"),
    ("Jakub Novák", "Jakub", "Novák", "22000010", "CZ"),
    ("Kasper Jensen", "Kasper", "Jensen", "03000011", "DK"),
    ("Lucía García", "Lucía", "García", "10000012", "ES"),
    ("Mika Virtanen", "Mika", "Virtanen", "14000013", ""),  # country from the EMA number
    ("Nora Walsh", "Nora", "Walsh", None, "IE"),  # no EMA number
    ("Oliver Smith", "", "", "11000015", "GB"),  # names split from the display name
    ("Pia Huber", "Pia", "Huber", "01000016", "AT"),  # drops out after round 1
]

# Round -> tables -> (players by number 1..16 in seat order E S W N, final scores, sticks left).
ROUND_1 = [
    ((1, 2, 3, 4), (45000, 32000, 25000, 18000), 0),
    ((5, 6, 7, 8), (33000, 33000, 20000, 33000), 1),
    ((9, 10, 11, 12), (40000, 28000, 28000, 24000), 0),
    ((13, 14, 15, 16), (36000, 30000, 27000, 25000), 2),
]
ROUND_2 = [
    ((1, 5, 9, 13), (31000, 38000, 22000, 29000), 0),
    ((2, 6, 10, 14), (27000, 32000, 41000, 20000), 0),
    ((3, 7, 11, 15), (30000, 34000, 26000, 30000), 0),
    ((4, 8, 12, 16), (23000, 32000, 35000, 30000), 0),  # 16 = Pia, played by Sam on her behalf
]


def table(event: Event, round_number: int, table_number: int) -> Hanchan:
    return Hanchan.objects.get(event=event, round_number=round_number, table_number=table_number)


def pin_seating(event: Event, plan: dict[int, list[tuple[Player, ...]]], user: Any) -> None:
    """Swap players until every round is seated as ``plan`` says (each swap puts one player in place
    without moving anyone already placed)."""
    for round_number, tables in plan.items():
        for number, wanted in enumerate(tables, start=1):
            for seat, player in enumerate(wanted):
                sitting = Seat.objects.select_related("player").get(
                    hanchan__event=event, hanchan__round_number=round_number, hanchan__table_number=number,
                    seat=seat,
                )  # fmt: skip
                if sitting.player_id != player.pk:
                    swap_players(
                        event=event, round_number=round_number, first=sitting.player, second=player, user=user
                    )


def play_round(event: Event, number: int, plan: list[Any], user: Any) -> None:
    for index, (_, scores, sticks) in enumerate(plan, start=1):
        services.record_final_scores(
            hanchan=table(event, number, index), scores=list(scores), sticks=sticks, user=user
        )


@pytest.fixture
def cast(club) -> dict[int, Player]:
    """The 16 players by number (1..16) and the substitute as 0."""
    made = {
        number: Player.objects.create(
            display_name=name,
            given_name=given,
            family_name=family,
            ema_number=ema,
            country=country,
            club=club,
        )
        for number, (name, given, family, ema, country) in enumerate(PEOPLE, start=1)
    }
    made[0] = Player.objects.create(
        display_name="Sam Sub",
        given_name="Sam",
        family_name="Sub",
        ema_number="04000017",
        country="FR",
        club=club,
    )
    return made


@pytest.fixture
def open_2025(club, cast, organiser) -> Event:
    """The Lyon Riichi Open 2025, played to the end (see the module docstring for every figure)."""
    event = make_event(club, slug="lyon-open-2025")
    event.name = "Lyon Riichi Open 2025"
    event.kind = Event.Kind.TOURNAMENT
    event.city, event.country = "Lyon", "FR"
    event.start_date, event.end_date = date(2025, 3, 15), date(2025, 3, 16)
    event.ema_days = 2
    event.save()
    for number in range(1, 17):
        Registration.objects.create(event=event, player=cast[number])
    Registration.objects.create(event=event, player=cast[0], is_substitute=True)

    seat_tournament(event=event, rounds=2, user=organiser)
    # 16 players fill 4 tables: the substitute is not seated by the generator.
    assert not Seat.objects.filter(hanchan__event=event, player=cast[0]).exists()
    pin_seating(
        event,
        {
            1: [tuple(cast[n] for n in who) for who, _, _ in ROUND_1],
            2: [tuple(cast[n] for n in who) for who, _, _ in ROUND_2],
        },
        organiser,
    )

    play_round(event, 1, ROUND_1, organiser)
    services.add_penalty(
        event=event,
        player=cast[11],
        points=-20000,
        reason="false ron",
        kind=Penalty.Kind.CHOMBO,
        hanchan=table(event, 1, 3),
        user=organiser,
    )
    mistake = services.add_penalty(event=event, player=cast[1], points=-1000, reason="phone", user=organiser)
    services.cancel_penalty(penalty=mistake, reason="it was the referee's phone", user=organiser)
    assert (
        replace_player(
            event=event, player=cast[16], substitute=cast[0], from_round=2, user=organiser, reason="ill"
        )
        == 1
    )
    play_round(event, 2, ROUND_2, organiser)
    services.add_penalty(
        event=event, player=cast[15], points=-5000, reason="late for round 2", user=organiser
    )
    return event


# -- the grid ------------------------------------------------------------------------------------------


def test_csv_is_byte_for_byte_the_expected_file(open_2025, organiser):
    expected = (FIXTURES / "expected.csv").read_bytes()
    report = EmaResultsExport(open_2025).render("csv")
    assert report.data == expected
    assert (report.filename, report.content_type) == (
        "lyon-open-2025-ema-results.csv",
        "text/csv; charset=utf-8",
    )

    # The file is UTF-8 with a byte-order mark, so that Excel reads "Horváthová" right; the command prints
    # the same text on standard output (CSV by default) without the mark, for the scripts that read it...
    assert expected.startswith(b"\xef\xbb\xbf")
    status, out, err = run("export_ema", "--event", "lyon-open-2025")
    assert (status, err) == (0, "")
    assert "\ufeff" + out == expected.decode("utf-8")
    assert out.encode("utf-8") == expected.removeprefix(b"\xef\xbb\xbf")

    # ...and the organiser downloads them.
    client = Client()
    client.force_login(organiser)
    for args in (["lyon-open-2025", "csv"],):
        response = client.get(reverse("tournaments_manage:ema_download", args=args))
        assert response.status_code == 200
        assert response.content == expected
        assert response["Content-Type"] == "text/csv; charset=utf-8"
        assert response["Content-Disposition"] == 'attachment; filename="lyon-open-2025-ema-results.csv"'


def _cell(value: Any) -> Any:
    """A cell as the JSON spec writes it: dates as ISO strings."""
    if isinstance(value, datetime):
        return value.date().isoformat()
    return value


def _check_xlsx(data: bytes) -> None:
    spec = json.loads((FIXTURES / "expected.json").read_text(encoding="utf-8"))
    book = load_workbook(io.BytesIO(data))
    assert book.sheetnames == [spec["sheet"]]
    sheet = book[spec["sheet"]]
    width = spec["columns"]
    assert (sheet.max_row, sheet.max_column) == (len(spec["rows"]), width)
    for number, (row, expected) in enumerate(
        zip(sheet.iter_rows(values_only=True), spec["rows"], strict=True), start=1
    ):
        padded = list(expected) + [None] * (width - len(expected))
        actual = [_cell(v) for v in row]
        assert actual == padded, f"row {number}"
        # Same types too: 36000 is a number, "04000001" is text (== alone would let 1 == True pass).
        assert [type(v) for v in actual] == [type(v) for v in padded], f"row {number}"
    # Dates are real dates, the EMA numbers are text cells with a text format (leading zeros kept).
    assert isinstance(sheet["B4"].value, datetime) and sheet["B4"].number_format == "yyyy-mm-dd"
    assert sheet["D13"].data_type == "s" and sheet["D13"].number_format == "@"
    assert sheet["D25"].value is None and sheet["D25"].number_format == "@"  # Nora: no number
    assert all(cell.font.bold for cell in sheet[12])
    assert not sheet["A13"].font.bold


def test_xlsx_cell_by_cell(open_2025, organiser, tmp_path):
    report = EmaResultsExport(open_2025).render("xlsx")
    assert report.filename == "lyon-open-2025-ema-results.xlsx"
    assert report.content_type == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    _check_xlsx(report.data)

    target = tmp_path / "ema.xlsx"
    status, out, err = run(
        "export_ema", "--event", "lyon-open-2025", "--format", "xlsx", "--output", str(target)
    )
    assert (status, out, err) == (0, "", "")
    _check_xlsx(target.read_bytes())

    client = Client()
    client.force_login(organiser)
    response = client.get(reverse("tournaments_manage:ema_download", args=["lyon-open-2025", "xlsx"]))
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="lyon-open-2025-ema-results.xlsx"'
    _check_xlsx(response.content)


def test_csv_to_a_file(open_2025, tmp_path):
    target = tmp_path / "ema.csv"
    status, out, err = run(
        "export_ema", "--event", "lyon-open-2025", "--format", "csv", "--output", str(target)
    )
    assert (status, out, err) == (0, "", "")
    assert target.read_bytes() == (FIXTURES / "expected.csv").read_bytes()


def test_who_is_listed_and_the_mers_preview(open_2025, cast):
    export = EmaResultsExport(open_2025)
    rows = {r.player_id: r for r in export.rows}
    # Sam only filled Pia's seat: not listed, although he has an EMA number. Pia dropped out: listed,
    # credited with Sam's round-2 result (−20000 − 5000).
    assert cast[0].pk not in rows
    assert Registration.objects.get(event=open_2025, player=cast[16]).dropped_out
    assert rows[cast[16].pk].score == -25000
    assert export.unlisted == []
    # Places and MERS base ranks worked out in the module docstring (ties share the better place).
    assert [(r.place, r.base_rank) for r in export.rows] == [
        (1, 1000), (2, 933), (3, 867), (4, 800), (5, 733), (5, 733), (7, 600), (8, 533), (8, 533),
        (10, 400), (11, 333), (12, 267), (13, 200), (14, 133), (15, 67), (16, 0),
    ]  # fmt: skip
    header = export.header
    assert (header.players, header.countries, header.days, header.weight) == (16, 15, 2, 3.0)


def test_the_ema_page_shows_reconciliation_mers_and_grid(open_2025, organiser):
    client = Client()
    client.force_login(organiser)
    response = client.get(reverse("tournaments_manage:ema", args=["lyon-open-2025"]))
    assert response.status_code == 200
    html = response.content.decode()
    assert "— adds up" in html and "flagged" not in html
    assert 'id="ema-lost-sticks"' in html and 'class="num">−100</td>' in html
    assert reverse("tournaments_manage:ema_download", args=["lyon-open-2025", "xlsx"]) in html
    assert reverse("tournaments_manage:ema_download", args=["lyon-open-2025", "csv"]) in html
    assert "Horváthová" in html and "tournament weight 3." in html
    check = response.context["check"]
    assert check.ok and not check.unfinished


# -- reconciliation ------------------------------------------------------------------------------------


def test_reconciliation_adds_up_with_the_lost_stick_explained(open_2025, cast):
    check = reconcile(open_2025)
    # Worked out in the module docstring: Scores −25100 = penalties −25000 − 100 lost at R1 T2.
    assert check.scores_total == -25100
    assert (check.chombo_total, check.game_penalty_total, check.event_penalty_total) == (-20000, 0, -5000)
    assert check.penalties_total == -25000
    assert check.lost_sticks == 100
    assert (check.substitute_credit, check.unlisted_total) == (0, 0)
    assert (check.expected_total, check.difference) == (-25100, 0)
    assert check.ok and check.flagged_tables == []

    tables = {t.label: t for t in check.tables}
    assert len(tables) == 8
    assert (tables["Round 1, table 2"].results_sum, tables["Round 1, table 2"].lost_sticks) == (-100, 100)
    assert (tables["Round 1, table 3"].results_sum, tables["Round 1, table 3"].penalties) == (-20000, -20000)
    # Round 1 table 4 had 2 sticks left: they went to Mika, nothing lost.
    assert tables["Round 1, table 4"].lost_sticks == 0
    assert "Sam Sub (for Pia Huber)" in tables["Round 2, table 4"].players

    lines = [(p.player, p.game, p.points, p.is_chombo, p.cancelled, p.counted) for p in check.penalties]
    assert lines == [
        ("Kasper Jensen", "Round 1, table 3", -20000, True, False, True),
        ("Anne Martin", "event", -1000, False, True, False),
        ("Oliver Smith", "event", -5000, False, False, True),
    ]


def test_a_tampered_result_is_flagged(open_2025, organiser):
    # Someone edits a cached row in the database: Anne's round-2 result +6000 becomes +7000.
    game = table(open_2025, 2, 1)
    SeatResult.objects.filter(hanchan=game, seat=0).update(result=F("result") + 1000)
    check = reconcile(open_2025)
    assert check.scores_total == -24100 and check.difference == 1000
    assert not check.totals_ok and not check.ok
    [flagged] = check.flagged_tables
    assert flagged.label == "Round 2, table 1"
    assert (flagged.results_sum, flagged.expected_sum, flagged.mismatched_seats) == (1000, 0, ["East"])

    client = Client()
    client.force_login(organiser)
    html = client.get(reverse("tournaments_manage:ema", args=["lyon-open-2025"])).content.decode()
    assert "does not add up" in html and 'class="bad flagged"' in html
    assert 'class="num bad">+1000' in html
    # It warns, it never blocks: the report can still be downloaded.
    assert (
        client.get(reverse("tournaments_manage:ema_download", args=["lyon-open-2025", "csv"])).status_code
        == 200
    )


def test_a_deleted_result_row_is_flagged(open_2025):
    SeatResult.objects.filter(hanchan=table(open_2025, 1, 1), seat=3).delete()
    check = reconcile(open_2025)
    [flagged] = check.flagged_tables
    assert flagged.stored_rows == 3 and "3 stored results instead of 4" in flagged.problems
    assert check.difference == 27000  # Dirk's −27000 vanished from the Scores


def test_unfinished_tables_are_warnings(open_2025, organiser):
    # Two score slips are disputed: both games are reopened, and leave the standings with their results
    # (and, at round 1 table 3, with Kasper's chombo).
    services.reopen_game(hanchan=table(open_2025, 2, 3), user=organiser, reason="score slip miscounted")
    services.reopen_game(hanchan=table(open_2025, 1, 3), user=organiser, reason="chombo disputed")
    check = reconcile(open_2025)
    assert [u.label for u in check.unfinished] == ["Round 1, table 3", "Round 2, table 3"]
    # The totals still balance, but two seated tables have no result: the report is incomplete.
    assert check.totals_ok and not check.flagged_tables and len(check.tables) == 6
    assert not check.ok and [m.text for m in check.missing_results] == [
        "round 1: 1 of 4 tables has no result",
        "round 2: 1 of 4 tables has no result",
    ]
    [chombo] = [p for p in check.penalties if p.is_chombo]
    assert (chombo.player, chombo.counted, chombo.cancelled) == ("Kasper Jensen", False, False)
    assert check.chombo_total == 0 and check.penalties_total == -5000

    client = Client()
    client.force_login(organiser)
    with CaptureQueriesContext(connection) as queries:
        html = client.get(reverse("tournaments_manage:ema", args=[OPEN])).content.decode()
    assert "2 games without a final result" in html and "no (game not finished)" in html
    assert "adds up" not in html and "incomplete: results missing" in html
    # Bounded by the page, not by the games: these are all entered on paper (no replay query).
    assert len(queries) <= 20


def test_wrc_lost_sticks_and_chombo_hands(club, organiser):
    """wrc2022, hand by hand: leftover sticks are lost and a chombo costs 30 000 after uma.

    Hand 1: draw, seat 0 in riichi (deposit 1000) and alone tenpai: +3000 from the others (1000 each):
    32000, 29000, 29000, 29000 and 1 stick on the table. Hand 2: chombo by seat 2 (nothing moves at the
    table). Time is called. The stick is lost (wrc): scores stay 32000 29000 29000 29000, places 1 2 2 2;
    uma +15000 to seat 0, (5 − 5 − 15)/3 = −5000 each for the three tied second.
    Results: +2000+15000 = +17000; −1000−5000 = −6000; −6000 − 30000 = −36000; −6000. Sum −31000 =
    −30000 (chombo) − 1000 (lost stick).
    """
    event = make_event(club, "wrc2022", slug="wrc-cup")
    event.kind = Event.Kind.TOURNAMENT
    event.save()
    four = [Player.objects.create(display_name=n, club=club) for n in ("Ann", "Bob", "Cho", "Dan")]
    for player in four:
        Registration.objects.create(event=event, player=player)
    game = services.start_game(event=event, players=four, user=organiser)
    services.record_hand(hanchan=game, hand=Hand.draw((0,), riichi=(0,)), user=organiser)
    services.record_hand(hanchan=game, hand=Hand.chombo(2), user=organiser)
    services.finish_game(hanchan=game, user=organiser, reason="time limit")
    assert list(SeatResult.objects.filter(hanchan=game).values_list("result", flat=True)) == [
        17000, -6000, -36000, -6000,
    ]  # fmt: skip

    check = reconcile(event)
    assert (check.scores_total, check.chombo_total, check.lost_sticks, check.difference) == (
        -31000,
        -30000,
        1000,
        0,
    )
    assert check.ok
    [chombo] = check.penalties
    assert (chombo.player, chombo.points, chombo.reason) == ("Cho", -30000, "chombo in hand 2")


def test_fixed_substitute_credit_and_unlisted_points_are_explained(club, organiser):
    """A fixed −10000 for games played by a substitute; the substitute has a penalty of their own.

    Paper game 40000 30000 30000 20000 (EMA 2016): +25000, 0, 0 (tied 2nd), −25000 for Sub at North,
    playing for Dan, who is credited the fixed −10000 instead: the table sums to +15000, explained by
    the substitute credit −10000 − (−25000) = +15000. Sub's own −2000 (event) is in the standings, not in
    the report. Scores 25000 + 0 + 0 − 10000 = 15000; with Sub's −2000: 13000 = −2000 + 15000. ✓
    """
    event = make_event(club, slug="sub-cup")
    event.kind = Event.Kind.TOURNAMENT
    event.substitute_credit = Event.SubstituteCredit.FIXED
    event.substitute_fixed_result = -10000
    event.save()
    names = ("Ann", "Bob", "Cho", "Dan", "Sub")
    ann, bob, cho, dan, sub = (Player.objects.create(display_name=n, club=club) for n in names)
    for player in (ann, bob, cho, dan):
        Registration.objects.create(event=event, player=player)
    Registration.objects.create(event=event, player=sub, is_substitute=True)
    game = services.start_game(
        event=event,
        players=[ann, bob, cho, sub],
        on_behalf_of={3: dan},
        user=organiser,
        entry_mode=Hanchan.EntryMode.FINAL_SCORES,
    )
    services.record_final_scores(hanchan=game, scores=[40000, 30000, 30000, 20000], user=organiser)
    services.add_penalty(event=event, player=sub, points=-2000, reason="phone", user=organiser)

    export = EmaResultsExport(event)
    assert [(r.first_name, r.place, r.score) for r in export.rows] == [
        ("Ann", 1, 25000), ("Bob", 2, 0), ("Cho", 2, 0), ("Dan", 4, -10000),
    ]  # fmt: skip
    check = reconcile(event, export=export)
    assert (check.scores_total, check.unlisted, check.substitute_credit) == (15000, [("Sub", -2000)], 15000)
    assert (check.penalties_total, check.expected_total, check.difference) == (-2000, 13000, 0)
    assert check.ok


def test_a_substitute_with_a_seat_of_their_own_is_left_out_and_places_close_up(club, organiser):
    """Three players and a registered substitute who plays a seat of their own (as when the seating pads
    a table that the players do not fill), so the substitute has a result of their own.

    EMA 2016 on paper, E S W N = Ann 40000, Sub 35000, Bob 25000, Cho 20000 → places 1 2 3 4.
    Ann +10000+15000 = +25000 · Sub +5000+5000 = +10000 · Bob −5000−5000 = −10000 · Cho −10000−15000 =
    −25000. Standings: Ann 1, Sub 2, Bob 3, Cho 4; the report leaves Sub out and closes up: Ann 1, Bob 2,
    Cho 3 (N = 3: base ranks 1000, 500, 0). Scores −10000 + Sub's +10000 not in the report = 0 penalties.
    """
    event = make_event(club, slug="small-open")
    event.kind = Event.Kind.TOURNAMENT
    event.save()
    people = {n: Player.objects.create(display_name=n, club=club) for n in ("Ann", "Sub", "Bob", "Cho")}
    for name, player in people.items():
        Registration.objects.create(event=event, player=player, is_substitute=name == "Sub")
    game = services.start_game(
        event=event, players=list(people.values()), user=organiser, entry_mode=Hanchan.EntryMode.FINAL_SCORES
    )
    services.record_final_scores(hanchan=game, scores=[40000, 35000, 25000, 20000], user=organiser)

    export = EmaResultsExport(event)
    assert [(r.first_name, r.place, r.score, r.base_rank) for r in export.rows] == [
        ("Ann", 1, 25000, 1000), ("Bob", 2, -10000, 500), ("Cho", 3, -25000, 0),
    ]  # fmt: skip
    assert export.header.players == 3
    check = reconcile(event, export=export)
    assert (check.scores_total, check.unlisted, check.difference) == (-10000, [("Sub", 10000)], 0)
    assert check.ok


# -- command contract ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--event", "nope"], "event 'nope' does not exist"),
        (["--event", "autumn-league"], "event 'autumn-league' is a club league: the EMA report is for"),
        (["--event", OPEN, "--format", "xlsx"], "format xlsx is binary: name the file with --output FILE"),
        (["--event", OPEN, "--format", "pdf"], "format: choose xlsx or csv, not 'pdf'"),
        (["--event", OPEN, "--output", "/nonexistent/dir/x.csv"], "/nonexistent/dir/x.csv: cannot write"),
    ],
)
def test_command_failures(event, open_2025, args, message):
    status, out, err = run("export_ema", *args)
    assert (status, out) == (2, "")
    assert err.startswith(message) and err.endswith("\n") and err.count("\n") == 1


def test_an_empty_tournament_exports_its_header(club):
    event = make_event(club, slug="empty-open")
    event.kind = Event.Kind.TOURNAMENT
    event.save()
    status, out, err = run("export_ema", "--event", "empty-open")
    assert (status, err) == (0, "")
    lines = list(csv.reader(io.StringIO(out)))
    # Event without city or country: the club's (Lyon, FR).
    assert lines[:3] == [["Tournament", "Empty Open"], ["City", "Lyon"], ["Country", "FRA"]]
    assert lines[-2:] == [[], list(COLUMNS)]
    assert COLUMNS == (
        "Place", "First Name", "Last name", "EMA number", "Table points", "Score", "Ema Member", "Country",
    )  # fmt: skip


# -- who may see it ------------------------------------------------------------------------------------


def test_only_the_events_organisers_and_staff(open_2025, other_organiser, staff_user, player_user, event):
    urls = [
        reverse("tournaments_manage:ema", args=["lyon-open-2025"]),
        reverse("tournaments_manage:ema_download", args=["lyon-open-2025", "xlsx"]),
        reverse("tournaments_manage:ema_download", args=["lyon-open-2025", "csv"]),
    ]
    for user, status in ((other_organiser, 404), (player_user, 404), (staff_user, 200)):
        client = Client()
        client.force_login(user)
        assert [client.get(url).status_code for url in urls] == [status] * 3
    for url in urls:
        response = Client().get(url)
        assert response.status_code == 302 and response.url.startswith(reverse("login"))


def test_not_for_leagues_nor_unknown_formats(open_2025, event, organiser):
    client = Client()
    client.force_login(organiser)
    assert client.get(reverse("tournaments_manage:ema", args=[event.slug])).status_code == 404
    assert client.get(reverse("tournaments_manage:ema_download", args=[event.slug, "csv"])).status_code == 404
    assert (
        client.get(reverse("tournaments_manage:ema_download", args=["lyon-open-2025", "pdf"])).status_code
        == 404
    )


def test_ruleset_is_ema2016(open_2025):
    """The figures above assume EMA 2016 (uma, chombo, sticks to the leaders): guard the assumption."""
    assert open_2025.ruleset == make_ruleset("ema2016", {}).to_dict()
