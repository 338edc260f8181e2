"""Template filters for league data."""

from django import template

from league.countries import country_name as _country_name

register = template.Library()


@register.filter
def country_name(code: str) -> str:
    """The country's English name from its ISO code: a dict lookup (``get_country_display`` rebuilds
    the choices on every call, which shows on a page listing hundreds of players)."""
    return _country_name(code) if code else ""
