"""Hand-by-hand entry: record a hand, undo the last one, correct any one.

Each service locks the game row, checks the version the organiser saw (two organisers at one table must
never lose or duplicate a hand), writes the facts, replays the whole game with the engine — which both
validates the change and re-derives every later hand — and logs the change, all in one transaction.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy, gettext_noop

from league.models import Hanchan
from scoring import engine
from scoring.describe import result_name
from scoring.engine.record import MAX_HANDS
from scoring.models import Hand, Win
from scoring.records import engine_hand as _engine_hand
from scoring.records import engine_hands, hand_row, win_rows

from . import history, sync
from .errors import GameChanged, as_validation_error
from .sync import refresh, refresh_results


def lock_game(hanchan: Hanchan, expected_version: int | None) -> Hanchan:
    """The game row, locked for this transaction; GameChanged if it moved on since the organiser looked.

    Only the game row is locked (``of=("self",)``), although its event is read with it: locking the
    event too made every table of a tournament queue on that one row, and deadlock (PostgreSQL) with
    the ratings rebuild, whose rows point at the event and at the games. ``no_key`` (FOR NO KEY UPDATE)
    is what a plain UPDATE of the row takes: it still serialises the writers of this game, but not the
    rows merely pointing at it (a rating or history row written meanwhile by another transaction).
    """
    locked = (
        Hanchan.objects.select_for_update(of=("self",), no_key=True)
        .select_related("event")
        .get(pk=hanchan.pk)
    )
    if expected_version is not None and locked.version != expected_version:
        raise GameChanged(locked.pk, locked.version, expected_version)
    return locked


def bump(hanchan: Hanchan, **fields: Any) -> None:
    """Advance the game's version (and save any other changed fields) — every change goes through here."""
    for name, value in fields.items():
        setattr(hanchan, name, value)
    hanchan.version += 1
    hanchan.save(update_fields=["version", *fields])


# The history summary of a game finished by the hand that reached its end (see ``record_hand``).
AUTO_FINISHED = gettext_noop("The game reached its end and was finished automatically.")
# What that history entry stores beside it (a summary is words in the writer's language; this is data):
# a resubmitted hand is recognised by it (``_resubmitted``).
AUTO_FINISH_MARK = {"automatic": True}

# The engine's limit on the hands of one game (game-record.md "Limits"): the web, import and replay agree.
TOO_MANY_HANDS = gettext_lazy(
    "A game holds at most %(limit)s hands: this one is full. Finish it, or correct a hand instead."
)

# Why a finished game's last hand cannot be undone (the view says it before the organiser asks, too).
UNDO_FINISHED = gettext_lazy("This game is finished: reopen it first, with a reason, or correct the hand.")


def finish(
    game: Hanchan,
    played: engine.Replay,
    *,
    user: Any,
    summary: str,
    reason: str = "",
    automatic: bool = False,
    facts: sync.GameFacts | None = None,
) -> None:
    """Mark a locked game finished, write its results from ``played`` (the replay of its stored hands,
    which the caller already has; ``facts``: the game's facts too, see ``sync.rebuild``) and say so in
    the history (``automatic``: by the hand that ended it)."""
    bump(game, status=Hanchan.Status.FINISHED, finished_at=timezone.now())
    refresh_results(game, played, facts)
    history.log(
        event=game.event,
        hanchan=game,
        user=user,
        action="game finished",
        summary=summary,
        reason=reason,
        after=AUTO_FINISH_MARK if automatic else None,
    )


def _recorded_summary(number: int, round_name: str, result: str) -> str:
    """The history summary of a recorded hand: "Hand 3 (E3): Ron"."""
    return gettext("Hand %(number)d (%(round)s): %(result)s") % {
        "number": number,
        "round": round_name,
        "result": result_name(result),
    }


def _check_open(hanchan: Hanchan) -> None:
    if hanchan.entry_mode != Hanchan.EntryMode.HANDS:
        raise ValidationError(gettext("This game is entered as final scores, not hand by hand."))
    if hanchan.status == Hanchan.Status.VOID:
        raise ValidationError(gettext("This game is void: reopen it before entering hands."))


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
        raise ValidationError(gettext("Hand %(number)s does not exist in this game.") % {"number": number})
    if number is None and len(hands) >= MAX_HANDS:
        raise ValidationError(TOO_MANY_HANDS % {"limit": MAX_HANDS})
    try:
        if number is not None:
            hands[number - 1] = hand
            return engine.replay(hands, rules).hands[number - 1]
        played = engine.replay(hands, rules)
        assert played.state is not None
        return engine.play_hand(played.state, hand, rules)
    except engine.EngineError as exc:
        raise as_validation_error(exc, hanchan=hanchan) from None


def canonical(hand: engine.Hand) -> engine.Hand:
    """``hand`` with its seat lists sorted: the same hand whatever order the boxes were ticked in (how a
    resubmitted "Save hand" is told from a new one, here and on the tables' pages)."""
    return dataclasses.replace(
        hand,
        riichi=tuple(sorted(hand.riichi)),
        tenpai=tuple(sorted(hand.tenpai)),
        nagashi=tuple(sorted(hand.nagashi)),
    )


