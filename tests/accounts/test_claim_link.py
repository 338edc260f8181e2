"""A player claims their page through the link of their registration e-mail: the account that confirmed
the address the link was sent to is linked to the player (one transaction, a history entry); a wrong
address, a forged or stale link, a profile or an account linked already are refused with a message, and
a second tap changes nothing."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from allauth.account.models import EmailAddress
from django.core import mail, signing
from django.test import Client
from django.urls import reverse

from accounts.models import AccountEntry
from background.worker import run_ready
from league import claim_links
from league.models import Player
from notifications.models import Message
from registration import services as registration
from tests.accounts.conftest import make_account
from tests.registration.conftest import open_registration

pytestmark = pytest.mark.django_db

LINK = re.compile(r"https?://[^/\s]+(/me/claim/[^\s/]+/)")


@pytest.fixture
def known(club):
    return Player.objects.create(display_name="Léa B.", ema_number="04390002", club=club)


@pytest.fixture
def event(club, organiser):
    from tests.conftest import make_event

    made = make_event(club, slug="lyon-open")
    open_registration(made, organiser)
    return made


def _sign(event, name="Léa", email="lea@example.org", language="en", **fields):
    return registration.sign_up(event=event, name=name, email=email, language=language, **fields)


def _claim_path(message) -> str:
    found = LINK.search(message.body)
    assert found, message.body
    return found.group(1)


def _logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_confirmation_of_a_known_player_carries_the_link_and_it_links_the_account(event, known):
    _sign(event, ema_number="04390002")
    run_ready()
    (confirmation,) = mail.outbox
    path = _claim_path(confirmation)
    # Logged out: log in (or sign up) first, and come back.
    response = Client().get(path)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login")) and "next=" in response["Location"]
    lea = make_account("lea@example.org")
    client = _logged_in(lea)
    page = client.get(path)
    assert page.status_code == 200 and "Léa B." in page.content.decode()
    known.refresh_from_db()
    assert known.user is None  # a GET (a mail program opening links) links nothing
    response = client.post(path)
    assert response.status_code == 302 and response["Location"] == reverse("accounts:me")
    known.refresh_from_db()
    assert known.user == lea
    (entry,) = AccountEntry.objects.filter(player=known)
    assert entry.action == "profile claimed" and entry.user == lea
    # A double tap: said, nothing changes.
    again = client.post(path, follow=True)
    assert "already linked to your account" in again.content.decode()
    assert AccountEntry.objects.filter(player=known).count() == 1
    assert client.get(path)["Location"] == reverse("accounts:me")


def test_a_player_made_from_the_sign_up_gets_their_link_by_e_mail_in_their_language(event, organiser):
    _sign(event, name="Zoé", email="zoe@example.org", language="fr")
    run_ready()
    mail.outbox.clear()
    (made,) = registration.add_confirmed_players(event=event, user=organiser)
    registration.add_confirmed_players(event=event, user=organiser)  # twice: still one e-mail
    run_ready()
    (message,) = mail.outbox
    assert message.to == ["zoe@example.org"]
    assert message.subject == "Votre page de joueur à Lyon Open"
    zoe = make_account("zoe@example.org")
    client = _logged_in(zoe)
    client.post(_claim_path(message))
    made.player.refresh_from_db()
    assert made.player.user == zoe


def test_no_link_for_a_player_who_has_an_account_already(event, known):
    make_account("someone@example.org", known)
    _sign(event, ema_number="04390002")
    run_ready()
    (confirmation,) = mail.outbox
    assert "/me/claim/" not in confirmation.body


def test_another_address_or_an_unconfirmed_one_is_refused(event, known):
    path = reverse("accounts:claim_link", args=[claim_links.make_token(known.pk, "lea@example.org")])
    other = make_account("other@example.org")
    response = _logged_in(other).post(path, follow=True)
    assert "lea@example.org" in response.content.decode() and "has not confirmed" in response.content.decode()
    unconfirmed = make_account("lea2@example.org")
    EmailAddress.objects.create(user=unconfirmed, email="LEA@example.org", verified=False)
    _logged_in(unconfirmed).post(path)
    known.refresh_from_db()
    assert known.user is None and not AccountEntry.objects.exists()


def test_a_profile_or_an_account_linked_already_is_refused(event, known, club):
    path = reverse("accounts:claim_link", args=[claim_links.make_token(known.pk, "lea@example.org")])
    holder = make_account("holder@example.org", known)
    lea = make_account("lea@example.org")
    response = _logged_in(lea).post(path, follow=True)
    assert "already linked to another account" in response.content.decode()
    known.refresh_from_db()
    assert known.user == holder
    # The account holds another profile: refused too.
    known.user = None
    known.save(update_fields=["user"])
    Player.objects.create(display_name="Other Léa", club=club, user=lea)
    response = _logged_in(lea).post(path, follow=True)
    assert "already linked to a player profile" in response.content.decode()
    known.refresh_from_db()
    assert known.user is None and not AccountEntry.objects.exists()


@pytest.mark.parametrize("method", ["get", "post"])
def test_forged_altered_and_stale_links_say_so_without_a_server_error(known, method, monkeypatch):
    lea = make_account("lea@example.org")
    client = _logged_in(lea)
    good = claim_links.make_token(known.pk, "lea@example.org")
    forged = signing.dumps({"p": known.pk, "e": "lea@example.org"}, salt="another.salt", compress=True)
    for token in (forged, good[:-3] + "abc", "x" * 1000, "junk", good.replace(":", "")):
        response = getattr(client, method)(reverse("accounts:claim_link", args=[token]), follow=True)
        assert response.status_code < 500
        assert "This link is not valid" in response.content.decode()
    # Stale: past CLAIM_LINK_DAYS.
    real_time = signing.time.time
    monkeypatch.setattr(
        signing.time,
        "time",
        lambda: real_time() + timedelta(days=claim_links.CLAIM_LINK_DAYS + 1).total_seconds(),
    )
    response = getattr(client, method)(reverse("accounts:claim_link", args=[good]), follow=True)
    assert "This link has expired" in response.content.decode()
    known.refresh_from_db()
    assert known.user is None and not AccountEntry.objects.exists()


def test_a_player_gone_since_the_e_mail(known):
    lea = make_account("lea@example.org")
    path = reverse("accounts:claim_link", args=[claim_links.make_token(known.pk, "lea@example.org")])
    known.delete()
    client = _logged_in(lea)
    assert client.get(path).status_code == 400
    response = client.post(path, follow=True)
    assert response.status_code == 200 and "no longer exists" in response.content.decode()


def test_the_claim_link_mail_is_a_registration_kind_with_its_unsubscribe_link(event, known):
    _sign(event, ema_number="04390002")
    (queued,) = Message.objects.all()
    assert queued.context["claim_url"].startswith("http") and "/me/claim/" in queued.context["claim_url"]
