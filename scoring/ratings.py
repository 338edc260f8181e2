"""Ratings, separate from standings: Tenhou R and OpenSkill, with one history row per player and game.

Both systems are computed from the cached seat results of finished games (place and finish time), in the
chronological order of ``SeatResult.finished_at`` and then the game's id, in two kinds of scope: each
event on its own (``RatingChange.event`` set) and the lifetime of a player over every event
(``RatingChange.event`` empty). Players are the *credited* players of the seat results, the same people
the standings count (a substitute's game counts for the registered player it stands in for).

**Tenhou R** (docs/rules.md §8.3): everyone starts at 1500; after each game
``ΔR = adj × (base[place] + (avgR_table − R) / 40)`` with base +30 / +10 / −10 / −30 and
``adj = 1 − 0.002 × games`` (games rated before this one, in the scope) below 400 games, else 0.2.
``avgR_table`` is the average R of the **other three** players at the table, not including the player's
own R (clubs differ on this; the ratings page says which we use). Players who share a place (a split tie
stores the same ``SeatResult.place`` for both) get the average of the bases of the places they occupy, so
the four bases of a table always sum to 0.

**OpenSkill**: the Plackett–Luce model of the ``openskill`` package with its default parameters
(μ 25, σ 25/3), each game rated as four one-player teams ranked by place, so tied players are equal
ranks. The rating shown is the conservative ``μ − 3σ`` (0 for a new player).

**Recomputation**: a rating depends on every earlier game of the scope, and — through the table average
and the opponents' own updates — on other players' games too. When a finished game is corrected, voided,
reopened or newly finished, the simple correct rule is used: every row of the game's event scope and of
the lifetime scope from that game's place in the order onward is deleted and recomputed, starting from
each player's last rating before it. ``services.sync.refresh`` marks the game in its transaction
(``schedule_rebuild``) and a background worker rebuilds every marked game at once (``scoring/tasks.py``).
"""

from __future__ import annotations

import logging
import zlib
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from itertools import groupby
from typing import Any, NamedTuple

from django.db import connection, transaction
from django.db.models import F, Max, Min, Q, QuerySet, Window
from django.db.models.functions import RowNumber
from openskill.models import PlackettLuce

from league.models import Event, Hanchan, Player
from league.versions import bump_results
from scoring.models import RatingChange, SeatResult

logger = logging.getLogger(__name__)

TENHOU_START = 1500.0
TENHOU_BASE = (30.0, 10.0, -10.0, -30.0)
TENHOU_SLOWDOWN_GAMES = 400  # from here on, adj stays at its floor
TENHOU_MIN_ADJUSTMENT = 0.2

OPENSKILL = PlackettLuce()
OPENSKILL_MU = float(OPENSKILL.mu)
OPENSKILL_SIGMA = float(OPENSKILL.sigma)

# Rebuilds from concurrent transactions must not interleave (PostgreSQL): one lock for every scope, as
# every rebuild rewrites the lifetime scope, which all games share.
_LOCK_KEY = zlib.crc32(b"tenbou.ratings")

Cut = tuple[datetime, int]  # (finished_at, hanchan id): a game's place in the rating order


# -- the two systems, pure ---------------------------------------------------------------------------


@dataclass
class Rating:
    """One player's state in one scope: Tenhou R, OpenSkill μ and σ, and games rated so far."""

    tenhou: float = TENHOU_START
    mu: float = OPENSKILL_MU
    sigma: float = OPENSKILL_SIGMA
    tenhou_games: int = 0
    openskill_games: int = 0

    @property
    def openskill(self) -> float:
        """The conservative OpenSkill rating shown to players."""
        return conservative(self.mu, self.sigma)


def conservative(mu: float, sigma: float) -> float:
    """``μ − 3σ``: the rating the player is very probably at least as good as."""
    return mu - 3 * sigma


def tenhou_adjustment(games_before: int) -> float:
    """How much a game still moves R: 1 for a new player, 0.002 less per game, 0.2 from 400 games."""
    if games_before < TENHOU_SLOWDOWN_GAMES:
        return 1 - 0.002 * games_before
    return TENHOU_MIN_ADJUSTMENT


def tenhou_bases(places: Sequence[int]) -> list[float]:
    """The base of each seat; players sharing a place split the bases of the places they occupy.

    A split tie stores the better place for everyone in it (two players tied for 2nd both have place 2
    and together occupy 2nd and 3rd), so place ``p`` held by ``k`` players stands for places
    ``p … p + k − 1``.
    """
    counts = Counter(places)
    bases = []
    for place in places:
        occupied = TENHOU_BASE[place - 1 : place - 1 + counts[place]]
        bases.append(sum(occupied) / len(occupied))
    return bases


