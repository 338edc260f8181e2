"""The notifications' kinds of background work (docs/tasks.md): send one queued e-mail, one push."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from background.models import Pending
from background.work import Work


def _send_marked(rows: Sequence[Pending]) -> None:
    from .outbox import send_message

    for row in rows:
        send_message(int(row.key))


def _push_marked(rows: Sequence[Pending]) -> None:
    from .push import send_push

    for row in rows:
        send_push(int(row.key))


EMAIL = Work(
    "email",
    handler=_send_marked,
    batch=1,  # one message per transaction: a failure retries that message alone
    retry_delay=timedelta(minutes=1),
    description="send a queued e-mail",
)

PUSH = Work(
    "push",
    handler=_push_marked,
    batch=1,  # one push per transaction: a push service that fails retries that push alone
    retry_delay=timedelta(minutes=1),
    description="send a queued Web Push message",
)
