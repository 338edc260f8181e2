"""Keyed, idempotent, retried background work (docs/tasks.md).

A kind of work is declared once, beside the service it serves (``scoring/tasks.py``)::

    RATINGS = Work("ratings", handler=rebuild_marked_games, batch=100_000)

- ``RATINGS.mark(key, scope=...)``, called inside the change's own transaction, records the work as a
  :class:`~background.models.Pending` row — merged with a row of the same key that is still waiting, so
  ten corrections of one game between two rebuilds leave one row — and, once the transaction commits,
  wakes a worker (:meth:`Work.wake`). A rolled-back change leaves neither.
- A worker runs the ``background.tasks.drain`` task, which calls :func:`drain`: it claims the waiting
  rows of the kind, calls ``handler(rows)`` and deletes the rows **in the same transaction as the
  handler's results**. A worker killed mid-task (``kill -9``) leaves its transaction uncommitted: the rows
  are still there, and the next drain does the same work again to the same final state.
- A wake-up is enqueued only when the last one of the kind has started (or is gone): a hundred marks
  while a drain runs queue one more drain, which takes all of them at once.
- A handler that raises is retried: its rows get their error, one more attempt and a later
  ``run_after`` (exponential backoff); after ``attempts`` tries they are kept as ``failed``.
- :func:`sweep` wakes every kind that has work waiting. ``manage.py worker`` runs it when it starts and
  every minute, which covers a wake-up lost with its queue (Redis flushed, a worker killed after taking
  it) and the retries that came due.

``atomic=False`` is for handlers that commit on their own (an import that shows its progress while it
runs): the rows are then claimed with a lease (``lease_until``) instead of a row lock, the handler runs
outside any transaction, and a row whose lease ran out (its worker died) is claimed again. Such a
handler must be idempotent by itself (an import job that is done does nothing).

Rows are claimed with ``SELECT … FOR UPDATE SKIP LOCKED`` on PostgreSQL, so marks never wait for a drain
and two workers never take the same rows; SQLite has a single writer, which gives the same guarantees
(a mark waits for a drain's commit there, as every write does).
"""

from __future__ import annotations

import logging
import traceback
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import timedelta

from django.db import connection, transaction
from django.db.models import Max, Q, QuerySet
from django.utils import timezone

from .models import Pending, Wakeup

logger = logging.getLogger(__name__)

Handler = Callable[[Sequence[Pending]], None]

_REGISTRY: dict[str, Work] = {}


