"""The tournament day's background work (docs/tasks.md): a round's "ending soon", announced when its
clock has ``WARNING`` left (``tournaments.signals.round_ending_soon``; registration tells the players).

Starting, resuming or adjusting a running clock schedules a row due at that moment; when it comes, the
handler looks at the clock as it is then: paused or closed, nothing (resuming schedules again); time
added since, it schedules itself again for the new moment; otherwise it announces. The listeners' keys
make it once per round whatever the adjustments.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from django.utils import timezone

from background.models import Pending
from background.work import Work

WARNING = timedelta(minutes=5)
"""How long before the end of a round's time the players are told."""

_SLACK = timedelta(seconds=30)


def _warn_marked(rows: Sequence[Pending]) -> None:
    from . import signals
    from .models import Round

    for row in rows:
        found = Round.objects.filter(pk=int(row.key.partition(":")[0])).first()
        if found is None or not found.running or found.status == Round.Status.CLOSED:
            continue
        left = found.remaining()
        if left <= timedelta(0):
            continue
        if left > WARNING + _SLACK:
            schedule_warning(found)
            continue
        signals.send_on_commit(
            signals.round_ending_soon,
            event_id=found.event_id,
            number=found.number,
            minutes=max(1, round(left.total_seconds() / 60)),
        )


ROUND_ENDING = Work(
    "round-ending-soon",
    handler=_warn_marked,
    batch=50,
    description="tell the players a round's time is nearly up",
)


def schedule_warning(found: object) -> None:
    """Schedule the "ending soon" of a running round's clock (in the caller's transaction)."""
    if not getattr(found, "running", False):
        return
    left = found.remaining()  # type: ignore[attr-defined]
    if left <= WARNING:
        return
    moment = timezone.now() + left - WARNING
    key = f"{found.pk}:{moment.replace(microsecond=0).isoformat()}"  # type: ignore[attr-defined]
    if not Pending.objects.filter(kind=ROUND_ENDING.kind, key=key).exists():
        Pending.objects.create(
            kind=ROUND_ENDING.kind,
            key=key,
            scope=f"event:{found.event_id}",
            run_after=moment,  # type: ignore[attr-defined]
        )
