"""The API's world: a public league with a finished game, a members-only event, a members-only player,
and a tournament whose public standings stop after round 1 (round 2 seated and played, kept hidden)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from rest_framework.test import APIClient

from league.models import Event, Player, Registration
from scoring import services
from scoring.engine import Hand, Win
from tests.conftest import make_event
from tests.tournaments.test_tournament import finish_round, make_tournament
from tournaments import services as tournament


@pytest.fixture(autouse=True)
def fresh_cache(settings):
    """An empty cache (the rate limit's counters too), and a rate no test reaches but the one about it."""
    settings.API_RATE = "100000/m"
    cache.clear()


@pytest.fixture
def world(club, event, players, organiser):  # type: ignore[no-untyped-def]
    ann, bob, cho, dan = players[:4]
    game = services.start_game(event=event, players=[ann, bob, cho, dan], user=organiser)
    services.record_hand(hanchan=game, hand=Hand.ron(1, Win(0, 3, 30)), user=organiser)
    paper = services.start_game(
        event=event, players=[ann, bob, cho, dan], user=organiser, entry_mode="final_scores"
    )
    services.record_final_scores(hanchan=paper, scores=[40000, 32000, 28000, 20000], user=organiser)
    members = make_event(club, slug="members-cup")
    members.visibility = Event.Visibility.MEMBERS
    members.save()
    mia = Player.objects.create(
        display_name="Mia Member",
        given_name="Mia",
        family_name="Secret",
        club=club,
        ema_number="04390002",
        country="FR",
        visibility=Player.Visibility.MEMBERS,
    )
    Registration.objects.create(event=event, player=mia)
    for player in (ann, bob, cho):
        Registration.objects.create(event=members, player=player)
    Registration.objects.create(event=members, player=mia)
    cup_game = services.start_game(
        event=members, players=[ann, bob, cho, mia], user=organiser, entry_mode="final_scores"
    )
    services.record_final_scores(hanchan=cup_game, scores=[40000, 32000, 28000, 20000], user=organiser)
    cup = make_tournament(club, 8, standings_hidden_after_round=1, table_entry_mode="final")
    tournament.seat_tournament(event=cup, rounds=2, user=organiser)
    finish_round(cup, 1, organiser)
    finish_round(cup, 2, organiser, scores=(20000, 30000, 40000, 30000))
    return {
        "league": event,
        "hands_game": game,
        "paper_game": paper,
        "members": members,
        "members_game": cup_game,
        "mia": mia,
        "ann": ann,
        "tournament": cup,
    }


@pytest.fixture
def anonymous() -> APIClient:
    return APIClient()


@pytest.fixture
def member(db) -> APIClient:  # type: ignore[no-untyped-def]
    """Logged in, organises nothing: a member (see :func:`member_user`)."""
    client = APIClient()
    client.force_login(member_user())
    return client


def member_user():  # type: ignore[no-untyped-def]
    """An account a club linked to a player record, which makes it a member's
    (``league.permissions.is_member``): it reads members-only events as an organiser does."""
    user = get_user_model().objects.create_user("pat", password="player-pass-123")
    Player.objects.create(display_name="Pat", user=user)
    return user
