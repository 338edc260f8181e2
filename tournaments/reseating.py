"""Late changes on the day: reseat every round from round N on after a late arrival, a drop-out or with
one table fewer, keeping the rounds already played exactly as they were.

:func:`plan_reseat` computes the new seating and its quality beside the current one without writing
anything (the organiser's preview); :func:`reseat_remaining` writes the same plan in one transaction,
with the seating invariant checked and a history entry, after making sure it is still the plan that was
previewed. The seating itself is :func:`tournaments.seating.reseat_remaining` (pure Python).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.db.models.deletion import ProtectedError, RestrictedError
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from league.models import Event, Hanchan, Player, Registration, Seat
from scoring.services import history
from scoring.services.hanchan import default_played_on
from tournaments import seating
from tournaments.services import _check_round_invariant, _faults, _lock, _seat_pool, _unplayed

MAX_TABLES = 250
"""More tables than any tournament seats: the bound on the organiser's table count."""

RESEAT_ITERATIONS = 4_000
"""Tabu-search steps for a reseating: it runs while the organiser waits for the preview (a few seconds
at most), and the current plan, adapted, is already one of its starting points."""


@dataclass(frozen=True)
class ReseatPlan:
    """A proposed reseating of rounds ``from_round .. last_round``.

    ``rounds[i][t]`` are the four players (seat order East, South, West, North) of table ``t + 1`` in
    round ``from_round + i``. ``current`` and ``proposed`` measure the whole event (played rounds plus
    the current or the new remaining rounds) for the registered players, so the two can be compared;
    ``digest`` identifies the plan, so that accepting it writes what was previewed.
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
    changes: list[str] = field(default_factory=list)


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


def plan_reseat(
    *,
    event: Event,
    from_round: int,
    drop: Player | None = None,
    tables: int | None = None,
    seed: int | None = None,
) -> ReseatPlan:
    """The new seating of rounds ``from_round`` on, without writing anything.

    Everyone registered and still playing is seated, so a late arrival is seated once registered; a
    player to ``drop`` is left out. ``tables`` is the number of tables from ``from_round`` on (default:
    as few as seat everyone); empty seats go to registered substitutes. The rounds from ``from_round`` on
    must all be without results; the rounds before are kept as they are and their meetings count.
    """
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
    dropped: list[Player] = []
    if drop is not None:
        if all(p.pk != drop.pk for p in players):
            raise ValidationError(
                {"drop": _("%(player)s is not a player still in the tournament.") % {"player": drop}}
            )
        players = [p for p in players if p.pk != drop.pk]
        dropped = [drop]
    if len(players) < seating.TABLE_SIZE:
        raise ValidationError(_("At least four players must remain to seat a round."))
    needed = -(-len(players) // seating.TABLE_SIZE)
    current_tables = len(rounds[from_round])
    if tables is None:
        tables = needed
    if not needed <= tables <= MAX_TABLES:
        raise ValidationError(
            {
                "tables": ngettext(
                    "%(players)s players need at least %(needed)s table (and at most %(most)s).",
                    "%(players)s players need at least %(needed)s tables (and at most %(most)s).",
                    needed,
                )
                % {"players": len(players), "needed": needed, "most": MAX_TABLES}
            }
        )
    empty = tables * seating.TABLE_SIZE - len(players)
    if empty > len(substitutes):
        raise ValidationError(
            ngettext(
                "%(tables)s tables leave %(empty)s seat empty: register %(missing)s more substitute.",
                "%(tables)s tables leave %(empty)s seats empty: register %(missing)s more substitutes.",
                empty - len(substitutes),
            )
            % {"tables": tables, "empty": empty, "missing": empty - len(substitutes)}
        )
    substitutes = substitutes[:empty]

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
    try:
        result = seating.reseat_remaining(
            played,
            still_in,
            last_round - from_round + 1,
            n_players=n_players,
            tables=tables,
            planned=current,
            seed=event.seating_seed if seed is None else seed,
            iterations=RESEAT_ITERATIONS,
        )
    except ValueError as exc:
        raise ValidationError(_("The rounds cannot be reseated: %(error)s.") % {"error": exc}) from None
    by_index = {index[p.pk]: p for p in players}
    named = [
        [[by_index[i] if i < n_players else substitutes[i - n_players] for i in table] for table in round_]
        for round_ in result.rounds
    ]
    among = still_in
    changes = []
    if dropped:
        changes.append(_("%(player)s drops out") % {"player": dropped[0]})
    if tables != current_tables:
        changes.append(_("%(before)s tables become %(after)s") % {"before": current_tables, "after": tables})
    seated_now = {pk for n in rounds if n >= from_round for table in rounds[n] for pk in table}
    for player in players:
        if player.pk not in seated_now:
            changes.append(_("%(player)s joins") % {"player": player})
    digest = hashlib.sha256(
        repr([from_round, [[[p.pk for p in t] for t in r] for r in named]]).encode()
    ).hexdigest()[:16]
    return ReseatPlan(
        from_round=from_round,
        last_round=last_round,
        tables=tables,
        players=players,
        dropped=dropped,
        substitutes=substitutes,
        rounds=named,
        current=seating.event_quality(played, current, n_players, among=among),
        proposed=result.event_quality,
        digest=digest,
        changes=changes,
    )


@transaction.atomic
def reseat_remaining(
    *,
    event: Event,
    from_round: int,
    user: Any,
    reason: str,
    drop: Player | None = None,
    tables: int | None = None,
    seed: int | None = None,
    digest: str | None = None,
) -> ReseatPlan:
    """Write :func:`plan_reseat`'s plan: the tables of rounds ``from_round`` on are reseated (tables
    added or removed to match ``tables``), a dropped player's registration is marked dropped out.

    With ``digest`` (the preview's), the plan computed now must be the one previewed, or nothing is
    written: a result entered or a player registered in between changes it. The seating invariant is
    checked for every round concerned before the transaction commits, and the change is recorded in the
    event's history with the quality before and after.
    """
    if not reason.strip():
        raise ValidationError({"reason": _("Say why the rounds are reseated.")})
    _lock(event)
    plan = plan_reseat(event=event, from_round=from_round, drop=drop, tables=tables, seed=seed)
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
    history.log(
        event=event,
        user=user,
        action="rounds reseated",
        reason=reason,
        summary=ngettext(
            "Rounds %(first)s-%(last)s reseated (%(changes)s), %(tables)d table: repeated pairs "
            "%(pairs_before)s -> %(pairs_after)s, wind imbalance %(winds_before)s -> %(winds_after)s",
            "Rounds %(first)s-%(last)s reseated (%(changes)s), %(tables)d tables: repeated pairs "
            "%(pairs_before)s -> %(pairs_after)s, wind imbalance %(winds_before)s -> %(winds_after)s",
            plan.tables,
        )
        % {
            "first": plan.from_round,
            "last": plan.last_round,
            "changes": "; ".join(plan.changes) or _("no change"),
            "tables": plan.tables,
            "pairs_before": plan.current.repeated_pairs,
            "pairs_after": plan.proposed.repeated_pairs,
            "winds_before": plan.current.wind_imbalance,
            "winds_after": plan.proposed.wind_imbalance,
        },
    )
    return plan
