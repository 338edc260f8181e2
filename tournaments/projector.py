"""Reads for the wall screen (the projector page): which round the room cares about and its clock, that
round's seating by player name, and the standings' top N.

Each read costs a fixed number of queries whatever the size of the tournament (asserted in
``tests/tournaments/test_wall*.py``): the seating is one query, the standings are
:func:`scoring.standings.public_standings` (so hidden standings stay hidden here too).
"""

from __future__ import annotations

from dataclasses import dataclass

from league.collation import name_sort_key
from league.engine_text import wind_name
from league.models import Event, Hanchan, Seat
from scoring.standings import StandingRow, hidden_after_round, public_standings, standings

from .clock import ClockState, clock_state
from .models import Round
from .rounds import seated_round_numbers


@dataclass(frozen=True)
class SeatLine:
    """One player's line of the seating list: where to sit."""

    name: str
    table: int | None
    seat: int

    @property
    def wind(self) -> str:
        return wind_name(self.seat)


def shown_round(event: Event) -> Round | None:
    """The round the room cares about: the open one (the lowest if several); else the next seated round
    not closed yet, whose seating players look for before it opens; None once every seated round is
    closed. Two queries.

    A seated round without its ``Round`` row yet (rows are made on first need) is given as an unsaved
    row with the event's round length: a page read never writes."""
    numbers = seated_round_numbers(event)
    rows = {r.number: r for r in Round.objects.filter(event=event, number__in=numbers)}
    for row in rows.values():
        row.event = event  # the clock reads the event's ruleset: no query per round
    open_rows = [rows[n] for n in numbers if n in rows and rows[n].status == Round.Status.OPEN]
    if open_rows:
        return open_rows[0]
    for number in numbers:
        row = rows.get(number)
        if row is None:
            return Round(event=event, number=number, minutes=event.round_minutes)
        if row.status == Round.Status.PENDING:
            return row
    return None


def round_by_number(event: Event, number: int) -> Round | None:
    """Round ``number`` of the event (unsaved if it has tables but no row yet), None if it has no
    tables. One or two queries."""
    row = Round.objects.filter(event=event, number=number).first()
    if row is not None:
        row.event = event
        return row
    if Hanchan.objects.filter(event=event, round_number=number).exists():
        return Round(event=event, number=number, minutes=event.round_minutes)
    return None


@dataclass(frozen=True)
class ClockPanel:
    """The organiser's clock panel on the tournament page: the round it acts on, that round's clock, and
    the round the public standings stop at (None when nothing is hidden)."""

    round: Round | None
    clock: ClockState | None
    hidden_after_round: int | None
    hidden_standings: list[StandingRow]
    """While the public standings are hidden: the whole standings, which only the organiser sees."""
    quick: tuple[tuple[int, str], ...] = ((1, "+1"), (5, "+5"), (-1, "−1"))
    """The one-tap time changes: (minutes, as the button shows them)."""


def clock_panel(event: Event) -> ClockPanel:
    """What the clock panel shows (the round the room plays), and the standings the public does not see
    while they are hidden. Two queries, five while the standings are hidden."""
    found = shown_round(event)
    hidden = hidden_after_round(event)
    return ClockPanel(
        round=found,
        clock=clock_state(found, time_limit=event.rules.time_limit) if found is not None else None,
        hidden_after_round=hidden,
        hidden_standings=[row for row in standings(event) if row.ranked] if hidden is not None else [],
    )


def seating(event: Event, number: int) -> list[SeatLine]:
    """Round ``number``'s seating as one line per seated player, sorted by name as people expect ("Léa"
    before "Lukas"): one query. A substitute is listed under their own name, where they sit."""
    rows = (
        Seat.objects.filter(hanchan__event=event, hanchan__round_number=number)
        .exclude(hanchan__status=Hanchan.Status.VOID)
        .values_list("player__display_name", "hanchan__table_number", "seat")
        .order_by()
    )
    lines = [SeatLine(name=name, table=table, seat=seat) for name, table, seat in rows]
    lines.sort(key=lambda line: (name_sort_key(line.name), line.table or 0, line.seat))
    return lines


def pages(lines: list[SeatLine], per_page: int) -> list[list[SeatLine]]:
    """``lines`` cut into screens of ``per_page`` lines (at least one page, maybe empty)."""
    per_page = max(1, per_page)
    return [lines[i : i + per_page] for i in range(0, len(lines), per_page)] or [[]]


def standings_top(event: Event, top: int) -> list[StandingRow]:
    """The ranked players of the public standings, the first ``top`` of them (ties share a rank, so the
    last one shown may be tied with the first one left out). Three queries."""
    return [row for row in public_standings(event) if row.ranked][:top]
