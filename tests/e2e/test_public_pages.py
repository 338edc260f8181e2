"""A player's visit, in a phone-sized Chromium: the demo league's standings, sorted and filtered, the CSV
download agreeing with the table, then a game page and a player page with their charts.

The data is ``seed_demo``'s season (24 players, 84 games, minimum 8 games to be ranked), so the test
checks relations (order changed, filter applied, CSV equals table) rather than figures.
"""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.core.management import call_command

from league.collation import name_sort_key
from tests.e2e.conftest import ARTIFACTS

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

RANKED = "#standings-ranked table.standings tbody tr"
UNRANKED = "#standings-unranked table.standings tbody tr"


GAMES = 3  # Rank, Player, Points, Games…


def column(page, rows: str, index: int) -> list[str]:
    """The text of one column (0-based) of a table's body rows."""
    return [t.strip() for t in page.locator(f"{rows} td:nth-child({index + 1})").all_inner_texts()]


def table_rows(page, rows: str) -> list[list[str]]:
    return [[c.strip() for c in row.locator("td").all_inner_texts()] for row in page.locator(rows).all()]


def charts_drawn(page) -> bool:
    """Whether the page has charts and the browser drew every one: each ``<img>`` (loaded lazily, so
    scrolled to first) decoded an SVG with a size."""
    images = page.locator(".chart img")
    if images.count() == 0:
        return False
    for index in range(images.count()):
        image = images.nth(index)
        image.scroll_into_view_if_needed()
        page.wait_for_function("(img) => img.complete", arg=image.element_handle())
        if not image.evaluate("(img) => img.naturalWidth > 0 && img.currentSrc.includes('.svg')"):
            return False
    return True


def test_player_reads_standings_games_and_a_player(page):
    call_command("seed_demo", stdout=io.StringIO())

    page.goto("/events/demo-league/")
    assert page.locator("h1").inner_text() == "Demo League 2025"
    by_rank = column(page, RANKED, 1)
    assert len(by_rank) > 10
    assert column(page, RANKED, 0)[0] == "1"
    page.screenshot(path=str(ARTIFACTS / "standings.png"), full_page=True)

    # Sort by player name: the header is a link, the order changes, and it is alphabetical.
    page.locator("#standings-ranked th a", has_text="Player").click()
    page.wait_for_url(re.compile(r".*[?&]sort=name"))
    by_name = column(page, RANKED, 1)
    assert by_name != by_rank and sorted(by_name) == sorted(by_rank)
    assert by_name == sorted(by_name, key=name_sort_key)  # accents aside: "Léa" before "Lukas"

    # Sort by games, most first.
    page.locator("#standings-ranked th a", has_text="Games").click()
    page.wait_for_url(re.compile(r".*[?&]sort=games"))
    games = [int(g) for g in column(page, RANKED, GAMES)]
    assert games == sorted(games, reverse=True)

    # Filter: 15 games to be ranked. Fewer players are ranked; the others move to "not yet ranked".
    page.goto("/events/demo-league/")
    page.click("#standings-filter-box > summary")  # the filters are folded under the table's heading
    page.fill("#id_min_games", "15")
    page.click("#standings-filters button[type=submit]")
    page.wait_for_url(re.compile(r".*[?&]min_games=15"))
    ranked_games = [int(g) for g in column(page, RANKED, GAMES)]
    assert ranked_games and min(ranked_games) >= 15 and len(ranked_games) < len(by_rank)
    unranked_games = [int(g) for g in column(page, UNRANKED, GAMES)]
    assert unranked_games and max(unranked_games) < 15
    assert len(ranked_games) + len(unranked_games) == 24

    # The download carries the filter and holds exactly the rows of the two tables.
    href = page.get_attribute("#standings-csv", "href")
    assert href is not None and "min_games=15" in href
    download = page.request.get(href)
    assert download.ok and download.headers["content-type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(download.text())))
    # The CSV writes the table's signed figures plainly, for spreadsheets: +23.4 → 23.4, −20.0 → -20.0.
    plain = [
        [c.replace("\u2212", "-").lstrip("+") if re.fullmatch(r"[+\u2212][\d.]+", c) else c for c in row]
        for row in table_rows(page, RANKED) + table_rows(page, UNRANKED)
    ]
    assert rows[1:] == plain

    # A game from the latest games, then a player from the standings: both pages have charts. Both pages
    # are visited before the charts are checked, so a missing chart never hides a broken link.
    missing = []
    page.locator("#latest-games a").first.click()
    page.wait_for_url(re.compile(r".*/games/\d+/$"))
    page.wait_for_load_state()
    if not charts_drawn(page):
        missing.append("game page")
    page.screenshot(path=str(ARTIFACTS / "public-game.png"), full_page=True)

    page.go_back()
    page.wait_for_url(re.compile(r".*/events/demo-league/"))
    first = page.locator(f"{RANKED} td:nth-child(2) a").first
    name = first.inner_text().strip()
    first.click()
    page.wait_for_url(re.compile(r".*/players/\d+/$"))
    assert page.locator("h1").inner_text().strip() == name
    if not charts_drawn(page):
        missing.append("player page")
    page.screenshot(path=str(ARTIFACTS / "public-player.png"), full_page=True)
    assert not missing, f"no chart drawn (.chart img) on the {' and the '.join(missing)}"
