"""Scoring's background work (background/work.py, docs/tasks.md): what requests no longer wait for.

- ``RATINGS``: the games whose ratings must be rebuilt (``scoring.ratings.schedule_rebuild`` marks
  them in the change's transaction). One drain rebuilds every marked game at once, from the earliest,
  and deletes the marks in the rebuild's own transaction: ten corrections during a rebuild make one
  more rebuild, and a worker killed in the middle leaves the marks for the next one.
- ``ONLINE_IMPORT``: an online import's logs to fetch and read (``scoring.import_jobs``), one job a
  drain. The job commits its progress after each log (the page shows it), so it holds a lease instead
  of a transaction; a job whose worker died is taken again and goes on from its last committed log.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from background.models import Pending
from background.work import Work


def _rebuild_marked_games(rows: Sequence[Pending]) -> None:
    from scoring.ratings import rebuild_ratings_for

    rebuild_ratings_for(int(row.key) for row in rows)


RATINGS = Work(
    "ratings",
    handler=_rebuild_marked_games,
    batch=100_000,  # every marked game in one rebuild: each rebuild rewrites the lifetime scope anyway
    retry_delay=timedelta(seconds=5),
    description="rebuild the ratings from the marked games on",
)


def _read_import_jobs(rows: Sequence[Pending]) -> None:
    from scoring.import_jobs import run

    for row in rows:
        run(row.key)


ONLINE_IMPORT = Work(
    "online-import",
    handler=_read_import_jobs,
    atomic=False,
    # Each log is bounded by the fetch's timeout (twice TENBOU_TENHOU_TIMEOUT at most) and the log
    # reader's size limit: 50 links take minutes at worst, never this long.
    lease=timedelta(minutes=20),
    retry_delay=timedelta(seconds=10),
    description="fetch and read the logs of an online import",
)
