"""``credited_result``: the one place the substitute-credit rule is written."""

from __future__ import annotations

import pytest

from league.models import Event
from scoring.substitutes import credited_result
from tests.conftest import make_event

pytestmark = pytest.mark.django_db


def test_registered_credit_keeps_what_was_played(club):
    event = make_event(club)
    assert event.substitute_credit == Event.SubstituteCredit.REGISTERED
    assert credited_result(event, played=-12_300, substitute=True) == -12_300
    assert credited_result(event, played=41_000, substitute=False) == 41_000


def test_fixed_credit_replaces_only_substitutes_seats(club):
    event = make_event(club)
    event.substitute_credit = Event.SubstituteCredit.FIXED
    event.substitute_fixed_result = -5_000
    assert credited_result(event, played=30_000, substitute=True) == -5_000
    assert credited_result(event, played=30_000, substitute=False) == 30_000
