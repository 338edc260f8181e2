"""Hostile and careless input on every page: never a server error.

The URLs come from the resolver, so a page added later is fuzzed without touching this file: every
page is requested with junk query strings, and every page an organiser can post to is posted junk
(huge, negative and non-ASCII digits, NUL bytes, 10 000-character strings, missing fields). Whatever
arrives, the answer is a page, a redirect or a 4xx — never a 500.
"""

from __future__ import annotations

import inspect
from typing import Any
from urllib.parse import urlencode

import pytest
from django import forms
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import league.forms
import scoring.forms
import tournaments.forms
import tournaments.views.team_league
import tournaments.views.teams
from league.models import Event, Registration
from scoring import services
from scoring.engine import SETTINGS, Hand, Win, make_ruleset
from scoring.models import HistoryEntry, Penalty

pytestmark = pytest.mark.django_db

SKIPPED_NAMESPACES = {"admin"}  # the admin is Django's own; its ruleset field is tested on its own
# Logging out ends the session the rest of the example needs (the organisers' and the players' log-out).
SKIPPED_NAMES = {"logout", "account_logout"}


def _patterns(resolver: URLResolver, namespace: str = "") -> list[tuple[str, URLPattern]]:
    """(qualified name, pattern) of every named URL of the site."""
    out = []
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            if entry.namespace in SKIPPED_NAMESPACES:
                continue
            out += _patterns(entry, inner)
        elif entry.name and entry.name not in SKIPPED_NAMES:
            out.append((f"{namespace}{entry.name}", entry))
    return out


def _kwarg_names(pattern: URLPattern) -> list[str]:
    """The URL's arguments: its path converters, or the named groups of a regular expression (django-
    allauth's addresses are ``re_path``)."""
    return list(pattern.pattern.converters) or list(pattern.pattern.regex.groupindex)


URLS = sorted({name: _kwarg_names(p) for name, p in _patterns(get_resolver())}.items())
TOURNAMENT_WORDS = ("tournament", "seating", "slips", "ema", "stage", "final_ranking")


def _form_fields() -> set[str]:
    """Every field name of the site's forms (and the raw keys some views read), to post junk into."""
    names: set[str] = set(SETTINGS) | {f"uma_{i}" for i in range(4)}
    names |= {f"{f}_{i}" for f in ("winner", "han", "fu", "yakuman", "score", "chombo") for i in range(4)}
    names |= {"number", "reason", "correction_reason", "confirm", "next", "username", "password"}
    names |= {f"t1-seat_{i}" for i in range(4)} | {"t1-entry_mode"}  # a match day's table 1 (team league)
    forms_modules = (scoring.forms, league.forms, tournaments.forms)
    for module in (*forms_modules, tournaments.views.teams, tournaments.views.team_league):
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, forms.BaseForm):
                names |= set(getattr(cls, "base_fields", {}))
    return names


FIELDS = sorted(_form_fields())
QUERY_KEYS = ["per_page", "page", "sort", "nr-sort", "nr-page", "nr-per_page", "event", "preset", "next"]
QUERY_KEYS += ["date_from", "date_to", "min_games", "up_to_round", "number", "start_points", "uma_0"]

JUNK = st.one_of(
    st.sampled_from(
        [
            "",
            "0",
            "1",
            "2",
            "-1",
            "²",
            "١٢",
            "𝟗",
            "9" * 5000,
            "-" + "9" * 30,
            "1" + "0" * 30,
            "1e400",
            "nan",
            "\x00",
            "a\x00b",
            "x" * 10_000,
            "2024-02-30",
            "99999-12-31",
            "ron",
            "tsumo",
            "draw",
            "chombo",
            "ema2016",
            "hanchan",
            "csv",
        ]
    ),
    st.text(max_size=20),
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
)


