"""Many people sending the form at the same moment for the last places, and the same EMA number sent
twice at once: the places are counted under a lock of the event's registration row, so no more are
confirmed than there are places, the rest wait, and one EMA number is one sign-up — never a server error.
Runs on SQLite (writers queue: IMMEDIATE transactions) and on PostgreSQL (the row lock)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from registration.models import SignUp
from tests.registration.conftest import open_registration
from tests.scoring.test_concurrency import run_concurrently

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_last_places_are_given_once(tournament, organiser):
    open_registration(tournament, organiser, capacity=3)
    url = reverse("registration:register", args=[tournament.slug])
    outcomes = run_concurrently(
        [
            lambda i=i: Client().post(url, {"name": f"P{i}", "email": f"p{i}@x.org", "form_key": f"key-{i}"})
            for i in range(12)
        ]
    )
    assert [getattr(o, "status_code", o) for o in outcomes] == [302] * 12
    assert SignUp.objects.filter(status="confirmed").count() == 3
    assert SignUp.objects.filter(status="waiting").count() == 9


def test_one_ema_number_sent_twice_at_once_is_one_sign_up(tournament, organiser):
    open_registration(tournament, organiser)
    url = reverse("registration:register", args=[tournament.slug])
    outcomes = run_concurrently(
        [
            lambda i=i: Client().post(
                url, {"name": "Ann", "email": f"a{i}@x.org", "ema_number": "04390002", "form_key": f"k{i}"}
            )
            for i in range(6)
        ]
    )
    assert sorted(getattr(o, "status_code", o) for o in outcomes) == [302] + [422] * 5
    assert SignUp.objects.count() == 1
