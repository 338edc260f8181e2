"""Reads for scoring pages: a game with its seats, hand log and state — in a bounded number of queries."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from django.db.models import Q, QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404

from league.models import Event, Hanchan
from league.permissions import is_member, managed_events, members_only_refusal, visible_events

from . import engine
from .describe import describe_hand
from .models import HistoryEntry, Penalty
from .records import engine_hand, final_result, penalty_points, stored_hands


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

    @property
    def by_seat(self) -> list[tuple[int, int]]:
        """Each seat's gain and score after the hand, in seat order (the log's four cells)."""
        return list(zip(self.deltas, self.scores, strict=True))


@dataclass
class GameView:
    """Everything a game page shows: seats, the table now, the log and the final result.

    The log (each hand described in words) and the final result (which reads the game's penalties) are
    worked out when first asked for: a hand entry's form needs only the names and the table now."""

    hanchan: Hanchan
    names: list[str]
    seats: list[Any]
    state: engine.TableState
    finished_by_rules: bool
    rules: engine.Ruleset
    hands: list[engine.Hand] = field(repr=False)
    played: engine.Replay = field(repr=False)

    @cached_property
    def log(self) -> list[LogLine]:
        names, rules = self.names, self.rules
        return [
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
            for h, o in zip(self.hands, self.played.hands, strict=True)
        ]

    @cached_property
    def final(self) -> engine.FinalResult | None:
        return final_result(self.hanchan, self.played, self.seats, penalty_points(self.hanchan, self.seats))

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
    # Any event's game (the visibility is checked below): no subquery of every event, and no ORDER BY,
    # which first() took from the game's default order.
    try:
        hanchan = Hanchan.objects.select_related("event", "event__club").get(pk=pk)
    except Hanchan.DoesNotExist:
        raise Http404("No such game.") from None
    if hanchan.event.visibility == Event.Visibility.MEMBERS and not is_member(user):
        raise members_only_refusal(user, "This game belongs to an event visible to members only.")
    return hanchan


def game_view(hanchan: Hanchan) -> GameView:
    """The game as the engine sees it now (replayed from the stored hands: three queries, a fourth for
    the final result's penalties when it is shown)."""
    rules = hanchan.event.rules
    # In seat order by the query itself: a seat's default order (its game's, then seat) joins the game.
    # The players' names only: nothing shown reads a substitute's absent player, only its id.
    seats = list(hanchan.seats.select_related("player").order_by("seat"))
    names = [s.player.display_name for s in seats]
    stored = stored_hands(hanchan) if hanchan.entry_mode == Hanchan.EntryMode.HANDS else []
    hands = [engine_hand(row, wins) for row, wins in stored]
    played = engine.replay(hands, rules)
    assert played.state is not None
    return GameView(hanchan, names, seats, played.state, played.finished, rules, hands, played)


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
