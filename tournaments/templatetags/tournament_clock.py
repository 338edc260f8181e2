"""Template tags of the round clock: a ``Round`` as the clock partial shows it, and the URL that keeps it
in time. Presentation only: the clock's arithmetic is ``tournaments.clock``'s."""

from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils.http import urlencode

from league.models import Event
from tournaments.clock import ClockState, clock_state
from tournaments.models import Round

register = template.Library()


@register.simple_tag
def round_clock(found: Round | None) -> ClockState | None:
    """``{% round_clock round as clock %}``: the round's clock now (None without a round)."""
    return clock_state(found) if isinstance(found, Round) else None


@register.simple_tag
def clock_sync_url(found: Round | None, compact: bool = False, public_only: bool = True) -> str:
    """The public clock fragment of this round, which the partial polls to stay in time; "" for a
    members-only event, whose public URLs an anonymous table page could not poll (a page that can,
    passes its own ``clock_url``, or ``public_only=False`` for a logged-in organiser)."""
    if not isinstance(found, Round):
        return ""
    if public_only and found.event.visibility != Event.Visibility.PUBLIC:
        return ""
    query = {"round": found.number, **({"compact": 1} if compact else {})}
    return f"{reverse('tournaments:clock', args=[found.event.slug])}?{urlencode(query)}"
