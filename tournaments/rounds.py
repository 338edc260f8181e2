"""Rounds of a tournament as the day runs them: open for the tables' entry, closed when every table is in.

A ``Round`` row is created on first need (seating makes ``Hanchan`` rows with a round number; the row
holding the round's state and clock appears when the organiser first opens or times it), so events
seated before rounds had a state keep working.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from league import phrases
from league.models import Event, Hanchan
from scoring.services import history

from . import signals
from .links import issue_links
from .models import Round


def seated_round_numbers(event: Event) -> list[int]:
    """The rounds that have tables, in order."""
    numbers = Hanchan.objects.filter(event=event, round_number__isnull=False).values_list(
        "round_number", flat=True
    )
    return sorted(set(numbers))


def get_round(event: Event, number: int, *, lock: bool = False) -> Round:
    """The round's row, created with the event's round length if it does not exist yet. Refuses a round
    with no tables (there is nothing to open or time)."""
    if not Hanchan.objects.filter(event=event, round_number=number).exists():
        raise ValidationError({"round_number": _("Round %(number)s has no tables.") % {"number": number}})
    found, _created = Round.objects.get_or_create(
        event=event, number=number, defaults={"minutes": event.round_minutes}
    )
    if lock:
        found = Round.objects.select_for_update().get(pk=found.pk)
    return found


def current_round(event: Event) -> Round | None:
    """The round the room is playing: the open one (the lowest if several), else None."""
    return Round.objects.filter(event=event, status=Round.Status.OPEN).order_by("number").first()


def open_round(*, event: Event, number: int, user: Any) -> Round:
    """Open a round: its tables' entry links work from now until it is closed. Tables without a link get
    one (when the event lets tables enter their games), so opening is all it takes on the day."""
    with transaction.atomic():
        found = get_round(event, number, lock=True)
        if event.table_entry:
            issue_links(event=event, number=number, user=user)
        if found.status == Round.Status.OPEN:
            return found
        found.status = Round.Status.OPEN
        found.opened_at = timezone.now()
        found.closed_at = None
        found.save(update_fields=["status", "opened_at", "closed_at"])
        history.log(
            event=event,
            user=user,
            action="round_open",
            summary=phrases.say(gettext_noop("Round %(n)s opened."), n=number),
        )
        signals.round_started.send(sender=Event, event=event, number=number)
    return found


def tables_not_in(event: Event, number: int) -> list[int]:
    """The table numbers of round ``number`` whose game is neither finished nor void (one query)."""
    return list(
        Hanchan.objects.filter(event=event, round_number=number, status=Hanchan.Status.IN_PROGRESS)
        .order_by("table_number")
        .values_list("table_number", flat=True)
    )


def close_round(*, event: Event, number: int, user: Any, allow_unfinished: bool = True) -> Round:
    """Close a round: its tables' links stop working; the organiser can still correct every game.

    The organiser closes a round when every table is in; ``allow_unfinished=False`` (the round page
    without its "close anyway" box ticked) refuses while a table's game is still in progress, naming
    the tables, so a round is not closed on a table still playing by a stray tap."""
    with transaction.atomic():
        found = get_round(event, number, lock=True)
        if found.status == Round.Status.CLOSED:
            return found
        missing = [] if allow_unfinished else tables_not_in(event, number)
        if missing:
            raise ValidationError(
                {
                    "anyway": ngettext(
                        "Table %(tables)s is not in yet: close the round anyway, or wait for it.",
                        "Tables %(tables)s are not in yet: close the round anyway, or wait for them.",
                        len(missing),
                    )
                    % {"tables": ", ".join(str(t) for t in missing)}
                }
            )
        found.status = Round.Status.CLOSED
        found.closed_at = timezone.now()
        if found.clock_started_at is not None:  # a closed round's clock stops where it was
            found.elapsed_seconds = int(found.elapsed().total_seconds())
            found.clock_started_at = None
        found.save(update_fields=["status", "closed_at", "elapsed_seconds", "clock_started_at"])
        history.log(
            event=event,
            user=user,
            action="round_close",
            summary=phrases.say(gettext_noop("Round %(n)s closed."), n=number),
        )
        signals.round_ended.send(sender=Event, event=event, number=number)
    return found
