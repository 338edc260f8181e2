"""A real worker process for the worker tests (tests/background/test_workers.py), with a hook in the
ratings rebuild: ``python -m tests.background.worker_process DIR MODE [--one]``.

Each rebuild appends a line to ``DIR/calls`` (the tests count rebuilds across processes). MODE:
``block`` waits for ``DIR/go`` before rebuilding (a rebuild "running" while the test makes changes),
``hang`` rebuilds, writes ``DIR/written`` and sleeps inside the uncommitted transaction (to be killed
with ``kill -9`` there), ``plain`` just rebuilds. ``--one``: run one task, then exit. The database and the
backend come from the environment, as for ``manage.py worker``."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402

from background.worker import backend_name, run_database_worker, run_rq_worker  # noqa: E402
from scoring.tasks import RATINGS  # noqa: E402

folder, mode = Path(sys.argv[1]), sys.argv[2]
one = "--one" in sys.argv
real = RATINGS.handler


def wait_for(path: Path) -> None:
    deadline = time.monotonic() + 120
    while not path.exists():
        if time.monotonic() > deadline:
            raise TimeoutError(path)
        time.sleep(0.02)


def hooked(rows):  # type: ignore[no-untyped-def]
    with (folder / "calls").open("a") as calls:
        calls.write(f"{os.getpid()} {sorted(row.key for row in rows)}\n")
    if mode == "block":
        (folder / "started").touch()
        wait_for(folder / "go")
    real(rows)
    if mode == "hang":
        # The process doing the work: RQ's work horse is a child in a session of its own.
        (folder / "written").write_text(str(os.getpid()))
        time.sleep(3600)


RATINGS.handler = hooked

if backend_name() == "database":
    if one:
        from django.utils.crypto import get_random_string
        from django_tasks_db.management.commands.db_worker import Worker

        from background import work

        work.sweep()
        Worker(
            queue_names=["*"],
            interval=0,
            batch=True,
            backend_name="default",
            startup_delay=False,
            max_tasks=1,
            worker_id=get_random_string(32),
            excluded_queue_names=[],
        ).run()
    else:
        run_database_worker(queues=["*"], burst=True, sweep_every=0)
else:
    run_rq_worker(queues=list(settings.RQ_QUEUES), burst=True, sweep_every=0, max_jobs=1 if one else None)
