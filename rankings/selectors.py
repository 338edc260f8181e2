"""Reads of the ranking pages, each in a bounded number of queries (tests assert the counts).

The EMA-style ranking is computed from the stored tournament rows (``rankings.local`` and imports) with
the pure method (``rankings.method``) on the day asked for: one query for the rows, whatever the number
of players.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date

from django.db.models import Q

from league.models import Player

from . import method
from .models import Tournament, TournamentResult


@dataclass(frozen=True)
class RankingRow:
    """One line of the ranking table."""

    position: int
    player_id: int
    name: str
    club: str
    country: str
    ema_number: str
    ranking: float
    part_a: float
    part_b: float
    results: int
    club_slug: str = ""


def as_of_for(year: int | None, today: date) -> date:
    """The day a ranking is computed on: today, or the last day of a past year."""
    if year is None or year >= today.year:
        return today
    return date(year, 12, 31)


def _results_query(as_of: date) -> Q:
    """Rows that may count on ``as_of``: MERS tournaments held in the two years up to that day."""
    return Q(
        tournament__mers=True,
        tournament__end_date__lte=as_of,
        tournament__end_date__gt=date(as_of.year - 2, 1, 1),  # a wide cut; the age factor decides
    )


def player_filter(*, country: str = "", club_id: int | None = None) -> Q:
    """The players a filtered ranking lists. Members-only players are left out of a filtered ranking:
    their country and club are not public (``league.permissions.player_page_is_public``), and so is a
    player who keeps the filtered field private (``Player.public_country``, ``public_club``)."""
    query = Q()
    if country:
        query &= Q(player__country=country, player__public_country=True)
    if club_id:
        query &= Q(player__club_id=club_id, player__public_club=True)
    if country or club_id:
        query &= ~Q(player__visibility=Player.Visibility.MEMBERS)
    return query


def ema_ranking(as_of: date, *, country: str = "", club_id: int | None = None) -> list[RankingRow]:
    """The ranking on ``as_of`` of the players that the filters keep, positions counted among them.
    One query."""
    rows = (
        TournamentResult.objects.filter(
            _results_query(as_of) & player_filter(country=country, club_id=club_id)
        )
        .values_list(
            "player_id",
            "tournament_id",
            "tournament__end_date",
            "base_rank",
            "tournament__weight",
            "player__display_name",
            "player__club__name",
            "player__country",
            "player__ema_number",
            "player__visibility",
            "player__club__slug",
            "player__public_club",
            "player__public_country",
            "player__public_ema_number",
        )
        .order_by()
    )
    records: dict[int, list[method.Result]] = defaultdict(list)
    people: dict[int, tuple[str, str, str, str, str]] = {}
    for row in rows:
        player, tournament, day, base, weight, name, club, player_country, ema, visibility, slug = row[:11]
        show_club, show_country, show_ema = row[11:]
        records[player].append(method.Result(tournament, day, base, weight))
        if visibility == Player.Visibility.MEMBERS:
            people[player] = (name, "", "", "", "")  # the display name only, as in an event's standings
        else:  # what the player keeps private is left out too
            people[player] = (
                name,
                (club or "") if show_club else "",
                (player_country or "") if show_country else "",
                (ema or "") if show_ema else "",
                (slug or "") if show_club else "",
            )
    out = []
    for position, player, ranking in method.standings(records, as_of):
        name, club, player_country, ema, slug = people[player]
        out.append(
            RankingRow(
                position=position,
                player_id=player,
                name=name,
                club=club,
                country=player_country,
                ema_number=ema,
                ranking=ranking.value,
                part_a=ranking.part_a,
                part_b=ranking.part_b,
                results=ranking.results,
                club_slug=slug,
            )
        )
    return out


@dataclass(frozen=True)
class PlayerTournament:
    """One tournament of a player, as their ranking page lists it."""

    tournament: Tournament
    place: int
    base_rank: int
    age_factor: float
    weight: float


@dataclass(frozen=True)
class PlayerRanking:
    """A player's ranking on a day, its history and the tournaments behind it."""

    player: Player
    ranking: method.Ranking | None
    tournaments: list[PlayerTournament]
    history: list[tuple[date, float]]


def player_ranking(player: Player, as_of: date) -> PlayerRanking:
    """Everything of one player's ranking: two queries."""
    rows = list(
        TournamentResult.objects.filter(player=player, tournament__mers=True)
        .select_related("tournament", "tournament__event")
        .order_by("-tournament__end_date", "tournament_id")
    )
    results = [
        method.Result(r.tournament_id, r.tournament.end_date, r.base_rank, r.tournament.weight) for r in rows
    ]
    tournaments = [
        PlayerTournament(
            tournament=r.tournament,
            place=r.place,
            base_rank=r.base_rank,
            age_factor=(factor := method.age_factor(r.tournament.end_date, as_of)),
            weight=r.tournament.weight * factor,
        )
        for r in rows
    ]
    return PlayerRanking(
        player=player,
        ranking=method.rank(results, as_of),
        tournaments=tournaments,
        history=method.history(results, as_of),
    )


def tournaments(*, club_id: int | None = None, year: int | None = None):
    """The ranked tournaments (held here and imported), newest first."""
    query = Tournament.objects.select_related("club", "event").order_by("-end_date", "name")
    if club_id:
        query = query.filter(club_id=club_id)
    if year:
        query = query.filter(end_date__year=year)
    return query
