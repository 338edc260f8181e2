"""Whole public pages from the cache for visitors who are not logged in (league/wholepage.py): the second
visit renders no template and costs the key's query, carries the visitor's own working CSRF token, and
is never served after what it shows changed, nor to a logged-in visitor, nor in another language."""

from __future__ import annotations

import re
import time

import pytest
from django.test import Client
from django.test.signals import template_rendered

from league.models import Player, Registration
from league.versions import bump_results
from scoring.templatetags.tenbou import points

TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


@pytest.fixture
def rendered():
    names: list[str] = []

    def record(sender, template, context, **kwargs):  # type: ignore[no-untyped-def]
        names.append(template.name)

    template_rendered.connect(record)
    yield names
    template_rendered.disconnect(record)


@pytest.mark.parametrize("url", ["/events/", "/events/autumn-league/"])
@pytest.mark.django_db
def test_a_second_anonymous_visit_renders_nothing_and_its_token_works(
    url, event, players, rendered, django_assert_max_num_queries
):
    first = Client(enforce_csrf_checks=True)
    page = first.get(url)
    assert page.status_code == 200 and rendered
    rendered.clear()
    second = Client(enforce_csrf_checks=True)
    with django_assert_max_num_queries(1):  # the key: the event's versions, or the list's rows
        again = second.get(url)
    assert again.status_code == 200 and rendered == []
    html = again.content.decode()
    assert "Autumn League" in html and "Log in" in html
    [token] = set(TOKEN.findall(html))
    assert token != TOKEN.findall(page.content.decode())[0]  # this visitor's own token...
    assert f'"X-CSRFToken": "{token}"' in html
    switched = second.post("/i18n/setlang/", {"language": "fr", "next": url, "csrfmiddlewaretoken": token})
    assert switched.status_code == 302  # ...which the CSRF check accepts with this visitor's cookie
    assert second.get(url).content.decode().count('lang="fr"') >= 1  # and French is another page


@pytest.mark.django_db
def test_a_change_or_a_login_is_never_served_the_cached_page(event, players, organiser):
    visitor = Client()
    assert "7 players" not in visitor.get("/events/").content.decode()
    assert "6 players" in visitor.get("/events/").content.decode()
    Registration.objects.create(
        event=event, player=Player.objects.create(display_name="Gus", club=event.club)
    )
    assert "7 players" in visitor.get("/events/").content.decode()  # no version moved: the rows did

    assert "Winter League" not in visitor.get("/events/autumn-league/").content.decode()  # cached now
    type(event).objects.filter(pk=event.pk).update(name="Winter League")
    bump_results(event_ids=[event.pk])  # what every service changing an event does
    assert "Winter League" in visitor.get("/events/autumn-league/").content.decode()

    member = Client()
    member.force_login(organiser)
    html = member.get("/events/autumn-league/").content.decode()
    assert "Log out" in html and "Log in" not in html


def test_readers_of_a_page_being_rendered_wait_for_it_not_beside_it():
    """Fifty readers meet a new version at once: one renders, the others wait for its page; and when the
    renderer's answer is not a page to keep (a redirect), they stop waiting at once."""
    import threading
    import time

    from django.core.cache import cache

    from league import wholepage

    cache.set("page:rendering", 1)
    threading.Timer(0.1, lambda: cache.set("page", ("text/html", ["<p>", "</p>"]))).start()
    start = time.monotonic()
    assert wholepage._wait_for("page", "page:rendering") == ("text/html", ["<p>", "</p>"])
    assert time.monotonic() - start < 2

    cache.set("other:rendering", 1)
    threading.Timer(0.1, lambda: cache.delete("other:rendering")).start()
    start = time.monotonic()
    assert wholepage._wait_for("other", "other:rendering") is None
    assert time.monotonic() - start < 2


# -- stale for a few seconds while one request renders, never across what may be shown -----------------

CSRF = re.compile(r'(name="csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]*"')


def body(response) -> str:  # type: ignore[no-untyped-def]
    assert response.status_code == 200
    return CSRF.sub(r"\1", response.content.decode())


@pytest.fixture
def rendering_elsewhere(monkeypatch):
    """Another request holds the page's render lock (it renders the new version right now)."""
    from league import wholepage

    monkeypatch.setattr(wholepage, "_add", lambda lock: False)


