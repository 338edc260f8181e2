"""The ranking over tournaments held here: rows computed by the worker when results change, the pages
(site, club, player), filters, CSV, the cache, and the query counts."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from league.models import Club, Event, Hanchan, Player
from rankings import local
from rankings.models import Tournament, TournamentResult
from rankings.selectors import ema_ranking
from rankings.tasks import RANKINGS
from scoring import services

from .conftest import worker

pytestmark = pytest.mark.django_db


def read_csv(response) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))


def test_a_changed_result_is_noticed_marked_and_recomputed_by_the_worker(two_tournaments, four):
    client = Client()
    page = client.get(reverse("rankings:ranking"))
    assert page.status_code == 200
    assert "ranking-updating" in page.content.decode()
    assert RANKINGS.pending()
    worker()
    assert not RANKINGS.pending()
    assert Tournament.objects.count() == 2
    spring = Tournament.objects.get(event=two_tournaments[0])
    assert spring.weight == 1.0 and spring.players == 4 and spring.countries == 1
    assert sorted(TournamentResult.objects.filter(tournament=spring).values_list("place", "base_rank")) == [
        (1, 1000),
        (2, 667),
        (3, 333),
        (4, 0),
    ]
    autumn = Tournament.objects.get(event=two_tournaments[1])
    # Ann and Cho tied for second: both place 2, base rank 667.
    ann, bob, cho, dan = four
    places = dict(TournamentResult.objects.filter(tournament=autumn).values_list("player_id", "place"))
    assert places == {bob.pk: 1, ann.pk: 2, cho.pk: 2, dan.pk: 4}

    rows = ema_ranking(timezone.localdate())
    assert [(r.position, r.name, round(r.ranking, 3)) for r in rows] == [
        (1, "Ann", 375.075),
        (1, "Bob", 375.075),
        (3, "Cho", 225.0),
        (4, "Dan", 0.0),
    ]
    page = client.get(reverse("rankings:ranking"))
    assert "ranking-updating" not in page.content.decode()
    assert "375.08" in page.content.decode()

    # The autumn game is voided: the page notices, the worker recomputes, and with one tournament left
    # nobody has the two results a ranking needs.
    game = Hanchan.objects.get(event=two_tournaments[1])
    services.void_game(hanchan=game, user=None, reason="entered twice")
    assert "ranking-updating" in client.get(reverse("rankings:ranking")).content.decode()
    worker()
    assert not Tournament.objects.filter(event=two_tournaments[1]).exists()
    assert ema_ranking(timezone.localdate()) == []


def test_the_worker_does_nothing_twice(two_tournaments):
    assert local.stale()
    worker()
    assert local.refresh_tournaments() == 0  # nothing moved since: nothing recomputed
    assert not local.stale()


def test_hidden_and_members_only_tournaments_do_not_count(two_tournaments):
    spring, autumn = two_tournaments
    Event.objects.filter(pk=spring.pk).update(standings_hidden_after_round=1, results_version=10**18)
    Event.objects.filter(pk=autumn.pk).update(visibility=Event.Visibility.MEMBERS)
    local.refresh_tournaments()
    assert Tournament.objects.count() == 0


@pytest.fixture
def ranked(two_tournaments):
    local.refresh_tournaments()
    return two_tournaments


def test_filters_by_country_club_and_year(ranked, four, club):
    ann, bob, cho, dan = four
    other = Club.objects.create(name="Warsaw Riichi", slug="warsaw", country="PL")
    Player.objects.filter(pk=dan.pk).update(country="PL", club=other)
    client = Client()
    body = client.get(reverse("rankings:ranking"), {"country": "PL"}).content.decode()
    assert "Dan" in body and "Ann" not in body
    body = client.get(reverse("rankings:ranking"), {"club": other.pk}).content.decode()
    assert "Dan" in body and "Bob" not in body
    # Two years ago nobody had played these tournaments.
    year = timezone.localdate().year - 2
    assert "Nobody is ranked yet" in client.get(reverse("rankings:ranking"), {"year": year}).content.decode()
    # Each club's name leads to its page, the ranking of its players.
    assert f'href="/rankings/clubs/{other.slug}/"' in client.get(reverse("rankings:ranking")).content.decode()
    body = client.get(reverse("rankings:club", args=[other.slug])).content.decode()
    assert "Dan" in body and "Ann" not in body


def test_junk_filters_never_give_a_500(ranked):
    client = Client()
    for query in ({"country": "XX"}, {"club": "abc"}, {"year": "1700"}, {"page": "-4"}, {"club": "99999"}):
        assert client.get(reverse("rankings:ranking"), query).status_code == 200
        assert client.get(reverse("rankings:ranking_csv"), query).status_code in (200, 400)
    assert client.get(reverse("rankings:ranking_csv"), {"country": "XX"}).status_code == 400
    assert client.get(reverse("rankings:club", args=["nope"])).status_code == 404
    assert client.get(reverse("rankings:player", args=[999999])).status_code == 404


def test_the_csv_has_every_row_and_the_parts(ranked):
    rows = read_csv(Client().get(reverse("rankings:ranking_csv")))
    assert rows[0] == [
        "#",
        "Player",
        "Club",
        "Country",
        "EMA number",
        "Ranking",
        "Part A",
        "Part B",
        "Tournaments",
    ]
    assert rows[1][1:] == ["Ann", "Riichi Lyon", "FR", "04000001", "375.08", "333.40", "416.75", "2"]
    assert [r[1] for r in rows[1:]] == ["Ann", "Bob", "Cho", "Dan"]


def test_the_player_page_shows_the_parts_the_tournaments_and_the_history_chart(ranked, four):
    ann = four[0]
    body = Client().get(reverse("rankings:player", args=[ann.pk])).content.decode()
    assert "375.08" in body and "333.40" in body and "416.75" in body
    assert body.count("<tr") == 3  # header + two tournaments
    rows = read_csv(Client().get(reverse("rankings:player_csv", args=[ann.pk])))
    assert rows[0] == [
        "Date",
        "Tournament",
        "Place",
        "Players",
        "Base rank",
        "MERS weight",
        "Age factor",
        "Weight counted",
    ]
    assert [r[1:5] for r in rows[1:]] == [["Autumn Open", "2", "4", "667"], ["Spring Open", "1", "4", "1000"]]
    assert "<svg" in body
    assert f'href="/players/{ann.pk}/"' in body  # played here: their games and statistics


def test_a_members_only_player_needs_a_login(ranked, four, organiser):
    Player.objects.filter(pk=four[0].pk).update(visibility=Player.Visibility.MEMBERS)
    url = reverse("rankings:player", args=[four[0].pk])
    assert Client().get(url).status_code == 302
    assert Client().get(reverse("rankings:player_csv", args=[four[0].pk])).status_code == 302
    client = Client()
    client.force_login(organiser)
    assert client.get(url).status_code == 200


def test_the_ranking_page_is_cached_and_bounded(ranked, django_assert_max_num_queries):
    client = Client()
    client.get(reverse("rankings:ranking"))
    with django_assert_max_num_queries(6):  # the key: the stale check (2), the version, the names
        assert client.get(reverse("rankings:ranking")).status_code == 200


def test_the_tournaments_list_and_its_csv(ranked):
    body = Client().get(reverse("rankings:tournaments")).content.decode()
    assert "Spring Open" in body and "Autumn Open" in body
    rows = read_csv(Client().get(reverse("rankings:tournaments_csv")))
    assert len(rows) == 3 and rows[0][1] == "Tournament"
    # Filters: the year of the last day, the club, the country.
    year = Tournament.objects.order_by("end_date").first().end_date.year
    assert len(read_csv(Client().get(reverse("rankings:tournaments_csv"), {"year": year}))) >= 2
    assert len(read_csv(Client().get(reverse("rankings:tournaments_csv"), {"country": "PL"}))) == 1
    assert Client().get(reverse("rankings:tournaments_csv"), {"club": "x"}).status_code == 400
    assert Client().get(reverse("rankings:tournaments"), {"club": "x"}).status_code == 200


def test_a_members_only_player_is_listed_by_name_only(ranked, four):
    Player.objects.filter(pk=four[0].pk).update(visibility=Player.Visibility.MEMBERS)
    rows = {r.name: r for r in ema_ranking(timezone.localdate())}
    assert (rows["Ann"].club, rows["Ann"].country, rows["Ann"].ema_number) == ("", "", "")
    assert rows["Bob"].ema_number == "04000002"
    assert "Ann" not in {r.name for r in ema_ranking(timezone.localdate(), country="FR")}


def test_a_field_the_player_keeps_private_is_left_out_of_rankings_and_their_filters(ranked, four):
    from rankings.ladders import rating_ladder

    Player.objects.filter(pk=four[0].pk).update(public_country=False, public_ema_number=False)
    rows = {r.name: r for r in ema_ranking(timezone.localdate())}
    assert (rows["Ann"].country, rows["Ann"].ema_number) == ("", "")
    assert rows["Ann"].club == rows["Bob"].club != ""  # the club stays public
    assert "Ann" not in {r.name for r in ema_ranking(timezone.localdate(), country="FR")}
    from scoring.ratings import rebuild_all_ratings

    rebuild_all_ratings()
    ladder = {r.name: r for r in rating_ladder(system="tenhou", min_games=0)}
    assert ladder["Ann"].country == "" and ladder["Bob"].country == "FR"
    assert "Ann" not in {r.name for r in rating_ladder(system="tenhou", min_games=0, country="FR")}


def test_rebuild_rankings_recomputes_every_tournament(two_tournaments):
    from django.core.management import call_command

    out = io.StringIO()
    call_command("rebuild_rankings", stdout=out)
    assert out.getvalue().strip() == "2 tournaments recomputed."
    assert TournamentResult.objects.count() == 8
    TournamentResult.objects.all().delete()  # rows lost by hand: the versions did not move
    call_command("rebuild_rankings", stdout=io.StringIO())
    assert TournamentResult.objects.count() == 8


def test_the_club_and_player_pages_are_bounded(ranked, four, club, django_assert_max_num_queries):
    client = Client()
    with django_assert_max_num_queries(16):
        assert client.get(reverse("rankings:club", args=[club.slug])).status_code == 200
    with django_assert_max_num_queries(14):
        assert client.get(reverse("rankings:player", args=[four[0].pk])).status_code == 200


def test_a_page_past_the_end_is_the_last_one_not_an_error(ranked):
    client = Client()
    for name in ("rankings:ranking", "rankings:ladder", "rankings:tournaments"):
        assert client.get(reverse(name), {"page": "9999"}).status_code == 200


def test_a_result_change_marks_the_ranking_work_without_a_page_view(two_tournaments):
    """The change itself marks the work (rankings/listeners.py, on scoring's results_changed): the
    worker recomputes the ranking though nobody opened a ranking page."""
    worker()
    assert not RANKINGS.pending()
    game = Hanchan.objects.get(event=two_tournaments[1])
    services.void_game(hanchan=game, user=None, reason="entered twice")
    assert RANKINGS.pending()
    worker()
    assert not RANKINGS.pending()
    assert not Tournament.objects.filter(event=two_tournaments[1]).exists()
