"""The reconciliation panel of the EMA report (docs/rules.md §9.3): does the report add up?

Without penalties the four results of a game sum to 0 (docs/rules.md §6.4), so over a tournament *the sum of
all players' Scores equals the sum of all penalties* — the check the EMA asks organisers to make before
they submit. Two things legitimately break that identity, and each is shown as its own line so that a
difference is explained rather than merely tolerated:

- **Riichi sticks lost at the end of a game**: under ``wrc2022`` leftover sticks are lost, and where
  tied leaders split them each share is rounded down to 100 and the remainder is lost (EMA). A game's
  lost points are ``4 × start points − the sum of its final scores after the hand-out``; they come from
  the facts (final scores and sticks, or the replayed hands), never from the cached results.
- **Fixed substitute credit**: when the event credits a replaced player with a fixed result, that seat's
  result is not what was played; the line is the sum of ``fixed − played`` over those seats.

And two more lines keep the totals honest: event-level penalties of players *not in the report* and the
results of substitutes with seats of their own are in the standings but not in the grid.

Every finished game is checked on its own too: the sum of its stored results (``SeatResult``, what the
standings add up) against its penalties minus its lost sticks, each seat's stored result against a fresh
replay of the facts, and the stored penalties against the penalties recorded. Because the expectations
come from the facts (scores, hands, penalty rows) and the engine, a tampered or stale cached row is
caught. Anything that does not add up is flagged; nothing here blocks the download — the organiser
decides.

A seated table (a game with a round number) without a finished game is a *missing result*: the report
would be sent with a round half played. The panel lists, per round, how many of its tables have no result
and then never says the report "adds up" — the totals may well balance, but over an incomplete event.

Cost: a dozen queries for the page, plus two per game entered hand by hand (its hands and wins, to
replay it); games entered on paper add none.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from functools import cached_property

from django.core.exceptions import ValidationError
from django.utils.translation import gettext, ngettext

from league.engine_text import wind_name
from league.models import Event, Hanchan, Seat
from scoring import engine
from scoring.models import Penalty, SeatResult
from scoring.records import seats_by_player
from scoring.services.sync import replay_stored
from scoring.substitutes import credited_result
from tournaments import stages
from tournaments.ema.report import EmaResultsExport


def game_label(hanchan: Hanchan) -> str:
    """How organisers name a game: its round and table in a tournament, else its number."""
    if hanchan.round_number:
        return gettext("Round %(round)s, table %(table)s") % {
            "round": hanchan.round_number,
            "table": hanchan.table_number,
        }
    return gettext("Game #%(number)s") % {"number": hanchan.pk}


@dataclass(frozen=True)
class PenaltyLine:
    """A chombo or a penalty as the panel lists it. ``counted`` says whether it is in the standings:
    cancelled ones are not, nor those given with a game that is not finished."""

    player: str
    game: str
    hanchan_id: int | None
    points: int
    kind: str
    reason: str
    cancelled: bool
    counted: bool
    cancelled_reason: str = ""

    @property
    def is_chombo(self) -> bool:
        return self.kind == Penalty.Kind.CHOMBO


@dataclass
class TableCheck:
    """One finished game: stored results against what its facts say they must be."""

    hanchan_id: int
    label: str
    players: list[str]
    round_number: int | None = None
    results_sum: int = 0
    """Sum of the stored results (``SeatResult.result``): what the standings add up."""
    penalties: int = 0
    """Penalties of the game from the facts (chombo hands and penalty rows, cancelled ones left out)."""
    stored_penalties: int = 0
    lost_sticks: int = 0
    substitute_credit: int = 0
    stored_rows: int = 0
    mismatched_seats: list[str] = field(default_factory=list)
    error: str = ""

    @property
    def expected_sum(self) -> int:
        """Penalties − lost sticks + fixed substitute credit: what the results must sum to."""
        return self.penalties - self.lost_sticks + self.substitute_credit

    @property
    def difference(self) -> int:
        return self.results_sum - self.expected_sum

    @property
    def ok(self) -> bool:
        return (
            not self.error
            and self.stored_rows == 4
            and self.difference == 0
            and self.stored_penalties == self.penalties
            and not self.mismatched_seats
        )

    @property
    def problems(self) -> list[str]:
        """What is wrong, in words, for the panel."""
        if self.error:
            return [self.error]
        out = []
        if self.stored_rows != 4:
            out.append(
                ngettext(
                    "%(count)d stored result instead of 4",
                    "%(count)d stored results instead of 4",
                    self.stored_rows,
                )
                % {"count": self.stored_rows}
            )
        if self.difference:
            out.append(
                gettext("results sum to %(sum)s, expected %(expected)s (off by %(difference)s)")
                % {
                    "sum": self.results_sum,
                    "expected": self.expected_sum,
                    "difference": f"{self.difference:+d}",
                }
            )
        if self.stored_penalties != self.penalties:
            out.append(
                gettext("stored penalties %(stored)s, recorded %(recorded)s")
                % {"stored": self.stored_penalties, "recorded": self.penalties}
            )
        if self.mismatched_seats:
            out.append(
                gettext("stored result differs from the replay: %(seats)s")
                % {"seats": ", ".join(self.mismatched_seats)}
            )
        return out


@dataclass(frozen=True)
class Unfinished:
    """A game of the event without a final result: the report does not count it yet."""

    hanchan_id: int
    label: str
    players: list[str]


@dataclass(frozen=True)
class MissingResults:
    """A round with seated tables (void ones left out) of which ``missing`` have no finished game."""

    round_number: int
    tables: int
    missing: int

    @property
    def text(self) -> str:
        """ "round 4: 12 of 16 tables have no result" (the verb agrees with the missing tables)."""
        of_tables = ngettext(
            "%(missing)d of %(tables)d table", "%(missing)d of %(tables)d tables", self.tables
        ) % {"missing": self.missing, "tables": self.tables}
        return ngettext(
            "round %(round)d: %(of_tables)s has no result",
            "round %(round)d: %(of_tables)s have no result",
            self.missing,
        ) % {"round": self.round_number, "of_tables": of_tables}


def missing_results(games: list[Hanchan]) -> list[MissingResults]:
    """Per round, the seated tables without a finished game (``games``: the event's non-void games)."""
    tables: dict[int, int] = defaultdict(int)
    missing: dict[int, int] = defaultdict(int)
    for game in games:
        if game.round_number is None or game.status == Hanchan.Status.VOID:
            continue
        tables[game.round_number] += 1
        if game.status != Hanchan.Status.FINISHED:
            missing[game.round_number] += 1
    return [MissingResults(n, tables[n], missing[n]) for n in sorted(missing)]


@dataclass
class Reconciliation:
    """The panel: totals, per-table checks, chombos and penalties, and warnings."""

    scores_total: int
    """Sum of the Scores in the report."""
    unlisted_total: int
    """Points in the standings of players not in the report (substitutes, players without a game)."""
    unlisted: list[tuple[str, int]]
    tables: list[TableCheck]
    penalties: list[PenaltyLine]
    unfinished: list[Unfinished]
    substitute_fixed: bool
    missing_results: list[MissingResults] = field(default_factory=list)
    """Rounds with seated tables that have no result yet: the report is incomplete."""

    @cached_property
    def chombo_total(self) -> int:
        return sum(p.points for p in self.penalties if p.counted and p.is_chombo)

    @cached_property
    def game_penalty_total(self) -> int:
        """Other penalties given with a game."""
        return sum(p.points for p in self.penalties if p.counted and not p.is_chombo and p.hanchan_id)

    @cached_property
    def event_penalty_total(self) -> int:
        """Other penalties given for the event (no game)."""
        return sum(p.points for p in self.penalties if p.counted and not p.is_chombo and not p.hanchan_id)

    @cached_property
    def penalties_total(self) -> int:
        return self.chombo_total + self.game_penalty_total + self.event_penalty_total

    @cached_property
    def lost_sticks(self) -> int:
        return sum(t.lost_sticks for t in self.tables)

    @property
    def lost_sticks_effect(self) -> int:
        """The lost sticks as they act on the sum of Scores (taken from the players, given to nobody)."""
        return -self.lost_sticks

    @cached_property
    def substitute_credit(self) -> int:
        return sum(t.substitute_credit for t in self.tables)

    @cached_property
    def expected_total(self) -> int:
        """What the Scores (with the unlisted points) must add up to."""
        return self.penalties_total - self.lost_sticks + self.substitute_credit

    @cached_property
    def difference(self) -> int:
        return self.scores_total + self.unlisted_total - self.expected_total

    @cached_property
    def flagged_tables(self) -> list[TableCheck]:
        return [t for t in self.tables if not t.ok]

    @property
    def totals_ok(self) -> bool:
        return self.difference == 0

    @property
    def complete(self) -> bool:
        """Every seated table of every round has a result."""
        return not self.missing_results

    @property
    def missing_text(self) -> str:
        """The missing results in one sentence, for the download warning."""
        return "; ".join(m.text for m in self.missing_results)

    @property
    def verdict(self) -> str:
        """What the panel's heading says: never "adds up" while seated tables have no result."""
        if not self.totals_ok or self.flagged_tables:
            return gettext("does not add up")
        if not self.complete:
            return gettext("incomplete: results missing")
        return gettext("adds up")

    @property
    def ok(self) -> bool:
        """Everything adds up and every seated table has its result (a game without a round that is
        not finished is a warning only: it is in no round of the report)."""
        return self.totals_ok and not self.flagged_tables and self.complete


def _seat_names(seats: list[Seat]) -> list[str]:
    return [
        gettext("%(player)s (for %(replaced)s)")
        % {"player": s.player.display_name, "replaced": s.on_behalf_of.display_name}
        if s.on_behalf_of
        else str(s.player)
        for s in sorted(seats, key=lambda s: s.seat)
    ]


def _check_table(
    event: Event,
    game: Hanchan,
    stored: list[SeatResult],
    game_penalties: list[Penalty],
    chombo_lines: list[PenaltyLine],
) -> TableCheck:
    """Replay one finished game from its facts and compare with its stored results."""
    rules = event.rules
    seats = list(game.seats.all())
    check = TableCheck(
        hanchan_id=game.pk, label=game_label(game), players=_seat_names(seats), round_number=game.round_number
    )
    check.stored_rows = len(stored)
    check.results_sum = sum(r.result for r in stored)
    check.stored_penalties = sum(r.penalties for r in stored)
    extra = [0, 0, 0, 0]
    by_player = seats_by_player(seats)
    for penalty in game_penalties:
        seat = by_player.get(penalty.player_id)
        if seat is not None:
            extra[seat] += penalty.points
    try:
        if game.entry_mode == Hanchan.EntryMode.HANDS:
            played, hand_rows = replay_stored(game)
            if not played.hands:
                check.error = gettext("no hands recorded")
                return check
            final = played.final(extra)
            by_seat = {s.seat: s for s in seats}
            for (row, _), outcome in zip(hand_rows, played.hands, strict=True):
                for seat, points in enumerate(outcome.penalties):
                    if points:
                        chombo_lines.append(
                            PenaltyLine(
                                player=str(by_seat[seat].credited_player),
                                game=game_label(game),
                                hanchan_id=game.pk,
                                points=points,
                                kind=Penalty.Kind.CHOMBO,
                                reason=gettext("chombo in hand %(number)s") % {"number": row.number},
                                cancelled=False,
                                counted=True,
                            )
                        )
        else:
            scores = [s.final_score for s in sorted(seats, key=lambda s: s.seat)]
            if len(scores) != 4 or any(score is None for score in scores):
                check.error = gettext("final scores missing")
                return check
            final = engine.final_result(scores, game.final_sticks, extra, rules)  # type: ignore[arg-type]
    except ValidationError as exc:
        check.error = gettext("cannot be replayed: %(error)s") % {"error": " ".join(exc.messages)}
        return check
    check.penalties = sum(final.penalties)
    check.lost_sticks = 4 * rules.start_points - sum(final.scores)
    expected = list(final.results)
    for seat in seats:
        expected[seat.seat] = credited_result(
            event, played=final.results[seat.seat], substitute=seat.on_behalf_of_id is not None
        )
        check.substitute_credit += expected[seat.seat] - final.results[seat.seat]
    credited = {s.seat: s.credited_player.pk for s in seats}
    for row in stored:
        known = row.seat in credited and row.player_id == credited[row.seat]
        if not known or row.result != expected[row.seat]:
            check.mismatched_seats.append(wind_name(row.seat))
    return check


def reconcile(event: Event, *, export: EmaResultsExport | None = None) -> Reconciliation:
    """The reconciliation of ``event``'s EMA report (pass the export when it is already built)."""
    export = export or EmaResultsExport(event)
    games = list(
        Hanchan.objects.filter(event=event)
        .exclude(status=Hanchan.Status.VOID)
        .prefetch_related("seats__player", "seats__on_behalf_of")
        .order_by("round_number", "table_number", "pk")
    )
    for game in games:
        game.event = event  # one ruleset for all, no query per game
    finished = {g.pk: g for g in games if g.status == Hanchan.Status.FINISHED}

    stored: dict[int, list[SeatResult]] = defaultdict(list)
    for row in SeatResult.objects.filter(hanchan__in=list(finished)).order_by("hanchan", "seat"):
        stored[row.hanchan_id].append(row)

    all_penalties = list(
        Penalty.objects.filter(event=event).select_related("player", "hanchan").order_by("created_at", "pk")
    )
    per_game: dict[int, list[Penalty]] = defaultdict(list)
    lines: list[PenaltyLine] = []
    for penalty in all_penalties:
        counted = not penalty.cancelled
        if penalty.hanchan_id is not None:
            game = finished.get(penalty.hanchan_id)
            if game is None or penalty.player_id not in seats_by_player(game.seats.all()):
                counted = False  # not in any stored result: the game is not finished (or void)
            elif counted:
                per_game[penalty.hanchan_id].append(penalty)
        lines.append(
            PenaltyLine(
                player=str(penalty.player),
                game=game_label(penalty.hanchan) if penalty.hanchan else gettext("event"),
                hanchan_id=penalty.hanchan_id,
                points=penalty.points,
                kind=penalty.kind,
                reason=penalty.reason_text,
                cancelled=penalty.cancelled,
                counted=counted,
                cancelled_reason=penalty.cancelled_reason_text,
            )
        )

    chombo_lines: list[PenaltyLine] = []
    tables = [
        _check_table(event, game, stored.get(pk, []), per_game.get(pk, []), chombo_lines)
        for pk, game in finished.items()
    ]
    unfinished = [
        Unfinished(g.pk, game_label(g), _seat_names(list(g.seats.all())))
        for g in games
        if g.status == Hanchan.Status.IN_PROGRESS
    ]
    return Reconciliation(
        scores_total=sum(r.score for r in export.rows),
        unlisted_total=sum(r.points for r in export.unlisted),
        unlisted=[(r.name, r.points) for r in export.unlisted],
        tables=tables,
        penalties=chombo_lines + lines,
        unfinished=unfinished,
        substitute_fixed=event.substitute_credit == Event.SubstituteCredit.FIXED,
        missing_results=missing_results(games),
    )


@dataclass
class StageCheck:
    """The tables of one stage in the reconciliation: how many finished games, how many do not add up."""

    label: str
    games: int
    flagged: int


def by_stage(event: Event, check: Reconciliation) -> list[StageCheck]:
    """Each stage's share of the table checks (empty for an event of one stage: the totals say it all).
    A game's stage is read from its round number, as everywhere (``tournaments.stages``)."""
    found = stages.stages_of(event)
    if len(found) < 2:
        return []
    out = []
    for stage in found:
        tables = [
            t for t in check.tables if stages.stage_of_round(found, t.round_number or 0).order == stage.order
        ]
        out.append(
            StageCheck(label=stage.label, games=len(tables), flagged=sum(1 for t in tables if not t.ok))
        )
    return out