@pytest.fixture
def tournament_day(club, organiser):
    """A tournament of 8 players over 3 rounds, rounds 1 and 2 played and public."""
    from tests.tournaments.test_tournament import finish_round, make_tournament
    from tournaments import services as tournament

    event = make_tournament(club, 8)
    tournament.seat_tournament(event=event, rounds=3, user=organiser)
    finish_round(event, 1, organiser)
    finish_round(event, 2, organiser, scores=(50000, 30000, 25000, 15000))
    return event


def clock(ahead: float):  # type: ignore[no-untyped-def]
    """league.wholepage's ``time`` module, ``ahead`` seconds in the future."""
    return type(
        "Clock",
        (),
        {"time": staticmethod(lambda: time.time() + ahead), "monotonic": time.monotonic, "sleep": time.sleep},
    )


@pytest.mark.django_db
def test_a_change_of_results_is_served_stale_while_one_renders_then_fresh_after_the_bound(
    settings, organiser, tournament_day, monkeypatch, rendered, django_assert_max_num_queries
):
    """The standings under a writer: the page of the previous results version answers (one query, no
    template, no ETag) until, half the bound on, one request renders the new one; never past the bound."""
    from league import wholepage
    from league.models import Event, Hanchan
    from tests.tournaments.test_tournament import finish_round

    settings.TENBOU_STALE_SECONDS = 5
    event = tournament_day
    url = f"/events/{event.slug}/"
    visitor = Client()
    before = body(visitor.get(url))
    shown = Event.objects.values_list("shown_version", "results_version").get(pk=event.pk)
    finish_round(event, 3, organiser, scores=(60000, 20000, 20000, 20000))  # results only
    after = Event.objects.values_list("shown_version", "results_version").get(pk=event.pk)
    assert after[0] == shown[0] and after[1] > shown[1]
    game = Hanchan.objects.filter(event=event, round_number=3).first()

    rendered.clear()
    with django_assert_max_num_queries(1):  # the key's query; the previous page from the cache
        stale = visitor.get(url)
    assert body(stale) == before and "ETag" not in stale and rendered == []
    with monkeypatch.context() as m:
        m.setattr(wholepage, "time", clock(3))  # half the bound on...
        m.setattr(wholepage, "_add", lambda lock: False)  # ...while another request renders it
        assert body(visitor.get(url)) == before and rendered == []
    with monkeypatch.context() as m:
        m.setattr(wholepage, "time", clock(3))  # half the bound on, the lock free: this one renders
        fresh = body(visitor.get(url))
    assert fresh != before and f"/games/{game.pk}/" in fresh and rendered
    rendered.clear()
    assert body(Client().get(url)) == fresh and rendered == []  # stored: the next reader has it

    bump_results(event_ids=[event.pk], because_of=[])  # results again
    assert body(visitor.get(url)) == fresh  # behind, for now
    with monkeypatch.context() as m:
        # Past the bound (from the first request that found the page outdated), never behind again,
        # even while another request holds the lock: the reader waits for its render (gone here) and
        # renders the page itself.
        m.setattr(wholepage, "time", clock(6))
        m.setattr(wholepage, "_add", lambda lock: False)
        rendered.clear()
        assert body(visitor.get(url)) == fresh and rendered  # rendered anew (same results)


@pytest.mark.django_db
def test_no_lag_with_the_setting_at_zero(settings, organiser, tournament_day, rendering_elsewhere):
    from tests.tournaments.test_tournament import finish_round

    settings.TENBOU_STALE_SECONDS = 0
    url = f"/events/{tournament_day.slug}/"
    before = body(Client().get(url))
    finish_round(tournament_day, 3, organiser, scores=(60000, 20000, 20000, 20000))
    assert body(Client().get(url)) != before


