"""Games as a whole: start one, enter its final scores, finish, void or reopen it."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from league.engine_text import engine_message, wind_name
from league.models import Event, Hanchan, Player, Registration, Seat
from scoring import engine

from . import history
from .errors import seat_names
from .hands import bump, finish, lock_game
from .penalties import give, withdraw
from .sync import refresh, refresh_results, replay_stored


def _redated(played_on: date, before: date) -> str:
    """The history's words for a new date: "played on 2025-03-08 (was 2025-03-07)"."""
    return gettext("played on %(date)s (was %(before)s)") % {
        "date": played_on.isoformat(),
        "before": before.isoformat(),
    }


def default_played_on(event: Event, today: date | None = None) -> date:
    """The date a new game of ``event`` is played on unless the organiser says otherwise: today — and
    for a tournament the round's date, which (there is no Round model) is today clamped into the event's
    dates, so that tables seated before the event are dated on its first day and a late entry after it
    on its last day."""
    day = today or timezone.localdate()
    if event.kind == Event.Kind.TOURNAMENT:
        if event.start_date is not None and day < event.start_date:
            day = event.start_date
        if event.end_date is not None and day > event.end_date:
            day = event.end_date
    return day


def _check_played_on(played_on: Any) -> date:
    """A real date (not a datetime, not text): the game lists and the date filters compare dates."""
    if not isinstance(played_on, date) or isinstance(played_on, datetime):
        raise ValidationError({"played_on": gettext("Played on: enter a date (YYYY-MM-DD).")})
    return played_on


def _check_free_in_round(event: Event, round_number: int, players: Sequence[Player]) -> None:
    """A player sits at one table per round: the seating services keep that invariant, and a table
    started by hand in a round must too."""
    clash = (
        Seat.objects.filter(hanchan__event=event, hanchan__round_number=round_number, player__in=players)
        .select_related("player", "hanchan")
        .order_by("hanchan__table_number")
        .first()
    )
    if clash is not None:
        raise ValidationError(
            gettext("%(player)s is already seated at table %(table)s in round %(round)s.")
            % {"player": clash.player, "table": clash.hanchan.table_number, "round": round_number}
        )


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
    played_on: date | None = None,
) -> Hanchan:
    """A new game with four different registered players in seat order (East, South, West, North).

    ``played_on`` defaults to :func:`default_played_on`: the lists and date filters go by it."""
    if len(players) != 4 or any(p is None for p in players):
        raise ValidationError(gettext("A game needs four players, one in each seat."))
    if len({p.pk for p in players}) != 4:
        raise ValidationError(gettext("A player can sit in only one seat of a game."))
    registrations = dict(
        Registration.objects.filter(event=event, player__in=players).values_list("player_id", "withdrawn_at")
    )
    missing = [str(p) for p in players if p.pk not in registrations]
    if missing:
        raise ValidationError(
            gettext("Not registered in %(event)s: %(players)s.")
            % {"event": event, "players": ", ".join(missing)}
        )
    withdrawn = [str(p) for p in players if registrations[p.pk] is not None]
    if withdrawn:
        raise ValidationError(
            gettext("Withdrawn from %(event)s, so not in new games: %(players)s.")
            % {"event": event, "players": ", ".join(withdrawn)}
        )
    if round_number is not None:
        _check_free_in_round(event, round_number, players)
    if entry_mode not in Hanchan.EntryMode.values:
        raise ValidationError({"entry_mode": gettext("Choose hand by hand or final scores.")})
    played_on = default_played_on(event) if played_on is None else _check_played_on(played_on)
    hanchan = Hanchan.objects.create(
        event=event,
        entry_mode=entry_mode,
        entered_by=history.acting_user(user),
        round_number=round_number,
        table_number=table_number,
        played_on=played_on,
    )
    behalf = on_behalf_of or {}
    Seat.objects.bulk_create(
        [
            Seat(hanchan=hanchan, seat=i, player=player, on_behalf_of=behalf.get(i))
            for i, player in enumerate(players)
        ]
    )
    names = ", ".join(
        gettext("%(wind)s %(player)s") % {"wind": wind_name(i), "player": p} for i, p in enumerate(players)
    )
    summary = gettext("%(players)s; played on %(date)s") % {"players": names, "date": played_on.isoformat()}
    history.log(event=event, hanchan=hanchan, user=user, action="game started", summary=summary)
    return hanchan


