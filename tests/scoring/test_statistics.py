"""Player statistics against hand-computed expectations, and the player page that shows them.

The fixture is a small EMA 2016 league (30 000 start, uma +15/+5/−5/−15, split ties, chombo −20 000 after
uma) built with the services, with games that must *not* count: a void game and an unfinished one.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from league.models import Event, Player, Registration
from scoring import services
from scoring.engine import Hand, Win
from scoring.models import SeatResult
from scoring.statistics import hand_stats, opponents, player_statistics
from tests.conftest import make_event

pytestmark = pytest.mark.django_db

TIME_LIMIT = "time limit"


@pytest.fixture
def league(event, players, organiser):
    """Ann, Bob, Cho, Dan (seats 0–3) and Eve: one hand-by-hand game, one final-score game with a chombo
    penalty, a void game and an unfinished one.

    Game 1, hand by hand, finished early (Ann deals first):
      1. Ann (dealer) rons Cho, 3 han 40 fu = 7700; Ann and Bob had declared riichi (Ann takes both sticks).
      2. E1-1: Bob tsumo 1 han 30 fu = 1100 (300/500), +100 each for the honba.
      3. E2: exhaustive draw, Ann and Cho tenpai (1500 each from Bob and Dan).
      4. E3: Dan's chombo (deducted after uma: no points move at the table).
      5. E3-1: Dan rons Bob with a yakuman: 32 000 + 300 honba.
      Final: Ann 39 600 (2nd), Bob −3400 (4th, bust), Cho 23 400 (3rd), Dan 60 400 (1st).
    Game 2, final scores Ann 20 000, Bob 40 000, Cho 35 000, Eve 25 000: Bob 1st, Cho 2nd, Eve 3rd, Ann 4th;
      Ann gets a chombo penalty in it.
    """
    ann, bob, cho, dan, eve = players[:5]
    game1 = services.start_game(event=event, players=[ann, bob, cho, dan], user=organiser)
    for hand in (
        Hand.ron(2, Win(0, 3, 40), riichi=(0, 1)),
        Hand.tsumo(Win(1, 1, 30)),
        Hand.draw((0, 2)),
        Hand.chombo(3),
        Hand.ron(1, Win(3, yakuman=1)),
    ):
        services.record_hand(hanchan=game1, hand=hand, user=organiser)
    services.finish_game(hanchan=game1, user=organiser, reason=TIME_LIMIT)

    game2 = services.start_game(
        event=event, players=[ann, bob, cho, eve], user=organiser, entry_mode="final_scores"
    )
    services.record_final_scores(hanchan=game2, scores=[20000, 40000, 35000, 25000], user=organiser)
    services.add_penalty(
        event=event, player=ann, points=-20000, reason="chombo", kind="chombo", hanchan=game2, user=organiser
    )

    void = services.start_game(event=event, players=[ann, bob, cho, dan], user=organiser)
    services.record_hand(hanchan=void, hand=Hand.ron(1, Win(0, yakuman=1)), user=organiser)
    services.finish_game(hanchan=void, user=organiser, reason=TIME_LIMIT)
    services.void_game(hanchan=void, user=organiser, reason="wrong table")

    unfinished = services.start_game(event=event, players=[ann, bob, cho, dan], user=organiser)
    services.record_hand(hanchan=unfinished, hand=Hand.tsumo(Win(0, yakuman=1)), user=organiser)
    return {"game1": game1, "game2": game2, "void": void, "unfinished": unfinished}


def every_event():
    return Event.objects.all()


def test_the_fixture_scores_are_the_hand_computed_ones(league, players):
    rows = SeatResult.objects.filter(hanchan=league["game1"]).order_by("seat")
    assert [(r.score, r.place) for r in rows] == [(39600, 2), (-3400, 4), (23400, 3), (60400, 1)]
    assert SeatResult.objects.filter(hanchan=league["void"]).count() == 0


def test_placements_count_final_score_games_too(league, players):
    ann = player_statistics(players[0], every_event()).placements
    assert (ann.games, ann.hand_games, ann.final_score_games) == (2, 1, 1)
    assert ann.counts == (0, 1, 0, 1)
    assert ann.rates == [0.0, 0.5, 0.0, 0.5]
    assert ann.average_place == pytest.approx(3.0)
    assert ann.average_score == pytest.approx((39600 + 20000) / 2)
    assert ann.busts == 0 and ann.bust_rate == 0
    assert ann.chombos == 1  # the penalty in the final-score game

    bob = player_statistics(players[1], every_event()).placements
    assert bob.counts == (1, 0, 0, 1) and bob.busts == 1 and bob.bust_rate == 0.5
    assert player_statistics(players[3], every_event()).placements.chombos == 1  # the chombo hand
    assert player_statistics(players[5], every_event()).placements.games == 0


def test_hand_statistics_come_from_hand_by_hand_games_only(league, players):
    ann = hand_stats(players[0], every_event())
    assert (ann.hands, ann.wins, ann.tsumo_wins, ann.deal_ins, ann.riichi) == (5, 1, 0, 0, 1)
    assert (ann.draws, ann.tenpai_at_draw) == (1, 1)
    assert ann.win_rate == pytest.approx(0.2)
    assert ann.tsumo_rate == 0
    assert ann.riichi_rate == pytest.approx(0.2)
    assert ann.tenpai_rate == 1
    assert ann.average_win == pytest.approx(7700)  # the hand's value: no honba, no sticks
    assert ann.deal_in_rate == 0 and ann.average_deal_in is None

    bob = hand_stats(players[1], every_event())
    assert (bob.wins, bob.tsumo_wins, bob.deal_ins, bob.riichi) == (1, 1, 1, 1)
    assert bob.tsumo_rate == 1
    assert bob.average_win == pytest.approx(1100)  # 300/500 without the honba
    assert bob.average_deal_in == pytest.approx(32000)  # without the 300 honba
    assert bob.tenpai_rate == 0

    cho = hand_stats(players[2], every_event())
    assert (cho.deal_ins, cho.average_deal_in, cho.tenpai_rate) == (1, 7700, 1)

    eve = hand_stats(players[4], every_event())  # only a final-score game
    assert eve.hands == 0 and eve.win_rate is None and eve.tenpai_rate is None


def test_yakuman_list_names_the_winner_and_skips_void_and_unfinished_games(league, players):
    [dan] = player_statistics(players[3], every_event()).yakuman
    assert (dan.hanchan_id, dan.hand_number, dan.round_name, dan.multiplier) == (
        league["game1"].pk,
        5,
        "E3",
        1,
    )
    # The date and event come from the player's games list, not read again with each win.
    assert dan.finished_at == league["game1"].finished_at
    assert dan.event_name == league["game1"].event.name
    # Ann's are in the void and the unfinished game.
    assert player_statistics(players[0], every_event()).yakuman == []
    assert player_statistics(players[1], every_event()).yakuman == []  # Bob dealt it in


def test_head_to_head_against_the_most_met_opponents(league, players):
    rows = {o.name: o for o in opponents(players[0], every_event())}
    assert list(rows) == ["Bob", "Cho", "Dan", "Eve"]  # by games together, then by name
    bob = rows["Bob"]
    assert (bob.games, bob.finished_above, bob.finished_below) == (2, 1, 1)
    assert bob.average_place == pytest.approx(3.0) and bob.opponent_average_place == pytest.approx(2.5)
    assert bob.place_difference == pytest.approx(0.5)
    dan = rows["Dan"]
    assert (dan.games, dan.finished_above, dan.finished_below, dan.place_difference) == (1, 0, 1, 1.0)
    assert len(opponents(players[0], every_event(), limit=2)) == 2


def test_shared_places_count_for_neither_player(event, players, organiser):
    game = services.start_game(event=event, players=players[:4], user=organiser, entry_mode="final_scores")
    services.record_final_scores(hanchan=game, scores=[35000, 35000, 30000, 20000], user=organiser)
    [bob] = [o for o in opponents(players[0], every_event()) if o.name == "Bob"]
    assert (bob.finished_above, bob.finished_below, bob.place_difference) == (0, 0, 0)


def test_statistics_of_one_event_leave_the_others_out(league, players, club, organiser):
    other = make_event(club, slug="spring-cup")
    for player in players[:4]:
        Registration.objects.create(event=other, player=player)
    game = services.start_game(event=other, players=players[:4], user=organiser, entry_mode="final_scores")
    services.record_final_scores(hanchan=game, scores=[50000, 30000, 25000, 15000], user=organiser)
    assert player_statistics(players[0], every_event()).placements.games == 3
    only = player_statistics(players[0], Event.objects.filter(pk=other.pk))
    assert only.placements.games == 1 and only.placements.counts == (1, 0, 0, 0)
    assert only.hands.hands == 0 and [g.hanchan_id for g in only.games] == [game.pk]


def test_game_history_runs_a_total_oldest_first(league, players):
    games = player_statistics(players[0], every_event()).games
    assert [g.hanchan_id for g in games] == [league["game1"].pk, league["game2"].pk]
    first, second = (SeatResult.objects.get(hanchan=g.hanchan_id, player=players[0]) for g in games)
    assert [g.cumulative for g in games] == [first.result, first.result + second.result]
    assert second.result == 20000 - 30000 - 15000 - 20000  # 4th: uma −15 000, then the chombo
    assert [g.entry_mode for g in games] == ["hands", "final_scores"]


# -- the page ------------------------------------------------------------------------------------------


def page(client: Client, player: Player, **query: str) -> str:
    response = client.get(reverse("scoring:player", args=[player.pk]), query)
    assert response.status_code == 200
    return response.content.decode()


CHART_IMG = re.compile(r'<div class="chart"><img src="([^"]+)"')


def charts(client: Client, html: str) -> dict[str, str]:
    """The page's charts (``<img>`` of their own SVG URLs), fetched: {chart name: SVG}."""
    drawn = {}
    for src in CHART_IMG.findall(html):
        response = client.get(src.replace("&amp;", "&"))
        assert response.status_code == 200, src
        assert response["Content-Type"] == "image/svg+xml; charset=utf-8"
        drawn[src.split("/charts/")[1].split(".svg")[0]] = response.content.decode()
    return drawn


