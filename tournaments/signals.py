"""What the tournament day announces to the apps above it (the API's webhooks, notifications), which
tournaments may not import: each signal is sent inside the service's transaction, so a listener that
records work in it (``background.Work.mark``) commits or rolls back with the change.

Every signal is sent with ``sender=Event`` and ``event`` (the event) as keyword; the others as named.
"""

from django.dispatch import Signal

from scoring.signals import send_on_commit

__all__ = [
    "round_ended",
    "round_ending_soon",
    "round_started",
    "seating_published",
    "send_on_commit",
    "standings_released",
]

seating_published = Signal()
"""A seating was drawn or redrawn: ``rounds`` (the round numbers it seats)."""

round_started = Signal()
"""A round was opened for play: ``number``."""

round_ending_soon = Signal()
"""A round's clock has ``tournaments.tasks.WARNING`` left: sent by the worker that watches the clock,
after its commit (``send_on_commit``, ``sender=None``), with ``event_id``, ``number`` and ``minutes``.
"""

round_ended = Signal()
"""A round was closed: ``number``."""

standings_released = Signal()
"""The rounds kept for a reveal are public now: the event-wide final reveal, or with ``stage`` (a
``tournaments.models.Stage``) that stage's own reveal; a listener that predates stages reads only
``event`` (``stage`` is absent from the event-wide release)."""
