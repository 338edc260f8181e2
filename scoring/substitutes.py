"""What a seat taken by a substitute counts for: the one place that rule is written.

A substitute plays *on behalf of* a registered player (``Seat.on_behalf_of``); the game counts for that
player. The event says how much: what was played (``registered``, the EMA default), or a fixed result
whatever happened at the table (``fixed``, for events that do not want a substitute's luck to decide a
standing). The cached ``SeatResult`` rows (written by ``scoring.services.sync``) and the EMA
reconciliation (``tournaments.ema.reconciliation``), which re-derives them to check them, both call
:func:`credited_result`, so they can never disagree about it.
"""

from __future__ import annotations

from league.models import Event


def credited_result(event: Event, *, played: int, substitute: bool) -> int:
    """The result a seat is credited with: ``played`` unless a substitute sat there and the event credits
    substitutes' games with a fixed result."""
    if substitute and event.substitute_credit == Event.SubstituteCredit.FIXED:
        return event.substitute_fixed_result
    return played
