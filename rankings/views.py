"""Public ranking pages: the EMA-style ranking (site and club), the rating ladders, the club season
ladder, the ranked tournaments and a player's ranking with its history. Thin: the figures come from
``rankings.selectors`` and ``rankings.ladders``; every table has its CSV (``?format=csv`` is not used:
each download has its own URL, as the standings').

Pages are cached (``scoring.cache``): the body by the rankings' version, the day (a result halves or
leaves on its anniversary), the players' names' version and the query string; the whole page for
anonymous visitors (``league.wholepage``). Each request first checks whether the tournaments' results
moved since the rows were computed (``rankings.local.stale``): then it marks the recomputation for the
worker and says "Ranking updating…" over the figures it has.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import django_tables2 as tables
from django.contrib.auth.views import redirect_to_login
from django.core.paginator import EmptyPage
from django.db.models import Max
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone

from league.models import Club, Player
from league.permissions import player_page_is_public
from league.wholepage import whole_page
from scoring.cache import cached_value, query_key
from scoring.exports.csvfile import csv_response

from . import ladders, local, selectors
from .charts import ranking_history
from .filters import LadderFilter, RankingFilter, TournamentFilter
from .tables import (
    EmaRankingTable,
    LadderTable,
    PlayerTournamentTable,
    SeasonTable,
    TournamentTable,
    csv_rows,
)

PER_PAGE = 100


def _names_version() -> int:
    """The largest player results version: moves when a name shown in a ranking changes."""
    return Player.objects.aggregate(top=Max("results_version"))["top"] or 0


def _key(request: HttpRequest, *extra: Any) -> tuple[Any, ...]:
    """The key parts of a ranking page: the rankings' version, whether it is updating, the day (a result
    halves or leaves on its anniversary), the names' version and the query string. Not the visitor: the
    rows are the same for everyone (members-only players are shown by name only to all), and the whole
    page is cached for anonymous visitors only (``league.wholepage``)."""
    updating = local.stale()
    return (
        "rankings",
        local.state().version,
        updating,
        timezone.localdate().isoformat(),
        _names_version(),
        query_key(request),
        *extra,
    )


def _page_key(request: HttpRequest, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
    return _key(request, *args, *sorted(kwargs.items()))


def _bad_filters(filters: RankingFilter) -> HttpResponse | None:
    if filters.is_bound and not filters.is_valid():
        return HttpResponse(filters.first_error(), status=400, content_type="text/plain; charset=utf-8")
    return None


def _ema_table(request: HttpRequest, filters: RankingFilter, key: tuple[Any, ...]) -> EmaRankingTable:
    options = filters.options()
    as_of = selectors.as_of_for(options.pop("year"), timezone.localdate())
    rows = cached_value((*key, "ema-rows"), lambda: selectors.ema_ranking(as_of, **options))
    return EmaRankingTable(rows)


def _ranking_page(request: HttpRequest, club: Club | None) -> HttpResponse:
    filters = RankingFilter(request.GET or None, fixed_club=club)
    key = _key(request, club.pk if club else None)
    table = _ema_table(request, filters, key)
    _paginate(request, table)
    options = filters.options()
    context = {
        "club": club,
        "filters": filters,
        "table": table,
        "as_of": selectors.as_of_for(options["year"], timezone.localdate()),
        "updating": key[2],
        "csv_url": _with_query(
            request,
            reverse("rankings:club_csv", args=[club.slug]) if club else reverse("rankings:ranking_csv"),
        ),
    }
    if club is not None:
        year = options["year"] or timezone.localdate().year
        context["season_year"] = year
        context["season"] = SeasonTable(
            cached_value((*key, "season", year), lambda: ladders.season_ladder(club, year))
        )
        context["season_csv_url"] = reverse("rankings:season_csv", args=[club.slug]) + f"?year={year}"
    return render(request, "rankings/ranking.html", context)


def _page(request: HttpRequest) -> int:
    try:
        return max(1, min(int(request.GET.get("page", 1)), 10_000))
    except ValueError:
        return 1


def _paginate(request: HttpRequest, table: tables.Table) -> None:
    """A page of 100 rows; a page past the end (a stale link) is the last one."""
    try:
        table.paginate(page=_page(request), per_page=PER_PAGE)
    except EmptyPage:
        table.paginate(page=max(1, -(-len(table.data) // PER_PAGE)), per_page=PER_PAGE)


def _with_query(request: HttpRequest, url: str) -> str:
    query = request.GET.copy()
    query.pop("page", None)
    return f"{url}?{query.urlencode()}" if query else url


@whole_page(_page_key)
def ranking(request: HttpRequest) -> HttpResponse:
    """The site's EMA-style ranking, with its filters."""
    return _ranking_page(request, None)


@whole_page(_page_key)
def club_ranking(request: HttpRequest, slug: str) -> HttpResponse:
    """A club's page of rankings: its players' EMA-style ranking and its season ladder."""
    return _ranking_page(request, get_object_or_404(Club, slug=slug))


