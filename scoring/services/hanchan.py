"""Games as a whole: start one, enter its final scores, finish, void or reopen it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from league.models import Event, Hanchan, Player, Registration, Seat
from scoring import engine

from . import history
from .errors import render_engine_error, seat_names
from .hands import bump, finish, lock_game
from .penalties import give, withdraw
from .sync import refresh, refresh_results, replay_stored

SEAT_NAMES = engine.WINDS


@transaction.atomic
def start_game(
    *,
    event: Event,
    players: Sequence[Player],
    user: Any,
    entry_mode: str = Hanchan.EntryMode.HANDS,
    round_number: int | None = None,
    table_number: int | None = None,
    on_behalf_of: dict[int, Player] | None = None,
) -> Hanchan:
    """A new game with four different registered players in seat order (East, South, West, North)."""
    if len(players) != 4 or any(p is None for p in players):
        raise ValidationError("A game needs four players, one in each seat.")
    if len({p.pk for p in players}) != 4:
        raise ValidationError("A player can sit in only one seat of a game.")
    registered = set(
        Registration.objects.filter(event=event, player__in=players).values_list("player_id", flat=True)
    )
    missing = [str(p) for p in players if p.pk not in registered]
    if missing:
        raise ValidationError(f"Not registered in {event}: {', '.join(missing)}.")
    if entry_mode not in Hanchan.EntryMode.values:
        raise ValidationError({"entry_mode": "Choose hand by hand or final scores."})
    hanchan = Hanchan.objects.create(
        event=event,
        entry_mode=entry_mode,
        entered_by=history.acting_user(user),
        round_number=round_number,
        table_number=table_number,
    )
    behalf = on_behalf_of or {}
    Seat.objects.bulk_create(
        [
            Seat(hanchan=hanchan, seat=i, player=player, on_behalf_of=behalf.get(i))
            for i, player in enumerate(players)
        ]
    )
    names = ", ".join(f"{SEAT_NAMES[i]} {p}" for i, p in enumerate(players))
    history.log(event=event, hanchan=hanchan, user=user, action="game started", summary=names)
    return hanchan


@transaction.atomic
def record_final_scores(
    *,
    hanchan: Hanchan,
    scores: Sequence[int],
    sticks: int = 0,
    user: Any,
    expected_version: int | None = None,
    reason: str = "",
    chombos: Sequence[int] | None = None,
) -> Hanchan:
    """Enter (or correct) the four final scores of a game played on paper, and finish it.

    They must sum to 4 × start points minus the riichi sticks left on the table; chombo deductions are
    not taken off the scores: ``chombos`` (per seat) sets how many chombo penalties of the ruleset's
    deduction each seat's player has in this game (extra ones are cancelled, missing ones given).
    """
    game = lock_game(hanchan, expected_version)
    if game.entry_mode != Hanchan.EntryMode.FINAL_SCORES:
        raise ValidationError("This game is entered hand by hand: its scores come from its hands.")
    if game.status == Hanchan.Status.VOID:
        raise ValidationError("This game is void: reopen it first.")
    try:
        engine.check_final_scores(scores, sticks, game.event.rules)
    except engine.RuleViolation as exc:
        text = render_engine_error(exc, seat_names(game))
        message = text[0].upper() + text[1:] + "."
        raise ValidationError({"sticks": message} if exc.field == "sticks" else message) from None
    seats = {s.seat: s for s in game.seats.all()}
    before = [seats[i].final_score for i in range(4)]
    for i, score in enumerate(scores):
        seats[i].final_score = score
    Seat.objects.bulk_update(list(seats.values()), ["final_score"])
    if chombos is not None:
        _set_chombos(game, seats, chombos, user)
    corrected = game.status == Hanchan.Status.FINISHED
    bump(
        game,
        final_sticks=sticks,
        status=Hanchan.Status.FINISHED,
        finished_at=game.finished_at or timezone.now(),
    )
    refresh(game)
    history.log(
        event=game.event,
        hanchan=game,
        user=user,
        action="final scores corrected" if corrected else "final scores entered",
        summary=" / ".join(str(s) for s in scores) + (f", {sticks} sticks left" if sticks else ""),
        reason=reason,
        before={"scores": before} if corrected else None,
        after={"scores": list(scores), "sticks": sticks},
    )
    hanchan.refresh_from_db()
    return game


def _set_chombos(game: Hanchan, seats: dict[int, Seat], chombos: Sequence[int], user: Any) -> None:
    """Make each seat's active chombo penalties in this game number ``chombos[seat]``."""
    from scoring.models import Penalty

    rules = game.event.rules
    if len(chombos) != 4 or any(c < 0 or c > 9 for c in chombos):
        raise ValidationError({"chombos": "Chombos: a number from 0 to 9 per seat."})
    if any(chombos) and rules.chombo != "deduction":
        raise ValidationError(
            {"chombos": "Under these rules a chombo is paid at the table: it is already in the scores."}
        )
    for seat_number, wanted in enumerate(chombos):
        seat = seats[seat_number]
        player = seat.credited_player
        active = list(
            Penalty.objects.filter(
                hanchan=game, player=player, kind=Penalty.Kind.CHOMBO, cancelled=False
            ).order_by("-created_at", "-pk")
        )
        for penalty in active[wanted:]:
            withdraw(penalty, user=user, reason="final scores corrected")
        for _ in range(wanted - len(active)):
            give(
                event=game.event,
                player=player,
                hanchan=game,
                points=-rules.chombo_points,
                kind=Penalty.Kind.CHOMBO,
                reason="chombo (entered with the final scores)",
                user=user,
            )


