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
from django.utils.translation import gettext, gettext_lazy, gettext_noop

from league import phrases
from league.models import Hanchan
from scoring import engine, signals
from scoring.describe import RESULT_MESSAGES
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
# What that history entry stores beside it (a summary is words; this is data, for whoever reads it).
AUTO_FINISH_MARK = {"automatic": True}

ENTRY_KEY_LENGTH = 40
"""The longest entry key (``Hand.entry_key``, ``Hanchan.scores_key``): the random key each rendered entry
form carries, by which the same form sent again (a double tap, a resent page) is recognised."""

# The engine's limit on the hands of one game (docs/game-record.md §4): the web, import and replay agree.
TOO_MANY_HANDS = gettext_lazy(
    "A game holds at most %(limit)s hands: this one is full. Finish it, or correct a hand instead."
)

# Why a finished game's last hand cannot be undone (the view says it before the organiser asks, too).
UNDO_FINISHED = gettext_lazy("This game is finished: reopen it first, with a reason, or correct the hand.")


def mark_finished(
    game: Hanchan,
    played: engine.Replay | None,
    *,
    user: Any,
    summary: history.Text,
    reason: history.Text = "",
    automatic: bool = False,
    facts: sync.GameFacts | None = None,
) -> None:
    """Mark a locked game finished, write its results from ``played`` (the replay of its stored hands,
    which the caller already has; None for a game entered as final scores; ``facts``: the game's facts
    too, see ``sync.rebuild``) and say so in the history (``automatic``: by the hand that ended it)."""
    bump(game, status=Hanchan.Status.FINISHED, finished_at=timezone.now())
    refresh_results(game, played, facts)
    signals.send_on_commit(signals.result_confirmed, hanchan_id=game.pk)
    history.log(
        event=game.event,
        hanchan=game,
        user=user,
        action="game finished",
        summary=summary,
        reason=reason,
        after=AUTO_FINISH_MARK if automatic else None,
    )


def _recorded_summary(number: int, round_name: str, result: str) -> phrases.Phrase:
    """The history summary of a recorded hand: "Hand 3 (E3): Ron"."""
    return phrases.say(
        gettext_noop("Hand %(number)d (%(round)s): %(result)s"),
        number=number,
        round=round_name,
        result=phrases.say(RESULT_MESSAGES.get(result, result)),
    )


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


def saved_hand(hanchan: Hanchan, entry_key: str) -> Hand | None:
    """The hand of this game saved by the form whose key is ``entry_key``, if any: that form sent again
    (a double tap on "Save hand", a browser resending the page) is answered as saved instead of as a
    conflict or a second hand. The key is random per rendered form and unique per game (a constraint),
    so it names one hand whatever happened since and whatever language the pages were in; a form
    without a key is never taken for another."""
    if not entry_key:
        return None
    return hanchan.hands.filter(entry_key=entry_key).first()


def _check_key(entry_key: str) -> str:
    if not isinstance(entry_key, str) or len(entry_key) > ENTRY_KEY_LENGTH:
        raise ValidationError({"entry_key": gettext("This form is damaged: load the page again.")})
    return entry_key


@transaction.atomic
def record_hand(
    *,
    hanchan: Hanchan,
    hand: engine.Hand,
    user: Any,
    expected_version: int | None = None,
    tiles: list[Any] | None = None,
    entry_key: str = "",
    finish: bool = True,
) -> Hand:
    """Append a hand. A game the engine sees as over after it is finished automatically — unless
    ``finish`` is False: the caller decides (a table's game under a confirmation step stays in progress,
    out of the standings, until it is confirmed; nothing is finished to be reopened).

    The returned row's ``already_saved`` says whether this call saved it (False) or found the hand the
    same form (``entry_key``, see ``saved_hand``) already saved — answered as saved rather than as a
    conflict or a second hand (True; nothing is written then). Its ``ends_game`` says whether the hand
    reached the game's end.
    """
    entry_key = _check_key(entry_key)
    game = lock_game(hanchan, None)
    existing = saved_hand(game, entry_key)
    if existing is not None:
        existing.already_saved = True  # type: ignore[attr-defined]
        existing.ends_game = False  # type: ignore[attr-defined]
        hanchan.version = game.version
        hanchan.status = game.status
        return existing
    if expected_version is not None and game.version != expected_version:
        raise GameChanged(game.pk, game.version, expected_version)
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
    row.entry_key = entry_key
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
    if played.finished and finish:
        mark_finished(
            game, played, user=user, summary=phrases.say(AUTO_FINISHED), automatic=True, facts=facts
        )
    else:
        bump(game)
    hanchan.version = game.version
    hanchan.status = game.status
    row.already_saved = False  # type: ignore[attr-defined]
    row.ends_game = played.finished  # type: ignore[attr-defined]
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
        summary=phrases.say(gettext_noop("Hand %(number)d removed"), number=last.number),
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
        summary=phrases.say(gettext_noop("Hand %(number)s corrected"), number=number),
        reason=reason,
        before=before,
        after=engine.hand_to_dict(hand),
    )
    hanchan.version = game.version
    return row
