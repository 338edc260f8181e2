"""Reads of registration for pages: a fixed number of queries however many sign-ups."""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.db.models import Q, QuerySet

from league.models import Event

from .models import Opening, SignUp


def opening_of(event: Event) -> Opening | None:
    return Opening.objects.filter(event=event).first()


def signups(event: Event) -> QuerySet[SignUp]:
    """The event's sign-ups in the list's order: by state, the waiting list in its order, then by time."""
    return (
        SignUp.objects.filter(event=event)
        .select_related("player", "registration")
        .order_by("created_at", "pk")
    )


def counts(rows: list[SignUp]) -> dict[str, int]:
    tally = Counter(row.status for row in rows)
    return {status: tally.get(status, 0) for status in SignUp.Status.values}


def waiting_order(rows: list[SignUp]) -> dict[int, int]:
    """Each waiting sign-up's place on the waiting list (1 = the next to get a place)."""
    waiting = sorted(
        (r for r in rows if r.status == SignUp.Status.WAITING),
        key=lambda r: (r.waiting_since or r.created_at, r.pk),
    )
    return {row.pk: number for number, row in enumerate(waiting, start=1)}


def waiting_place(signup: SignUp) -> int | None:
    """The sign-up's place on its waiting list (one query), or None when it is not waiting."""
    if signup.status != SignUp.Status.WAITING:
        return None
    since = signup.waiting_since or signup.created_at
    ahead = SignUp.objects.filter(event=signup.event_id, status=SignUp.Status.WAITING).filter(
        Q(waiting_since__lt=since) | Q(waiting_since=since, pk__lt=signup.pk)
    )
    return ahead.count() + 1


def check_in_rows(event: Event, query: str = "") -> dict[str, Any]:
    """The confirmed sign-ups for the check-in list, those matching ``query`` (name, club, EMA number)."""
    rows = SignUp.objects.filter(event=event, status=SignUp.Status.CONFIRMED).order_by("name", "pk")
    total = list(rows.values_list("checked_in_at", flat=True))
    if query:
        rows = rows.filter(
            Q(name__icontains=query) | Q(club__icontains=query) | Q(ema_number__startswith=query)
        )
    return {
        "rows": list(rows),
        "confirmed": len(total),
        "arrived": sum(1 for at in total if at is not None),
    }
