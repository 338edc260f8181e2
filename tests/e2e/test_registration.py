"""Registration in phone-sized Chromium contexts, with a real SMTP server receiving the e-mails: the
organiser opens registration (one place, approval, waiting list); two players register on the public
form, one of them in French; the organiser approves the first and moves the second to the waiting list;
the first withdraws through the link of her confirmation e-mail, which promotes the second, told in
French by e-mail; he opens his link, whose QR code is his personal link, and checks in.

The worker runs where a background worker would (``run_ready``): nothing is sent from a request.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from background.worker import run_ready
from league.models import Club, Event
from registration.models import SignUp
from tests.conftest import make_event
from tests.e2e.conftest import ARTIFACTS, login
from tests.smtp import body_of
from tournaments.qr import qr_svg

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
PASSWORD = "organiser-pass-123"


def _context(browser, live_server, language: str = "en"):
    context = browser.new_context(viewport=PHONE, base_url=live_server.url, locale=language)
    context.set_default_timeout(15_000)
    return context


def _link(message) -> str:
    found = re.search(r"(http://\S+/registration/[\w-]+/)", body_of(message))
    assert found, body_of(message)
    return found.group(1)


def _register(browser, live_server, slug: str, name: str, email: str, language: str):
    context = _context(browser, live_server, language)
    page = context.new_page()
    page.goto(f"/events/{slug}/register/")
    page.fill("#id_name", name)
    page.fill("#id_email", email)
    page.click("#register-form button[type=submit]")
    page.wait_for_url(re.compile(r"/registration/[\w-]+/$"))
    return context, page


def test_register_confirm_withdraw_promote_and_check_in(browser, live_server, settings, smtp_server):
    settings.SITE_URL = live_server.url
    user = get_user_model().objects.create_user("tess", password=PASSWORD)
    club = Club.objects.create(name="Riichi Nantes", slug="riichi-nantes", country="FR")
    club.organisers.add(user)
    event = make_event(club, slug="nantes-open")
    event.kind = Event.Kind.TOURNAMENT
    event.save()

    # The organiser opens registration: one place, her approval, a waiting list.
    organiser = _context(browser, live_server)
    desk = organiser.new_page()
    login(desk, "tess", PASSWORD)
    desk.goto(f"/manage/events/{event.slug}/registration/")
    desk.fill("#id_capacity", "1")
    desk.check("#id_approval")
    desk.click("#opening-form button[type=submit]")
    desk.wait_for_selector("#public-form-link")

    # Two players register; each gets "received" by e-mail, in their own language.
    _ann, ann_page = _register(browser, live_server, event.slug, "Ann", "ann@example.org", "en")
    assert "waits for the organisers' approval" in ann_page.inner_text("#signup-status")
    _bruno, bruno_page = _register(browser, live_server, event.slug, "Bruno", "bruno@example.org", "fr")
    assert "validation des organisateurs" in bruno_page.inner_text("#signup-status")
    run_ready()
    assert smtp_server.to("ann@example.org")[0]["Subject"] == "Registration received: Nantes Open"
    assert smtp_server.to("bruno@example.org")[0]["Subject"] == "Inscription reçue : Nantes Open"

    # The organiser confirms Ann, and puts Bruno on the waiting list (the one place is taken).
    ann, bruno = SignUp.objects.get(name="Ann"), SignUp.objects.get(name="Bruno")
    desk.reload()
    desk.click(f"#signup-{ann.pk} form[action$='/approve/'] button")
    desk.wait_for_selector(".messages .success")
    desk.click(f"#signup-{bruno.pk} form[action$='/wait/'] button")
    desk.wait_for_load_state()
    assert "1 confirmed of 1 places, 1 on the waiting list" in desk.inner_text("#registration-counts")
    desk.screenshot(path=str(ARTIFACTS / "registration-list.png"), full_page=True)
    run_ready()
    (confirmed,) = [m for m in smtp_server.to("ann@example.org") if "confirmed" in m["Subject"]]
    (waiting,) = [m for m in smtp_server.to("bruno@example.org") if "attente" in m["Subject"]]
    assert "liste d'attente" in body_of(waiting)

    # Ann cannot come after all: she withdraws through the link of her confirmation e-mail.
    ann_page.goto(_link(confirmed))
    assert "Your registration is confirmed" in ann_page.inner_text("#signup-status")
    ann_page.click("#withdraw-form button[type=submit]")
    ann_page.wait_for_load_state()
    assert "You have withdrawn" in ann_page.inner_text("#signup-status")

    # Her place goes to Bruno, told in French by e-mail.
    run_ready()
    (promoted,) = [m for m in smtp_server.to("bruno@example.org") if "Une place pour vous" in m["Subject"]]
    link = _link(promoted)
    assert link == live_server.url + bruno.get_absolute_url()
    assert "/unsubscribe/" in body_of(promoted)

    # On the day Bruno opens his link: its QR code is that very link; he checks in.
    bruno_page.goto(link)
    assert "Votre inscription est confirmée" in bruno_page.inner_text("#signup-status")
    shown = bruno_page.get_attribute(".qr-code svg path", "d")
    expected = re.search(r' d="([^"]+)"', str(qr_svg(link, scale=4))).group(1)
    assert shown == expected  # the modules of the QR code of exactly this link
    bruno_page.screenshot(path=str(ARTIFACTS / "registration-check-in.png"), full_page=True)
    bruno_page.click("#check-in-form button[type=submit]")
    bruno_page.wait_for_selector("#checked-in")
    bruno.refresh_from_db()
    assert bruno.status == "confirmed" and bruno.checked_in_at is not None

    # The desk sees him checked in.
    desk.goto(f"/manage/events/{event.slug}/check-in/")
    assert "1 of 1 confirmed players checked in" in desk.inner_text("#check-in-counts")


def test_the_players_choose_their_messages_and_get_their_seating(browser, live_server, settings, smtp_server):
    """Four players registered through the form; one (in French) keeps only the seating and her result on
    her personal page. The organiser seats the tournament from its page: each player gets their table and
    wind by e-mail, in their language; the round that starts is told to all but her."""
    from registration import services
    from tests.registration.conftest import open_registration

    settings.SITE_URL = live_server.url
    user = get_user_model().objects.create_user("tess", password=PASSWORD)
    club = Club.objects.create(name="Riichi Nantes", slug="riichi-nantes", country="FR")
    club.organisers.add(user)
    event = make_event(club, slug="nantes-open")
    event.kind = Event.Kind.TOURNAMENT
    event.save()
    open_registration(event, user)

    # The event page shows the Register button while registration is open; Chloé registers through it.
    page = _context(browser, live_server, "fr").new_page()
    page.goto(f"/events/{event.slug}/")
    page.click("#event-link-register")
    page.fill("#id_name", "Chloé")
    page.fill("#id_email", "chloe@example.org")
    page.click("#register-form button[type=submit]")
    page.wait_for_url(re.compile(r"/registration/[\w-]+/$"))
    for name in ["Ann", "Bob", "Dan"]:
        services.sign_up(event=event, name=name, email=f"{name.lower()}@example.org", language="en")

    # On her page she keeps only the seating and her result.
    page.uncheck("#kind-registration")
    page.uncheck("#kind-round")
    page.uncheck("#kind-standings")
    page.click("#preferences-form button[type=submit]")
    page.wait_for_selector(".messages .success")
    assert page.is_checked("#kind-seating") and not page.is_checked("#kind-round")

    # The organiser makes the confirmed list the players and seats the tournament.
    services.add_confirmed_players(event=event, user=user)
    desk = _context(browser, live_server).new_page()
    login(desk, "tess", PASSWORD)
    desk.goto(f"/manage/events/{event.slug}/tournament/")
    desk.fill("#id_rounds", "1")
    with desk.expect_navigation():
        desk.click("#seating-form button[type=submit]")
    run_ready()
    (seating,) = [m for m in smtp_server.to("chloe@example.org") if "placement" in m["Subject"]]
    assert seating["Subject"] == "Votre placement à Nantes Open"
    assert re.search(r"Manche 1 : table 1, (Est|Sud|Ouest|Nord)", body_of(seating))
    assert [m["Subject"] for m in smtp_server.to("ann@example.org")][-1] == "Your seating at Nantes Open"

    # Round 1 starts: everyone is told but Chloé, who chose not to be.
    from tournaments import rounds

    smtp_server.messages.clear()
    rounds.open_round(event=event, number=1, user=user)
    run_ready()
    assert sorted(str(m["To"]) for m in smtp_server.messages) == [
        "ann@example.org",
        "bob@example.org",
        "dan@example.org",
    ]
