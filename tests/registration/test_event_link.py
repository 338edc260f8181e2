"""The event page's "Register" link: shown while registration is open, through league's registry of
event links (scoring's template never imports registration), and right even from the cached page — the
opening's save and the clock's opening and closing move the event's version."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from background.models import Pending
from background.worker import run_ready
from league.models import Event
from tests.registration.conftest import open_registration

pytestmark = pytest.mark.django_db


def _link(client, event):
    return b'id="event-link-register"' in client.get(f"/events/{event.slug}/").content


def test_the_link_follows_the_opening(tournament, organiser):
    client = Client()
    assert not _link(client, tournament)  # cached without a link
    open_registration(tournament, organiser)
    assert _link(client, tournament)  # the save moved the version: the cached page is not served
    page = client.get(f"/events/{tournament.slug}/")
    assert f'href="/events/{tournament.slug}/register/"'.encode() in page.content
    now = timezone.now()
    open_registration(
        tournament, organiser, opens_at=now + timedelta(days=1), closes_at=now + timedelta(days=2)
    )
    assert not _link(client, tournament)  # not open yet


def test_the_clock_opening_and_closing_moves_the_cached_page(tournament, organiser, monkeypatch):
    now = timezone.now()
    opens, closes = now + timedelta(hours=1), now + timedelta(hours=2)
    open_registration(tournament, organiser, opens_at=opens, closes_at=closes)
    assert Pending.objects.filter(kind="registration-window").count() == 2
    client = Client()
    assert not _link(client, tournament)
    version = Event.objects.get(pk=tournament.pk).results_version
    run_ready()  # not due yet: nothing moves
    assert Event.objects.get(pk=tournament.pk).results_version == version
    monkeypatch.setattr(timezone, "now", lambda: opens + timedelta(seconds=1))
    run_ready()
    assert Event.objects.get(pk=tournament.pk).results_version > version
    assert _link(client, tournament)
    monkeypatch.setattr(timezone, "now", lambda: closes + timedelta(seconds=1))
    run_ready()
    assert not _link(client, tournament)
    assert not Pending.objects.filter(kind="registration-window").exists()
