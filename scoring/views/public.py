"""Public pages that show results: an event (standings), a player (statistics), a game (hand log).

Readable by anyone who may see the event; members-only events need a login: an anonymous visitor is
sent to the login page (and back), a logged-in one who may not see the page gets a 404."""

import functools
import re
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.db import connection
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.views.decorators.http import condition

from league.collation import sorted_by_name
from league.engine_text import preset_label, rules_in_words
from league.models import Event, Hanchan, Player, Registration
from league.permissions import (
    PRIVATE_FIELDS,
    LoginRequired,
    is_member,
    player_page_is_public,
    require_visible_player,
    shown_fields,
    visible_event_or_404,
    visible_events,
)
from league.wholepage import Keyed, raw_first, whole_page
from scoring.cache import (
    PageCache,
    cached_fragment,
    cached_value,
    etag,
    game_key,
    player_key,
    query_key,
    results_key,
)
from scoring.charts import game as game_charts
from scoring.charts import player as player_charts
from scoring.exports.csvfile import csv_response
from scoring.filters import StandingsFilter
from scoring.forms import PagingForm
from scoring.models import RatingChange
from scoring.ratings import current_ratings, ratings_pending
from scoring.selectors import game_view, public_game_or_404
from scoring.standings import hidden_after_round, latest_games, public_options, round_in_play, standings
from scoring.statistics import PlayerPage, player_page
from scoring.tables import UNRANKED_PREFIX, StandingsTable, configured_tables, csv_rows, export_rows

View = Callable[..., HttpResponse]

SLUG_RE = re.compile(r"[-a-zA-Z0-9_]+")

LIVE_POLL_SECONDS = 20
"""How often the public standings refresh while a round is open (the tables are entering results)."""
REVEAL_POLL_SECONDS = 60
"""How often they ask, with no round open, while some rounds are hidden for a final reveal: an open
page (a phone at the prize-giving) learns of the release within a minute and shows everything. Cheap:
an unchanged fragment is a 304, and the release moves the ETag on."""
"""What an event's slug looks like (Django's slug converter): anything else in ``?event=`` is junk."""


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


def conditional(etag_func: Callable[..., str | None]) -> Callable[[View], View]:
    """Django's ``condition`` with ``etag_func`` (see ``scoring.cache.etag``): a reload of an unchanged
    page answers ``304 Not Modified`` without running the view. The answer says ``private, no-cache``:
    the browser keeps it but asks again each time (with its ETag), and no shared cache keeps a page
    that carries a visitor's CSRF token."""

    def decorator(view: View) -> View:
        conditioned = condition(etag_func=etag_func)(view)

        @wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            response = conditioned(request, *args, **kwargs)
            if response.has_header("ETag"):
                patch_cache_control(response, private=True, no_cache=True)
            return response

        return wrapped

    return decorator


def _event_for(request: HttpRequest, slug: str) -> Event:
    """The visible event of the URL, read once per request: the ETag and the view both need it."""
    event = getattr(request, "_tenbou_event", None)
    if event is None or event.slug != slug:
        event = visible_event_or_404(request.user, slug)
        request._tenbou_event = event  # type: ignore[attr-defined]
    return event


def _event_etag(request: HttpRequest, slug: str) -> str | None:
    """The ETag of an event's pages; none when the view answers otherwise (404, the login page)."""
    try:
        event = _event_for(request, slug)
    except Http404:
        return None
    return etag(request, *results_key(event))


def _game_for(request: HttpRequest, pk: int) -> Hanchan:
    hanchan = getattr(request, "_tenbou_game", None)
    if hanchan is None or hanchan.pk != pk:
        hanchan = public_game_or_404(request.user, pk)
        hidden = hidden_after_round(hanchan.event)
        if hidden is not None and (hanchan.round_number or 0) > hidden:
            raise Http404("This game is in a round kept hidden until the standings are released.")
        request._tenbou_game = hanchan  # type: ignore[attr-defined]
    return hanchan


def _game_etag(request: HttpRequest, pk: int) -> str | None:
    try:
        hanchan = _game_for(request, pk)
    except Http404:
        return None
    return etag(request, *game_key(hanchan))


def _player_for(request: HttpRequest, pk: int) -> Player:
    player = getattr(request, "_tenbou_player", None)
    if player is None or player.pk != pk:
        player = get_object_or_404(Player.objects.select_related("club"), pk=pk)
        request._tenbou_player = player  # type: ignore[attr-defined]
    return player


