"""Small things a new user tripped over: counts in words ("1 player", "3 players"), members-only pages
that ask an anonymous visitor to log in, the favicon, and the ratings page linked from the event page."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import reverse
from django.utils import translation

from league.models import Event, Player, Registration
from scoring import services
from scoring.engine import Hand
from tests.conftest import make_event

pytestmark = pytest.mark.django_db


def register(event: Event, count: int) -> list[Player]:
    made = [Player.objects.create(display_name=f"P{event.slug}{n}", club=event.club) for n in range(count)]
    for player in made:
        Registration.objects.create(event=event, player=player)
    return made


def text(response) -> str:  # type: ignore[no-untyped-def]
    """The page's text with runs of whitespace made single spaces (templates wrap their lines)."""
    return " ".join(response.content.decode().split())


# -- counts --------------------------------------------------------------------------------------------------


@pytest.fixture
def plurals(monkeypatch):
    """The singular forms the pages ask ``ngettext`` for: a count in words must go through it (the
    ``|pluralize`` filter gives English only), so that a translation can choose its own plural forms."""
    asked: list[str] = []
    real = translation.ngettext

    def recording(singular: str, plural: str, number: int) -> str:
        asked.append(singular)
        return real(singular, plural, number)

    monkeypatch.setattr(translation, "ngettext", recording)
    return asked


@pytest.mark.parametrize(("count", "words"), [(1, "1 player"), (3, "3 players")])
def test_player_counts_agree_with_their_number(club, plurals, count, words):
    event = make_event(club, slug="count-cup")
    event.min_games = count
    event.save()
    register(event, count)
    events = text(Client().get(reverse("league:events")))
    assert f"· {words} " in events
    page = text(Client().get(event.get_absolute_url()))
    for singular in (
        "%(counter)s player",  # the list of events
        "%(counter)s player.",  # under the players table
        "A player needs %(counter)s game to be ranked.",
        "Ranked with at least %(counter)s game; points in thousands.",
    ):
        assert singular in plurals, singular
    assert f"{words}." in page  # under the players table
    games = "1 game" if count == 1 else f"{count} games"
    assert f"A player needs {games} to be ranked." in page
    assert f"Ranked with at least {games};" in page
    wrong = "1 players" if count == 1 else f"{count} player."
    assert wrong not in events and wrong not in page


@pytest.mark.parametrize(("riichi", "words"), [((0,), "1 stick"), ((0, 1, 2), "3 sticks")])
def test_stick_counts_agree_with_their_number(event, players, organiser, plurals, riichi, words):
    game = services.start_game(event=event, players=players[:4], user=organiser)
    services.record_hand(hanchan=game, hand=Hand.draw((0, 1, 2, 3), riichi=riichi), user=organiser)
    services.record_hand(hanchan=game, hand=Hand.draw((0, 1, 2, 3)), user=organiser)  # played with the sticks
    client = Client()
    client.force_login(organiser)
    manage = text(client.get(reverse("scoring_manage:game", args=[game.pk])))
    assert f"({words})" in manage  # the hand log
    assert f"<span>{words}</span>" in manage  # the scoreboard
    assert "st.)" not in manage
    assert "(%(counter)s stick)" in plurals and "%(counter)s stick" in plurals


# -- members-only pages ------------------------------------------------------------------------------------


@pytest.fixture
def members_event(club) -> Event:
    event = make_event(club, slug="members-cup")
    event.visibility = Event.Visibility.MEMBERS
    event.save()
    return event


@pytest.fixture
def members_game(members_event, organiser):
    table = register(members_event, 4)
    game = services.start_game(event=members_event, players=table, user=organiser, entry_mode="final_scores")
    services.record_final_scores(hanchan=game, scores=[40000, 32000, 28000, 20000], user=organiser)
    return game


def assert_login_redirect(response, url: str) -> None:  # type: ignore[no-untyped-def]
    assert response.status_code == 302
    location = urlparse(response["Location"])
    assert location.path == reverse("login")
    assert parse_qs(location.query)["next"] == [url]


def test_anonymous_visitor_of_members_only_pages_is_asked_to_log_in(members_event, members_game, player_user):
    pages = [
        members_event.get_absolute_url(),
        members_event.get_absolute_url() + "?min_games=2",
        reverse("scoring:standings_csv", args=[members_event.slug]),
        reverse("scoring:ratings", args=[members_event.slug]),
        reverse("scoring:game", args=[members_game.pk]),
    ]
    member = Client()
    member.force_login(player_user)
    for url in pages:
        assert_login_redirect(Client().get(url), url)
        assert member.get(url).status_code == 200
    # What does not exist is a 404 for everyone, logged in or not: there is nothing a login would show.
    missing = [reverse("scoring:event", args=["nope"]), reverse("scoring:game", args=[members_game.pk + 99])]
    for url in missing:
        assert member.get(url).status_code == 404
        assert Client().get(url).status_code == 404


def test_the_login_page_sends_the_member_back(members_event, player_user):
    client = Client()
    url = members_event.get_absolute_url()
    login = client.get(url, follow=True)
    assert login.status_code == 200 and login.templates[0].name == "registration/login.html"
    response = client.post(
        login.redirect_chain[-1][0], {"username": "pat", "password": "player-pass-123"}, follow=False
    )
    assert response.status_code == 302 and response["Location"] == url


# -- favicon and the ratings link ---------------------------------------------------------------------------


def test_favicon_is_linked_and_favicon_ico_answers(event):
    assert finders.find("favicon.svg")
    home = Client().get(reverse("home")).content.decode()
    assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in home
    response = Client().get("/favicon.ico")
    assert response.status_code == 302 and response["Location"] == "/static/favicon.svg"


def test_event_page_links_its_ratings(event, players):
    html = Client().get(event.get_absolute_url()).content.decode()
    ratings = reverse("scoring:ratings", args=[event.slug])
    assert f'<a id="standings-ratings" href="{ratings}">' in html  # beside the standings
    assert f'<a href="{ratings}" id="nav-ratings">' in html  # in the header, beside "Events"
    assert f'href="{ratings}"' in Client().get(reverse("league:events")).content.decode()
