"""Standings (docs/rules.md §8.1) on a real database, with expectations worked out by hand.

EMA 2016 throughout: start = return = 30 000 (no oka), uma +15/+5/−5/−15 (in points ×1000), ties split —
tied players share the average of the uma of the places they occupy and both count as the better place —
and a chombo costs 20 000 after uma. A result is ``score − 30 000 + uma + penalties``.
"""

from __future__ import annotations

import csv
import io
import random
import re
import warnings
from datetime import UTC, date, datetime
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urlencode
from zoneinfo import ZoneInfo

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from league.models import Event, Hanchan, Player, Registration
from scoring import services
from scoring.engine import GameRecord, Hand, Win
from scoring.engine.generator import random_game
from scoring.imports import import_records
from scoring.models import Penalty, SeatResult
from scoring.standings import StandingRow, latest_games, standings
from tests.conftest import make_event

pytestmark = pytest.mark.django_db

PARIS = ZoneInfo("Europe/Paris")
NAMES = ["Ann", "Bob", "Cho", "Dan", "Eve", "Fay", "Gus", "Hal"]


# -- helpers -------------------------------------------------------------------------------------------


@pytest.fixture
def eight(club, event) -> dict[str, Player]:
    """Eight registered players by name (the shared ``players`` fixture has six)."""
    made = {n: Player.objects.create(display_name=n, club=club) for n in NAMES}
    Registration.objects.bulk_create([Registration(event=event, player=p) for p in made.values()])
    return made


def paper_game(event: Event, who: list[Player], scores: list[int], user: Any, sticks: int = 0) -> Hanchan:
    """A game entered as its four final scores (which finishes it)."""
    game = services.start_game(event=event, players=who, user=user, entry_mode=Hanchan.EntryMode.FINAL_SCORES)
    services.record_final_scores(hanchan=game, scores=scores, sticks=sticks, user=user)
    return game


def hand_game(
    event: Event, who: list[Player], hands: list[Hand], user: Any, *, finish: bool = True
) -> Hanchan:
    """A game entered hand by hand and, unless told otherwise, ended early on the time limit."""
    game = services.start_game(event=event, players=who, user=user)
    for hand in hands:
        services.record_hand(hanchan=game, hand=hand, user=user)
    if finish:
        services.finish_game(hanchan=game, user=user, reason="time limit")
    return game


def summary(rows: list[StandingRow]) -> list[tuple[Any, ...]]:
    """(rank, name, games, points) per row, in order."""
    return [(r.rank, r.name, r.games, r.points) for r in rows]


class TableText(HTMLParser):
    """The text of every ``table.standings`` on a page: per table, its header and its body rows."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[dict[str, list[Any]]] = []
        self.cell: list[str] | None = None
        self.row: list[str] | None = None
        self.depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table" and "standings" in (dict(attrs).get("class") or "").split():
            self.tables.append({"header": [], "rows": []})
            self.depth = 1
        elif self.depth and tag == "tr":
            self.row = []
        elif self.depth and tag in ("td", "th"):
            self.cell = []

    def handle_endtag(self, tag: str) -> None:
        if not self.depth:
            return
        if tag in ("td", "th") and self.cell is not None and self.row is not None:
            self.row.append("".join(self.cell).strip())
            self.cell = None
        elif tag == "tr" and self.row is not None:
            table = self.tables[-1]
            if not table["header"]:
                table["header"] = self.row
            else:
                table["rows"].append(self.row)
            self.row = None
        elif tag == "table":
            self.depth = 0

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)


def page_tables(html: str) -> list[dict[str, list[Any]]]:
    parser = TableText()
    parser.feed(html)
    return parser.tables


def page_as_csv_rows(html: str) -> list[list[str]]:
    """What the page shows, as CSV rows: the header once, then the ranked and the not-yet-ranked rows,
    every signed figure written plainly as the CSV writes it (``+25.0`` → ``25.0``, ``−25.0`` → ``-25.0``)."""
    found = page_tables(html)
    assert found, "no standings table on the page"
    rows = [found[0]["header"]] + [row for table in found for row in table["rows"]]
    return [[plain_figure(cell) for cell in row] for row in rows]


def plain_figure(cell: str) -> str:
    """A figure as the page shows it (``+25.0``, ``−25.0`` with U+2212) as a spreadsheet reads one."""
    if cell[:1] in ("+", "\u2212") and cell[1:].replace(".", "", 1).isdigit():
        return cell.replace("\u2212", "-").removeprefix("+")
    return cell


def csv_rows(content: bytes) -> list[list[str]]:
    """A CSV download's rows: UTF-8 behind a byte-order mark (so that Excel reads accents right)."""
    assert content.startswith(b"\xef\xbb\xbf"), content[:20]
    return list(csv.reader(io.StringIO(content.decode("utf-8").removeprefix("\ufeff"))))


