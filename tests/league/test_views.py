"""League pages: a permission matrix over every URL, the organisers' flows, members-only events, and
bounded queries on the pages that list things."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from league import urls_manage, urls_public
from league.models import Club, Event, Hanchan, Player, Registration, Seat
from tests.conftest import make_event

pytestmark = pytest.mark.django_db

# (URL name, what its argument is, method, kind). Kinds: "public" pages answer 200 to everyone;
# "manage" pages need a login; "object" manage pages also need the user to organise that club/event.
MATRIX = [
    ("league:events", None, "get", "public"),
    ("scoring:event", "event", "get", "public"),
    ("scoring:player", "player", "get", "public"),
    ("league_manage:dashboard", None, "get", "manage"),
    ("league_manage:event_create", "club", "get", "object"),
    ("league_manage:event_create", "club", "post", "object"),
    ("league_manage:event", "event", "get", "object"),
    ("league_manage:register_player", "event", "post", "object"),
    ("league_manage:register_players_csv", "event", "post", "object"),
    ("league_manage:event_edit", "event", "get", "object"),
    ("league_manage:event_edit", "event", "post", "object"),
    ("league_manage:player_edit", "player", "get", "object"),
    ("league_manage:player_edit", "player", "post", "object"),
    ("league_manage:registration_withdraw", "registration", "get", "object"),
    ("league_manage:registration_withdraw", "registration", "post", "confirm"),
    ("league_manage:registration_restore", "registration", "post", "action"),
]

EXPECTED = {
    "public": {"anonymous": 200, "player": 200, "other_organiser": 200, "organiser": 200, "staff": 200},
    "manage": {"anonymous": 302, "player": 200, "other_organiser": 200, "organiser": 200, "staff": 200},
    "object": {"anonymous": 302, "player": 404, "other_organiser": 404, "organiser": 200, "staff": 200},
    # A button's POST: done, then back to the event page.
    "action": {"anonymous": 302, "player": 404, "other_organiser": 404, "organiser": 302, "staff": 302},
    # A confirmation's POST without its required reason: the confirmation again, with the error.
    "confirm": {"anonymous": 302, "player": 404, "other_organiser": 404, "organiser": 422, "staff": 422},
}


def client_for(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def test_the_matrix_covers_every_league_url():
    names = {f"league:{p.name}" for p in urls_public.urlpatterns}
    names |= {f"league_manage:{p.name}" for p in urls_manage.urlpatterns}
    assert names == {name for name, *_ in MATRIX if name.startswith("league")}


@pytest.mark.parametrize("role", ["anonymous", "player", "other_organiser", "organiser", "staff"])
@pytest.mark.parametrize(("name", "arg", "method", "kind"), MATRIX)
def test_permission_matrix(users, club, event, other_event, players, role, name, arg, method, kind):
    """Empty POSTs: the organiser gets the page back with the form's errors (200), nothing is saved.

    The registration buttons act on a player who has played (so withdrawing keeps the registration
    and needs a reason: an empty POST withdraws nobody); only the organiser and staff may press them."""
    registration = Registration.objects.get(event=event, player=players[0])
    seat_players(event, players[:4])
    objects = {"event": [event.slug], "club": [club.slug], "player": [players[0].pk]}
    objects["registration"] = [event.slug, registration.pk]
    url = reverse(name, args=objects[arg] if arg else [])
    response = getattr(client_for(users[role]), method)(url)
    assert response.status_code == EXPECTED[kind][role]
    if response.status_code == 302 and role == "anonymous":
        assert response.url.startswith(reverse("login") + "?next=")
    assert Event.objects.count() == 2 and Registration.objects.count() == len(players)  # event + other_event
    if role not in ("organiser", "staff") or name == "league_manage:registration_withdraw":
        assert Registration.objects.get(pk=registration.pk).withdrawn_at is None
        assert Player.objects.get(pk=players[0].pk).display_name == players[0].display_name


def seat_players(event, players) -> Hanchan:
    """A game of ``players`` in ``event`` (league rows only: which seats, not what was played)."""
    game = Hanchan.objects.create(event=event)
    Seat.objects.bulk_create(Seat(hanchan=game, seat=i, player=p) for i, p in enumerate(players))
    return game


def test_manage_posts_need_the_csrf_token(organiser, event):
    client = Client(enforce_csrf_checks=True)
    client.force_login(organiser)
    url = reverse("league_manage:register_player", args=[event.slug])
    assert client.post(url, {"display_name": "Ann"}).status_code == 403
    assert not Registration.objects.exists()


def test_a_get_on_a_register_action_goes_to_the_event_page(organiser, event):
    """A restored tab on an action's address lands on the page of its form (303), never a blank 405;
    other methods are still refused."""
    client = client_for(organiser)
    for name in ("league_manage:register_player", "league_manage:register_players_csv"):
        response = client.get(reverse(name, args=[event.slug]))
        assert response.status_code == 303
        assert response.url == reverse("league_manage:event", args=[event.slug])
        assert client.put(reverse(name, args=[event.slug])).status_code == 405
    assert not Registration.objects.exists()


# -- members-only events ---------------------------------------------------------------------------------


def test_members_only_event_is_hidden_from_anonymous_visitors(members_event, event, player_user):
    url = members_event.get_absolute_url()
    anonymous = Client()
    assert anonymous.get(url).status_code == 302  # to the login page (tests/scoring/test_pages_small.py)
    assert members_event.name not in anonymous.get(reverse("league:events")).content.decode()
    member = client_for(player_user)
    assert member.get(url).status_code == 200
    assert members_event.name in member.get(reverse("league:events")).content.decode()


def test_player_page_lists_only_visible_events(club, event, members_event, player_user):
    ann = Player.objects.create(display_name="Ann", club=club, ema_number="04390002", country="FR")
    Registration.objects.create(event=event, player=ann)
    Registration.objects.create(event=members_event, player=ann)
    page = Client().get(ann.get_absolute_url()).content.decode()
    assert "04390002" in page and "France" in page and "Riichi Lyon" in page
    assert event.name in page and members_event.name not in page
    assert members_event.name in client_for(player_user).get(ann.get_absolute_url()).content.decode()


def test_unknown_objects_answer_404(organiser):
    client = client_for(organiser)
    assert client.get(reverse("scoring:event", args=["nope"])).status_code == 404
    assert client.get(reverse("scoring:player", args=[999])).status_code == 404
    assert client.get(reverse("league_manage:event_create", args=["nope"])).status_code == 404


# -- public pages ----------------------------------------------------------------------------------------


def test_public_event_page_shows_rules_in_words_and_players(event, players):
    page = Client().get(event.get_absolute_url()).content.decode()
    assert "Kiriage mangan" in page and "Riichi Lyon" in page
    assert all(p.display_name in page for p in players)
    assert reverse("scoring:player", args=[players[0].pk]) in page


def test_home_links_events_and_manage_for_organisers(organiser, club, player_user):
    events, manage = reverse("league:events"), "Manage your club"
    page = Client().get("/").content.decode()
    assert events in page and manage not in page
    assert manage not in client_for(player_user).get("/").content.decode()
    assert manage in client_for(organiser).get("/").content.decode()


def test_dashboard_lists_own_clubs_and_events_only(organiser, club, event, other_event):
    page = client_for(organiser).get(reverse("league_manage:dashboard")).content.decode()
    assert event.name in page and reverse("league_manage:event_create", args=[club.slug]) in page
    assert other_event.name not in page and "Mahjong Berlin" not in page


# -- creating an event -----------------------------------------------------------------------------------


def event_post(**changes):
    """A complete event form as the browser posts it for the EMA 2016 preset."""
    data = {
        "name": "Spring League",
        "slug": "",
        "kind": "league",
        "start_date": "2025-03-01",
        "end_date": "2025-06-30",
        "city": "Lyon",
        "country": "FR",
        "visibility": "public",
        "min_games": "4",
        "preset": "ema2016",
        "length": "hanchan",
        "start_points": "30000",
        "return_points": "30000",
        "uma_0": "15000",
        "uma_1": "5000",
        "uma_2": "-5000",
        "uma_3": "-15000",
        "ties": "split",
        "leftover_sticks": "first",
        "chombo": "deduction",
        "chombo_points": "20000",
        "multiple_ron": "each",
        "triple_ron": "win",
        "multiple_ron_honba": "each",
        "multiple_ron_sticks": "own_back",
        "kazoe_limit": "sanbaiman",
        "abortive_draw_honba": "on",
        "goal_points": "30000",
        "riichi_below_1000": "on",
        "red_fives": "0",
        "open_tanyao": "on",
        "pao_yaku": ["daisangen", "daisuushii"],
        "time_limit": "one_more_hand",
    }
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def test_create_event_stores_overrides_and_redirects(organiser, club):
    client = client_for(organiser)
    url = reverse("league_manage:event_create", args=[club.slug])
    response = client.post(url, event_post(kiriage="on", red_fives="3"), follow=True)
    event = Event.objects.get(slug="spring-league")
    assert response.redirect_chain == [(reverse("league_manage:event", args=[event.slug]), 302)]
    assert "Spring League created" in response.content.decode()
    assert event.club == club and event.min_games == 4
    assert event.rules.kiriage is True and event.rules.red_fives == 3 and event.rules.preset == "ema2016"


def test_create_event_shows_a_ruleset_error_on_its_field_and_saves_nothing(organiser, club):
    client = client_for(organiser)
    url = reverse("league_manage:event_create", args=[club.slug])
    response = client.post(url, event_post(uma_3="-10000"))
    assert response.status_code == 200
    assert "must sum to 0" in " ".join(response.context["form"].errors["uma"])
    response = client.post(url, event_post(chombo_points="0"))
    assert "chombo_points" in response.context["form"].errors
    assert not Event.objects.filter(club=club).exists()


def test_create_event_shows_a_service_error_on_its_field(organiser, club, event):
    client = client_for(organiser)
    url = reverse("league_manage:event_create", args=[club.slug])
    response = client.post(url, event_post(slug=event.slug))
    assert response.status_code == 200
    assert response.context["form"].errors["slug"] == ["Event with this Slug already exists."]
    assert Event.objects.count() == 1


def test_create_event_form_loads_the_presets_defaults(organiser, club):
    client = client_for(organiser)
    url = reverse("league_manage:event_create", args=[club.slug])
    form = client.get(url, {"preset": "tenhou"}).context["form"]
    assert form["start_points"].value() == 25000 and form["tobi"].value() is True
    assert form["preset"].value() == "tenhou"
    assert client.get(url, {"preset": "nonsense"}).context["form"]["start_points"].value() == 30000


def test_preset_change_with_htmx_swaps_only_the_settings(organiser, club):
    client = client_for(organiser)
    url = reverse("league_manage:event_create", args=[club.slug])
    response = client.get(url, {"preset": "mleague"}, headers={"HX-Request": "true"})
    body = response.content.decode()
    assert 'id="rules-settings"' in body and "<html" not in body and 'value="25000"' in body
    assert f'hx-get="{url}"' in client.get(url).content.decode()


# -- registering players ---------------------------------------------------------------------------------


def test_register_one_player(organiser, event):
    client = client_for(organiser)
    url = reverse("league_manage:register_player", args=[event.slug])
    response = client.post(
        url,
        {
            "display_name": "Ann",
            "given_name": "Ann",
            "family_name": "Martin",
            "ema_number": "04390002",
            "country": "FR",
        },
    )
    assert response.status_code == 302 and response.url == reverse("league_manage:event", args=[event.slug])
    assert Registration.objects.get(event=event).player.ema_number == "04390002"
    page = client.get(response.url).content.decode()
    assert "Ann is registered" in page and "04390002" in page


def test_register_one_player_shows_field_errors(organiser, event):
    client = client_for(organiser)
    url = reverse("league_manage:register_player", args=[event.slug])
    response = client.post(url, {"display_name": "Ann", "ema_number": "1234"})
    assert response.status_code == 200
    assert response.context["player_form"].errors["ema_number"] == [
        "EMA number 1234 must be 8 digits, leading zeros included (e.g. 04390002)."
    ]
    client.post(url, {"display_name": "Bob"})
    response = client.post(url, {"display_name": "Bob"})
    assert "Bob is already registered" in response.content.decode()
    assert Registration.objects.count() == 1
    # Someone else's EMA number: the refusal is on the EMA number's field and says whose it is.
    client.post(url, {"display_name": "Amélie Dupont", "ema_number": "04390002"})
    response = client.post(url, {"display_name": "Annie", "ema_number": "04390002"})
    assert response.context["player_form"].errors["ema_number"] == [
        "EMA number 04390002 belongs to Amélie Dupont, already registered in Autumn League."
    ]
    assert Registration.objects.count() == 2


def test_paste_players_all_or_nothing(organiser, event):
    client = client_for(organiser)
    url = reverse("league_manage:register_players_csv", args=[event.slug])
    response = client.post(url, {"csv": "Ann, Ann, Martin, 04390002, FRA\nBob, Bob, Smith, 1234\n"})
    assert response.status_code == 200
    assert "line 2: EMA number 1234 must be 8 digits" in response.content.decode()
    assert not Registration.objects.exists()
    response = client.post(url, {"csv": "Ann, Ann, Martin, 04390002, FRA\nBob, Bob, Smith\n"}, follow=True)
    assert "2 players registered" in response.content.decode()
    assert Registration.objects.filter(event=event).count() == 2


def test_organiser_cannot_register_into_another_clubs_event(organiser, other_event):
    client = client_for(organiser)
    url = reverse("league_manage:register_player", args=[other_event.slug])
    assert client.post(url, {"display_name": "Ann"}).status_code == 404
    assert not Registration.objects.exists()


# -- bounded queries -------------------------------------------------------------------------------------


def many_events(count: int) -> None:
    for n in range(count):
        club = Club.objects.create(name=f"Club {n}", slug=f"club-{n}")
        event = make_event(club, slug=f"event-{n}")
        player = Player.objects.create(display_name=f"P{n}", club=club)
        Registration.objects.create(event=event, player=player)


def many_players(event, count: int) -> None:
    for n in range(count):
        player = Player.objects.create(display_name=f"Player {n}", club=event.club, country="FR")
        Registration.objects.create(event=event, player=player)


def test_event_list_queries_are_bounded(django_assert_max_num_queries, player_user):
    many_events(30)
    with django_assert_max_num_queries(2):  # the whole page's key (the list's rows), then the events
        assert Client().get(reverse("league:events")).status_code == 200
    with django_assert_max_num_queries(1):  # another visitor: the page whole from the cache
        assert Client().get(reverse("league:events")).status_code == 200
    client = client_for(player_user)
    with django_assert_max_num_queries(4):  # session and user, whether a member's, then the events
        assert client.get(reverse("league:events")).status_code == 200


def test_public_event_page_queries_are_bounded(django_assert_max_num_queries, event):
    many_players(event, 40)
    with django_assert_max_num_queries(10):
        assert Client().get(event.get_absolute_url()).status_code == 200


def test_manage_event_page_queries_are_bounded(django_assert_max_num_queries, organiser, event):
    many_players(event, 40)
    client = client_for(organiser)
    # session, user, event, registrations, and the registered players the organiser may edit
    with django_assert_max_num_queries(5):
        assert client.get(reverse("league_manage:event", args=[event.slug])).status_code == 200


def test_dashboard_and_player_page_queries_are_bounded(django_assert_max_num_queries, organiser, club):
    for n in range(10):
        make_event(club, slug=f"season-{n}")
    client = client_for(organiser)
    with django_assert_max_num_queries(4):  # session, user, clubs, their events
        assert client.get(reverse("league_manage:dashboard")).status_code == 200
    player = Player.objects.create(display_name="Ann", club=club)
    for event in Event.objects.all():
        Registration.objects.create(event=event, player=player)
    # The whole page's key (the player's version), then the player, their events, the statistics and
    # ratings (tests/scoring/test_statistics.py); whether ratings are being rebuilt is asked once.
    with django_assert_max_num_queries(9):
        assert Client().get(player.get_absolute_url()).status_code == 200
    with django_assert_max_num_queries(2):  # another visitor: the key, and the page whole from the cache
        assert Client().get(player.get_absolute_url()).status_code == 200


def test_paste_is_bounded_with_a_message_naming_the_limit(organiser, event):
    """~5 500 pasted players ran past the web worker's 30 s: a paste holds at most 1 000 lines."""
    client = client_for(organiser)
    url = reverse("league_manage:register_players_csv", args=[event.slug])
    text = "\n".join(f"Player {i}" for i in range(1001))
    response = client.post(url, {"csv": text})
    assert response.status_code == 200
    page = response.content.decode()
    assert "The paste holds 1001 lines: at most 1000 at a time" in page
    assert not Registration.objects.filter(event=event).exists()
    response = client.post(url, {"csv": "x" * 200_001})
    assert "at most 200000 characters" in response.content.decode()
    assert not Registration.objects.filter(event=event).exists()
    # 1 000 lines (a header and 999 players) are within the limit: checked as usual.
    text = "display name\n" + "\n".join(f"Player {i}" for i in range(998)) + "\nBob, Bob, Smith, 1234"
    response = client.post(url, {"csv": text})
    assert "line 1000: EMA number 1234 must be 8 digits" in response.content.decode()


def test_event_form_points_are_bounded_by_the_engine(organiser, club):
    client = client_for(organiser)
    url = reverse("league_manage:event_create", args=[club.slug])
    response = client.post(url, event_post(start_points="2000000", return_points="2000000"))
    assert response.status_code == 200
    assert "start_points" in response.context["form"].errors
    response = client.post(url, event_post(start_points="9" * 5000, goal_points="-" + "9" * 40))
    assert response.status_code == 200
    assert {"start_points", "goal_points"} <= set(response.context["form"].errors)
    assert not Event.objects.filter(club=club).exists()
