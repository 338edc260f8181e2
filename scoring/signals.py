"""What scoring announces to the apps above it (the API's webhooks, rankings, registration's messages),
which scoring may not import. ``results_changed`` is sent inside the change's transaction (see
``tournaments.signals``), with ``sender=Event``; ``result_confirmed`` after the commit.
"""

import logging
from typing import Any

from django.db import transaction
from django.dispatch import Signal

logger = logging.getLogger(__name__)

results_changed = Signal()
"""A game's result counts differently now (finished, corrected, voided, reopened, imported): ``event_id``
and ``hanchan_ids``, the games of that event the change touched."""

result_confirmed = Signal()
"""A game became finished (it counts in the standings): ``hanchan_id``. Sent once the change's
transaction has committed (:func:`send_on_commit`, ``sender=None``)."""


def send_on_commit(signal: Signal, **kwargs: Any) -> None:
    """Send ``signal`` with ``kwargs`` after the current transaction commits (at once outside one): a
    rolled-back change announces nothing, and a listener's error is logged, never raised into the
    service that caused it."""

    def send() -> None:
        for receiver, result in signal.send_robust(sender=None, **kwargs):
            if isinstance(result, Exception):
                logger.error("listener %r failed", receiver, exc_info=result)

    transaction.on_commit(send)
