"""The rating ladders and the club season ladder.

- **Rating ladders**: every player's lifetime Tenhou R or OpenSkill (``scoring.ratings``,
  docs/rules.md §8.3), best first, for players with at least a minimum number of rated games (a rating
  after three games says little). Filters: the player's country and club.
- **Club season ladder**: over a club's public leagues of one year (games played that year), each
  player's points (the sum of their game results, event-level penalties given that year included, in
  thousands as standings show them), games and average place; ranked by points, then average place,
  then games, as the standings' default tie-breaks.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Avg, Count, Q, Sum

from league.hidden_rounds import in_hidden_round
from league.models import Club, Event, Player
from league.permissions import player_page_is_public
from scoring.models import Penalty, RatingChange, SeatResult
from scoring.ratings import current_ratings, replay_ratings


@dataclass(frozen=True)
class LadderRow:
    position: int
    player_id: int
    name: str
    club: str
    country: str
    rating: float
    games: int


def public_ratings(system: str) -> list[tuple[int, float, int]]:
    """(player, rating, games) of ``system`` over the games the public may see, best first.

    The stored lifetime ratings count every game, those of members-only events and of rounds a
    tournament keeps for its final reveal too: shown on a public page they would tell how those games
    went. So when any such game exists (one query), the public games are rated again in memory with the
    same pure functions (``scoring.ratings.replay_ratings``); otherwise the stored ratings are the
    answer (one query)."""
    hidden = SeatResult.objects.filter(
        Q(event__in=Event.objects.exclude(visibility=Event.Visibility.PUBLIC)) | in_hidden_round("hanchan")
    )
    if not hidden.exists():
        rows = [(r.player_id, r.rating, r.games) for r in current_ratings(None).get(system, [])]
    else:
        public = SeatResult.objects.filter(event__visibility=Event.Visibility.PUBLIC).exclude(
            in_hidden_round("hanchan")
        )
        states, _ = replay_ratings(public)
        if system == RatingChange.System.TENHOU:
            rows = [(p, s.tenhou, s.tenhou_games) for p, s in states.items()]
        else:
            rows = [(p, s.openskill, s.openskill_games) for p, s in states.items()]
    rows.sort(key=lambda row: (-row[1], row[0]))
    return rows


def rating_ladder(
    *, system: str, min_games: int, country: str = "", club_id: int | None = None
) -> list[LadderRow]:
    """The lifetime ladder of ``system`` as the public may see it. Members-only players are listed by
    their display name only, and the country and club filters leave them out (they would tell where
    such a player plays)."""
    rated = [row for row in public_ratings(system) if row[2] >= min_games]
    people = Player.objects.select_related("club").in_bulk([row[0] for row in rated])
    out: list[LadderRow] = []
    for player_id, rating, games in rated:
        player = people.get(player_id)
        if player is None:
            continue
        public = player_page_is_public(player)
        if (country or club_id) and not public:
            continue
        if country and (player.country != country or not player.public_country):
            continue
        if club_id and (player.club_id != club_id or not player.public_club):
            continue
        position = out[-1].position if out and out[-1].rating == rating else len(out) + 1
        out.append(
            LadderRow(
                position=position,
                player_id=player.pk,
                name=player.display_name,
                club=player.club.name if player.club and public and player.public_club else "",
                country=str(player.country.code or "") if public and player.public_country else "",
                rating=rating,
                games=games,
            )
        )
    return out


@dataclass(frozen=True)
class SeasonRow:
    position: int
    player_id: int
    name: str
    points: float
    games: int
    average_place: float


def season_ladder(club: Club, year: int) -> list[SeasonRow]:
    """The club's season ladder of ``year``: three queries."""
    leagues = Event.objects.filter(club=club, kind=Event.Kind.LEAGUE, visibility=Event.Visibility.PUBLIC)
    games = (
        SeatResult.objects.filter(event__in=leagues, hanchan__played_on__year=year)
        .values("player_id")
        .annotate(points=Sum("result"), games=Count("id"), place=Avg("place"))
        .order_by()
    )
    totals: dict[int, list[float]] = {}
    for row in games:
        totals[row["player_id"]] = [row["points"] or 0, row["games"], float(row["place"])]
    penalties: dict[int, int] = defaultdict(int)
    for player_id, points in Penalty.objects.filter(
        event__in=leagues, hanchan__isnull=True, cancelled=False, created_at__year=year
    ).values_list("player_id", "points"):
        penalties[player_id] += points
    for player_id, points in penalties.items():
        if player_id in totals:
            totals[player_id][0] += points
    names = dict(Player.objects.filter(pk__in=list(totals)).values_list("pk", "display_name"))
    order = sorted(totals, key=lambda p: (-totals[p][0], totals[p][2], -totals[p][1], names.get(p, "")))
    out: list[SeasonRow] = []
    for player_id in order:
        points, count, place = totals[player_id]
        key = (points, place, count)
        previous = out[-1] if out else None
        same = (
            previous is not None and (previous.points * 1000, previous.average_place, previous.games) == key
        )
        out.append(
            SeasonRow(
                position=previous.position if same and previous else len(out) + 1,
                player_id=player_id,
                name=names.get(player_id, ""),
                points=points / 1000,
                games=int(count),
                average_place=place,
            )
        )
    return out
