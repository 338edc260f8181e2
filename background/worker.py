"""Running the workers: ``manage.py worker`` on either backend, and draining the queue in-process.

Whatever the backend, a worker first sweeps (``work.sweep``: wakes every kind with work waiting — what
a worker that died, or a queue that lost its entries, left behind), then runs tasks, sweeping again every
``sweep_every`` seconds while it waits.
"""

from __future__ import annotations

import logging
import time

from django.conf import settings
from django.db import close_old_connections, connections

from . import work

logger = logging.getLogger(__name__)

SWEEP_EVERY = 60.0


def backend_name() -> str:
    """``database``, ``rq`` or ``immediate``: what ``TASKS_BACKEND`` chose (config/settings.py)."""
    path = settings.TASKS["default"]["BACKEND"]
    if path.startswith("django_tasks_db"):
        return "database"
    if path.startswith("django_tasks_rq"):
        return "rq"
    return "immediate"


def _sweep() -> None:
    try:
        woken = work.sweep()
        if woken:
            logger.info("sweep woke %s", ", ".join(woken))
    except Exception:  # noqa: BLE001 -- a database that is away for a moment: sweep next time
        logger.exception("sweep failed")
    finally:
        if not connections["default"].in_atomic_block:  # run_ready inside a test's transaction
            close_old_connections()


def run_database_worker(
    *, queues: list[str], interval: float = 1.0, sweep_every: float = SWEEP_EVERY, burst: bool = False
) -> None:
    """django-tasks-db's worker, in rounds: sweep when due, run every ready task, sleep ``interval``.

    ``burst``: one sweep, every ready task (and those they enqueue), then return — for tests and cron."""
    from django.utils.crypto import get_random_string
    from django_tasks_db.management.commands.db_worker import Worker

    worker = Worker(
        queue_names=queues,
        interval=0,
        batch=True,
        backend_name="default",
        startup_delay=False,
        max_tasks=None,
        worker_id=get_random_string(32),
        excluded_queue_names=[],
    )
    if not burst:
        worker.configure_signals()  # SIGTERM: finish the task in hand, then stop
    last_sweep = float("-inf")
    while worker.running:
        if time.monotonic() - last_sweep >= sweep_every:
            _sweep()
            last_sweep = time.monotonic()
        worker.run()  # returns once no task is ready
        if burst:
            return
        if worker.running:
            time.sleep(interval)


def run_rq_worker(
    *,
    queues: list[str],
    sweep_every: float = SWEEP_EVERY,
    burst: bool = False,
    in_process: bool = False,
    max_jobs: int | None = None,
    logging_level: str | None = None,
) -> None:
    """An RQ worker (django-rq's, with django-tasks-rq's job class) that sweeps as part of RQ's own
    periodic maintenance. RQ runs each job in a forked child (a job that crashes or leaks takes only
    that child); ``in_process`` runs them in this process instead (tests, on the test's connection)."""
    import django_rq
    from django_tasks_rq.backend import Job
    from rq.worker import SimpleWorker, Worker

    base = SimpleWorker if in_process else Worker

    class SweepingWorker(base):  # type: ignore[valid-type,misc]
        def run_maintenance_tasks(self) -> None:
            super().run_maintenance_tasks()
            _sweep()

        def fork_work_horse(self, job, queue):  # type: ignore[no-untyped-def]
            # The child must not share the parent's database sockets (the sweep's): it opens its own.
            connections.close_all()
            return super().fork_work_horse(job, queue)

    _sweep()
    worker = django_rq.get_worker(
        *queues,
        job_class=Job,
        worker_class=SweepingWorker,
        maintenance_interval=int(sweep_every),
        # RQ waits for a job for (ttl - 15) s before its loop can sweep again.
        worker_ttl=max(int(sweep_every) + 15, 30),
    )
    worker.work(burst=burst, with_scheduler=False, max_jobs=max_jobs, logging_level=logging_level)


def run_ready() -> None:
    """Sweep, then run, in this process, every task that is ready and every one they enqueue; return.

    For tests and one-off scripts (the sweep finds work whose wake-up never came: a test whose
    transaction never commits); with the immediate backend every task already ran when it was enqueued.
    The caller's database connection is kept as it is: the worker's loop closes connections it thinks
    stale, which inside a test's transaction would close the test's."""
    name = backend_name()
    if name == "database":
        from django_tasks_db.management.commands import db_worker

        closing = db_worker.close_old_connections
        db_worker.close_old_connections = lambda **kwargs: None  # type: ignore[assignment]
        try:
            run_database_worker(queues=["*"], burst=True, sweep_every=0)
        finally:
            db_worker.close_old_connections = closing
    elif name == "rq":
        run_rq_worker(
            queues=list(settings.RQ_QUEUES),
            burst=True,
            sweep_every=0,
            in_process=True,
            logging_level="WARNING",
        )
