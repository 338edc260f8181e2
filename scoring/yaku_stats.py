"""Yaku statistics: which yaku a player wins with, and an event's yaku table (docs/rules.md §8.2, issue 12).

Yaku are known only for some wins: those read from online logs, entered as tiles, or entered with the yaku
picker. A win whose ``yaku`` column is empty was entered as han and fu alone, so it says nothing about
its yaku; these statistics count only the wins with yaku recorded, and say how many games those come
from, so that a reader knows what the shares are shares of. (A winning hand always has a yaku, so an
empty list always means "not recorded".)

Counting the names inside a JSON list is done in Python over the rows of one query: SQLite and PostgreSQL
spell JSON table functions differently, and the rows are small (a name and a han per yaku). The number of
queries never depends on the number of games.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from django.db.models import Count, Exists, OuterRef, Q, QuerySet

from league.models import Event, Hanchan
from scoring import yaku_picker
from scoring.engine.logs.yaku import YAKU_BY_NAME
from scoring.models import Win

FINISHED = Hanchan.Status.FINISHED
HANDS = Hanchan.EntryMode.HANDS
NOT_RECORDED: list[Any] = []
"""The ``yaku`` column of a win whose yaku were not recorded."""


def with_yaku(prefix: str = "") -> Q:
    """Wins (through ``prefix``) whose yaku were recorded."""
    return ~Q(**{f"{prefix}yaku": NOT_RECORDED})


@dataclass(frozen=True)
class YakuRow:
    """One yaku of a table: in how many of the counted wins it appears."""

    name: str
    wins: int
    share: float | None
    yakuman: bool

    @property
    def romaji(self) -> str:
        return yaku_picker.romaji(self.name)

    @property
    def english(self) -> str:
        """The meaning beside the romaji; empty when it would only repeat it (``Riichi``)."""
        return yaku_picker.meaning(self.name)

    @property
    def han(self) -> str:
        """Its usual han, as the picker shows them: "2 (open 1)", "1 (closed)", "yakuman"."""
        yaku = YAKU_BY_NAME[self.name]
        if yaku.is_yakuman:
            return ""
        if not yaku.han_open:
            return f"{yaku.han_closed}"
        if yaku.han_open != yaku.han_closed:
            return f"{yaku.han_closed} / {yaku.han_open}"
        return f"{yaku.han_closed}"


@dataclass(frozen=True)
class YakuSummary:
    """The yaku of a set of wins with yaku recorded.

    ``games`` are the finished hand-by-hand games in scope and ``recorded_games`` those of them with yaku
    recorded for at least one win; ``wins`` counts the wins with yaku recorded, whose yaku ``rows`` list
    (most frequent first). ``average_han`` is over those wins that are not yakuman (han with dora, as
    paid); ``dora_per_win`` counts dora, red fives and ura dora over the non-yakuman wins whose counts
    are known (``dora_wins`` of them).
    """

    games: int
    recorded_games: int
    wins: int
    rows: list[YakuRow] = field(default_factory=list)
    han_wins: int = 0
    average_han: float | None = None
    dora_wins: int = 0
    dora_per_win: float | None = None
    yakuman_wins: int = 0

    @property
    def unrecorded_games(self) -> int:
        return self.games - self.recorded_games


class WinFacts(NamedTuple):
    """What one win was made of, as the statistics read it (a row of the one query)."""

    yaku: list[dict[str, Any]]
    han: int | None
    yakuman: int | None
    dora: int | None
    aka: int | None
    ura: int | None


def summarise(wins: Iterable[WinFacts], *, games: int, recorded_games: int) -> YakuSummary:
    """The summary of ``wins`` (those without yaku recorded are skipped), in table order on ties."""
    counted = 0
    names: Counter[str] = Counter()
    han_total = han_wins = dora_total = dora_wins = yakuman_wins = 0
    for win in wins:
        if not isinstance(win.yaku, list) or not win.yaku:
            continue
        counted += 1
        names.update({item["name"] for item in win.yaku if isinstance(item, dict) and "name" in item})
        if win.yakuman:
            yakuman_wins += 1
            continue
        if win.han:
            han_total += win.han
            han_wins += 1
        if win.dora is not None:
            dora_total += win.dora + (win.aka or 0) + (win.ura or 0)
            dora_wins += 1
    order = {name: i for i, name in enumerate(YAKU_BY_NAME)}
    rows = [
        YakuRow(name, n, n / counted if counted else None, YAKU_BY_NAME[name].is_yakuman)
        for name, n in sorted(names.items(), key=lambda item: (-item[1], order.get(item[0], len(order))))
        if name in YAKU_BY_NAME
    ]
    return YakuSummary(
        games=games,
        recorded_games=recorded_games,
        wins=counted,
        rows=rows,
        han_wins=han_wins,
        average_han=han_total / han_wins if han_wins else None,
        dora_wins=dora_wins,
        dora_per_win=dora_total / dora_wins if dora_wins else None,
        yakuman_wins=yakuman_wins,
    )


def yaku_recorded(hanchan: str = "pk") -> Exists:
    """Whether the game (the outer query's ``hanchan`` column) has a win with yaku recorded."""
    return Exists(Win.objects.filter(with_yaku(), hand__hanchan=OuterRef(hanchan)))


def game_counts(games: QuerySet[Hanchan]) -> tuple[int, int]:
    """(finished hand-by-hand games, of which with yaku recorded) among ``games`` (one query)."""
    # The condition goes straight into the filter: an annotation named like the aggregate is misread.
    totals = games.filter(status=FINISHED, entry_mode=HANDS).aggregate(
        games=Count("id"), recorded=Count("id", filter=Q(yaku_recorded()))
    )
    return totals["games"], totals["recorded"]


_FACTS = ("yaku", "han", "yakuman", "dora", "aka", "ura")


def event_yaku(event: Event, *, up_to_round: int | None = None) -> YakuSummary:
    """The event's yaku table over its finished games (two queries, whatever the number of games).

    ``up_to_round``: the games of rounds 1..N only — the public page of a tournament keeping its later
    rounds for the final reveal (``scoring.standings.hidden_after_round``) must not count them."""
    games = Hanchan.objects.filter(event=event)
    wins = Win.objects.filter(with_yaku(), hand__hanchan__event=event, hand__hanchan__status=FINISHED)
    if up_to_round is not None:
        games = games.filter(round_number__lte=up_to_round)
        wins = wins.filter(hand__hanchan__round_number__lte=up_to_round)
    games_count, recorded = game_counts(games)
    rows = (
        wins.order_by()
        .values_list(*_FACTS)
    )
    return summarise((WinFacts(*row) for row in rows.iterator()), games=games_count, recorded_games=recorded)