def test_player_page_shows_statistics_charts_and_says_which_games_count(league, players):
    html = page(Client(), players[0])
    assert "Hand statistics from 1 of 2 games; 1 was entered as final scores" in html
    drawn = charts(Client(), html)
    assert set(drawn) == {"cumulative", "places"} and all(svg.startswith("<svg") for svg in drawn.values())
    assert ">Places<" in drawn["places"] and "Total result after each game" in drawn["cumulative"]
    assert "Average place" in html and "3.00" in html
    assert "20.0 %" in html  # win rate and riichi rate
    assert reverse("scoring:game", args=[league["game1"].pk]) in html
    assert reverse("scoring:game", args=[league["void"].pk]) not in html
    assert "Head to head" in html and reverse("scoring:player", args=[players[1].pk]) in html
    dan = page(Client(), players[3])
    assert "Yakuman" in dan and f"game {league['game1'].pk}</a>, hand 5 (E3)" in dan


def test_player_page_event_selector(league, players, club, organiser):
    other = make_event(club, slug="spring-cup")
    Registration.objects.create(event=other, player=players[0])
    html = page(Client(), players[0], event="spring-cup")
    assert "No finished game in this event yet." in html
    assert '<option value="spring-cup" selected>' in html
    assert "Hand statistics from" not in html
    assert Client().get(reverse("scoring:player", args=[players[0].pk]), {"event": "nope"}).status_code == 404