def cells(text: str) -> list[str]:
    """A row of cell texts written as one string, ``|`` between cells."""
    return text.split("|")


# -- tie-breaks ----------------------------------------------------------------------------------------


@pytest.fixture
def tied(event, eight, organiser) -> Event:
    """Three games entered as final scores, made so that many players end on 0 points.

    G1 30000 ×4 (Ann Bob Cho Dan) and G2 30000 ×4 (Ann Gus Hal Eve): four-way ties, all 1st, uma 0.
    G3 Eve 40000, Fay 20000, Bob 30000, Cho 30000: Eve 1st +10000+15000 = +25000; Bob and Cho tie for
    2nd and share (+5000 −5000)/2 = 0, so 0 at place 2; Fay 4th −10000−15000 = −25000.

    Totals: Eve +25000 (2 games, places 1 1); Ann 0 (2 games, 1 1); Dan, Gus, Hal 0 (1 game, 1);
    Bob, Cho 0 (2 games, 1 2 → 1.50); Fay −25000 (1 game, 4).
    """
    p = eight
    paper_game(event, [p["Ann"], p["Bob"], p["Cho"], p["Dan"]], [30000] * 4, organiser)
    paper_game(event, [p["Ann"], p["Gus"], p["Hal"], p["Eve"]], [30000] * 4, organiser)
    paper_game(event, [p["Eve"], p["Fay"], p["Bob"], p["Cho"]], [40000, 20000, 30000, 30000], organiser)
    return event


def test_points_then_placement_then_games(tied):
    assert tied.tie_break == "points,placement,games"
    assert summary(standings(tied)) == [
        (1, "Eve", 2, 25000),
        (2, "Ann", 2, 0),  # average 1.00 like Dan, Gus and Hal, but more games
        (3, "Dan", 1, 0),  # equal on everything: the better rank is shared, names in order
        (3, "Gus", 1, 0),
        (3, "Hal", 1, 0),
        (6, "Bob", 2, 0),  # average placement 1.50
        (6, "Cho", 2, 0),
        (8, "Fay", 1, -25000),
    ]


def test_points_then_games_then_placement(tied):
    tied.tie_break = Event.TieBreak.POINTS_GAMES_PLACEMENT
    assert summary(standings(tied)) == [
        (1, "Eve", 2, 25000),
        (2, "Ann", 2, 0),  # two games, average 1.00
        (3, "Bob", 2, 0),  # two games, average 1.50
        (3, "Cho", 2, 0),
        (5, "Dan", 1, 0),
        (5, "Gus", 1, 0),
        (5, "Hal", 1, 0),
        (8, "Fay", 1, -25000),
    ]


def test_points_then_placement_only(tied):
    tied.tie_break = Event.TieBreak.POINTS_PLACEMENT
    assert summary(standings(tied)) == [
        (1, "Eve", 2, 25000),
        (2, "Ann", 2, 0),  # games no longer separate Ann from Dan, Gus and Hal
        (2, "Dan", 1, 0),
        (2, "Gus", 1, 0),
        (2, "Hal", 1, 0),
        (6, "Bob", 2, 0),
        (6, "Cho", 2, 0),
        (8, "Fay", 1, -25000),
    ]