@pytest.mark.django_db
def test_a_hidden_round_never_shows_through_a_stale_page(
    settings, organiser, tournament_day, rendering_elsewhere
):
    """Hiding the rounds after round 1 is a change of what may be shown, not of results: neither the
    standings, a player's page nor a round-2 game page is answered by its previous (public) page."""
    from league.models import Hanchan
    from league.services import update_event

    settings.TENBOU_STALE_SECONDS = 5
    event = tournament_day
    game = Hanchan.objects.filter(event=event, round_number=2).first()
    player = game.seats.first().player_id
    urls = [f"/events/{event.slug}/", f"/games/{game.pk}/", f"/players/{player}/"]
    visitor = Client()
    before = {url: body(visitor.get(url)) for url in urls}
    assert f"/games/{game.pk}/" in before[urls[0]]
    update_event(event=event, user=organiser, data={"standings_hidden_after_round": 1})
    standings = visitor.get(urls[0])
    assert body(standings) != before[urls[0]] and f"/games/{game.pk}/" not in body(standings)
    assert visitor.get(urls[1]).status_code == 404  # the hidden game itself
    assert body(visitor.get(urls[2])) != before[urls[2]]


@pytest.mark.django_db
def test_a_withdrawal_or_a_visibility_is_never_served_stale(
    settings, organiser, event, players, rendering_elsewhere
):
    from league.services import update_event, withdraw_registration

    settings.TENBOU_STALE_SECONDS = 5
    url = "/events/autumn-league/"
    visitor = Client()
    assert "Fay" in body(visitor.get(url))
    withdraw_registration(registration=Registration.objects.get(player=players[-1]), user=organiser)
    assert "Fay" not in body(visitor.get(url))

    assert "Ann" in body(visitor.get(f"/players/{players[0].pk}/"))
    update_event(event=event, user=organiser, data={"visibility": "members"})
    assert visitor.get(url).status_code == 302  # a login away, not the public page kept
    assert visitor.get(f"/players/{players[0].pk}/").status_code == 302


@pytest.mark.django_db
def test_only_a_change_of_results_leaves_the_shown_version(event, players):
    """``bump_results`` with the games it is about is a change of results only; any other moves both."""
    from league.models import Event

    def versions():  # type: ignore[no-untyped-def]
        return Event.objects.values_list("shown_version", "results_version").get(pk=event.pk)

    start = versions()
    bump_results(event_ids=[event.pk], because_of=[])
    results_only = versions()
    assert results_only[0] == start[0] and results_only[1] > start[1]
    bump_results(event_ids=[event.pk])
    both = versions()
    assert both[0] > start[0] and both[1] > results_only[1]


@pytest.mark.django_db
def test_a_stale_page_is_never_one_of_another_language(
    settings, organiser, tournament_day, rendering_elsewhere
):
    from tests.tournaments.test_tournament import finish_round

    settings.TENBOU_STALE_SECONDS = 5
    url = f"/events/{tournament_day.slug}/"
    english = body(Client().get(url))
    assert '<html lang="en">' in english
    finish_round(tournament_day, 3, organiser, scores=(60000, 20000, 20000, 20000))
    assert body(Client().get(url)) == english  # behind, in English
    french = Client()
    french.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    page = body(french.get(url))
    assert '<html lang="fr">' in page and "ligues et tournois" in page


@pytest.mark.django_db
def test_a_cached_game_page_costs_one_query_and_follows_its_game(
    event, players, organiser, rendered, django_assert_max_num_queries
):
    """The game page's key is the game's version and round and its event's key fields: one joined query
    (it was two round trips), and a new result moves it."""
    from scoring import services

    game = services.start_game(event=event, players=players[:4], user=organiser, entry_mode="final_scores")
    url = f"/games/{game.pk}/"
    assert Client().get(url).status_code == 200
    rendered.clear()
    with django_assert_max_num_queries(1):
        again = Client().get(url)
    assert again.status_code == 200 and rendered == []
    services.record_final_scores(hanchan=game, scores=[47100, 31300, 24200, 17400], user=organiser)
    fresh = Client().get(url)
    assert fresh.status_code == 200 and rendered and fresh.content != again.content
    # The score as the page writes it, inside the final table: a bare "47" could be part of a random
    # CSRF token and make the check pass or fail by chance.
    score = f'<td class="num">{points(47100)}</td>'
    assert "final-table" in fresh.content.decode() and score in fresh.content.decode()
    assert "final-table" not in again.content.decode() and score not in again.content.decode()
    assert Client().get("/games/999999/").status_code == 404