def tenhou_deltas(
    ratings: Sequence[float], games_before: Sequence[int], places: Sequence[int]
) -> list[float]:
    """ΔR of each of the four players; the table average is over the *other three* players."""
    total = sum(ratings)
    deltas = []
    for rating, games, base in zip(ratings, games_before, tenhou_bases(places), strict=True):
        others = (total - rating) / 3
        deltas.append(tenhou_adjustment(games) * (base + (others - rating) / 40))
    return deltas


def openskill_update(
    states: Sequence[tuple[float, float]], places: Sequence[int]
) -> list[tuple[float, float]]:
    """New (μ, σ) of each player after one game ranked by place (shared places are equal ranks)."""
    teams = [[OPENSKILL.rating(mu=mu, sigma=sigma)] for mu, sigma in states]
    rated = OPENSKILL.rate(teams, ranks=[float(p) for p in places])
    return [(float(team[0].mu), float(team[0].sigma)) for team in rated]


def rate_game(before: Sequence[Rating], places: Sequence[int]) -> list[Rating]:
    """Every player's state after one game, from their states before it (both systems)."""
    deltas = tenhou_deltas([r.tenhou for r in before], [r.tenhou_games for r in before], places)
    skills = openskill_update([(r.mu, r.sigma) for r in before], places)
    return [
        Rating(
            tenhou=r.tenhou + delta,
            mu=mu,
            sigma=sigma,
            tenhou_games=r.tenhou_games + 1,
            openskill_games=r.openskill_games + 1,
        )
        for r, delta, (mu, sigma) in zip(before, deltas, skills, strict=True)
    ]


# -- rebuilding the stored history --------------------------------------------------------------------


@dataclass
class RebuildReport:
    """What a rebuild did, for the command, the benchmark and the logs."""

    scopes: int = 0
    rated: set[int] = field(default_factory=set)  # games rated again, in one scope or more
    players: set[int] = field(default_factory=set)  # whose rating rows were rewritten (their pages)
    events: set[int] = field(default_factory=set)  # event scopes rewritten (their ratings pages)
    rows_deleted: int = 0
    rows_written: int = 0
    skipped: list[int] = field(default_factory=list)  # games whose seats do not name four players

    @property
    def games(self) -> int:
        return len(self.rated)


def _scope(event_id: int | None) -> Q:
    return Q(event_id=event_id) if event_id is not None else Q(event__isnull=True)


