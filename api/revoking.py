"""Revoking what an organiser made for an event's API — a key, a webhook (:class:`api.models.Revocable`):
the row stays (the history and the delivery log name it), its ``revoked_at`` is set once, and the history
says who revoked it."""

from __future__ import annotations

from typing import TypeVar

from django.db import transaction
from django.utils import timezone

from league import history, phrases

from .models import Revocable

R = TypeVar("R", bound=Revocable)


@transaction.atomic
def revoke(row: R, *, user: object, action: str, summary: phrases.Phrase) -> R:
    """Set ``row``'s ``revoked_at`` under a row lock and log ``action``; revoking it again (a double tap,
    two organisers at once) changes nothing and logs nothing."""
    locked = type(row).objects.select_for_update().select_related("event").get(pk=row.pk)
    if locked.revoked_at is not None:
        return locked
    locked.revoked_at = timezone.now()
    locked.save(update_fields=["revoked_at"])
    history.log(event=locked.event, user=user, action=action, summary=summary)
    return locked
