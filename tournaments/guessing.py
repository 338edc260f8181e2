"""The strict rate limit on guessing: wrong table tokens and codes, counted per client address.

A table's token (192 random bits) cannot be guessed, but its six-letter code and the players' codes are
short (26^6), so wrong ones are limited (``TABLE_LINK_FAILURE_RATE``, "30/m" by default): once an
address has used them up it gets 429 on every table page until the window has passed.

The count is kept in the database (:class:`~tournaments.models.FailedGuess`), not in the page cache that
django-ratelimit would use: with the default local-memory cache each gunicorn worker counted on its own
(five workers allowed five times the limit), and ``dummy://`` counted nothing at all. Only failures are
written (a right token costs one indexed count), rows leave as they age out of the window, and an address
that is refused adds no more rows, so the table stays small. Concurrent requests from one address may each
pass the check before any of them records its failure: the limit can be overshot by the number of
requests in flight at once, never more.
"""

from __future__ import annotations

import re
from datetime import timedelta

from django.utils import timezone

from .models import FailedGuess

_RATE = re.compile(r"^\s*(\d+)\s*/\s*(\d*)\s*([smhd])\s*$")
_UNIT = {"s": 1, "m": 60, "h": 3600, "d": 86400}
DEFAULT_RATE = "30/m"


def parse_rate(rate: str) -> tuple[int, timedelta]:
    """``"30/m"`` → (30, one minute); django-ratelimit's form (``N/[k]s|m|h|d``). A rate that does not
    parse is the default one: a typo in the environment never turns the limit off."""
    found = _RATE.match(rate or "") or _RATE.match(DEFAULT_RATE)
    assert found is not None
    count, multiple, unit = found.groups()
    return int(count), timedelta(seconds=int(multiple or 1) * _UNIT[unit])


def is_guessing(address: str, rate: str) -> bool:
    """Whether ``address`` has used up its wrong tokens and codes of the current window (one query)."""
    limit, window = parse_rate(rate)
    recent = FailedGuess.objects.filter(address=address[:64], at__gt=timezone.now() - window)
    return recent[:limit].count() >= limit


def count_failure(address: str, rate: str) -> None:
    """Record one wrong token or code from ``address``, and forget the failures older than the window."""
    _, window = parse_rate(rate)
    now = timezone.now()
    FailedGuess.objects.filter(at__lte=now - window).delete()
    FailedGuess.objects.create(address=address[:64], at=now)
