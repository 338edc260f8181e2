"""Results versions (league/versions.py): which events' and players' versions a bump moves, and that the
new version is larger than the old one + 1 and than the time now in microseconds. Written as plain SQL
since 2026-11-26 (the ORM's UPDATE with subqueries cost more to compile than to run): every branch
here, on both databases."""

from __future__ import annotations

import time

import pytest

from league.models import Event, Hanchan, Player, Registration, Seat
from league.versions import bump_results
from tests.conftest import make_event


def versions() -> dict[str, int]:
    found = {f"event:{slug}": v for slug, v in Event.objects.values_list("slug", "results_version")}
    players = Player.objects.values_list("display_name", "results_version")
    found |= {f"player:{name}": v for name, v in players}
    return found


def moved(before: dict[str, int]) -> set[str]:
    return {key for key, value in versions().items() if value != before[key]}


@pytest.fixture
def league(club, event, players):
    """Two events: a game of the first with a substitute (Eve for Dan), a second event where only
    Fay is registered; Ann's version is far in the future (a restored database's numbers)."""
    other = make_event(club, slug="winter-league")
    outsider = Player.objects.create(display_name="Gus", club=club)
    Registration.objects.create(event=other, player=outsider)
    game = Hanchan.objects.create(event=event)
    for seat, player in enumerate(players[:4]):
        Seat.objects.create(hanchan=game, seat=seat, player=player)
    Seat.objects.filter(hanchan=game, seat=3).update(player=players[4], on_behalf_of=players[3])
    Player.objects.filter(pk=players[0].pk).update(results_version=10**17)
    return event, other, game


@pytest.mark.django_db
def test_each_kind_of_bump_moves_exactly_its_rows(league, players):
    event, other, game = league
    before = versions()
    bump_results(event_ids=[event.pk, None])
    assert moved(before) == {"event:autumn-league"}

    before = versions()
    bump_results(player_ids=[players[1].pk, players[1].pk, None])
    assert moved(before) == {"player:Bob"}

    before = versions()
    bump_results(hanchan_ids=[game.pk])  # the seated players and the one a substitute sat for
    assert moved(before) == {"player:Ann", "player:Bob", "player:Cho", "player:Dan", "player:Eve"}

    before = versions()
    bump_results(event_ids=[other.pk], event_players=True)  # registered there: Gus
    assert moved(before) == {"event:winter-league", "player:Gus"}

    before = versions()
    bump_results(event_ids=[event.pk], event_players=True)  # registered, seated or sat for
    assert moved(before) == {"event:autumn-league"} | {f"player:{p.display_name}" for p in players}

    before = versions()
    bump_results()
    assert moved(before) == set()


@pytest.mark.django_db
def test_a_new_version_is_larger_than_the_old_one_and_than_the_time(league, players):
    event, _other, game = league
    now = time.time_ns() // 1000
    bump_results(event_ids=[event.pk], player_ids=[players[0].pk, players[1].pk])
    after = versions()
    assert after["player:Ann"] == 10**17 + 1  # the old version + 1, larger than the time
    assert now <= after["player:Bob"] <= time.time_ns() // 1000  # the time, larger than the old + 1
    assert now <= after["event:autumn-league"] <= time.time_ns() // 1000
    bump_results(event_ids=[event.pk])
    assert versions()["event:autumn-league"] > after["event:autumn-league"]
