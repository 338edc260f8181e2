"""Player statistics (docs/rules.md §8.2) as grouped queries over the cached rows, never by replaying games.

``SeatResult`` (one row per finished game and seat) gives placements, scores, results and chombos for
every finished game, whichever way it was entered. ``HandSeat`` (one row per hand and seat) and ``Win``
exist only for games entered hand by hand, so the hand statistics cover those games only; the page says
how many games that is. Both count the *credited* player, as the standings do.

Every function takes the events to count as a queryset (the events the visitor may see, or one of them)
and uses it as a subquery, so the number of queries never depends on the number of games.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, NamedTuple

from django.db.models import Avg, Count, Exists, F, Q, QuerySet, Subquery
from django.http import Http404
from django.utils.timezone import localtime

from league.models import Event, Hanchan, Player, Registration
from scoring import yaku_picker
from scoring.models import HandSeat, RatingChange, SeatResult
from scoring.ratings import RatingPoint, rating_history, replay_ratings
from scoring.standings import hidden_after_round, hidden_games, in_hidden_round
from scoring.yaku_stats import WinFacts, YakuSummary, summarise, yaku_recorded

FINISHED = Hanchan.Status.FINISHED
HANDS = Hanchan.EntryMode.HANDS
HEAD_TO_HEAD_OPPONENTS = 5


def _rate(part: int, whole: int) -> float | None:
    """A share in 0–1, or None when there is nothing to divide (shown as a dash, not as 0 %)."""
    return part / whole if whole else None


class GameResult(NamedTuple):
    """One finished game in a player's history, with the running total of results after it.

    This, a win and a rating point are named tuples rather than frozen dataclasses: a regular's page
    builds hundreds of each, and a tuple is built three times faster."""

    hanchan_id: int
    finished_at: datetime
    event_name: str
    event_slug: str
    entry_mode: str
    place: int
    score: int
    result: int
    cumulative: int
    played_on: date | None = None
    """When the game was played: the player's game list shows it and is in that order."""
    chombos: int = 0
    yaku_recorded: bool = False
    """Entered hand by hand with yaku recorded for one win at least (the yaku statistics count it)."""

    @property
    def day(self) -> date:
        """The day the game list shows: when it was played, else the day (here) it was finished."""
        return self.played_on or localtime(self.finished_at).date()


@dataclass(frozen=True)
class Placements:
    """What every finished game gives, final-score games included."""

    games: int
    hand_games: int  # of which entered hand by hand
    counts: tuple[int, int, int, int]  # 1st, 2nd, 3rd, 4th (a shared place counts as that place)
    busts: int  # final score below 0
    average_place: float | None
    average_score: float | None
    total_result: int
    chombos: int  # chombo hands and chombo penalties
    yaku_games: int = 0  # of the hand-by-hand games, those with yaku recorded (for one win at least)

    @property
    def final_score_games(self) -> int:
        return self.games - self.hand_games

    @property
    def rates(self) -> list[float | None]:
        return [_rate(n, self.games) for n in self.counts]

    @property
    def bust_rate(self) -> float | None:
        return _rate(self.busts, self.games)


@dataclass(frozen=True)
class HandStats:
    """What only hand-by-hand games give: one row per hand the player sat in."""

    hands: int
    wins: int
    tsumo_wins: int
    deal_ins: int
    riichi: int
    draws: int
    tenpai_at_draw: int
    average_win: float | None  # hand value without honba or riichi sticks
    average_deal_in: float | None
    riichi_wins: int = 0  # hands won after declaring riichi (the deposit paid)
    riichi_average_win: float | None = None  # their value, without honba or riichi sticks

    @property
    def win_rate(self) -> float | None:
        return _rate(self.wins, self.hands)

    @property
    def riichi_win_rate(self) -> float | None:
        """Riichi hands won, among the hands the player declared riichi in."""
        return _rate(self.riichi_wins, self.riichi)

    @property
    def deal_in_rate(self) -> float | None:
        return _rate(self.deal_ins, self.hands)

    @property
    def tsumo_rate(self) -> float | None:
        """Tsumo wins among wins (not among hands)."""
        return _rate(self.tsumo_wins, self.wins)

    @property
    def riichi_rate(self) -> float | None:
        return _rate(self.riichi, self.hands)

    @property
    def tenpai_rate(self) -> float | None:
        """Tenpai at exhaustive draws, among the exhaustive draws the player sat in."""
        return _rate(self.tenpai_at_draw, self.draws)


