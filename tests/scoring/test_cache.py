"""The cached public pages (scoring/cache.py): few queries when warm, never stale, 304 when unchanged.

A page is cached under the results versions that every write bumps in its own transaction. So the test
of "never stale" is, for every kind of change a service makes: the page as served after the change is
the page rendered from nothing (the cache emptied) — and it did change, so the comparison says something.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from league import services as league_services
from league.models import Event, Hanchan, Player, Registration
from scoring import services
from scoring.cache import build_id, cached_fragment, fragment_key
from scoring.engine import Hand, Win, make_ruleset
from scoring.imports import import_records
from scoring.models import Penalty
from scoring.ratings import rebuild_all_ratings
from scoring.services.hanchan import set_played_on
from scoring.services.rules import change_rules

pytestmark = pytest.mark.django_db

RON = Hand.ron(1, Win(0, 3, 30))
TSUMO = Hand.tsumo(Win(2, 2, 30))
DRAW = Hand.draw((0, 3))

_TOKENS = re.compile(r'(csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]+')
_CHART_IDS = re.compile(r"chart-[0-9a-f]{8}-[0-9a-f-]{27}")  # pygal draws each chart with a new id


def page(client: Client, url: str) -> str:
    """A page's HTML without the CSRF tokens and chart ids, which differ on every render."""
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return _CHART_IDS.sub("chart-", _TOKENS.sub(r"\1-", response.content.decode()))


def fresh(client: Client, url: str) -> str:
    """The page rendered from nothing: what a cached page must be equal to."""
    cache.clear()
    return page(client, url)


def seen(client: Client, url: str) -> str:
    """What a visitor gets, a 404 included (a chart with nothing to draw yet)."""
    response = client.get(url)
    assert response.status_code in (200, 404), (url, response.status_code)
    body = _CHART_IDS.sub("chart-", _TOKENS.sub(r"\1-", response.content.decode()))
    return f"{response.status_code} {body}"


@pytest.fixture
def league(event, players, organiser):
    """Two finished games and one in progress, so that every page has something to show."""
    first = services.start_game(event=event, players=players[:4], user=organiser)
    for hand in (RON, TSUMO, DRAW):
        services.record_hand(hanchan=first, hand=hand, user=organiser)
    services.finish_game(hanchan=first, user=organiser, reason="time limit")
    second = services.start_game(event=event, players=players[2:6], user=organiser)
    services.record_hand(hanchan=second, hand=RON, user=organiser)
    services.finish_game(hanchan=second, user=organiser, reason="time limit")
    playing = services.start_game(event=event, players=players[:4], user=organiser)
    services.record_hand(hanchan=playing, hand=TSUMO, user=organiser)
    return {
        "event": event,
        "players": players,
        "first": Hanchan.objects.get(pk=first.pk),
        "second": Hanchan.objects.get(pk=second.pk),
        "playing": Hanchan.objects.get(pk=playing.pk),
        "organiser": organiser,
    }


def urls(league: dict[str, Any]) -> dict[str, str]:
    ann = league["players"][0]
    return {
        "standings": reverse("scoring:event", args=[league["event"].slug]),
        "player": reverse("scoring:player", args=[ann.pk]),
        "game": reverse("scoring:game", args=[league["first"].pk]),
        "live": reverse("scoring:standings_live", args=[league["event"].slug]),
        # The pages' charts are SVGs of their own, cached and invalidated like the pages.
        "results_chart": reverse("scoring:player_chart", args=[ann.pk, "cumulative"]),
        "rating_chart": reverse("scoring:player_chart", args=[ann.pk, "tenhou"]),
        "game_chart": reverse("scoring:game_chart", args=[league["first"].pk]),
    }


# -- warm pages --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["standings", "player", "game", "live", "results_chart", "game_chart"])
def test_a_warm_page_makes_at_most_two_queries(league, name, django_assert_max_num_queries):
    client = Client()
    url = urls(league)[name]
    page(client, url)  # cold: renders and stores the body
    with django_assert_max_num_queries(2):
        page(client, url)


def test_a_warm_standings_page_renders_none_of_its_body(league, monkeypatch):
    """The body's context is computed only on a miss: a warm page never reads the standings."""
    client = Client()
    url = urls(league)["standings"]
    page(client, url)
    import scoring.views.public as public

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the standings were computed for a cached page")

    monkeypatch.setattr(public, "standings_context", refuse)
    assert "Standings" in page(client, url)
    monkeypatch.undo()
    assert "?sort=-points" not in url
    page(client, url + "?sort=-games")  # another query string is another page: rendered


