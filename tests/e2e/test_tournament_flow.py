"""A tournament organiser's day in a phone-sized Chromium: create the tournament, register eight players,
seat two rounds, enter every table's final scores from the slips, read the standings after each round and
download the EMA report."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from league.models import Club, Hanchan
from tests.e2e.conftest import ARTIFACTS, login

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PLAYERS = [
    ("Ann", "Ann", "Arnaud", "04010001", "FR"),
    ("Bob", "Bob", "Brown", "11010002", "GB"),
    ("Cho", "Cho", "Chen", "", "NL"),
    ("Dan", "Dan", "Dupont", "04010004", "FR"),
    ("Eve", "Eve", "Evans", "11010005", "GB"),
    ("Fay", "Fay", "Fischer", "05010006", "DE"),
    ("Gus", "Gus", "Garcia", "10010007", "ES"),
    ("Hal", "Hal", "Horvath", "06010008", "HU"),
]
# East, South, West, North of every table: 1st, 2nd, 3rd and 4th (uma +15/+5/−5/−15, start 30 000).
SCORES = ["45000", "32000", "25000", "18000"]


def test_tournament_two_rounds_and_ema_report(page):
    user = get_user_model().objects.create_user("tara", password="organiser-pass-123")
    club = Club.objects.create(name="Mahjong Paris", slug="mahjong-paris", country="FR")
    club.organisers.add(user)
    login(page, "tara", "organiser-pass-123")

    page.goto(f"/manage/clubs/{club.slug}/events/new/")
    page.fill("#id_name", "Paris Open")
    page.fill("#id_slug", "paris-open")
    page.select_option("#id_kind", "tournament")
    page.fill("#id_city", "Paris")
    page.select_option("#id_country", "FR")
    page.click("#event-form button[type=submit]")
    page.wait_for_url("**/manage/events/paris-open/")
    page.fill("#id_csv", "\n".join(", ".join(p) for p in PLAYERS))
    page.click("#csv-form button[type=submit]")
    page.wait_for_url("**/manage/events/paris-open/")

    page.click("text=Rounds and seating")
    page.fill("#id_rounds", "2")
    page.click("#seating-form button[type=submit]")
    page.wait_for_selector("#quality")
    # Eight players cannot avoid repeats over two rounds: each second-round table takes four players from
    # two first-round tables, so at least two from one of them — 2 repeated pairs per table, 4 in all.
    assert "4 repeated opponent pairs" in " ".join(page.inner_text("#quality").split())
    page.screenshot(path=str(ARTIFACTS / "tournament-seating.png"), full_page=True)
    tournament_url = page.url

    for round_number in (1, 2):
        for table in Hanchan.objects.filter(event__slug="paris-open", round_number=round_number):
            page.goto(f"/manage/games/{table.pk}/")
            for seat, score in enumerate(SCORES):
                page.fill(f"#id_score_{seat}", score)
            # the running total (static/js/final-scores-total.js) follows the typing
            assert "as expected" in page.inner_text("#final-scores-total")
            page.click("#final-scores-form button[type=submit]")
            page.wait_for_selector(".final-table")
        page.goto(tournament_url)
        status = page.locator("#round-status tbody tr").nth(round_number - 1).inner_text()
        assert "all results in" in status

        page.goto(f"/events/paris-open/?up_to_round={round_number}")
        games = page.locator("table.standings tbody tr td:nth-child(4)").all_inner_texts()  # Games
        assert games and set(games) == {str(round_number)}

    page.goto(tournament_url)
    page.click("text=EMA report")
    page.wait_for_selector("#ema-reconciliation")
    assert page.locator("#ema-reconciliation .bad").count() == 0
    page.screenshot(path=str(ARTIFACTS / "tournament-ema.png"), full_page=True)
    with page.expect_download() as info:
        page.click("#ema-downloads a:has-text('Download CSV')")
    text = Path(info.value.path()).read_text(encoding="utf-8")
    grid = text[text.index("Place,") :]
    rows = list(csv.reader(io.StringIO(grid)))
    assert rows[0] == [
        "Place",
        "First Name",
        "Last name",
        "EMA number",
        "Table points",
        "Score",
        "Ema Member",
        "Country",
    ]
    assert len(rows[1:]) == 8
    cho = next(r for r in rows[1:] if r[1] == "Cho")
    assert cho[3] == "" and cho[6] == "NO" and cho[7] == "NED"
    assert re.fullmatch(r"-?\d+", cho[5])
    assert sum(int(r[5]) for r in rows[1:]) == 0
