"""The rankings' background work (background/work.py, docs/tasks.md).

``RANKINGS``: recompute the stored tournament rows of the tournaments held here whose results changed,
then move the rankings' version (the pages' cache key). One key ("site"): however many changes were
marked, one drain compares every tournament's results version with the one its rows were computed from
and recomputes only those that differ, so it is idempotent and a second run finds nothing to do.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from background.models import Pending
from background.work import Work

SITE = "site"


def _recompute(rows: Sequence[Pending]) -> None:
    from rankings.local import refresh_tournaments

    refresh_tournaments()


RANKINGS = Work(
    "rankings",
    handler=_recompute,
    batch=1000,
    retry_delay=timedelta(seconds=10),
    description="recompute the ranking's rows of the tournaments whose results changed",
)
