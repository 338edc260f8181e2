"""Links in long lists without one ``reverse()`` per row.

A view splits a URL around its one argument once (``scoring.views.public.url_around``); each row then
puts its own argument in between with ``{{ game_url|around:game.pk }}``. A player page or an event page
lists hundreds of games or players, and a ``{% url %}`` per row was a visible part of their render.
"""

from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def around(parts: tuple[str, str], argument: object) -> str:
    """The URL whose halves are ``parts``, with ``argument`` between them."""
    before, after = parts
    return f"{before}{argument}{after}"
