"""Reads for the standings of an event (docs/rules.md §8.1): one row per player, ranked by its tie-breaks.

Everything the standings page, its CSV download and ``manage.py standings`` show comes from
:func:`standings`, so the three can never disagree. The cost is fixed whatever the size of the event:
one grouped query over the cached :class:`~scoring.models.SeatResult` rows, one grouped query over the
event-level penalties and one over the registrations — three queries for 10 players or 10 000 games.

Decisions worth knowing (they are the house rules, not accidents):

- Only *finished* games count. Seat results exist only for finished games, but the status is checked
  again through the join, so a game that is voided or reopened leaves the standings even if a cached
  row were ever left behind.
- A penalty linked to a game is already inside that game's ``SeatResult.penalties`` (and its chombo in
  ``SeatResult.chombos``); only penalties without a game (``hanchan`` NULL, not cancelled) are added here.
- The date range filters games by ``Hanchan.played_on`` (when the game was played — a game entered or
  finished days later still counts on the day it was played) and event-level penalties by their
  ``created_at`` date in the site's time zone, inclusive: the standings "between two dates" are what
  happened between them, so a penalty given after the end date is not in them.
- "After round N" (``up_to_round``, tournaments) counts the games of rounds 1..N and leaves out every
  penalty of a later round (``Penalty.round_number``); an event-level penalty without a round counts.
- A league with a play-off (``Event.playoff_first_round``, set by ``tournaments.stages.add_stage``):
  its standings are the season's, the games without a round number or of a round before the play-off's
  first; the play-off's games count in its stages' standings only. A league without one is unchanged.
- A player with no game in the period is never ranked, even when the event needs 0 games: a rank
  says how someone played, and ranking a player who has not played at 0 points would put them above
  everyone with a negative total. They are listed under "not yet ranked" with 0 games.
- Average placement is compared exactly (a fraction) for tie-breaks; it is shown rounded to 2
  decimals. Players equal on every tie-break share the better rank (1, 2, 2, 4) and are listed by name.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

from django.db.models import Count, Max, Prefetch, Q, QuerySet, Sum

from league.collation import name_sort_key
from league.hidden_rounds import hidden_after_round as hidden_after_round
from league.hidden_rounds import in_hidden_round as in_hidden_round
from league.models import Event, Hanchan, Registration

from .models import Penalty, SeatResult

TWO_PLACES = Decimal("0.01")

# The hide rule of a final reveal (hidden_after_round, in_hidden_round, re-exported above) is league's:
# league.hidden_rounds, since the version writer needs it too. Every public reader of standings goes
# through public_options (or public_standings) below; the organisers' pages and ``manage.py standings``
# call standings() and see everything.


@dataclass
class StandingRow:
    """One player's line in the standings. Points are integers (display them with ``thousands``)."""

    player_id: int
    name: str
    games: int = 0
    points: int = 0
    """Sum of game results (uma, oka and game penalties included) plus event-level penalties."""
    place_sum: int = 0
    firsts: int = 0
    seconds: int = 0
    thirds: int = 0
    fourths: int = 0
    score_sum: int = 0
    best: int | None = None
    """The best single game result (after uma, oka and that game's penalties)."""
    chombos: int = 0
    penalties: int = 0
    """All penalty points: the games' (chombo deductions included) plus the event-level ones."""
    event_penalties: int = 0
    ranked: bool = False
    rank: int | None = None

    @property
    def sort_name(self) -> tuple[str, str]:
        """The name as sorted on the page (case and accents do not matter: "Léa" before "Lukas")."""
        return name_sort_key(self.name)

    @property
    def placement(self) -> Fraction | None:
        """The exact average placement, for tie-breaks (None without games)."""
        return Fraction(self.place_sum, self.games) if self.games else None

    @property
    def average_place(self) -> Decimal | None:
        """Average placement rounded to 2 decimals, as shown."""
        if not self.games:
            return None
        return (Decimal(self.place_sum) / Decimal(self.games)).quantize(TWO_PLACES, ROUND_HALF_UP)

    @property
    def average_score(self) -> int | None:
        """Average final (raw) score, rounded to whole points: points are integers everywhere."""
        if not self.games:
            return None
        return int((Decimal(self.score_sum) / Decimal(self.games)).quantize(Decimal(1), ROUND_HALF_UP))


def finished_results(event: Event) -> QuerySet[SeatResult]:
    """Seat results of the event's finished games: the rows standings are sums of."""
    return SeatResult.objects.filter(event=event, hanchan__status=Hanchan.Status.FINISHED)


