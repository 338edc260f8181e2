"""Privacy: the player chooses whether their page is public; downloads their data; closes their account
(the results stay). A player sees and changes only their own data."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from accounts.models import AccountEntry
from league.models import Player
from scoring import services as scoring
from scoring.models import SeatResult
from tests.accounts.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_i_choose_who_sees_my_page(tournament, seated, ann):
    client = _client(ann)
    client.post(reverse("accounts:visibility"), {"visibility": "members"})
    seated[0].refresh_from_db()
    assert seated[0].visibility == Player.Visibility.MEMBERS
    anonymous = Client().get(reverse("scoring:player", args=[seated[0].pk]))
    assert anonymous.status_code == 302  # a login away, no longer public
    client.post(reverse("accounts:visibility"), {"visibility": "nonsense"})
    seated[0].refresh_from_db()
    assert seated[0].visibility == Player.Visibility.MEMBERS
    client.post(reverse("accounts:visibility"), {"visibility": "public"})
    assert Client().get(reverse("scoring:player", args=[seated[0].pk])).status_code == 200
    assert AccountEntry.objects.filter(player=seated[0], action="visibility changed").count() == 2


def test_my_data_download_holds_my_account_profile_and_results(tournament, seated, ann, bob, organiser):
    game = tournament.hanchans.get(round_number=1, table_number=1)
    scoring.record_final_scores(hanchan=game, scores=[45000, 35000, 25000, 15000], sticks=0, user=organiser)
    response = _client(ann).get(reverse("accounts:data"))
    assert response.status_code == 200 and "attachment" in response["Content-Disposition"]
    data = json.loads(response.content)
    assert data["account"]["email"] == "ann@example.org"
    assert data["player"]["id"] == seated[0].pk
    assert [r["game"] for r in data["results"]] == [game.pk] and data["results"][0]["place"] == 1
    assert "bob@example.org" not in response.content.decode()


def test_closing_my_account_keeps_my_results(tournament, seated, ann, organiser):
    game = tournament.hanchans.get(round_number=1, table_number=1)
    scoring.record_final_scores(hanchan=game, scores=[45000, 35000, 25000, 15000], sticks=0, user=organiser)
    client = _client(ann)
    assert client.get(reverse("accounts:close")).status_code == 200
    wrong = client.post(reverse("accounts:close"), {"password": "not-it"})
    assert wrong.status_code == 422 and get_user_model().objects.filter(pk=ann.pk).exists()
    response = client.post(reverse("accounts:close"), {"password": PASSWORD})
    assert response.status_code == 302
    assert not get_user_model().objects.filter(pk=ann.pk).exists()
    seated[0].refresh_from_db()
    assert seated[0].user is None
    assert SeatResult.objects.filter(player=seated[0], hanchan=game).exists()
    assert AccountEntry.objects.filter(player=seated[0], action="account closed").exists()
    assert client.get(reverse("accounts:me")).status_code == 302  # logged out


def test_an_organiser_closes_no_account_here(club, organiser):
    client = _client(organiser)
    client.post(reverse("accounts:close"), {"password": "organiser-pass-123"})
    assert get_user_model().objects.filter(pk=organiser.pk).exists()


def test_the_players_pages_answer_only_for_the_logged_in_account(tournament, seated, ann, bob):
    """Nothing on the players' side takes a player or account id from the request: each page shows the
    logged-in account's own profile."""
    mine = _client(ann).get(reverse("accounts:me")).context["player"]
    theirs = _client(bob).get(reverse("accounts:me")).context["player"]
    assert (mine.pk, theirs.pk) == (seated[0].pk, seated[1].pk)
    data = json.loads(_client(bob).get(reverse("accounts:data")).content)
    assert data["player"]["id"] == seated[1].pk
    anonymous = Client()
    for name in ("accounts:me", "accounts:data", "accounts:close"):
        response = anonymous.get(reverse(name))
        assert response.status_code == 302 and response["Location"].startswith(reverse("account_login"))
    for name, args in (("accounts:visibility", []), ("accounts:claim", []), ("accounts:confirm", [1])):
        response = anonymous.post(reverse(name, args=args), {"visibility": "members", "code": "X"})
        assert response.status_code == 302 and response["Location"].startswith(reverse("account_login"))
    seated[0].refresh_from_db()
    assert seated[0].visibility == Player.Visibility.PUBLIC