def _resubmitted(game: Hanchan, hand: engine.Hand, expected_version: int) -> Hand | None:
    """The stored hand, if ``hand`` at ``expected_version`` is a resubmission of the game's last change.

    A double tap on "Save hand" (or a browser resending the form) posts the same hand at the same
    version twice; the second waits for the first and finds the version moved on. It is the same
    request only if exactly one change happened since (version + 1), that change recorded the last
    hand (possibly finishing the game with it: ``record_hand`` bumps the version once either way) and
    that hand is the one submitted. Anything else — an undo, a correction, another hand — is a real
    conflict.
    """
    if game.version != expected_version + 1:
        return None
    last = game.hands.order_by("-number").prefetch_related("wins").first()
    if last is None:
        return None
    stored = _engine_hand(last, sorted(last.wins.all(), key=lambda win: win.pk))  # in the order entered
    if canonical(stored) != canonical(hand):
        return None
    # The one change since was recording a hand (at the end of the game: so it is ``last``), possibly
    # finishing the game with it — not a finish by hand, which the organiser may have done meanwhile.
    entries = list(game.history.order_by("-pk").values_list("action", "after")[:2])
    if entries and entries[0][0] == "game finished":
        if entries[0][1] != AUTO_FINISH_MARK:
            return None
        entries = entries[1:]
    if not entries or entries[0][0] != "hand recorded":
        return None
    return last


@transaction.atomic
def record_hand(
    *,
    hanchan: Hanchan,
    hand: engine.Hand,
    user: Any,
    expected_version: int | None = None,
    tiles: list[Any] | None = None,
) -> Hand:
    """Append a hand. A game the engine sees as over after it is finished automatically.

    The returned row's ``already_saved`` says whether this call saved it (False) or found the very same
    hand already recorded at ``expected_version`` + 1 — a resubmitted form, answered as saved rather
    than as a conflict or a second hand (True; nothing is written then).
    """
    game = lock_game(hanchan, None)
    if expected_version is not None and game.version != expected_version:
        existing = _resubmitted(game, hand, expected_version)
        if existing is None:
            raise GameChanged(game.pk, game.version, expected_version)
        existing.already_saved = True  # type: ignore[attr-defined]
        hanchan.version = game.version
        hanchan.status = game.status
        return existing
    _check_open(game)
    if game.status == Hanchan.Status.FINISHED:
        raise ValidationError(
            gettext("This game is finished: reopen it to add hands, or correct a hand instead.")
        )
    # The game's facts, read once under the lock: the next hand's number, then the rebuild's input with
    # the new hand appended. The rebuild replays them (the new hand is refused, and nothing written, if
    # it cannot be) and inserts the hand with its derived values and per-seat rows.
    facts = sync.read(game)
    number = len(facts.stored) + 1
    if number > MAX_HANDS:
        raise ValidationError(TOO_MANY_HANDS % {"limit": MAX_HANDS})
    row = hand_row(game, number, hand)
    facts.stored.append((row, win_rows(row, hand, tiles)))
    played = sync.rebuild([game], facts={game.pk: facts}).replays[game.pk]
    summary = _recorded_summary(number, played.hands[-1].round, hand.result)
    history.log(
        event=game.event,
        hanchan=game,
        user=user,
        action="hand recorded",
        summary=summary,
        after=engine.hand_to_dict(hand),
    )
    if played.finished:
        finish(game, played, user=user, summary=gettext(AUTO_FINISHED), automatic=True, facts=facts)
    else:
        bump(game)
    hanchan.version = game.version
    hanchan.status = game.status
    row.already_saved = False  # type: ignore[attr-defined]
    return row


@transaction.atomic
def undo_last_hand(*, hanchan: Hanchan, user: Any, reason: str, expected_version: int | None = None) -> None:
    """Remove the last hand of a game in progress, saying why (the history keeps the reason).

    A finished game is refused: undoing would silently take it out of the standings. Reopening it is
    a decision of its own, with its own reason; a wrong hand can also be corrected in place.
    """
    game = lock_game(hanchan, expected_version)
    _check_open(game)
    if game.status == Hanchan.Status.FINISHED:
        raise ValidationError(str(UNDO_FINISHED))
    if not reason.strip():
        raise ValidationError({"reason": gettext("Say why the last hand is undone: the history keeps it.")})
    last = game.hands.order_by("-number").prefetch_related("wins").first()
    if last is None:
        raise ValidationError(gettext("There is no hand to undo."))
    before = engine.hand_to_dict(_engine_hand(last, last.wins.all()))
    last.delete()
    bump(game)
    refresh(game)
    history.log(
        event=game.event,
        hanchan=game,
        user=user,
        action="hand undone",
        summary=gettext("Hand %(number)d removed") % {"number": last.number},
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
        raise ValidationError({"reason": gettext("Say why the hand is corrected: the history keeps it.")})
    game = lock_game(hanchan, expected_version)
    _check_open(game)
    old = game.hands.filter(number=number).prefetch_related("wins").first()
    if old is None:
        raise ValidationError(gettext("Hand %(number)s does not exist in this game.") % {"number": number})
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
        summary=gettext("Hand %(number)s corrected") % {"number": number},
        reason=reason,
        before=before,
        after=engine.hand_to_dict(hand),
    )
    hanchan.version = game.version
    return row
