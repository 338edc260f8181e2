"""Registration's background work (docs/tasks.md): the event page's "Register" link follows the opening's
dates. The page's body is cached by the event's results version; when registration opens or closes by
the clock, with no write to move that version, this work moves it at that moment (due then: the
worker's sweep runs it within a minute), so the cached page shows the link exactly while registration
is open."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from django.utils import timezone

from background.models import Pending
from background.work import Work
from league.versions import bump_results


def _bump_marked(rows: Sequence[Pending]) -> None:
    bump_results(event_ids={int(row.key.partition(":")[0]) for row in rows})


WINDOW = Work(
    "registration-window",
    handler=_bump_marked,
    batch=100,
    description="show or hide an event's Register link when its registration opens or closes",
)


def schedule_window(event_id: int, *moments: datetime) -> None:
    """Bump the event's version at each of ``moments`` still to come (in the caller's transaction)."""
    now = timezone.now()
    for moment in moments:
        if moment <= now:
            continue
        key = f"{event_id}:{moment.isoformat()}"
        if not Pending.objects.filter(kind=WINDOW.kind, key=key).exists():
            Pending.objects.create(kind=WINDOW.kind, key=key, scope=f"event:{event_id}", run_after=moment)