def test_the_query_string_and_the_visitor_are_in_the_key(league, organiser):
    url = urls(league)["standings"]
    anonymous, member = Client(), Client()
    member.force_login(organiser)
    by_points = page(anonymous, url)
    by_games = page(anonymous, url + "?sort=-games")
    assert by_points != by_games and by_games == fresh(anonymous, url + "?sort=-games")
    assert "Log out" in page(member, url) and "Log out" not in page(anonymous, url)


# -- every kind of change invalidates each page -------------------------------------------------------------


def _add_hand(lg: dict[str, Any]) -> None:
    services.record_hand(hanchan=lg["playing"], hand=RON, user=lg["organiser"])
    services.finish_game(hanchan=lg["playing"], user=lg["organiser"], reason="time limit")


def _correct_hand(lg: dict[str, Any]) -> None:
    services.correct_hand(
        hanchan=lg["first"], number=1, hand=Hand.ron(1, Win(0, 4, 40)), user=lg["organiser"], reason="misread"
    )


def _undo(lg: dict[str, Any]) -> None:
    services.reopen_game(hanchan=lg["first"], user=lg["organiser"], reason="a hand was wrong")
    services.undo_last_hand(hanchan=lg["first"], user=lg["organiser"], reason="a hand was wrong")


def _void(lg: dict[str, Any]) -> None:
    services.void_game(hanchan=lg["first"], user=lg["organiser"], reason="wrong table")


def _reopen(lg: dict[str, Any]) -> None:
    services.reopen_game(hanchan=lg["first"], user=lg["organiser"], reason="scores disputed")


def _penalty(lg: dict[str, Any]) -> None:
    services.add_penalty(
        event=lg["event"], player=lg["players"][0], points=-8000, reason="chombo", user=lg["organiser"],
        hanchan=lg["first"], kind=Penalty.Kind.CHOMBO,
    )  # fmt: skip


def _late(lg: dict[str, Any]) -> None:
    lg["late"] = services.add_penalty(
        event=lg["event"], player=lg["players"][0], points=-3000, reason="late", user=lg["organiser"]
    )


def _cancel_penalty(lg: dict[str, Any]) -> None:
    services.cancel_penalty(penalty=lg["late"], user=lg["organiser"], reason="it was the next table")


def _final_scores(lg: dict[str, Any]) -> None:
    game = services.start_game(
        event=lg["event"], players=lg["players"][:4], user=lg["organiser"],
        entry_mode=Hanchan.EntryMode.FINAL_SCORES,
    )  # fmt: skip
    services.record_final_scores(hanchan=game, scores=[50000, 35000, 20000, 15000], user=lg["organiser"])


def _played_on(lg: dict[str, Any]) -> None:
    set_played_on(hanchan=lg["first"], played_on=date(2024, 2, 29), user=lg["organiser"], reason="typo")


def _rules(lg: dict[str, Any]) -> None:
    ruleset = make_ruleset("ema2016", {"uma": [20000, 10000, -10000, -20000]})
    change_rules(event=lg["event"], ruleset=ruleset, user=lg["organiser"], reason="club vote")


def _event_edit(lg: dict[str, Any]) -> None:
    league_services.update_event(event=lg["event"], user=lg["organiser"], data={"name": "Winter League"})


def _rename(lg: dict[str, Any]) -> None:
    ann = lg["players"][0]
    league_services.update_player(
        player=ann, user=lg["organiser"], display_name="Annabel", given_name="", family_name="",
        ema_number=None, country="",
    )  # fmt: skip


def _rename_opponent(lg: dict[str, Any]) -> None:
    bob = lg["players"][1]  # Ann's opponent: Ann's page shows the name (head to head)
    league_services.update_player(
        player=bob, user=lg["organiser"], display_name="Robert", given_name="", family_name="",
        ema_number=None, country="",
    )  # fmt: skip


def _register(lg: dict[str, Any]) -> None:
    league_services.register_player(
        event=lg["event"], display_name="Gus", given_name="", family_name="", ema_number=None, country="",
        user=lg["organiser"],
    )  # fmt: skip


