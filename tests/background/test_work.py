"""Keyed work (background/work.py) in one process: marks merge, wake-ups are not repeated while one
waits, a failing handler is retried with backoff and then kept as failed with its writes undone, and a
non-atomic handler's lease is taken again once its worker is gone."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone
from django_tasks.signals import task_enqueued

from background import work
from background.models import Pending
from background.work import Work
from background.worker import run_ready
from league.models import Club

pytestmark = pytest.mark.django_db(transaction=True)

calls: list[list[str]] = []


def _record(rows):  # type: ignore[no-untyped-def]
    calls.append(sorted(row.key for row in rows))


def _flaky(rows):  # type: ignore[no-untyped-def]
    Club.objects.create(name="Written by a failing handler", slug="failing", city="Lyon", country="FR")
    raise RuntimeError("the remote end said no")


RECORD = Work("test-record", handler=_record, batch=100)
FLAKY = Work("test-flaky", handler=_flaky, attempts=3, retry_delay=timedelta(seconds=30))
LEASED = Work("test-leased", handler=_record, atomic=False, lease=timedelta(minutes=5))


@pytest.fixture(autouse=True)
def no_calls():
    calls.clear()
    yield
    calls.clear()


@pytest.fixture
def enqueued():
    seen: list[str] = []

    def count(sender, task_result, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(task_result.args[0])

    task_enqueued.connect(count)
    yield seen
    task_enqueued.disconnect(count)


def test_marks_merge_and_wake_once_while_a_wakeup_waits(enqueued):
    for key in ("a", "b", "a", "a"):
        with transaction.atomic():
            RECORD.mark(key, scope="event:1")
    assert sorted(Pending.objects.values_list("key", flat=True)) == ["a", "b"]
    assert enqueued == ["test-record"]  # the three later commits found it still queued
    assert RECORD.pending() and RECORD.pending(scope="event:1") and not RECORD.pending(scope="event:2")
    run_ready()
    assert calls == [["a", "b"]] and not Pending.objects.exists() and not RECORD.pending()
    with transaction.atomic():
        RECORD.mark("a")
    assert enqueued == ["test-record", "test-record"]  # the last one ran: a new wake-up
    with pytest.raises(RuntimeError), transaction.atomic():
        RECORD.mark("c")
        raise RuntimeError("rolled back")
    run_ready()
    assert calls == [["a", "b"], ["a"]]  # no "c": the rolled-back mark left nothing


def test_a_failing_handler_is_retried_with_backoff_then_kept_as_failed():
    with transaction.atomic():
        FLAKY.mark("delivery-1")
    run_ready()
    row = Pending.objects.get()
    assert row.attempts == 1 and not row.failed and "the remote end said no" in row.last_error
    assert row.run_after > timezone.now() + timedelta(seconds=25)  # retry_delay
    assert not Club.objects.filter(slug="failing").exists()  # the failed attempt's writes are undone
    assert FLAKY.drain() == 0 and work.sweep() == []  # not due yet: nothing runs, nothing is woken

    Pending.objects.update(run_after=timezone.now())  # its time has come
    assert work.sweep() == ["test-flaky"]
    run_ready()
    row = Pending.objects.get()
    assert row.attempts == 2 and row.run_after > timezone.now() + timedelta(seconds=55)  # doubled

    Pending.objects.update(run_after=timezone.now())
    FLAKY.drain()
    row = Pending.objects.get()
    assert row.attempts == 3 and row.failed and row.run_after is None
    assert not FLAKY.pending() and work.sweep() == []  # kept for a person, never run again by itself


def test_a_lease_is_taken_again_once_its_worker_is_gone():
    with transaction.atomic():
        LEASED.mark("job-1")
        LEASED.mark("job-2")
    # job-1 as a worker killed while running it leaves it; job-2 as a live worker holds it.
    Pending.objects.filter(key="job-1").update(lease_until=timezone.now() - timedelta(seconds=1), attempts=1)
    Pending.objects.filter(key="job-2").update(lease_until=timezone.now() + timedelta(minutes=5), attempts=1)
    with transaction.atomic():
        LEASED.mark("job-2")  # marked again while it runs: a new row, done after the running one
    assert Pending.objects.filter(key="job-2").count() == 2
    assert work.sweep() == ["test-leased"]
    run_ready()
    assert calls == [["job-1"], ["job-2"]]  # the dead lease and the new mark; the live lease left alone
    assert list(Pending.objects.values_list("key", "attempts")) == [("job-2", 1)]