@dataclass(frozen=True)
class Yakuman:
    """A yakuman the player won."""

    hanchan_id: int
    finished_at: datetime | None
    event_name: str
    hand_number: int
    round_name: str
    multiplier: int
    yaku: list[str]


@dataclass(frozen=True)
class Opponent:
    """Head to head against one opponent, over the games both played."""

    player_id: int
    name: str
    games: int
    finished_above: int  # the player finished above the opponent (a shared place counts for neither)
    finished_below: int
    average_place: float  # the player's own average place in these games
    opponent_average_place: float

    @property
    def place_difference(self) -> float:
        """The player's average place minus the opponent's: negative means the player usually does better."""
        return self.average_place - self.opponent_average_place


@dataclass(frozen=True)
class PlayerStatistics:
    games: list[GameResult]
    placements: Placements
    hands: HandStats
    yakuman: list[Yakuman]
    opponents: list[Opponent]
    yaku: YakuSummary | None = None


def _shown(rows: QuerySet[Any], hidden: Q | None) -> QuerySet[Any]:
    """``rows`` without the games of rounds a tournament keeps hidden for its final reveal (``hidden``:
    :func:`scoring.standings.hidden_games`, None when nothing is hidden, the usual case)."""
    return rows.exclude(hidden) if hidden is not None else rows


def _results(player: Player, events: QuerySet[Event], hidden: Q | None = None) -> QuerySet[SeatResult]:
    return _shown(SeatResult.objects.filter(player=player, event__in=events), hidden)


def game_results(player: Player, events: QuerySet[Event], *, hidden: Q | None = None) -> list[GameResult]:
    """Every finished game of the player, oldest played first (``played_on``, then when it finished), with
    the running total of results (one query)."""
    rows = (
        _results(player, events, hidden)
        .annotate(yaku=yaku_recorded("hanchan_id"))
        .order_by("hanchan__played_on", "finished_at", "hanchan_id")
        .values_list(
            "hanchan_id",
            "finished_at",
            "event__name",
            "event__slug",
            "hanchan__entry_mode",
            "place",
            "score",
            "result",
            "hanchan__played_on",
            "chombos",
            "yaku",
        )
    )
    games, total = [], 0
    for hanchan_id, finished_at, name, slug, mode, place, score, result, played_on, chombos, yaku in rows:
        total += result
        games.append(
            GameResult(
                hanchan_id,
                finished_at,
                name,
                slug,
                mode,
                place,
                score,
                result,
                total,
                played_on,
                chombos,
                yaku,
            )
        )
    return games


def tally(games: list[GameResult]) -> Placements:
    """Games, places, busts, scores, results and chombos, counted over the player's games (as
    :func:`game_results` reads them): the page lists those games anyway, so counting them here saves
    a grouped query (a tenth of a regular's player page)."""
    count = len(games)
    hand_games = [game for game in games if game.entry_mode == HANDS]
    places = [game.place for game in games]
    return Placements(
        games=count,
        hand_games=len(hand_games),
        counts=(places.count(1), places.count(2), places.count(3), places.count(4)),
        busts=sum(1 for game in games if game.score < 0),
        average_place=sum(places) / count if count else None,
        average_score=sum(game.score for game in games) / count if count else None,
        total_result=sum(game.result for game in games),
        chombos=sum(game.chombos for game in games),
        yaku_games=sum(1 for game in hand_games if game.yaku_recorded),
    )


