"""Fixtures of the players' side: a tournament whose players confirm their results with their own
codes, and accounts (confirmed e-mail addresses) linked to its players."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model

from league.models import Event, Player, Registration
from tests.conftest import make_event
from tournaments.services import seat_tournament

PASSWORD = "a-player-pass-4821"


def make_account(email: str, player: Player | None = None):
    """A user with a confirmed e-mail address (as allauth leaves it after the link is followed)."""
    user = get_user_model().objects.create_user(email.split("@")[0], email=email, password=PASSWORD)
    EmailAddress.objects.create(user=user, email=email, verified=True, primary=True)
    if player is not None:
        player.user = user
        player.save(update_fields=["user"])
    return user


@pytest.fixture
def tournament(club, organiser):
    event = make_event(club, slug="lyon-open")
    event.kind = Event.Kind.TOURNAMENT
    event.table_entry_mode = "final"
    event.confirmation = Event.Confirmation.PLAYERS
    event.city = "Lyon"
    event.save()
    for i in range(8):
        player = Player.objects.create(display_name=f"Open player {i + 1}", club=club)
        Registration.objects.create(event=event, player=player)
    seat_tournament(event=event, rounds=2, user=organiser)
    return event


@pytest.fixture
def seated(tournament):
    """The players of round 1's table 1, in seat order."""
    game = tournament.hanchans.get(round_number=1, table_number=1)
    return [s.player for s in game.seats.select_related("player").order_by("seat")]


@pytest.fixture
def ann(seated):
    """The account of round 1's table 1 East player."""
    return make_account("ann@example.org", seated[0])


@pytest.fixture
def bob(seated):
    """The account of round 1's table 1 South player."""
    return make_account("bob@example.org", seated[1])
