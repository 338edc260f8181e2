"""Games as a whole: start one, enter its final scores, finish, void or reopen it."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop, ngettext

from league import phrases
from league.engine_text import engine_message
from league.models import Event, Hanchan, Player, Registration, Seat
from scoring import engine, signals

from . import history
from .errors import GameChanged, seat_names
from .hands import ENTRY_KEY_LENGTH, bump, lock_game, mark_finished
from .penalties import give, withdraw
from .sync import refresh, refresh_results, replay_stored


def _redated(played_on: date, before: date) -> phrases.Phrase:
    """The history's words for a new date: "played on 2025-03-08 (was 2025-03-07)"."""
    return phrases.say(
        gettext_noop("played on %(date)s (was %(before)s)"),
        date=played_on.isoformat(),
        before=before.isoformat(),
    )


def seated(players: Sequence[Any]) -> phrases.Phrase:
    """The players of a game by seat, for a history summary: "East Ann, South Bob, West Cho, North Dan"."""
    seats = [
        phrases.say(gettext_noop("%(wind)s %(player)s"), wind=phrases.wind(i), player=str(p))
        for i, p in enumerate(players)
    ]
    return phrases.say(
        gettext_noop("%(east)s, %(south)s, %(west)s, %(north)s"),
        east=seats[0],
        south=seats[1],
        west=seats[2],
        north=seats[3],
    )


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
    summary = phrases.say(
        gettext_noop("%(players)s; played on %(date)s"), players=seated(players), date=played_on.isoformat()
    )
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


ENTRY_MODE_CHANGED = "entry mode changed"  # the history's action of a switch made by the organiser


def _entered(game: Hanchan) -> tuple[list[engine.Hand], list[int | None]]:
    """What a game holds now: its recorded hands and its four final scores (None where none)."""
    from scoring.records import engine_hands

    seats = sorted(game.seats.all(), key=lambda s: s.seat)
    hands = engine_hands(game) if game.entry_mode == Hanchan.EntryMode.HANDS else []
    return hands, [s.final_score for s in seats]


def _switch_entry_mode(game: Hanchan, entry_mode: str, *, user: Any, reason: str, replace: bool) -> None:
    """Switch the locked ``game`` to ``entry_mode``, writing the history entry of the switch.

    An empty game (no hand, no final score) switches freely. One that holds a result — hands recorded,
    or final scores typed — loses it: only with ``replace`` (the organiser ticked it) and a reason,
    and the history keeps what was removed (every hand as the game record writes it, or the scores and
    sticks), so nothing entered is ever lost. The game is then in progress again, out of the standings
    until the result is entered the other way; chombo penalties given in it stay (penalties page)."""
    if entry_mode not in Hanchan.EntryMode.values:
        raise ValidationError({"entry_mode": gettext("Choose hand by hand or final scores.")})
    if game.status == Hanchan.Status.VOID:
        raise ValidationError(gettext("This game is void: reopen it first."))
    if game.entry_mode == entry_mode:
        raise ValidationError(
            {"entry_mode": gettext("This game is already entered that way: nothing to change.")}
        )
    hands, scores = _entered(game)
    has_scores = any(score is not None for score in scores)
    if hands or has_scores:
        if hands:
            what = ngettext(
                "This game has %(count)d hand recorded: entering it as final scores removes it",
                "This game has %(count)d hands recorded: entering it as final scores removes them",
                len(hands),
            ) % {"count": len(hands)}
        else:
            what = gettext("This game has its final scores: entering it hand by hand removes them")
        if not replace:
            raise ValidationError(
                {
                    "replace": gettext("%(what)s (the history keeps them). Tick the box to confirm.")
                    % {"what": what}
                }
            )
        if not (reason or "").strip():
            raise ValidationError(
                {"reason": gettext("Reason: %(what)s, so say why (the history keeps it).") % {"what": what}}
            )
    before: dict[str, Any] = {"entry_mode": game.entry_mode, "status": game.status}
    if hands:
        before["hands"] = [engine.hand_to_dict(hand) for hand in hands]
        game.hands.all().delete()
    if has_scores:
        before.update(scores=scores, sticks=game.final_sticks)
        Seat.objects.filter(hanchan=game).update(final_score=None)
    was = game.entry_mode
    bump(game, entry_mode=entry_mode, status=Hanchan.Status.IN_PROGRESS, finished_at=None, final_sticks=0)
    refresh(game)  # no hand, no score: no cached row and no result left
    parts: list[phrases.Phrase] = [
        phrases.say(
            gettext_noop("entry mode: %(before)s → %(after)s"),
            before=phrases.say(ENTRY_MODE_WORDS[was]),
            after=phrases.say(ENTRY_MODE_WORDS[entry_mode]),
        )
    ]
    if hands:
        parts.append(phrases.say(HANDS_REMOVED, count=len(hands)))
    if has_scores:
        parts.append(
            phrases.say(
                gettext_noop("final scores %(scores)s removed"),
                scores=" / ".join("–" if s is None else str(s) for s in scores),
            )
        )
    summary = phrases.joined(*parts)
    history.log(
        event=game.event,
        hanchan=game,
        user=user,
        action=ENTRY_MODE_CHANGED,
        summary=summary,
        reason=reason,
        before=before,
        after={"entry_mode": entry_mode, "status": game.status},
    )


