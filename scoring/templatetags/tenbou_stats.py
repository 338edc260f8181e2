"""Template filters for statistics and ratings: presentation only."""

from __future__ import annotations

from decimal import Decimal

from django import template
from django.utils.translation import gettext as _

from .tenbou import MINUS, localized, points

register = template.Library()

DASH = "—"


@register.filter
def percent(rate: float | None, digits: int = 1) -> str:
    """A share in 0–1 as "41.7 %"; a dash when there was nothing to count (no hands, no wins …)."""
    if rate is None:
        return DASH
    return f"{localized(rate * 100, int(digits))} %"


@register.filter
def decimal(value: float | None, digits: int = 2) -> str:
    """A mean or a rating with ``digits`` decimals (a typographic minus, as elsewhere); a dash when
    there is none."""
    if value is None:
        return DASH
    text = localized(abs(value), int(digits))
    return f"{MINUS}{text}" if f"{value:.{int(digits)}f}".startswith("-") else text


@register.filter
def mean_points(value: float | None) -> str:
    """An average in points (a mean score, a mean win), rounded to the point as :func:`decimal` rounds
    it and written as points are everywhere (33 850 in French and Polish, as on the scoreboards); a dash
    when there is none."""
    if value is None:
        return DASH
    return points(int(Decimal(f"{value:.0f}")))


@register.filter
def signed_decimal(value: float | None, digits: int = 2) -> str:
    """A difference with its sign (+0.25 / −0.50); a dash when there is none."""
    if value is None:
        return DASH
    rounded = f"{abs(value):.{int(digits)}f}"
    text = localized(abs(value), int(digits))
    if float(rounded) == 0:
        return text
    return f"+{text}" if value > 0 else f"{MINUS}{text}"


@register.filter
def ordinal(place: int | None) -> str:
    """1st, 2nd, 3rd, 4th (1er, 2e … in French, 1., 2. … in Polish)."""
    if place is None:
        return DASH
    place = int(place)
    # One lookup in the catalogue, not four: a player's games list writes one per row.
    if place == 1:
        return _("1st")
    if place == 2:
        return _("2nd")
    if place == 3:
        return _("3rd")
    return _("%(place)sth") % {"place": place}