def _withdraw(lg: dict[str, Any]) -> None:
    league_services.withdraw_registration(
        registration=Registration.objects.get(event=lg["event"], player=lg["players"][0]),
        user=lg["organiser"],
        reason="moved away",
    )


def _import(lg: dict[str, Any]) -> None:
    import random

    from scoring.engine.generator import random_game

    record = random_game(lg["event"].rules, random.Random(7)).to_dict()
    record["players"] = [p.display_name for p in lg["players"][:4]]
    import_records(event=lg["event"], sources=[("one.json", [record])], user=lg["organiser"])


def _cup(lg: dict[str, Any]) -> None:
    lg["cup"] = Event.objects.create(
        club=lg["event"].club, name="Cup", slug="cup", ruleset=lg["event"].ruleset,
        visibility=Event.Visibility.PUBLIC,
    )  # fmt: skip
    Registration.objects.create(event=lg["cup"], player=lg["players"][0])


def _visibility(lg: dict[str, Any]) -> None:
    """Ann's page lists the cup for an anonymous visitor until it becomes members-only."""
    league_services.update_event(event=lg["cup"], user=lg["organiser"], data={"visibility": "members"})


def _lose_ratings(lg: dict[str, Any]) -> None:
    from scoring.models import RatingChange

    RatingChange.objects.all().delete()


def _ratings_rebuild(lg: dict[str, Any]) -> None:
    """A rebuild after the rating rows were lost: the player page's figures come back."""
    rebuild_all_ratings()


# What some changes need first (done before the pages are cached).
SETUPS: dict[Callable[[dict[str, Any]], None], Callable[[dict[str, Any]], None]] = {
    _cancel_penalty: _late,
    _visibility: _cup,
    _ratings_rebuild: _lose_ratings,
}


# (change, the pages it must show on)
CHANGES: list[tuple[Callable[[dict[str, Any]], None], set[str]]] = [
    (_add_hand, {"standings", "player", "live"}),
    (_correct_hand, {"standings", "player", "game", "live", "results_chart", "game_chart"}),
    (_undo, {"standings", "player", "game", "live", "results_chart", "game_chart"}),
    (_void, {"standings", "player", "game", "live", "results_chart"}),
    (_reopen, {"standings", "player", "game", "live"}),
    (_penalty, {"standings", "player", "game", "live"}),
    (_cancel_penalty, {"standings", "live"}),
    (_final_scores, {"standings", "player", "live", "results_chart"}),
    (_played_on, {"standings", "player"}),
    (_rules, {"standings", "player", "game", "live"}),
    (_event_edit, {"standings", "player", "game"}),
    (_rename, {"standings", "player", "game", "live", "game_chart"}),
    (_rename_opponent, {"standings", "player", "game", "live"}),
    (_register, {"standings", "live"}),
    (_withdraw, set()),  # the public pages do not show a withdrawal: they must just not be stale
    (_import, {"standings", "player", "live"}),
    (_visibility, {"player"}),
    (_ratings_rebuild, {"player", "rating_chart"}),
]


@pytest.mark.parametrize(("change", "shows_on"), CHANGES, ids=[c.__name__.strip("_") for c, _ in CHANGES])
def test_every_kind_of_change_invalidates_each_cached_page(league, change, shows_on):
    client = Client()
    if change in SETUPS:
        SETUPS[change](league)
        cache.clear()
    before = {name: seen(client, url) for name, url in urls(league).items()}  # all of them cached now
    change(league)
    for name, url in urls(league).items():
        served = seen(client, url)
        cache.clear()
        assert served == seen(client, url), f"{name} page is stale after {change.__name__}"
        if name in shows_on:
            assert served != before[name], f"{change.__name__} should show on the {name} page"


def test_a_round_opening_or_the_standings_release_change_the_live_fragment(league):
    """What the tournament day changes without a result: any audited change moves the version on (the
    history entry does it), and the hidden-standings state is part of the key itself."""
    from league.history import log

    event = league["event"]
    url = urls(league)["live"]
    client = Client()
    page(client, url)
    version = Event.objects.get(pk=event.pk).results_version
    log(event=event, user=league["organiser"], action="round_open", summary="Round 1 opened.")
    assert Event.objects.get(pk=event.pk).results_version > version
    Event.objects.filter(pk=event.pk).update(standings_hidden_after_round=1)  # no bump: the key sees it
    from scoring.cache import results_key

    assert results_key(Event.objects.get(pk=event.pk)) != results_key(event)