@transaction.atomic
def set_played_on(
    *,
    hanchan: Hanchan,
    played_on: date,
    user: Any,
    reason: str = "",
    expected_version: int | None = None,
) -> Hanchan:
    """Change the date a game was played on (the game lists and the standings' date filters use it).

    Any game may be redated, finished or not: the date is a fact about the game, not about its scores,
    so the results stay as they are; the history keeps the old and the new date."""
    played_on = _check_played_on(played_on)
    game = lock_game(hanchan, expected_version)
    before = game.played_on
    if before == played_on:
        return game
    bump(game, played_on=played_on)
    history.log(
        event=game.event,
        hanchan=game,
        user=user,
        action="date changed",
        summary=_redated(played_on, before),
        reason=reason,
        before={"played_on": before.isoformat()},
        after={"played_on": played_on.isoformat()},
    )
    hanchan.refresh_from_db()
    return game


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
    played_on: date | None = None,
) -> Hanchan:
    """Enter (or correct) the four final scores of a game played on paper, and finish it.

    ``played_on`` (optional) redates the game in the same change: the slip says when it was played.

    They must sum to 4 × start points minus the riichi sticks left on the table; chombo deductions are
    not taken off the scores: ``chombos`` (per seat) sets how many chombo penalties of the ruleset's
    deduction each seat's player has in this game (extra ones are cancelled, missing ones given).
    """
    if played_on is not None:
        played_on = _check_played_on(played_on)
    game = lock_game(hanchan, expected_version)
    if game.entry_mode != Hanchan.EntryMode.FINAL_SCORES:
        raise ValidationError(gettext("This game is entered hand by hand: its scores come from its hands."))
    if game.status == Hanchan.Status.VOID:
        raise ValidationError(gettext("This game is void: reopen it first."))
    try:
        engine.check_final_scores(scores, sticks, game.event.rules)
    except engine.RuleViolation as exc:
        text = engine_message(exc, seat_names(game))
        message = text[0].upper() + text[1:] + "."
        raise ValidationError({"sticks": message} if exc.field == "sticks" else message) from None
    seats = {s.seat: s for s in game.seats.all()}
    before = [seats[i].final_score for i in range(4)]
    corrected = game.status == Hanchan.Status.FINISHED
    chombos_before, chombo_points_before = _chombo_state(game, seats)
    game_sticks_before = game.final_sticks
    changes_something = (
        before != list(scores)
        or game_sticks_before != sticks
        or (chombos is not None and list(chombos) != chombos_before)
    )
    if corrected and changes_something and not (reason or "").strip():
        # A finished game counts in the standings: changing it is a correction, kept with its reason,
        # as a corrected hand is.
        raise ValidationError(
            {
                "reason": gettext(
                    "Reason: this game is finished, so changing its scores, sticks or chombos is a "
                    "correction: say why (the game's history keeps it)."
                )
            }
        )
    for i, score in enumerate(scores):
        seats[i].final_score = score
    Seat.objects.bulk_update(list(seats.values()), ["final_score"])
    if chombos is not None:
        _set_chombos(game, seats, chombos, user)
    chombos_after, chombo_points_after = _chombo_state(game, seats)
    dated_before = game.played_on
    redated = played_on is not None and played_on != dated_before
    bump(
        game,
        final_sticks=sticks,
        status=Hanchan.Status.FINISHED,
        finished_at=game.finished_at or timezone.now(),
        **({"played_on": played_on} if redated else {}),
    )
    refresh(game)
    old: dict[str, Any] = {
        "scores": before,
        "sticks": game_sticks_before,
        "chombos": chombos_before,
        "chombo_penalties": chombo_points_before,
    }
    new: dict[str, Any] = {
        "scores": list(scores),
        "sticks": sticks,
        "chombos": chombos_after,
        "chombo_penalties": chombo_points_after,
    }
    parts: list[str] = []
    if corrected:
        parts.append(history.changes(old, new)[2])  # only what changed, as "field: old → new"
    else:
        scores_text = " / ".join(str(s) for s in scores)
        if sticks:
            scores_text = ngettext(
                "%(scores)s, %(count)d stick left", "%(scores)s, %(count)d sticks left", sticks
            ) % {"scores": scores_text, "count": sticks}
        parts.append(scores_text)
        if any(chombos_after) or chombos_after != chombos_before:
            parts.append(history.changes(old, new, ["chombos", "chombo_penalties"])[2])
    after: dict[str, Any] = dict(new)
    if redated:
        assert played_on is not None
        parts.append(_redated(played_on, dated_before))
        after["played_on"] = played_on.isoformat()
    summary = "; ".join(p for p in parts if p) or gettext("saved again, nothing changed")
    history.log(
        event=game.event,
        hanchan=game,
        user=user,
        action="final scores corrected" if corrected else "final scores entered",
        summary=summary,
        reason=reason,
        before=_before(corrected, old, dated_before if redated else None),
        after=after,
    )
    hanchan.refresh_from_db()
    return game


def _before(corrected: bool, old: dict[str, Any], played_on: date | None) -> dict[str, Any] | None:
    """The history's "before" of a final-scores entry: the old scores, sticks, chombo counts and chombo
    penalties of a correction; of a first entry, the chombos only when some were already given (on the
    penalties page); the old date of a redated game; None when nothing was there before."""
    before: dict[str, Any] = {}
    if corrected:
        before.update(old)
    elif any(old["chombos"]):
        before.update(chombos=old["chombos"], chombo_penalties=old["chombo_penalties"])
    if played_on is not None:
        before["played_on"] = played_on.isoformat()
    return before or None