def _serialise() -> None:
    """Take the ratings lock until the end of the transaction (PostgreSQL; SQLite has one writer)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [_LOCK_KEY])


def _last_ratings(event_id: int | None, players: set[int]) -> dict[int, Rating]:
    """Each player's latest state in the scope (one query: the newest row per system and player).

    Only ``players`` are read when they are few (a game finished at the end of a long history needs four
    players' states, not everyone's); the index on (system, event, player, at) serves that query.
    """
    rows = RatingChange.objects.filter(_scope(event_id))
    if len(players) <= 500:
        rows = rows.filter(player_id__in=sorted(players))
    latest = (
        rows.annotate(
            newest=Window(
                RowNumber(),
                partition_by=[F("system"), F("player_id")],
                order_by=[F("at").desc(), F("hanchan_id").desc()],
            )
        )
        .filter(newest=1)
        .values_list("system", "player_id", "after", "games", "mu", "sigma")
    )
    states: dict[int, Rating] = {}
    for system, player_id, after, games, mu, sigma in latest:
        state = states.setdefault(player_id, Rating())
        if system == RatingChange.System.TENHOU:
            state.tenhou, state.tenhou_games = after, games
        else:
            state.mu, state.sigma, state.openskill_games = mu, sigma, games
    return states


_FIELDS = ("system", "event", "player", "hanchan", "games", "before", "after", "mu", "sigma", "at")


def _insert(rows: list[tuple[Any, ...]]) -> None:
    """Insert rating rows given as tuples in ``_FIELDS`` order.

    A rebuild writes 8 rows per game and scope; making a model instance of each and preparing it field
    by field cost several times the rating arithmetic (2000 games: ~2.4 s of a ~3.1 s rebuild on
    SQLite), so the rows go to ``executemany`` as they are — faster on both databases than many rows per
    statement (psycopg pipelines it). The columns come from the model; the caller adapts the time.
    """
    if not rows:
        return
    meta, ops = RatingChange._meta, connection.ops
    columns = ", ".join(ops.quote_name(meta.get_field(name).column) for name in _FIELDS)
    marks = ", ".join(["%s"] * len(_FIELDS))
    sql = f"INSERT INTO {ops.quote_name(meta.db_table)} ({columns}) VALUES ({marks})"
    with connection.cursor() as cursor:
        for start in range(0, len(rows), 2000):
            cursor.executemany(sql, rows[start : start + 2000])


def _rebuild_scope(event_id: int | None, cut: Cut | None, report: RebuildReport) -> None:
    """Delete the scope's rows from ``cut`` on (all of them for None) and rate those games again."""
    rows = RatingChange.objects.filter(_scope(event_id))
    results = SeatResult.objects.all() if event_id is None else SeatResult.objects.filter(event_id=event_id)
    if cut is not None:
        at, hanchan_id = cut
        rows = rows.filter(Q(at__gt=at) | Q(at=at, hanchan_id__gte=hanchan_id))
        results = results.filter(Q(finished_at__gt=at) | Q(finished_at=at, hanchan_id__gte=hanchan_id))
    # Whose rows go: a game that no longer counts (voided, reopened) takes its players' rows with it.
    report.players.update(rows.values_list("player_id", flat=True).distinct().order_by())
    report.rows_deleted += rows.delete()[0]
    seats = list(
        results.order_by("finished_at", "hanchan_id", "seat").values_list(
            "hanchan_id", "player_id", "place", "finished_at"
        )
    )
    states = _last_ratings(event_id, {row[1] for row in seats}) if cut is not None and seats else {}
    tenhou, openskill = RatingChange.System.TENHOU.value, RatingChange.System.OPENSKILL.value
    new_rows: list[tuple[Any, ...]] = []
    for hanchan_id, group in groupby(seats, key=lambda row: row[0]):
        table = list(group)
        players = [row[1] for row in table]
        if len(table) != 4 or len(set(players)) != 4:
            # A substitute sitting for someone who also sits at the table: no sensible rating.
            report.skipped.append(hanchan_id)
            continue
        at = connection.ops.adapt_datetimefield_value(table[0][3])
        before = [states.get(p) or Rating() for p in players]
        after = rate_game(before, [row[2] for row in table])
        for player_id, old, new in zip(players, before, after, strict=True):
            states[player_id] = new
            new_rows.append(
                (
                    tenhou,
                    event_id,
                    player_id,
                    hanchan_id,
                    new.tenhou_games,
                    old.tenhou,
                    new.tenhou,
                    None,
                    None,
                    at,
                )
            )
            new_rows.append(
                (
                    openskill,
                    event_id,
                    player_id,
                    hanchan_id,
                    new.openskill_games,
                    old.openskill,
                    new.openskill,
                    new.mu,
                    new.sigma,
                    at,
                )
            )
        report.rated.add(hanchan_id)
    _insert(new_rows)
    report.players.update(row[1] for row in seats)
    if event_id is not None:
        report.events.add(event_id)
    report.rows_written += len(new_rows)
    report.scopes += 1


def _cuts(hanchan_ids: Iterable[int]) -> dict[int, tuple[int, Cut]]:
    """Per game: its event and the earliest place it has or had in the rating order.

    A corrected or newly finished game has seat results (``finished_at``); a voided or reopened one has
    lost them but still has the rating rows written when it counted. A game with neither never counted
    and changes no rating.
    """
    games = (
        Hanchan.objects.filter(pk__in=list(hanchan_ids))
        .annotate(rated_at=Min("rating_changes__at"), result_at=Min("results__finished_at"))
        .values_list("pk", "event_id", "rated_at", "result_at")
    )
    cuts = {}
    for pk, event_id, rated_at, result_at in games:
        times = [t for t in (rated_at, result_at) if t is not None]
        if times:
            cuts[pk] = (event_id, (min(times), pk))
    return cuts


@transaction.atomic
def rebuild_ratings_for(hanchan_ids: Iterable[int]) -> RebuildReport:
    """Recompute ratings after the given games changed: each of their events, and lifetime, from the
    earliest of them onward. Games that never counted and do not count now change nothing.

    The ratings lock is the first thing taken, before anything is read: a rebuild then reads what every
    rebuild before it committed, so one that would find "nothing to do" from a stale read (a game
    reopened while another rebuild was rating it) cannot skip work that is in fact needed. Rebuilds
    run one at a time in one short transaction each; writers never take this lock, and the game lock
    (FOR NO KEY UPDATE) does not block the rating rows pointing at a game, so no cycle can form.
    """
    report = RebuildReport()
    _serialise()
    cuts = _cuts(hanchan_ids)
    if not cuts:
        return report
    by_event: dict[int, Cut] = {}
    for event_id, cut in cuts.values():
        by_event[event_id] = min(cut, by_event.get(event_id, cut))
    for event_id, cut in sorted(by_event.items()):
        _rebuild_scope(event_id, cut, report)
    if cuts:
        _rebuild_scope(None, min(cut for _, cut in cuts.values()), report)
    _changed_pages(report, because_of=list(cuts))
    return report


