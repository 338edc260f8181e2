"""Referee penalties (and chombos entered with final scores): given with a reason, cancelled with one."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from league import phrases
from league.models import Event, Hanchan, Player, Registration
from scoring.models import Penalty
from scoring.standings import hidden_after_round

from . import history
from .hands import bump, lock_game
from .sync import refresh

# A penalty's kind in a history summary: the message ids of ``Penalty.Kind``'s labels.
KIND_MESSAGES = {
    Penalty.Kind.CHOMBO: phrases.pgettext_lazy("penalty kind", "Chombo"),
    Penalty.Kind.OTHER: phrases.pgettext_lazy("penalty kind", "Other"),
}


def _refresh_game(hanchan: Hanchan | None) -> None:
    if hanchan is not None:
        game = lock_game(hanchan, None)  # the game row only: not its event (see lock_game)
        bump(game)
        refresh(game)


def give(
    *,
    event: Event,
    player: Player,
    hanchan: Hanchan | None,
    points: int,
    kind: str,
    reason: history.Text,
    user: Any,
    round_number: int | None = None,
) -> Penalty:
    """Write a penalty row (checked by the caller; no game refresh, no history entry). ``reason``: as
    the organiser typed it, or a phrase when code gives the penalty (``league/phrases.py``).

    A penalty given with a tournament table belongs to that table's round, whatever ``round_number``
    says: "standings after round N" must leave out exactly the penalties of later rounds. A league has
    no rounds, so its penalties never get one."""
    if event.kind != Event.Kind.TOURNAMENT:
        round_number = None
    elif hanchan is not None and hanchan.round_number is not None:
        round_number = hanchan.round_number
    return Penalty.objects.create(
        event=event,
        player=player,
        hanchan=hanchan,
        round_number=round_number,
        points=points,
        kind=kind,
        **_reason_fields("reason", reason, Penalty._meta.get_field("reason").max_length),
        given_by=history.acting_user(user),
    )


def _reason_fields(name: str, reason: history.Text, length: int | None) -> dict[str, Any]:
    """A reason's text column (the English rendering of a phrase, or the typed text) and data column."""
    if phrases.is_phrase(reason):
        return {name: history.clip(phrases.english(reason), length or 200), f"{name}_data": dict(reason)}  # type: ignore[arg-type]
    return {name: str(reason or "").strip(), f"{name}_data": None}


def withdraw(penalty: Penalty, *, user: Any, reason: history.Text) -> None:
    """Mark a penalty cancelled with who and why (no game refresh, no history entry): never deleted."""
    fields = _reason_fields(
        "cancelled_reason", reason, Penalty._meta.get_field("cancelled_reason").max_length
    )
    for name, value in fields.items():
        setattr(penalty, name, value)
    penalty.cancelled = True
    penalty.cancelled_by = history.acting_user(user)
    penalty.cancelled_at = timezone.now()
    penalty.save(update_fields=["cancelled", *fields, "cancelled_by", "cancelled_at"])


@transaction.atomic
def add_penalty(
    *,
    event: Event,
    player: Player,
    points: int,
    reason: str,
    user: Any,
    kind: str = Penalty.Kind.OTHER,
    hanchan: Hanchan | None = None,
    round_number: int | None = None,
) -> Penalty:
    """A penalty after uma. ``points`` are negative; linked to a game, it shows in that game's results.

    In a tournament a penalty belongs to a round (``round_number``; one given with a table takes that
    table's round), so that the standings after an earlier round leave it out. Leagues have no rounds.
    """
    errors: dict[str, str] = {}
    if isinstance(points, bool) or not isinstance(points, int) or points >= 0:
        errors["points"] = gettext("A penalty takes points off: enter a negative number (e.g. -20000).")
    if not reason.strip():
        errors["reason"] = gettext("Give the reason for the penalty.")
    if kind not in Penalty.Kind.values:
        errors["kind"] = gettext("Choose chombo or other.")
    if round_number is not None:
        if event.kind != Event.Kind.TOURNAMENT:
            errors["round_number"] = gettext("Round: only a tournament has rounds; leave it empty.")
        elif type(round_number) is not int or not 0 < round_number < 1000:  # bool is not a round
            errors["round_number"] = gettext("Round: a whole number from 1 to 999.")
    if errors:
        raise ValidationError(errors)
    if not Registration.objects.filter(event=event, player=player).exists():
        raise ValidationError(
            {
                "player": gettext("%(player)s is not registered in %(event)s.")
                % {"player": player, "event": event}
            }
        )
    if hanchan is not None:
        if hanchan.event_id != event.pk:
            raise ValidationError({"hanchan": gettext("That game belongs to another event.")})
        if (
            not hanchan.seats.filter(player=player).exists()
            and not hanchan.seats.filter(on_behalf_of=player).exists()
        ):
            raise ValidationError(
                {"player": gettext("%(player)s did not play in that game.") % {"player": player}}
            )
    penalty = give(
        event=event,
        player=player,
        hanchan=hanchan,
        points=points,
        kind=kind,
        reason=reason,
        user=user,
        round_number=round_number,
    )
    _refresh_game(hanchan)
    values = {
        "player": str(player),
        "points": points,
        "kind": phrases.say(KIND_MESSAGES.get(penalty.kind, penalty.kind)),
    }
    if penalty.round_number is not None:
        summary = phrases.say(
            gettext_noop("%(player)s: %(points)s (%(kind)s), round %(round)s"),
            round=penalty.round_number,
            **values,
        )
    else:
        summary = phrases.say(gettext_noop("%(player)s: %(points)s (%(kind)s)"), **values)
    history.log(
        event=event,
        hanchan=hanchan,
        user=user,
        action="penalty given",
        summary=summary,
        reason=reason,
        hidden_round=_in_hidden_round(penalty),
    )
    return penalty


def _in_hidden_round(penalty: Penalty) -> bool:
    """A penalty without a game, of a round the public may not see yet: no public page changes (one with a
    game goes by its game's round: league.versions)."""
    hidden = hidden_after_round(penalty.event)
    return penalty.hanchan_id is None and hidden is not None and (penalty.round_number or 0) > hidden


@transaction.atomic
def cancel_penalty(*, penalty: Penalty, user: Any, reason: str) -> Penalty:
    """Cancel a penalty; it stays on record with who cancelled it and why."""
    if not reason.strip():
        raise ValidationError({"reason": gettext("Say why the penalty is cancelled.")})
    penalty = Penalty.objects.select_for_update().get(pk=penalty.pk)
    if penalty.cancelled:
        raise ValidationError(gettext("This penalty is already cancelled."))
    withdraw(penalty, user=user, reason=reason)
    _refresh_game(penalty.hanchan)
    history.log(
        event=penalty.event,
        hanchan=penalty.hanchan,
        hidden_round=_in_hidden_round(penalty),
        user=user,
        action="penalty cancelled",
        summary=phrases.say(
            gettext_noop("%(player)s: %(points)s cancelled"),
            player=str(penalty.player),
            points=penalty.points,
        ),
        reason=reason,
    )
    return penalty
