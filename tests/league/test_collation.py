"""Names sort as a reader expects, not by code point: "Léa" before "Lukas", "émile" beside "Emile".

The database (and Python's plain ``sorted``) put every accented capital after "Z"; every list of player
names — the event's players, the standings' ties, the game and penalty forms, the seating by name — uses
``league.collation`` instead.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from league.collation import name_key, order_by_name, sorted_by_name
from league.models import Player, Registration
from scoring.forms import PenaltyForm, StartGameForm
from scoring.standings import standings

NAMES = ["Zoé", "Lukas", "émile", "Léa", "Emile", "Éva", "adam", "Emil"]
EXPECTED = ["adam", "Emil", "Emile", "émile", "Éva", "Léa", "Lukas", "Zoé"]


def test_name_key_ignores_accents_and_case():
    assert name_key("Léa") < name_key("Lukas")
    assert sorted(["Lukas", "Léa"]) == ["Lukas", "Léa"]  # what code points give
    assert sorted(["Lukas", "Léa"], key=name_key) == ["Léa", "Lukas"]
    assert name_key("émile") == name_key("Emile") == "emile"
    assert name_key("Straße") == "strasse"


def test_sorted_by_name_puts_accented_names_beside_their_plain_forms():
    assert sorted_by_name(NAMES) == EXPECTED
    # Same key ("Emile", "émile"): one reproducible order whatever the input order.
    assert sorted_by_name(reversed(NAMES)) == EXPECTED


@pytest.fixture
def named_players(club, event):
    made = [Player.objects.create(display_name=n, club=club) for n in NAMES]
    for player in made:
        Registration.objects.create(event=event, player=player)
    return made


def test_order_by_name_keeps_a_queryset_in_collation_order(named_players):
    ordered = order_by_name(Player.objects.filter(pk__in=[p.pk for p in named_players]))
    assert [p.display_name for p in ordered] == EXPECTED
    assert ordered.filter(display_name="Léa").exists()  # still a queryset: filters and validates


def test_order_by_name_of_nothing_is_empty(db):
    assert list(order_by_name(Player.objects.none())) == []


def test_event_page_lists_players_by_name(named_players, event):
    html = Client().get(event.get_absolute_url()).content.decode()
    players = html[html.index('id="players"') :]
    found = re.findall(r'class="cell-name" href="/players/\d+/">([^<]+)</a>', players)
    assert found == EXPECTED


def test_standings_ties_are_in_name_order(named_players, event):
    # Nobody has played: every row ties, so the name decides.
    assert [row.name for row in standings(event)] == EXPECTED


def test_game_and_penalty_forms_list_players_by_name(named_players, event):
    players = Player.objects.filter(registrations__event=event)
    start = StartGameForm(players=players.order_by("display_name"))
    assert [label for _, label in start.fields["east"].choices][1:] == EXPECTED
    penalty = PenaltyForm(players=players, games=event.hanchans.all())
    assert [label for _, label in penalty.fields["player"].choices][1:] == EXPECTED
    # Ordered in Python, the choices are still a queryset: a listed player is accepted.
    by_name = {p.display_name: p for p in named_players}
    seats = ("east", "south", "west", "north")
    data = {seat: by_name[name].pk for seat, name in zip(seats, EXPECTED[:4], strict=True)}
    form = StartGameForm({**data, "entry_mode": "hands"}, players=players)
    assert form.is_valid(), form.errors


def test_new_game_page_lists_players_by_name(named_players, event, organiser):
    client = Client()
    client.force_login(organiser)
    response = client.get(reverse("scoring_manage:game_new", args=[event.slug]))
    html = response.content.decode()
    east = html[html.index('name="east"') : html.index("</select>", html.index('name="east"'))]
    assert re.findall(r"<option value=\"\d+\">([^<]+)</option>", east) == EXPECTED
