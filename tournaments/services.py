"""Tournaments: seat every round at once, swap players, replace a player who drops out.

A round's tables are hanchans created ahead of play with their seats (round and table numbers set, no
result yet): the schedule is the games themselves, so the score slips, the result entry and the
standings all read the same rows. Only tables without any result can be reseated.

Every service here that writes seats keeps one invariant, checked by :func:`_check_round_invariant`
inside its own transaction before it commits: each player sits at most once per round, four players per
table. Whatever the forms offer, a change that would break it is refused and rolled back, and every
foreseeable failure (a seating ``ValueError``, protected rows, played tables) is a ``ValidationError``
the pages show, never a server error.

Teammates (``tournaments.teams``) never share a table: the seating is drawn with the teams as
``groups``, and a swap or a replacement that would seat more teammates together in a round is refused
(:func:`tournaments.teams.check_teammates_apart`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count, F, Q
from django.db.models.deletion import ProtectedError, RestrictedError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext, pgettext

from league import phrases
from league.models import Event, Hanchan, Player, Registration, Seat
from scoring.services import history
from scoring.services.hanchan import default_played_on
from tournaments import seating, signals, teams
from tournaments.models import Stage

MAX_ROUNDS = 33
"""The most rounds a tournament is seated for: the longest schedule without a repeated opponent that the
organisers' guide promises (100 players; 21 for 64), so every round count it quotes can be asked for.
A schedule that long takes a few seconds at most (bench/seating.py)."""

# A breach of "each player at most once per round, four players per table": ("twice", round, player id)
# or ("size", round, table number), mapped to the number of seats concerned.
Fault = tuple[str, int, int]


def _unplayed(hanchans: Any) -> Any:
    """Tables with no result at all: no hand, no final score, not finished or void."""
    return (
        hanchans.filter(status=Hanchan.Status.IN_PROGRESS, hands__isnull=True)
        .exclude(seats__final_score__isnull=False)
        .distinct()
    )


def _seat_pool(event: Event) -> tuple[list[Player], list[Player]]:
    """The players to seat (registered, not dropped out) and the substitutes who may fill tables."""
    registrations = Registration.objects.filter(
        event=event,
        dropped_out=False,
        withdrawn_at__isnull=True,  # a withdrawn player is never seated again
    ).select_related("player")
    players = [r.player for r in registrations if not r.is_substitute]
    substitutes = [r.player for r in registrations if r.is_substitute]
    return sorted(players, key=lambda p: p.pk), sorted(substitutes, key=lambda p: p.pk)


def _lock(event: Event) -> None:
    """Serialise the seating changes of one event: the invariant is checked on what this transaction
    sees, so two replacements made at the same moment must not both pass the check and both commit."""
    list(Event.objects.select_for_update(no_key=True).filter(pk=event.pk).values_list("pk", flat=True))


def _faults(event: Event, rounds: Iterable[int] | None = None) -> dict[Fault, int]:
    """Every breach of the seating invariant in ``rounds`` (every round when None). Two queries.

    Void tables count too: their seats are rows like any other, and letting a player sit twice "because
    one table is void" would break again as soon as the table is reopened.
    """
    seats = Seat.objects.filter(hanchan__event=event, hanchan__round_number__isnull=False)
    tables = Hanchan.objects.filter(event=event, round_number__isnull=False)
    if rounds is not None:
        rounds = sorted(set(rounds))
        seats = seats.filter(hanchan__round_number__in=rounds)
        tables = tables.filter(round_number__in=rounds)
    faults: dict[Fault, int] = {}
    twice = (
        seats.values("hanchan__round_number", "player_id")
        .annotate(n=Count("pk"))
        .filter(n__gt=1)
        .values_list("hanchan__round_number", "player_id", "n")
    )
    for number, player_id, n in twice:
        faults["twice", number, player_id] = n
    sizes = (
        tables.annotate(n=Count("seats"))
        .exclude(n=seating.TABLE_SIZE)
        .values_list("round_number", "table_number", "n")
    )
    for number, table_number, n in sizes:
        faults["size", number, table_number or 0] = n
    return faults


def _describe(event: Event, faults: dict[Fault, int]) -> list[str]:
    """Each fault in words, naming the player, the tables and the round (one query for the names)."""
    twice = [(number, pk) for kind, number, pk in faults if kind == "twice"]
    tables: dict[tuple[int, int], list[int]] = defaultdict(list)
    names: dict[int, str] = {}
    if twice:
        rows = (
            Seat.objects.filter(
                hanchan__event=event,
                hanchan__round_number__in={n for n, _pk in twice},
                player_id__in={pk for _n, pk in twice},
            )
            .order_by("hanchan__round_number", "hanchan__table_number")
            .values_list(
                "hanchan__round_number", "hanchan__table_number", "player_id", "player__display_name"
            )
        )
        for number, table_number, pk, name in rows:
            tables[number, pk].append(table_number)
            names[pk] = name
    lines = []
    for (kind, number, key), n in sorted(faults.items(), key=lambda item: (item[0][1], *item[0])):
        if kind == "twice":
            lines.append(
                _("%(player)s is seated %(times)s times in round %(round)s (tables %(tables)s).")
                % {
                    "player": names.get(key, key),
                    "times": n,
                    "round": number,
                    "tables": ", ".join(str(t) for t in tables[number, key]),
                }
            )
        else:
            lines.append(
                ngettext(
                    "Table %(table)s of round %(round)s has %(count)s seat instead of four.",
                    "Table %(table)s of round %(round)s has %(count)s seats instead of four.",
                    n,
                )
                % {"table": key, "round": number, "count": n}
            )
    return lines


def _worse(before: dict[Fault, int], after: dict[Fault, int]) -> dict[Fault, int]:
    """The faults in ``after`` that ``before`` did not have, or had less badly."""

    def distance(fault: Fault, n: int) -> int:
        return n - 1 if fault[0] == "twice" else abs(n - seating.TABLE_SIZE)

    return {
        fault: n
        for fault, n in after.items()
        if fault not in before or distance(fault, n) > distance(fault, before[fault])
    }


def _check_round_invariant(
    event: Event, rounds: Iterable[int] | None, *, before: dict[Fault, int] | None = None
) -> None:
    """Refuse (and so roll back the enclosing transaction) any seating change that leaves a player
    seated twice in a round or a table without exactly four players.

    Run by every service that writes tournament seats, inside its transaction, after its writes: the
    form only offers valid choices, but the database is the one place that sees every change. Faults
    already in ``before`` (data broken before this check existed) are tolerated as long as the change
    does not make them worse, so that a swap or replacement that repairs them stays possible.
    """
    worse = _worse(before or {}, _faults(event, rounds))
    if worse:
        raise ValidationError(
            _(
                "Refused, nothing was changed: each player sits at most once per round, four per "
                "table. %(faults)s"
            )
            % {"faults": " ".join(_describe(event, worse))}
        )


def seating_faults(event: Event) -> list[str]:
    """The seating faults of every round in words, for the organisers' page (at most three queries).

    Empty unless the data was broken before the services checked the seating (or by hand): the page
    reports them so that they can be repaired with a replacement at one table.
    """
    faults = _faults(event)
    return _describe(event, faults) if faults else []


def next_open_round(event: Event) -> int | None:
    """The first round with a table that has no result yet: the usual first round of a replacement."""
    tables = _unplayed(Hanchan.objects.filter(event=event, round_number__isnull=False))
    return min(tables.values_list("round_number", flat=True), default=None)


def eligible_substitutes(event: Event, *, from_round: int | None = None) -> Any:
    """Who may take over seats from ``from_round`` (default: the next open round) on: registered, not
    dropped out, and not seated in any round from then on that still has a table without a result."""
    from_round = next_open_round(event) if from_round is None else from_round
    rounds = (
        _unplayed(Hanchan.objects.filter(event=event, round_number__gte=from_round or 1))
        .values_list("round_number", flat=True)
        .distinct()
    )
    seated = Seat.objects.filter(hanchan__event=event, hanchan__round_number__in=list(rounds))
    return (
        Player.objects.filter(
            registrations__event=event,
            registrations__dropped_out=False,
            registrations__withdrawn_at__isnull=True,
        )
        .exclude(pk__in=seated.values("player_id"))
        .order_by("display_name")
    )


@transaction.atomic
def seat_tournament(
    *,
    event: Event,
    rounds: int,
    user: Any,
    seed: int | None = None,
    entry_mode: str = Hanchan.EntryMode.FINAL_SCORES,
) -> list[Hanchan]:
    """Generate the seating of every round (no repeated opponents where possible, winds balanced).

    Refused once any table has a result: reseat later rounds with :func:`swap_players` instead.
    """
    if event.kind != Event.Kind.TOURNAMENT:
        raise ValidationError(_("Seating is generated for tournaments; league games are started one by one."))
    if not 1 <= rounds <= MAX_ROUNDS:
        raise ValidationError(
            {"rounds": _("A tournament has between 1 and %(most)s rounds.") % {"most": MAX_ROUNDS}}
        )
    _lock(event)
    later = Stage.objects.filter(event=event, order__gt=1).order_by("order").first()
    if later is not None and rounds >= later.first_round:
        # The rounds of a later stage (tournaments.stages) are seated by that stage, with its players.
        raise ValidationError(
            {
                "rounds": _(
                    "The first stage has at most %(most)s rounds: round %(next)s starts the next stage."
                )
                % {"most": later.first_round - 1, "next": later.first_round}
            }
        )
    tables = Hanchan.objects.filter(event=event, round_number__isnull=False)
    if tables.exclude(pk__in=_unplayed(tables)).exists():
        raise ValidationError(
            _("Some tables already have results: the seating can no longer be regenerated.")
        )
    players, substitutes = _seat_pool(event)
    if len(players) < 4:
        raise ValidationError(_("Register at least four players before seating the tournament."))
    needed = seating.padded_count(len(players)) - len(players)
    if needed > len(substitutes):
        missing = needed - len(substitutes)
        raise ValidationError(
            ngettext(
                "%(players)d players do not fill tables of four: register %(missing)d more substitute "
                "(or players).",
                "%(players)d players do not fill tables of four: register %(missing)d more substitutes "
                "(or players).",
                missing,
            )
            % {"players": len(players), "missing": missing}
        )
    pool = players + substitutes[:needed]
    seed = event.seating_seed if seed is None else seed
    groups = teams.indexed_groups(event, {p.pk: i for i, p in enumerate(pool)})  # teammates kept apart
    try:
        schedule = seating.generate(len(pool), rounds, seed=seed, groups=groups)
    except ValueError as exc:
        raise ValidationError(_("The seating cannot be generated: %(error)s.") % {"error": exc}) from None
    try:
        tables.delete()
    except (ProtectedError, RestrictedError):
        raise ValidationError(
            _(
                "Some tables without a result have penalties attached, which are kept for the record: "
                "the seating can no longer be regenerated. Swap players or reseat rounds by the "
                "standings instead."
            )
        ) from None
    created: list[Hanchan] = []
    seats: list[Seat] = []
    played_on = default_played_on(event)  # within the event's dates: seated ahead, played on its days
    for round_index, round_tables in enumerate(schedule.rounds, start=1):
        for table_index, table in enumerate(round_tables, start=1):
            hanchan = Hanchan.objects.create(
                event=event,
                round_number=round_index,
                table_number=table_index,
                entry_mode=entry_mode,
                entered_by=user,
                played_on=played_on,
            )
            created.append(hanchan)
            seats += [Seat(hanchan=hanchan, seat=s, player=pool[i]) for s, i in enumerate(table)]
    Seat.objects.bulk_create(seats)
    _check_round_invariant(event, None)
    if event.seating_seed != seed:
        event.seating_seed = seed
        event.save(update_fields=["seating_seed"])
    q = seating.quality(schedule, len(pool), groups=groups)
    if q.perfect_winds:
        winds = phrases.say(gettext_noop("winds balanced"))
    else:
        winds = phrases.say(gettext_noop("winds imbalance %(imbalance)s"), imbalance=q.wind_imbalance)
    summary = phrases.say(
        phrases.ngettext_lazy(
            "%(rounds)d round, %(seats)d seats, seed %(seed)s: %(pairs)d repeated pairs, %(winds)s",
            "%(rounds)d rounds, %(seats)d seats, seed %(seed)s: %(pairs)d repeated pairs, %(winds)s",
            "rounds",
        ),
        rounds=rounds,
        seats=len(pool),
        seed=seed,
        pairs=q.repeated_pairs,
        winds=winds,
    )
    if groups:
        summary = phrases.joined(
            summary,
            phrases.say(
                phrases.ngettext_lazy(
                    "teammates together %(count)d time", "teammates together %(count)d times", "count"
                ),
                count=q.teammates_together,
            ),
        )
    history.log(event=event, user=user, action="seating generated", summary=summary)
    signals.seating_published.send(
        sender=Event, event=event, rounds=sorted({h.round_number for h in created if h.round_number})
    )
    return created


@transaction.atomic
def swap_players(*, event: Event, round_number: int, first: Player, second: Player, user: Any) -> None:
    """Swap two players' seats in one round (both tables must be without results)."""
    if first.pk == second.pk:
        raise ValidationError(_("Choose two different players."))
    _lock(event)
    round_tables = Hanchan.objects.filter(event=event, round_number=round_number)
    # Ordered by table: a player seated twice (data broken before the checks) swaps their first seat.
    in_order = Seat.objects.filter(hanchan__in=round_tables).select_related("hanchan")
    in_order = in_order.order_by("hanchan__table_number", "seat")
    seat_a = in_order.filter(player=first).first()
    seat_b = in_order.filter(player=second).first()
    if seat_a is None or seat_b is None:
        raise ValidationError(
            _("Both players must be seated in round %(round)s: %(player)s is not.")
            % {"round": round_number, "player": first if seat_a is None else second}
        )
    unplayed = set(_unplayed(round_tables).values_list("pk", flat=True))
    if seat_a.hanchan_id not in unplayed or seat_b.hanchan_id not in unplayed:
        raise ValidationError(_("A table that already has a result cannot be reseated."))
    before = _faults(event, [round_number])
    apart = teams.together_by_round(teams.teammates_together(event, [round_number]))
    a_behalf, b_behalf = seat_a.on_behalf_of_id, seat_b.on_behalf_of_id
    # Two unique constraints (player per game, seat per game): move through a free state first.
    if seat_a.hanchan_id == seat_b.hanchan_id:
        seat_a.seat, seat_b.seat = seat_b.seat, seat_a.seat
        Seat.objects.filter(pk=seat_a.pk).update(seat=99)
        Seat.objects.filter(pk=seat_b.pk).update(seat=seat_b.seat)
        Seat.objects.filter(pk=seat_a.pk).update(seat=seat_a.seat)
    elif (
        Seat.objects.filter(hanchan_id=seat_b.hanchan_id, player=first).exists()
        or Seat.objects.filter(hanchan_id=seat_a.hanchan_id, player=second).exists()
    ):
        # Only in data broken before the checks: a player already twice in the round meets themselves.
        raise ValidationError(
            _("%(first)s and %(second)s cannot swap: one of them already sits at the other's table.")
            % {"first": first, "second": second}
        )
    else:
        Seat.objects.filter(pk=seat_a.pk).update(player=second, on_behalf_of=b_behalf)
        Seat.objects.filter(pk=seat_b.pk).update(player=first, on_behalf_of=a_behalf)
    for hanchan_id in {seat_a.hanchan_id, seat_b.hanchan_id}:
        Hanchan.objects.filter(pk=hanchan_id).update(version=F("version") + 1)
    _check_round_invariant(event, [round_number], before=before)
    teams.check_teammates_apart(event, [round_number], apart)
    history.log(
        event=event,
        user=user,
        action="players swapped",
        summary=phrases.say(
            gettext_noop("Round %(round)s: %(first)s and %(second)s swapped seats"),
            round=round_number,
            first=str(first),
            second=str(second),
        ),
    )