def test_members_only_events_are_hidden_from_anonymous_visitors(league, players, event, player_user):
    event.visibility = Event.Visibility.MEMBERS
    event.save()
    url = reverse("scoring:player", args=[players[0].pk])
    # Ann plays only in this members-only event: a login away, like the event (tests/scoring/test_privacy.py).
    anonymous = Client().get(url)
    assert anonymous.status_code == 302 and anonymous["Location"].startswith(reverse("login"))
    assert "Bob" not in anonymous.content.decode()  # no head-to-head either
    assert Client().get(url, {"event": event.slug}).status_code == 404
    member = Client()
    member.force_login(player_user)
    assert reverse("scoring:game", args=[league["game1"].pk]) in page(member, players[0])
    assert "Hand statistics from 1 of 2 games" in page(member, players[0], event=event.slug)


# -- queries do not grow with games ----------------------------------------------------------------------


def play_many(event: Event, players: list[Player], organiser, games: int) -> None:  # type: ignore[no-untyped-def]
    """``games`` finished games among six players: every third entered as final scores, the others hand by
    hand with a win, a deal-in, a riichi, a draw and a yakuman, finished early."""
    for n in range(games):
        table = [players[(n + i) % len(players)] for i in range(4)]
        if n % 3 == 2:
            game = services.start_game(event=event, players=table, user=organiser, entry_mode="final_scores")
            services.record_final_scores(hanchan=game, scores=[40000, 32000, 28000, 20000], user=organiser)
            continue
        game = services.start_game(event=event, players=table, user=organiser)
        for hand in (
            Hand.ron(2, Win(0, 2, 30), riichi=(0,)),
            Hand.draw((1,)),
            Hand.tsumo(Win(3, yakuman=1)),
        ):
            services.record_hand(hanchan=game, hand=hand, user=organiser)
        services.finish_game(hanchan=game, user=organiser, reason=TIME_LIMIT)