def _args(name: str, kwargs: list[str], objects: dict[str, Any]) -> dict[str, Any]:
    """Sample arguments for a URL, by its name and the names of its arguments."""
    tournament = any(word in name for word in TOURNAMENT_WORDS)
    values: dict[str, Any] = {}
    for kwarg in kwargs:
        if kwarg == "slug":
            values[kwarg] = objects["tournament"].slug if tournament else objects["event"].slug
        elif kwarg == "club_slug":
            values[kwarg] = objects["event"].club.slug
        elif kwarg == "penalty_id":
            values[kwarg] = objects["penalty"].pk
        elif kwarg == "fmt":
            values[kwarg] = "csv"
        elif kwarg == "number":
            values[kwarg] = 1
        elif kwarg == "chart":
            values[kwarg] = "cumulative"
        elif kwarg == "pk" and "registration" in name:
            values[kwarg] = objects["registration"].pk
        elif kwarg == "pk" and "player" in name:
            values[kwarg] = objects["player"].pk
        elif kwarg == "pk" and "team" in name:
            values[kwarg] = objects["team"].pk
        elif kwarg in ("order", "table"):  # a tournament's first stage; a match day's first table
            values[kwarg] = 1
        elif kwarg == "pk":
            values[kwarg] = objects["game"].pk
        elif kwarg == "token":  # a table's entry link (tournaments/links.py), its round open
            values[kwarg] = objects["token"]
        elif kwarg == "key":  # a players' account link (django-allauth: e-mail confirmation, reset)
            values[kwarg] = "no-such-key"
        elif kwarg == "uidb36":
            values[kwarg] = "zz"
        elif kwarg == "batch":  # an online import the session does not hold
            values[kwarg] = "0b5e4c1e-7a8d-4f0e-9c55-2d3b1a6f8e90"
        else:  # a new kind of argument: teach this test about it
            raise AssertionError(f"no sample value for {kwarg!r} of {name}")
    return values


@pytest.fixture
def objects(event, players, organiser):
    from tests.conftest import make_event
    from tournaments.services import seat_tournament

    game = services.start_game(event=event, players=players[:4], user=organiser)
    services.record_hand(hanchan=game, hand=Hand.ron(2, Win(0, 3, 40)), user=organiser)
    penalty = services.add_penalty(
        event=event, player=players[0], points=-1000, reason="late", user=organiser
    )
    # A finished game, so the standings have rows to sort and page.
    finished = services.start_game(event=event, players=players[2:6], user=organiser)
    services.record_hand(hanchan=finished, hand=Hand.ron(1, Win(0, 2, 30)), user=organiser)
    services.finish_game(hanchan=finished, user=organiser, reason="time")
    tournament = make_event(event.club, slug="lyon-open")
    tournament.kind = Event.Kind.TOURNAMENT
    tournament.save()
    for player in players[:4]:
        Registration.objects.create(event=tournament, player=player)
    seat_tournament(event=tournament, rounds=2, user=organiser)
    from tournaments.models import TableLink
    from tournaments.rounds import open_round

    open_round(event=tournament, number=1, user=organiser)  # its tables' entry links work
    # The league as a team league: four teams of one, match day 1 drawn (its table 1 takes lineups).
    from datetime import date

    from tournaments import team_league, teams

    text = "\n".join(f"T{i}; {player.display_name}" for i, player in enumerate(players[:4]))
    teams.register_teams(event=event, text=text, user=organiser)
    team_league.schedule_match_day(event=event, number=1, played_on=date(2025, 3, 1), slots=1, user=organiser)
    return {
        "team": event.teams.order_by("pk").first(),
        "token": TableLink.objects.filter(hanchan__event=tournament).first().token,
        "event": event,
        "tournament": tournament,
        "game": game,
        "penalty": penalty,
        "player": players[0],
        "registration": Registration.objects.filter(event=event).first(),
    }


def _check(response: Any, what: str) -> None:
    assert response.status_code < 500, f"{what} answered {response.status_code}"


@pytest.mark.parametrize(("name", "kwargs"), URLS, ids=[n for n, _ in URLS])
@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
@given(query=st.dictionaries(st.sampled_from(QUERY_KEYS), JUNK, max_size=4))
# The values that once answered 500, tried on every page whatever the random draw.
@example(query={"per_page": "-1", "nr-per_page": "0", "page": "-3", "number": "²"})
@example(query={"per_page": "9" * 5000, "number": "9" * 5000, "event": "\x00", "start_points": "\x00"})
def test_every_page_survives_junk_query_strings(name, kwargs, query, objects, organiser):
    client = Client()
    client.force_login(organiser)
    url = reverse(name, kwargs=_args(name, kwargs, objects))
    _check(client.get(url, query), f"GET {url}?{query}")
    _check(Client().get(url, query), f"anonymous GET {url}")


