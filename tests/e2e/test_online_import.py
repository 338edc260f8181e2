"""An organiser imports online games in a phone-sized Chromium: log files and a Tenhou replay link
(fetched by the background worker from a local fake Tenhou, while the page polls its progress with htmx),
the preview with its players and standings change, a pick for an unknown name, and the import.

The logs are the hand-written fixtures of tests/scoring/logs/fixtures: the Tenhou hanchan that ends by
tobi leaves Aoi, ばんび, Kenta and 雀士X with −15 800, 30 600, 37 700 and 47 500, i.e. −66.0, −9.0,
+18.0 and +57.0 after Tenhou's uma and its rounding to thousands (the log's own sc).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from background.worker import run_ready
from league.models import Club, Event, Hanchan, Player, Registration
from scoring.engine import make_ruleset
from tests.e2e.conftest import ARTIFACTS, login
from tests.scoring.online_server import MISSING_ID, MJLOG_ID, fake_tenhou

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

FIXTURES = Path(__file__).resolve().parents[1] / "scoring" / "logs" / "fixtures"


def setup_league(slug: str, **rules) -> tuple[Club, Event]:
    user = get_user_model().objects.create_user("olga", password="organiser-pass-123")
    club = Club.objects.create(name="Riichi Lyon", slug="riichi-lyon")
    club.organisers.add(user)
    event = Event.objects.create(
        club=club,
        name="Tenhou League",
        slug=slug,
        ruleset=make_ruleset("tenhou", rules).to_dict(),
        online="tenhou",
    )
    return club, event


def test_organiser_imports_log_files(page):
    club, event = setup_league("tenhou-league")
    aoi = Player.objects.create(display_name="Aoi Tanaka", club=club, tenhou_name="Aoi")
    kenta = Player.objects.create(display_name="Kenta Sato", club=club)
    Registration.objects.create(event=event, player=aoi)
    Registration.objects.create(event=event, player=kenta)

    login(page, "olga", "organiser-pass-123")
    page.goto(f"/manage/events/{event.slug}/")
    page.click("#link-online-import")
    page.set_input_files("#id_files", [str(FIXTURES / "tenhou-hanchan-tobi.json")])
    page.click("#online-import-form button[type=submit]")
    page.wait_for_selector("#online-import-players")

    game = page.locator("#online-game-1")
    assert "2023061523gm-0089-0000-1a2b3c4d" in game.inner_text()
    assert "by Tenhou name" in game.inner_text()
    assert [c.strip() for c in game.locator("td.num:nth-child(6)").all_inner_texts()] == [
        "−66.0",
        "−9.0",
        "+18.0",
        "+57.0",
    ]
    # Kenta is the club's Kenta Sato; the two others are new players.
    page.select_option("select:near(label:text('Kenta'))", label="Kenta Sato")
    for name in ("ばんび", "雀士X"):
        page.select_option(f"select:near(label:text('{name}'))", value="new")
    page.click("button[value=check]")
    page.wait_for_selector("text=your pick")
    standings = page.locator("#online-import-standings").inner_text()
    assert "Kenta Sato" in standings and "+18.0" in standings
    page.screenshot(path=str(ARTIFACTS / "online-import-preview.png"), full_page=True)
    assert Hanchan.objects.count() == 0

    page.click("#online-import-submit")
    page.wait_for_url(f"**/manage/events/{event.slug}/games/")
    assert "1 online game imported" in page.locator(".messages").inner_text()
    hanchan = Hanchan.objects.get()
    assert hanchan.source_log_id == "2023061523gm-0089-0000-1a2b3c4d"
    assert [s.player.display_name for s in hanchan.seats.order_by("seat")] == [
        "Aoi Tanaka",
        "ばんび",
        "Kenta Sato",
        "雀士X",
    ]
    kenta.refresh_from_db()
    assert kenta.tenhou_name == "Kenta"  # remembered for the next import

    # The same file again: refused, with no import button.
    page.goto(f"/manage/events/{event.slug}/online-import/")
    page.set_input_files("#id_files", [str(FIXTURES / "tenhou-hanchan-tobi.json")])
    page.click("#online-import-form button[type=submit]")
    page.wait_for_selector("#online-import-problems")
    assert "already imported" in page.locator("#online-import-problems").inner_text()
    assert page.locator("#online-import-submit").count() == 0


def test_organiser_imports_a_replay_link_with_progress(page, settings):
    _, event = setup_league("tenhou-tonpuu", length="tonpuusen")
    with fake_tenhou() as tenhou:
        settings.TENBOU_TENHOU_URL = tenhou.url
        login(page, "olga", "organiser-pass-123")
        page.goto(f"/manage/events/{event.slug}/online-import/")
        # Two links: the worker fetches them, the page polls and loads the preview by itself.
        page.fill(
            "#id_urls",
            f"https://tenhou.net/0/?log={MJLOG_ID}&tw=2\nhttps://tenhou.net/6/?log={MISSING_ID}",
        )
        page.click("#online-import-form button[type=submit]")
        page.wait_for_selector("#online-import-progress")
        assert tenhou.requests == []  # the request queued them: nothing fetched yet
        run_ready()  # the worker
        page.wait_for_selector("#online-import-problems", timeout=15_000)
        assert tenhou.requests == [f"/0/log/?{MJLOG_ID}", f"/0/log/?{MISSING_ID}"]
        assert f"tenhou.net has no log {MISSING_ID}" in page.locator("#online-import-problems").inner_text()
        assert page.locator("#online-import-submit").count() == 0  # every game or none: fix it first
        page.click("a:text-is('Start again')")
        page.fill("#id_urls", f"https://tenhou.net/0/?log={MJLOG_ID}&tw=2")
        page.click("#online-import-form button[type=submit]")
        page.wait_for_selector("#online-import-progress")
        run_ready()
        page.wait_for_selector("#online-import-players", timeout=15_000)
    assert MJLOG_ID in page.locator("#online-game-1").inner_text()
    for name in ("あおい", "Bob", "Cho Li", "Dan"):
        page.select_option(f"select:near(label:text('{name}'))", value="new")
    page.click("#online-import-submit")
    page.wait_for_url(f"**/manage/events/{event.slug}/games/")
    assert Hanchan.objects.get().source_log_id == MJLOG_ID
    assert Player.objects.get(display_name="Cho Li").tenhou_name == "Cho Li"
