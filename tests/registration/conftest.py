"""Fixtures of registration: a tournament with its registration open, and the SMTP server."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from league.models import Event
from registration import services
from tests.conftest import make_event
from tests.league.conftest import other_club, other_organiser, player_user, staff_user, users  # noqa: F401


@pytest.fixture
def tournament(club):
    event = make_event(club, slug="lyon-open")
    event.kind = Event.Kind.TOURNAMENT
    event.save()
    return event


def open_registration(event, user, **overrides):
    now = timezone.now()
    values = {
        "opens_at": now - timedelta(days=1),
        "closes_at": now + timedelta(days=7),
        "capacity": 4,
        "waiting_list": True,
        "approval": False,
        "asks": {"ema_number": "optional", "country": "optional", "club": "optional", "email": "required"},
    }
    values.update(overrides)
    return services.save_opening(event=event, user=user, **values)


@pytest.fixture
def opening(tournament, organiser):
    return open_registration(tournament, organiser)
