"""Real worker processes on the real queue: the database backend (SQLite and PostgreSQL) and RQ on
Redis (when ``TASKS_REDIS_URL`` names one: CI's PostgreSQL pass does).

- Ten corrections while a rebuild runs leave one mark and queue one wake-up: exactly one more rebuild
  runs, not ten, and the ratings end as a full rebuild would leave them.
- A worker killed with ``kill -9`` in the middle of a rebuild (its rows written, not committed) loses
  nothing: the mark is still there, the next worker's sweep finds it and rebuilds to the same state as
  an uninterrupted run.

The workers are subprocesses (``tests/background/worker_process.py``) on the test database, with a hook
in the rebuild that makes it wait or hang where the test needs it.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.db import connection
from django_tasks.signals import task_enqueued

from background.models import Pending
from scoring import services
from tests.scoring.test_ratings import assert_same_as_a_full_rebuild, final_game, snapshot, worker

REPO = Path(__file__).resolve().parents[2]
REDIS_URL = os.environ.get("TASKS_REDIS_URL", "")
BACKENDS = ["database", "rq"] if REDIS_URL else ["database"]

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(params=BACKENDS)
def backend(request, settings):
    """The test process and its workers on one backend; RQ's queue emptied first."""
    from config.settings import tasks_from_env

    settings.TASKS, settings.RQ_QUEUES = tasks_from_env(request.param, REDIS_URL)
    if request.param == "rq":
        import django_rq

        django_rq.get_connection("default").flushdb()
    return request.param


def database_url() -> str:
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return f"postgres://{db['USER']}{password}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def start_worker(folder: Path, backend: str, mode: str, *, one: bool = False) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "TASKS_BACKEND": backend,
        "TASKS_REDIS_URL": REDIS_URL,
        "DEBUG": "true",
    }
    command = [sys.executable, "-m", "tests.background.worker_process", str(folder), mode]
    # A session of its own: kill -9 takes the worker and any child it forked (RQ's work horse).
    return subprocess.Popen(
        [*command, *(["--one"] if one else [])], cwd=REPO, env=env, start_new_session=True
    )


def wait_for(path: Path, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 120
    while not path.exists():
        assert process.poll() is None, f"the worker exited ({process.returncode}) before {path.name}"
        assert time.monotonic() < deadline, f"no {path.name} after 120 s"
        time.sleep(0.05)


def rebuilds(folder: Path) -> list[str]:
    calls = folder / "calls"
    return calls.read_text().splitlines() if calls.exists() else []


def test_ten_corrections_during_a_rebuild_make_one_more_rebuild(backend, tmp_path, event, players, organiser):
    enqueued: list[str] = []

    def count(sender, task_result, **kwargs):  # type: ignore[no-untyped-def]
        enqueued.append(task_result.id)

    task_enqueued.connect(count)
    try:
        first = final_game(event, players[:4], [40000, 32000, 28000, 20000], organiser, rebuilt=False)
        final_game(event, players[1:5], [40000, 32000, 28000, 20000], organiser, rebuilt=False)
        assert len(enqueued) == 1  # the second game's wake-up found the first one still queued

        running = start_worker(tmp_path, backend, "block", one=True)
        wait_for(tmp_path / "started", running)  # the rebuild of both games is running

        def ten_corrections() -> None:
            for n in range(1, 11):
                scores = [40000 - 100 * n, 32000 + 100 * n, 28000, 20000]
                services.record_final_scores(hanchan=first, scores=scores, user=organiser, reason=f"slip {n}")

        if connection.vendor == "postgresql":
            started = time.monotonic()
            ten_corrections()  # marks skip the rows the rebuild holds: the requests never wait for it
            assert time.monotonic() - started < 10 and running.poll() is None
            (tmp_path / "go").touch()
        else:
            (tmp_path / "go").touch()  # SQLite's one writer: the corrections wait for the rebuild's commit
            ten_corrections()
        assert running.wait(timeout=120) == 0
        assert len(rebuilds(tmp_path)) == 1
        assert len(enqueued) == 2  # ten corrections, one more wake-up
        assert list(Pending.objects.values_list("key", flat=True)) == [str(first.pk)]  # merged

        assert start_worker(tmp_path, backend, "plain").wait(timeout=120) == 0
    finally:
        task_enqueued.disconnect(count)
    assert len(rebuilds(tmp_path)) == 2  # one more rebuild, not ten
    assert not Pending.objects.exists()
    assert_same_as_a_full_rebuild()


def test_a_worker_killed_mid_rebuild_loses_nothing(backend, tmp_path, event, players, organiser):
    first = final_game(event, players[:4], [40000, 32000, 28000, 20000], organiser, rebuilt=False)
    final_game(event, players[1:5], [40000, 32000, 28000, 20000], organiser, rebuilt=False)
    worker()  # rated, in this process
    before = snapshot()
    services.record_final_scores(
        hanchan=first, scores=[20000, 32000, 28000, 40000], user=organiser, reason="swapped slips"
    )

    doomed = start_worker(tmp_path, backend, "hang")
    wait_for(tmp_path / "written", doomed)  # the new rows are written, not committed
    busy = int((tmp_path / "written").read_text())
    os.killpg(doomed.pid, signal.SIGKILL)  # the worker, and the child doing the work if it forked one
    if busy != doomed.pid:
        os.kill(busy, signal.SIGKILL)
    assert doomed.wait(timeout=60) == -signal.SIGKILL
    assert snapshot() == before  # nothing of the killed rebuild is left...
    assert list(Pending.objects.values_list("key", flat=True)) == [str(first.pk)]  # ...and the work is

    assert start_worker(tmp_path, backend, "plain").wait(timeout=120) == 0  # its sweep finds the mark
    assert len(rebuilds(tmp_path)) == 2
    assert not Pending.objects.exists()
    assert snapshot() != before
    assert_same_as_a_full_rebuild()  # the state of an uninterrupted run


@pytest.mark.django_db(transaction=False)
def test_ci_runs_the_rq_workers_on_redis():
    """The RQ cases above exist only with ``TASKS_REDIS_URL``: CI's PostgreSQL pass sets it (and the RQ
    backend), so they run there; a CI run on PostgreSQL without it fails here instead of passing quietly."""
    ci = (REPO / ".ci" / "run").read_text()
    assert "TASKS_BACKEND=rq" in ci and "TASKS_REDIS_URL=" in ci
    if os.environ.get("CI") == "true" and connection.vendor == "postgresql":
        assert REDIS_URL and BACKENDS == ["database", "rq"]
