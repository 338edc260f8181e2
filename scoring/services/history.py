"""The audit trail: every service writes one entry saying who did what, when and why."""

from __future__ import annotations

from typing import Any

from league.models import Event, Hanchan
from scoring.models import HistoryEntry


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
        user=user if getattr(user, "is_authenticated", False) else None,
        action=action,
        summary=summary[:300],
        reason=(reason or "")[:300],
        before=before,
        after=after,
    )
