"""The players' side's permission matrix: every address of accounts/urls.py, for each kind of visitor.

A player's own pages read the profile from the logged-in account (never from the address), so another
player only ever reaches their own; the organiser's account-link pages answer 404 to anyone but the
player's club's organisers and staff; the public ones (the followed players' fragment, an event's
calendar) answer everyone; a private calendar opens only with its signed address."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from accounts import urls
from accounts.models import AccountEntry, ClaimCode
from league import claim_links
from league.models import Club, Player
from league.permissions import PRIVATE_FIELDS
from tests.accounts.conftest import make_account

pytestmark = pytest.mark.django_db

MINE = "mine"  # the logged-in player's own pages: a log-in by e-mail first
MANAGE = "manage"  # the organiser's pages about one player
PUBLIC = "public"
PRIVATE = "private"  # a signed address

MATRIX = [
    ("me", "get", MINE),
    ("me_live", "get", MINE),
    ("claim", "post", MINE),
    ("claim_link", "get", MINE),
    ("claim_link", "post", MINE),
    ("visibility", "post", MINE),
    ("privacy", "post", MINE),
    ("confirm", "post", MINE),
    ("data", "get", MINE),
    ("close", "get", MINE),
    ("followed", "get", PUBLIC),
    ("event_calendar", "get", PUBLIC),
    ("my_calendar", "get", PRIVATE),
    ("player_account", "get", MANAGE),
    ("player_account_link", "post", MANAGE),
    ("player_account_unlink", "post", MANAGE),
    ("player_account_code", "post", MANAGE),
]


def test_the_matrix_covers_every_address():
    assert {p.name for p in urls.urlpatterns} == {name for name, *_ in MATRIX}


@pytest.fixture
def users(club, organiser, tournament, seated):
    stranger = get_user_model().objects.create_user("sven", password="sven-pass-5512")
    Club.objects.create(name="Other", slug="other").organisers.add(stranger)
    staff = get_user_model().objects.create_user("stella", password="stella-pass-5512", is_staff=True)
    return {
        "anonymous": None,
        "player": make_account("ann@example.org", seated[0]),
        "other_player": make_account("bob@example.org", seated[1]),
        "other_organiser": stranger,
        "organiser": organiser,
        "staff": staff,
    }


@pytest.mark.parametrize(
    "role", ["anonymous", "player", "other_player", "other_organiser", "organiser", "staff"]
)
@pytest.mark.parametrize(("name", "method", "kind"), MATRIX)
def test_permission_matrix(users, tournament, seated, role, name, method, kind):
    target = seated[1]  # the other player's profile: what a manage page is about
    args = {
        "confirm": [tournament.hanchans.get(round_number=1, table_number=1).pk],
        "event_calendar": [tournament.slug],
        "my_calendar": ["forged-token"],
        # a real link to the other player's profile, for an address no account here confirmed
        "claim_link": [claim_links.make_token(target.pk, "zed@example.org")],
    }.get(name, [target.pk] if kind == MANAGE else [])
    client = Client()
    if users[role] is not None:
        client.force_login(users[role])
    before = (
        list(Player.objects.order_by("pk").values_list("user_id", "visibility")),
        ClaimCode.objects.count(),
        AccountEntry.objects.exclude(action="privacy changed").count(),
    )
    flags = [f"public_{name}" for name in PRIVATE_FIELDS]
    others = Player.objects.exclude(user=users[role]) if users[role] is not None else Player.objects.all()
    others_flags = list(others.order_by("pk").values_list(*flags))
    response = getattr(client, method)(reverse(f"accounts:{name}", args=args), {"email": "zed@example.org"})
    status = response.status_code
    if kind == PUBLIC:
        assert status == 200
    elif kind == PRIVATE:
        assert status == 404
    elif role == "anonymous":
        login = reverse("account_login") if kind == MINE else reverse("login")
        assert status == 302 and response["Location"].startswith(login)
    elif kind == MANAGE:
        allowed = role in ("organiser", "staff")
        assert (status == 404) != allowed, status
    else:  # MINE: only ever the account's own profile
        assert status in (200, 302, 404)
    if role not in ("organiser", "staff") or kind != MANAGE:
        after = (
            list(Player.objects.order_by("pk").values_list("user_id", "visibility")),
            ClaimCode.objects.count(),
            AccountEntry.objects.exclude(action="privacy changed").count(),
        )
        # A player's own actions change only their own profile, and these posts carry nothing valid
        # (but an empty privacy form is valid: every field private — of the player's own page only).
        assert after == before
        assert list(others.order_by("pk").values_list(*flags)) == others_flags
        changed = AccountEntry.objects.filter(action="privacy changed")
        assert all(entry.player.user == users[role] for entry in changed)
        assert changed.exists() == (name == "privacy" and role in ("player", "other_player"))