@transaction.atomic
def replace_player(
    *,
    event: Event,
    player: Player,
    substitute: Player,
    from_round: int,
    user: Any,
    reason: str,
    table: int | None = None,
) -> int:
    """A player drops out: the substitute takes their seat at every table from ``from_round`` on that has
    no result yet, playing on their behalf. Returns the number of seats taken over.

    With ``table``, only the player's seat at that table of round ``from_round`` is taken over and the
    player stays in the tournament: a late arrival, or the repair of a player seated twice in a round.

    The substitute must be registered, not dropped out, and not seated in any of the rounds concerned
    (a player cannot play two tables at once); the invariant is checked again after the change.
    """
    if not reason.strip():
        raise ValidationError({"reason": _("Say why the player is replaced.")})
    if player.pk == substitute.pk:
        raise ValidationError({"substitute": _("Choose a substitute other than the player replaced.")})
    _lock(event)
    registration = Registration.objects.filter(event=event, player=player).first()
    if registration is None:
        raise ValidationError(
            {"player": _("%(player)s is not registered in %(event)s.") % {"player": player, "event": event}}
        )
    taking_over = Registration.objects.filter(event=event, player=substitute).first()
    if taking_over is None:
        raise ValidationError(
            {"substitute": _("Register %(player)s (as a substitute) first.") % {"player": substitute}}
        )
    if taking_over.withdrawn_at is not None:
        message = _("%(player)s has withdrawn from the event: choose someone still playing.") % {
            "player": substitute
        }
        raise ValidationError({"substitute": message})
    if taking_over.dropped_out:
        message = _("%(player)s has dropped out: choose someone still playing.") % {"player": substitute}
        raise ValidationError({"substitute": message})
    tables = _unplayed(Hanchan.objects.filter(event=event, round_number__gte=from_round))
    if table is not None:
        tables = tables.filter(round_number=from_round, table_number=table)
    seats = list(
        Seat.objects.filter(hanchan__in=tables, player=player)
        .select_related("hanchan")
        .order_by("hanchan__round_number", "hanchan__table_number")
    )
    if table is not None and not seats:
        raise ValidationError(
            {
                "table": _("%(player)s has no seat without a result at table %(table)s of round %(round)s.")
                % {"player": player, "table": table, "round": from_round}
            }
        )
    rounds = sorted({seat.hanchan.round_number for seat in seats})
    clash = (
        Seat.objects.filter(hanchan__event=event, hanchan__round_number__in=rounds, player=substitute)
        .select_related("hanchan")
        .order_by("hanchan__round_number", "hanchan__table_number")
        .first()
    )
    if clash is not None:
        message = _("%(player)s is already seated at table %(table)s in round %(round)s.") % {
            "player": substitute,
            "table": clash.hanchan.table_number,
            "round": clash.hanchan.round_number,
        }
        raise ValidationError({"substitute": message})
    before = _faults(event, rounds)
    apart = teams.together_by_round(teams.teammates_together(event, rounds))
    elsewhere = set()
    if table is not None:
        elsewhere = set(
            Seat.objects.filter(hanchan__event=event, hanchan__round_number=from_round, player=player)
            .exclude(pk__in=[seat.pk for seat in seats])
            .values_list("hanchan__round_number", flat=True)
        )
    for seat in seats:
        # The seat keeps counting for whoever it counted for; a player who no longer sits in that round
        # is credited, unless the substitute is that very player taking their seat back.
        behalf = seat.on_behalf_of_id
        if behalf is None and seat.hanchan.round_number not in elsewhere:
            behalf = player.pk
        seat.player = substitute
        seat.on_behalf_of_id = None if behalf == substitute.pk else behalf
    Seat.objects.bulk_update(seats, ["player", "on_behalf_of"])
    Hanchan.objects.filter(pk__in={seat.hanchan_id for seat in seats}).update(version=F("version") + 1)
    _check_round_invariant(event, rounds, before=before)
    teams.check_teammates_apart(event, rounds, apart)
    if table is None:
        registration.dropped_out = True
        registration.save(update_fields=["dropped_out"])
    names = {"substitute": str(substitute), "player": str(player), "round": from_round, "count": len(seats)}
    if table is not None:
        summary = phrases.say(
            phrases.ngettext_lazy(
                "%(substitute)s replaces %(player)s at table %(table)s of round %(round)s (%(count)d table)",
                "%(substitute)s replaces %(player)s at table %(table)s of round %(round)s (%(count)d tables)",
                "count",
            ),
            table=table,
            **names,
        )
    else:
        summary = phrases.say(
            phrases.ngettext_lazy(
                "%(substitute)s replaces %(player)s from round %(round)s (%(count)d table)",
                "%(substitute)s replaces %(player)s from round %(round)s (%(count)d tables)",
                "count",
            ),
            **names,
        )
    history.log(
        event=event,
        user=user,
        action="player replaced",
        reason=reason,
        summary=summary,
    )
    return len(seats)


