"""Registering a visiting player by EMA number never changes them (issue 9, "a cross-club write").

Club A (Riichi Lyon) has Ann Example, EMA number 04390002, with blank given/family names and country.
Club B (Mahjong Berlin) registers "by her EMA number" with other names and a country: B's entry must not
fill A's blank fields (they are what A's EMA report shows), and the organiser is told whose number it is.
"""

from __future__ import annotations

import contextlib

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from league import services
from league.models import Player, Registration
from league.permissions import can_edit_player, editable_players
from scoring.engine import make_ruleset
from tests.conftest import make_event

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
        for name in (
            "display_name",
            "given_name",
            "family_name",
            "ema_number",
            "country",
            "club_id",
            "tenhou_name",
        )
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


# -- who may change a player: every write path × every role (issue 23) --------------------------------------
#
# Ann is a player of club A (Riichi Lyon). Club B's organiser registered her in B's event by her EMA
# number (shown on public pages); that gives B no right over her. Each write path that can change a player
# is tried by each role; only A's organisers — and staff, outside another club's event — change her.

ROLES = ("own_organiser", "other_organiser", "anonymous", "staff")


@pytest.fixture
def visited(ann, other_event, other_organiser):
    """Ann, registered by club B in its event (the precondition of the attack)."""
    services.register_player(
        event=other_event,
        display_name="Ann Example",
        given_name="",
        family_name="",
        ema_number="04390002",
        country="",
        user=other_organiser,
    )
    return ann


@pytest.fixture
def role_users(organiser, other_organiser, staff_user):
    staff_user.is_superuser = True  # the admin's model permissions too
    staff_user.save()
    return {
        "own_organiser": organiser,
        "other_organiser": other_organiser,
        "anonymous": None,
        "staff": staff_user,
    }


def acting_event(role: str, club, other_club, slug: str):
    """The event a role works in: its own club's (club A's for A's organiser; club B's for B's organiser,
    and for staff and the anonymous visitor, who try it there)."""
    return make_event(
        club if role == "own_organiser" else other_club, slug=f"{slug}-{role.replace('_', '-')}"
    )


