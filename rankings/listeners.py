"""The rankings learn of changed results when they change: scoring and the tournament day announce it
(``scoring.signals``, ``tournaments.signals``), inside the change's transaction, and the ranking's work
is marked in it — the worker recomputes the tournaments whose results version moved once it commits.
The ranking pages still compare the versions themselves (``rankings.local.stale``): a change made
before this listener existed, or by a bulk load that sends nothing, is found there."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from rankings.local import counted_events
from rankings.tasks import RANKINGS, SITE
from scoring.signals import results_changed
from tournaments.signals import standings_released


@receiver(results_changed, dispatch_uid="rankings-results-changed")
def _results_changed(sender: Any, *, event_id: int, **kwargs: Any) -> None:
    # Only the events the ranking counts (public tournaments): a club league's game marks nothing.
    if counted_events().filter(pk=event_id).exists():
        RANKINGS.mark(SITE, scope=SITE)


@receiver(standings_released, dispatch_uid="rankings-standings-released")
def _standings_released(sender: Any, **kwargs: Any) -> None:
    RANKINGS.mark(SITE, scope=SITE)
