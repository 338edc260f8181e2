"""The iCalendar feeds, parsed with the icalendar package: an event's rounds, and my own schedule
(table and wind) at a private address."""

from __future__ import annotations

from datetime import date

import pytest
from django.test import Client
from django.urls import reverse
from icalendar import Calendar

from league.models import Event
from tournaments import rounds

pytestmark = pytest.mark.django_db


def _events(response) -> list:
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/calendar")
    return list(Calendar.from_ical(response.content).walk("VEVENT"))


def test_an_events_feed_lists_its_rounds(tournament, organiser):
    tournament.start_date = date(2026, 5, 9)
    tournament.save()
    rounds.open_round(event=tournament, number=1, user=organiser)
    entries = _events(Client().get(reverse("accounts:event_calendar", args=[tournament.slug])))
    by_uid = {str(e["UID"]): e for e in entries}
    assert set(by_uid) == {f"round-{tournament.pk}-1@tenbou", f"round-{tournament.pk}-2@tenbou"}
    first = by_uid[f"round-{tournament.pk}-1@tenbou"]
    assert "round 1" in str(first["SUMMARY"])
    assert first.decoded("DTSTART").tzinfo is not None  # opened: a timed entry
    second = by_uid[f"round-{tournament.pk}-2@tenbou"]
    assert second.decoded("DTSTART") == date(2026, 5, 9)  # not open: all day on the first day
    assert str(second["LOCATION"]) == "Lyon"


def test_a_members_only_events_feed_is_not_found_for_a_calendar_app(tournament):
    Event.objects.filter(pk=tournament.pk).update(visibility=Event.Visibility.MEMBERS)
    assert Client().get(reverse("accounts:event_calendar", args=[tournament.slug])).status_code == 404
    assert Client().get(reverse("accounts:event_calendar", args=["no-such"])).status_code == 404


def test_my_feed_lists_my_tables_and_winds_at_my_private_address(tournament, seated, ann, bob):
    client = Client()
    client.force_login(ann)
    url = client.get(reverse("accounts:me")).context["calendar_url"]
    entries = _events(Client().get(url))  # a calendar app: no session
    assert len(entries) == 2
    first = next(e for e in entries if "round 1," in str(e["SUMMARY"]))
    assert "table 1" in str(first["SUMMARY"]) and "East" in str(first["SUMMARY"])
    client.force_login(bob)
    bobs = client.get(reverse("accounts:me")).context["calendar_url"]
    assert bobs != url
    assert "South" in str(
        next(e for e in _events(Client().get(bobs)) if "round 1," in str(e["SUMMARY"]))["SUMMARY"]
    )


@pytest.mark.parametrize("token", ["x", "a" * 300, "eyJ1IjoxfQ:forged:sig"])
def test_a_forged_calendar_address_opens_nothing(ann, token):
    assert Client().get(reverse("accounts:my_calendar", args=[token])).status_code == 404


def test_a_closed_accounts_calendar_opens_nothing(tournament, seated, ann):
    client = Client()
    client.force_login(ann)
    url = client.get(reverse("accounts:me")).context["calendar_url"]
    ann.delete()
    assert Client().get(url).status_code == 404


def test_a_password_change_gives_a_new_calendar_address(tournament, seated, ann):
    client = Client()
    client.force_login(ann)
    old = client.get(reverse("accounts:me")).context["calendar_url"]
    ann.set_password("a-brand-new-pass-3310")
    ann.save()
    assert Client().get(old).status_code == 404
    client.force_login(ann)
    new = client.get(reverse("accounts:me")).context["calendar_url"]
    assert new != old and Client().get(new).status_code == 200