def _csv(request: HttpRequest, club: Club | None, filename: str) -> HttpResponse:
    filters = RankingFilter(request.GET or None, fixed_club=club)
    if bad := _bad_filters(filters):
        return bad
    table = _ema_table(request, filters, _key(request, club.pk if club else None))
    return csv_response(csv_rows(table), filename)


def ranking_csv(request: HttpRequest) -> HttpResponse:
    return _csv(request, None, "ranking.csv")


def club_csv(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    return _csv(request, club, f"{club.slug}-ranking.csv")


def _season_year(request: HttpRequest) -> int:
    try:
        year = int(request.GET.get("year", ""))
    except ValueError:
        return timezone.localdate().year
    return year if 1900 <= year <= 9999 else timezone.localdate().year


def season_csv(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    year = _season_year(request)
    table = SeasonTable(ladders.season_ladder(club, year))
    return csv_response(csv_rows(table), f"{club.slug}-season-{year}.csv")


def _ladder(request: HttpRequest) -> tuple[LadderFilter, LadderTable | None]:
    filters = LadderFilter(request.GET or None)
    if filters.is_bound and not filters.is_valid():
        return filters, None
    options = filters.options()
    rows = cached_value((*_key(request), "ladder"), lambda: ladders.rating_ladder(**options))
    return filters, LadderTable(rows)


@whole_page(_page_key)
def ladder(request: HttpRequest) -> HttpResponse:
    """The lifetime rating ladders (Tenhou R, OpenSkill) with a minimum number of games."""
    filters, table = _ladder(request)
    if table is not None:
        _paginate(request, table)
    return render(
        request,
        "rankings/ladder.html",
        {"filters": filters, "table": table, "csv_url": _with_query(request, reverse("rankings:ladder_csv"))},
    )


def ladder_csv(request: HttpRequest) -> HttpResponse:
    filters, table = _ladder(request)
    if table is None:
        return HttpResponse(filters.first_error(), status=400, content_type="text/plain; charset=utf-8")
    return csv_response(csv_rows(table), f"ladder-{filters.options()['system']}.csv")


@whole_page(_page_key)
def tournaments(request: HttpRequest) -> HttpResponse:
    """Every ranked tournament, held here or imported, newest first; by club, country and year."""
    filters = TournamentFilter(request.GET or None, queryset=selectors.tournaments())
    table = TournamentTable(filters.qs if filters.is_valid() else selectors.tournaments())
    _paginate(request, table)
    return render(
        request,
        "rankings/tournaments.html",
        {
            "table": table,
            "filters": filters,
            "csv_url": _with_query(request, reverse("rankings:tournaments_csv")),
        },
    )


def tournaments_csv(request: HttpRequest) -> HttpResponse:
    filters = TournamentFilter(request.GET or None, queryset=selectors.tournaments())
    if filters.is_bound and not filters.is_valid():
        return HttpResponse(filters.first_error(), status=400, content_type="text/plain; charset=utf-8")
    return csv_response(csv_rows(TournamentTable(filters.qs)), "ranked-tournaments.csv")


def _ranked_player(request: HttpRequest, pk: int) -> Player:
    """A player with a ranked result; members-only players need a login (their name only is public)."""
    player = get_object_or_404(Player.objects.select_related("club"), pk=pk)
    if not player.ranking_results.exists():
        raise Http404("No ranked result.")
    return player


def _members_only(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    def wrapped(request: HttpRequest, pk: int) -> HttpResponse:
        player = _ranked_player(request, pk)
        if not request.user.is_authenticated and not player_page_is_public(player):
            return redirect_to_login(request.get_full_path())
        return view(request, player)

    wrapped.__name__ = view.__name__
    wrapped.__qualname__ = view.__qualname__
    wrapped.__module__ = view.__module__
    return wrapped


@whole_page(_page_key)
@_members_only
def player(request: HttpRequest, player: Player) -> HttpResponse:
    """A player's ranking today, its parts, the tournaments behind it and its history."""
    today = timezone.localdate()
    data = selectors.player_ranking(player, today)
    return render(
        request,
        "rankings/player.html",
        {
            "player": player,
            "data": data,
            "today": today,
            "chart": ranking_history(player.display_name, data.history),
            # Their player page (games, statistics) exists once they played here.
            "plays_here": player.seats.exists() or player.substituted_seats.exists(),
            "updating": local.stale(),
            "table": PlayerTournamentTable(data.tournaments),
        },
    )


@_members_only
def player_csv(request: HttpRequest, player: Player) -> HttpResponse:
    """A player's ranked tournaments as CSV: the rows of their ranking page's table."""
    data = selectors.player_ranking(player, timezone.localdate())
    return csv_response(csv_rows(PlayerTournamentTable(data.tournaments)), f"ranking-{player.pk}.csv")
