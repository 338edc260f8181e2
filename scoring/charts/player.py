"""The player page's charts: cumulative result, places, and the rating history of both systems."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.functional import lazy
from django.utils.safestring import SafeString
from django.utils.translation import gettext

from scoring.ratings import RatingPoint
from scoring.statistics import GameResult, Placements
from scoring.templatetags.tenbou_stats import ordinal

from .base import bar, line, number, render, sparse_labels

PLACES = tuple(lazy(ordinal, str)(place) for place in range(1, 5))
"""1st, 2nd, 3rd, 4th, each in the reader's language when used (1er, 2e … in French)."""


def cumulative_results(name: str, games: Sequence[GameResult]) -> SafeString | None:
    """The running total of the player's results (in thousands, as the standings show them), game by game."""
    if not games:
        return None
    labels = ["0", *(str(n) for n in range(1, len(games) + 1))]
    chart = line(
        title=gettext("Total result after each game (thousands)"),
        x_labels=labels,
        x_title=gettext("games"),
        show_legend=False,
        value_formatter=lambda value: number(value, 1, signed=True),
        **sparse_labels(len(labels)),
    )
    chart.add(name, [0.0, *(g.cumulative / 1000 for g in games)])
    return render(chart)


def place_distribution(name: str, placements: Placements) -> SafeString | None:
    """How many times the player finished 1st, 2nd, 3rd and 4th."""
    if not placements.games:
        return None
    chart = bar(
        title=gettext("Places"),
        x_labels=[str(place) for place in PLACES],
        show_legend=False,
        print_values=True,
        height=200,
        value_formatter=lambda count: f"{count:.0f}",
    )
    chart.add(name, list(placements.counts))
    return render(chart)


def rating_history(title: str, name: str, points: Sequence[RatingPoint]) -> SafeString | None:
    """One rating system's value before the player's first game shown, then after each game."""
    if not points:
        return None
    labels = [str(points[0].games - 1), *(str(p.games) for p in points)]
    chart = line(
        title=title,
        x_labels=labels,
        x_title=gettext("games"),
        show_legend=False,
        value_formatter=lambda value: number(value, 1),
        **sparse_labels(len(labels)),
    )
    chart.add(name, [points[0].before, *(p.after for p in points)])
    return render(chart)
