"""The wall screen: one public page per tournament for the projector — the round clock, the round's
seating by player name, the standings' top N — rotating and updating itself (htmx polling of the
fragments below) with no reload and no login, as public as the event's other pages.

Query-string options (``rows``, ``columns``, ``top``, ``rotate``, ``refresh``) fit the page to another
screen or room; a value out of bounds is ignored (the default applies), as a projector's bookmarked URL
with a typo should still show the wall. ``teams=1`` adds the team standings slide
(``tournaments.views.teams.wall_teams``).
"""

from __future__ import annotations

from collections.abc import Callable
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
from tournaments import projector, stages
from tournaments.clock import clock_state
from tournaments.models import Round, Stage

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
    teams = forms.BooleanField(required=False)  # the team standings slide too (tournaments/views/teams.py)
    stage = forms.IntegerField(min_value=1, max_value=99, required=False)  # one stage's standings


def options(request: HttpRequest) -> dict[str, Any]:
    """The valid options of the query string, the defaults for the others."""
    form = WallOptions(request.GET)
    form.is_valid()
    chosen = {
        name: value
        for name, value in getattr(form, "cleaned_data", {}).items()
        if name not in form.errors and value is not None
    }
    return {
        **DEFAULTS,
        "round": None,
        "compact": False,
        "header": False,
        "teams": False,
        "stage": None,
        **chosen,
    }


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


def ranked_slide_html(
    event: Event,
    chosen: dict[str, Any],
    *,
    slide: str,
    ranked: Callable[[], list[Any]],
    template: str,
    extra: dict[str, Any] | None = None,
) -> SafeString:
    """A wall slide of standings (players, teams, or one stage's players), its top ``chosen["top"]``
    laid out in columns of ``chosen["rows"]``, rendered once per results version (and hidden-standings
    state) through the page cache: a room's worth of walls and phones polling it costs one computation
    per change. ``extra``: more of the template's context (a stage's slide: the stage)."""

    def render_slide() -> str:
        top = ranked()[: chosen["top"]]
        rows = min(len(top), chosen["rows"]) or 1
        context = {
            "standings": top,
            "standings_rows": rows,
            "standings_columns": -(-len(top) // rows) or 1,
            "hidden_after_round": hidden_after_round(event),
            "top": chosen["top"],
            **(extra or {}),
        }
        return render_to_string(template, context)

    key = (*results_key(event), slide, chosen["top"], chosen["rows"])
    return cached_fragment(key, render_slide)


def _standings_html(event: Event, chosen: dict[str, Any]) -> SafeString:
    """The standings slide (see :func:`ranked_slide_html`)."""
    return ranked_slide_html(
        event,
        chosen,
        slide="wall-standings",
        ranked=lambda: projector.standings_top(event, chosen["top"]),
        template="tournaments/public/wall_standings.html",
    )


def shown_stage(event: Event, found: list[Stage], chosen: dict[str, Any]) -> Stage | None:
    """The stage whose standings the wall shows: ``?stage=N`` if the event has it, else the latest
    stage whose players are known (the one before is closed); None for an event of one stage, whose
    wall shows the event's standings as it always has."""
    if chosen["stage"] is not None:
        return next((s for s in found if s.order == chosen["stage"]), None)
    if len(found) == 1:
        return None
    current = found[0]
    for before, stage in zip(found, found[1:], strict=False):
        if before.closed_at is not None:
            current = stage
    return current


def stage_html(event: Event, found: list[Stage], stage: Stage, chosen: dict[str, Any]) -> SafeString:
    """The wall's slide of one stage: its top N by points with the carry-over (see
    :func:`ranked_slide_html`; closing a stage writes the history, which moves the results version on)."""
    return ranked_slide_html(
        event,
        chosen,
        slide=f"wall-stage-{stage.order}",
        ranked=lambda: [
            r for r in stages.stage_standings(event, stage, stages=found, public=True) if r.ranked
        ],
        template="tournaments/public/wall_stage.html",
        extra={"stage": stage},
    )


@login_for_members_only
def wall(request: HttpRequest, slug: str) -> HttpResponse:
    """The projector page: clock, seating pages, standings, each slide shown in turn (js/wall.js)."""
    event = _tournament(request, slug)
    chosen = options(request)
    shown = projector.shown_round(event)
    clock = clock_state(shown, time_limit=event.rules.time_limit) if shown is not None else None
    layout = {key: chosen[key] for key in ("rows", "columns")}
    found = stages.stages_of(event)  # one query: which stage's standings the wall shows
    stage = shown_stage(event, found, chosen)
    if stage is None:
        standings_url = _url("tournaments:wall_standings", event, top=chosen["top"], **layout)
        standings_html = _standings_html(event, chosen)
    else:
        url = reverse("tournaments:wall_stage", args=[event.slug, stage.order])
        standings_url = f"{url}?{urlencode({'top': chosen['top'], **layout})}"
        standings_html = stage_html(event, found, stage, chosen)
    return render(
        request,
        "tournaments/public/wall.html",
        {
            "event": event,
            "clock": clock,
            "clock_url": _url("tournaments:clock", event),
            "compact_clock_url": _url("tournaments:clock", event, compact=True, header=True),
            "seating_url": _url("tournaments:wall_seating", event, **layout),
            "standings_url": standings_url,
            # ?teams=1: the team standings slide, loaded by its own poll.
            "teams_url": _url("tournaments:wall_teams", event, top=chosen["top"], **layout)
            if chosen["teams"]
            else None,
            "rotate": chosen["rotate"],
            # The standings poll every ``refresh`` seconds, the seating (which changes less) half as often.
            "refresh": chosen["refresh"],
            "refresh_seating": chosen["refresh"] * 2,
            **_seating_context(event, shown, chosen),
            "standings_html": standings_html,
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