# How the history names an entry mode (the model's choice labels, marked here for the phrases).
ENTRY_MODE_WORDS = {
    Hanchan.EntryMode.HANDS: gettext_noop("Hand by hand"),
    Hanchan.EntryMode.FINAL_SCORES: gettext_noop("Final scores"),
}
HANDS_REMOVED = phrases.ngettext_lazy("%(count)d hand removed", "%(count)d hands removed", "count")


@transaction.atomic
def change_entry_mode(
    *,
    hanchan: Hanchan,
    entry_mode: str,
    user: Any,
    reason: str = "",
    replace: bool = False,
    expected_version: int | None = None,
) -> Hanchan:
    """The organiser enters ``hanchan`` the other way: hand by hand or as final scores, whatever the
    event's table entry mode (a table's link keeps the event's; this is the organiser's choice for one
    game). A game that already holds a result loses it, with ``replace`` and a reason, the history
    keeping what was removed (see :func:`_switch_entry_mode`)."""
    game = lock_game(hanchan, expected_version)
    _switch_entry_mode(game, entry_mode, user=user, reason=reason, replace=replace)
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
    switch_mode: bool = False,
    replace_hands: bool = False,
    entry_key: str = "",
    finish: bool = True,
) -> Hanchan:
    """Enter (or correct) the four final scores of a game played on paper, and finish it — unless
    ``finish`` is False: a game in progress then stays in progress with its scores (a table's game
    under a confirmation step, finished by ``finish_game`` once confirmed); a finished game stays
    finished (a correction).

    ``played_on`` (optional) redates the game in the same change: the slip says when it was played.
    ``entry_key``: the key of the form that sent the scores; the same form sent again finds them saved
    (the returned game's ``already_saved`` is True, and nothing is written).

    They must sum to 4 × start points minus the riichi sticks left on the table; chombo deductions are
    not taken off the scores: ``chombos`` (per seat) sets how many chombo penalties of the ruleset's
    deduction each seat's player has in this game (extra ones are cancelled, missing ones given).

    A game entered hand by hand is refused unless ``switch_mode`` (the organiser's page, never a
    table's link): then it becomes a final-scores game in the same transaction — freely when it has no
    hand, with ``replace_hands`` and a reason when it has (its hands are removed, the history keeps
    them: :func:`_switch_entry_mode`). Nothing is saved when the scores are refused.
    """
    if played_on is not None:
        played_on = _check_played_on(played_on)
    if not isinstance(entry_key, str) or len(entry_key) > ENTRY_KEY_LENGTH:
        raise ValidationError({"entry_key": gettext("This form is damaged: load the page again.")})
    game = lock_game(hanchan, None)
    if entry_key and game.scores_key == entry_key:
        game.already_saved = True  # type: ignore[attr-defined]
        hanchan.refresh_from_db()
        return game
    if expected_version is not None and game.version != expected_version:
        raise GameChanged(game.pk, game.version, expected_version)
    if game.entry_mode != Hanchan.EntryMode.FINAL_SCORES:
        if not switch_mode:
            raise ValidationError(
                gettext("This game is entered hand by hand: its scores come from its hands.")
            )
        # Removed hands come back if the scores below are refused: the whole call is one transaction.
        _switch_entry_mode(
            game, Hanchan.EntryMode.FINAL_SCORES, user=user, reason=reason, replace=replace_hands
        )
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
    finishing = finish or corrected
    if finishing and game.status != Hanchan.Status.FINISHED:  # it counts from now: its players are told
        signals.send_on_commit(signals.result_confirmed, hanchan_id=game.pk)
    bump(
        game,
        final_sticks=sticks,
        status=Hanchan.Status.FINISHED if finishing else game.status,
        finished_at=(game.finished_at or timezone.now()) if finishing else None,
        scores_key=entry_key,
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
    parts: list[phrases.Phrase | str] = []
    if corrected:
        what = history.changes(old, new)[2]  # only what changed, as "field: old → new"
        if what["changes"]:
            parts.append(what)
    else:
        scores_text = " / ".join(str(s) for s in scores)
        if sticks:
            parts.append(phrases.say(STICKS_LEFT, scores=scores_text, count=sticks))
        else:
            parts.append(scores_text)
        if any(chombos_after) or chombos_after != chombos_before:
            parts.append(history.changes(old, new, ["chombos", "chombo_penalties"])[2])
    after: dict[str, Any] = dict(new)
    if redated:
        assert played_on is not None
        parts.append(_redated(played_on, dated_before))
        after["played_on"] = played_on.isoformat()
    summary = phrases.joined(*parts) if parts else phrases.say(gettext_noop("saved again, nothing changed"))
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
    game.already_saved = False  # type: ignore[attr-defined]
    return game


STICKS_LEFT = phrases.ngettext_lazy(
    "%(scores)s, %(count)d stick left", "%(scores)s, %(count)d sticks left", "count"
)


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


# The reasons code gives when the final scores' chombo counts change (``Penalty.reason_data``).
CHOMBO_WITH_FINAL_SCORES = gettext_noop("chombo (entered with the final scores)")
FINAL_SCORES_CORRECTED = gettext_noop("final scores corrected")


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
            withdraw(penalty, user=user, reason=phrases.say(FINAL_SCORES_CORRECTED))
        for _ in range(wanted - len(active)):
            give(
                event=game.event,
                player=player,
                hanchan=game,
                points=-rules.chombo_points,
                kind=Penalty.Kind.CHOMBO,
                reason=phrases.say(CHOMBO_WITH_FINAL_SCORES),
                user=user,
            )


@transaction.atomic
def finish_game(
    *, hanchan: Hanchan, user: Any, reason: history.Text = "", expected_version: int | None = None
) -> None:
    """Finish a game in progress. Hand by hand: before its natural end this is an early end (a time
    limit): say why. Entered as final scores: its four scores must be there (a table's scores held for
    a confirmation, or a game reopened after they were entered)."""
    game = lock_game(hanchan, expected_version)
    if game.status == Hanchan.Status.FINISHED:
        raise ValidationError(gettext("This game is already finished."))
    if game.status == Hanchan.Status.VOID:
        raise ValidationError(gettext("This game is void: reopen it first."))
    if game.entry_mode == Hanchan.EntryMode.FINAL_SCORES:
        if game.seats.filter(final_score__isnull=True).exists() or game.seats.count() != 4:
            raise ValidationError(gettext("Enter the four final scores: that finishes the game."))
        mark_finished(game, None, user=user, summary=phrases.say(gettext_noop("Finished")), reason=reason)
        hanchan.refresh_from_db()
        return
    played, _ = replay_stored(game)
    if not played.hands:
        raise ValidationError(gettext("A game needs at least one hand to be finished."))
    if not played.finished and not history.given(reason):
        raise ValidationError(
            {"reason": gettext("The game has not reached its end: say why it ends now (e.g. time limit).")}
        )
    if played.finished:
        summary = phrases.say(gettext_noop("Finished"))
    else:
        summary = phrases.say(gettext_noop("Finished early after hand %(number)d"), number=len(played.hands))
    mark_finished(game, played, user=user, summary=summary, reason=reason)
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
        summary=phrases.say(gettext_noop("Voided")),
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
        summary=phrases.say(gettext_noop("Reopened")),
        reason=reason,
    )
    hanchan.refresh_from_db()
