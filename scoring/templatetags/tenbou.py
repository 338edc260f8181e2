"""Template filters for points: presentation only, never scoring."""

from __future__ import annotations

from django import template

from scoring import engine

register = template.Library()

WINDS = engine.WINDS


@register.filter
def signed(value: int | None) -> str:
    """+7700 / −7700 / 0."""
    if value is None:
        return ""
    value = int(value)
    if value > 0:
        return f"+{value}"
    return f"−{-value}" if value < 0 else "0"


@register.filter
def thousands(value: int | None) -> str:
    """Points in thousands with one decimal, signed: +23.4 (how standings show results)."""
    if value is None:
        return ""
    text = f"{abs(int(value)) / 1000:.1f}"
    return f"+{text}" if value > 0 else (f"−{text}" if value < 0 else "0.0")


@register.filter
def sign_class(value: int | None) -> str:
    if not value:
        return ""
    return "pos" if value > 0 else "neg"


@register.filter
def wind(seat: int, dealer: int = 0) -> str:
    """The wind of ``seat`` when ``dealer`` deals."""
    return WINDS[(int(seat) - int(dealer)) % 4]


@register.filter
def at(sequence, index):  # type: ignore[no-untyped-def]
    """sequence[index] in templates."""
    try:
        return sequence[int(index)]
    except (IndexError, TypeError, ValueError):
        return ""
