"""Tournaments: seat every round at once, swap players, replace a player who drops out.

A round's tables are hanchans created ahead of play with their seats (round and table numbers set, no
result yet): the schedule is the games themselves, so the score slips, the result entry and the
standings all read the same rows. Only tables without any result can be reseated.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F, Q

from league import seating
from league.models import Event, Hanchan, Player, Registration, Seat

from . import history


def _unplayed(hanchans: Any) -> Any:
    """Tables with no result at all: no hand, no final score, not finished or void."""
    return (
        hanchans.filter(status=Hanchan.Status.IN_PROGRESS, hands__isnull=True)
        .exclude(seats__final_score__isnull=False)
        .distinct()
    )


def _seat_pool(event: Event) -> tuple[list[Player], list[Player]]:
    """The players to seat (registered, not dropped out) and the substitutes who may fill tables."""
    registrations = Registration.objects.filter(event=event, dropped_out=False).select_related("player")
    players = [r.player for r in registrations if not r.is_substitute]
    substitutes = [r.player for r in registrations if r.is_substitute]
    return sorted(players, key=lambda p: p.pk), sorted(substitutes, key=lambda p: p.pk)


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
        raise ValidationError("Seating is generated for tournaments; league games are started one by one.")
    if not 1 <= rounds <= 20:
        raise ValidationError({"rounds": "A tournament has between 1 and 20 rounds."})
    tables = Hanchan.objects.filter(event=event, round_number__isnull=False)
    if tables.exclude(pk__in=_unplayed(tables)).exists():
        raise ValidationError("Some tables already have results: the seating can no longer be regenerated.")
    players, substitutes = _seat_pool(event)
    if len(players) < 4:
        raise ValidationError("Register at least four players before seating the tournament.")
    needed = seating.padded_count(len(players)) - len(players)
    if needed > len(substitutes):
        raise ValidationError(
            f"{len(players)} players do not fill tables of four: register {needed - len(substitutes)} more "
            f"substitute{'s' if needed - len(substitutes) != 1 else ''} (or players)."
        )
    pool = players + substitutes[:needed]
    seed = event.seating_seed if seed is None else seed
    schedule = seating.generate(len(pool), rounds, seed=seed)
    tables.delete()
    created: list[Hanchan] = []
    seats: list[Seat] = []
    for round_index, round_tables in enumerate(schedule.rounds, start=1):
        for table_index, table in enumerate(round_tables, start=1):
            hanchan = Hanchan.objects.create(
                event=event,
                round_number=round_index,
                table_number=table_index,
                entry_mode=entry_mode,
                entered_by=user,
            )
            created.append(hanchan)
            seats += [Seat(hanchan=hanchan, seat=s, player=pool[i]) for s, i in enumerate(table)]
    Seat.objects.bulk_create(seats)
    if event.seating_seed != seed:
        event.seating_seed = seed
        event.save(update_fields=["seating_seed"])
    q = seating.quality(schedule, len(pool))
    history.log(
        event=event,
        user=user,
        action="seating generated",
        summary=f"{rounds} rounds, {len(pool)} seats, seed {seed}: {q.repeated_pairs} repeated pairs, "
        f"winds {'balanced' if q.perfect_winds else 'imbalance ' + str(q.wind_imbalance)}",
    )
    return created


@transaction.atomic
def swap_players(*, event: Event, round_number: int, first: Player, second: Player, user: Any) -> None:
    """Swap two players' seats in one round (both tables must be without results)."""
    round_tables = Hanchan.objects.filter(event=event, round_number=round_number)
    seat_a = Seat.objects.filter(hanchan__in=round_tables, player=first).select_related("hanchan").first()
    seat_b = Seat.objects.filter(hanchan__in=round_tables, player=second).select_related("hanchan").first()
    if seat_a is None or seat_b is None:
        raise ValidationError(f"Both players must be seated in round {round_number}.")
    if first.pk == second.pk:
        raise ValidationError("Choose two different players.")
    unplayed = set(_unplayed(round_tables).values_list("pk", flat=True))
    if seat_a.hanchan_id not in unplayed or seat_b.hanchan_id not in unplayed:
        raise ValidationError("A table that already has a result cannot be reseated.")
    a_behalf, b_behalf = seat_a.on_behalf_of_id, seat_b.on_behalf_of_id
    # Two unique constraints (player per game, seat per game): move through a free state first.
    if seat_a.hanchan_id == seat_b.hanchan_id:
        seat_a.seat, seat_b.seat = seat_b.seat, seat_a.seat
        Seat.objects.filter(pk=seat_a.pk).update(seat=99)
        Seat.objects.filter(pk=seat_b.pk).update(seat=seat_b.seat)
        Seat.objects.filter(pk=seat_a.pk).update(seat=seat_a.seat)
    else:
        Seat.objects.filter(pk=seat_a.pk).update(player=second, on_behalf_of=b_behalf)
        Seat.objects.filter(pk=seat_b.pk).update(player=first, on_behalf_of=a_behalf)
    for hanchan_id in {seat_a.hanchan_id, seat_b.hanchan_id}:
        Hanchan.objects.filter(pk=hanchan_id).update(version=F("version") + 1)
    history.log(
        event=event,
        user=user,
        action="players swapped",
        summary=f"Round {round_number}: {first} and {second} swapped seats",
    )


