"""The wall screen (projector page): public, one URL per tournament, showing the round the room plays —
its clock, its seating by player name with table and wind, page by page — and the standings' top N,
each part polling its own fragment; bounded queries whatever the size of the tournament."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from league.models import Event, Hanchan, Player, Registration
from scoring import services
from tests.conftest import make_event
from tests.tournaments.test_tournament import finish_round, make_tournament
from tournaments import projector
from tournaments import services as tournament
from tournaments.models import Round
from tournaments.rounds import close_round, open_round

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_cache():
    """The standings slide is cached by results version: each test starts from an empty cache."""
    cache.clear()


@pytest.fixture
def seated(club, organiser):
    # Tables enter final scores (opening a round sets its games to the event's entry mode).
    event = make_tournament(club, 8, table_entry_mode="final")
    tournament.seat_tournament(event=event, rounds=2, user=organiser)
    return event


def wall(event, query: str = "") -> str:
    response = Client().get(reverse("tournaments:wall", args=[event.slug]) + query)
    assert response.status_code == 200
    return response.content.decode()


def seating_lines(html: str) -> list[tuple[str, str, str]]:
    return re.findall(
        r'<li><span class="wall-name">([^<]*)</span><span class="wall-table">(\d+)</span>'
        r'<span class="wall-wind">(\w+)</span></li>',
        html,
    )


def test_the_wall_is_public_and_has_its_three_parts(seated):
    html = wall(seated)
    for part in ('id="round-clock"', 'id="wall-header-clock"', 'id="wall-seating"', 'id="wall-standings"'):
        assert part in html
    # Each part updates itself: the clocks, the seating and the standings poll their fragments.
    assert f'hx-get="{reverse("tournaments:wall_seating", args=[seated.slug])}?' in html
    assert f'hx-get="{reverse("tournaments:wall_standings", args=[seated.slug])}?' in html
    assert html.count('hx-trigger="every') == 4
    assert 'hx-trigger="every 30s"' in html and 'hx-trigger="every 60s"' in html
    assert 'hx-trigger="every 2s"' in wall(seated, "?refresh=2")  # e.g. for a browser test
    # Content-Security-Policy: no inline script, every script is a file.
    assert all('src="' in tag for tag in re.findall(r"<script[^>]*>", html))
    assert "js/wall.js" in html and "js/clock.js" in html and "css/wall.css" in html


def test_seating_is_by_name_with_table_and_wind(seated):
    first = Player.objects.filter(registrations__event=seated).order_by("pk").first()
    first.display_name = "Émile"  # sorts as "emile", not after "Z" as by code point
    first.save()
    lines = seating_lines(wall(seated))
    assert len(lines) == 8
    names = [name for name, _table, _wind in lines]
    assert names.index("Émile") == 0 and names[1:] == sorted(names[1:])
    for name, table, wind in lines:
        seat = Hanchan.objects.get(event=seated, round_number=1, table_number=int(table)).seats.get(
            player__display_name=name
        )
        assert wind == ("East", "South", "West", "North")[seat.seat]


def test_a_long_seating_is_shown_page_by_page(seated):
    html = wall(seated, "?rows=5&columns=1")
    pages = re.findall(r'<section class="wall-slide wall-seating-page" data-page="(\d)">', html)
    assert pages == ["1", "2"] and "1/2" in html and "2/2" in html
    assert "--rows: 5; --fill: 5; --columns: 1" in html and "--rows: 5; --fill: 3; --columns: 1" in html
    assert len(seating_lines(html)) == 8


@pytest.mark.parametrize("query", ["?rows=0&columns=99&top=-1&rotate=x", "?rows=%00", "?top=1e9&round=abc"])
def test_bad_options_fall_back_to_the_defaults(seated, query):
    html = wall(seated, query)
    assert "--rows: 18; --fill: 2; --columns: 4" in html and 'data-rotate-seconds="15"' in html


def test_the_round_shown_follows_the_day(seated, organiser):
    assert projector.shown_round(seated).number == 1  # before anything opens: the first round's seating
    assert not Round.objects.filter(event=seated).exists()  # reading the wall writes nothing
    open_round(event=seated, number=1, user=organiser)
    finish_round(seated, 1, organiser)
    close_round(event=seated, number=1, user=organiser)
    assert projector.shown_round(seated).number == 2  # between rounds: the next seating
    html = wall(seated)
    assert "Seating · round 2" in html and "Round 2" in html
    open_round(event=seated, number=2, user=organiser)
    close_round(event=seated, number=2, user=organiser)
    html = wall(seated)
    assert projector.shown_round(seated) is None
    assert "No round in play." in html and not seating_lines(html)


def test_standings_top_n_in_rank_order(seated, organiser):
    finish_round(seated, 1, organiser)
    html = Client().get(reverse("tournaments:wall_standings", args=[seated.slug]) + "?top=3").content.decode()
    rows = re.findall(
        r'<span class="wall-rank">(\d+)</span><span class="wall-name">([^<]*)</span>'
        r'<span class="wall-points[^"]*">([^<]*)</span>',
        html,
    )
    assert [rank for rank, _, _ in rows] == ["1", "1", "3"]  # the two table winners share first place
    assert [points for _, _, points in rows] == ["+25.0", "+25.0", "+7.0"]
    assert "top 3" in html


def test_the_fragments_answer_alone(seated):
    html = Client().get(reverse("tournaments:wall_seating", args=[seated.slug])).content.decode()
    assert "<html" not in html and len(seating_lines(html)) == 8
    html = Client().get(reverse("tournaments:wall_standings", args=[seated.slug])).content.decode()
    assert "<html" not in html and "Nobody is ranked yet." in html


def test_members_only_asks_to_log_in_and_a_league_has_no_wall(seated, club, player_user):
    seated.visibility = Event.Visibility.MEMBERS
    seated.save()
    for name in (
        "tournaments:wall",
        "tournaments:wall_seating",
        "tournaments:wall_standings",
        "tournaments:clock",
    ):
        response = Client().get(reverse(name, args=[seated.slug]))
        assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    client = Client()
    client.force_login(player_user)
    assert client.get(reverse("tournaments:wall", args=[seated.slug])).status_code == 200
    league = make_event(club, slug="club-league")
    assert Client().get(reverse("tournaments:wall", args=[league.slug])).status_code == 404
    assert Client().get(reverse("tournaments:wall", args=["no-such-event"])).status_code == 404


def grow(event, n_players: int, organiser) -> None:
    for i in range(n_players):
        player = Player.objects.create(display_name=f"Extra {i:03d}", club=event.club)
        Registration.objects.create(event=event, player=player)
    Hanchan.objects.filter(event=event).delete()
    tournament.seat_tournament(event=event, rounds=2, user=organiser)
    open_round(event=event, number=1, user=organiser)
    for hanchan in Hanchan.objects.filter(event=event, round_number=1)[:3]:
        services.record_final_scores(hanchan=hanchan, scores=[40000, 32000, 28000, 20000], user=organiser)


@pytest.mark.parametrize("extra", [0, 56])
def test_the_wall_costs_the_same_few_queries_for_8_or_64_players(
    seated, organiser, extra, django_assert_max_num_queries
):
    grow(seated, extra, organiser)
    client = Client()
    urls = {
        "tournaments:wall": 8,  # 7, and the event's stages (which stage's standings it shows)
        "tournaments:clock": 3,
        "tournaments:wall_seating": 4,
        "tournaments:wall_standings": 4,
    }
    for name, most in urls.items():
        with django_assert_max_num_queries(most):
            assert client.get(reverse(name, args=[seated.slug])).status_code == 200
    assert len(seating_lines(wall(seated))) == 8 + extra


def test_the_standings_slide_is_computed_once_per_change(seated, organiser, django_assert_num_queries):
    url = reverse("tournaments:wall_standings", args=[seated.slug])
    client = Client()
    client.get(url)
    with django_assert_num_queries(1):  # the event only: the slide comes from the page cache
        warm = client.get(url).content.decode()
    assert "Nobody is ranked yet." in warm
    finish_round(seated, 1, organiser)  # a new result bumps the results version: a new slide
    assert "Nobody is ranked yet." not in client.get(url).content.decode()