def test_row_figures_of_a_tied_place(tied):
    rows = {r.name: r for r in standings(tied)}
    bob = rows["Bob"]
    assert (bob.firsts, bob.seconds, bob.thirds, bob.fourths) == (1, 1, 0, 0)  # tied 2nd counts as 2nd
    assert str(bob.average_place) == "1.50" and bob.average_score == 30000 and bob.best == 0
    eve = rows["Eve"]
    assert (eve.firsts, eve.average_score, eve.best) == (2, 35000, 25000)
    fay = rows["Fay"]
    assert (fay.fourths, str(fay.average_place), fay.average_score, fay.best) == (1, "4.00", 20000, -25000)


def test_average_placement_is_compared_exactly_not_rounded(event, eight, organiser):
    """2/3 of a place apart after rounding is nothing, but 1.333… is still better than 1.335."""
    from scoring.standings import rank_rows

    a = StandingRow(1, "A", games=3, place_sum=4)  # 1.3333…
    b = StandingRow(2, "B", games=200, place_sum=267)  # 1.335
    ranked = rank_rows([b, a], ["points", "placement", "games"], 0)
    assert [(r.name, r.rank, str(r.average_place)) for r in ranked] == [("A", 1, "1.33"), ("B", 2, "1.34")]


# -- penalties, void, in progress, final scores ------------------------------------------------------------


def test_event_and_game_penalties(event, eight, organiser):
    """G1 hand by hand: Ann (dealer) rons Cho for 3 han 40 fu = 7700, then the time limit:
    37700 / 30000 / 22300 / 30000 → Ann +7700+15000 = +22700; Bob and Dan tie 2nd at 0; Cho 4th
    −7700−15000 = −22700. A −5000 penalty given to Bob in G1 makes his result −5000 (still 2nd).
    G2: Cho's chombo, nothing moves, time limit: 30000 ×4, all 1st at 0, then Cho −20000 after uma.
    Event-level: Ann a −20000 chombo, Dan −3000, Eve (no game) −2000; Bob's −1000 is cancelled.

    Ann  22700 + 0 − 20000 = 2700;  Dan 0 + 0 − 3000 = −3000;  Bob −5000 + 0 = −5000;
    Cho −22700 − 20000 = −42700;  then not ranked: Fay 0 (0 games), Eve −2000 (0 games).
    """
    p = eight
    table = [p["Ann"], p["Bob"], p["Cho"], p["Dan"]]
    g1 = hand_game(event, table, [Hand.ron(2, Win(0, 3, 40))], organiser)
    services.add_penalty(
        event=event, player=p["Bob"], points=-5000, reason="slow", user=organiser, hanchan=g1
    )
    hand_game(event, table, [Hand.chombo(2)], organiser)
    services.add_penalty(
        event=event, player=p["Ann"], points=-20000, reason="x", user=organiser, kind="chombo"
    )
    services.add_penalty(event=event, player=p["Dan"], points=-3000, reason="late", user=organiser)
    services.add_penalty(event=event, player=p["Eve"], points=-2000, reason="late", user=organiser)
    cancelled = services.add_penalty(
        event=event, player=p["Bob"], points=-1000, reason="noise", user=organiser
    )
    services.cancel_penalty(penalty=cancelled, user=organiser, reason="it was the next table")

    rows = standings(event)
    got = [
        (r.rank, r.name, r.games, r.points, r.penalties, r.chombos, r.ranked)
        for r in rows
        if r.name in ("Ann", "Bob", "Cho", "Dan", "Eve", "Fay")
    ]
    assert got == [
        (1, "Ann", 2, 2700, -20000, 1, True),
        (2, "Dan", 2, -3000, -3000, 0, True),
        (3, "Bob", 2, -5000, -5000, 0, True),
        (4, "Cho", 2, -42700, -20000, 1, True),
        (None, "Fay", 0, 0, 0, 0, False),
        (None, "Eve", 0, -2000, -2000, 0, False),
    ]
    by_name = {r.name: r for r in rows}
    ann, cho = by_name["Ann"], by_name["Cho"]
    assert (ann.firsts, str(ann.average_place), ann.average_score, ann.best) == (2, "1.00", 33850, 22700)
    assert (cho.firsts, cho.fourths, str(cho.average_place), cho.average_score) == (1, 1, "2.50", 26150)
    assert cho.best == -20000
    assert by_name["Eve"].average_place is None and by_name["Eve"].best is None


