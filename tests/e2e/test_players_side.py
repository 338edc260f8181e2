"""A player's side in a phone-sized Chromium: following a player without an account (the list kept in
the browser by static/js/follow.js, the home page showing their next table and latest result), and a
player who signs up, confirms their address, claims their profile and sees their next table and wind."""

from __future__ import annotations

import re

import pytest
from django.core import mail

from accounts import services
from background.worker import run_ready
from league.models import Event, Player, Registration
from scoring import services as scoring
from tests.conftest import make_event
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_accessibility import FAILING_IMPACTS, axe_context, axe_violations  # noqa: F401 (a fixture)
from tournaments.services import seat_tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def tournament(club, organiser):
    event = make_event(club, slug="phone-open")
    event.kind = Event.Kind.TOURNAMENT
    event.save()
    for i in range(4):
        Registration.objects.create(
            event=event, player=Player.objects.create(display_name=f"Phone {i + 1}", club=club)
        )
    games = seat_tournament(event=event, rounds=2, user=organiser)
    first = next(g for g in games if g.round_number == 1)
    scoring.record_final_scores(hanchan=first, scores=[45000, 35000, 25000, 15000], sticks=0, user=organiser)
    return event


def test_follow_a_player_and_see_them_on_the_home_page(page, tournament):
    player = Player.objects.get(display_name="Phone 1")
    page.goto(f"/players/{player.pk}/")
    button = page.locator("[data-follow-player]")
    button.wait_for(state="visible")
    assert button.inner_text() == "Follow"
    button.click()
    assert "Following" in button.inner_text()
    page.goto("/")
    followed = page.locator("#followed")
    followed.wait_for(state="visible")
    text = followed.inner_text()
    assert "Phone 1" in text and "round 2" in text and "Latest" in text
    page.screenshot(path=str(ARTIFACTS / "players-followed.png"), full_page=True)
    page.goto(f"/players/{player.pk}/")
    page.locator("[data-follow-player]").click()  # stop following
    page.goto("/")
    page.wait_for_load_state("networkidle")
    assert page.locator("#followed").is_hidden()


def test_sign_up_confirm_claim_and_see_my_next_table(page, tournament, organiser):
    player = Player.objects.get(display_name="Phone 2")
    code = services.issue_claim_code(player=player, user=organiser).code
    page.goto("/account/signup/")
    page.fill("input[name=email]", "phone2@example.org")
    page.fill("input[name=password1]", "phone-two-pass-8812")
    page.fill("input[name=password2]", "phone-two-pass-8812")
    page.locator("form button[type=submit]").last.click()
    page.wait_for_load_state()
    run_ready()  # the confirmation is queued in the outbox: the worker sends it
    link = re.search(r"https?://\S+/account/confirm-email/\S+/", mail.outbox[-1].body).group(0)
    page.goto(link)
    page.locator("form button[type=submit]").last.click()
    page.wait_for_load_state()
    page.goto("/account/login/")
    page.fill("input[name=login]", "phone2@example.org")
    page.fill("input[name=password]", "phone-two-pass-8812")
    page.locator("form button[type=submit]").last.click()
    page.wait_for_url("**/me/")
    page.fill("#id_code", code)
    page.click("#claim button[type=submit]")
    page.wait_for_url("**/me/")
    text = page.locator("#next-table").inner_text()
    assert "Round 2" in text and ("East" in text or "South" in text or "West" in text or "North" in text)
    page.screenshot(path=str(ARTIFACTS / "players-my-page.png"), full_page=True)


def test_my_page_has_no_serious_accessibility_violation(axe_context, tournament, organiser):  # noqa: F811
    """My page as a player sees it on the day: next table, live table, my code; axe-core finds nothing
    serious or critical."""
    from tests.accounts.conftest import PASSWORD, make_account
    from tournaments import rounds

    Event.objects.filter(pk=tournament.pk).update(
        confirmation=Event.Confirmation.PLAYERS, table_entry_mode="final"
    )
    tournament.refresh_from_db()
    rounds.open_round(event=tournament, number=2, user=organiser)
    make_account("axe@example.org", Player.objects.get(display_name="Phone 3"))
    page = axe_context("en")
    page.goto("/account/login/")
    page.fill("input[name=login]", "axe@example.org")
    page.fill("input[name=password]", PASSWORD)
    page.locator("form button[type=submit]").last.click()
    page.wait_for_url("**/me/")
    assert page.locator("#codes").is_visible() and page.locator("#live").is_visible()
    violations = [v for v in axe_violations(page) if v["impact"] in FAILING_IMPACTS]
    assert not violations, [(v["id"], v["help"]) for v in violations]