def client_as(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def try_edit_page(user, ann, **_) -> None:
    client_as(user).post(
        reverse("league_manage:player_edit", args=[ann.pk]),
        {"display_name": "Renamed", "country": "DE", "ema_number": ""},
    )


def try_service(user, ann, **_) -> None:
    with contextlib.suppress(ValidationError):
        services.update_player(
            player=ann,
            user=user or AnonymousUser(),
            display_name="Renamed",
            given_name="",
            family_name="",
            ema_number="",
            country="DE",
        )


def try_register_form(user, ann, event, **_) -> None:
    client_as(user).post(
        reverse("league_manage:register_player", args=[event.slug]),
        {
            "display_name": "Ann",
            "given_name": "Mal",
            "family_name": "",
            "ema_number": "04390002",
            "country": "DE",
        },
    )


def try_paste(user, ann, event, **_) -> None:
    client_as(user).post(
        reverse("league_manage:register_players_csv", args=[event.slug]),
        {"csv": "Ann, Mal, , 04390002, DE, annT"},
    )


def try_online_import(user, ann, event, **_) -> None:
    """An organiser picks Ann for a log's name: her blank Tenhou name would be remembered."""
    from scoring.imports import NEW_PLAYER, import_online_games
    from tests.scoring.test_online_import import WEST

    if user is None:
        return  # the import page needs a login; nothing to try
    Registration.objects.get_or_create(event=event, player=ann)
    event.online = "tenhou"
    event.ruleset = make_ruleset("tenhou").to_dict()
    event.save()
    choices = {"Hana": ann.pk, "Jiro": NEW_PLAYER, "Kumi": NEW_PLAYER, "Mori": NEW_PLAYER}
    (game,) = import_online_games(event=event, records=[("west.json", WEST)], choices=choices, user=user)
    assert game.seats.get(seat=0).player == ann  # the game is imported with Ann: only her name may stay


def try_admin(user, ann, **_) -> None:
    url = reverse("admin:league_player_change", args=[ann.pk])
    data = {"display_name": "Renamed", "country": "DE", "ema_number": "", "club": ann.club_id}
    client_as(user).post(url, {**data, "visibility": ann.visibility})


WRITE_PATHS = {
    "edit page": try_edit_page,
    "service": try_service,
    "register form": try_register_form,
    "paste": try_paste,
    "online import": try_online_import,
    "admin": try_admin,
}

# Staff may change any player, but registering in (or importing into) another club's event acts for
# that club: a visitor is registered as they are, whoever registers them.
IN_AN_EVENT = {"register form", "paste", "online import"}


def may_change(role: str, path: str) -> bool:
    if role == "own_organiser":
        return path != "admin"  # the admin is the staff's back office
    return role == "staff" and path not in IN_AN_EVENT


@pytest.mark.parametrize("path", list(WRITE_PATHS))
@pytest.mark.parametrize("role", ROLES)
def test_only_the_players_club_or_staff_change_a_player(
    path, role, visited, role_users, club, other_club, settings
):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    before = snapshot(visited)
    event = acting_event(role, club, other_club, "rights")
    WRITE_PATHS[path](role_users[role], visited, event=event)
    after = snapshot(visited)
    if may_change(role, path):
        assert after != before, f"{role} could not change the player through the {path}"
    else:
        assert after == before, f"{role} changed another club's player through the {path}"
    assert after["club_id"] == club.pk


def test_the_rule_itself(visited, role_users, club, event, other_event):
    for role, user in role_users.items():
        user = user or AnonymousUser()
        assert can_edit_player(user, visited) == (role in ("own_organiser", "staff")), role
        assert (visited in editable_players(user)) == (role in ("own_organiser", "staff")), role
        # In club B's event nobody changes A's player; in A's own event, A's organisers and staff do.
        assert not can_edit_player(user, visited, event=other_event)
        assert can_edit_player(user, visited, event=event) == (role in ("own_organiser", "staff")), role
    clubless = Player.objects.create(display_name="Nomad")
    who = [role for role, user in role_users.items() if can_edit_player(user or AnonymousUser(), clubless)]
    assert who == ["staff"]


def test_the_visitors_row_has_no_edit_link(visited, other_event, other_organiser, club):
    own = Player.objects.create(display_name="Ben Berlin", club=other_event.club)
    Registration.objects.create(event=other_event, player=own)
    body = client_as(other_organiser).get(reverse("league_manage:event", args=[other_event.slug])).content
    edit_links = body.decode().count("/edit/?next=")
    assert reverse("league_manage:player_edit", args=[own.pk]) in body.decode()
    assert reverse("league_manage:player_edit", args=[visited.pk]) not in body.decode()
    assert edit_links == 1


# -- a player's page is as public as the player (and their club) decide, never an event (issue 23) ---------


@pytest.fixture
def mia(club, organiser):
    """A member of club A, who plays in A's members-only league (so her page needs a login)."""
    members = make_event(club, slug="members-league")
    members.visibility = "members"
    members.save()
    registration = services.register_player(
        event=members,
        display_name="Mia Member",
        given_name="Mia",
        family_name="Private",
        ema_number="04390077",
        country="FR",
        user=organiser,
    )
    return registration.player


def test_a_new_player_is_as_public_as_the_event_that_brings_them(mia, event, organiser):
    assert mia.visibility == Player.Visibility.MEMBERS
    bob = services.register_player(
        event=event,
        display_name="Bob",
        given_name="",
        family_name="",
        ema_number="",
        country="",
        user=organiser,
    ).player
    assert bob.visibility == Player.Visibility.PUBLIC


def test_another_clubs_public_event_does_not_make_a_members_only_player_public(
    mia, other_event, other_organiser, player_user
):
    player_url = reverse("scoring:player", args=[mia.pk])
    assert Client().get(player_url).status_code == 302  # the login page
    registration = services.register_player(
        event=other_event,
        display_name="Mia",
        given_name="",
        family_name="",
        ema_number="04390077",
        country="",
        user=other_organiser,
    )
    assert registration.player == mia
    assert any("page is for members only" in notice for notice in registration.notices)  # type: ignore[attr-defined]

    anonymous = Client().get(player_url)
    assert anonymous.status_code == 302 and anonymous.url.startswith(reverse("login"))
    for chart in ("cumulative", "tenhou"):
        assert Client().get(reverse("scoring:player_chart", args=[mia.pk, chart])).status_code == 302
    # The public event page lists her display name (she plays there), not her names, EMA number, country.
    event_page = Client().get(reverse("scoring:event", args=[other_event.slug])).content.decode()
    assert "Mia Member" in event_page
    for private in ("04390077", "Private", "France"):
        assert private not in event_page
    # A logged-in member sees her page and her details, as for every members-only page.
    member = client_as(player_user)
    assert member.get(player_url).status_code == 200
    member_page = member.get(reverse("scoring:event", args=[other_event.slug])).content.decode()
    assert "04390077" in member_page and "Private" in member_page


def test_her_club_may_make_her_public_and_back(mia, organiser, other_event, other_organiser):
    Registration.objects.create(event=other_event, player=mia)
    url = reverse("league_manage:player_edit", args=[mia.pk])
    data = {
        "display_name": "Mia Member",
        "given_name": "Mia",
        "family_name": "Private",
        "ema_number": "04390077",
    }
    assert client_as(other_organiser).post(url, {**data, "visibility": "public"}).status_code == 404
    mia.refresh_from_db()
    assert mia.visibility == Player.Visibility.MEMBERS
    visitor = Client()
    assert visitor.get(reverse("scoring:player", args=[mia.pk])).status_code == 302
    assert client_as(organiser).get(url).context["form"]["visibility"].value() == "members"
    assert (
        client_as(organiser).post(url, {**data, "country": "FR", "visibility": "public"}).status_code == 302
    )
    mia.refresh_from_db()
    assert mia.visibility == Player.Visibility.PUBLIC
    page = visitor.get(reverse("scoring:player", args=[mia.pk]))
    assert page.status_code == 200 and "04390077" in page.content.decode()
    client_as(organiser).post(url, {**data, "country": "FR", "visibility": "members"})
    assert visitor.get(reverse("scoring:player", args=[mia.pk])).status_code == 302  # not a stale page


def test_the_migration_keeps_public_players_public(club, event, other_event):
    """Existing players: public unless they play only in members-only events."""
    import importlib

    from django.apps import apps

    migration = importlib.import_module("league.migrations.0008_player_visibility")
    members = make_event(club, slug="members-only")
    members.visibility = "members"
    members.save()
    both, public, private, nowhere = (Player.objects.create(display_name=n, club=club) for n in "ABCD")
    for player, events in ((both, (event, members)), (public, (other_event,)), (private, (members,))):
        for e in events:
            Registration.objects.create(event=e, player=player)
    migration.members_only_where_no_public_event(apps, None)
    found = dict(Player.objects.values_list("display_name", "visibility"))
    assert found == {"A": "public", "B": "public", "C": "members", "D": "public"}


# -- members: an account is a member's once a club links it to a player ----------------------------------


@pytest.mark.parametrize("linked", [False, True])
def test_a_members_only_event_is_for_members_not_for_any_account(club, event, players, account_user, linked):
    """Anyone may sign up for a player's account: logging in alone shows nothing a club keeps for its
    members (a 404, as for an event that does not exist). Once a club links the account to a player
    record, the account reads members-only events, games and players like an organiser."""
    from league.permissions import is_member
    from scoring import services as scoring

    event.visibility = "members"
    event.save()
    players[0].visibility = "members"
    players[0].save()
    game = scoring.start_game(event=event, players=players[:4], user=None)
    if linked:
        Player.objects.create(display_name="Ada", club=club, user=account_user)
    client = Client()
    client.force_login(account_user)
    urls = [
        reverse("scoring:event", args=[event.slug]),
        reverse("scoring:game", args=[game.pk]),
        reverse("scoring:player", args=[players[0].pk]),
    ]
    statuses = [client.get(url).status_code for url in urls]
    assert is_member(account_user) is linked
    assert statuses == ([200] * 3 if linked else [404] * 3)
    anonymous = Client().get(urls[0])
    assert anonymous.status_code == 302 and anonymous["Location"].startswith(reverse("login"))