@pytest.mark.parametrize(("name", "kwargs"), URLS, ids=[n for n, _ in URLS])
@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.dictionaries(st.sampled_from(FIELDS), JUNK, max_size=8))
@example(data={"result": "draw", "number": "²", "reason": "late\x00", "correction_reason": "typo\x00"})
@example(data={"result": "draw", "number": "9" * 5000, "reason": "x" * 9999, "correction_reason": "y" * 9999})
@example(data={"username": "u" * 300, "password": "wrong", "csv": "\n".join(["Ann"] * 1001)})
def test_every_form_survives_junk_posts(name, kwargs, data, objects, organiser):
    client = Client()
    client.force_login(organiser)
    url = reverse(name, kwargs=_args(name, kwargs, objects))
    _check(client.post(url, data), f"POST {url} {data!r:.300}")


# -- the causes found, one test each --------------------------------------------------------------------


@pytest.mark.parametrize("number", ["²", "9" * 5000, "١", "-3"])
def test_preview_with_a_strange_hand_number(number, objects, organiser):
    client = Client()
    client.force_login(organiser)
    url = reverse("scoring_manage:preview", args=[objects["game"].pk])
    # The correction form posts its hand number in the query string, the hand form in the body.
    assert client.post(f"{url}?{urlencode({'number': number})}", {"result": "draw"}).status_code == 200
    assert client.post(url, {"number": number, "result": "draw"}).status_code == 200
    assert client.get(url, {"number": number}).status_code == 303  # a GET goes to the game's page


def test_a_nul_byte_in_a_correction_reason_is_refused(objects, organiser):
    client = Client()
    client.force_login(organiser)
    game = objects["game"]
    url = reverse("scoring_manage:hand_correct", args=[game.pk, 1])
    data = {"result": "ron", "winner": "0", "loser": "2", "han": "2", "fu": "30"}
    response = client.post(url, {**data, "correction_reason": "typo\x00"})
    assert response.status_code == 422
    assert "Null characters are not allowed" in response.content.decode()
    assert not HistoryEntry.objects.filter(action="hand corrected").exists()
    response = client.post(url, {**data, "correction_reason": "x" * 301})
    assert response.status_code == 422
    assert not HistoryEntry.objects.filter(action="hand corrected").exists()


@pytest.mark.parametrize("reason", ["late\x00", "x" * 201])
def test_penalty_cancellation_reason_goes_through_a_form(reason, objects, organiser):
    client = Client()
    client.force_login(organiser)
    penalty = objects["penalty"]
    url = reverse("scoring_manage:penalty_cancel", args=[objects["event"].slug, penalty.pk])
    response = client.post(url, {"reason": reason}, follow=True)
    assert response.status_code == 200
    penalty.refresh_from_db()
    assert not penalty.cancelled
    assert "Reason" in response.content.decode()


@pytest.mark.parametrize("per_page", ["-1", "0", "abc", "9" * 5000, "\x00", "100000000"])
def test_standings_with_a_strange_page_size(per_page, objects):
    slug = objects["event"].slug
    for url in (reverse("scoring:event", args=[slug]), reverse("scoring:standings_csv", args=[slug])):
        response = Client().get(url, {"per_page": per_page, "nr-per_page": per_page, "page": per_page})
        assert response.status_code in (200, 400, 404)


def test_a_very_long_login_name_is_a_wrong_login(organiser):
    """django-axes stored the username in a 255-character column: 300 characters answered 500."""
    response = Client().post(reverse("login"), {"username": "u" * 300, "password": "wrong"})
    assert response.status_code == 200
    assert response.context["form"].errors
    # The bounded form still logs a real user in.
    response = Client().post(reverse("login"), {"username": "olga", "password": "organiser-pass-123"})
    assert response.status_code == 302
    assert get_user_model().objects.get(username="olga").last_login is not None


