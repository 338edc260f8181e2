"""Template filters for points: presentation only, never scoring.

The figures are written as the page's language writes numbers (``+7 700`` and ``+23,4`` in French and
Polish, ``+7700`` and ``+23.4`` in English: see config/formats/), so they are for people only. Whatever a
script, a URL, a data attribute or an export reads takes the plain forms (:func:`plain_thousands`, or
the bare integer), which never change with the language.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import template
from django.utils.formats import get_format, number_format
from django.utils.safestring import SafeString, mark_safe

from league.engine_text import wind_name

register = template.Library()

MINUS = "\u2212"  # the typographic minus: a hyphen reads as a dash beside a number


def grouped(value: int | Decimal, decimals: int | None = None) -> str:
    """``value`` (not negative) with the active language's decimal separator and digit groups."""
    if decimals is None and type(value) is int and value >= 0:
        # Points: a whole number, grouped by thousands or not at all (config/formats/) — what
        # number_format writes, without its general case (a game's hand log writes over two hundred).
        grouping = get_format("NUMBER_GROUPING")
        if grouping == 0:
            return str(value)
        if grouping == 3:
            return f"{value:,}".replace(",", get_format("THOUSAND_SEPARATOR"))
    return number_format(value, decimal_pos=decimals, force_grouping=True)


def localized(value: float | Decimal, decimals: int) -> str:
    """``value`` rounded to ``decimals`` as Python's ``f"{x:.2f}"`` rounds it, with the language's decimal
    separator and no digit groups. (Django's number_format cuts a float's extra digits instead of
    rounding them, so the value goes through a Decimal first.)"""
    return number_format(Decimal(f"{value:.{decimals}f}"), decimal_pos=decimals)


@register.filter
def points(value: int | None) -> str:
    """Points as the language writes them: 25000 in English, 25 000 in French and Polish."""
    if value is None:
        return ""
    value = int(value)
    return f"{MINUS}{grouped(-value)}" if value < 0 else grouped(value)


@register.filter
def signed(value: int | None) -> str:
    """+7700 / −7700 / 0 (+7 700 in French and Polish)."""
    if value is None:
        return ""
    value = int(value)
    if value > 0:
        return f"+{grouped(value)}"
    return f"{MINUS}{grouped(-value)}" if value < 0 else "0"


def _thousands(value: int) -> Decimal:
    """|value| / 1000 rounded to one decimal, exactly as ``f"{x:.1f}"`` rounds it."""
    return Decimal(f"{abs(int(value)) / 1000:.1f}")


@register.filter
def thousands(value: int | None) -> str:
    """Points in thousands with one decimal, signed: +23.4 (how standings show results; +23,4 in French
    and Polish)."""
    if value is None:
        return ""
    text = grouped(_thousands(value), 1)
    return f"+{text}" if value > 0 else (f"{MINUS}{text}" if value < 0 else grouped(Decimal(0), 1))


def plain_thousands(value: int | None) -> str:
    """:func:`thousands` in the one machine form whatever the language (+23.4, −20.0, 0.0): what the
    standings CSV and ``manage.py standings`` read, never grouped nor with a decimal comma."""
    if value is None:
        return ""
    text = f"{_thousands(value):.1f}"
    return f"+{text}" if value > 0 else (f"{MINUS}{text}" if value < 0 else "0.0")


@register.filter
def sign_class(value: int | None) -> str:
    if not value:
        return ""
    return "pos" if value > 0 else "neg"


@register.filter
def seat_cells(line: Any) -> SafeString:
    """A hand log line's four seat cells: each seat's gain, signed and coloured, over its score after
    the hand — the same cells as a template loop writes, in one filter: per cell, three filters and a
    lookup through the template engine were most of the time a game page took to render."""
    # Nothing to escape: the figures are integers written by the filters above (digits, sign, the
    # language's digit-group separator) and the classes are theirs. (format_html escaped every one of
    # the 252 values of a 21-hand log, a third of the log's time.)
    return mark_safe(
        "".join(
            f'<td class="num"><span class="{sign_class(delta)}">{signed(delta)}</span><br>'
            f'<span class="muted">{points(score)}</span></td>'
            for delta, score in line.by_seat
        )
    )


@register.filter
def wind(seat: int, dealer: int = 0) -> str:
    """The wind of ``seat`` when ``dealer`` deals, in the page's language."""
    return wind_name((int(seat) - int(dealer)) % 4)


@register.filter
def any_nonzero(values) -> bool:  # type: ignore[no-untyped-def]
    """Whether any of ``values`` is not zero (a column shown only when it says something)."""
    try:
        return any(values)
    except TypeError:
        return False


@register.filter
def at(sequence, index):  # type: ignore[no-untyped-def]
    """sequence[index] in templates."""
    try:
        return sequence[int(index)]
    except (IndexError, TypeError, ValueError):
        return ""