# -- conditional GET -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["standings", "player", "game", "live", "results_chart", "game_chart"])
def test_an_unchanged_page_answers_304_and_a_changed_one_200(league, name):
    client = Client()
    url = urls(league)[name]
    client.get(url)  # the first visit sets the CSRF cookie, which is part of the tag (see scoring.cache.etag)
    first = client.get(url)
    tag = first["ETag"]
    assert first.status_code == 200 and tag and "no-cache" in first["Cache-Control"]
    again = client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304 and not again.content
    _correct_hand(league)
    changed = client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert changed.status_code == 200 and changed["ETag"] != tag


def test_the_etag_differs_between_visitors_and_query_strings(league, organiser):
    url = urls(league)["standings"]
    anonymous, member = Client(), Client()
    member.force_login(organiser)
    tags = {anonymous.get(url)["ETag"], member.get(url)["ETag"], anonymous.get(url + "?sort=-games")["ETag"]}
    assert len(tags) == 3


def test_no_etag_for_a_page_the_visitor_may_not_see(league):
    event = league["event"]
    Event.objects.filter(pk=event.pk).update(visibility=Event.Visibility.MEMBERS)
    response = Client().get(urls(league)["standings"])
    assert response.status_code == 302 and not response.has_header("ETag")


# -- the backend ---------------------------------------------------------------------------------------------


def test_pages_go_through_the_configured_backend(settings, league):
    """Redis when CACHE_URL points at it (CI's PostgreSQL pass), local memory otherwise: the same keys,
    the same values, and a warm page served from it."""
    import os

    backend = settings.CACHES["default"]["BACKEND"]
    if os.environ.get("CACHE_URL", "").startswith("redis"):
        assert backend == "django.core.cache.backends.redis.RedisCache"
    else:
        assert backend == "django.core.cache.backends.locmem.LocMemCache"
    calls: list[int] = []

    def render() -> str:
        calls.append(1)
        return "<p>x</p>"

    assert cached_fragment(("test", 1), render) == "<p>x</p>"
    assert cached_fragment(("test", 1), render) == "<p>x</p>" and len(calls) == 1
    assert cache.get(fragment_key(("test", 1))) == "<p>x</p>"
    assert len(build_id()) == 16


def test_an_unreachable_cache_gives_a_slower_page_never_an_error(settings, league):
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens on port 1
            "OPTIONS": {"socket_connect_timeout": 0.2},
        }
    }
    from django.core.cache import caches

    caches._settings = caches.settings = settings.CACHES  # type: ignore[attr-defined]
    try:
        for name, url in urls(league).items():
            # No rating yet in this league: that chart is a 404, as without a cache.
            assert Client().get(url).status_code == (404 if name == "rating_chart" else 200)
    finally:
        del caches["default"]


# -- cost does not grow with the league --------------------------------------------------------------------


def _import_games(event: Event, players: list[Player], count: int, seed: int) -> None:
    import random

    from scoring.engine.generator import random_game

    rng = random.Random(seed)
    records = []
    for _ in range(count):
        record = random_game(event.rules, random.Random(rng.getrandbits(32))).to_dict()
        record["players"] = [p.display_name for p in rng.sample(players, 4)]
        records.append(record)
    import_records(event=event, sources=[("games.json", records)])


def test_page_cost_is_flat_as_the_league_grows(event, players, django_assert_max_num_queries):
    """The same number of queries, cold and warm, for a league of 4 games and of 40 (10×)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def counts() -> dict[str, tuple[int, int]]:
        ann = players[0]
        game = Hanchan.objects.filter(event=event, seats__player=ann).order_by("pk").first()
        assert game is not None
        found = {}
        for name, url in {
            "standings": reverse("scoring:event", args=[event.slug]),
            "player": reverse("scoring:player", args=[ann.pk]),
            "game": reverse("scoring:game", args=[game.pk]),
        }.items():
            cache.clear()
            client = Client()
            with CaptureQueriesContext(connection) as cold:
                page(client, url)
            with CaptureQueriesContext(connection) as warm:
                page(client, url)
            found[name] = (len(cold), len(warm))
        return found

    _import_games(event, players, 4, seed=1)
    small = counts()
    _import_games(event, players, 36, seed=2)
    large = counts()
    assert small == large
    assert all(warm <= 2 for _, warm in large.values())