def _ratings_updating(request: HttpRequest) -> bool:
    """Whether any rating is being rebuilt (``ratings_pending``), asked once per request: the ETag and
    the body's key both hold it."""
    updating = getattr(request, "_tenbou_ratings_updating", None)
    if updating is None:
        updating = request._tenbou_ratings_updating = ratings_pending()  # type: ignore[attr-defined]
    return updating


def _player_etag(request: HttpRequest, pk: int, chart: str = "") -> str | None:
    try:
        player = _player_for(request, pk)
    except Http404:
        return None
    if not is_member(request.user) and not player_page_is_public(player):
        return None  # a login page, never a 304 of a page the visitor may not see
    shown = shown_fields(request.user, player)
    return etag(request, *player_key(player), is_member(request.user), _ratings_updating(request), *shown.key)


def bounded_paging(request: HttpRequest) -> HttpRequest:
    """Drop the standings tables' ``page``/``per_page`` values that are not sane whole numbers, and
    ``sort`` values that name no sortable column.

    django-tables2 reads them straight from the query string: a page size of 0 or -1 crashes its
    paginator, and a sort key it does not know it tries as a path into the row. They go through a
    bounded form or the table's columns first, and whatever is refused is ignored (the defaults apply),
    as a link with a stray parameter should be."""
    query = request.GET.copy()
    for prefix in ("", UNRANKED_PREFIX):
        key = f"{prefix}sort"
        if key in query and not _known_sort(query.get(key, "")):
            del query[key]
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


@functools.cache
def _sortable_columns() -> frozenset[str]:
    return frozenset(column.name for column in StandingsTable([]).columns if column.orderable)


def _known_sort(value: str) -> bool:
    """Whether a ``sort`` value is sortable columns of the standings table, each maybe after a ``-``."""
    return all(part.removeprefix("-") in _sortable_columns() for part in value.split(","))


_EVENT_KEY_FIELDS = (
    "results_version",
    "standings_hidden_after_round",
    "standings_released_at",
    "stage_hidden_after_round",
    "shown_version",
    "visibility",
    "kind",
)
"""What ``results_key`` and ``_event_shown`` read of an event (another field read later loads itself)."""


def _event_shown(event: Event) -> tuple[Any, ...]:
    """What decides what an event's pages may show, besides results: a stale page never crosses a change
    of it (``league.wholepage.Keyed``). Its ``shown_version`` moves with every change but results; the
    visibility and the hidden-rounds state are named too, whoever changed them."""
    released = event.standings_released_at
    return (
        "event",
        event.pk,
        event.shown_version,
        event.visibility,
        event.kind,
        event.standings_hidden_after_round,
        released.isoformat() if released else None,
        event.stage_hidden_after_round,
    )


def _game_page_key(request: HttpRequest, pk: int) -> Keyed | None:
    # One plain query for the game's version and round and its event's key fields (a join, not two
    # round trips: the key is most of what a cached game page costs).
    quote = connection.ops.quote_name
    events, games = quote(Event._meta.db_table), quote(Hanchan._meta.db_table)
    columns = ", ".join(
        f"{events}.{quote(Event._meta.get_field(name).column)}" for name in ("id", *_EVENT_KEY_FIELDS)
    )
    sql = (
        f"SELECT {columns}, {games}.{quote('version')} AS game_version, "
        f"{games}.{quote('round_number')} AS game_round FROM {games} "
        f"JOIN {events} ON {events}.{quote('id')} = {games}.{quote('event_id')} "
        f"WHERE {games}.{quote('id')} = %s"
    )
    event = next(iter(Event.objects.raw(sql, [pk])), None)
    if event is None:
        return None
    hanchan = Hanchan(pk=pk, event=event, version=event.game_version, round_number=event.game_round)
    # The game's round decides whether the hidden rounds hide it.
    return Keyed(game_key(hanchan), ("game", hanchan.pk, hanchan.round_number, *_event_shown(event)))


def _page_etag(request: HttpRequest, parts: Any) -> str | None:
    """A cached whole page's ETag: the key's parts are the ETag's parts of the view's conditional."""
    return etag(request, *parts)


@whole_page(_game_page_key, etag=_page_etag)
@login_for_members_only
@conditional(_game_etag)
def game(request: HttpRequest, pk: int) -> HttpResponse:
    """A game: players, result, hand log and the chart of the scores through the hands (the body cached
    by the game's and its event's versions; the chart is its own SVG, :func:`game_chart`)."""
    hanchan = _game_for(request, pk)
    return render(
        request,
        "scoring/public/game.html",
        {
            "hanchan": hanchan,
            "page_cache": PageCache((*game_key(hanchan), "game-page"), lambda: {"game": game_view(hanchan)}),
        },
    )


