"""The round clock: the organiser starts, pauses, adds or takes back time and sets a round's length; the
tables, the wall screen and the organiser's page all show the same time left.

The clock is stored as what happened (``Round.clock_started_at``, ``elapsed_seconds``, ``added_seconds``,
``minutes``), never as a ticking value, so every page and worker computes the same remaining time from
the database alone; browsers count down between two polls (``static/js/clock.js``).

When the time runs out the tables play their last hand *as the event's ruleset says*
(``time_limit``, docs/rules.md §5, "Tournament time limits"):

- ``one_more_hand`` (EMA): the hand being played is finished, then one more hand is played, the last;
- ``end_after_hand`` (WRC): the hand being played is finished and is the last;
- ``none``: the rules have no time limit: the clock is only a guide and the game is played to its end.

Each service runs in one transaction on the locked round and writes one history entry.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_noop, ngettext
from django.utils.translation import gettext_lazy as _

from league import phrases
from league.models import Event
from scoring.services import history

from .models import Round
from .rounds import get_round, open_round
from .tasks import schedule_warning

MAX_MINUTES = 600
"""A round lasts at most 10 hours (``Round.minutes``' own bound), time added included."""
MAX_ADJUST_MINUTES = 120
"""The most time one action adds or takes back: a typo of 1000 minutes is refused, not applied."""

LAST_HAND: dict[str, Promise] = {
    "one_more_hand": _(
        "Time is up: finish the hand being played, then play one more hand. That hand is the last."
    ),
    "end_after_hand": _("Time is up: finish the hand being played. It is the last hand."),
    "none": _("Time is up. These rules have no time limit: play the game to its end."),
}
"""What the tables do when the clock reaches zero, per ``Ruleset.time_limit``."""


def format_seconds(seconds: int) -> str:
    """``5:07`` under an hour, ``1:29:59`` from an hour: how the clock reads (the browser's clock.js
    writes the same)."""
    seconds = max(0, int(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def signed_minutes(seconds: int) -> str:
    """Time added as the organiser reads it: "+5", "−2" (a true minus sign), "+1:30" for odd seconds;
    empty for none."""
    if not seconds:
        return ""
    sign = "+" if seconds > 0 else "−"
    amount = abs(seconds)
    return f"{sign}{amount // 60}" if amount % 60 == 0 else f"{sign}{format_seconds(amount)}"


@dataclass(frozen=True)
class ClockState:
    """A round's clock at one moment, as every page shows it."""

    round_number: int
    status: str
    running: bool
    length_seconds: int
    elapsed_seconds: int
    remaining_seconds: int
    time_limit: str
    minutes: int = 0
    """The round's own length, in minutes (``length_seconds`` adds the time added to it)."""
    added_seconds: int = 0
    """Time added (negative: taken back) with the quick buttons or "change the time"."""

    @property
    def expired(self) -> bool:
        """Time is up: the tables are in their last hand (the clock may still be "running" at zero)."""
        return self.remaining_seconds == 0

    @property
    def started(self) -> bool:
        return self.running or self.elapsed_seconds > 0

    @property
    def closed(self) -> bool:
        return self.status == Round.Status.CLOSED

    @property
    def display(self) -> str:
        return format_seconds(self.remaining_seconds)

    @property
    def length_display(self) -> str:
        return format_seconds(self.length_seconds)

    @property
    def added_display(self) -> str:
        """The time added (or taken back, with a minus) on top of the round's length: "+5", "−2",
        "+1:30"; empty when none."""
        return signed_minutes(self.added_seconds)

    @property
    def last_hand(self) -> str:
        """What the tables do now that time is up (the event's time-limit rule)."""
        return str(LAST_HAND.get(self.time_limit, LAST_HAND["one_more_hand"]))


def clock_state(found: Round, *, time_limit: str | None = None, now: datetime | None = None) -> ClockState:
    """The clock of ``found`` at ``now``. ``time_limit`` defaults to the round's event's ruleset (pass it
    when the event is not loaded on the round, to save the query)."""
    now = now or timezone.now()
    if time_limit is None:
        time_limit = found.event.rules.time_limit
    return ClockState(
        round_number=found.number,
        status=found.status,
        running=found.running,
        length_seconds=max(0, found.minutes * 60 + found.added_seconds),
        elapsed_seconds=int(found.elapsed(now).total_seconds()),
        remaining_seconds=int(found.remaining(now).total_seconds()),
        time_limit=time_limit,
        minutes=found.minutes,
        added_seconds=found.added_seconds,
    )


# -- services ---------------------------------------------------------------------------------------------


def _not_closed(found: Round) -> None:
    if found.status == Round.Status.CLOSED:
        raise ValidationError(
            {
                "round_number": gettext("Round %(n)s is closed: its clock cannot change any more.")
                % {"n": found.number}
            }
        )


def _log(event: Event, user: Any, found: Round, action: str, summary: phrases.Phrase) -> None:
    history.log(
        event=event,
        user=user,
        action=action,
        summary=summary,
        after={
            "round": found.number,
            "minutes": found.minutes,
            "added_seconds": found.added_seconds,
            "elapsed_seconds": int(found.elapsed().total_seconds()),
            "running": found.running,
        },
    )


def start_clock(*, event: Event, number: int, user: Any) -> Round:
    """Start (or resume) round ``number``'s clock. A round not open yet is opened first — starting the
    clock is when the round starts — so its tables' links work from now. Starting a running clock
    changes nothing (a double click); a closed round, or a clock with no time left, is refused."""
    with transaction.atomic():
        found = get_round(event, number, lock=True)
        _not_closed(found)
        if found.status == Round.Status.PENDING:
            found = open_round(event=event, number=number, user=user)
        if found.running:
            return found
        if found.remaining().total_seconds() <= 0:
            raise ValidationError(
                {
                    "round_number": gettext(
                        "Round %(n)s has no time left: add time before starting its clock again."
                    )
                    % {"n": number}
                }
            )
        found.clock_started_at = timezone.now()
        found.save(update_fields=["clock_started_at"])
        schedule_warning(found)
        _log(
            event,
            user,
            found,
            "clock started",
            phrases.say(
                gettext_noop("Round %(n)s: clock started, %(left)s left."),
                n=number,
                left=format_seconds(int(found.remaining().total_seconds())),
            ),
        )
    return found


def pause_clock(*, event: Event, number: int, user: Any) -> Round:
    """Pause round ``number``'s clock where it is (a dispute, a break); pausing a stopped clock changes
    nothing."""
    with transaction.atomic():
        found = get_round(event, number, lock=True)
        _not_closed(found)
        if not found.running:
            return found
        now = timezone.now()
        found.elapsed_seconds = int(found.elapsed(now).total_seconds())
        found.clock_started_at = None
        found.save(update_fields=["elapsed_seconds", "clock_started_at"])
        _log(
            event,
            user,
            found,
            "clock paused",
            phrases.say(
                gettext_noop("Round %(n)s: clock paused, %(left)s left."),
                n=number,
                left=format_seconds(int(found.remaining(now).total_seconds())),
            ),
        )
    return found


def adjust_clock(*, event: Event, number: int, seconds: int, user: Any) -> Round:
    """Add time to round ``number`` (or take some back with a negative ``seconds``), running or not.

    Taking back more than is left ends the time (the tables play their last hand); the round's whole
    length stays between 0 and ``MAX_MINUTES``."""
    limit = MAX_ADJUST_MINUTES * 60
    if seconds == 0 or abs(seconds) > limit:
        raise ValidationError(
            {
                "minutes": gettext(
                    "Add or take back between 1 and %(limit)s minutes (a negative number takes time back)."
                )
                % {"limit": MAX_ADJUST_MINUTES}
            }
        )
    with transaction.atomic():
        found = get_round(event, number, lock=True)
        _not_closed(found)
        total = found.minutes * 60 + found.added_seconds + seconds
        if total < 0 or total > MAX_MINUTES * 60:
            raise ValidationError(
                {
                    "minutes": ngettext(
                        "Round %(n)s would last %(total)s minute: a round lasts from 0 to %(max)s minutes.",
                        "Round %(n)s would last %(total)s minutes: a round lasts from 0 to %(max)s minutes.",
                        total // 60,
                    )
                    % {"n": number, "total": total // 60, "max": MAX_MINUTES}
                }
            )
        found.added_seconds += seconds
        found.save(update_fields=["added_seconds"])
        schedule_warning(found)
        summary = gettext_noop("Round %(n)s: %(minutes)s min added, %(left)s left.")
        if seconds < 0:
            summary = gettext_noop("Round %(n)s: %(minutes)s min taken back, %(left)s left.")
        _log(
            event,
            user,
            found,
            "clock adjusted",
            phrases.say(
                summary,
                n=number,
                minutes=format_seconds(abs(seconds)) if abs(seconds) % 60 else abs(seconds) // 60,
                left=format_seconds(int(found.remaining().total_seconds())),
            ),
        )
    return found


def set_length(*, event: Event, number: int, minutes: int, user: Any, clear_added: bool = False) -> Round:
    """Set round ``number``'s length in minutes (1 to ``MAX_MINUTES``), before or during the round. Time
    added (or taken back) with the clock's buttons stays on top of the new length unless
    ``clear_added``, which makes the new length the whole time; either way the history and the page
    say which. A length shorter than the time already run ends the time."""
    if not 1 <= minutes <= MAX_MINUTES:
        raise ValidationError(
            {
                "minutes": gettext("A round lasts from 1 to %(max)s minutes, not %(minutes)s.")
                % {"max": MAX_MINUTES, "minutes": minutes}
            }
        )
    with transaction.atomic():
        found = get_round(event, number, lock=True)
        _not_closed(found)
        added = 0 if clear_added else found.added_seconds
        if found.minutes == minutes and found.added_seconds == added:
            return found
        if minutes * 60 + added > MAX_MINUTES * 60:
            raise ValidationError(
                {
                    "minutes": gettext(
                        "With the time added, round %(n)s would last more than %(max)s minutes."
                    )
                    % {"n": number, "max": MAX_MINUTES}
                }
            )
        before, dropped = found.minutes, found.added_seconds - added
        found.minutes, found.added_seconds = minutes, added
        found.save(update_fields=["minutes", "added_seconds"])
        schedule_warning(found)
        if dropped:
            said = phrases.say(
                gettext_noop(
                    "Round %(n)s: length %(before)s → %(after)s min. The %(added)s min added are dropped."
                ),
                n=number, before=before, after=minutes, added=signed_minutes(dropped),
            )  # fmt: skip
        elif added:
            said = phrases.say(
                gettext_noop("Round %(n)s: length %(before)s → %(after)s min. The %(added)s min added stay."),
                n=number, before=before, after=minutes, added=signed_minutes(added),
            )  # fmt: skip
        else:
            said = phrases.say(
                gettext_noop("Round %(n)s: length %(before)s → %(after)s min."),
                n=number, before=before, after=minutes,
            )  # fmt: skip
        _log(event, user, found, "clock length", said)
    return found
