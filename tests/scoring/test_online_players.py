"""Online names of players and the online marker of events: what an organiser sets before importing logs.

Players carry a Tenhou name, a Mahjong Soul nickname and friend ID (the player form, registration, the
pasted CSV lines); an online name finds one player of a club, so it is unique in the club. An event says
where it is played (Tenhou or Mahjong Soul, with the lobby or contest id): set on the edit page and shown
on the public event page.
"""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from league import services
from league.models import Event, Player
from tests.league.test_views import event_post

pytestmark = pytest.mark.django_db


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def edit(player: Player, organiser, **changes) -> Player:
    data = {
        "display_name": player.display_name,
        "given_name": player.given_name,
        "family_name": player.family_name,
        "ema_number": player.ema_number,
        "country": "",
        **changes,
    }
    return services.update_player(player=player, user=organiser, **data)


def test_online_names_are_saved_and_a_missing_one_is_left_as_it_is(players, organiser):
    ann = players[0]
    edit(ann, organiser, tenhou_name=" annT ", mahjongsoul_name="AnnMS", mahjongsoul_id="12345678")
    ann.refresh_from_db()
    assert (ann.tenhou_name, ann.mahjongsoul_name, ann.mahjongsoul_id) == ("annT", "AnnMS", "12345678")
    edit(ann, organiser, given_name="Ann")  # a caller that does not know online names keeps them
    ann.refresh_from_db()
    assert ann.tenhou_name == "annT"
    edit(ann, organiser, tenhou_name="")
    ann.refresh_from_db()
    assert ann.tenhou_name == ""


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"mahjongsoul_id": "12ab"}, "mahjongsoul_id", "Mahjong Soul friend ID 12ab must be digits only"),
        ({"tenhou_name": "x" * 41}, "tenhou_name", "is longer than 40 characters"),
        ({"tenhou_name": "bob"}, "tenhou_name", "Tenhou name bob already belongs to Bob of this club"),
        ({"mahjongsoul_name": "BOBMS"}, "mahjongsoul_name", "already belongs to Bob"),
    ],
)
def test_online_name_errors_name_the_field(players, organiser, changes, field, message):
    Player.objects.filter(pk=players[1].pk).update(tenhou_name="Bob", mahjongsoul_name="bobms")
    with pytest.raises(ValidationError) as info:
        edit(players[0], organiser, **changes)
    assert message in " ".join(info.value.message_dict[field])
    players[0].refresh_from_db()
    assert players[0].tenhou_name == "" and players[0].mahjongsoul_name == ""


def test_the_same_online_name_in_another_club_is_fine(players, organiser, other_club):
    Player.objects.create(display_name="Visitor", club=other_club, tenhou_name="annT")
    edit(players[0], organiser, tenhou_name="annT")
    assert Player.objects.filter(tenhou_name="annT").count() == 2


def test_registering_a_player_with_online_names_and_filling_in_a_known_ones(event, club, organiser):
    services.register_player(
        event=event,
        display_name="Kenta",
        given_name="",
        family_name="",
        ema_number="",
        country="",
        user=organiser,
        tenhou_name="kenta_t",
    )
    assert Player.objects.get(display_name="Kenta").tenhou_name == "kenta_t"
    known = Player.objects.create(display_name="Yuki", club=club, tenhou_name="yuki_old")
    services.register_player(
        event=event,
        display_name="Yuki",
        given_name="",
        family_name="",
        ema_number="",
        country="",
        user=organiser,
        tenhou_name="yuki_new",  # set already: not replaced by a registration
        mahjongsoul_name="YukiMS",  # blank: filled in
    )
    known.refresh_from_db()
    assert (known.tenhou_name, known.mahjongsoul_name) == ("yuki_old", "YukiMS")


def test_pasted_lines_carry_online_names(event, organiser):
    text = "Ann,,,,,annT,AnnMS,12345678\nBob\nCho,,,,,,ChoMS\n"
    services.register_players_csv(event=event, text=text, user=organiser)
    names = {
        p.display_name: (p.tenhou_name, p.mahjongsoul_name, p.mahjongsoul_id) for p in Player.objects.all()
    }
    assert names == {"Ann": ("annT", "AnnMS", "12345678"), "Bob": ("", "", ""), "Cho": ("", "ChoMS", "")}


def test_two_pasted_lines_with_one_online_name_are_refused(event, organiser):
    with pytest.raises(ValidationError) as info:
        services.register_players_csv(
            event=event, text="Ann,,,,,same\nBob,,,,,SAME\nCho,,,,,,,1x", user=organiser
        )
    assert info.value.messages == [
        "line 2: same player as line 1 (Bob)",
        "line 3: Mahjong Soul friend ID 1x must be digits only (as the friend list shows it).",
    ]
    assert not Player.objects.exists()


def test_the_player_form_shows_and_saves_online_names(event, players, organiser):
    client = client_for(organiser)
    url = reverse("league_manage:player_edit", args=[players[0].pk])
    page = client.get(url).content.decode()
    assert 'name="tenhou_name"' in page and 'name="mahjongsoul_id"' in page
    data = {"display_name": "Ann", "tenhou_name": "annT", "mahjongsoul_name": "", "mahjongsoul_id": "987"}
    assert client.post(url, data).status_code == 302
    players[0].refresh_from_db()
    assert (players[0].tenhou_name, players[0].mahjongsoul_id) == ("annT", "987")
    bad = client.post(url, {**data, "mahjongsoul_id": "9a"})
    assert bad.status_code == 200 and "must be digits only" in bad.content.decode()


def test_an_event_is_marked_online_on_its_edit_page_and_shows_it(event, players, organiser):
    client = client_for(organiser)
    url = reverse("league_manage:event_edit", args=[event.slug])
    assert 'name="online"' in client.get(url).content.decode()
    # The new-event form leaves it to the edit page, like the tournament day's settings.
    create = reverse("league_manage:event_create", args=[event.club.slug])
    assert 'name="online"' not in client.get(create).content.decode()
    lobby_alone = client.post(url, event_post(name=event.name, online="", online_lobby="L1234"))
    assert "A lobby or contest id needs the site" in lobby_alone.content.decode()
    assert Event.objects.get(pk=event.pk).online_lobby == ""
    done = client.post(url, event_post(name=event.name, online="tenhou", online_lobby=" L1234 "))
    assert done.status_code == 302
    stored = Event.objects.get(pk=event.pk)
    assert (stored.online, stored.online_lobby) == ("tenhou", "L1234")
    Player.objects.filter(pk=players[0].pk).update(tenhou_name="annT")
    page = Client().get(reverse("scoring:event", args=[event.slug])).content.decode()
    assert "played on Tenhou · lobby L1234" in page
    assert "annT" in page  # the players table's Tenhou name column