def svg_response(svg: str | None) -> HttpResponse:
    """A chart as an SVG document; 404 when there is nothing to draw (no game, no rating yet).

    The page links it as an ``<img>``, so it never runs a script; the policy header keeps it so if it
    is opened on its own (pygal escapes every text it draws, and its script is dropped anyway)."""
    if svg is None:
        raise Http404("Nothing to chart yet.")
    response = HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")
    response["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'"
    return response


@login_for_members_only
@conditional(_game_etag)
def game_chart(request: HttpRequest, pk: int) -> HttpResponse:
    """The game page's chart of the scores after each hand, an SVG drawn once per version of the game.

    A chart costs more to draw than the rest of the page, so it is a resource of its own: the page's
    HTML comes without waiting for it, a reload of an unchanged chart is a 304, and the checks are the
    page's (same visibility, same ETag rule)."""
    hanchan = _game_for(request, pk)
    return svg_response(
        cached_value(
            (*game_key(hanchan), "game-chart"), lambda: game_charts.score_progression(game_view(hanchan))
        )
    )


def _event_page_key(request: HttpRequest, slug: str) -> Keyed | None:
    event = raw_first(Event, _EVENT_KEY_FIELDS, '"slug" = %s', [slug])
    return None if event is None else Keyed(results_key(event), _event_shown(event))


@whole_page(_event_page_key, etag=_page_etag)
@login_for_members_only
@conditional(_event_etag)
def event(request: HttpRequest, slug: str) -> HttpResponse:
    """An event: its standings (filtered, sortable, paged, downloadable as the same CSV), its latest games,
    then club, dates, rules in words and registered players — the body cached by the event's results
    version and the query string (``scoring/cache.py``)."""
    event = _event_for(request, slug)
    # Logged in or not: the players' table shows members-only players' details to members only.
    key = (*results_key(event), "event-page", query_key(request), is_member(request.user))
    return render(
        request,
        "scoring/public/event.html",
        {"event": event, "page_cache": PageCache(key, lambda: event_body(request, event))},
    )


def url_around(name: str) -> tuple[str, str]:
    """What comes before and after the one argument of URL ``name``: a list of hundreds of links
    (a player's games, an event's players) pays for one ``reverse()`` instead of one per row, each row
    filling in its own with the ``around`` filter (``league/templatetags/league.py``)."""
    marker = "987654321"
    before, after = reverse(name, args=[marker]).split(marker)
    return before, after


def event_body(request: HttpRequest, event: Event) -> dict[str, Any]:
    """What the event page's body shows (computed only when it is not in the cache)."""
    # Sorted as a reader expects ("Léa" before "Lukas"), not by code point as the database would.
    registrations = sorted_by_name(
        Registration.objects.filter(event=event).select_related("player"), lambda r: r.player.display_name
    )
    context = standings_context(request, event)
    return {
        **context,
        "player_url": url_around("scoring:player"),  # one reverse() for hundreds of names
        "rules": rules_in_words(event.rules),
        "preset_label": preset_label(event.rules.preset),
        "registrations": registrations,
        # A members-only player (league.permissions.player_page_is_public) is listed by display name
        # alone for the public: no club, country, EMA number or online name.
        "show_members": is_member(request.user),
        "latest_games": latest_games(event, up_to_round=context["hidden_after_round"]),
    }


def standings_context(request: HttpRequest, event: Event) -> dict[str, Any]:
    """The standings part of the event page, shared with its live fragment: filters, both tables (as
    the public may see them: see ``scoring.standings.hidden_after_round``), the download and live URLs,
    and whether the fragment polls: every 20 s while a round is open, every minute while rounds are
    hidden for the final reveal (so an open page learns of the release), otherwise not at all."""
    filters = StandingsFilter(request.GET, event=event)
    options = public_options(event, filters.options())
    ranked, unranked = configured_tables(bounded_paging(request), standings(event, **options), paginate=True)
    # The download repeats the filters (the event's minimum made explicit) and both sort orders.
    query = QueryDict(mutable=True)
    if filters.is_valid():
        query.update(filters.data)
    for key in ("sort", f"{UNRANKED_PREFIX}sort"):
        if request.GET.get(key):
            query[key] = request.GET[key]
    hidden = hidden_after_round(event)
    live = round_in_play(event)
    return {
        "filters": filters,
        # The filters stay folded (the table comes first on a phone) unless the visitor used them.
        "filters_open": not filters.is_valid() or any(request.GET.get(name) for name in filters.filters),
        "min_games": options["min_games"],
        "ranked": ranked,
        "unranked": unranked,
        "hidden_after_round": hidden,
        "csv_url": f"{reverse('scoring:standings_csv', args=[event.slug])}?{query.urlencode()}",
        "live": live,
        "poll_seconds": LIVE_POLL_SECONDS if live else REVEAL_POLL_SECONDS if hidden is not None else None,
        "live_url": reverse("scoring:standings_live", args=[event.slug])
        + (f"?{request.GET.urlencode()}" if request.GET else ""),
    }


@login_for_members_only
@conditional(_event_etag)
def standings_live(request: HttpRequest, slug: str) -> HttpResponse:
    """The event page's standings tables alone, for its htmx polling while a round is open or rounds
    are hidden for the final reveal; the same query string gives the same filters, sort and page. Once
    neither is true (no round open, everything released) the fragment comes back without its polling
    attributes, so the page stops asking.

    Cheap by design: a poll of unchanged standings is a 304 (ETag), and the fragment is rendered once
    per results version and query string (``results_key`` holds the hidden-standings state too, and
    opening or closing a round moves the version on: it writes a history entry)."""
    event = _event_for(request, slug)
    html = cached_fragment(
        (*results_key(event), "standings-live", query_key(request)),
        lambda: render_to_string(
            "scoring/public/_standings_live.html",
            {"event": event, **standings_context(request, event)},
            request,
        ),
    )
    return HttpResponse(html)


@login_for_members_only
def standings_csv(request: HttpRequest, slug: str) -> HttpResponse:
    """The standings as CSV: the rows, columns, values and order of the page with the same query string,
    every page at once. Invalid filters answer 400 with the reason rather than a CSV of something else."""
    event = visible_event_or_404(request.user, slug)
    filters = StandingsFilter(request.GET, event=event)
    if not filters.is_valid():
        return HttpResponse(filters.first_error(), status=400, content_type="text/plain; charset=utf-8")
    options = public_options(event, filters.options())  # hidden rounds stay hidden in the download
    tables = configured_tables(bounded_paging(request), standings(event, **options), paginate=False)
    return csv_response(csv_rows(export_rows(tables)), f"{event.slug}-standings.csv")


def _player_page_key(request: HttpRequest, pk: int) -> Keyed | None:
    flags = [f"public_{name}" for name in PRIVATE_FIELDS]
    player = raw_first(Player, ["results_version", "shown_version", "visibility", *flags], '"id" = %s', [pk])
    if player is None:
        return None
    # As _player_etag: an anonymous visitor (False), and whether ratings are being rebuilt. A stale page
    # never crosses a registration, a visibility or a reveal (each moves the player's shown version), nor
    # a change of what the player keeps private (an anonymous visitor sees no more than that).
    shown = shown_fields(request.user, player)  # an anonymous visitor: no query
    parts = (*player_key(player), False, _ratings_updating(request), *shown.key)
    return Keyed(parts, ("player", player.pk, player.shown_version, player.visibility, *shown.key))


@whole_page(_player_page_key, etag=_page_etag)
@login_for_members_only
@conditional(_player_etag)
def player(request: HttpRequest, pk: int) -> HttpResponse:
    """A player: who they are, their events, and over one event (``?event=slug``) or every event the
    visitor may see: results, statistics, head-to-head, ratings and their charts.

    Only for a visitor who may see an event the player plays in: someone who plays only in members-only
    events is a login away for an anonymous visitor (as those events are), and a 404 otherwise.

    The body is cached by the player's results version, the ``event`` parameter and whether the visitor
    is logged in (which decides the events they may see). A cached body was rendered after the checks
    passed for that same version, and whatever would change their answer (a registration, a seat, an
    event's visibility) moves the player's version on."""
    player = _player_for(request, pk)
    slug = _scope_slug(request)
    every_game = request.GET.get("games") == "all"
    # "Ratings updating…" is part of the body: a body rendered while a rebuild waits must not be served
    # once it is done, even to a player whose ratings it did not change (their version did not move).
    updating = _ratings_updating(request)
    member = is_member(request.user)
    shown = shown_fields(request.user, player)  # what the player keeps private, unless this is them
    key = (*player_key(player), "player-page", slug, member, every_game, updating, *shown.key)
    scope = None
    if slug:  # the page's title names the event; the body checks it is one of the player's
        scope = visible_events(request.user).filter(slug=slug).values_list("name", flat=True).first()
    return render(
        request,
        "scoring/public/player.html",
        {
            "player": player,
            "scope_name": scope,
            "member": member,
            "page_cache": PageCache(
                key,
                lambda: {
                    **player_body(request, player, slug, every_game),
                    "ratings_updating": updating,
                    "member": member,
                    "shown": shown,
                },
            ),
        },
    )


PLAYER_CHARTS = ("cumulative", "places", "tenhou", "openskill")
"""The player page's charts, each an SVG of its own (:func:`player_chart`)."""

RECENT_GAMES = 20
"""Games the player page lists, newest first; the rest are one link away (``?games=all``): a regular's
page would otherwise list hundreds, and rendering them was most of the page's cost."""


def _scope_slug(request: HttpRequest) -> str | None:
    """The ``?event=`` of a player page or chart: None (every event) for none, or junk (a NUL byte...)."""
    slug = request.GET.get("event") or None
    if slug is not None and (len(slug) > 80 or not SLUG_RE.fullmatch(slug)):
        return None
    return slug


def _visible_player_page(request: HttpRequest, player: Player, slug: str | None) -> PlayerPage:
    """The player's page data for this visitor, or a 404 (an event that is not theirs, or a player the
    visitor may not see)."""
    members_only = not is_member(request.user) and not player_page_is_public(player)
    if members_only:  # the player's own decision, whatever events they play in
        require_visible_player(request.user, player)
    page = player_page(player, visible_events(request.user), slug)
    if not page.registrations:  # registered in a visible event: visible; else ask (substitute seats...)
        require_visible_player(request.user, player)
    return page


def player_body(
    request: HttpRequest, player: Player, slug: str | None, every_game: bool = False
) -> dict[str, Any]:
    """What the player page's body shows (computed only when it is not in the cache)."""
    page = _visible_player_page(request, player, slug)
    stats = page.statistics
    newest_first = stats.games[::-1]
    scope = QueryDict(mutable=True)
    if slug:
        scope["event"] = slug
    every = scope.copy()
    every["games"] = "all"
    in_scope = f"?{scope.urlencode()}" if scope else ""
    return {
        "page": page,
        "game_url": url_around("scoring:game"),
        "event_url": url_around("scoring:event"),
        "player_url": url_around("scoring:player"),
        "registrations": page.registrations,
        "stats": stats,
        "tenhou": page.tenhou,
        "openskill": page.openskill,
        "listed_games": newest_first if every_game else newest_first[:RECENT_GAMES],
        "every_game_url": f"?{every.urlencode()}#games",
        "chart_urls": {
            name: reverse("scoring:player_chart", args=[player.pk, name]) + in_scope for name in PLAYER_CHARTS
        },
    }


@login_for_members_only
@conditional(_player_etag)
def player_chart(request: HttpRequest, pk: int, chart: str) -> HttpResponse:
    """One of the player page's four charts, an SVG (see :func:`game_chart` for why apart).

    The four are drawn together on the first request and kept under the page's own key parts, so the
    page's three others come from the cache."""
    if chart not in PLAYER_CHARTS:
        raise Http404("No such chart.")
    player = _player_for(request, pk)
    shown = shown_fields(request.user, player)
    if not (shown.ratings if chart in ("tenhou", "openskill") else shown.statistics):
        raise Http404("The player keeps this chart private.")
    slug = _scope_slug(request)
    updating = _ratings_updating(request)
    key = (*player_key(player), "player-charts", slug, is_member(request.user), updating)
    return svg_response(cached_value(key, lambda: _player_charts(request, player, slug))[chart])


def _player_charts(request: HttpRequest, player: Player, slug: str | None) -> dict[str, str | None]:
    page = _visible_player_page(request, player, slug)
    stats, name = page.statistics, player.display_name
    return {
        "cumulative": player_charts.cumulative_results(name, stats.games),
        "places": player_charts.place_distribution(name, stats.placements),
        "tenhou": player_charts.rating_history("Tenhou R", name, page.tenhou),
        "openskill": player_charts.rating_history("OpenSkill (μ − 3σ)", name, page.openskill),
    }


@login_for_members_only
def ratings(request: HttpRequest, slug: str) -> HttpResponse:
    """An event's ratings: its players by current Tenhou R and by OpenSkill, counting this event only;
    "updating…" while a change of its games waits for the worker's rebuild."""
    event = visible_event_or_404(request.user, slug)
    table = current_ratings(event, hidden_after=hidden_after_round(event))
    return render(
        request,
        "scoring/public/ratings.html",
        {
            "event": event,
            "tenhou": table[RatingChange.System.TENHOU],
            "openskill": table[RatingChange.System.OPENSKILL],
            "ratings_updating": ratings_pending(event),
        },
    )