@dataclass(eq=False)
class Work:
    """A kind of background work: its name, what does it, and how (see the module's docstring).

    ``batch``: rows per handler call (one transaction); ``attempts``: tries before a row is kept as
    failed; ``retry_delay``: the first retry's delay, doubled after each failure (at most an hour);
    ``lease``: how long a non-atomic handler may run before its rows are taken again."""

    kind: str
    handler: Handler
    batch: int = 1
    atomic: bool = True
    attempts: int = 5
    retry_delay: timedelta = timedelta(seconds=30)
    lease: timedelta = timedelta(minutes=15)
    description: str = field(default="", repr=False)

    def __post_init__(self) -> None:
        if len(self.kind) > 64:
            raise ValueError(f"a kind of work has at most 64 characters: {self.kind!r}")
        _REGISTRY[self.kind] = self

    # -- the writer's side ---------------------------------------------------------------------------

    def mark(self, key: object, *, scope: str = "") -> None:
        """Record that ``key`` is to be done, in the caller's transaction, and wake a worker on commit.

        A row of the same key that waits (not claimed by a running drain, not failed) already says so:
        nothing is added. Two small queries; the caller never waits for the work."""
        self.mark_many([(key, scope)])

    def mark_many(self, items: Iterable[tuple[object, str]]) -> None:
        """:meth:`mark` for many (key, scope) pairs at once: one query to find those already waiting and
        one insert per thousand (a rebuild or an import of a season marks thousands of games)."""
        wanted = {str(key): scope for key, scope in items}
        if not wanted:
            return
        keys = list(wanted)
        with transaction.atomic(savepoint=False):
            waiting: set[str] = set()
            for start in range(0, len(keys), 1000):
                rows = Pending.objects.filter(
                    kind=self.kind, key__in=keys[start : start + 1000], failed=False, lease_until__isnull=True
                ).values_list("key", flat=True)
                if connection.vendor == "postgresql":
                    # A row a drain holds is being done with what it saw: it does not count as waiting.
                    rows = rows.select_for_update(skip_locked=True)
                waiting.update(rows)
            Pending.objects.bulk_create(
                [Pending(kind=self.kind, key=key, scope=wanted[key]) for key in keys if key not in waiting],
                batch_size=1000,
            )
            self._wake_on_commit()

    def _wake_on_commit(self) -> None:
        """One wake-up per kind and transaction, after the commit (none after a rollback)."""
        if not connection.in_atomic_block:
            self.wake()
            return
        for _savepoints, func, _robust in connection.run_on_commit:
            if getattr(func, "wakes_kind", None) == self.kind:
                return

        def wake_after_commit() -> None:
            self.wake()

        wake_after_commit.wakes_kind = self.kind  # type: ignore[attr-defined]
        transaction.on_commit(wake_after_commit, robust=True)

    def wake(self) -> None:
        """Enqueue a drain of this kind, unless the last one enqueued has not started yet.

        Never raises: a queue that cannot be reached (Redis down) is logged, and the worker's sweep wakes
        the kind later — the work itself is safe in the database."""
        from django_tasks import TaskResultStatus
        from django_tasks.exceptions import TaskResultDoesNotExist

        from .tasks import drain as drain_task

        try:
            backend = drain_task.get_backend()
            if backend.supports_get_result:
                last = Wakeup.objects.filter(kind=self.kind).values_list("result_id", flat=True).first()
                if last is not None:
                    try:
                        if backend.get_result(last).status == TaskResultStatus.READY:
                            return
                    except TaskResultDoesNotExist:
                        pass
            result = drain_task.enqueue(self.kind)
            if backend.supports_get_result:
                Wakeup.objects.update_or_create(
                    kind=self.kind, defaults={"result_id": str(result.id), "enqueued_at": timezone.now()}
                )
        except Exception:  # noqa: BLE001 -- the sweep will wake it; a request must not fail for this
            logger.exception("could not enqueue a drain of %s; the worker's sweep will", self.kind)

    # -- the readers' side ---------------------------------------------------------------------------

    def pending(self, *, scope: str | None = None) -> bool:
        """Whether work of this kind (of ``scope``) waits or runs: what pages say "updating…" from
        (one indexed query, in plain SQL: pages ask it on every request). Failed work is not pending:
        it waits for a person."""
        table = connection.ops.quote_name(Pending._meta.db_table)
        sql = f'SELECT 1 FROM {table} WHERE "kind" = %s AND NOT "failed"'
        params: list[object] = [self.kind]
        if scope is not None:
            sql += ' AND "scope" = %s'
            params.append(scope)
        with connection.cursor() as cursor:
            cursor.execute(sql + " LIMIT 1", params)
            return cursor.fetchone() is not None

    # -- the worker's side ---------------------------------------------------------------------------

    def drain(self) -> int:
        """Do every row of this kind that was due when the drain started, batch after batch; the number
        of rows done or failed. Rows marked meanwhile have their own wake-up (this one was running when
        they were marked), so a drain ends: ten marks during a drain make exactly one more."""
        upto = Pending.objects.filter(kind=self.kind).aggregate(last=Max("pk"))["last"]
        done = 0
        while upto is not None and (count := self._run_once(upto)) is not None:
            done += count
        return done

    def _due(self, upto: int) -> QuerySet[Pending]:
        now = timezone.now()
        return Pending.objects.filter(kind=self.kind, failed=False, pk__lte=upto).filter(
            Q(run_after__isnull=True) | Q(run_after__lte=now)
        )

    def _run_once(self, upto: int) -> int | None:
        if not self.atomic:
            return self._run_leased(upto)
        with transaction.atomic():
            due = self._due(upto).filter(lease_until__isnull=True)
            rows = list(_locked(due).order_by("pk")[: self.batch])
            if not rows:
                return None
            try:
                with transaction.atomic():
                    self.handler(rows)
            except Exception as exc:  # noqa: BLE001 -- recorded on the rows, retried later
                self._failed(rows, exc)
            else:
                Pending.objects.filter(pk__in=[row.pk for row in rows]).delete()
            return len(rows)

    def _run_leased(self, upto: int) -> int | None:
        now = timezone.now()
        with transaction.atomic():
            due = self._due(upto).filter(Q(lease_until__isnull=True) | Q(lease_until__lt=now))
            rows = list(_locked(due).order_by("pk")[: self.batch])
            if not rows:
                return None
            # A lease taken again means a worker died holding it: that counts as an attempt too.
            for row in rows:
                row.lease_until = now + self.lease
                row.attempts += 1
            Pending.objects.bulk_update(rows, ["lease_until", "attempts"])
        try:
            self.handler(rows)
        except Exception as exc:  # noqa: BLE001
            with transaction.atomic():
                self._failed(rows, exc, counted=True)
        else:
            Pending.objects.filter(pk__in=[row.pk for row in rows]).delete()
        return len(rows)

    def _failed(self, rows: Sequence[Pending], exc: BaseException, *, counted: bool = False) -> None:
        """Keep the rows with their error for a later attempt, or as failed after the last one."""
        error = "".join(traceback.format_exception(exc))[-4000:]
        for row in rows:
            if not counted:
                row.attempts += 1
            row.last_error = error
            row.lease_until = None
            if row.attempts >= self.attempts:
                row.failed = True
                row.run_after = None
            else:
                delay = min(self.retry_delay * 2 ** (row.attempts - 1), timedelta(hours=1))
                row.run_after = timezone.now() + delay
        Pending.objects.bulk_update(rows, ["attempts", "last_error", "lease_until", "failed", "run_after"])
        level = logging.ERROR if any(row.failed for row in rows) else logging.WARNING
        logger.log(
            level,
            "%s: %s failed (attempt %s of %s): %s",
            self.kind,
            [row.key for row in rows][:20],
            max(row.attempts for row in rows),
            self.attempts,
            exc,
        )


