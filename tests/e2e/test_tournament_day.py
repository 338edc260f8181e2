"""The tournament day in phone-sized Chromium contexts: the organiser opens round 1, starts the clock and
prints the slips; two tables enter their final scores at the same moment through their own links; the
projector's wall screen picks the winners up without a reload; a revoked link is refused, never a 500.

The data is set up through the ORM and services (seating is not what this test is about); everything the
people in the room do goes through the browser.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.urls import reverse

from league.models import Club, Event, Hanchan, Player, Registration
from tests.conftest import make_event
from tests.e2e.conftest import ARTIFACTS, login
from tournaments.models import TableLink
from tournaments.services import seat_tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
PROJECTOR = {"width": 1920, "height": 1080}
NAMES = ["Aiko", "Bruno", "Chloé", "Dmitri", "Elena", "Farid", "Greta", "Hiro"]
# East, South, West, North: 1st to 4th. They sum to 4 × 30 000 start points with no stick left.
SCORES = ["45000", "32000", "25000", "18000"]
PASSWORD = "organiser-pass-123"


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    """The table pages rate-limit through the cache: start and end with none used."""
    cache.clear()
    yield
    cache.clear()


def _tournament() -> tuple[Event, object]:
    """Eight registered players seated for two rounds, tables entering final scores, no confirmation."""
    user = get_user_model().objects.create_user("tess", password=PASSWORD)
    club = Club.objects.create(name="Riichi Nantes", slug="riichi-nantes", country="FR")
    club.organisers.add(user)
    event = make_event(club, slug="nantes-open")
    event.kind = Event.Kind.TOURNAMENT
    event.table_entry = True
    event.table_entry_mode = "final"
    event.save()
    for name in NAMES:
        Registration.objects.create(event=event, player=Player.objects.create(display_name=name, club=club))
    seat_tournament(event=event, rounds=2, user=user)
    return event, user


def _context(browser, live_server, viewport=PHONE):
    context = browser.new_context(viewport=viewport, base_url=live_server.url)
    context.set_default_timeout(15_000)
    return context


def test_tournament_day_tables_wall_and_revoked_link(browser, live_server):
    event, _user = _tournament()
    assert event.rules.start_points == 30_000  # SCORES are built on it
    ARTIFACTS.mkdir(exist_ok=True)
    contexts = []
    try:
        # 1. The organiser opens round 1, starts the clock and prints the slips.
        organiser = _context(browser, live_server)
        contexts.append(organiser)
        boss = organiser.new_page()
        boss.on("dialog", lambda dialog: dialog.accept())
        login(boss, "tess", PASSWORD)
        round_url = reverse("tournaments_manage:round", args=[event.slug, 1])
        boss.goto(round_url)
        assert boss.get_attribute("#round-status", "data-status") == "pending"
        boss.click("#round-open")
        boss.wait_for_selector("#round-status[data-status=open]")

        boss.goto(reverse("tournaments_manage:tournament", args=[event.slug]))
        boss.click("#clock-start-form button[type=submit]")
        boss.wait_for_selector("#clock-pause-form")  # the clock runs: the panel now offers a pause

        boss.goto(reverse("tournaments_manage:slips_print", args=[event.slug, 1]))
        boss.wait_for_selector("#slip-1")
        assert boss.locator(".slip-qr svg").count() == 2  # one QR code per table
        boss.screenshot(path=str(ARTIFACTS / "tournament-day-slip.png"), full_page=True)

        # 2. The wall screen is up before any result: the running clock, the seating, nobody ranked yet.
        projector = _context(browser, live_server, PROJECTOR)
        contexts.append(projector)
        wall = projector.new_page()
        wall.goto(reverse("tournaments:wall", args=[event.slug]) + "?refresh=2&rotate=5")
        wall.wait_for_selector("#wall-header-clock", state="visible")
        assert re.search(r"\d+:\d\d", wall.inner_text("#wall-header-clock"))
        assert wall.get_attribute("#wall-header-clock", "data-running") == "1"
        assert wall.locator("#round-clock").count() == 1
        assert wall.locator("#wall-seating").count() == 1
        assert "Nobody is ranked yet." in wall.text_content("#wall-standings")
        wall.evaluate("window.stillTheSamePage = true")

        # 3. Both tables enter their final scores at the same time through their own links.
        games = list(Hanchan.objects.filter(event=event, round_number=1).order_by("table_number"))
        assert len(games) == 2
        tokens = [TableLink.objects.get(hanchan=game, revoked_at__isnull=True).token for game in games]
        winners = [game.seats.get(seat=0).player.display_name for game in games]
        tables = []
        for token in tokens:
            context = _context(browser, live_server)
            contexts.append(context)
            table = context.new_page()
            table.goto(reverse("tournaments:table", args=[token]))
            table.wait_for_selector("#final-scores-form")
            for seat, score in enumerate(SCORES):
                table.fill(f"#id_score_{seat}", score)
            assert "as expected" in table.inner_text("#final-scores-total")
            tables.append(table)
        for table in tables:  # submit both before waiting for either
            table.click("#save-scores", no_wait_after=True)
        for table in tables:
            table.wait_for_selector("#table-status[data-state=finished]")
        tables[0].screenshot(path=str(ARTIFACTS / "tournament-day-table.png"), full_page=True)
        for game in games:
            game.refresh_from_db()
            assert game.status == Hanchan.Status.FINISHED

        # With no reload (the marker survives), the wall's standings poll picks up both tables' winners.
        wall.wait_for_function(
            """names => {
                const text = document.querySelector('#wall-standings').textContent;
                return names.every(name => text.includes(name));
            }""",
            arg=winners,
            timeout=15_000,
        )
        assert wall.evaluate("window.stillTheSamePage === true")
        # the slides rotate every 5 s: photograph the standings slide when its turn comes
        wall.wait_for_selector("#wall-standings .wall-standings-page", state="visible", timeout=20_000)
        wall.screenshot(path=str(ARTIFACTS / "tournament-day-wall.png"))

        # 4. The organiser revokes table 2's link: that table's page now refuses, with no server error.
        boss.goto(round_url)
        boss.click("#revoke-2")
        boss.wait_for_selector("#link-2 >> text=No active link.")
        assert not TableLink.objects.filter(hanchan=games[1], revoked_at__isnull=True).exists()
        response = tables[1].reload()
        assert response is not None and response.status < 500
        assert response.status == 410 or tables[1].locator("#link-refused").count() == 1
        assert tables[1].get_attribute("#link-refused", "data-reason") == "revoked"
        # the other table's link still opens its finished game
        assert tables[0].reload().status == 200
        assert tables[0].get_attribute("#table-status", "data-state") == "finished"
    finally:
        for context in contexts:
            context.close()
