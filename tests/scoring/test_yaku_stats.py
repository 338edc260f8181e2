"""Yaku statistics, with every number worked out by hand: per player (how often each yaku appears in
their wins, riichi win rate and value, dora per win, average han, the yakuman list) and per event (the
yaku table, its own public page). Only games with yaku recorded count, and the pages say how many those
are. Query counts do not grow with the games."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from league.models import Event
from scoring import services, yaku_picker
from scoring.engine import Hand, ScoredYaku, Win
from scoring.statistics import hand_stats, player_statistics
from scoring.yaku_stats import event_yaku

pytestmark = pytest.mark.django_db

TIME_LIMIT = "time limit"


def y(name: str, han: int) -> ScoredYaku:
    return ScoredYaku(name, han=han)


@pytest.fixture
def league(event, players, organiser):
    """Ann, Bob, Cho, Dan in seats 0–3 (EMA 2016: no red fives).

    Game 1, hand by hand, yaku recorded (finished early):
      1. E1, Ann (dealer) rons Cho: riichi, pinfu, tanyao + 1 dora = 4 han 30 fu = 11 600; Ann's riichi.
      2. E1-1, Bob tsumo: menzen tsumo, pinfu = 2 han 20 fu.
      3. E2, Ann rons Bob: 3 han 40 fu = 5200, yaku NOT recorded (typed han and fu).
      4. E3, Ann tsumo: riichi, menzen tsumo + 2 dora + 1 ura = 5 han, mangan 8000; Ann's riichi.
      5. E4, Dan (dealer) rons Ann: daisangen, a yakuman; Bob's riichi stick on the table.
    Game 2, hand by hand, no yaku recorded: Ann (dealer) rons Bob 2 han 30 fu = 2900, Ann's riichi.
    Game 3, final scores. A void game with yaku, and an unfinished one: left out everywhere.
    """
    ann, bob, cho, dan = players[:4]
    game1 = services.start_game(event=event, players=[ann, bob, cho, dan], user=organiser)
    for hand in (
        Hand.ron(
            2,
            Win(0, 4, 30, yaku=(y("riichi", 1), y("pinfu", 1), y("tanyao", 1)), dora=1, aka=0, ura=0),
            riichi=(0,),
        ),
        Hand.tsumo(Win(1, 2, 20, yaku=(y("menzen_tsumo", 1), y("pinfu", 1)), dora=0, aka=0, ura=0)),
        Hand.ron(1, Win(0, 3, 40)),
        Hand.tsumo(
            Win(0, 5, None, yaku=(y("menzen_tsumo", 1), y("riichi", 1)), dora=2, aka=0, ura=1), riichi=(0,)
        ),
        Hand.ron(0, Win(3, yakuman=1, yaku=(ScoredYaku("daisangen", yakuman=1),)), riichi=(1,)),
    ):
        services.record_hand(hanchan=game1, hand=hand, user=organiser)
    services.finish_game(hanchan=game1, user=organiser, reason=TIME_LIMIT)

    game2 = services.start_game(event=event, players=[ann, bob, cho, dan], user=organiser)
    services.record_hand(hanchan=game2, hand=Hand.ron(1, Win(0, 2, 30), riichi=(0,)), user=organiser)
    services.finish_game(hanchan=game2, user=organiser, reason=TIME_LIMIT)

    game3 = services.start_game(
        event=event, players=[ann, bob, cho, dan], user=organiser, entry_mode="final_scores"
    )
    services.record_final_scores(hanchan=game3, scores=[20000, 40000, 35000, 25000], user=organiser)

    recorded = (y("riichi", 1), y("chinitsu", 6))
    void = services.start_game(event=event, players=[ann, bob, cho, dan], user=organiser)
    services.record_hand(
        hanchan=void, hand=Hand.ron(1, Win(0, 7, yaku=recorded, dora=0), riichi=(0,)), user=organiser
    )
    services.finish_game(hanchan=void, user=organiser, reason=TIME_LIMIT)
    services.void_game(hanchan=void, user=organiser, reason="wrong table")

    unfinished = services.start_game(event=event, players=[ann, bob, cho, dan], user=organiser)
    services.record_hand(
        hanchan=unfinished, hand=Hand.ron(1, Win(0, 7, yaku=recorded, dora=0), riichi=(0,)), user=organiser
    )
    return {"game1": game1, "game2": game2, "game3": game3}


def every_event():
    return Event.objects.all()


def rows(summary) -> list[tuple[str, int, float]]:
    return [(r.name, r.wins, r.share) for r in summary.rows]


def test_a_player_yaku_counts_only_wins_with_yaku_recorded(league, players):
    stats = player_statistics(players[0], every_event())
    ann = stats.yaku
    assert (ann.games, ann.recorded_games, ann.wins) == (2, 1, 2)  # games 1 and 2; game 1 recorded; 2 wins
    # Riichi in both; then by the table's order: menzen tsumo, pinfu, tanyao once each.
    assert rows(ann) == [("riichi", 2, 1.0), ("menzen_tsumo", 1, 0.5), ("pinfu", 1, 0.5), ("tanyao", 1, 0.5)]
    assert ann.average_han == pytest.approx((4 + 5) / 2)
    assert ann.dora_per_win == pytest.approx(((1 + 0 + 0) + (2 + 0 + 1)) / 2)
    assert ann.yakuman_wins == 0
    assert player_statistics(players[0], every_event()).placements.yaku_games == 1


def test_riichi_win_rate_and_value_count_every_hand_by_hand_game(league, players):
    ann = hand_stats(players[0], every_event())
    # Riichi in hands 1 and 4 of game 1 (both won) and in game 2 (won): 3 of 3.
    assert (ann.riichi, ann.riichi_wins) == (3, 3)
    assert ann.riichi_win_rate == 1
    # 11 600 (dealer 4 han 30 fu), 8000 (mangan), 2900 (dealer 2 han 30 fu): without honba or sticks.
    assert ann.riichi_average_win == pytest.approx((11600 + 8000 + 2900) / 3)
    bob = hand_stats(players[1], every_event())
    assert (bob.riichi, bob.riichi_wins, bob.riichi_win_rate, bob.riichi_average_win) == (1, 0, 0, None)


def test_other_players_yaku_and_the_yakuman_list_come_from_the_same_rows(league, players):
    bob = player_statistics(players[1], every_event()).yaku
    assert (bob.wins, rows(bob)) == (1, [("menzen_tsumo", 1, 1.0), ("pinfu", 1, 1.0)])
    assert (bob.average_han, bob.dora_per_win) == (2, 0)

    dan = player_statistics(players[3], every_event())
    assert (dan.yaku.wins, dan.yaku.yakuman_wins, rows(dan.yaku)) == (1, 1, [("daisangen", 1, 1.0)])
    assert dan.yaku.average_han is None and dan.yaku.dora_per_win is None  # a yakuman has no han
    [listed] = dan.yakuman
    assert (listed.hanchan_id, listed.hand_number, listed.round_name, listed.multiplier) == (
        league["game1"].pk,
        5,
        "E4",
        1,
    )
    assert listed.yaku == ["Daisangen (Big three dragons)"]
    assert player_statistics(players[0], every_event()).yakuman == []


def test_the_event_yaku_table(league, event):
    summary = event_yaku(event)
    assert (summary.games, summary.recorded_games, summary.wins) == (2, 1, 4)  # the void game left out
    assert rows(summary) == [
        ("menzen_tsumo", 2, 0.5),
        ("riichi", 2, 0.5),
        ("pinfu", 2, 0.5),
        ("tanyao", 1, 0.25),
        ("daisangen", 1, 0.25),
    ]
    assert summary.average_han == pytest.approx((4 + 2 + 5) / 3)
    assert summary.dora_per_win == pytest.approx((1 + 0 + 3) / 3)
    assert summary.yakuman_wins == 1


def test_an_event_without_yaku_recorded_says_so(club, players, organiser):
    from tests.conftest import make_event

    empty = make_event(club, slug="no-yaku")
    summary = event_yaku(empty)
    assert (summary.games, summary.recorded_games, summary.wins, summary.rows) == (0, 0, 0, [])
    page = Client().get(reverse("scoring:yaku", args=[empty.slug])).content.decode()
    assert "No finished game entered hand by hand yet." in page


def test_the_event_yaku_page_shows_the_table_and_how_many_games_count(league, event):
    page = Client().get(reverse("scoring:yaku", args=[event.slug])).content.decode()
    assert "Yaku are recorded in 1 of 2 finished games entered hand by hand" in page
    assert "4 wins with their yaku" in page
    assert "Menzen tsumo" in page and "Fully concealed hand (self-draw)" in page
    assert "Daisangen" in page and "Big three dragons" in page
    assert "50.0 %" in page and "25.0 %" in page
    assert "Chinitsu" not in page  # only in the void and the unfinished games
    event_page = Client().get(reverse("scoring:event", args=[event.slug])).content.decode()
    assert reverse("scoring:yaku", args=[event.slug]) in event_page


def test_the_player_page_shows_yaku_riichi_and_the_yakuman_names(league, players):
    page = Client().get(reverse("scoring:player", args=[players[0].pk])).content.decode()
    assert 'id="yaku"' in page
    assert "Yaku are recorded in 1 of 2 finished games entered hand by hand" in page
    assert "2 wins with their yaku" in page
    assert "Riichi win rate" in page and "(3 won of 3 riichi)" in page
    dan = Client().get(reverse("scoring:player", args=[players[3].pk])).content.decode()
    assert "Daisangen (Big three dragons)" in dan


def _queries(path: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert Client().get(path).status_code == 200
    return len(queries)


def _more_games(event, players, organiser, count: int) -> None:
    for _ in range(count):
        game = services.start_game(event=event, players=players[:4], user=organiser)
        for hand in (
            Hand.ron(
                2, Win(0, 2, 30, yaku=(y("riichi", 1), y("tanyao", 1)), dora=0, aka=0, ura=0), riichi=(0,)
            ),
            Hand.tsumo(Win(1, 3, 30, yaku=(y("menzen_tsumo", 1), y("ittsu", 2)), dora=0, aka=0, ura=0)),
        ):
            services.record_hand(hanchan=game, hand=hand, user=organiser)
        services.finish_game(hanchan=game, user=organiser, reason=TIME_LIMIT)


def test_query_counts_do_not_grow_with_the_games(
    league, event, players, organiser, django_assert_max_num_queries
):
    yaku_page = reverse("scoring:yaku", args=[event.slug])
    player_page = reverse("scoring:player", args=[players[0].pk])
    few = (_queries(yaku_page), _queries(player_page))
    with django_assert_max_num_queries(2):
        event_yaku(event)
    with django_assert_max_num_queries(5):
        player_statistics(players[0], every_event())
    _more_games(event, players, organiser, 6)
    assert event_yaku(event).recorded_games == 7
    assert (_queries(yaku_page), _queries(player_page)) == few
    with django_assert_max_num_queries(4):
        Client().get(yaku_page)
    with django_assert_max_num_queries(10):
        Client().get(player_page)


def _yaku_cells(page: str) -> dict[str, str]:
    """The yaku table's name cells as text, by their romaji (the first word, in bold)."""
    table = page.split('id="yaku-table"')[1].split("</table>")[0]
    cells = {}
    for cell in re.findall(r'<td class="name">(.*?)</td>', table, flags=re.S):
        romaji = re.search(r"<strong>(.*?)</strong>", cell)
        assert romaji is not None, cell
        cells[romaji.group(1)] = " ".join(re.sub(r"<[^>]+>", " ", cell).split())
    return cells


@pytest.mark.parametrize("language", ["en", "fr", "pl"])
def test_a_yaku_whose_meaning_is_its_name_is_written_once(league, event, players, language):
    """Riichi means "Riichi": the yaku tables wrote "Riichi Riichi"; a yaku with a meaning of its own keeps
    it beside the romaji."""
    client = Client(headers={"accept-language": language})
    for url in (reverse("scoring:yaku", args=[event.slug]), reverse("scoring:player", args=[players[0].pk])):
        cells = _yaku_cells(client.get(url).content.decode())
        assert cells["Riichi"] == "Riichi", url
        assert cells["Pinfu"].startswith("Pinfu ") and len(cells["Pinfu"]) > len("Pinfu "), url
    assert yaku_picker.meaning("riichi") == "" and yaku_picker.meaning("pinfu")