def test_void_and_in_progress_games_never_count(event, eight, organiser):
    p = eight
    table = [p["Ann"], p["Bob"], p["Cho"], p["Dan"]]
    counted = paper_game(event, table, [40000, 30000, 30000, 20000], organiser)  # +25000 0 0 −25000
    voided = hand_game(event, table, [Hand.ron(0, Win(1, 3, 40))], organiser)
    services.void_game(hanchan=voided, user=organiser, reason="wrong table")
    hand_game(event, table, [Hand.ron(0, Win(2, 5, 30))], organiser, finish=False)  # still in progress
    reopened = paper_game(event, table, [20000, 30000, 30000, 40000], organiser)
    services.reopen_game(hanchan=reopened, user=organiser, reason="scores disputed")

    # A cached row left behind by a game no longer finished would still be ignored: status is joined.
    SeatResult.objects.bulk_create(
        [
            SeatResult(
                hanchan=voided,
                event=event,
                seat=s,
                player=table[s],
                score=90000,
                place=1,
                uma=0,
                oka=0,
                penalties=0,
                result=60000,
                finished_at=counted.finished_at,
            )
            for s in range(4)
        ]
    )
    rows = [(r.rank, r.name, r.games, r.points) for r in standings(event) if r.games]
    assert rows == [(1, "Ann", 1, 25000), (2, "Bob", 1, 0), (2, "Cho", 1, 0), (4, "Dan", 1, -25000)]


def test_final_score_games_count_with_the_leftover_stick(event, eight, organiser):
    """Final scores 40000 30000 29000 20000 with one stick left: Ann takes it, 41000 → +26000."""
    p = eight
    paper_game(event, [p["Ann"], p["Bob"], p["Cho"], p["Dan"]], [40000, 30000, 29000, 20000], organiser, 1)
    hand_game(event, [p["Ann"], p["Bob"], p["Cho"], p["Dan"]], [Hand.ron(2, Win(0, 3, 40))], organiser)
    rows = {r.name: r for r in standings(event)}
    # Paper: Ann +26000, Bob 30000 2nd +5000, Cho 29000 3rd −6000, Dan −25000; hands: +22700 0 −22700 0.
    assert [(n, rows[n].games, rows[n].points) for n in ("Ann", "Bob", "Cho", "Dan")] == [
        ("Ann", 2, 48700),
        ("Bob", 2, 5000),
        ("Cho", 2, -28700),
        ("Dan", 2, -25000),
    ]
    assert rows["Ann"].average_score == (41000 + 37700) // 2


def test_substitute_seat_counts_for_the_registered_player(event, eight, organiser, club):
    sub = Player.objects.create(display_name="Sub", club=club)
    Registration.objects.create(event=event, player=sub, is_substitute=True)
    p = eight
    game = services.start_game(
        event=event,
        players=[sub, p["Bob"], p["Cho"], p["Dan"]],
        user=organiser,
        entry_mode=Hanchan.EntryMode.FINAL_SCORES,
        on_behalf_of={0: p["Ann"]},
    )
    services.record_final_scores(hanchan=game, scores=[40000, 30000, 30000, 20000], user=organiser)
    rows = {r.name: r for r in standings(event)}
    assert (rows["Ann"].games, rows["Ann"].points) == (1, 25000)
    assert "Sub" not in rows  # a substitute with no result of their own is not listed


# -- minimum games ---------------------------------------------------------------------------------------


def test_minimum_games_splits_ranked_from_not_yet_ranked(tied):
    tied.min_games = 2
    rows = standings(tied)
    assert [(r.rank, r.name) for r in rows if r.ranked] == [(1, "Eve"), (2, "Ann"), (3, "Bob"), (3, "Cho")]
    # Fay has one game at −25000: with two games needed she is no longer ranked 8th, nor ranked at all.
    assert [(r.rank, r.name, r.games) for r in rows if not r.ranked] == [
        (None, "Dan", 1),
        (None, "Gus", 1),
        (None, "Hal", 1),
        (None, "Fay", 1),
    ]
    # The argument overrides the event's setting; 3 games: nobody is ranked.
    assert not any(r.ranked for r in standings(tied, min_games=3))
    assert sum(r.ranked for r in standings(tied, min_games=1)) == 8