def _chombo_state(game: Hanchan, seats: dict[int, Seat]) -> tuple[list[int], list[int]]:
    """Per seat (East first): how many active chombo penalties the seat's player has in this game, and
    the points they take off (negative), so the history shows chombo changes as before → after."""
    from scoring.models import Penalty

    counts: dict[int, int] = {}
    points: dict[int, int] = {}
    rows = Penalty.objects.filter(hanchan=game, kind=Penalty.Kind.CHOMBO, cancelled=False)
    for player_id, value in rows.values_list("player_id", "points"):
        counts[player_id] = counts.get(player_id, 0) + 1
        points[player_id] = points.get(player_id, 0) + value
    players = [seats[i].on_behalf_of_id or seats[i].player_id for i in range(4)]
    return [counts.get(p, 0) for p in players], [points.get(p, 0) for p in players]


def _set_chombos(game: Hanchan, seats: dict[int, Seat], chombos: Sequence[int], user: Any) -> None:
    """Make each seat's active chombo penalties in this game number ``chombos[seat]``."""
    from scoring.models import Penalty

    rules = game.event.rules
    if len(chombos) != 4 or any(c < 0 or c > 9 for c in chombos):
        raise ValidationError({"chombos": gettext("Chombos: a number from 0 to 9 per seat.")})
    if any(chombos) and rules.chombo != "deduction":
        raise ValidationError(
            {
                "chombos": gettext(
                    "Under these rules a chombo is paid at the table: it is already in the scores."
                )
            }
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
            withdraw(penalty, user=user, reason=gettext("final scores corrected"))
        for _ in range(wanted - len(active)):
            give(
                event=game.event,
                player=player,
                hanchan=game,
                points=-rules.chombo_points,
                kind=Penalty.Kind.CHOMBO,
                reason=gettext("chombo (entered with the final scores)"),
                user=user,
            )


@transaction.atomic
def finish_game(
    *, hanchan: Hanchan, user: Any, reason: str = "", expected_version: int | None = None
) -> None:
    """Finish a hand-by-hand game. Before its natural end this is an early end (a time limit): say why."""
    game = lock_game(hanchan, expected_version)
    if game.status == Hanchan.Status.FINISHED:
        raise ValidationError(gettext("This game is already finished."))
    if game.status == Hanchan.Status.VOID:
        raise ValidationError(gettext("This game is void: reopen it first."))
    if game.entry_mode == Hanchan.EntryMode.FINAL_SCORES:
        raise ValidationError(gettext("Enter the four final scores: that finishes the game."))
    played, _ = replay_stored(game)
    if not played.hands:
        raise ValidationError(gettext("A game needs at least one hand to be finished."))
    if not played.finished and not reason.strip():
        raise ValidationError(
            {"reason": gettext("The game has not reached its end: say why it ends now (e.g. time limit).")}
        )
    if played.finished:
        summary = gettext("Finished")
    else:
        summary = gettext("Finished early after hand %(number)d") % {"number": len(played.hands)}
    finish(game, played, user=user, summary=summary, reason=reason)
    hanchan.refresh_from_db()


@transaction.atomic
def void_game(*, hanchan: Hanchan, user: Any, reason: str, expected_version: int | None = None) -> None:
    """Void a game: it stays, with its hands, but counts for nothing. Never deleted."""
    if not reason.strip():
        raise ValidationError({"reason": gettext("Say why the game is void: the history keeps it.")})
    game = lock_game(hanchan, expected_version)
    if game.status == Hanchan.Status.VOID:
        raise ValidationError(gettext("This game is already void."))
    bump(game, status=Hanchan.Status.VOID)
    refresh_results(game, None)  # a void game has no results; its hands stay as they are
    history.log(
        event=game.event,
        hanchan=game,
        user=user,
        action="game voided",
        summary=gettext("Voided"),
        reason=reason,
    )
    hanchan.refresh_from_db()


@transaction.atomic
def reopen_game(*, hanchan: Hanchan, user: Any, reason: str, expected_version: int | None = None) -> None:
    """Reopen a finished or void game for more hands or corrections; it leaves the standings until
    finished again."""
    if not reason.strip():
        raise ValidationError({"reason": gettext("Say why the game is reopened: the history keeps it.")})
    game = lock_game(hanchan, expected_version)
    if game.status == Hanchan.Status.IN_PROGRESS:
        raise ValidationError(gettext("This game is already in progress."))
    bump(game, status=Hanchan.Status.IN_PROGRESS, finished_at=None)
    refresh_results(game, None)  # an open game has no results; its hands stay as they are
    history.log(
        event=game.event,
        hanchan=game,
        user=user,
        action="game reopened",
        summary=gettext("Reopened"),
        reason=reason,
    )
    hanchan.refresh_from_db()
