"""Shared fixtures: a club with an organiser, a league under EMA 2016 rules, registered players."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from league.models import Club, Event, Player, Registration
from scoring.engine import make_ruleset


@pytest.fixture
def organiser(db):
    return get_user_model().objects.create_user("olga", password="organiser-pass-123")


@pytest.fixture
def club(organiser):
    club = Club.objects.create(name="Riichi Lyon", slug="riichi-lyon", city="Lyon", country="FR")
    club.organisers.add(organiser)
    return club


def make_event(club, preset: str = "ema2016", slug: str = "autumn-league", **overrides) -> Event:
    return Event.objects.create(
        club=club,
        name=slug.replace("-", " ").title(),
        slug=slug,
        ruleset=make_ruleset(preset, overrides).to_dict(),
    )


@pytest.fixture
def event(club):
    return make_event(club)


@pytest.fixture
def players(club, event):
    names = ["Ann", "Bob", "Cho", "Dan", "Eve", "Fay"]
    made = [Player.objects.create(display_name=n, club=club) for n in names]
    for player in made:
        Registration.objects.create(event=event, player=player)
    return made


@pytest.fixture(autouse=True)
def fast_password_hasher(settings):
    """Hashing with the production hasher costs ~0.5 s per user; tests do not need it."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