def test_players_without_a_game_are_never_ranked_even_with_no_minimum(event, eight, organiser):
    p = eight
    paper_game(event, [p["Ann"], p["Bob"], p["Cho"], p["Dan"]], [25000, 35000, 20000, 40000], organiser)
    rows = standings(event, min_games=0)
    assert [r.name for r in rows if r.ranked] == ["Dan", "Bob", "Ann", "Cho"]
    assert [(r.name, r.games, r.points, r.rank) for r in rows if not r.ranked] == [
        ("Eve", 0, 0, None),
        ("Fay", 0, 0, None),
        ("Gus", 0, 0, None),
        ("Hal", 0, 0, None),
    ]


# -- dates ---------------------------------------------------------------------------------------------


@pytest.fixture
def dated(event, eight, organiser) -> Event:
    """Two paper games imported with their finishing times, and an event penalty given on 15 February.

    January 10th, 20:00 in Lyon: Ann 40000 Bob 30000 Cho 30000 Dan 20000 → +25000 0 0 −25000.
    31 January 23:30 UTC, i.e. 1 February 00:30 in Lyon (the site's time zone decides the date):
    Ann 20000 Bob 30000 Cho 30000 Dan 40000 → −25000 0 0 +25000.
    """
    rules = event.rules
    names = ("Ann", "Bob", "Cho", "Dan")

    def record(scores: list[int], finished: datetime) -> dict[str, Any]:
        data = GameRecord(rules=rules, players=names).to_dict()
        data.update(hands=[], final_scores=scores, finished_at=finished.isoformat())
        return data

    import_records(
        event=event,
        sources=[
            ("jan", record([40000, 30000, 30000, 20000], datetime(2025, 1, 10, 20, 0, tzinfo=PARIS))),
            ("feb", record([20000, 30000, 30000, 40000], datetime(2025, 1, 31, 23, 30, tzinfo=UTC))),
        ],
        user=organiser,
    )
    penalty = services.add_penalty(event=event, player=eight["Bob"], points=-1000, reason="x", user=organiser)
    Penalty.objects.filter(pk=penalty.pk).update(created_at=datetime(2025, 2, 15, 12, tzinfo=PARIS))
    return event


@pytest.mark.parametrize(
    ("date_from", "date_to", "expected"),
    [
        # Cho placed 2, 2 (average 2.00) beats Ann and Dan (1 and 4: 2.50), who share 2nd.
        (None, None, [("Cho", 0), ("Ann", 0), ("Dan", 0), ("Bob", -1000)]),
        (None, date(2025, 1, 31), [("Ann", 25000), ("Bob", 0), ("Cho", 0), ("Dan", -25000)]),
        (date(2025, 2, 1), None, [("Dan", 25000), ("Cho", 0), ("Bob", -1000), ("Ann", -25000)]),
        (date(2025, 2, 1), date(2025, 2, 1), [("Dan", 25000), ("Bob", 0), ("Cho", 0), ("Ann", -25000)]),
        (date(2025, 3, 1), None, []),
    ],
)
def test_date_range_filters_games_and_event_penalties(dated, date_from, date_to, expected):
    rows = standings(dated, date_from=date_from, date_to=date_to)
    assert [(r.name, r.points) for r in rows if r.ranked] == expected
    if date_from is None and date_to is None:
        assert [r.rank for r in rows] == [1, 2, 2, 4, None, None, None, None]


def test_date_range_goes_by_when_the_game_was_played_not_when_it_was_entered(event, eight, organiser):
    """A slip typed in today for a game played on 10 January counts in January, not today."""
    who = [eight[n] for n in ("Ann", "Bob", "Cho", "Dan")]
    game = services.start_game(
        event=event, players=who, user=organiser, entry_mode=Hanchan.EntryMode.FINAL_SCORES,
        played_on=date(2025, 1, 10),
    )  # fmt: skip
    services.record_final_scores(hanchan=game, scores=[40000, 30000, 30000, 20000], user=organiser)
    january = standings(event, date_from=date(2025, 1, 1), date_to=date(2025, 1, 31))
    assert [(r.name, r.points) for r in january if r.ranked][:1] == [("Ann", 25000)]
    today = timezone.localdate()
    assert not [r for r in standings(event, date_from=today.replace(day=1), date_to=today) if r.ranked]


