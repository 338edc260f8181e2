"""Template filters for statistics and ratings: presentation only."""

from __future__ import annotations

from django import template

register = template.Library()

DASH = "—"


@register.filter
def percent(rate: float | None, digits: int = 1) -> str:
    """A share in 0–1 as "41.7 %"; a dash when there was nothing to count (no hands, no wins …)."""
    if rate is None:
        return DASH
    return f"{rate * 100:.{int(digits)}f} %"


@register.filter
def decimal(value: float | None, digits: int = 2) -> str:
    """A mean or a rating with ``digits`` decimals (a typographic minus, as elsewhere); a dash when
    there is none."""
    if value is None:
        return DASH
    return f"{value:.{int(digits)}f}".replace("-", "−")


@register.filter
def signed_decimal(value: float | None, digits: int = 2) -> str:
    """A difference with its sign (+0.25 / −0.50); a dash when there is none."""
    if value is None:
        return DASH
    text = f"{abs(value):.{int(digits)}f}"
    if float(text) == 0:
        return text
    return f"+{text}" if value > 0 else f"−{text}"


@register.filter
def ordinal(place: int | None) -> str:
    """1st, 2nd, 3rd, 4th."""
    if place is None:
        return DASH
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(int(place), f"{int(place)}th")
