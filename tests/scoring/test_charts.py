"""Charts: inline SVG that names the players, escapes what they typed, and loads no script."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from django.test import Client
from django.urls import reverse

from league.models import Player, Registration
from scoring import services
from scoring.charts import game as game_charts
from scoring.charts import player as player_charts
from scoring.charts.base import render
from scoring.engine import Hand, Win
from scoring.ratings import RatingPoint
from scoring.selectors import game_view
from scoring.statistics import GameResult, Placements

pytestmark = pytest.mark.django_db


def assert_inline_svg(svg: str) -> None:
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert "<?xml" not in svg and "<script" not in svg and "<!--" not in svg
    assert 'viewBox="0 0' in svg


@pytest.fixture
def game(event, players, organiser):
    game = services.start_game(event=event, players=players[:4], user=organiser)
    for hand in (Hand.ron(2, Win(0, 3, 40)), Hand.ron(2, Win(0, 3, 40)), Hand.tsumo(Win(1, 2, 30))):
        services.record_hand(hanchan=game, hand=hand, user=organiser)
    return game


def test_score_progression_has_a_line_per_player_from_the_start(game, players):
    svg = game_charts.score_progression(game_view(game))
    assert svg is not None
    assert_inline_svg(svg)
    assert all(p.display_name in svg for p in players[:4])
    for label in ("Start", "E1", "E1-1", "E1-2"):  # the dealer won twice: two repeats
        assert f">{label}<" in svg
    assert svg.count('class="line reactive') == 4


def test_score_progression_values_are_the_scores_after_each_hand(game):
    view = game_view(game)
    assert [line.scores[0] for line in view.log] == [37700, 45700, 44500]  # 1000 + 2 honba to Bob
    svg = game_charts.score_progression(view)
    assert "45,700" in svg and "30,000" in svg  # pygal writes each value beside its dot


def test_a_final_score_game_has_no_progression(event, players, organiser):
    game = services.start_game(event=event, players=players[:4], user=organiser, entry_mode="final_scores")
    services.record_final_scores(hanchan=game, scores=[40000, 32000, 28000, 20000], user=organiser)
    assert game_charts.score_progression(game_view(game)) is None
    page = Client().get(reverse("scoring:game", args=[game.pk])).content.decode()
    assert "<svg" not in page


def test_game_page_shows_the_chart(game, players):
    page = Client().get(reverse("scoring:game", args=[game.pk])).content.decode()
    chart = re.search(r'<div class="chart"><img src="([^"]+)"[^>]* alt="Scores after each hand"', page)
    assert chart is not None and chart.group(1) == reverse("scoring:game_chart", args=[game.pk])
    svg = Client().get(chart.group(1)).content.decode()
    assert svg.startswith("<svg") and players[0].display_name in svg
    assert "Hands" in page  # the log is still there


def test_names_are_escaped(event, club, organiser, players):
    sly = Player.objects.create(display_name='<script>alert("x")</script>Zed', club=club)
    Registration.objects.create(event=event, player=sly)
    game = services.start_game(event=event, players=[sly, *players[1:4]], user=organiser)
    services.record_hand(hanchan=game, hand=Hand.ron(2, Win(0, 3, 40)), user=organiser)
    svg = game_charts.score_progression(game_view(game))
    assert "<script" not in svg and "&lt;script&gt;" in svg


AT = datetime(2025, 3, 1, tzinfo=UTC)


def results(values: list[int]) -> list[GameResult]:
    total, rows = 0, []
    for n, value in enumerate(values, start=1):
        total += value
        rows.append(GameResult(n, AT, "League", "league", "hands", 1, 30000, value, total))
    return rows


def test_player_charts_render_and_stay_small_for_long_histories():
    cumulative = player_charts.cumulative_results("Ann", results([15000, -5000, 25000]))
    assert_inline_svg(cumulative)
    assert "+35.0" in cumulative  # the running total in thousands
    long = player_charts.cumulative_results("Ann", results([1000, -1000] * 150))
    assert_inline_svg(long)
    assert long.count("<circle") == 0 and len(long) < 40_000  # no dot per game beyond 40 games

    places = Placements(10, 8, (4, 3, 2, 1), 0, 2.0, 31000.0, 50000, 0)
    bars = player_charts.place_distribution("Ann", places)
    assert_inline_svg(bars)
    assert all(f">{label}<" in bars for label in player_charts.PLACES)

    points = [RatingPoint(n, n, 1500 + 10 * (n - 1), 1500 + 10 * n) for n in range(1, 6)]
    tenhou = player_charts.rating_history("Tenhou R", "Ann", points)
    assert_inline_svg(tenhou)
    assert "Tenhou R" in tenhou and "1550.0" in tenhou


def test_nothing_to_draw_draws_nothing():
    assert player_charts.cumulative_results("Ann", []) is None
    assert (
        player_charts.place_distribution("Ann", Placements(0, 0, (0, 0, 0, 0), 0, None, None, 0, 0)) is None
    )
    assert player_charts.rating_history("Tenhou R", "Ann", []) is None


def test_render_marks_the_svg_safe_for_templates():
    from django.template import Context, Template

    svg = player_charts.cumulative_results("Ann", results([1000]))
    html = Template("{{ chart }}").render(Context({"chart": svg}))
    assert html.startswith("<svg")
    assert render.__doc__
