"""Public pages that show results: an event (standings), a player (statistics), a game (hand log).

Readable by anyone who may see the event; members-only events need a login: an anonymous visitor is
sent to the login page (and back), a logged-in one who may not see the page gets a 404."""

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, render
from django.urls import reverse

from league.collation import sorted_by_name
from league.forms import preset_label
from league.models import Player, Registration
from league.permissions import (
    LoginRequired,
    require_login_for_members_game,
    require_visible_player,
    visible_event_or_404,
    visible_events,
)
from scoring.charts import game as game_charts
from scoring.charts import player as player_charts
from scoring.exports.csvfile import csv_response
from scoring.filters import StandingsFilter
from scoring.forms import PagingForm
from scoring.models import RatingChange
from scoring.ratings import current_ratings
from scoring.selectors import game_view, visible_game_or_404
from scoring.standings import latest_games, standings
from scoring.statistics import player_page
from scoring.tables import UNRANKED_PREFIX, configured_tables, csv_rows, export_rows

View = Callable[..., HttpResponse]


def login_for_members_only(view: View) -> View:
    """Send an anonymous visitor of a members-only page to the login page, with ``?next=`` back here.

    A 404 would tell a member who followed a link that the page does not exist, with no hint that
    logging in shows it."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except LoginRequired:
            return redirect_to_login(request.get_full_path())

    return wrapped


def bounded_paging(request: HttpRequest) -> HttpRequest:
    """Drop the standings tables' ``page``/``per_page`` values that are not sane whole numbers.

    django-tables2 reads them straight from the query string, and a page size of 0 or -1 crashes its
    paginator: they go through a bounded form first, and whatever it refuses is ignored (the defaults
    apply), as a link with a stray parameter should be."""
    query = request.GET.copy()
    for prefix in ("", UNRANKED_PREFIX):
        for name in ("page", "per_page"):
            key = f"{prefix}{name}"
            if key in query:
                form = PagingForm({name: query.get(key)})
                form.is_valid()
                if name in form.errors:
                    del query[key]
                else:
                    query[key] = str(form.cleaned_data[name])
    request.GET = query
    return request


@login_for_members_only
def game(request: HttpRequest, pk: int) -> HttpResponse:
    """A game: players, result, hand log and the chart of the scores through the hands."""
    require_login_for_members_game(request.user, pk)
    hanchan = visible_game_or_404(request.user, pk)
    view = game_view(hanchan)
    return render(
        request,
        "scoring/public/game.html",
        {"game": view, "hanchan": hanchan, "score_chart": game_charts.score_progression(view)},
    )


@login_for_members_only
def event(request: HttpRequest, slug: str) -> HttpResponse:
    """An event: its standings (filtered, sortable, paged, downloadable as the same CSV), its latest games,
    then club, dates, rules in words and registered players."""
    event = visible_event_or_404(request.user, slug)
    filters = StandingsFilter(request.GET, event=event)
    options = filters.options()
    ranked, unranked = configured_tables(bounded_paging(request), standings(event, **options), paginate=True)
    # The download repeats the filters (the event's minimum made explicit) and both sort orders.
    query = QueryDict(mutable=True)
    if filters.is_valid():
        query.update(filters.data)
    for key in ("sort", f"{UNRANKED_PREFIX}sort"):
        if request.GET.get(key):
            query[key] = request.GET[key]
    # Sorted as a reader expects ("Léa" before "Lukas"), not by code point as the database would.
    registrations = sorted_by_name(
        Registration.objects.filter(event=event).select_related("player"), lambda r: r.player.display_name
    )
    return render(
        request,
        "scoring/public/event.html",
        {
            "event": event,
            "rules": event.rules.describe(),
            "preset_label": preset_label(event.rules.preset),
            "registrations": registrations,
            "filters": filters,
            "min_games": options["min_games"],
            "ranked": ranked,
            "unranked": unranked,
            "csv_url": f"{reverse('scoring:standings_csv', args=[event.slug])}?{query.urlencode()}",
            "latest_games": latest_games(event),
        },
    )


@login_for_members_only
def standings_csv(request: HttpRequest, slug: str) -> HttpResponse:
    """The standings as CSV: the rows, columns, values and order of the page with the same query string,
    every page at once. Invalid filters answer 400 with the reason rather than a CSV of something else."""
    event = visible_event_or_404(request.user, slug)
    filters = StandingsFilter(request.GET, event=event)
    if not filters.is_valid():
        return HttpResponse(filters.first_error(), status=400, content_type="text/plain; charset=utf-8")
    tables = configured_tables(
        bounded_paging(request), standings(event, **filters.options()), paginate=False
    )
    return csv_response(csv_rows(export_rows(tables)), f"{event.slug}-standings.csv")


@login_for_members_only
def player(request: HttpRequest, pk: int) -> HttpResponse:
    """A player: who they are, their events, and over one event (``?event=slug``) or every event the
    visitor may see: results, statistics, head-to-head, ratings and their charts.

    Only for a visitor who may see an event the player plays in: someone who plays only in members-only
    events is a login away for an anonymous visitor (as those events are), and a 404 otherwise."""
    player = get_object_or_404(Player.objects.select_related("club"), pk=pk)
    page = player_page(player, visible_events(request.user), request.GET.get("event"))
    if not page.registrations:  # registered in a visible event: visible; else ask (substitute seats...)
        require_visible_player(request.user, player)
    stats, name = page.statistics, player.display_name
    tenhou, openskill = page.ratings[RatingChange.System.TENHOU], page.ratings[RatingChange.System.OPENSKILL]
    return render(
        request,
        "scoring/public/player.html",
        {
            "player": player,
            "page": page,
            "registrations": page.registrations,
            "stats": stats,
            "tenhou": tenhou,
            "openskill": openskill,
            "charts": {
                "cumulative": player_charts.cumulative_results(name, stats.games),
                "places": player_charts.place_distribution(name, stats.placements),
                "tenhou": player_charts.rating_history("Tenhou R", name, tenhou),
                "openskill": player_charts.rating_history("OpenSkill (μ − 3σ)", name, openskill),
            },
        },
    )


@login_for_members_only
def ratings(request: HttpRequest, slug: str) -> HttpResponse:
    """An event's ratings: its players by current Tenhou R and by OpenSkill, counting this event only."""
    event = visible_event_or_404(request.user, slug)
    table = current_ratings(event)
    return render(
        request,
        "scoring/public/ratings.html",
        {
            "event": event,
            "tenhou": table[RatingChange.System.TENHOU],
            "openskill": table[RatingChange.System.OPENSKILL],
        },
    )
