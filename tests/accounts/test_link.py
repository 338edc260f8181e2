"""Linking an account to a player profile: an organiser links it (by the confirmed e-mail address) or
hands over a claim code the player types on their page; nobody else can."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts import services
from accounts.models import AccountEntry, ClaimCode
from tests.accounts.conftest import make_account

pytestmark = pytest.mark.django_db


def test_a_claim_code_links_the_account_once(players, organiser):
    code = services.issue_claim_code(player=players[0], user=organiser)
    user = make_account("ann@example.org")
    client = Client()
    client.force_login(user)
    response = client.post(reverse("accounts:claim"), {"code": code.code.lower()})
    assert response.status_code == 302
    players[0].refresh_from_db()
    assert players[0].user == user
    other = make_account("eve@example.org")
    with pytest.raises(ValidationError):  # used
        services.claim_player(user=other, code=code.code)
    assert AccountEntry.objects.filter(player=players[0], action="profile claimed").exists()


def test_a_wrong_expired_or_replaced_code_claims_nothing(players, organiser):
    user = make_account("ann@example.org")
    old = services.issue_claim_code(player=players[0], user=organiser)
    new = services.issue_claim_code(player=players[0], user=organiser)
    for code in ("", "NOPE", old.code, "x" * 500):
        with pytest.raises(ValidationError):
            services.claim_player(user=user, code=code)
    ClaimCode.objects.filter(pk=new.pk).update(
        created_at=timezone.now() - timedelta(days=services.CLAIM_DAYS + 1)
    )
    with pytest.raises(ValidationError):
        services.claim_player(user=user, code=new.code)
    players[0].refresh_from_db()
    assert players[0].user is None


def test_wrong_claim_codes_are_limited_per_address(players, organiser):
    user = make_account("ann@example.org")
    code = services.issue_claim_code(player=players[0], user=organiser)
    client = Client()
    client.force_login(user)
    for _ in range(10):
        client.post(reverse("accounts:claim"), {"code": "WRONGCODE"})
    client.post(reverse("accounts:claim"), {"code": code.code})
    players[0].refresh_from_db()
    assert players[0].user is None  # even the right code waits once the address guessed too often


def test_an_account_claims_one_profile_and_a_profile_has_one_account(players, organiser):
    user = make_account("ann@example.org", players[0])
    code = services.issue_claim_code(player=players[1], user=organiser)
    with pytest.raises(ValidationError):
        services.claim_player(user=user, code=code.code)
    with pytest.raises(ValidationError):  # already linked
        services.issue_claim_code(player=players[0], user=organiser)


def test_the_organiser_links_and_unlinks_by_confirmed_address(players, organiser):
    user = make_account("ann@example.org")
    unconfirmed = get_user_model().objects.create_user("zed", email="zed@example.org", password="x-pass-9981")
    from allauth.account.models import EmailAddress

    EmailAddress.objects.create(user=unconfirmed, email="zed@example.org", verified=False, primary=True)
    with pytest.raises(ValidationError) as info:
        services.link_account(player=players[1], email="zed@example.org", user=organiser)
    assert "email" in info.value.message_dict
    client = Client()
    client.force_login(organiser)
    page = reverse("accounts:player_account", args=[players[0].pk])
    assert client.get(page).status_code == 200
    client.post(reverse("accounts:player_account_link", args=[players[0].pk]), {"email": "ANN@example.org"})
    players[0].refresh_from_db()
    assert players[0].user == user
    client.post(reverse("accounts:player_account_unlink", args=[players[0].pk]))
    players[0].refresh_from_db()
    assert players[0].user is None
    assert b"Account unlinked by an organiser." in client.get(page).content


def test_another_clubs_organiser_or_a_player_cannot_link(players, organiser):
    from league.models import Club

    stranger = get_user_model().objects.create_user("sven", password="sven-pass-5512")
    Club.objects.create(name="Other", slug="other").organisers.add(stranger)
    make_account("ann@example.org")
    player_user = make_account("bob@example.org", players[1])
    for user in (stranger, player_user):
        with pytest.raises(ValidationError):
            services.link_account(player=players[0], email="ann@example.org", user=user)
        with pytest.raises(ValidationError):
            services.issue_claim_code(player=players[0], user=user)
        client = Client()
        client.force_login(user)
        for name in ("player_account", "player_account_link", "player_account_code", "player_account_unlink"):
            method = client.get if name == "player_account" else client.post
            response = method(reverse(f"accounts:{name}", args=[players[0].pk]), {"email": "ann@example.org"})
            assert response.status_code == 404, name
    players[0].refresh_from_db()
    assert players[0].user is None and not ClaimCode.objects.exists()