def in_period(
    queryset: QuerySet[Any], field: str, date_from: date | None, date_to: date | None
) -> QuerySet[Any]:
    """Rows whose ``field`` falls between the two dates (inclusive). ``field`` is a date, or a date and
    time compared by its date in the site's time zone (``created_at__date``)."""
    if date_from is not None:
        queryset = queryset.filter(**{f"{field}__gte": date_from})
    if date_to is not None:
        queryset = queryset.filter(**{f"{field}__lte": date_to})
    return queryset


def season_before_round(event: Event, from_round: int | None = None) -> int | None:
    """The first round of a league's play-off, where its season ends, for standings that count the
    season (no ``from_round``); None for a tournament, a league without a play-off, or a play-off
    stage's own standings. The field is the event's own: no query."""
    if event.kind != Event.Kind.LEAGUE or from_round is not None:
        return None
    return event.playoff_first_round


def penalties_up_to_round(queryset: QuerySet[Penalty], up_to_round: int | None) -> QuerySet[Penalty]:
    """Leave out the penalties given in a round after ``up_to_round`` (those without a round stay)."""
    if up_to_round is None:
        return queryset
    return queryset.filter(Q(round_number__isnull=True) | Q(round_number__lte=up_to_round))


def _sort_key(row: StandingRow, tie_break: list[str]) -> tuple[Any, ...]:
    """Smaller is better: the event's tie-breaks in order (points first even if the setting omits it)."""
    parts: list[Any] = []
    for term in tie_break:
        if term == "points":
            parts.append(-row.points)
        elif term == "placement":
            parts.append(row.placement if row.placement is not None else Fraction(5))
        elif term == "games":
            parts.append(-row.games)
        else:
            raise ValueError(f"unknown tie-break {term!r} in the event's standings settings")
    return tuple(parts)


def tie_break_terms(event: Event) -> list[str]:
    """The event's tie-break setting as a list of terms, ``points`` always first."""
    terms = [t.strip() for t in (event.tie_break or "points").split(",") if t.strip()]
    return terms if terms[:1] == ["points"] else ["points", *[t for t in terms if t != "points"]]


def hidden_games(hidden: dict[int, int], game: str = "hanchan") -> Q | None:
    """A filter matching the games of hidden rounds (``game`` is the path to the hanchan, ``""`` for
    hanchans themselves), to ``exclude`` from a public page; None when nothing is hidden."""
    prefix = f"{game}__" if game else ""
    found = None
    for event_id, last in hidden.items():
        one = Q(**{f"{prefix}event_id": event_id, f"{prefix}round_number__gt": last})
        found = one if found is None else found | one
    return found


def public_options(event: Event, options: dict[str, Any]) -> dict[str, Any]:
    """The standings options a public page may use: ``up_to_round`` capped at the hidden round (a visitor
    asking for a later round gets the last round they may see)."""
    hidden = hidden_after_round(event)
    if hidden is None:
        return options
    asked = options.get("up_to_round")
    return {**options, "up_to_round": hidden if asked is None else min(asked, hidden)}


def round_in_play(event: Event) -> bool:
    """Whether a round of this tournament is open (its tables are playing): the public standings then
    refresh themselves. One query for a tournament, none for a league.

    The rounds are the tournaments app's, which scoring may not import (tournaments -> scoring ->
    league): they are reached through the reverse relation ``event.rounds`` and the status value
    ``"open"`` that ``tournaments.models.Round.Status.OPEN`` stores."""
    rounds = getattr(event, "rounds", None)
    if event.kind != Event.Kind.TOURNAMENT or rounds is None:
        return False
    return rounds.filter(status="open").exists()


def public_standings(event: Event, **options: Any) -> list[StandingRow]:
    """The standings as the public may see them: :func:`standings` under :func:`public_options`."""
    return standings(event, **public_options(event, options))


