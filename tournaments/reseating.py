"""Late changes on the day: reseat every round from round N on after late arrivals, drop-outs (several
at once) or with fewer tables, keeping the rounds already played exactly as they were.

:func:`late_change_options` lists the ways out the change leaves (substitutes in, one table fewer with
players sitting out, …: :func:`tournaments.seating.ways_out`), each as a plan with what it does to the
rounds left; :func:`plan_reseat` computes one of them without writing anything (the organiser's
preview); :func:`reseat_remaining` writes the one the organiser picks in one transaction, with the
seating invariant checked and a history entry, after making sure it is still the plan that was
previewed. The seating itself is :func:`tournaments.seating.reseat_remaining` (pure Python).

Who sits out, when the tables cannot seat everyone, is :func:`tournaments.seating.sit_outs`: one to
three players a round, in turn, those who have missed the fewest rounds first. Sitting out is a *bye*:
no game, so no points, that round.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.db.models.deletion import ProtectedError, RestrictedError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext, npgettext

from league import phrases
from league.models import Event, Hanchan, Player, Registration, Seat
from scoring.services import history
from scoring.services.hanchan import default_played_on
from tournaments import seating, teams
from tournaments.services import _check_round_invariant, _faults, _lock, _seat_pool, _unplayed

MAX_TABLES = 250
"""More tables than any tournament seats: the bound on the organiser's table count."""

RESEAT_ITERATIONS = 4_000
"""Tabu-search steps for a reseating: it runs while the organiser waits for the preview (a few seconds
at most for every way out together), and the current plan, adapted, is already one of its starting
points."""


def _names(players: Sequence[Player]) -> str:
    return ", ".join(str(p) for p in players)


# What the history says of a reseating (stored as phrases: shown in the reader's language).
TABLES_BECOME = phrases.ngettext_lazy(
    "%(before)s table becomes %(after)s", "%(before)s tables become %(after)s", "before"
)
SIT_OUT_EACH_ROUND = phrases.ngettext_lazy(
    "%(count)d player sits out each round", "%(count)d players sit out each round", "count"
)
RESEATED = phrases.ngettext_lazy(
    "Rounds %(first)s-%(last)s reseated (%(changes)s), %(tables)d table: repeated pairs "
    "%(pairs_before)s -> %(pairs_after)s, wind imbalance %(winds_before)s -> %(winds_after)s",
    "Rounds %(first)s-%(last)s reseated (%(changes)s), %(tables)d tables: repeated pairs "
    "%(pairs_before)s -> %(pairs_after)s, wind imbalance %(winds_before)s -> %(winds_after)s",
    "tables",
)