def _locked(rows: QuerySet[Pending]) -> QuerySet[Pending]:
    """Rows that no other drain holds, held until the end of the transaction (PostgreSQL)."""
    if connection.vendor == "postgresql":
        return rows.select_for_update(skip_locked=True)
    return rows


def registered(kind: str) -> Work:
    """The kind of work named ``kind`` (its module is imported by ``BackgroundConfig.ready``)."""
    try:
        return _REGISTRY[kind]
    except KeyError:
        raise LookupError(f"no background work of kind {kind!r}") from None


def kinds() -> list[str]:
    return sorted(_REGISTRY)


def drain(kind: str) -> int:
    """What the ``drain`` task does: every due row of ``kind`` (see :meth:`Work.drain`)."""
    return registered(kind).drain()


def sweep() -> list[str]:
    """Wake every kind that has due work and no live claim on it: a worker runs this when it starts and
    every minute, so work whose wake-up was lost, or whose retry came due, is done without a new change."""
    now = timezone.now()
    due = (
        Pending.objects.filter(failed=False)
        .filter(Q(run_after__isnull=True) | Q(run_after__lte=now))
        .filter(Q(lease_until__isnull=True) | Q(lease_until__lt=now))
        .values_list("kind", flat=True)
        .distinct()
        .order_by()
    )
    woken = []
    for kind in sorted(set(due)):
        if kind in _REGISTRY:
            _REGISTRY[kind].wake()
            woken.append(kind)
        else:
            logger.warning("pending work of unknown kind %r: is its module gone?", kind)
    return woken
