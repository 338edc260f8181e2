"""Registering a visiting player by EMA number never changes them (issue 9, "a cross-club write").

Club A (Riichi Lyon) has Ann Example, EMA number 04390002, with blank given/family names and country.
Club B (Mahjong Berlin) registers "by her EMA number" with other names and a country: B's entry must not
fill A's blank fields (they are what A's EMA report shows), and the organiser is told whose number it is.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from league import services
from league.models import Player, Registration

pytestmark = pytest.mark.django_db

MESSAGE = (
    "EMA number 04390002 belongs to Ann Example (Riichi Lyon): registered as is; their details are "
    "changed by their club."
)


@pytest.fixture
def ann(club) -> Player:
    return Player.objects.create(display_name="Ann Example", club=club, ema_number="04390002")


def snapshot(player: Player) -> dict[str, object]:
    player.refresh_from_db()
    return {
        name: getattr(player, name)
        for name in ("display_name", "given_name", "family_name", "ema_number", "country", "club_id")
    }


def test_another_clubs_organiser_registers_the_player_unchanged(ann, other_event, other_organiser):
    before = snapshot(ann)
    registration = services.register_player(
        event=other_event,
        display_name="Mallory",
        given_name="Mallory",
        family_name="Evil",
        ema_number="04390002",
        country="DE",
        user=other_organiser,
    )
    assert registration.player_id == ann.pk and registration.event == other_event
    assert snapshot(ann) == before
    assert registration.notices == [MESSAGE]  # type: ignore[attr-defined]
    assert Player.objects.count() == 1  # no copy of Ann in club B either


def test_the_own_club_still_fills_in_blank_details(ann, event, organiser):
    registration = services.register_player(
        event=event,
        display_name="Ann Example",
        given_name="Ann",
        family_name="Example",
        ema_number="04390002",
        country="FR",
        user=organiser,
    )
    assert registration.notices == []  # type: ignore[attr-defined]
    ann.refresh_from_db()
    assert (ann.given_name, ann.family_name, ann.country.code) == ("Ann", "Example", "FR")


def test_the_pasted_list_does_not_change_the_visitor_either(ann, other_event, other_organiser):
    before = snapshot(ann)
    client = Client()
    client.force_login(other_organiser)
    response = client.post(
        reverse("league_manage:register_players_csv", args=[other_event.slug]),
        {"csv": "Mallory, Mallory, Evil, 04390002, DE\nBen Berlin"},
        follow=True,
    )
    assert response.status_code == 200
    assert snapshot(ann) == before
    assert Registration.objects.filter(event=other_event, player=ann).exists()
    assert MESSAGE in [str(m) for m in response.context["messages"]]


def test_the_form_says_whose_number_it_is(ann, other_event, other_organiser):
    client = Client()
    client.force_login(other_organiser)
    response = client.post(
        reverse("league_manage:register_player", args=[other_event.slug]),
        {
            "display_name": "Mallory",
            "given_name": "",
            "family_name": "",
            "ema_number": "04390002",
            "country": "DE",
        },
        follow=True,
    )
    assert response.status_code == 200
    assert MESSAGE in response.content.decode()
    assert snapshot(ann)["country"] == ""
    assert Registration.objects.filter(event=other_event, player=ann).exists()
