"""Each address's choice of kinds: whatever the sequence of choices, the last one is what it gets."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from hypothesis import given, settings
from hypothesis import strategies as st

from notifications import outbox, preferences
from notifications.kinds import KINDS
from notifications.models import Muted

pytestmark = pytest.mark.django_db

ADDRESS = "Ann@Example.org"


@settings(max_examples=30, deadline=None)
@given(st.lists(st.sets(st.sampled_from(sorted(KINDS))), min_size=1, max_size=5))
def test_the_last_choice_holds(choices):
    Muted.objects.all().delete()
    for wanted in choices:
        preferences.set_wanted(ADDRESS, wanted)
    last = choices[-1]
    assert preferences.muted_kinds(ADDRESS) == set(KINDS) - last
    assert {kind for kind in KINDS if outbox.wants(ADDRESS.lower(), kind)} == last


def test_an_unknown_kind_is_refused_and_nothing_changes():
    preferences.set_wanted(ADDRESS, ["seating"])
    before = preferences.muted_kinds(ADDRESS)
    with pytest.raises(ValidationError, match="Unknown kind"):
        preferences.set_wanted(ADDRESS, ["seating", "nonsense"])
    assert preferences.muted_kinds(ADDRESS) == before


def test_unsubscribed_from_everything_wants_nothing():
    outbox.unsubscribe(ADDRESS)
    assert not any(outbox.wants(ADDRESS, kind) for kind in KINDS)