def test_after_a_round_leaves_out_the_penalties_of_later_rounds(club, eight, organiser):
    """ "After round 1" counts round-1 games and penalties, not a penalty given in round 2."""
    cup = make_event(club, slug="cup")
    cup.kind = Event.Kind.TOURNAMENT
    cup.save()
    who = [eight[n] for n in ("Ann", "Bob", "Cho", "Dan")]
    Registration.objects.bulk_create([Registration(event=cup, player=p) for p in who])
    for number in (1, 2):
        game = services.start_game(
            event=cup, players=who, user=organiser, entry_mode=Hanchan.EntryMode.FINAL_SCORES,
            round_number=number, table_number=1,
        )  # fmt: skip
        services.record_final_scores(hanchan=game, scores=[40000, 30000, 30000, 20000], user=organiser)
    services.add_penalty(
        event=cup, player=who[1], points=-3000, reason="late", user=organiser, round_number=2
    )
    assert {r.name: r.points for r in standings(cup, up_to_round=1)}["Bob"] == 0
    assert {r.name: r.points for r in standings(cup)}["Bob"] == -3000


# -- the page, its CSV and its queries -----------------------------------------------------------------


def test_page_shows_ranked_and_not_yet_ranked_tables_and_keeps_the_event_details(tied):
    tied.min_games = 2
    tied.save()
    response = Client().get(tied.get_absolute_url())
    assert response.status_code == 200
    html = response.content.decode()
    ranked, unranked = page_tables(html)
    assert ranked["header"] == cells(
        "Rank|Player|Points|Games|Avg place|1st|2nd|3rd|4th|Avg score|Best|Chombo|Penalties"
    )
    assert ranked["rows"][0] == cells("1|Eve|+25.0|2|1.00|2|0|0|0|35000|+25.0|0|0.0")
    assert [r[:4] for r in ranked["rows"]] == [
        cells("1|Eve|+25.0|2"),
        cells("2|Ann|0.0|2"),
        cells("3|Bob|0.0|2"),
        cells("3|Cho|0.0|2"),
    ]
    assert [r[1] for r in unranked["rows"]] == ["Dan", "Gus", "Hal", "Fay"]
    assert unranked["rows"][3] == cells("|Fay|−25.0|1|4.00|0|0|0|1|20000|−25.0|0|0.0")
    assert "Not yet ranked" in html and 'value="2"' in html  # the form shows the event's minimum
    assert "Kiriage mangan" in html and "Riichi Lyon" in html  # rules and club are still there
    # The latest games link to their pages.
    for game in Hanchan.objects.filter(event=tied):
        assert reverse("scoring:game", args=[game.pk]) in html


def test_csv_is_exactly_what_the_page_shows(tied):
    client = Client()
    for query in ("", "?min_games=2", "?min_games=2&sort=name&nr-sort=-games", "?sort=-points"):
        html = client.get(tied.get_absolute_url() + query).content.decode()
        response = client.get(reverse("scoring:standings_csv", args=[tied.slug]) + query)
        assert response.status_code == 200
        assert response["Content-Type"] == "text/csv; charset=utf-8"
        assert "attachment" in response["Content-Disposition"]
        assert csv_rows(response.content) == page_as_csv_rows(html), query


def test_the_page_links_the_csv_with_its_filters_and_sort(tied):
    html = Client().get(tied.get_absolute_url() + "?date_from=2020-01-01&sort=name&page=1").content.decode()
    link = reverse("scoring:standings_csv", args=[tied.slug])
    assert f"{link}?date_from=2020-01-01&amp;min_games=0&amp;sort=name" in html


def test_sorting_a_column_reorders_the_rows(tied):
    html = Client().get(tied.get_absolute_url() + "?sort=name").content.decode()
    assert [r[1] for r in page_tables(html)[0]["rows"]] == NAMES
    html = Client().get(tied.get_absolute_url() + "?sort=-name").content.decode()
    assert [r[1] for r in page_tables(html)[0]["rows"]] == NAMES[::-1]
    html = Client().get(tied.get_absolute_url() + "?sort=nonsense").content.decode()  # ignored, not a 500
    assert [r[1] for r in page_tables(html)[0]["rows"]][:2] == ["Eve", "Ann"]