def _changed_pages(report: RebuildReport, because_of: list[int] | None = None) -> None:
    """The pages that show the rewritten ratings get new results versions, in the rebuild's own
    transaction (it runs after the change's commit: the change's own bump came before it).

    ``because_of``: the games the rebuild was for. When the public may see none of them (rounds kept
    for a final reveal), no public page changed: the public ratings leave out hidden games and every
    rating they influenced (``scoring.statistics.lifetime_ratings``, :func:`replay_ratings`)."""
    bump_results(event_ids=report.events, player_ids=report.players, because_of=because_of)


def rebuild_ratings_from(hanchan: Hanchan) -> RebuildReport:
    """Recompute ratings after ``hanchan`` was corrected, voided, reopened or finished."""
    return rebuild_ratings_for([hanchan.pk])


@transaction.atomic
def rebuild_all_ratings() -> RebuildReport:
    """Throw away every rating row and rate every finished game again (every event, and lifetime).

    For a database that had games before ratings existed, or after rows were deleted by hand. The
    games marked for the worker's rebuild before it started are rated here too: their marks go with
    this transaction (those marked meanwhile stay for the worker)."""
    from background.models import Pending

    _serialise()
    marks = Pending.objects.filter(kind="ratings", failed=False, lease_until__isnull=True)
    superseded = marks.aggregate(last=Max("pk"))["last"]
    report = RebuildReport()
    report.rows_deleted += RatingChange.objects.all().delete()[0]
    event_ids = SeatResult.objects.values_list("event_id", flat=True).distinct().order_by("event_id")
    for event_id in list(event_ids):
        _rebuild_scope(event_id, None, report)
    _rebuild_scope(None, None, report)
    bump_results(event_ids=Event.objects.values_list("pk", flat=True), event_players=True)
    if superseded is not None:
        held = marks.filter(pk__lte=superseded)
        if connection.vendor == "postgresql":  # a drain holding some: those it finishes itself
            held = held.select_for_update(skip_locked=True)
        Pending.objects.filter(pk__in=list(held.values_list("pk", flat=True))).delete()
    return report


def schedule_rebuild(*hanchans: Hanchan) -> None:
    """Mark the games' ratings as to be rebuilt, in the current transaction; a worker rebuilds them
    once it commits (``scoring.tasks.RATINGS``).

    The mark is a row written with the change, so it commits or rolls back with it: a rolled-back change
    leaves nothing, and a committed one is rebuilt even if the worker is down now (it sweeps when it
    starts). Every game a transaction touches, and every game marked before the worker gets to them,
    are rebuilt together, from the earliest — an import of a season rebuilds once, not once per game.
    Pages show "ratings updating…" while a mark waits (:func:`ratings_pending`)."""
    from scoring.signals import results_changed
    from scoring.tasks import RATINGS

    RATINGS.mark_many((h.pk, f"event:{h.event_id}") for h in hanchans)
    by_event: dict[int, list[int]] = {}
    for h in hanchans:
        by_event.setdefault(h.event_id, []).append(h.pk)
    for event_id, ids in by_event.items():  # the same games change result: say so to whoever listens
        results_changed.send(sender=Event, event_id=event_id, hanchan_ids=ids)


def ratings_pending(event: Event | None = None) -> bool:
    """Whether ratings are being recomputed: of ``event``'s scope, or of any scope (lifetime ratings
    depend on every game). One indexed query; pages key their cache by it too."""
    from scoring.tasks import RATINGS

    return RATINGS.pending(scope=None if event is None else f"event:{event.pk}")


# -- reading ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CurrentRating:
    """A player's rating now in one scope and system."""

    player_id: int
    name: str
    rating: float
    games: int
    mu: float | None = None
    sigma: float | None = None


