"""Hand-by-hand entry: record a hand, undo the last one, correct any one.

Each service locks the game row, checks the version the organiser saw (two organisers at one table must
never lose or duplicate a hand), writes the facts, replays the whole game with the engine — which both
validates the change and re-derives every later hand — and logs the change, all in one transaction.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from league.models import Hanchan
from scoring import engine
from scoring.models import Hand, Win
from scoring.records import engine_hand as _engine_hand
from scoring.records import engine_hands, hand_row, win_rows

from . import history
from .errors import GameChanged, as_validation_error
from .sync import refresh, refresh_results


def lock_game(hanchan: Hanchan, expected_version: int | None) -> Hanchan:
    """The game row, locked for this transaction; GameChanged if it moved on since the organiser looked."""
    locked = Hanchan.objects.select_for_update().select_related("event").get(pk=hanchan.pk)
    if expected_version is not None and locked.version != expected_version:
        raise GameChanged(locked.pk, locked.version, expected_version)
    return locked


def bump(hanchan: Hanchan, **fields: Any) -> None:
    """Advance the game's version (and save any other changed fields) — every change goes through here."""
    for name, value in fields.items():
        setattr(hanchan, name, value)
    hanchan.version += 1
    hanchan.save(update_fields=["version", *fields])


def finish(game: Hanchan, played: engine.Replay, *, user: Any, summary: str, reason: str = "") -> None:
    """Mark a locked game finished, write its results from ``played`` (the replay of its stored hands,
    which the caller already has) and say so in the history."""
    bump(game, status=Hanchan.Status.FINISHED, finished_at=timezone.now())
    refresh_results(game, played)
    history.log(
        event=game.event, hanchan=game, user=user, action="game finished", summary=summary, reason=reason
    )


def _check_open(hanchan: Hanchan) -> None:
    if hanchan.entry_mode != Hanchan.EntryMode.HANDS:
        raise ValidationError("This game is entered as final scores, not hand by hand.")
    if hanchan.status == Hanchan.Status.VOID:
        raise ValidationError("This game is void: reopen it before entering hands.")


def _write(hanchan: Hanchan, number: int, hand: engine.Hand, tiles: list[Any] | None = None) -> Hand:
    row = hand_row(hanchan, number, hand)
    row.save()
    Win.objects.bulk_create(win_rows(row, hand, tiles))
    return row


def preview(hanchan: Hanchan, hand: engine.Hand, *, number: int | None = None) -> engine.HandOutcome:
    """What ``hand`` would do, without saving: recorded next, or in place of hand ``number`` (a
    correction, with every later hand replayed after it). ValidationError if it cannot be."""
    rules = hanchan.event.rules
    hands = engine_hands(hanchan)
    if number is not None and not 1 <= number <= len(hands):
        raise ValidationError(f"Hand {number} does not exist in this game.")
    try:
        if number is not None:
            hands[number - 1] = hand
            return engine.replay(hands, rules).hands[number - 1]
        played = engine.replay(hands, rules)
        assert played.state is not None
        return engine.play_hand(played.state, hand, rules)
    except engine.EngineError as exc:
        raise as_validation_error(exc, hanchan=hanchan) from None


@transaction.atomic
def record_hand(
    *,
    hanchan: Hanchan,
    hand: engine.Hand,
    user: Any,
    expected_version: int | None = None,
    tiles: list[Any] | None = None,
) -> Hand:
    """Append a hand. A game the engine sees as over after it is finished automatically."""
    game = lock_game(hanchan, expected_version)
    _check_open(game)
    if game.status == Hanchan.Status.FINISHED:
        raise ValidationError("This game is finished: reopen it to add hands, or correct a hand instead.")
    number = game.hands.count() + 1
    row = _write(game, number, hand, tiles)
    played = refresh(game)
    assert played is not None
    summary = f"Hand {number} ({played.hands[-1].round}): {hand.result}"
    history.log(
        event=game.event,
        hanchan=game,
        user=user,
        action="hand recorded",
        summary=summary,
        after=engine.hand_to_dict(hand),
    )
    if played.finished:
        finish(game, played, user=user, summary="The game reached its end and was finished automatically.")
    else:
        bump(game)
    hanchan.version = game.version
    hanchan.status = game.status
    return row


@transaction.atomic
def undo_last_hand(
    *, hanchan: Hanchan, user: Any, expected_version: int | None = None, reason: str = ""
) -> None:
    """Remove the last hand (a finished game is reopened: its end came from that hand)."""
    game = lock_game(hanchan, expected_version)
    _check_open(game)
    last = game.hands.order_by("-number").prefetch_related("wins").first()
    if last is None:
        raise ValidationError("There is no hand to undo.")
    before = engine.hand_to_dict(_engine_hand(last, last.wins.all()))
    last.delete()
    fields: dict[str, Any] = {}
    if game.status == Hanchan.Status.FINISHED:
        fields = {"status": Hanchan.Status.IN_PROGRESS, "finished_at": None}
    bump(game, **fields)
    refresh(game)
    history.log(
        event=game.event,
        hanchan=game,
        user=user,
        action="hand undone",
        summary=f"Hand {last.number} removed",
        reason=reason,
        before=before,
    )
    hanchan.version = game.version
    hanchan.status = game.status


@transaction.atomic
def correct_hand(
    *,
    hanchan: Hanchan,
    number: int,
    hand: engine.Hand,
    user: Any,
    reason: str,
    expected_version: int | None = None,
) -> Hand:
    """Replace hand ``number``; the game is replayed and every later hand re-derived.

    The correction is refused (nothing saved) if it makes a later hand impossible — e.g. the game would
    now end before hands that were played.
    """
    if not reason.strip():
        raise ValidationError({"reason": "Say why the hand is corrected: the history keeps it."})
    game = lock_game(hanchan, expected_version)
    _check_open(game)
    old = game.hands.filter(number=number).prefetch_related("wins").first()
    if old is None:
        raise ValidationError(f"Hand {number} does not exist in this game.")
    before = engine.hand_to_dict(_engine_hand(old, old.wins.all()))
    old.delete()
    row = _write(game, number, hand)
    refresh(game)  # a finished game keeps its status: its results are rewritten from the new hands
    bump(game)
    history.log(
        event=game.event,
        hanchan=game,
        user=user,
        action="hand corrected",
        summary=f"Hand {number} corrected",
        reason=reason,
        before=before,
        after=engine.hand_to_dict(hand),
    )
    hanchan.version = game.version
    return row
