"""Reads for scoring pages: a game with its seats, hand log and state — in a bounded number of queries."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Q, QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404

from league.models import Event, Hanchan
from league.permissions import LoginRequired, managed_events, visible_events

from . import engine
from .describe import describe_hand
from .models import HistoryEntry, Penalty
from .records import engine_hand, penalty_points, stored_hands


@dataclass
class LogLine:
    """One row of a hand log."""

    number: int
    round: str
    deal: int
    dealer: int
    honba: int
    sticks: int
    text: str
    deltas: tuple[int, ...]
    scores: tuple[int, ...]


@dataclass
class GameView:
    """Everything a game page shows: seats, the table now, the log and the final result."""

    hanchan: Hanchan
    names: list[str]
    seats: list[Any]
    log: list[LogLine]
    state: engine.TableState
    finished_by_rules: bool
    final: engine.FinalResult | None
    rules: engine.Ruleset

    @property
    def next_round(self) -> str:
        return self.state.round

    @property
    def dealer(self) -> int:
        return self.state.dealer


def games_for(events: QuerySet) -> QuerySet[Hanchan]:
    return Hanchan.objects.filter(event__in=events).select_related("event", "event__club")


def managed_game_or_404(user: Any, pk: int) -> Hanchan:
    return get_object_or_404(games_for(managed_events(user)), pk=pk)


def visible_game_or_404(user: Any, pk: int) -> Hanchan:
    return get_object_or_404(games_for(visible_events(user)), pk=pk)


def public_game_or_404(user: Any, pk: int) -> Hanchan:
    """The game for its public page in one query: what ``require_login_for_members_game`` then
    ``visible_game_or_404`` answer (a members-only event's game asks an anonymous visitor to log in;
    a game that does not exist is a 404), read once instead of twice — the page is cached, so these
    queries are most of what a reload costs."""
    hanchan = games_for(Event.objects.all()).filter(pk=pk).first()
    if hanchan is None:
        raise Http404("No such game.")
    if hanchan.event.visibility == Event.Visibility.MEMBERS and not user.is_authenticated:
        raise LoginRequired("This game belongs to an event visible to members only.")
    return hanchan


def game_view(hanchan: Hanchan) -> GameView:
    """The game as the engine sees it now (replayed from the stored hands: a handful of queries)."""
    rules = hanchan.event.rules
    seats = sorted(hanchan.seats.select_related("player", "on_behalf_of"), key=lambda s: s.seat)
    names = [s.player.display_name for s in seats]
    stored = stored_hands(hanchan) if hanchan.entry_mode == Hanchan.EntryMode.HANDS else []
    hands = [engine_hand(row, wins) for row, wins in stored]
    played = engine.replay(hands, rules)
    assert played.state is not None
    log = [
        LogLine(
            o.number,
            o.round,
            o.deal,
            o.dealer,
            o.honba,
            o.sticks,
            describe_hand(h, names, o.dealer, rules),
            o.deltas,
            o.scores,
        )
        for h, o in zip(hands, played.hands, strict=True)
    ]

    extra = penalty_points(hanchan, seats)
    final: engine.FinalResult | None = None
    if hanchan.entry_mode == Hanchan.EntryMode.HANDS:
        if played.hands:
            final = played.final(extra)
    elif all(s.final_score is not None for s in seats):
        final = engine.final_result([s.final_score for s in seats], hanchan.final_sticks, extra, rules)
    return GameView(hanchan, names, seats, log, played.state, played.finished, final, rules)


def game_history(hanchan: Hanchan) -> QuerySet[HistoryEntry]:
    return HistoryEntry.objects.filter(hanchan=hanchan).select_related("user")


def event_penalties(event: Any) -> QuerySet[Penalty]:
    return Penalty.objects.filter(event=event).select_related("player", "hanchan", "given_by", "cancelled_by")


def tournament_rounds(event: Event) -> list[int]:
    """The round numbers of a tournament's seated tables, in order (void tables left out): the rounds a
    penalty can belong to. One query; empty for a league."""
    if event.kind != Event.Kind.TOURNAMENT:
        return []
    return sorted(
        set(
            Hanchan.objects.filter(event=event, round_number__isnull=False)
            .exclude(status=Hanchan.Status.VOID)
            .values_list("round_number", flat=True)
            .order_by()
        )
    )


def current_round(event: Event) -> int | None:
    """The round being played: the penalty form's default round. Two queries; None without rounds.

    The latest round with a seated table that is not finished while play in that round has begun (a
    result, a hand or a score entered at one of its tables); else the first round whose tables are
    seated but not all finished (rounds are seated ahead of play); else — every result in — the last
    round. Taking the *latest* round in play means a forgotten table of an early round does not drag the
    default back to that round.
    """
    tables = Hanchan.objects.filter(event=event, round_number__isnull=False).exclude(
        status=Hanchan.Status.VOID
    )
    open_rounds: set[int] = set()
    rounds: set[int] = set()
    for number, status in tables.values_list("round_number", "status").order_by():
        rounds.add(number)
        if status != Hanchan.Status.FINISHED:
            open_rounds.add(number)
    if not rounds:
        return None
    if not open_rounds:
        return max(rounds)
    started = set(
        tables.filter(
            Q(hands__isnull=False) | Q(seats__final_score__isnull=False) | Q(status=Hanchan.Status.FINISHED)
        )
        .values_list("round_number", flat=True)
        .order_by()
        .distinct()
    )
    playing = open_rounds & started
    return max(playing) if playing else min(open_rounds)
