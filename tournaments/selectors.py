"""Reads of the tournament day: every table of a round as it stands now, for the organiser's round page.

The round page polls its table list every few seconds while the round is played, on a laptop that
sixteen tables keep busy, so the read costs a fixed number of queries whatever the number of tables:
the games with their hand and score counts (one query), their seats and players (one), their links
and seat codes (two), and the round itself (one).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import Count, Prefetch, Q
from django.utils.translation import gettext, ngettext

from league.engine_text import wind_name
from league.models import Event, Hanchan, Seat

from .models import Round, SeatConfirmation, TableLink


class State:
    """What a table is doing, from the organiser's point of view (the ``data-state`` of its row)."""

    NOT_STARTED = "not_started"
    PLAYING = "playing"  # hand by hand: hand N entered
    FINAL_ENTERED = "final_entered"  # final scores in, game not finished
    WAITING = "waiting"  # handed in, waiting for the confirmation
    FINISHED = "finished"
    VOID = "void"


@dataclass
class SeatRow:
    wind: str
    name: str
    on_behalf_of: str
    confirmation_code: str
    confirmed_at: datetime | None


@dataclass
class TableRow:
    """One table of the round: who plays, how far it is, its link, and whether it needs the organiser."""

    game: Hanchan
    table: int | None
    seats: list[SeatRow]
    state: str
    hands: int
    link: TableLink | None
    disputed: bool
    referee_note: str
    referee_called_at: datetime | None
    confirmed: int = 0
    needs_confirmation: bool = False
    labels: list[str] = field(default_factory=list)

    @property
    def label(self) -> str:
        """The state in words ("hand 5", "waiting for confirmation (2 of 4 players)", …)."""
        return " · ".join(self.labels)


@dataclass
class RoundView:
    event: Event
    number: int
    round: Round | None
    tables: list[TableRow]

    @property
    def status(self) -> str:
        return self.round.status if self.round is not None else Round.Status.PENDING

    @property
    def counts(self) -> dict[str, int]:
        """How many tables are in each state, and how many are disputed (for the page's summary)."""
        counts: dict[str, int] = {}
        for row in self.tables:
            counts[row.state] = counts.get(row.state, 0) + 1
        counts["disputed"] = sum(row.disputed for row in self.tables)
        return counts

    @property
    def tables_in(self) -> int:
        return sum(row.state in (State.FINISHED, State.VOID) for row in self.tables)


def _state(game: Hanchan, hands: int, scores: int) -> tuple[str, list[str]]:
    if game.status == Hanchan.Status.VOID:
        return State.VOID, [gettext("void")]
    if game.status == Hanchan.Status.FINISHED:
        return State.FINISHED, [gettext("finished")]
    if game.submitted_at is not None:
        words = [gettext("final scores entered")] if scores == 4 else []
        words.append(gettext("waiting for confirmation"))
        return State.WAITING, words
    if game.entry_mode == Hanchan.EntryMode.FINAL_SCORES and scores == 4:
        return State.FINAL_ENTERED, [gettext("final scores entered")]
    if game.entry_mode == Hanchan.EntryMode.HANDS and hands:
        return State.PLAYING, [gettext("hand %(n)s") % {"n": hands}]
    return State.NOT_STARTED, [gettext("not started")]


def round_view(event: Event, number: int) -> RoundView:
    """Every table of round ``number`` (void ones included, last), live. Five queries."""
    found = Round.objects.filter(event=event, number=number).first()
    games = (
        Hanchan.objects.filter(event=event, round_number=number)
        .annotate(
            hand_count=Count("hands", distinct=True),
            score_count=Count("seats", filter=Q(seats__final_score__isnull=False), distinct=True),
        )
        .prefetch_related(
            Prefetch(
                "seats", queryset=Seat.objects.select_related("player", "on_behalf_of").order_by("seat")
            ),
            Prefetch(
                "table_links",
                queryset=TableLink.objects.order_by("-created_at", "-pk").prefetch_related(
                    Prefetch("confirmations", queryset=SeatConfirmation.objects.order_by("seat"))
                ),
                to_attr="links",
            ),
        )
        .order_by("table_number", "pk")
    )
    rows: list[TableRow] = []
    for game in games:
        link = next((made for made in game.links if made.revoked_at is None), None)
        # A referee call stays on the table even if its link was revoked since (reissuing carries it).
        called = next((made for made in game.links if made.referee_called_at is not None), None)
        codes = {c.seat: c for c in link.confirmations.all()} if link is not None else {}
        seats = [
            SeatRow(
                wind=wind_name(seat.seat),
                name=seat.player.display_name,
                on_behalf_of=seat.on_behalf_of.display_name if seat.on_behalf_of else "",
                confirmation_code=codes[seat.seat].code if seat.seat in codes else "",
                confirmed_at=codes[seat.seat].confirmed_at if seat.seat in codes else None,
            )
            for seat in game.seats.all()
        ]
        state, labels = _state(game, game.hand_count, game.score_count)
        confirmed = sum(s.confirmed_at is not None for s in seats)
        if state == State.WAITING and event.confirmation == Event.Confirmation.PLAYERS:
            labels.append(
                ngettext("%(n)s of 4 players confirmed", "%(n)s of 4 players confirmed", confirmed)
                % {"n": confirmed}
            )
        disputed = called is not None
        if disputed:
            labels.append(gettext("disputed"))
        rows.append(
            TableRow(
                game=game,
                table=game.table_number,
                seats=seats,
                state=state,
                hands=game.hand_count,
                link=link,
                disputed=disputed,
                referee_note=called.referee_note if called is not None else "",
                referee_called_at=called.referee_called_at if called is not None else None,
                confirmed=confirmed,
                needs_confirmation=state == State.WAITING,
                labels=labels,
            )
        )
    rows.sort(key=lambda row: (row.state == State.VOID, row.table or 0))
    return RoundView(event=event, number=number, round=found, tables=rows)


def round_numbers(event: Event) -> list[tuple[int, str]]:
    """Each seated round with its status (pending when it was never opened). Two queries."""
    numbers = sorted(
        set(
            Hanchan.objects.filter(event=event, round_number__isnull=False)
            .values_list("round_number", flat=True)
            .order_by()
        )
    )
    statuses = dict(Round.objects.filter(event=event).values_list("number", "status"))
    return [(n, statuses.get(n, Round.Status.PENDING)) for n in numbers]
