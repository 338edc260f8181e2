"""Fixtures for the league's pages: one user per role of the permission matrix, and a second club."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from league.models import Club, Event, Player
from tests.conftest import make_event


@pytest.fixture
def player_user(db, club):
    """Logged-in, organises nothing: a member of the club checking standings (the club linked the
    account to their player record, which is what makes an account a member's: ``is_member``)."""
    user = get_user_model().objects.create_user("pat", password="player-pass-123")
    Player.objects.create(display_name="Pat", club=club, user=user)
    return user


@pytest.fixture
def account_user(db):
    """Logged-in through a sign-up alone: no club linked the account to a player, so not a member."""
    return get_user_model().objects.create_user("ada", password="account-pass-123")


@pytest.fixture
def staff_user(db):
    return get_user_model().objects.create_user("sam", password="staff-pass-123", is_staff=True)


@pytest.fixture
def other_organiser(db):
    return get_user_model().objects.create_user("otto", password="organiser-pass-456")


@pytest.fixture
def other_club(other_organiser):
    club = Club.objects.create(name="Mahjong Berlin", slug="mahjong-berlin", city="Berlin", country="DE")
    club.organisers.add(other_organiser)
    return club


@pytest.fixture
def other_event(other_club):
    return make_event(other_club, slug="berlin-open")


@pytest.fixture
def members_event(club):
    event = make_event(club, slug="members-cup")
    event.visibility = Event.Visibility.MEMBERS
    event.save()
    return event


@pytest.fixture
def users(organiser, player_user, other_organiser, other_club, staff_user):
    """Role name -> user (None for an anonymous visitor)."""
    return {
        "anonymous": None,
        "player": player_user,
        "other_organiser": other_organiser,
        "organiser": organiser,
        "staff": staff_user,
    }


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """Five users per test: the production hasher would make the permission matrix take minutes."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
