"""Template filters for league data."""

from django import template

from league.countries import country_name as _country_name

register = template.Library()


@register.filter
def country_name(code: str) -> str:
    """The country's English name from its ISO code: a dict lookup (``get_country_display`` rebuilds
    the choices on every call, which shows on a page listing hundreds of players)."""
    return _country_name(code) if code else ""


@register.filter
def around(parts: tuple[str, str], argument: object) -> str:
    """The URL whose halves are ``parts`` with ``argument`` between them: a view splits a URL around its
    one argument once (``scoring.views.public.url_around``), and a list of hundreds of games or players
    puts each row's own argument in between (``{{ game_url|around:game.pk }}``) instead of paying one
    ``{% url %}`` per row."""
    before, after = parts
    return f"{before}{argument}{after}"
