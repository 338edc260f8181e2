"""The API's background work (background/work.py, docs/tasks.md): webhook deliveries, one a drain.

A delivery is an outgoing request, which no transaction can undo, so the kind holds a lease rather than
a transaction (``atomic=False``) and each delivery saves its own attempt before it raises for a retry;
the backoff is the framework's (``retry_delay`` doubled after each failure, five attempts)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from background.models import Pending
from background.work import Work


def _deliver(rows: Sequence[Pending]) -> None:
    from api.webhooks import deliver, give_up

    for row in rows:
        try:
            deliver(int(row.key))
        except Exception:
            if row.attempts >= WEBHOOKS.attempts:
                give_up(int(row.key))
            raise


WEBHOOKS = Work(
    "webhook",
    handler=_deliver,
    batch=1,
    atomic=False,
    attempts=5,
    retry_delay=timedelta(seconds=30),
    lease=timedelta(minutes=2),
    description="send a webhook delivery",
)
