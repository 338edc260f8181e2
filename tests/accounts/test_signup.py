"""Sign-up and log-in by e-mail address (django-allauth), the address confirmed before the first
log-in; the organisers' username log-in keeps working, and failed players' log-ins are throttled."""

from __future__ import annotations

import re

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse

from background.worker import run_ready
from notifications.models import Message
from tests.accounts.conftest import PASSWORD, make_account

pytestmark = pytest.mark.django_db


def _confirmation_link(message) -> str:
    found = re.search(r"https?://[^/\s]+(/account/confirm-email/[^\s]+/)", message.body)
    assert found, message.body
    return found.group(1)


def test_a_player_signs_up_confirms_the_address_and_lands_on_their_page():
    client = Client()
    response = client.post(
        reverse("account_signup"),
        {"email": "chiyo@example.org", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 302
    user = get_user_model().objects.get(email="chiyo@example.org")
    assert not EmailAddress.objects.get(user=user).verified
    # Not confirmed: logging in sends the confirmation again instead of logging in.
    client = Client()
    client.post(reverse("account_login"), {"login": "chiyo@example.org", "password": PASSWORD})
    assert client.get(reverse("accounts:me")).status_code == 302
    assert mail.outbox == []  # queued in the outbox, sent by the worker
    run_ready()
    assert len(mail.outbox) >= 1 and "chiyo@example.org" in mail.outbox[0].to
    link = _confirmation_link(mail.outbox[0])
    assert client.get(link).status_code == 200  # a page with a button: no GET confirms
    assert not EmailAddress.objects.get(user=user).verified
    client.post(link)
    assert EmailAddress.objects.get(user=user).verified
    fresh = Client()
    response = fresh.post(reverse("account_login"), {"login": "chiyo@example.org", "password": PASSWORD})
    assert response.status_code == 302 and response["Location"] == reverse("accounts:me")
    page = fresh.get(reverse("accounts:me"))
    assert page.status_code == 200 and b'id="claim"' in page.content


def test_the_same_address_cannot_sign_up_twice():
    make_account("dup@example.org")
    response = Client().post(
        reverse("account_signup"), {"email": "DUP@example.org", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert get_user_model().objects.filter(email__iexact="dup@example.org").count() == 1
    assert response.status_code in (200, 302)


def test_organisers_still_log_in_with_their_username(organiser):
    client = Client()
    response = client.post(reverse("login"), {"username": "olga", "password": "organiser-pass-123"})
    assert response.status_code == 302
    assert client.get(reverse("league_manage:dashboard")).status_code == 200


def test_failed_player_log_ins_are_locked_by_axes(settings):
    make_account("eve@example.org")
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post(reverse("account_login"), {"login": "eve@example.org", "password": "wrong"})
    locked = client.post(reverse("account_login"), {"login": "eve@example.org", "password": PASSWORD})
    assert locked.status_code != 302  # the right password, refused while locked
    assert client.get(reverse("accounts:me")).status_code == 302  # not logged in


def test_junk_log_in_and_sign_up_answer_without_a_server_error():
    client = Client()
    for data in (
        {"login": "x" * 400 + "@example.org", "password": "p"},
        {"login": "a\x00b@example.org", "password": "p"},
        {},
    ):
        assert client.post(reverse("account_login"), data).status_code < 500
    for data in ({"email": "not-an-address", "password1": "1", "password2": "2"}, {}):
        assert client.post(reverse("account_signup"), data).status_code < 500


def test_the_players_pages_ask_for_a_log_in_by_e_mail():
    response = Client().get(reverse("accounts:me"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("account_login"))


def test_an_unconfirmed_player_cannot_log_in_by_username_on_the_organisers_page():
    client = Client()
    client.post(
        reverse("account_signup"), {"email": "mika@example.org", "password1": PASSWORD, "password2": PASSWORD}
    )
    user = get_user_model().objects.get(email="mika@example.org")
    fresh = Client()
    response = fresh.post(reverse("login"), {"username": user.username, "password": PASSWORD})
    assert response.status_code == 200 and b"Confirm your e-mail address first" in response.content
    assert fresh.get(reverse("accounts:me")).status_code == 302
    EmailAddress.objects.filter(user=user).update(verified=True)
    response = fresh.post(reverse("login"), {"username": user.username, "password": PASSWORD})
    assert response.status_code == 302


def test_sign_up_can_be_closed(settings):
    settings.TENBOU_PLAYER_SIGNUP = False
    response = Client().post(
        reverse("account_signup"), {"email": "late@example.org", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert response.status_code < 500
    assert not get_user_model().objects.filter(email="late@example.org").exists()


def test_a_player_sent_to_the_organisers_log_in_keeps_where_they_were_going(players):
    response = Client().get(reverse("login"), {"next": "/events/autumn-league/"})
    assert f"{reverse('account_login')}?next=/events/autumn-league/" in response.content.decode()
    make_account("ann@example.org", players[0])
    response = Client().post(
        reverse("account_login") + "?next=/events/autumn-league/",
        {"login": "ann@example.org", "password": PASSWORD},
    )
    assert response.status_code == 302 and response["Location"] == "/events/autumn-league/"


def test_the_confirmation_mail_is_sent_by_the_worker_not_inside_the_request():
    client = Client()
    client.post(
        reverse("account_signup"),
        {"email": "nori@example.org", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert mail.outbox == []
    (queued,) = Message.objects.filter(to="nori@example.org")
    assert queued.status == Message.Status.QUEUED
    run_ready()
    (sent,) = mail.outbox
    assert sent.to == ["nori@example.org"] and sent.subject.startswith("[Tenbou] ")
    assert "List-Unsubscribe" not in sent.extra_headers  # a transactional e-mail: no unsubscribe link
    link = _confirmation_link(sent)
    client.post(link)
    assert EmailAddress.objects.get(email="nori@example.org").verified
    queued.refresh_from_db()
    assert queued.status == Message.Status.SENT and "text" not in queued.context  # the link not kept
    run_ready()
    assert len(mail.outbox) == 1  # sent once


def test_the_password_reset_mail_is_sent_by_the_worker_and_its_link_works():
    make_account("pia@example.org")
    client = Client()
    response = client.post(reverse("account_reset_password"), {"email": "pia@example.org"})
    assert response.status_code == 302
    assert mail.outbox == []
    run_ready()
    (sent,) = mail.outbox
    assert sent.to == ["pia@example.org"]
    found = re.search(r"https?://[^/\s]+(/account/password/reset/key/[^\s]+/)", sent.body)
    assert found, sent.body
    page = client.get(found.group(1), follow=True)
    assert page.status_code == 200
    new = "a-new-pass-77301"
    response = client.post(page.redirect_chain[-1][0], {"password1": new, "password2": new})
    assert response.status_code == 302
    assert get_user_model().objects.get(email="pia@example.org").check_password(new)


def test_an_address_that_unsubscribed_from_notifications_still_gets_its_reset_link():
    from notifications.models import Unsubscribed

    make_account("quin@example.org")
    Unsubscribed.objects.create(address="quin@example.org")
    Client().post(reverse("account_reset_password"), {"email": "quin@example.org"})
    run_ready()
    (sent,) = mail.outbox
    assert sent.to == ["quin@example.org"] and "/account/password/reset/key/" in sent.body