@dataclass(frozen=True)
class ReseatPlan:
    """A proposed reseating of rounds ``from_round .. last_round``: one way out of a late change.

    ``rounds[i][t]`` are the four players (seat order East, South, West, North) of table ``t + 1`` in
    round ``from_round + i``; ``byes[i]`` who sits out that round (empty unless the tables cannot seat
    everyone). ``current`` and ``proposed`` measure the whole event (played rounds plus the current or
    the new remaining rounds) for the registered players, so the two can be compared; ``digest``
    identifies the plan, so that accepting it writes what was previewed.
    """

    from_round: int
    last_round: int
    tables: int
    players: list[Player]
    dropped: list[Player]
    substitutes: list[Player]
    rounds: list[list[list[Player]]]
    current: seating.Quality
    proposed: seating.Quality
    digest: str
    changes: list[phrases.Phrase] = field(default_factory=list)
    current_tables: int = 0
    joining: list[Player] = field(default_factory=list)
    byes: list[list[Player]] = field(default_factory=list)

    @property
    def byes_per_round(self) -> int:
        return len(self.byes[0]) if self.byes else 0

    @property
    def change(self) -> str:
        """Whether this way out seats the "same" number of tables as the rounds left have now, "fewer"
        or "more"."""
        return seating.WayOut(self.tables, len(self.substitutes), self.byes_per_round).change(
            self.current_tables
        )

    @property
    def choice(self) -> str:
        """What the organiser's pick sends back: the table count and the plan's digest."""
        return f"{self.tables}:{self.digest}"

    @property
    def title(self) -> str:
        """The way out in a few words, as the organiser picks it."""
        tables, before = self.tables, self.current_tables
        if self.change == "same":
            if self.substitutes:
                return ngettext(
                    "Substitutes in: keep the %(tables)d table",
                    "Substitutes in: keep the %(tables)d tables",
                    tables,
                ) % {"tables": tables}
            return ngettext("Keep the %(tables)d table", "Keep the %(tables)d tables", tables) % {
                "tables": tables
            }
        if self.change == "fewer":
            return ngettext(
                "Fewer tables: %(tables)d table instead of %(before)d",
                "Fewer tables: %(tables)d tables instead of %(before)d",
                tables,
            ) % {"tables": tables, "before": before}
        return ngettext(
            "More tables: %(tables)d table instead of %(before)d",
            "More tables: %(tables)d tables instead of %(before)d",
            tables,
        ) % {"tables": tables, "before": before}

    @property
    def effects(self) -> list[str]:
        """What this way out does to the rounds left, sentence by sentence (the page lists them)."""
        first, last = self.from_round, self.last_round
        said = [
            ngettext(
                "Rounds %(first)d to %(last)d: %(tables)d table a round.",
                "Rounds %(first)d to %(last)d: %(tables)d tables a round.",
                self.tables,
            )
            % {"first": first, "last": last, "tables": self.tables}
        ]
        if self.tables < self.current_tables:
            said.append(
                ngettext(
                    "Table %(tables)s of each of these rounds is removed.",
                    "Tables %(tables)s of each of these rounds are removed.",
                    self.current_tables - self.tables,
                )
                % {"tables": ", ".join(str(t) for t in range(self.tables + 1, self.current_tables + 1))}
            )
        if self.substitutes:
            said.append(
                ngettext(
                    "%(count)d substitute plays every round left: %(names)s.",
                    "%(count)d substitutes play every round left: %(names)s.",
                    len(self.substitutes),
                )
                % {"count": len(self.substitutes), "names": _names(self.substitutes)}
            )
        if self.byes_per_round:
            said.append(
                ngettext(
                    "%(count)d player sits out each round left, in turn: a bye, no game and so no points "
                    "that round.",
                    "%(count)d players sit out each round left, in turn: a bye, no game and so no points "
                    "that round.",
                    self.byes_per_round,
                )
                % {"count": self.byes_per_round}
            )
        repeats = self.proposed.repeated_pairs - self.current.repeated_pairs
        if repeats > 0:
            said.append(
                ngettext(
                    "%(count)d more repeated opponent pair over the event than now.",
                    "%(count)d more repeated opponent pairs over the event than now.",
                    repeats,
                )
                % {"count": repeats}
            )
        return said

    @property
    def numbered(self) -> list[tuple[int, list[list[Player]], list[Player]]]:
        """Each round left as (number, tables, who sits out), for the page."""
        byes = self.byes or [[] for _ in self.rounds]
        return [
            (self.from_round + i, tables, out)
            for i, (tables, out) in enumerate(zip(self.rounds, byes, strict=True))
        ]


def _event_rounds(event: Event) -> dict[int, list[list[int]]]:
    """Round number -> its tables' player ids in seat order (two queries)."""
    rounds: dict[int, list[list[int]]] = {}
    tables = (
        Hanchan.objects.filter(event=event, round_number__isnull=False)
        .prefetch_related("seats")
        .order_by("round_number", "table_number")
    )
    for table in tables:
        seats = sorted(table.seats.all(), key=lambda s: s.seat)
        rounds.setdefault(table.round_number, []).append([s.player_id for s in seats])
    return rounds


@dataclass(frozen=True)
class _Situation:
    """Where a late change starts from: the rounds, who is still in once ``drops`` leave, the
    substitutes who may fill seats, and the tables of the first round to reseat."""

    rounds: dict[int, list[list[int]]]
    last_round: int
    players: list[Player]
    substitutes: list[Player]
    dropped: list[Player]
    current_tables: int


