"""The work still to do, as rows written in the same transaction as the change that calls for it.

The task queue (django-tasks: the database or RQ) only carries *wake-ups*; what to do is here, so that
nothing is lost when a queue entry is, when a worker is killed mid-task, or when the same wake-up runs
twice: the task that drains a kind of work deletes its rows in the same transaction as its results.
See ``background/work.py`` and docs/tasks.md.
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone


class Pending(models.Model):
    """One piece of work of one kind (``ratings``: a game whose ratings must be rebuilt), by key.

    A key is marked at most once while it waits (``Work.mark`` merges), so ten corrections of a game
    between two rebuilds leave one row. ``scope`` is what pages ask about ("is anything of event 12
    being recomputed?"). A failed attempt stays with its error and a later ``run_after``; after the
    kind's last attempt it is ``failed`` and kept for the organiser or the administrator to see."""

    kind = models.CharField(max_length=64)
    key = models.CharField(max_length=200)
    scope = models.CharField(max_length=64, blank=True, default="")
    created_at = models.DateTimeField(default=timezone.now)
    run_after = models.DateTimeField(null=True, blank=True)
    lease_until = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True, default="")
    failed = models.BooleanField(default=False)

    class Meta:
        indexes = [
            models.Index(fields=["kind", "key"], name="background_pending_kind_key"),
            models.Index(fields=["kind", "scope"], name="background_pending_scope"),
        ]

    def __str__(self) -> str:
        return f"{self.kind}:{self.key}"


class Wakeup(models.Model):
    """The last wake-up task enqueued for a kind: another is not enqueued while this one has not started
    (a hundred hands saved during a rebuild queue one more drain, not a hundred)."""

    kind = models.CharField(max_length=64, unique=True)
    result_id = models.CharField(max_length=64)
    enqueued_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.kind}: {self.result_id}"
