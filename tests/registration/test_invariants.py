"""Random sequences of sign-ups, withdrawals, rejections and capacity changes through the services: no more
are ever confirmed than there are places, and no place stays free while someone waits (with no approval
asked), whatever the order."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from registration import services
from registration.models import SignUp
from tests.registration.conftest import open_registration

pytestmark = pytest.mark.django_db

step = st.one_of(
    st.tuples(st.just("sign"), st.integers(0, 0)),
    st.tuples(st.just("withdraw"), st.integers(0, 30)),
    st.tuples(st.just("reject"), st.integers(0, 30)),
    st.tuples(st.just("capacity"), st.integers(1, 6)),
)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(steps=st.lists(step, min_size=1, max_size=25))
def test_places_and_the_waiting_list_stay_consistent(steps, tournament, organiser):
    SignUp.objects.all().delete()
    opening = open_registration(tournament, organiser, capacity=2)
    for number, (kind, value) in enumerate(steps):
        signups = list(SignUp.objects.filter(event=tournament).order_by("pk"))
        try:
            if kind == "sign":
                services.sign_up(event=tournament, name=f"P{number}", email=f"p{number}@x.org")
            elif kind in ("withdraw", "reject") and signups:
                signup = signups[value % len(signups)]
                if kind == "withdraw":
                    services.withdraw(signup=signup)
                else:
                    services.reject(signup=signup, user=organiser)
            elif kind == "capacity":
                opening = open_registration(tournament, organiser, capacity=value)
        except ValidationError:
            pass  # refused (fewer places than confirmed, already rejected): nothing changed
        opening.refresh_from_db()
        confirmed = SignUp.objects.filter(event=tournament, status="confirmed").count()
        waiting = SignUp.objects.filter(event=tournament, status="waiting").count()
        assert confirmed <= opening.capacity
        assert waiting == 0 or confirmed == opening.capacity
