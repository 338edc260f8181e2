"""The lifetime rating ladders (minimum games, filters, CSV) and the club season ladder."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from league.models import Event, Registration
from rankings.ladders import rating_ladder, season_ladder
from tests.conftest import make_event

from .conftest import paper_game, worker

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(club, four, organiser):
    """Two league games this year: Ann 45000/31000, Bob 32000/38000, Cho 25000/22000, Dan 18000/29000."""
    event = make_event(club, slug="winter-league")
    for player in four:
        Registration.objects.create(event=event, player=player)
    paper_game(event, four, [45000, 32000, 25000, 18000], organiser)
    paper_game(event, four, [31000, 38000, 22000, 29000], organiser)
    worker()  # the ratings
    return event


def test_the_rating_ladder_needs_the_minimum_games(league, four):
    assert rating_ladder(system="tenhou", min_games=3) == []
    rows = rating_ladder(system="tenhou", min_games=2)
    assert [r.name for r in rows][0] in ("Ann", "Bob") and len(rows) == 4
    assert all(r.games == 2 for r in rows)
    assert [r.position for r in rows] == sorted(r.position for r in rows)


def test_the_ladder_page_and_csv(league):
    client = Client()
    body = client.get(reverse("rankings:ladder"), {"min_games": 2, "system": "openskill"}).content.decode()
    assert "Ann" in body
    rows = list(
        csv.reader(
            io.StringIO(
                client.get(reverse("rankings:ladder_csv"), {"min_games": 2}).content.decode("utf-8-sig")
            )
        )
    )
    assert rows[0] == ["#", "Player", "Club", "Country", "Rating", "Games"] and len(rows) == 5
    assert client.get(reverse("rankings:ladder_csv"), {"min_games": "x"}).status_code == 400
    assert client.get(reverse("rankings:ladder"), {"min_games": "2.5"}).status_code == 200


def test_the_season_ladder_adds_the_clubs_leagues_of_the_year(league, club, four):
    # EMA 2016, uma 15/5/−5/−15: game 1 Ann +30, Bob +7, Cho −10, Dan −27; game 2 Bob +23, Ann +6,
    # Dan −6, Cho −23. Totals: Ann +36 (1, 2), Bob +30 (2, 1), Dan −33, Cho −33 (3, 4 both): Dan's
    # average place 3.5 = Cho's 3.5 → shared position.
    rows = season_ladder(club, timezone.localdate().year)
    assert [(r.position, r.name, r.points, r.games, r.average_place) for r in rows] == [
        (1, "Ann", 36.0, 2, 1.5),
        (2, "Bob", 30.0, 2, 1.5),
        (3, "Cho", -33.0, 2, 3.5),
        (3, "Dan", -33.0, 2, 3.5),
    ]
    assert season_ladder(club, timezone.localdate().year - 1) == []
    # A members-only league does not count on the public ladder.
    Event.objects.filter(pk=league.pk).update(visibility=Event.Visibility.MEMBERS)
    assert season_ladder(club, timezone.localdate().year) == []


def test_the_club_page_shows_the_season_ladder_and_its_csv(league, club):
    client = Client()
    body = client.get(reverse("rankings:club", args=[club.slug])).content.decode()
    assert "season-ladder" in body and "Ann" in body
    response = client.get(reverse("rankings:season_csv", args=[club.slug]), {"year": "junk"})
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0] == ["#", "Player", "Points", "Games", "Average place"] and rows[1][1:] == [
        "Ann",
        "36.0",
        "2",
        "1.50",
    ]


def test_games_the_public_may_not_see_stay_out_of_the_ladder(league, club, four, organiser):
    """A members-only league's game changes the stored lifetime ratings, not the public ladder."""
    before = {r.name: (r.rating, r.games) for r in rating_ladder(system="tenhou", min_games=0)}
    private = make_event(club, slug="members-cup")
    Event.objects.filter(pk=private.pk).update(visibility=Event.Visibility.MEMBERS)
    private.refresh_from_db()
    for player in four:
        Registration.objects.create(event=private, player=player)
    paper_game(private, list(reversed(four)), [45000, 32000, 25000, 18000], organiser)
    worker()
    assert {r.name: (r.rating, r.games) for r in rating_ladder(system="tenhou", min_games=0)} == before


def test_a_members_only_player_is_a_name_only_and_left_out_of_filters(league, four):
    from league.models import Player

    Player.objects.filter(pk=four[0].pk).update(visibility=Player.Visibility.MEMBERS)
    rows = {r.name: r for r in rating_ladder(system="tenhou", min_games=0)}
    assert rows["Ann"].club == "" and rows["Ann"].country == "" and rows["Bob"].club == "Riichi Lyon"
    assert "Ann" not in {r.name for r in rating_ladder(system="tenhou", min_games=0, country="FR")}
