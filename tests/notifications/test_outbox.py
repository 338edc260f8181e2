"""The outbox: a queued e-mail leaves after the commit, from the worker, once per key, in the
recipient's language, with an unsubscribe link that works without a login — received by a real SMTP
server (aiosmtpd)."""

from __future__ import annotations

import re

import pytest
from django.db import transaction
from django.test import Client

from background.models import Pending
from background.worker import run_ready
from notifications import outbox
from notifications.models import Message, Unsubscribed
from tests.smtp import body_of

pytestmark = pytest.mark.django_db

CONTEXT = {
    "name": "Zoë",
    "event": "Lyon Open",
    "personal_url": "http://testserver/registration/abc/",
    "event_url": "http://testserver/events/lyon-open/",
    "start_date": "",
}


def _queue(key: str = "k1", to: str = "zoe@example.org", language: str = "en") -> Message | None:
    return outbox.queue_email(
        key=key, to=to, template="registration/email/confirmed", context=CONTEXT, language=language
    )


def test_nothing_is_sent_inside_the_call_the_worker_sends_it(smtp_server):
    message = _queue()
    assert message is not None and message.status == Message.Status.QUEUED
    assert smtp_server.messages == []  # queued, not sent: the request never waits for a mail server
    assert Pending.objects.filter(kind="email", key=str(message.pk)).exists()
    run_ready()
    (received,) = smtp_server.messages
    assert received["Subject"] == "Registration confirmed: Lyon Open"
    assert "Zoë" in body_of(received)
    message.refresh_from_db()
    assert message.status == Message.Status.SENT and message.sent_at is not None


def test_the_same_key_is_one_message(smtp_server):
    first = _queue()
    again = _queue()
    assert first == again and Message.objects.count() == 1
    run_ready()
    _queue()  # after it was sent: still the same message, not sent again
    run_ready()
    assert len(smtp_server.messages) == 1


def test_a_rolled_back_change_sends_nothing(smtp_server):
    with pytest.raises(RuntimeError), transaction.atomic():
        _queue()
        raise RuntimeError("the change failed")
    run_ready()
    assert smtp_server.messages == [] and not Message.objects.exists()


def test_rendered_in_the_recipients_language(smtp_server):
    _queue(key="fr", to="fr@example.org", language="fr")
    _queue(key="pl", to="pl@example.org", language="pl")
    run_ready()
    (french,) = smtp_server.to("fr@example.org")
    (polish,) = smtp_server.to("pl@example.org")
    assert "Lyon Open" in french["Subject"] and french["Subject"] != "Registration confirmed: Lyon Open"
    assert polish["Subject"] not in (french["Subject"], "Registration confirmed: Lyon Open")
    assert french["Content-Language"] == "fr"
    assert "Bonjour" in body_of(french)


def test_every_email_carries_an_unsubscribe_link_that_works_without_a_login(smtp_server):
    _queue()
    run_ready()
    (received,) = smtp_server.messages
    link = re.search(r"http://testserver(/unsubscribe/\S+/)", body_of(received)).group(1)
    assert received["List-Unsubscribe"].strip() == f"<http://testserver{link}>"
    assert received["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    client = Client(enforce_csrf_checks=True)
    page = client.get(link)
    assert page.status_code == 200 and b"zoe@example.org" in page.content
    assert not Unsubscribed.objects.exists()  # a GET (a mail scanner) unsubscribes nobody
    assert client.post(link).status_code == 200  # one click, no login, no CSRF token: the link is the key
    assert Unsubscribed.objects.filter(address="zoe@example.org").exists()
    assert client.post(link).status_code == 200  # twice is fine
    message = _queue(key="k2")
    run_ready()
    assert len(smtp_server.messages) == 1  # nothing more to an unsubscribed address
    message.refresh_from_db()
    assert message.status == Message.Status.UNSUBSCRIBED


@pytest.mark.parametrize("token", ["junk", "a" * 300, "eyJhIjoxfQ:1abc:def"])
def test_a_forged_unsubscribe_link_is_a_404(token):
    assert Client().get(f"/unsubscribe/{token}/").status_code == 404
    assert Client().post(f"/unsubscribe/{token}/").status_code == 404
    assert not Unsubscribed.objects.exists()


def test_a_mail_server_that_is_down_is_retried_later(settings, smtp_server):
    settings.EMAIL_PORT = 1  # nothing listens there
    message = _queue()
    run_ready()  # no exception: the work keeps its error and waits for its retry
    (row,) = Pending.objects.filter(kind="email")
    assert row.attempts == 1 and row.last_error and row.run_after is not None
    message.refresh_from_db()
    assert message.status == Message.Status.QUEUED


def test_no_address_no_message():
    assert outbox.queue_email(key="x", to="  ", template="registration/email/confirmed", context={}) is None
    assert not Message.objects.exists()


def test_an_already_rendered_message_is_sent_as_it_was_with_no_unsubscribe_link(smtp_server):
    outbox.unsubscribe("ren@example.org")  # transactional: sent all the same
    message = outbox.queue_rendered(
        to="ren@example.org",
        subject="[Tenbou]  Reset\n your password",
        text="Open http://x/k/",
        html="<p>Open</p>",
    )
    assert message is not None and message.template == outbox.RENDERED
    assert smtp_server.messages == []
    run_ready()
    (received,) = smtp_server.messages
    assert received["Subject"] == "[Tenbou] Reset your password"
    assert "List-Unsubscribe" not in received
    assert received.get_body(("plain",)).get_content().strip() == "Open http://x/k/"
    assert received.get_body(("html",)).get_content().strip() == "<p>Open</p>"
    message.refresh_from_db()
    assert message.status == Message.Status.SENT and message.context == {
        "subject": "[Tenbou] Reset your password"
    }
    assert outbox.queue_rendered(to="", subject="s", text="t") is None
