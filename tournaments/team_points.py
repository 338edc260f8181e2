"""Team standings from the members' results: pure Python (no Django), so the counting rule can be read
and tested on its own. An import-linter contract keeps it that way.

The database side (``tournaments.teams``) reads each finished game's credited result per member and the
event-level penalties; this module adds them up per team in one of two ways (the event's setting):

- **sum**: every result of every member counts;
- **best K per round**: in each round, each member's results of that round are added up (one game per
  round in a tournament), and only the ``K`` best members of the team count. A team with a member more
  (a substitute) is no better off, and one absent member does not sink a team of five.

Event-level penalties (given to a member without a game) always count in full: they are no result a
team can choose to leave out. Teams are ranked by points; teams equal on points share the better rank
(1, 2, 2, 4) and are listed by name. A team none of whose members has played is listed, not ranked.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

SUM = "sum"
BEST = "best"


@dataclass(frozen=True)
class Result:
    """One finished game's result credited to a player, and the round it belongs to (a tournament's round
    number; for games without one, whatever groups them: the caller decides)."""

    player: int
    round: Hashable
    points: int


@dataclass
class MemberTotal:
    """A member's share of the team's points: all their points, and those that counted for the team."""

    player: int
    points: int = 0
    counted: int = 0
    games: int = 0
    penalties: int = 0


@dataclass
class TeamTotal:
    """A team's line of the standings."""

    team: int
    name: str
    points: int = 0
    games: int = 0
    members: dict[int, MemberTotal] = field(default_factory=dict)
    rounds: dict[Hashable, int] = field(default_factory=dict)
    """Points the team scored in each round (after the best-K rule)."""
    ranked: bool = False
    rank: int | None = None


def _check(counting: str, best: int | None) -> None:
    if counting not in (SUM, BEST):
        raise ValueError(f"counting must be {SUM!r} or {BEST!r}, got {counting!r}")
    if counting == BEST and (best is None or best < 1):
        raise ValueError(f"best must be a positive number of members, got {best!r}")


def best_of_round(points_by_member: Mapping[int, int], best: int) -> list[int]:
    """The members whose results count in one round: the ``best`` highest totals (ties broken by the
    smaller player id, so the choice is the same on every page)."""
    ordered = sorted(points_by_member.items(), key=lambda item: (-item[1], item[0]))
    return [player for player, _points in ordered[:best]]


def team_totals(
    teams: Mapping[int, str],
    members: Mapping[int, Sequence[int]],
    results: Iterable[Result],
    penalties: Mapping[int, int] | None = None,
    *,
    counting: str = SUM,
    best: int | None = None,
) -> list[TeamTotal]:
    """The team standings: ``teams`` (id -> name), ``members`` (team id -> player ids), the members'
    ``results`` and event-level ``penalties`` (player id -> points). Ranked teams first, by rank.

    Results of players in no team are ignored. Raises ValueError on an unknown ``counting`` or a
    ``best`` that is not a positive number, and when a player is in two teams.
    """
    _check(counting, best)
    team_of: dict[int, int] = {}
    totals: dict[int, TeamTotal] = {}
    for team, name in teams.items():
        total = totals[team] = TeamTotal(team=team, name=name)
        for player in members.get(team, ()):
            if player in team_of and team_of[player] != team:
                raise ValueError(f"player {player} is in two teams")
            team_of[player] = team
            total.members[player] = MemberTotal(player=player)
    # (team, round) -> member -> points in that round
    by_round: dict[tuple[int, Hashable], dict[int, int]] = defaultdict(lambda: defaultdict(int))
    for result in results:
        team = team_of.get(result.player)
        if team is None:
            continue
        member = totals[team].members[result.player]
        member.points += result.points
        member.games += 1
        totals[team].games += 1
        by_round[team, result.round][result.player] += result.points
    for (team, round_), points in by_round.items():
        total = totals[team]
        counted = list(points) if counting == SUM else best_of_round(points, best or 0)
        for player in counted:
            total.members[player].counted += points[player]
        total.rounds[round_] = sum(points[player] for player in counted)
    for player, points in (penalties or {}).items():
        team = team_of.get(player)
        if team is None or not points:
            continue
        member = totals[team].members[player]
        member.points += points
        member.counted += points
        member.penalties += points
    for total in totals.values():
        total.points = sum(member.counted for member in total.members.values())
    return rank(list(totals.values()))


def rank(totals: list[TeamTotal]) -> list[TeamTotal]:
    """Teams with games ranked by points (ties share the better rank), by name within a tie; then the
    teams without games, by name."""
    totals.sort(key=lambda t: (-t.points, t.name.casefold(), t.name, t.team))
    ranked = [t for t in totals if t.games > 0]
    previous: int | None = None
    for index, total in enumerate(ranked, start=1):
        total.ranked = True
        total.rank = index if total.points != previous else ranked[index - 2].rank
        previous = total.points
    unranked = sorted((t for t in totals if t.games == 0), key=lambda t: (t.name.casefold(), t.name, t.team))
    return ranked + unranked