def current_ratings(
    event: Event | None, *, hidden_after: int | None = None
) -> dict[str, list[CurrentRating]]:
    """Per system, every rated player of the scope by rating, best first (one query).

    ``hidden_after``: the last round the public may see of a tournament keeping its later rounds for
    the final reveal — the ratings are then those of the games up to that round, rated again without
    the hidden ones (two queries): a stored rating of a visible game finished after a hidden one (a
    correction) would carry the hidden game's result."""
    if event is not None and hidden_after is not None:
        return _replayed_current(event, hidden_after)
    changes = RatingChange.objects.filter(_scope(event.pk if event else None))
    latest = (
        changes.annotate(
            newest=Window(
                RowNumber(),
                partition_by=[F("system"), F("player_id")],
                order_by=[F("at").desc(), F("hanchan_id").desc()],
            )
        )
        .filter(newest=1)
        .values_list("system", "player_id", "player__display_name", "after", "games", "mu", "sigma")
    )
    table: dict[str, list[CurrentRating]] = {system: [] for system in RatingChange.System.values}
    for system, player_id, name, after, games, mu, sigma in latest:
        table[system].append(CurrentRating(player_id, name, after, games, mu, sigma))
    for rows in table.values():
        rows.sort(key=lambda r: (-r.rating, r.name))
    return table


def _replayed_current(event: Event, hidden_after: int) -> dict[str, list[CurrentRating]]:
    """:func:`current_ratings` of ``event`` over its games up to round ``hidden_after``, rated again."""
    states, _ = replay_ratings(
        SeatResult.objects.filter(event=event).exclude(hanchan__round_number__gt=hidden_after)
    )
    names = dict(Player.objects.filter(pk__in=list(states)).values_list("pk", "display_name"))
    tenhou, openskill = RatingChange.System.TENHOU.value, RatingChange.System.OPENSKILL.value
    table: dict[str, list[CurrentRating]] = {system: [] for system in RatingChange.System.values}
    for player_id, state in states.items():
        table[tenhou].append(CurrentRating(player_id, names[player_id], state.tenhou, state.tenhou_games))
        table[openskill].append(
            CurrentRating(
                player_id, names[player_id], state.openskill, state.openskill_games, state.mu, state.sigma
            )
        )
    for rows in table.values():
        rows.sort(key=lambda r: (-r.rating, r.name))
    return table


def replay_ratings(
    results: QuerySet[SeatResult], *, player_id: int | None = None
) -> tuple[dict[int, Rating], dict[str, list[RatingPoint]]]:
    """Rate the games of ``results`` (seat results) again in memory, in the rating order and by the
    rules of :func:`_rebuild_scope` (four distinct credited players, or the game is skipped), from a
    fresh start: every player's state after them, and ``player_id``'s history (one query).

    For what the public may see when some games are hidden from it (members-only events, the rounds of
    a final reveal): the stored ratings count every game, so a game the visitor may not see would show
    in a later one's numbers (a jump in R, a game count larger than the games listed)."""
    seats = results.order_by("finished_at", "hanchan_id", "seat").values_list(
        "hanchan_id", "player_id", "place"
    )
    tenhou, openskill = RatingChange.System.TENHOU.value, RatingChange.System.OPENSKILL.value
    history: dict[str, list[RatingPoint]] = {system: [] for system in RatingChange.System.values}
    states: dict[int, Rating] = {}
    for hanchan_id, group in groupby(seats.iterator(), key=lambda row: row[0]):
        table = list(group)
        players = [row[1] for row in table]
        if len(table) != 4 or len(set(players)) != 4:
            continue
        before = [states.get(p) or Rating() for p in players]
        after = rate_game(before, [row[2] for row in table])
        for who, old, new in zip(players, before, after, strict=True):
            states[who] = new
            if who == player_id:
                history[tenhou].append(RatingPoint(hanchan_id, new.tenhou_games, old.tenhou, new.tenhou))
                history[openskill].append(
                    RatingPoint(hanchan_id, new.openskill_games, old.openskill, new.openskill)
                )
    return states, history


class RatingPoint(NamedTuple):
    """One game of a player's rating history, in the rating order (the game's finish time, then its id).

    No time: nothing shows it, and decoding one per game was a tenth of a regular's player page."""

    hanchan_id: int
    games: int
    before: float
    after: float


def rating_history(
    player: Any, *, event: Event | None, visible_events: QuerySet[Event]
) -> dict[str, list[RatingPoint]]:
    """Per system, the player's rating after each game of the scope that the visitor may see (one query).

    Lifetime ratings count every game, members-only events' too: the values are the true ratings, but
    the games of events the visitor may not see are left out of the history.
    """
    rows = (
        RatingChange.objects.filter(_scope(event.pk if event else None), player=player)
        .filter(hanchan__event__in=visible_events)
        .order_by("at", "hanchan_id")
        .values_list("system", "hanchan_id", "games", "before", "after")
    )
    history: dict[str, list[RatingPoint]] = {system: [] for system in RatingChange.System.values}
    for system, hanchan_id, games, before, after in rows:
        history[system].append(RatingPoint(hanchan_id, games, before, after))
    return history