def hand_stats(player: Player, events: QuerySet[Event], *, hidden: Q | None = None) -> HandStats:
    """Wins, deal-ins, riichi and draws over the hands of finished hand-by-hand games (one query).

    Voided and unfinished games keep their hand rows but are left out, like they are from standings.
    """
    totals = _shown(
        HandSeat.objects.filter(player=player, hanchan__event__in=events, hanchan__status=FINISHED), hidden
    ).aggregate(**_hand_totals())
    return HandStats(**totals)


def _hand_totals(prefix: str = "") -> dict[str, Any]:
    """The sums :class:`HandStats` holds, as aggregates named ``prefix`` + field (a grouped query needs a
    prefix: an annotation may not take the name of a column, such as ``riichi``)."""
    return {
        f"{prefix}{name}": expression
        for name, expression in (
            # First: later keys name aggregates ("riichi"), and a filter would read those instead of the
            # column.
            ("riichi_wins", Count("id", filter=Q(riichi=True, won=True))),
            ("riichi_average_win", Avg("win_points", filter=Q(riichi=True, won=True))),
            ("hands", Count("id")),
            ("wins", Count("id", filter=Q(won=True))),
            ("tsumo_wins", Count("id", filter=Q(won=True, tsumo=True))),
            ("deal_ins", Count("id", filter=Q(dealt_in=True))),
            ("riichi", Count("id", filter=Q(riichi=True))),
            ("draws", Count("id", filter=Q(at_draw=True))),
            ("tenpai_at_draw", Count("id", filter=Q(at_draw=True, tenpai=True))),
            ("average_win", Avg("win_points", filter=Q(won=True))),
            ("average_deal_in", Avg("deal_in_points", filter=Q(dealt_in=True))),
        )
    }


def hand_stats_by_player(
    player_ids: Iterable[int], events: QuerySet[Event], *, hidden: Q | None = None
) -> dict[int, HandStats]:
    """:func:`hand_stats` of several players at once (one grouped query: a team's page); a player with
    no hand row is absent."""
    prefix = "n_"
    rows = (
        _shown(
            HandSeat.objects.filter(
                player__in=list(player_ids), hanchan__event__in=events, hanchan__status=FINISHED
            ),
            hidden,
        )
        .values("player_id")
        .annotate(**_hand_totals(prefix))
        .order_by()
    )
    return {
        row["player_id"]: HandStats(**{k.removeprefix(prefix): v for k, v in row.items() if k != "player_id"})
        for row in rows
    }


class PlayerWin(NamedTuple):
    """One win of the player in a finished game: which hand, and what it was made of.

    The game's date and event are not read with each win: the player's game list has them, once per
    game (a regular wins hundreds of hands, and decoding a date per row was a tenth of the page)."""

    hanchan_id: int
    hand_number: int
    round_name: str
    facts: WinFacts


def player_wins(player: Player, events: QuerySet[Event], *, hidden: Q | None = None) -> list[PlayerWin]:
    """The wins of the player in finished games, oldest first (one query): the yakuman list and the
    player's yaku statistics both come from these rows.

    ``Win.winner`` is a seat: the player's hand row for that seat is the one whose win counts.
    """
    # Start from the player's own (indexed) hand rows: starting from the wins would scan every win of
    # every league. The win's conditions sit in one ``filter`` so they and the values below use the same
    # join: the win of the seat this player sat in.
    conditions = Q(
        player=player,
        won=True,
        hanchan__status=FINISHED,
        hanchan__event__in=events,
        hand__wins__winner=F("seat"),
    )
    rows = (
        _shown(HandSeat.objects.filter(conditions), hidden)
        .order_by("hanchan__finished_at", "hanchan_id", "hand__number")
        .values_list(
            "hanchan_id",
            "hand__number",
            "hand__round_name",
            *(f"hand__wins__{name}" for name in ("yaku", "han", "yakuman", "dora", "aka", "ura")),
        )
    )
    return [PlayerWin(h, n, rnd, WinFacts(*facts)) for h, n, rnd, *facts in rows]


