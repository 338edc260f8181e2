"""The wall screen: one public page per tournament for the projector — the round clock, the round's
seating by player name, the standings' top N — rotating and updating itself (htmx polling of the
fragments below) with no reload and no login, as public as the event's other pages.

Query-string options (``rows``, ``columns``, ``top``, ``rotate``, ``refresh``) fit the page to another
screen or room; a value out of bounds is ignored (the default applies), as a projector's bookmarked URL
with a typo should still show the wall.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.safestring import SafeString

from league.models import Event
from league.permissions import visible_event_or_404
from scoring.cache import cached_fragment, results_key
from scoring.standings import hidden_after_round
from scoring.views.public import login_for_members_only
from tournaments import projector
from tournaments.clock import clock_state
from tournaments.models import Round

DEFAULTS = {"rows": 18, "columns": 4, "top": 16, "rotate": 15, "refresh": 30}


class WallOptions(forms.Form):
    """The wall's bounded query-string options; each one out of bounds falls back to its default."""

    rows = forms.IntegerField(min_value=5, max_value=40, required=False)
    columns = forms.IntegerField(min_value=1, max_value=8, required=False)
    top = forms.IntegerField(min_value=1, max_value=64, required=False)
    rotate = forms.IntegerField(min_value=5, max_value=300, required=False)
    refresh = forms.IntegerField(min_value=2, max_value=300, required=False)
    round = forms.IntegerField(min_value=1, max_value=999, required=False)
    compact = forms.BooleanField(required=False)
    header = forms.BooleanField(required=False)


def options(request: HttpRequest) -> dict[str, Any]:
    """The valid options of the query string, the defaults for the others."""
    form = WallOptions(request.GET)
    form.is_valid()
    chosen = {
        name: value
        for name, value in getattr(form, "cleaned_data", {}).items()
        if name not in form.errors and value is not None
    }
    return {**DEFAULTS, "round": None, "compact": False, "header": False, **chosen}


def _tournament(request: HttpRequest, slug: str) -> Event:
    event = visible_event_or_404(request.user, slug)
    if event.kind != Event.Kind.TOURNAMENT:
        raise Http404("Not a tournament.")
    return event


def _url(name: str, event: Event, **query: Any) -> str:
    query = {key: 1 if value is True else value for key, value in query.items() if value not in (None, False)}
    url = reverse(name, args=[event.slug])
    return f"{url}?{urlencode(query)}" if query else url


def _seating_context(event: Event, shown: Round | None, chosen: dict[str, Any]) -> dict[str, Any]:
    per_page = chosen["rows"] * chosen["columns"]
    lines = projector.seating(event, shown.number) if shown is not None else []
    # Each page's lines are shared evenly between its columns ("fill" lines each): a small seating is
    # balanced across the screen; the type stays sized for ``rows`` lines, so every page reads alike.
    columns = chosen["columns"]
    pages = (
        [{"lines": page, "fill": -(-len(page) // columns)} for page in projector.pages(lines, per_page)]
        if lines
        else []
    )
    return {
        "seating_round": shown,
        "seating_pages": pages,
        "rows": chosen["rows"],
        "columns": chosen["columns"],
    }


def _standings_html(event: Event, chosen: dict[str, Any]) -> SafeString:
    """The standings slide, rendered once per results version (and hidden-standings state) through the
    page cache: a room's worth of walls and phones polling it costs one computation per change."""

    def render_slide() -> str:
        top = projector.standings_top(event, chosen["top"])
        rows = min(len(top), chosen["rows"]) or 1
        context = {
            "standings": top,
            "standings_rows": rows,
            "standings_columns": -(-len(top) // rows) or 1,
            "hidden_after_round": hidden_after_round(event),
            "top": chosen["top"],
        }
        return render_to_string("tournaments/public/wall_standings.html", context)

    key = (*results_key(event), "wall-standings", chosen["top"], chosen["rows"])
    return cached_fragment(key, render_slide)


@login_for_members_only
def wall(request: HttpRequest, slug: str) -> HttpResponse:
    """The projector page: clock, seating pages, standings, each slide shown in turn (js/wall.js)."""
    event = _tournament(request, slug)
    chosen = options(request)
    shown = projector.shown_round(event)
    clock = clock_state(shown, time_limit=event.rules.time_limit) if shown is not None else None
    layout = {key: chosen[key] for key in ("rows", "columns")}
    return render(
        request,
        "tournaments/public/wall.html",
        {
            "event": event,
            "clock": clock,
            "clock_url": _url("tournaments:clock", event),
            "compact_clock_url": _url("tournaments:clock", event, compact=True, header=True),
            "seating_url": _url("tournaments:wall_seating", event, **layout),
            "standings_url": _url("tournaments:wall_standings", event, top=chosen["top"], **layout),
            "rotate": chosen["rotate"],
            # The standings poll every ``refresh`` seconds, the seating (which changes less) half as often.
            "refresh": chosen["refresh"],
            "refresh_seating": chosen["refresh"] * 2,
            **_seating_context(event, shown, chosen),
            "standings_html": _standings_html(event, chosen),
        },
    )


@login_for_members_only
def clock(request: HttpRequest, slug: str) -> HttpResponse:
    """The clock fragment every clock polls: the round the room plays (or ``?round=N``), ``?compact=1``
    for a one-line clock, ``?header=1`` for the wall's header clock (its own element id)."""
    event = _tournament(request, slug)
    chosen = options(request)
    number = chosen["round"]
    found = projector.shown_round(event) if number is None else projector.round_by_number(event, number)
    return render(
        request,
        "tournaments/_clock_face.html",
        {
            "clock": clock_state(found, time_limit=event.rules.time_limit) if found is not None else None,
            "clock_url": _url(
                "tournaments:clock", event, round=number, compact=chosen["compact"], header=chosen["header"]
            ),
            "compact": chosen["compact"],
            "clock_id": "wall-header-clock" if chosen["header"] else "round-clock",
        },
    )


@login_for_members_only
def wall_seating(request: HttpRequest, slug: str) -> HttpResponse:
    """The wall's seating slides (the round the room plays, by player name, one slide per screenful)."""
    event = _tournament(request, slug)
    chosen = options(request)
    context = _seating_context(event, projector.shown_round(event), chosen)
    return render(request, "tournaments/public/wall_seating.html", {"event": event, **context})


@login_for_members_only
def wall_standings(request: HttpRequest, slug: str) -> HttpResponse:
    """The wall's standings slide: the public standings' top N (after the hidden round, if any)."""
    event = _tournament(request, slug)
    return HttpResponse(_standings_html(event, options(request)))
