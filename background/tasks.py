"""The one task the queue carries: "drain this kind of work" (background/work.py).

Its only argument is the kind, so every wake-up of a kind is the same task: running it twice, or after a
worker died in it, does the work that is still waiting and nothing more."""

from __future__ import annotations

from django_tasks import task

from . import work


@task()
def drain(kind: str) -> int:
    """Do the due work of ``kind``; how many rows were done (or failed, kept for a retry)."""
    return work.drain(kind)
