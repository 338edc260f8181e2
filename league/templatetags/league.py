"""Template filters for league data."""

from typing import Any

from django import template
from django.utils.translation import gettext

from league.countries import country_name as _country_name
from league.event_links import links_for

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


@register.filter
def error_items(form: Any, auto_id: str = "") -> list[tuple[str, str]]:
    """A refused form's errors for the summary at its top (templates/league/_form_errors.html), in the
    form's order: (anchor, text). The anchor is the id of the field's input — of its first choice for a
    group of radio buttons or boxes — so the summary links to it; an error of the whole form or of a
    hidden field has none. The text names the field unless the message already starts with its name.
    ``auto_id`` ("id_undo_%s") is for a page that writes a form's inputs with ids of its own."""
    items: list[tuple[str, str]] = [("", str(error)) for error in form.non_field_errors()]
    for field in form:
        if not field.errors:
            continue
        if field.is_hidden:
            items += [("", str(error)) for error in field.errors]
            continue
        if auto_id:
            anchor = auto_id % field.html_name
        else:
            anchor = field.id_for_label or (f"{field.auto_id}_0" if field.auto_id else "")
        label = str(field.label or "")
        for error in field.errors:
            text = str(error)
            if label and not text.casefold().startswith(label.casefold()):
                text = gettext("%(label)s: %(error)s") % {"label": label, "error": text}
            items.append((anchor, text))
    return items


@register.simple_tag
def event_links(event: Any) -> list[tuple[str, str, str]]:
    """The links apps above league add to ``event``'s page (``league.event_links``): (name, label, url)."""
    return links_for(event)