def _yakuman_list(wins: list[PlayerWin], games: list[GameResult]) -> list[Yakuman]:
    """The yakuman among the wins, each with its yakuman yaku when they were recorded, and its game's
    date and event from ``games`` (the player's games: every win is in one of them)."""
    by_id = {game.hanchan_id: (game.finished_at, game.event_name) for game in games}
    return [
        Yakuman(
            w.hanchan_id,
            *by_id.get(w.hanchan_id, (None, "")),
            w.hand_number,
            w.round_name,
            w.facts.yakuman,
            [
                yaku_picker.label(item["name"])
                for item in w.facts.yaku or []
                if isinstance(item, dict)
                and item.get("yakuman")
                and item.get("name") in yaku_picker.YAKU_BY_NAME
            ],
        )
        for w in wins
        if w.facts.yakuman
    ]


def opponents(
    player: Player,
    events: QuerySet[Event],
    limit: int = HEAD_TO_HEAD_OPPONENTS,
    *,
    hidden: Q | None = None,
) -> list[Opponent]:
    """The opponents the player met most, with how the two finished against each other (one query).

    The opponents' seat results are joined to the player's own result of the same game through the
    game (the ``filter`` on ``hanchan__results`` and the later references to it use the same join).
    """
    rows = (
        _shown(SeatResult.objects.filter(hanchan__results__player=player, event__in=events), hidden)
        .exclude(player=player)
        .values("player_id", "player__display_name")
        .annotate(
            games=Count("id"),
            above=Count("id", filter=Q(hanchan__results__place__lt=F("place"))),
            below=Count("id", filter=Q(hanchan__results__place__gt=F("place"))),
            mine=Avg("hanchan__results__place"),
            theirs=Avg("place"),
        )
        .order_by("-games", "player__display_name")[:limit]
    )
    return [
        Opponent(
            r["player_id"],
            r["player__display_name"],
            r["games"],
            r["above"],
            r["below"],
            r["mine"],
            r["theirs"],
        )
        for r in rows
    ]


def player_statistics(
    player: Player, events: QuerySet[Event], *, hidden_after: dict[int, int] | None = None
) -> PlayerStatistics:
    """Everything the player page shows from results, in four queries whatever the number of games.

    The placements are counted from the games list, and the yakuman list and the yaku statistics come
    from one query over the player's wins. ``hidden_after`` (event id -> last public round, as
    :func:`scoring.standings.hidden_after_round` gives it): leave out the games of the rounds a
    tournament keeps hidden for its final reveal, as its public standings do."""
    hidden = hidden_games(hidden_after or {})
    games = game_results(player, events, hidden=hidden)
    counted = tally(games)
    wins = player_wins(player, events, hidden=hidden)
    return PlayerStatistics(
        games=games,
        placements=counted,
        hands=hand_stats(player, events, hidden=hidden),
        yakuman=_yakuman_list(wins, games),
        opponents=opponents(player, events, hidden=hidden),
        yaku=summarise((w.facts for w in wins), games=counted.hand_games, recorded_games=counted.yaku_games),
    )


# -- lifetime ratings over the visible events ----------------------------------------------------------


def _hidden_results(visible: QuerySet[Event]) -> QuerySet[SeatResult]:
    """Seat results the visitor may not see: of the events they may not see (through the small events
    table first, so that the seat results are found by their event index), and of the rounds a
    tournament keeps for its final reveal."""
    return SeatResult.objects.filter(
        Q(event__in=Event.objects.exclude(pk__in=visible.values("pk"))) | in_hidden_round("hanchan")
    )