def test_regenerating_seating_after_a_penalty_on_an_unplayed_table(objects, organiser):
    """A penalty linked to a table not yet played: regenerating the seating answered a ProtectedError
    (500) once. Verified: it is refused with a message, and the penalty and its table are kept."""
    tournament = objects["tournament"]
    table = tournament.hanchans.order_by("round_number", "table_number").first()
    player = table.seats.first().player
    services.add_penalty(
        event=tournament, player=player, points=-1000, reason="late", user=organiser, hanchan=table
    )
    client = Client()
    client.force_login(organiser)
    url = reverse("tournaments_manage:tournament_generate", args=[tournament.slug])
    response = client.post(url, {"rounds": "2", "seed": "7"}, follow=True)
    assert response.status_code == 200
    assert [m.level_tag for m in response.context["messages"]] == ["error"]
    assert Penalty.objects.filter(hanchan=table).exists()


def _admin_event_post(client: Client, event: Event, ruleset: str) -> Any:
    """Post the admin's change form of ``event`` as shown, with ``ruleset`` typed into its JSON field."""
    from django.contrib import admin

    request = client.get(reverse("admin:league_event_change", args=[event.pk])).wsgi_request
    form = admin.site._registry[Event].get_form(request, event)(instance=event)
    data = {name: form[name].value() for name in form.fields}
    data = {k: ("" if v is None else v) for k, v in data.items()}
    data["ruleset"] = ruleset
    return client.post(reverse("admin:league_event_change", args=[event.pk]), data)


@pytest.mark.parametrize(
    "ruleset",
    [
        "[" * 50_000 + "]" * 50_000,
        '{"preset": "ema2016", "start_points": ' + "9" * 5000 + "}",
        '{"preset": "ema2016", "start_points": 1000000000000000000000000000000}',
        '{"preset": "ema2016", "uma": [' + "[" * 5000 + "]" * 5000 + ", 0, 0, 0]}",
    ],
    ids=["deep", "5000-digits", "1e30", "deep-uma"],
)
def test_admin_ruleset_json_is_bounded(ruleset, event):
    """Deep nesting and 5 000-digit integers answered 500, and a start of 10**30 was accepted (finishing
    a game then answered 500): each is a form error on the ruleset now, and nothing is saved."""
    staff = get_user_model().objects.create_superuser("root", password="root-pass-123")
    client = Client()
    client.force_login(staff)
    before = Event.objects.get(pk=event.pk).ruleset
    response = _admin_event_post(client, event, ruleset)
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["ruleset"]
    assert Event.objects.get(pk=event.pk).ruleset == before
    # The bound itself is a sane ruleset, saved as before.
    response = _admin_event_post(client, event, '{"preset": "ema2016", "start_points": 1000000}')
    assert response.status_code == 302
    assert Event.objects.get(pk=event.pk).rules.start_points == 1_000_000


def test_a_very_long_admin_login_name_is_a_wrong_login(organiser):
    """The admin's login form is Django's own: axes stores a bounded username for it."""
    response = Client().post(reverse("admin:login"), {"username": "u" * 300, "password": "wrong"})
    assert response.status_code == 200


@pytest.mark.parametrize("reason", ["club vote\x00", "x" * 301])
def test_rules_change_reason_goes_through_a_form(reason, objects, organiser):
    """The rules page read its reason raw (cut to 300 characters): a NUL reached the history's insert."""
    from tests.scoring.test_event_rules import rules_data

    event = objects["event"]
    flat = make_ruleset("ema2016", {"uma": [0, 0, 0, 0]})
    client = Client()
    client.force_login(organiser)
    url = reverse("scoring_manage:event_rules", args=[event.slug])
    response = client.post(url, {**rules_data(flat), "confirm": "1", "reason": reason})
    assert response.status_code == 422
    assert response.context["reason_errors"]
    assert Event.objects.get(pk=event.pk).rules.uma == (15000, 5000, -5000, -15000)
    assert not HistoryEntry.objects.filter(action="rules changed").exists()