@pytest.mark.parametrize("sort", ["a.b", "name.x", "-", "points,", "name,nonsense", ""])
def test_a_sort_key_that_names_no_column_is_ignored_without_a_warning(tied, sort):
    """django-tables2 would try an unknown key as a path into the row (and warn about dots in it): the
    view drops it first, so the page is the default order, the CSV link leaves it out, and nothing warns."""
    with warnings.catch_warnings():
        warnings.filterwarnings("error", module="django_tables2")
        html = Client().get(tied.get_absolute_url() + "?" + urlencode({"sort": sort, "nr-sort": sort}))
    default = Client().get(tied.get_absolute_url()).content.decode()
    assert page_tables(html.content.decode()) == page_tables(default)
    csv_link = html.content.decode().split(reverse("scoring:standings_csv", args=[tied.slug]))[1]
    assert "sort=" not in csv_link[: csv_link.index('"')]


def test_pages_of_the_table_and_the_csv_holds_them_all(tied, monkeypatch):
    monkeypatch.setattr("scoring.tables.PER_PAGE", 3)
    client = Client()
    pages = [
        page_tables(client.get(tied.get_absolute_url() + f"?page={n}").content.decode())[0]["rows"]
        for n in (1, 2, 3)
    ]
    assert [len(rows) for rows in pages] == [3, 3, 2]
    content = client.get(reverse("scoring:standings_csv", args=[tied.slug])).content
    assert csv_rows(content)[1:] == [[plain_figure(c) for c in row] for row in pages[0] + pages[1] + pages[2]]


def test_filters_on_the_page(dated):
    client = Client()
    html = client.get(dated.get_absolute_url() + "?date_to=2025-01-31").content.decode()
    assert [r[:4] for r in page_tables(html)[0]["rows"]] == [
        cells("1|Ann|+25.0|1"),
        cells("2|Bob|0.0|1"),
        cells("2|Cho|0.0|1"),
        cells("4|Dan|−25.0|1"),
    ]
    bad = client.get(dated.get_absolute_url() + "?date_from=2025-02-10&date_to=2025-02-01&min_games=-1")
    html = bad.content.decode()
    assert bad.status_code == 200
    assert "The end date is before the start date." in html and "greater than or equal to 0" in html
    assert "Download CSV" not in html
    assert len(page_tables(html)[0]["rows"]) == 4  # the unfiltered standings, said so above them
    csv_response = client.get(reverse("scoring:standings_csv", args=[dated.slug]) + "?date_from=junk")
    assert csv_response.status_code == 400 and b"date-from" in csv_response.content


def test_the_filters_fold_under_the_heading_until_used(dated):
    """The standings table comes first (a phone's first screen): the filters are folded, and open when
    the page shows filtered standings or refused filters; the download follows the tables."""
    client = Client()

    def filter_box(query: str = "") -> str:
        html = client.get(dated.get_absolute_url() + query).content.decode()
        assert html.index('id="standings-filter-box"') < html.index('id="standings-live"')
        if "Download CSV" in html:
            assert html.index('id="standings-live"') < html.index('id="standings-csv"')
        return re.search(r'<details class="standings-filter-box" id="standings-filter-box"[^>]*>', html)[0]

    assert " open" not in filter_box()
    assert " open" not in filter_box("?sort=name&page=1")  # sorting and paging are no filters
    assert " open" in filter_box("?date_to=2025-01-31")
    assert " open" in filter_box("?min_games=-1")  # refused: open, showing why


@pytest.fixture
def members_event(club) -> Event:
    event = make_event(club, slug="members-cup")
    event.visibility = Event.Visibility.MEMBERS
    event.save()
    return event


