"""A player's ranking history as a pygal line (inline SVG, like the player page's charts)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from django.utils.formats import date_format
from django.utils.safestring import SafeString
from django.utils.translation import gettext

from scoring.charts.base import line, number, render, sparse_labels


def ranking_history(name: str, points: Sequence[tuple[date, float]]) -> SafeString | None:
    """The ranking on each day it changed (a result added, halved or dropped), then today."""
    if not points:
        return None
    chart = line(
        title=gettext("Ranking over time"),
        x_labels=[date_format(day, "SHORT_DATE_FORMAT") for day, _ in points],
        show_legend=False,
        range=(0, 1000),
        value_formatter=lambda value: number(value, 1),
        **sparse_labels(len(points)),
    )
    chart.add(name, [value for _, value in points])
    return render(chart)
