"""``manage.py standings`` through ``call_command``, as scripts run it: the page's standings as CSV
(the download's text, plain numbers, without the download's byte-order mark) or JSON (objects keyed by
the CSV header, the page's cell text); on failure nothing on standard output, one line on standard
error, exit status 2 (docs/game-record.md §7)."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.test import Client
from django.urls import reverse

from league.models import Hanchan
from scoring import services
from scoring.engine import Hand, Win
from tests.scoring.commands import run

pytestmark = pytest.mark.django_db


def csv_output(event, *args: str) -> list[list[str]]:
    status, out, err = run("standings", "--event", event.slug, *args)
    assert (status, err) == (0, "")
    return list(csv.reader(io.StringIO(out)))


@pytest.fixture
def played(event, players, organiser):
    """Ann, Bob, Cho, Dan play two games; Eve and Fay are registered without a game.

    G1 hand by hand: Ann (dealer) rons Cho 3 han 40 fu (7700), then the time limit:
    Ann +22700, Bob 0, Cho −22700, Dan 0 (Bob and Dan tie for 2nd). G2 on paper, 40000 30000 30000 20000:
    Ann +25000, Bob 0, Cho 0 (tied 2nd), Dan −25000. Event penalty: Dan −3000.
    Ann +47700 (1, 1), Bob 0 (2, 2), Cho −22700 (4, 2), Dan −28000 (2, 4).
    """
    ann, bob, cho, dan = players[:4]
    game = services.start_game(event=event, players=[ann, bob, cho, dan], user=organiser)
    services.record_hand(hanchan=game, hand=Hand.ron(2, Win(0, 3, 40)), user=organiser)
    services.finish_game(hanchan=game, user=organiser, reason="time limit")
    paper = services.start_game(
        event=event, players=[ann, bob, cho, dan], user=organiser, entry_mode=Hanchan.EntryMode.FINAL_SCORES
    )
    services.record_final_scores(hanchan=paper, scores=[40000, 30000, 30000, 20000], user=organiser)
    services.add_penalty(event=event, player=dan, points=-3000, reason="late", user=organiser)
    return event


# The rows as the page shows them, ``|`` between cells: Eve and Fay have no game, so they are not ranked.
# The JSON holds this text; the CSV the same figures written plainly (``PLAIN``).
EXPECTED = [
    line.split("|")
    for line in (
        "Rank|Player|Points|Games|Avg place|1st|2nd|3rd|4th|Avg score|Best|Chombo|Penalties",
        "1|Ann|+47.7|2|1.00|2|0|0|0|38850|+25.0|0|0.0",
        "2|Bob|0.0|2|2.00|0|2|0|0|30000|0.0|0|0.0",
        "3|Cho|−22.7|2|3.00|0|1|0|1|26150|0.0|0|0.0",
        "4|Dan|−28.0|2|3.00|0|1|0|1|25000|0.0|0|−3.0",
        "|Eve|0.0|0||0|0|0|0|||0|0.0",
        "|Fay|0.0|0||0|0|0|0|||0|0.0",
    )
]


# What a spreadsheet must read as numbers: no "+", an ASCII hyphen for a negative.
PLAIN = [
    line.split("|")
    for line in (
        "Rank|Player|Points|Games|Avg place|1st|2nd|3rd|4th|Avg score|Best|Chombo|Penalties",
        "1|Ann|47.7|2|1.00|2|0|0|0|38850|25.0|0|0.0",
        "2|Bob|0.0|2|2.00|0|2|0|0|30000|0.0|0|0.0",
        "3|Cho|-22.7|2|3.00|0|1|0|1|26150|0.0|0|0.0",
        "4|Dan|-28.0|2|3.00|0|1|0|1|25000|0.0|0|-3.0",
        "|Eve|0.0|0||0|0|0|0|||0|0.0",
        "|Fay|0.0|0||0|0|0|0|||0|0.0",
    )
]
BOM = b"\xef\xbb\xbf"


def test_csv_is_the_download_without_its_byte_order_mark(played):
    """Standard output carries no BOM (scripts read it; the contract promises none), the download does
    (spreadsheets need it): otherwise the same bytes, numbers plain."""
    status, out, err = run("standings", "--event", played.slug, "--format", "csv")
    assert (status, err) == (0, "")
    assert not out.startswith("\ufeff")
    assert list(csv.reader(io.StringIO(out))) == PLAIN
    download = Client().get(reverse("scoring:standings_csv", args=[played.slug]))
    assert download.content == BOM + out.encode("utf-8")


def test_json_has_the_csv_header_as_keys_and_the_same_values(played):
    status, out, err = run("standings", "--event", played.slug)  # JSON is the default
    assert (status, err) == (0, "")
    header, *rows = EXPECTED
    assert json.loads(out) == [dict(zip(header, row, strict=True)) for row in rows]
    assert run("standings", "--event", played.slug, "--format", "json")[1] == out


def test_filters_match_the_page(played):
    status, out, _ = run("standings", "--event", played.slug, "--format", "csv", "--min-games", "3")
    assert status == 0
    rows = list(csv.reader(io.StringIO(out)))
    assert [r[0] for r in rows[1:]] == [""] * 6  # nobody has three games
    query = "?min_games=3&date_from=2000-01-01&date_to=2999-12-31"
    download = Client().get(reverse("scoring:standings_csv", args=[played.slug]) + query)
    download = download.content.decode("utf-8").removeprefix("\ufeff")
    args = ("--min-games", "3", "--date-from", "2000-01-01", "--date-to", "2999-12-31", "--format", "csv")
    assert run("standings", "--event", played.slug, *args)[1] == download
    status, out, _ = run("standings", "--event", played.slug, "--format", "csv", "--date-to", "2000-01-01")
    # No game before 2000, and Dan's event penalty was given today, after the end date: all equal.
    assert [r[1:4] for r in csv.reader(io.StringIO(out))][1:] == [
        [n, "0.0", "0"] for n in ("Ann", "Bob", "Cho", "Dan", "Eve", "Fay")
    ]


def test_min_games_defaults_to_the_events_setting(played):
    played.min_games = 3
    played.save()
    ranks = [row[0] for row in csv_output(played, "--format", "csv")[1:]]
    assert ranks == [""] * 6
    ranks = [row[0] for row in csv_output(played, "--format", "csv", "--min-games", "0")[1:]]
    assert ranks == ["1", "2", "3", "4", "", ""]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--event", "nope"), "event 'nope' does not exist"),
        (("--event", "autumn-league", "--format", "xml"), "format: choose json or csv, not 'xml'"),
        (("--event", "autumn-league", "--date-from", "yesterday"), "date-from: Enter a valid date."),
        (
            ("--event", "autumn-league", "--date-from", "2025-02-02", "--date-to", "2025-02-01"),
            "date-to: The end date is before the start date.",
        ),
        (
            ("--event", "autumn-league", "--min-games", "-1"),
            "min-games: Ensure this value is greater than or equal to 0.",
        ),
        (("--event", "autumn-league", "--min-games", "2.5"), "min-games: Enter a whole number."),
    ],
)
def test_failures_print_one_line_on_stderr_and_nothing_on_stdout(played, args, message):
    status, out, err = run("standings", *args)
    assert (status, out, err) == (2, "", message + "\n")