def test_members_only_event_standings_are_hidden_from_anonymous_visitors(members_event, player_user):
    page = members_event.get_absolute_url()
    download = reverse("scoring:standings_csv", args=[members_event.slug])
    anonymous = Client()
    assert anonymous.get(page).url.startswith(reverse("login"))
    assert anonymous.get(download).url.startswith(reverse("login"))
    member = Client()
    member.force_login(player_user)
    assert member.get(page).status_code == 200
    assert member.get(download).status_code == 200


def test_unknown_event_is_404():
    assert Client().get(reverse("scoring:standings_csv", args=["nope"])).status_code == 404


# -- a larger event: queries do not grow -------------------------------------------------------------------


def generated_event(club, organiser, slug: str, players: int, games: int, seed: int) -> Event:
    """``players`` registered players and ``games`` random games (some stopped early by the time limit,
    some with referee penalties), imported like ``seed_demo`` imports its season; one event penalty."""
    event = make_event(club, slug=slug)
    event.min_games = 8
    event.save()
    made = [Player.objects.create(display_name=f"{slug} player {i:02d}", club=club) for i in range(players)]
    Registration.objects.bulk_create([Registration(event=event, player=p) for p in made])
    rng = random.Random(seed)
    names = [p.display_name for p in made]
    records = [
        random_game(
            event.rules,
            random.Random(rng.getrandbits(32)),
            stop_early=0.05,
            penalty_chance=0.1,
            players=tuple(rng.sample(names, 4)),
        ).to_dict()
        for _ in range(games)
    ]
    import_records(event=event, sources=[("generated", records)], user=organiser)
    services.add_penalty(event=event, player=made[0], points=-5000, reason="late", user=organiser)
    return event


def count_queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_query_count_does_not_grow_with_players_or_games(club, organiser, django_assert_max_num_queries):
    small = generated_event(club, organiser, "small", players=4, games=2, seed=1)
    large = generated_event(club, organiser, "large", players=30, games=60, seed=2)
    assert SeatResult.objects.filter(event=large).count() == 240

    with django_assert_max_num_queries(3):
        rows = standings(large)
    assert len(rows) == 30
    assert sum(r.games for r in rows) == 240
    with django_assert_max_num_queries(2):
        assert len(latest_games(large)) == 10

    client = Client()
    with django_assert_max_num_queries(10):
        response = client.get(large.get_absolute_url() + "?sort=-games&date_from=2000-01-01")
    assert response.status_code == 200
    with django_assert_max_num_queries(10):
        assert client.get(reverse("scoring:standings_csv", args=[large.slug])).status_code == 200
    assert count_queries(client, large.get_absolute_url()) == count_queries(client, small.get_absolute_url())
    # Every seat result is in the standings: the points are the sum of the results plus the event penalty.
    total = sum(SeatResult.objects.filter(event=large).values_list("result", flat=True))
    assert sum(r.points for r in rows) == total - 5000


@pytest.mark.parametrize(
    ("language", "written"), [("fr", "41\u00a0000"), ("pl", "41\u00a0000"), ("en", "41000")]
)
def test_standings_write_points_as_the_game_pages_do(event, eight, organiser, language, written):
    """The average score in the standings and on the player page is grouped as the scoreboards and the
    game pages group points in the page's language (41 000 in French and Polish, 41000 in English); the
    CSV keeps the plain number."""
    p = eight
    game = paper_game(
        event, [p["Ann"], p["Bob"], p["Cho"], p["Dan"]], [41000, 33000, 26000, 20000], organiser
    )
    client = Client(headers={"accept-language": language})
    ranked = page_tables(client.get(event.get_absolute_url()).content.decode())[0]
    column = ranked["header"].index({"fr": "Score moy.", "pl": "Śr. wynik", "en": "Avg score"}[language])
    assert [row[column] for row in ranked["rows"] if row[1] == "Ann"] == [written]
    assert written in client.get(reverse("scoring:game", args=[game.pk])).content.decode()
    player_page = client.get(reverse("scoring:player", args=[p["Ann"].pk])).content.decode()
    assert f"<dd>{written}</dd>" in player_page  # the average score
    assert f'<td class="num">{written}</td>' in player_page  # the game's score in the list of games
    download = csv_rows(client.get(reverse("scoring:standings_csv", args=[event.slug])).content)
    assert download[1][download[0].index("Avg score")] == "41000"