def standings(
    event: Event,
    *,
    date_from: date | None = None,
    date_to: date | None = None,
    min_games: int | None = None,
    up_to_round: int | None = None,
    from_round: int | None = None,
) -> list[StandingRow]:
    """The standings: ranked players first (by rank), then those not yet ranked, in tie-break order.

    ``min_games`` defaults to the event's setting; ``up_to_round`` gives a tournament's standings after
    that round (event-level penalties of later rounds left out); ``from_round`` counts only the games
    and penalties of that round on (a stage after the first: ``tournaments.stages``; penalties without
    a round belong to the first stage). Three queries, whatever the number of players or games.
    """
    needed = event.min_games if min_games is None else min_games
    rows: dict[int, StandingRow] = {}

    finished = finished_results(event)
    season = season_before_round(event, from_round)
    if season is not None:
        # A league with a play-off: its standings are the season's, the games before the play-off's
        # first round or without a round number (the play-off's are its stages', tournaments/stages.py).
        finished = finished.exclude(hanchan__round_number__gte=season)
    elif up_to_round is not None:
        finished = finished.filter(hanchan__round_number__lte=up_to_round)
    if from_round is not None:
        finished = finished.filter(hanchan__round_number__gte=from_round)
    results = (
        in_period(finished, "hanchan__played_on", date_from, date_to)
        .values("player_id", "player__display_name")
        .annotate(
            games=Count("pk"),
            points=Sum("result"),
            place_sum=Sum("place"),
            firsts=Count("pk", filter=Q(place=1)),
            seconds=Count("pk", filter=Q(place=2)),
            thirds=Count("pk", filter=Q(place=3)),
            fourths=Count("pk", filter=Q(place=4)),
            score_sum=Sum("score"),
            best=Max("result"),
            chombos=Sum("chombos"),
            penalties=Sum("penalties"),
        )
        .order_by()
    )
    for r in results:
        rows[r["player_id"]] = StandingRow(
            player_id=r["player_id"],
            name=r["player__display_name"],
            games=r["games"],
            points=int(r["points"]),
            place_sum=int(r["place_sum"]),
            firsts=r["firsts"],
            seconds=r["seconds"],
            thirds=r["thirds"],
            fourths=r["fourths"],
            score_sum=int(r["score_sum"]),
            best=int(r["best"]),
            chombos=int(r["chombos"]),
            penalties=int(r["penalties"]),
        )

    given = Penalty.objects.filter(event=event, hanchan__isnull=True, cancelled=False)
    if from_round is not None:
        given = given.filter(round_number__gte=from_round)
    if season is not None:
        given = given.exclude(round_number__gte=season)
        up_to_round = None
    event_penalties = (
        in_period(
            penalties_up_to_round(given, up_to_round),
            "created_at__date",
            date_from,
            date_to,
        )
        .values("player_id", "player__display_name")
        .annotate(points=Sum("points"), chombos=Count("pk", filter=Q(kind=Penalty.Kind.CHOMBO)))
        .order_by()
    )
    for p in event_penalties:
        row = rows.setdefault(p["player_id"], StandingRow(p["player_id"], p["player__display_name"]))
        row.event_penalties = int(p["points"])
        row.points += row.event_penalties
        row.penalties += row.event_penalties
        row.chombos += p["chombos"]

    # Registered players who have not played yet are listed too; a substitute's games count for the
    # player they replace, so a substitute appears only with results of their own.
    registered = (
        Registration.objects.filter(event=event, is_substitute=False)
        .values_list("player_id", "player__display_name")
        .order_by()
    )
    for player_id, name in registered:
        rows.setdefault(player_id, StandingRow(player_id, name))

    return rank_rows(list(rows.values()), tie_break_terms(event), needed)


def rank_rows(rows: list[StandingRow], tie_break: list[str], min_games: int) -> list[StandingRow]:
    """Sort by the tie-breaks (then by name), mark who is ranked and give shared ranks to exact ties."""
    rows.sort(key=lambda r: (_sort_key(r, tie_break), name_sort_key(r.name), r.player_id))
    ranked = [r for r in rows if r.games > 0 and r.games >= min_games]
    previous: tuple[Any, ...] | None = None
    for index, row in enumerate(ranked, start=1):
        key = _sort_key(row, tie_break)
        row.ranked = True
        row.rank = index if key != previous else ranked[index - 2].rank
        previous = key
    return ranked + [r for r in rows if not r.ranked]


def latest_games(event: Event, limit: int = 10, *, up_to_round: int | None = None) -> list[Hanchan]:
    """The event's most recently played finished games (by ``played_on``, then when they finished) with
    their seat results (best place first) and players: two queries, for the links from the event page.
    ``up_to_round`` keeps the games of rounds 1..N only (hidden standings must not leak by this list)."""
    results = SeatResult.objects.select_related("player").order_by("place", "seat")
    games = Hanchan.objects.filter(event=event, status=Hanchan.Status.FINISHED)
    if up_to_round is not None:
        games = games.filter(round_number__lte=up_to_round)
    return list(
        games.order_by("-played_on", "-finished_at", "-pk").prefetch_related(
            Prefetch("results", queryset=results, to_attr="seat_results")
        )[:limit]
    )