def test_player_page_queries_do_not_grow_with_games(
    event, players, organiser, player_user, django_assert_max_num_queries, django_assert_num_queries
):
    from django.core.cache import cache
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from scoring.ratings import rebuild_all_ratings

    def count(client: Client) -> int:
        cache.clear()  # the page rendered from nothing: its cost, not the page cache's (scoring/cache.py)
        with CaptureQueriesContext(connection) as queries:
            page(client, players[0])
        return len(queries)

    play_many(event, players, organiser, 3)
    rebuild_all_ratings()
    few = count(Client())
    play_many(event, players, organiser, 21)
    rebuild_all_ratings()
    assert SeatResult.objects.filter(player=players[0]).count() >= 12
    member = Client()
    member.force_login(player_user)
    with django_assert_max_num_queries(10):
        html = page(Client(), players[0])
    assert "Tenhou R" in html
    assert set(charts(Client(), html)) == {"cumulative", "places", "tenhou", "openskill"}
    # A member: one more, whether the account is a member's (league.permissions.is_member).
    with django_assert_max_num_queries(11):
        page(member, players[0])
    # One more for a page about one event: its title names the event, read before the (cached) body.
    with django_assert_max_num_queries(12):
        page(member, players[0], event=event.slug)
    assert count(Client()) == few


def test_the_history_is_oldest_first_even_when_games_finish_out_of_creation_order(event, players, organiser):
    late = services.start_game(event=event, players=players[:4], user=organiser, entry_mode="final_scores")
    early = services.start_game(event=event, players=players[:4], user=organiser, entry_mode="final_scores")
    services.record_final_scores(hanchan=early, scores=[40000, 32000, 28000, 20000], user=organiser)
    services.record_final_scores(hanchan=late, scores=[20000, 32000, 28000, 40000], user=organiser)
    games = player_statistics(players[0], every_event()).games
    assert [g.hanchan_id for g in games] == [early.pk, late.pk]


def test_charts_are_svgs_of_their_own_with_the_page_checks(league, players, event, player_user, organiser):
    ann = players[0]
    url = reverse("scoring:player_chart", args=[ann.pk, "cumulative"])
    response = Client().get(url)
    assert response.status_code == 200 and "default-src 'none'" in response["Content-Security-Policy"]
    assert b"<script" not in response.content
    assert Client().get(reverse("scoring:player_chart", args=[ann.pk, "pie"])).status_code == 404
    assert Client().get(url, {"event": "nope"}).status_code == 404  # not one of Ann's events
    assert Client().get(url, {"event": event.slug}).status_code == 200
    # No rating yet: nothing to draw, a 404 (the page shows no such chart either).
    assert Client().get(reverse("scoring:player_chart", args=[ann.pk, "tenhou"])).status_code == 404
    game_chart = reverse("scoring:game_chart", args=[league["game1"].pk])
    svg = Client().get(game_chart).content.decode()
    assert "Scores after each hand" in svg and all(p.display_name in svg for p in players[:4])
    # A game entered as final scores has no hands to draw, and its page shows no chart.
    final_scores = reverse("scoring:game", args=[league["game2"].pk])
    assert 'id="score-chart"' not in Client().get(final_scores).content.decode()
    assert Client().get(reverse("scoring:game_chart", args=[league["game2"].pk])).status_code == 404
    # Members-only (through the service, which moves the results versions on): a login away, like the pages.
    from league import services as league_services

    league_services.update_event(event=event, user=organiser, data={"visibility": "members"})
    for chart_url in (url, game_chart):
        anonymous = Client().get(chart_url)
        assert anonymous.status_code == 302 and anonymous["Location"].startswith(reverse("login"))
    member = Client()
    member.force_login(player_user)
    assert member.get(url).status_code == 200 and member.get(game_chart).status_code == 200


def test_the_player_page_lists_the_latest_games_and_links_to_all(event, players, organiser, monkeypatch):
    import scoring.views.public as public

    monkeypatch.setattr(public, "RECENT_GAMES", 4)
    play_many(event, players, organiser, 9)
    ann = players[0]
    games = list(SeatResult.objects.filter(player=ann).order_by("-finished_at", "-hanchan_id"))
    assert len(games) > 4
    listed = re.compile(r'<a href="/games/(\d+)/">#')
    html = page(Client(), ann)
    assert [int(pk) for pk in listed.findall(html)] == [r.hanchan_id for r in games[:4]]
    assert f"All {len(games)} games" in html and "?games=all#games" in html
    every = page(Client(), ann, games="all")
    assert [int(pk) for pk in listed.findall(every)] == [r.hanchan_id for r in games]
    assert "?games=all#games" not in every
    scoped = page(Client(), ann, event=event.slug)
    assert f"?event={event.slug}&amp;games=all#games" in scoped
