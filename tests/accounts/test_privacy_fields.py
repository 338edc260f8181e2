"""Field-by-field privacy: on my page I choose which of my full name, club, country, EMA number,
statistics and ratings my public page shows; the page, its charts and the API leave a private field out
for a visitor and for any account but mine and my organisers' (of my club, and of the events I play),
and what is public stays as it was by default."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from accounts import services
from accounts.models import AccountEntry
from league.models import Club, Player, Registration
from league.permissions import PRIVATE_FIELDS
from scoring import services as scoring
from scoring.ratings import rebuild_all_ratings
from tests.accounts.conftest import make_account
from tests.conftest import make_event

pytestmark = pytest.mark.django_db

MARKERS = {
    "full_name": 'id="player-full-name"',
    "club": 'id="player-club"',
    "country": 'id="player-country"',
    "ema_number": 'id="player-ema-number"',
    "statistics": 'id="results"',
    "ratings": 'id="ratings"',
}
API_FIELDS = {
    "full_name": ["given_name", "family_name"],
    "club": ["club"],
    "country": ["country"],
    "ema_number": ["ema_number"],
}


@pytest.fixture
def lea(club, event, players, organiser):
    """Léa (full name, EMA number, country, club) with a finished game in the public league, her account."""
    player = Player.objects.create(
        display_name="Léa",
        given_name="Léa",
        family_name="Bernard",
        ema_number="04390002",
        country="FR",
        club=club,
    )
    Registration.objects.create(event=event, player=player)
    game = scoring.start_game(
        event=event, players=[player, *players[:3]], user=organiser, entry_mode="final_scores"
    )
    scoring.record_final_scores(hanchan=game, scores=[40000, 32000, 28000, 20000], user=organiser)
    rebuild_all_ratings()
    make_account("lea@example.org", player)
    return player


@pytest.fixture
def visitors(lea, organiser):
    """Who reads Léa's page: nobody logged in, an account that is nobody's organiser, another club's
    organiser, the organiser of another club's event she plays in, Léa, her club's organiser."""
    stranger = make_account("sam@example.org")
    other = get_user_model().objects.create_user("otto", password="otto-pass-5512")
    Club.objects.create(name="Other", slug="other").organisers.add(other)
    host = get_user_model().objects.create_user("hana", password="hana-pass-5512")
    host_club = Club.objects.create(name="Host", slug="host")
    host_club.organisers.add(host)
    Registration.objects.create(event=make_event(host_club, slug="host-open"), player=lea)
    return {
        "anonymous": None,
        "account": stranger,
        "other_organiser": other,
        "event_organiser": host,
        "player": lea.user,
        "organiser": organiser,
    }


SEES_EVERYTHING = {"event_organiser", "player", "organiser"}


def _client(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _make_private(lea, *names):
    services.set_privacy(user=lea.user, public={name: name not in names for name in PRIVATE_FIELDS})


def test_by_default_everything_shows_as_before(lea, visitors):
    html = _client(None).get(reverse("scoring:player", args=[lea.pk])).content.decode()
    for marker in MARKERS.values():
        assert marker in html
    assert "Bernard" in html and "04390002" in html and 'id="private-note"' not in html


@pytest.mark.parametrize("field", PRIVATE_FIELDS)
@pytest.mark.parametrize(
    "role", ["anonymous", "account", "other_organiser", "event_organiser", "player", "organiser"]
)
def test_a_private_field_is_left_out_for_all_but_the_player_and_their_organisers(lea, visitors, field, role):
    _make_private(lea, field)
    client = _client(visitors[role])
    html = client.get(reverse("scoring:player", args=[lea.pk])).content.decode()
    sees = role in SEES_EVERYTHING
    assert (MARKERS[field] in html) == sees, html
    for other, marker in MARKERS.items():
        if other != field:
            assert marker in html  # the others stay
    answer = client.get(reverse("api:player", args=[lea.pk])).json()
    for name in API_FIELDS.get(field, []):
        assert (answer[name] is not None) == sees, answer
    charts = {"statistics": ["cumulative", "places"], "ratings": ["tenhou", "openskill"]}.get(field, [])
    for chart in charts:
        status = client.get(reverse("scoring:player_chart", args=[lea.pk, chart])).status_code
        assert (status == 200) == sees, (chart, status)


def test_the_value_itself_is_gone_not_only_its_label(lea, visitors):
    _make_private(lea, "full_name", "ema_number", "country", "club")
    html = _client(None).get(reverse("scoring:player", args=[lea.pk])).content.decode()
    assert "Bernard" not in html and "04390002" not in html and "France" not in html
    answer = _client(None).get(reverse("api:player", args=[lea.pk])).json()
    assert answer["display_name"] == "Léa" and answer["ema_number"] is None and answer["country"] is None
    mine = _client(lea.user).get(reverse("scoring:player", args=[lea.pk])).content.decode()
    assert "Bernard" in mine and 'id="private-note"' in mine


def test_the_event_players_list_of_the_api_honours_it(lea, visitors, event):
    _make_private(lea, "ema_number")
    url = reverse("api:event_players", args=[event.slug])

    def lea_details(user):
        rows = _client(user).get(url).json()
        rows = rows["results"] if isinstance(rows, dict) else rows
        return next(r for r in rows if r["id"] == lea.pk)["details"]

    assert lea_details(None)["ema_number"] is None
    assert lea_details(visitors["account"])["ema_number"] is None
    assert lea_details(visitors["organiser"])["ema_number"] == "04390002"
    assert lea_details(visitors["player"])["ema_number"] == "04390002"


def test_my_page_saves_the_choice_with_a_history_entry(lea):
    client = _client(lea.user)
    page = client.get(reverse("accounts:me")).content.decode()
    assert 'id="privacy-fields"' in page and 'name="public_ema_number"' in page
    data = {f"public_{name}": "on" for name in PRIVATE_FIELDS if name != "statistics"}
    response = client.post(reverse("accounts:privacy"), data)
    assert response.status_code == 302
    lea.refresh_from_db()
    assert not lea.public_statistics and lea.public_ema_number
    (entry,) = AccountEntry.objects.filter(player=lea, action="privacy changed")
    client.post(reverse("accounts:privacy"), data)  # the same again: nothing more
    assert AccountEntry.objects.filter(player=lea, action="privacy changed").count() == 1
    assert client.get(reverse("accounts:privacy")).status_code == 303  # a GET goes back to my page
    # Junk answers without a server error.
    assert client.post(reverse("accounts:privacy"), {"public_club": "x" * 5000}).status_code == 302
    html = _client(None).get(reverse("scoring:player", args=[lea.pk])).content.decode()
    assert 'id="results"' not in html and 'id="statistics-private"' in html


def test_an_account_without_a_player_cannot_choose(lea):
    stranger = make_account("nobody@example.org")
    response = _client(stranger).post(reverse("accounts:privacy"), {}, follow=True)
    assert "not linked to a player profile" in response.content.decode()


def test_query_counts_stay_bounded(lea, visitors, django_assert_max_num_queries):
    from django.core.cache import cache

    _make_private(lea, "statistics", "club")
    url = reverse("scoring:player", args=[lea.pk])
    for role, most in (("anonymous", 10), ("account", 12), ("organiser", 12)):
        client = _client(visitors[role])
        cache.clear()
        with django_assert_max_num_queries(most):
            assert client.get(url).status_code == 200
    client = _client(visitors["account"])
    with django_assert_max_num_queries(7):
        assert client.get(reverse("api:player", args=[lea.pk])).status_code == 200


def test_the_event_pages_players_table_leaves_private_details_out(lea, event):
    url = reverse("scoring:event", args=[event.slug])
    assert "04390002" in _client(None).get(url).content.decode()
    _make_private(lea, "ema_number", "full_name")
    html = _client(None).get(url).content.decode()  # the page moved on: not the cached one
    assert "04390002" not in html and "Bernard" not in html and "Léa" in html
