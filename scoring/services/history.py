"""The audit trail: every service writes one entry saying who did what, when and why."""

from __future__ import annotations

from typing import Any

from league.models import Event, Hanchan
from scoring.models import HistoryEntry


def acting_user(user: Any) -> Any:
    """The user to record as having done something: None for an anonymous user (or none at all)."""
    return user if getattr(user, "is_authenticated", False) else None


def log(
    *,
    event: Event,
    user: Any,
    action: str,
    summary: str,
    hanchan: Hanchan | None = None,
    reason: str = "",
    before: Any = None,
    after: Any = None,
) -> HistoryEntry:
    return HistoryEntry.objects.create(
        event=event,
        hanchan=hanchan,
        user=acting_user(user),
        action=action,
        summary=summary[:300],
        reason=(reason or "")[:300],
        before=before,
        after=after,
    )
