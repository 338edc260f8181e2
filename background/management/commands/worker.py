"""``manage.py worker``: run background tasks on the configured backend (TASKS_BACKEND), sweeping for
work left behind when it starts and every minute (background/worker.py, docs/tasks.md)."""

from __future__ import annotations

import logging

from django.core.management.base import BaseCommand, CommandError

from background.worker import SWEEP_EVERY, backend_name, run_database_worker, run_rq_worker


class Command(BaseCommand):
    help = "Run background tasks (ratings rebuilds, imports) on the configured backend."

    def add_arguments(self, parser):  # type: ignore[no-untyped-def]
        parser.add_argument("--queue", default="default", help="comma-separated queues (default: default)")
        parser.add_argument(
            "--interval", type=float, default=1.0, help="seconds between polls (database backend)"
        )
        parser.add_argument(
            "--sweep-every", type=float, default=SWEEP_EVERY, help="seconds between sweeps for left work"
        )
        parser.add_argument("--burst", action="store_true", help="run what is ready, then exit")

    def handle(self, *args, queue: str, interval: float, sweep_every: float, burst: bool, **options) -> None:  # type: ignore[no-untyped-def]
        if options["verbosity"] >= 1:
            for name in ("background", "django_tasks", "django_tasks_db", "rq.worker"):
                logger = logging.getLogger(name)
                logger.setLevel(logging.INFO if options["verbosity"] == 1 else logging.DEBUG)
                if not logger.handlers:
                    logger.addHandler(logging.StreamHandler(self.stderr))
        queues = [q for q in queue.split(",") if q]
        backend = backend_name()
        if backend == "database":
            run_database_worker(queues=queues, interval=interval, sweep_every=sweep_every, burst=burst)
        elif backend == "rq":
            run_rq_worker(queues=queues, sweep_every=sweep_every, burst=burst)
        else:
            raise CommandError("TASKS_BACKEND=immediate runs every task where it is enqueued: no worker")