def lifetime_ratings(player: Player, visible: QuerySet[Event]) -> dict[str, list[RatingPoint]]:
    """The player's lifetime rating history as if the games the visitor may not see did not exist: the
    events they may not see, and the rounds a tournament keeps for its final reveal.

    A stored lifetime rating counts every game of every event, so for a visitor who may not see them
    it would tell that such games exist and how they went (a jump in R between two visible games, "after
    18 games" when 16 are listed). When nothing is hidden from this visitor (one query: the history
    itself, with an "anything hidden?" flag), the stored rows are those numbers; otherwise the visible
    games are rated again in memory with the same pure functions (:func:`scoring.ratings.replay_ratings`)
    and in the same order (finish time, then game), up to the player's last visible game.
    """
    rows = list(
        RatingChange.objects.filter(event__isnull=True, player=player, hanchan__event__in=visible)
        .exclude(in_hidden_round("hanchan"))
        .annotate(hidden=Exists(_hidden_results(visible)))
        .order_by("at", "hanchan_id")
        .values_list("system", "hanchan_id", "games", "before", "after", "hidden")
    )
    history: dict[str, list[RatingPoint]] = {system: [] for system in RatingChange.System.values}
    if not rows:
        return history  # no visible rated game: nothing to show, hidden or not
    if not rows[0][-1]:
        for system, hanchan_id, games, before, after, _hidden in rows:
            history[system].append(RatingPoint(hanchan_id, games, before, after))
        return history
    through = SeatResult.objects.filter(hanchan_id=rows[-1][1]).values("finished_at")[:1]
    visible_results = SeatResult.objects.filter(event__in=visible, finished_at__lte=Subquery(through))
    return replay_ratings(visible_results.exclude(in_hidden_round("hanchan")), player_id=player.pk)[1]


def event_ratings(player: Player, event: Event, visible: QuerySet[Event], hidden_after: int | None):
    """The player's rating history in ``event`` as the visitor may see it (one query): the stored one,
    or — while the event keeps rounds for its final reveal — its visible games rated again, so that a
    visible game finished after a hidden one (a correction) does not carry the hidden game's result."""
    if hidden_after is None:
        return rating_history(player, event=event, visible_events=visible)
    results = SeatResult.objects.filter(event=event).exclude(hanchan__round_number__gt=hidden_after)
    return replay_ratings(results, player_id=player.pk)[1]


@dataclass(frozen=True)
class PlayerPage:
    """The player page's data: the events to choose from, the chosen one (None: every visible event),
    the statistics over it and the rating history of that scope."""

    registrations: list[Registration]
    event: Event | None
    statistics: PlayerStatistics
    ratings: dict[str, list[RatingPoint]]

    @property
    def tenhou(self) -> list[RatingPoint]:
        return self.ratings[RatingChange.System.TENHOU]

    @property
    def openskill(self) -> list[RatingPoint]:
        return self.ratings[RatingChange.System.OPENSKILL]


def player_page(player: Player, visible: QuerySet[Event], event_slug: str | None) -> PlayerPage:
    """Everything the player page reads, in a fixed number of queries (six).

    ``visible`` are the events the visitor may see (``league.permissions.visible_events``);
    ``event_slug`` chooses one of the visible events the player is registered in; any other slug — an
    unknown event, or a members-only one for an anonymous visitor — is a 404, so that the page does not
    tell which hidden events exist. Members-only events count only for visitors who may see them:
    results, head-to-head, the game list and the ratings too (:func:`lifetime_ratings`).
    """
    registrations = list(
        Registration.objects.filter(player=player, event__in=visible)
        .select_related("event", "event__club")
        .order_by("-event__start_date", "event__name")
    )
    event = None
    if event_slug:
        event = next((r.event for r in registrations if r.event.slug == event_slug), None)
        if event is None:
            raise Http404("This player has no results in that event.")
    events = visible.filter(pk=event.pk) if event else visible
    # The rounds a tournament keeps for its final reveal stay off the public player page too: its
    # results, statistics and rating points. Read from the registrations' events (no query): a player's
    # games are in the events they are registered in, substitutes included.
    hidden_after = {
        r.event.pk: last
        for r in registrations
        if (event is None or r.event.pk == event.pk) and (last := hidden_after_round(r.event)) is not None
    }
    if event:
        ratings = event_ratings(player, event, visible, hidden_after.get(event.pk))
    else:
        ratings = lifetime_ratings(player, visible)
    return PlayerPage(
        registrations=registrations,
        event=event,
        statistics=player_statistics(player, events, hidden_after=hidden_after),
        ratings=ratings,
    )