def _situation(event: Event, from_round: int, drops: Sequence[Player]) -> _Situation:
    if event.kind != Event.Kind.TOURNAMENT:
        raise ValidationError(_("Only a tournament's rounds are reseated."))
    rounds = _event_rounds(event)
    if not rounds:
        raise ValidationError(_("Generate the seating before reseating rounds."))
    last_round = max(rounds)
    if not 1 <= from_round <= last_round:
        raise ValidationError({"from_round": _("Choose a round from 1 to %(last)s.") % {"last": last_round}})
    remaining = Hanchan.objects.filter(event=event, round_number__gte=from_round)
    played_table = remaining.exclude(pk__in=_unplayed(remaining)).order_by("round_number").first()
    if played_table is not None:
        raise ValidationError(
            {
                "from_round": _(
                    "Round %(round)s already has results: reseat from a later round, whose tables are "
                    "all without results."
                )
                % {"round": played_table.round_number}
            }
        )
    players, substitutes = _seat_pool(event)
    still_in = {p.pk for p in players}
    dropped: list[Player] = []
    for player in drops:
        if player.pk not in still_in:
            raise ValidationError(
                {"drops": _("%(player)s is not a player still in the tournament.") % {"player": player}}
            )
        if all(d.pk != player.pk for d in dropped):
            dropped.append(player)
    gone = {p.pk for p in dropped}
    players = [p for p in players if p.pk not in gone]
    if len(players) < seating.TABLE_SIZE:
        raise ValidationError(_("At least four players must remain to seat a round."))
    return _Situation(rounds, last_round, players, substitutes, dropped, len(rounds.get(from_round, [])))


