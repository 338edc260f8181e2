"""The game page's chart: the four players' scores from the start through each hand."""

from __future__ import annotations

from django.utils.safestring import SafeString
from django.utils.translation import gettext, pgettext

from scoring.selectors import GameView

from .base import line, number, render, sparse_labels


def hand_label(round_name: str, honba: int) -> str:
    """E1, E1-1 (first repeat), S4-2 …: how a hand is named in the log."""
    return f"{round_name}-{honba}" if honba else round_name


def score_progression(game: GameView) -> SafeString | None:
    """A line per player: the start points, then the scores after each hand (None without hands, e.g. a
    game entered as final scores, which has no hands to draw)."""
    if not game.log:
        return None
    labels = [
        pgettext("start of a game", "Start"),
        *(hand_label(line_.round, line_.honba) for line_ in game.log),
    ]
    chart = line(
        title=gettext("Scores after each hand"),
        x_labels=labels,
        x_label_rotation=-45 if len(labels) > 8 else 0,
        value_formatter=lambda points: number(points, grouped=True),
        **sparse_labels(len(labels)),
    )
    start = game.rules.start_points
    for seat, name in enumerate(game.names):
        chart.add(name, [start, *(line_.scores[seat] for line_ in game.log)])
    return render(chart)
