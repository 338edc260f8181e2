"""Shared fixtures: a club with an organiser, a league under EMA 2016 rules, registered players."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from hypothesis import settings as hypothesis_settings

from league.models import Club, Event, Player, Registration
from scoring.engine import make_ruleset
from tests.smtp import smtp_server  # noqa: F401 -- a real SMTP server for the e-mail tests

# Property tests check invariants, not speed: no deadline, so a busy CI machine fails none of them on its
# clock. In the suite their examples are derandomized (the same on every run, like Schemathesis's), so CI
# gives the same answer on the same code; HYPOTHESIS_PROFILE=explore draws fresh random examples, by hand
# (docs/developers.md), and what it finds gets a test of its own.
hypothesis_settings.register_profile("suite", deadline=None, derandomize=True)
hypothesis_settings.register_profile("explore", deadline=None)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "suite"))


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix):
    """On SQLite, test in a file instead of Django's shared in-memory database.

    Concurrency tests run requests in threads, each with its own connection; an in-memory database
    shared between connections locks whole tables and fails at once instead of waiting, unlike the
    file (in WAL mode) the application really uses. The name carries the process id so that
    concurrent test runs (and xdist workers) never share or delete each other's database.
    """
    from django.conf import settings

    database = settings.DATABASES["default"]
    if database["ENGINE"] == "django.db.backends.sqlite3":
        name = Path(tempfile.gettempdir()) / f"tenbou-test-{os.getpid()}.sqlite3"
        database.setdefault("TEST", {})["NAME"] = str(name)


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
def empty_page_cache():
    """Every test starts with an empty page cache (scoring/cache.py). Pages are keyed by results
    versions, which the rolled-back database of each test hands out again from the same numbers: a page
    cached by an earlier test must not answer for this one's data."""
    from django.core.cache import cache

    cache.clear()
    yield


@pytest.fixture(autouse=True)
def no_stale_pages(settings):
    """Tests read a public page right after changing it and expect the change: the few seconds a page
    may lag behind its results version under load (league/wholepage.py) are off, except in the tests
    of that lag (tests/league/test_wholepage.py), which set it."""
    settings.TENBOU_STALE_SECONDS = 0


@pytest.fixture(autouse=True)
def fast_password_hasher(settings):
    """Hashing with the production hasher costs ~0.5 s per user; tests do not need it."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def english_by_default():
    """Each test starts and ends in the default language: a test that activates French (a request
    with a French cookie does, in the test's thread) must not turn the next test's messages French."""
    from django.utils import translation

    translation.activate("en")
    yield
    translation.deactivate()