@transaction.atomic
def finish_game(
    *, hanchan: Hanchan, user: Any, reason: str = "", expected_version: int | None = None
) -> None:
    """Finish a hand-by-hand game. Before its natural end this is an early end (a time limit): say why."""
    game = lock_game(hanchan, expected_version)
    if game.status == Hanchan.Status.FINISHED:
        raise ValidationError("This game is already finished.")
    if game.status == Hanchan.Status.VOID:
        raise ValidationError("This game is void: reopen it first.")
    if game.entry_mode == Hanchan.EntryMode.FINAL_SCORES:
        raise ValidationError("Enter the four final scores: that finishes the game.")
    played, _ = replay_stored(game)
    if not played.hands:
        raise ValidationError("A game needs at least one hand to be finished.")
    if not played.finished and not reason.strip():
        raise ValidationError(
            {"reason": "The game has not reached its end: say why it ends now (e.g. time limit)."}
        )
    summary = "Finished" if played.finished else f"Finished early after hand {len(played.hands)}"
    finish(game, played, user=user, summary=summary, reason=reason)
    hanchan.refresh_from_db()


@transaction.atomic
def void_game(*, hanchan: Hanchan, user: Any, reason: str, expected_version: int | None = None) -> None:
    """Void a game: it stays, with its hands, but counts for nothing. Never deleted."""
    if not reason.strip():
        raise ValidationError({"reason": "Say why the game is void: the history keeps it."})
    game = lock_game(hanchan, expected_version)
    if game.status == Hanchan.Status.VOID:
        raise ValidationError("This game is already void.")
    bump(game, status=Hanchan.Status.VOID)
    refresh_results(game, None)  # a void game has no results; its hands stay as they are
    history.log(
        event=game.event, hanchan=game, user=user, action="game voided", summary="Voided", reason=reason
    )
    hanchan.refresh_from_db()


@transaction.atomic
def reopen_game(*, hanchan: Hanchan, user: Any, reason: str, expected_version: int | None = None) -> None:
    """Reopen a finished or void game for more hands or corrections; it leaves the standings until
    finished again."""
    if not reason.strip():
        raise ValidationError({"reason": "Say why the game is reopened: the history keeps it."})
    game = lock_game(hanchan, expected_version)
    if game.status == Hanchan.Status.IN_PROGRESS:
        raise ValidationError("This game is already in progress.")
    bump(game, status=Hanchan.Status.IN_PROGRESS, finished_at=None)
    refresh_results(game, None)  # an open game has no results; its hands stay as they are
    history.log(
        event=game.event, hanchan=game, user=user, action="game reopened", summary="Reopened", reason=reason
    )
    hanchan.refresh_from_db()
