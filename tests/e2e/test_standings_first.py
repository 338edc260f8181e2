"""The public standings on a phone (390 × 844) start in the first screen: the filters fold under one line
(open once used, or refused) and the download comes after the tables — here for a tournament being
played, in French (the longer words), with its live note and a long name. On a laptop the page keeps its
layout, the filters open with a click and still filter, and the live standings still refresh.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache

from league.models import Club, Event, Hanchan, Player, Registration
from scoring import services
from tests.conftest import make_event
from tests.e2e.conftest import ARTIFACTS
from tournaments import rounds
from tournaments.services import seat_tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

FIRST_ROW = "#standings-ranked table.standings tbody tr:first-child"
NAMES = [
    "Amélie Dupont", "Bruno Marchetti", "Chloé Lefèvre", "Dmitri Volkov", "Elena Kowalska", "Farid Benali",
    "Greta Lindqvist", "Hiroshi Tanaka", "Inès Moreau", "Jonas Wagner", "Katarzyna Nowak", "Luca Bianchi",
    "Maëlle Girard", "Niklas Berg", "Olga Petrova", "Pierre-Antoine Rousseau",
]  # fmt: skip


@pytest.fixture
def tournament() -> Event:
    """Sixteen players, three rounds seated; round 1 played and closed, round 2 open (live standings)."""
    cache.clear()
    user = get_user_model().objects.create_user("tess", password="organiser-pass-123")
    club = Club.objects.create(name="Riichi Club de Lyon", slug="riichi-lyon", city="Lyon", country="FR")
    event = make_event(club, slug="printemps-lyon")
    event.name = "Tournoi de printemps de Lyon — Riichi Open 2026"
    event.kind = Event.Kind.TOURNAMENT
    event.table_entry_mode = "final"
    event.city, event.country = "Lyon", "FR"
    event.save()
    for name in NAMES:
        Registration.objects.create(event=event, player=Player.objects.create(display_name=name, club=club))
    seat_tournament(event=event, rounds=3, user=user)
    rounds.open_round(event=event, number=1, user=user)
    for hanchan in Hanchan.objects.filter(event=event, round_number=1):
        services.record_final_scores(hanchan=hanchan, scores=[42000, 31000, 27000, 20000], user=user)
    rounds.close_round(event=event, number=1, user=user)
    rounds.open_round(event=event, number=2, user=user)
    return event


def visit(browser, live_server, viewport: dict[str, int]):
    context = browser.new_context(viewport=viewport, base_url=live_server.url, locale="fr-FR")
    context.set_extra_http_headers({"Accept-Language": "fr"})
    page = context.new_page()
    page.set_default_timeout(15_000)
    return context, page


def in_first_screen(page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= page.viewport_size["height"]


def test_the_first_standings_row_is_in_a_phones_first_screen(browser, live_server, tournament):
    context, page = visit(browser, live_server, {"width": 390, "height": 844})
    try:
        page.goto(tournament.get_absolute_url())
        page.wait_for_load_state()
        page.screenshot(path=str(ARTIFACTS / "narrow-standings-first.png"))
        assert page.get_attribute("html", "lang") == "fr"
        assert page.locator("#standings-live.live").count() == 1  # a round is being played
        assert in_first_screen(page, FIRST_ROW), page.locator(FIRST_ROW).bounding_box()
        assert not page.locator("#id_min_games").is_visible()  # folded under its summary line
        # The folded filters open with a tap and filter; once used, they stay open.
        page.click("#standings-filter-box > summary")
        page.fill("#id_up_to_round", "1")
        page.click("#standings-filters button[type=submit]")
        page.wait_for_url(re.compile(r".*[?&]up_to_round=1"))
        assert page.locator("#id_up_to_round").is_visible()
        assert in_first_screen(page, "#standings-filter-box > summary")
    finally:
        context.close()


def test_on_a_laptop_the_standings_keep_their_layout_and_refresh(browser, live_server, tournament):
    context, page = visit(browser, live_server, {"width": 1366, "height": 768})
    try:
        page.goto(tournament.get_absolute_url())
        page.wait_for_load_state()
        page.screenshot(path=str(ARTIFACTS / "desktop-standings-first.png"))
        assert in_first_screen(page, FIRST_ROW)
        # All thirteen columns in view, no scroll cue (as before).
        assert not page.locator("#standings-ranked .scroll-hint").is_visible()
        # The live refresh swaps the tables in place, as its poll does, and the page stays as it was.
        rows = page.locator("#standings-ranked tbody tr").count()
        page.evaluate(
            """() => new Promise((done) => {
                 const live = document.querySelector('#standings-live');
                 document.body.addEventListener('htmx:afterSettle', () => done(), {once: true});
                 const into = {target: '#standings-live', swap: 'outerHTML'};
                 htmx.ajax('GET', live.getAttribute('hx-get'), into);
               })"""
        )
        assert page.locator("#standings-ranked tbody tr").count() == rows
        assert page.locator("#standings-live.live[hx-trigger]").count() == 1  # still polling
        assert in_first_screen(page, FIRST_ROW)
        assert page.locator("#standings-csv").is_visible()
    finally:
        context.close()