def _too_few_tables(players: int, tables: int) -> ValidationError:
    needed = -(-(players - seating.MAX_BYES) // seating.TABLE_SIZE)
    return ValidationError(
        {
            "tables": ngettext(
                "%(players)s players need at least %(needed)s table, with at most 3 sitting out each round "
                "(and at most %(most)s tables).",
                "%(players)s players need at least %(needed)s tables, with at most 3 sitting out each round "
                "(and at most %(most)s tables).",
                needed,
            )
            % {"players": players, "needed": needed, "most": MAX_TABLES}
        }
    )


def _too_few_substitutes(tables: int, empty: int, missing: int) -> ValidationError:
    """ "At 5 tables, 3 seats stay empty: register 1 more substitute." — each count with its own plural."""
    return ValidationError(
        {
            "tables": _("At %(tables)s, %(empty)s: %(missing)s.")
            % {
                "tables": npgettext("at N tables", "%(count)d table", "%(count)d tables", tables)
                % {"count": tables},
                "empty": ngettext("%(count)d seat stays empty", "%(count)d seats stay empty", empty)
                % {"count": empty},
                "missing": ngettext(
                    "register %(count)d more substitute, or seat fewer tables",
                    "register %(count)d more substitutes, or seat fewer tables",
                    missing,
                )
                % {"count": missing},
            }
        }
    )


def plan_reseat(
    *,
    event: Event,
    from_round: int,
    drops: Sequence[Player] = (),
    tables: int | None = None,
    seed: int | None = None,
) -> ReseatPlan:
    """The new seating of rounds ``from_round`` on, without writing anything.

    Everyone registered and still playing is seated, so a late arrival is seated once registered; the
    players in ``drops`` are left out. ``tables`` is the number of tables from ``from_round`` on
    (default: as few as seat everyone). Empty seats go to registered substitutes; with fewer seats than
    players, one to three players sit out each round in turn (:func:`tournaments.seating.sit_outs`).
    The rounds from ``from_round`` on must all be without results; the rounds before are kept as they
    are and their meetings count.
    """
    found = _situation(event, from_round, drops)
    rounds, players, substitutes = found.rounds, found.players, found.substitutes
    if tables is None:
        tables = -(-len(players) // seating.TABLE_SIZE)
    seats = tables * seating.TABLE_SIZE
    if not 1 <= tables <= MAX_TABLES or len(players) - seats > seating.MAX_BYES:
        raise _too_few_tables(len(players), tables)
    empty = max(0, seats - len(players))
    if empty > len(substitutes):
        raise _too_few_substitutes(tables, empty, empty - len(substitutes))
    substitutes = substitutes[:empty]
    byes = max(0, len(players) - seats)

    # Indices: the registered players (still in or not) first, as the pure module's "real" players;
    # anyone else seated in a played round (a substitute) after them, so quality leaves them out.
    registered = list(
        Registration.objects.filter(event=event, is_substitute=False).values_list("player_id", flat=True)
    )
    index: dict[int, int] = {pk: i for i, pk in enumerate(sorted(set(registered)))}
    n_players = len(index)
    extra: dict[int, int] = {}

    def code(pk: int) -> int:
        if pk in index:
            return index[pk]
        return extra.setdefault(pk, n_players + len(extra))

    played = [[[code(pk) for pk in table] for table in rounds[n]] for n in sorted(rounds) if n < from_round]
    current = [[[code(pk) for pk in table] for table in rounds[n]] for n in sorted(rounds) if n >= from_round]
    still_in = [index[p.pk] for p in players]
    n_rounds = found.last_round - from_round + 1
    seed = event.seating_seed if seed is None else seed
    sit_out = None
    if byes:
        # Rounds already missed (a late arrival's first rounds, earlier byes) count: they sit out last.
        missed = {p: sum(all(p not in table for table in round_) for round_ in played) for p in still_in}
        sit_out = seating.sit_outs(still_in, byes, n_rounds, missed=missed, seed=seed)
    groups = teams.indexed_groups(event, index)  # teammates kept apart in the new rounds
    try:
        result = seating.reseat_remaining(
            played,
            still_in,
            n_rounds,
            n_players=n_players,
            tables=tables,
            planned=current if not byes else None,
            seed=seed,
            iterations=RESEAT_ITERATIONS,
            sit_out=sit_out,
            groups=groups,
        )
    except ValueError as exc:
        raise ValidationError(_("The rounds cannot be reseated: %(error)s.") % {"error": exc}) from None
    by_index = {index[p.pk]: p for p in players}
    named = [
        [[by_index[i] if i < n_players else substitutes[i - n_players] for i in table] for table in round_]
        for round_ in result.rounds
    ]
    sitting_out = [[by_index[i] for i in out] for out in sit_out] if sit_out else []
    seated_now = {pk for n in rounds if n >= from_round for table in rounds[n] for pk in table}
    joining = [p for p in players if p.pk not in seated_now]
    changes: list[phrases.Phrase] = [
        phrases.say(gettext_noop("%(player)s drops out"), player=p.display_name) for p in found.dropped
    ]
    if tables != found.current_tables:
        changes.append(phrases.say(TABLES_BECOME, before=found.current_tables, after=tables))
    changes += [phrases.say(gettext_noop("%(player)s joins"), player=p.display_name) for p in joining]
    if byes:
        changes.append(phrases.say(SIT_OUT_EACH_ROUND, count=byes))
    seated = [[[p.pk for p in table] for table in round_] for round_ in named]
    out = [[p.pk for p in round_] for round_ in sitting_out]
    digest = hashlib.sha256(repr([from_round, seated, out]).encode()).hexdigest()[:16]
    return ReseatPlan(
        from_round=from_round,
        last_round=found.last_round,
        tables=tables,
        players=players,
        dropped=found.dropped,
        substitutes=substitutes,
        rounds=named,
        current=seating.event_quality(played, current, n_players, among=still_in, groups=groups),
        proposed=result.event_quality,
        digest=digest,
        changes=changes,
        current_tables=found.current_tables,
        joining=joining,
        byes=sitting_out,
    )


def late_change_options(*, event: Event, from_round: int, drops: Sequence[Player] = ()) -> list[ReseatPlan]:
    """Every way out of the late change (``drops`` leave; late arrivals are the players registered but
    not seated): the plans of :func:`tournaments.seating.ways_out` for the players still in, the
    registered substitutes and the tables the rounds left have now, most tables first. Writes nothing.

    Refused, naming the rule, as :func:`plan_reseat` refuses (a round with results, fewer than four
    players left, someone in ``drops`` who is not a player still in)."""
    found = _situation(event, from_round, drops)
    ways = seating.ways_out(len(found.players), len(found.substitutes), found.current_tables)
    return [
        plan_reseat(event=event, from_round=from_round, drops=found.dropped, tables=way.tables)
        for way in ways
    ]


@transaction.atomic
def reseat_remaining(
    *,
    event: Event,
    from_round: int,
    user: Any,
    reason: str,
    drops: Sequence[Player] = (),
    tables: int | None = None,
    seed: int | None = None,
    digest: str | None = None,
) -> ReseatPlan:
    """Write :func:`plan_reseat`'s plan — the way out the organiser picked: the tables of rounds
    ``from_round`` on are reseated (tables added or removed to match ``tables``; players sitting out a
    round have no seat in it), and the registrations of the players in ``drops`` are marked dropped
    out, all in this one transaction.

    With ``digest`` (the preview's), the plan computed now must be the one previewed, or nothing is
    written: a result entered or a player registered in between changes it. The seating invariant is
    checked for every round concerned before the transaction commits, and the change is recorded in the
    event's history with the quality before and after.
    """
    if not reason.strip():
        raise ValidationError({"reason": _("Say why the rounds are reseated.")})
    _lock(event)
    plan = plan_reseat(event=event, from_round=from_round, drops=drops, tables=tables, seed=seed)
    if digest is not None and digest != plan.digest:
        raise ValidationError(
            _(
                "The seating or the players changed since the preview: nothing was changed. Look at the "
                "new preview before accepting."
            )
        )
    numbers = list(range(plan.from_round, plan.last_round + 1))
    before = _faults(event, numbers)
    existing = {
        (h.round_number, h.table_number): h
        for h in Hanchan.objects.filter(event=event, round_number__in=numbers).order_by("table_number")
    }
    template = next(iter(existing.values()))
    surplus = [h.pk for (r, t), h in existing.items() if t > plan.tables]
    Seat.objects.filter(hanchan__event=event, hanchan__round_number__in=numbers).delete()
    try:
        Hanchan.objects.filter(pk__in=surplus).delete()
    except (ProtectedError, RestrictedError):
        raise ValidationError(
            _("A table to remove has penalties attached, which are kept for the record: nothing was changed.")
        ) from None
    played_on = default_played_on(event)
    seats: list[Seat] = []
    touched: list[int] = []
    for number, round_ in zip(numbers, plan.rounds, strict=True):
        for table_number, table in enumerate(round_, start=1):
            hanchan = existing.get((number, table_number))
            if hanchan is None:
                hanchan = Hanchan.objects.create(
                    event=event,
                    round_number=number,
                    table_number=table_number,
                    entry_mode=template.entry_mode,
                    entered_by=user,
                    played_on=played_on,
                )
            touched.append(hanchan.pk)
            seats += [Seat(hanchan=hanchan, seat=s, player=p) for s, p in enumerate(table)]
    Seat.objects.bulk_create(seats)
    Hanchan.objects.filter(pk__in=touched).update(version=F("version") + 1)
    if plan.dropped:
        Registration.objects.filter(event=event, player__in=plan.dropped).update(dropped_out=True)
    _check_round_invariant(event, numbers, before=before)
    said = list(plan.changes)
    if plan.substitutes:
        said.append(phrases.say(gettext_noop("substitutes: %(names)s"), names=_names(plan.substitutes)))
    history.log(
        event=event,
        user=user,
        action="rounds reseated",
        reason=reason,
        before={"tables": plan.current_tables},
        after={
            "tables": plan.tables,
            "dropped": [p.pk for p in plan.dropped],
            "substitutes": [p.pk for p in plan.substitutes],
            "byes": {str(number): [p.pk for p in out] for number, _tables, out in plan.numbered if out},
        },
        summary=phrases.say(
            RESEATED,
            first=plan.from_round,
            last=plan.last_round,
            changes=phrases.joined(*said) if said else phrases.say(gettext_noop("no change")),
            tables=plan.tables,
            pairs_before=plan.current.repeated_pairs,
            pairs_after=plan.proposed.repeated_pairs,
            winds_before=plan.current.wind_imbalance,
            winds_after=plan.proposed.wind_imbalance,
        ),
    )
    return plan
