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

from league.models import Event, Hanchan
from scoring.services import history

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
    """Open a round: its tables' entry links work from now until it is closed."""
    with transaction.atomic():
        found = get_round(event, number, lock=True)
        if found.status == Round.Status.OPEN:
            return found
        found.status = Round.Status.OPEN
        found.opened_at = timezone.now()
        found.closed_at = None
        found.save(update_fields=["status", "opened_at", "closed_at"])
        history.log(
            event=event, user=user, action="round_open", summary=_("Round %(n)s opened.") % {"n": number}
        )
    return found


def close_round(*, event: Event, number: int, user: Any) -> Round:
    """Close a round: its tables' links stop working; the organiser can still correct every game."""
    with transaction.atomic():
        found = get_round(event, number, lock=True)
        if found.status == Round.Status.CLOSED:
            return found
        found.status = Round.Status.CLOSED
        found.closed_at = timezone.now()
        if found.clock_started_at is not None:  # a closed round's clock stops where it was
            found.elapsed_seconds = int(found.elapsed().total_seconds())
            found.clock_started_at = None
        found.save(update_fields=["status", "closed_at", "elapsed_seconds", "clock_started_at"])
        history.log(
            event=event, user=user, action="round_close", summary=_("Round %(n)s closed.") % {"n": number}
        )
    return found