@transaction.atomic
def replace_player(
    *, event: Event, player: Player, substitute: Player, from_round: int, user: Any, reason: str
) -> int:
    """A player drops out: the substitute takes their seat at every table from ``from_round`` on that has
    no result yet, playing on their behalf. Returns the number of seats taken over."""
    if not reason.strip():
        raise ValidationError({"reason": "Say why the player is replaced."})
    registration = Registration.objects.filter(event=event, player=player).first()
    if registration is None:
        raise ValidationError({"player": f"{player} is not registered in {event}."})
    if not Registration.objects.filter(event=event, player=substitute).exists():
        raise ValidationError({"substitute": f"Register {substitute} (as a substitute) first."})
    tables = _unplayed(Hanchan.objects.filter(event=event, round_number__gte=from_round))
    seats = Seat.objects.filter(hanchan__in=tables, player=player)
    clash = Seat.objects.filter(hanchan__in=seats.values("hanchan"), player=substitute)
    if clash.exists():
        raise ValidationError({"substitute": f"{substitute} already sits at one of {player}'s tables."})
    count = seats.update(player=substitute, on_behalf_of=player)
    Hanchan.objects.filter(pk__in=tables.filter(seats__on_behalf_of=player).values("pk")).update(
        version=F("version") + 1
    )
    registration.dropped_out = True
    registration.save(update_fields=["dropped_out"])
    history.log(
        event=event,
        user=user,
        action="player replaced",
        reason=reason,
        summary=f"{substitute} replaces {player} from round {from_round} ({count} tables)",
    )
    return count


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
            row["status"] = "all results in"
        elif number in started:
            row["status"] = "playing"
        else:
            row["status"] = "seated"
    return [rows[n] for n in sorted(rows)]


@transaction.atomic
def reseat_swiss(*, event: Event, round_number: int, user: Any) -> None:
    """Reseat one round by the standings after the previous round (Swiss): 1st–4th together, 5th–8th…,
    adjusted to avoid opponents who already met, winds balanced given the rounds before.

    Only a round whose tables all have no result can be reseated; the players seated stay the same.
    """
    from scoring.standings import standings

    round_tables = Hanchan.objects.filter(event=event, round_number=round_number)
    if not round_tables.exists():
        raise ValidationError(f"Round {round_number} has no tables: generate the seating first.")
    if round_tables.exclude(pk__in=_unplayed(round_tables)).exists():
        raise ValidationError(f"Round {round_number} already has results: it can no longer be reseated.")
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
    tables = seating.swiss_round(list(range(len(ranked))), previous, seed=event.seating_seed)
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
    history.log(
        event=event,
        user=user,
        action="round reseated",
        summary=f"Round {round_number} reseated by the standings after round {round_number - 1}",
    )