def round_status(event: Event) -> list[dict[str, Any]]:
    """Per round: tables, tables finished, and the status (seated, playing, all results in). Two queries."""
    tables = Hanchan.objects.filter(event=event, round_number__isnull=False).exclude(
        status=Hanchan.Status.VOID
    )
    rows: dict[int, dict[str, Any]] = {}
    for number, status in tables.values_list("round_number", "status"):
        row = rows.setdefault(number, {"round": number, "tables": 0, "finished": 0})
        row["tables"] += 1
        row["finished"] += status == Hanchan.Status.FINISHED
    started = set(
        tables.filter(
            Q(hands__isnull=False) | Q(seats__final_score__isnull=False) | Q(status=Hanchan.Status.FINISHED)
        ).values_list("round_number", flat=True)
    )
    for number, row in rows.items():
        if row["finished"] == row["tables"]:
            row["status"] = pgettext("round status", "all results in")
        elif number in started:
            row["status"] = pgettext("round status", "playing")
        else:
            row["status"] = pgettext("round status", "seated")
    return [rows[n] for n in sorted(rows)]


@transaction.atomic
def reseat_swiss(*, event: Event, round_number: int, user: Any) -> None:
    """Reseat one round by the standings after the previous round (Swiss): 1st–4th together, 5th–8th…,
    adjusted to avoid opponents who already met, winds balanced given the rounds before.

    Only a round whose tables all have no result can be reseated; the players seated stay the same.
    """
    from scoring.standings import standings

    _lock(event)
    round_tables = Hanchan.objects.filter(event=event, round_number=round_number)
    if not round_tables.exists():
        raise ValidationError(
            _("Round %(round)s has no tables: generate the seating first.") % {"round": round_number}
        )
    if round_tables.exclude(pk__in=_unplayed(round_tables)).exists():
        raise ValidationError(
            _("Round %(round)s already has results: it can no longer be reseated.") % {"round": round_number}
        )
    faults = _faults(event, [round_number])
    if faults:
        raise ValidationError(
            _(
                "Round %(round)s cannot be reseated until its seating is repaired (replace the extra seat "
                "at one table with a player who is not seated in that round): %(faults)s"
            )
            % {"round": round_number, "faults": " ".join(_describe(event, faults))}
        )
    seats = list(Seat.objects.filter(hanchan__in=round_tables).select_related("hanchan"))
    seated = {seat.player_id: seat for seat in seats}
    order = [row.player_id for row in standings(event, up_to_round=round_number - 1, min_games=0)]
    ranked = [pk for pk in order if pk in seated] + sorted(pk for pk in seated if pk not in order)
    index = {pk: i for i, pk in enumerate(ranked)}
    previous_rounds = []
    earlier = (
        Hanchan.objects.filter(event=event, round_number__lt=round_number)
        .prefetch_related("seats")
        .order_by("round_number", "table_number")
    )
    by_round: dict[int, list[tuple[int, ...]]] = {}
    extra = len(index)
    for table in earlier:
        row = []
        for seat in sorted(table.seats.all(), key=lambda s: s.seat):
            if seat.player_id not in index:  # someone who no longer plays: a placeholder index
                index[seat.player_id] = extra
                extra += 1
            row.append(index[seat.player_id])
        by_round.setdefault(table.round_number, []).append(tuple(row))
    previous_rounds = [tuple(by_round[n]) for n in sorted(by_round)]
    previous = seating.Schedule(rounds=tuple(previous_rounds)) if previous_rounds else None
    groups = [[index[pk] for pk in group] for group in teams.groups(event, ranked)]
    try:
        tables = seating.swiss_round(
            list(range(len(ranked))), previous, seed=event.seating_seed, groups=groups
        )
    except ValueError as exc:
        raise ValidationError(
            _("Round %(round)s cannot be reseated: %(error)s.") % {"round": round_number, "error": exc}
        ) from None
    behalf = {seat.player_id: seat.on_behalf_of_id for seat in seats}
    hanchans = sorted(
        {seat.hanchan_id: seat.hanchan for seat in seats}.values(), key=lambda h: h.table_number
    )
    Seat.objects.filter(hanchan__in=round_tables).delete()
    Seat.objects.bulk_create(
        [
            Seat(hanchan=hanchan, seat=s, player_id=ranked[i], on_behalf_of_id=behalf[ranked[i]])
            for hanchan, table in zip(hanchans, tables, strict=True)
            for s, i in enumerate(table)
        ]
    )
    round_tables.update(version=F("version") + 1)
    _check_round_invariant(event, [round_number])
    history.log(
        event=event,
        user=user,
        action="round reseated",
        summary=phrases.say(
            gettext_noop("Round %(round)s reseated by the standings after round %(previous)s"),
            round=round_number,
            previous=round_number - 1,
        ),
    )
    signals.seating_published.send(sender=Event, event=event, rounds=[round_number])
