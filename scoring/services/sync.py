"""Re-derive games' cached rows from their facts by replaying them with the engine.

Called inside every service transaction after the facts change, so the cached columns (hand round,
dealer, honba, sticks, deltas, scores; per-seat hand rows; seat results) can never drift from the hands.

One path for one game and for twenty thousand: :func:`rebuild` reads the games' facts in a fixed number
of queries (hands, wins, seats, the finished games' penalties, current results), replays each game once,
compares what it derives with what is stored and writes only the rows that differ, each kind of row in
one set-based statement (``executemany`` of plain tuples: the ORM's ``bulk_update`` builds a ``CASE
WHEN`` per row and column, and model instances cost more than the arithmetic). A hand entry therefore
writes the new hand (inserted with its derived values: the service hands the rebuild the facts it read
under its lock, the new hand appended) and its four per-seat rows, and a rebuild of a whole league
writes only what is wrong. Every call moves the results versions of the events and players it touched
forward (``scoring/cache.py``).
"""

from __future__ import annotations

import gc
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.db.models import F, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from league.models import Event, Hanchan, Seat
from league.versions import bump_results
from scoring import engine
from scoring.models import Hand, HandSeat, Penalty, SeatResult, Win
from scoring.ratings import schedule_rebuild
from scoring.records import StoredHand, engine_hand, final_result, games_hands, seats_by_player, stored_hands
from scoring.substitutes import credited_result

from .errors import as_validation_error

BATCH = 500
"""Games read and written together by a rebuild: bounded statements and memory whatever the league."""


def replay_stored(hanchan: Hanchan) -> tuple[engine.Replay, list[StoredHand]]:
    """Replay the stored hands; a ValidationError names the hand and rule if they are not legal."""
    stored = stored_hands(hanchan)
    return _replay(hanchan, stored), stored


def _replay(hanchan: Hanchan, stored: list[StoredHand]) -> engine.Replay:
    try:
        return engine.replay([engine_hand(row, wins) for row, wins in stored], hanchan.event.rules)
    except engine.EngineError as exc:
        raise as_validation_error(exc, hanchan=hanchan) from None


def refresh(hanchan: Hanchan) -> engine.Replay | None:
    """Rewrite every cached row of the hanchan; returns the replay for hand-by-hand games."""
    return rebuild([hanchan]).replays.get(hanchan.pk)


def refresh_results(hanchan: Hanchan, played: engine.Replay | None, facts: GameFacts | None = None) -> None:
    """Rewrite the game's seat results only, from a replay of its current hands (``None`` for a game
    entered as final scores, or to replay it here): for a change of status, where the hands' cached
    rows are already right. ``facts``: the game's facts as a rebuild in this transaction left them (see
    :func:`rebuild`), instead of read again."""
    rebuild(
        [hanchan],
        hands=False,
        replays={hanchan.pk: played} if played is not None else None,
        facts={hanchan.pk: facts} if facts is not None else None,
    )


# -- reading --------------------------------------------------------------------------------------------


@dataclass
class GameFacts:
    """What a rebuild reads of one game: its hands with their wins (a row without a primary key is a new
    hand, see :func:`rebuild`), seats, active penalties and stored results.

    The penalties count only in a finished game's results: they are read with the finished games only
    (None: not read, the game was not finished then; read when its results are derived after all)."""

    hanchan: Hanchan
    stored: list[StoredHand] = field(default_factory=list)
    seats: list[Seat] = field(default_factory=list)
    penalties: list[tuple[int, int, str]] | None = None  # player, points, kind
    results: list[tuple[Any, ...]] = field(default_factory=list)  # as stored, see _RESULT_FIELDS


_RESULT_FIELDS = (
    "seat",
    "player_id",
    "score",
    "place",
    "uma",
    "oka",
    "penalties",
    "result",
    "chombos",
    "finished_at",
)


def read(hanchan: Hanchan) -> GameFacts:
    """The facts of one game, for a service that holds its lock and is about to change it: read once
    before the change (which needs them: the next hand's number), then given to :func:`rebuild` with the
    change applied, instead of read again after it. Four queries (five for a finished game)."""
    return _read([hanchan], hands=True)[hanchan.pk]


def _read(hanchans: Sequence[Hanchan], *, hands: bool) -> dict[int, GameFacts]:
    """The facts and current results of ``hanchans``: five queries whatever their number (four when
    none is finished)."""
    games = {h.pk: GameFacts(h) for h in hanchans}
    ids = list(games)
    if hands:
        for hanchan_id, stored in games_hands(ids).items():
            games[hanchan_id].stored = stored
    for seat in Seat.objects.filter(hanchan__in=ids).order_by("hanchan_id", "seat"):
        games[seat.hanchan_id].seats.append(seat)
    finished = [h.pk for h in hanchans if h.status == Hanchan.Status.FINISHED]
    if finished:
        penalties: dict[int, list[tuple[int, int, str]]] = {pk: [] for pk in finished}
        for hanchan_id, player_id, points, kind in _penalties(finished):
            penalties[hanchan_id].append((player_id, points, kind))
        for pk, rows in penalties.items():
            games[pk].penalties = rows
    for row in (
        SeatResult.objects.filter(hanchan__in=ids)
        .order_by("hanchan_id", "seat")
        .values_list("hanchan_id", *_RESULT_FIELDS)
    ):
        games[row[0]].results.append(tuple(row[1:]))
    return games


def _penalties(hanchan_ids: list[int]) -> Iterable[tuple[int, int, int, str]]:
    """The active penalties of these games: (game, player, points, kind)."""
    return Penalty.objects.filter(hanchan__in=hanchan_ids, cancelled=False).values_list(
        "hanchan_id", "player_id", "points", "kind"
    )


def _penalties_by_seat(
    seats: Iterable[Seat], penalties: Iterable[tuple[int, int, str]]
) -> tuple[list[int], list[int]]:
    """Per seat: the points of the game's active penalties, and how many of them are chombos (a
    penalty given to a substitute's registered player belongs to the substitute's seat)."""
    by_player = seats_by_player(seats)
    points, chombos = [0, 0, 0, 0], [0, 0, 0, 0]
    for player_id, amount, kind in penalties:
        seat = by_player.get(player_id)
        if seat is not None:
            points[seat] += amount
            chombos[seat] += kind == Penalty.Kind.CHOMBO
    return points, chombos


# -- deriving -------------------------------------------------------------------------------------------

# The cached columns of a hand that the replay derives (the facts — result, seats, wins — are entered).
_DERIVED = ("round_name", "dealer", "honba", "sticks", "deltas", "scores")
_SEAT_FIELDS = (
    "hand_id",
    "hanchan_id",
    "seat",
    "player_id",
    "delta",
    "riichi",
    "won",
    "tsumo",
    "dealt_in",
    "at_draw",
    "tenpai",
    "chombo",
    "win_points",
    "deal_in_points",
)


def _credited(seats: Sequence[Seat]) -> dict[int, int]:
    """Seat -> the player its results count for (the registered player a substitute replaces)."""
    return {s.seat: s.on_behalf_of_id or s.player_id for s in seats}


@dataclass
class _Writes:
    """Everything a rebuild writes, collected over a batch and sent kind by kind."""

    hands: list[tuple[Any, ...]] = field(default_factory=list)  # derived values + id
    wins: list[tuple[int, int]] = field(default_factory=list)  # points, id
    rewritten_hands: list[int] = field(default_factory=list)  # their per-seat rows are replaced (by hand)
    seat_rows: list[tuple[Any, ...]] = field(default_factory=list)  # in _SEAT_FIELDS order
    results_of: list[int] = field(default_factory=list)  # games whose stored results are replaced
    results: list[tuple[Any, ...]] = field(default_factory=list)
    changed_games: list[Hanchan] = field(default_factory=list)  # results changed: ratings too
    players: set[int] = field(default_factory=set)
    # Hands not inserted yet (a hand being recorded), with their wins and per-seat rows.
    new_hands: list[tuple[Hand, list[Win], list[tuple[Any, ...]]]] = field(default_factory=list)
    all_rows_new: set[int] = field(default_factory=set)  # games whose per-seat rows are all written anew
    replaced_games: set[int] = field(default_factory=set)  # ... and had some: deleted by game


def _derive_hands(game: GameFacts, played: engine.Replay, rules: engine.Ruleset, out: _Writes) -> None:
    """The hands whose replayed values differ from the stored ones, and their per-seat rows.

    A hand's derived values depend only on the hands before it, so a new hand changes only itself and a
    correction of hand k only hands k onward: comparing the replay with what is stored keeps the cost
    of an entry independent of the game's length (rewriting every hand made the 4 000th hand of a game
    take 12 s). A freshly written hand never matches (its round is still empty), so it always gets its
    derived values and its per-seat rows. A hand not written yet (no primary key: a hand being
    recorded) gets its derived values and its wins' points before it is inserted, and its per-seat rows
    after: nothing of it is written twice.
    """
    players = _credited(game.seats)
    hanchan_id = game.hanchan.pk
    rewritten = len(out.rewritten_hands)
    existing = 0
    for (row, wins), outcome in zip(game.stored, played.hands, strict=True):
        new = row.pk is None
        existing += not new
        derived = (
            outcome.round,
            outcome.dealer,
            outcome.honba,
            outcome.sticks,
            list(outcome.deltas),
            list(outcome.scores),
        )
        tsumo = row.result == Hand.Result.TSUMO
        won: dict[int, int] = {}
        wins_differ = False
        for win in wins:
            points = engine.hand_points(
                engine.HandValue(win.han, win.fu, win.yakuman),
                dealer=win.winner == outcome.dealer,
                tsumo=tsumo,
                rules=rules,
            )
            if new:
                win.points = points
            elif win.points != points:
                out.wins.append((points, win.pk))
                wins_differ = True
            won[win.winner] = points
        if (
            not new
            and not wins_differ
            and (row.round_name, row.dealer, row.honba, row.sticks, row.deltas, row.scores) == derived
        ):
            continue
        seat_rows = _seat_rows(row, hanchan_id, players, derived[4], won)
        if new:
            row.round_name, row.dealer, row.honba, row.sticks, row.deltas, row.scores = derived
            out.new_hands.append((row, wins, seat_rows))
            continue
        out.hands.append((*derived, row.pk))
        out.rewritten_hands.append(row.pk)
        out.seat_rows.extend(seat_rows)
    if len(out.rewritten_hands) - rewritten == existing:
        # Every per-seat row of the game is written anew, with the seats' current players.
        out.all_rows_new.add(hanchan_id)
        if existing:
            # Its old per-seat rows are deleted by game (one index range) rather than hand by hand (a
            # probe per hand: a tenth of rewriting a whole league).
            out.replaced_games.add(hanchan_id)
            del out.rewritten_hands[rewritten:]


def _seat_rows(
    row: Any, hanchan_id: int, players: dict[int, int], deltas: list[int], won: dict[int, int]
) -> list[tuple[Any, ...]]:
    """The four per-seat rows of a hand (values in ``_SEAT_FIELDS`` order; the hand's id is None for a
    hand not inserted yet, filled in once it is)."""
    tsumo = row.result == Hand.Result.TSUMO
    ron_loser = row.loser if row.result == Hand.Result.RON else None
    tenpai = set(row.tenpai or ())
    riichi = set(row.riichi or ())
    return [
        (
            row.pk,
            hanchan_id,
            seat,
            players[seat],
            deltas[seat],
            seat in riichi,
            seat in won,
            tsumo and seat in won,
            ron_loser == seat,
            row.result == Hand.Result.DRAW,
            seat in tenpai,
            row.result == Hand.Result.CHOMBO and row.chombo_seat == seat,
            won.get(seat, 0),
            sum(won.values()) if ron_loser == seat else 0,
        )
        for seat in range(4)
    ]


def _derive_results(game: GameFacts, played: engine.Replay | None, out: _Writes) -> None:
    """The game's seat results as the engine computes them now; replaced only if they differ."""
    hanchan = game.hanchan
    new: list[tuple[Any, ...]] = []
    if hanchan.status == Hanchan.Status.FINISHED:
        if game.penalties is None:  # read while the game was not finished yet
            game.penalties = [row[1:] for row in _penalties([hanchan.pk])]
        extra, chombo_penalties = _penalties_by_seat(game.seats, game.penalties)
        final = final_result(hanchan, played, game.seats, extra)
        if final is None:
            raise ValidationError("A game needs at least one hand (or four final scores) to be finished.")
        players = _credited(game.seats)
        chombos = list(chombo_penalties)
        for row, _wins in game.stored:
            if row.result == Hand.Result.CHOMBO and row.chombo_seat is not None:
                chombos[row.chombo_seat] += 1
        event = hanchan.event
        substituted = {s.seat for s in game.seats if s.on_behalf_of_id}
        finished_at = hanchan.finished_at or timezone.now()
        for seat in range(4):
            result = credited_result(event, played=final.results[seat], substitute=seat in substituted)
            new.append(
                (
                    seat,
                    players[seat],
                    final.scores[seat],
                    final.places[seat],
                    final.uma[seat],
                    final.oka[seat],
                    final.penalties[seat],
                    result,
                    chombos[seat],
                    finished_at,
                )
            )
    if new == game.results:
        return
    out.players.update(r[1] for r in game.results)
    out.players.update(r[1] for r in new)
    if game.results:  # none stored, none to delete
        out.results_of.append(hanchan.pk)
    out.results.extend((hanchan.pk, hanchan.event_id, *r) for r in new)
    out.changed_games.append(hanchan)
    game.results = new  # as they are once written: the facts stay true for a later rebuild


# -- writing --------------------------------------------------------------------------------------------


def _executemany(sql: str, rows: list[tuple[Any, ...]]) -> None:
    if rows:
        with connection.cursor() as cursor:
            for start in range(0, len(rows), 5000):
                cursor.executemany(sql, rows[start : start + 5000])


def _insert(model: type, names: Sequence[str], rows: list[tuple[Any, ...]]) -> None:
    """Insert ``rows`` (values in ``names``' order) set-based: on PostgreSQL, :data:`COPY_FROM` rows or
    more through ``COPY`` (one stream for them all, instead of one statement per row), fewer in one
    ``INSERT ... VALUES`` (one round trip to the server where ``COPY`` takes two: a hand entry's four
    per-seat rows); on SQLite ``executemany`` (a prepared statement run in-process, which is what SQLite
    does fastest)."""
    if not rows:
        return
    table = _table(model)
    columns = ", ".join(_column(model, name) for name in names)
    if connection.vendor != "postgresql":
        marks = ", ".join(["%s"] * len(names))
        _executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})", rows)
        return
    with connection.cursor() as cursor:
        if len(rows) >= COPY_FROM:
            with cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
            return
        one = "(" + ", ".join(["%s"] * len(names)) + ")"
        for start in range(0, len(rows), 1000):
            chunk = rows[start : start + 1000]
            cursor.execute(
                f"INSERT INTO {table} ({columns}) VALUES {', '.join([one] * len(chunk))}",
                [value for row in chunk for value in row],
            )


def _update(model: type, names: Sequence[str], rows: list[tuple[Any, ...]]) -> None:
    """Set ``names`` of the rows whose id is each row's last value (JSON values as their text).

    On PostgreSQL, a batch (:data:`COPY_FROM` rows or more, inside the caller's transaction) is
    ``COPY``-ed into a temporary table and applied by one ``UPDATE ... FROM`` it; fewer rows go in one
    ``UPDATE ... FROM (VALUES ...)`` per thousand. (A thousand rows of ``VALUES`` are 7 000 placeholders
    that psycopg parses on the client for every statement: two thirds of rewriting a league's hands.)
    On SQLite ``executemany``, for the reason of :func:`_insert`."""
    if not rows:
        return
    table = _table(model)
    if connection.vendor != "postgresql":
        sets = ", ".join(f"{_column(model, name)} = %s" for name in names)
        _executemany(f"UPDATE {table} SET {sets} WHERE id = %s", rows)
        return
    types = [model._meta.get_field(name).db_type(connection) for name in names]  # type: ignore[attr-defined]
    types = [t.split(" ")[0] if t else "text" for t in types]  # "smallint CHECK (...)" -> "smallint"
    aliases = [f"v{i}" for i in range(len(names))]
    sets = ", ".join(
        f"{_column(model, name)} = v.{alias}" for name, alias in zip(names, aliases, strict=True)
    )
    if len(rows) >= COPY_FROM and connection.in_atomic_block:
        temp = connection.ops.quote_name(f"tenbou_update_{model._meta.db_table}")  # type: ignore[attr-defined]
        columns = ", ".join(f"{alias} {kind}" for alias, kind in zip(aliases, types, strict=True))
        with connection.cursor() as cursor:
            # Dropped with the transaction; emptied if an earlier batch of this one created it.
            cursor.execute(f"CREATE TEMP TABLE IF NOT EXISTS {temp} ({columns}, id bigint) ON COMMIT DROP")
            cursor.execute(f"TRUNCATE {temp}")
            with cursor.cursor.copy(f"COPY {temp} FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
            # The ids' range lets the planner read just those rows by the primary key: without it, it
            # hashes the whole table for every batch (a temporary table has no statistics).
            ids = [row[-1] for row in rows]
            cursor.execute(
                f"UPDATE {table} SET {sets} FROM {temp} AS v WHERE {table}.id = v.id "
                f"AND {table}.id BETWEEN %s AND %s",
                [min(ids), max(ids)],
            )
        return
    one = "(" + ", ".join(f"%s::{t}" for t in types) + ", %s::bigint)"
    with connection.cursor() as cursor:
        for start in range(0, len(rows), 1000):
            chunk = rows[start : start + 1000]
            values = ", ".join([one] * len(chunk))
            cursor.execute(
                f"UPDATE {table} SET {sets} FROM (VALUES {values}) AS v({', '.join(aliases)}, id) "
                f"WHERE {table}.id = v.id",
                [value for row in chunk for value in row],
            )


COPY_FROM = 200
"""From this many rows a write goes through ``COPY`` (PostgreSQL): an insert directly, an update through a
temporary table. Below it, a statement of ``VALUES`` costs less: one round trip where ``COPY`` takes
two, and no temporary table to create."""


def _table(model: type) -> str:
    return connection.ops.quote_name(model._meta.db_table)  # type: ignore[attr-defined]


def _column(model: type, name: str) -> str:
    return connection.ops.quote_name(model._meta.get_field(name).column)  # type: ignore[attr-defined]


def _int_list_json(values: list[int]) -> str:
    """``json.dumps`` of a list of integers (the hands' deltas and scores), three times as fast: a
    rebuild writes two per hand."""
    return "[" + ", ".join(map(str, values)) + "]"


def _prep(model: type, name: str, value: Any) -> Any:
    """A value as the column stores it (a JSON list as the backend's JSON, a time as its text on SQLite)."""
    return model._meta.get_field(name).get_db_prep_save(value, connection)  # type: ignore[attr-defined]


def _chunks(ids: list[int], size: int = 5000) -> Iterable[list[int]]:
    for start in range(0, len(ids), size):
        yield ids[start : start + size]


def _write(out: _Writes, game_ids: list[int]) -> None:
    """Send the collected writes: one statement (or one ``executemany``) per kind of row."""
    if out.new_hands:
        # New hands first: their wins and per-seat rows need their ids (returned by the INSERT).
        Hand.objects.bulk_create([row for row, _wins, _seats in out.new_hands])
        Win.objects.bulk_create([win for _row, wins, _seats in out.new_hands for win in wins])
        for row, _wins, seat_rows in out.new_hands:
            out.seat_rows.extend((row.pk, *values[1:]) for values in seat_rows)
    if out.hands:
        # JSON as its text: stored as such on SQLite, cast to jsonb on PostgreSQL (COPY or ``::jsonb``).
        rows = [(*row[:4], _int_list_json(row[4]), _int_list_json(row[5]), row[6]) for row in out.hands]
        _update(Hand, _DERIVED, rows)
    _update(Win, ("points",), out.wins)
    for chunk in _chunks(sorted(out.replaced_games)):
        HandSeat.objects.filter(hanchan__in=chunk).delete()
    for chunk in _chunks(out.rewritten_hands):
        HandSeat.objects.filter(hand__in=chunk).delete()
    _insert(HandSeat, [name.removesuffix("_id") for name in _SEAT_FIELDS], out.seat_rows)
    if game_ids:
        _recredit(game_ids)
    for chunk in _chunks(out.results_of):
        SeatResult.objects.filter(hanchan__in=chunk).delete()
    if out.results:
        names = ("hanchan", "event", *(n.removesuffix("_id") for n in _RESULT_FIELDS))
        prepared: dict[Any, Any] = {}  # a game's four seats share its finish time: prepared once
        rows = []
        for row in out.results:
            at = row[-1]
            if at not in prepared:
                prepared[at] = _prep(SeatResult, "finished_at", at)
            rows.append((*row[:-1], prepared[at]))
        _insert(SeatResult, names, rows)


def _recredit(game_ids: list[int]) -> None:
    """A seat's player may have changed (a swap, a substitute) while the hands did not: give the games'
    per-seat hand rows their seat's credited player — one statement for the batch, matching no row
    unless it happened. On PostgreSQL a join (``UPDATE ... FROM``): the ORM's correlated subqueries,
    run twice per row, were a third of checking a 20 000-game league."""
    if connection.vendor != "postgresql":
        credited = Seat.objects.filter(hanchan=OuterRef("hanchan_id"), seat=OuterRef("seat")).values(
            credited=Coalesce(F("on_behalf_of_id"), F("player_id"))
        )[:1]
        HandSeat.objects.filter(hanchan__in=game_ids).exclude(player_id=Subquery(credited)).update(
            player_id=Subquery(credited)
        )
        return
    hand_seats, seats = _table(HandSeat), _table(Seat)
    game, seat, player = (_column(HandSeat, name) for name in ("hanchan", "seat", "player"))
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {hand_seats} AS hs SET {player} = c.credited "
            f"FROM (SELECT {_column(Seat, 'hanchan')} AS game, {_column(Seat, 'seat')} AS seat, "
            f"COALESCE({_column(Seat, 'on_behalf_of')}, {_column(Seat, 'player')}) AS credited "
            f"FROM {seats} WHERE {_column(Seat, 'hanchan')} = ANY(%s)) AS c "
            f"WHERE hs.{game} = ANY(%s) AND hs.{game} = c.game AND hs.{seat} = c.seat "
            f"AND hs.{player} <> c.credited",
            [game_ids, game_ids],
        )


# -- the rebuild ----------------------------------------------------------------------------------------


@dataclass
class Rebuilt:
    """What a rebuild did: each hand-by-hand game's replay, and how many rows it wrote."""

    replays: dict[int, engine.Replay] = field(default_factory=dict)
    games: int = 0
    hands: int = 0
    hands_written: int = 0
    results_written: int = 0


def rebuild(
    hanchans: Sequence[Hanchan],
    *,
    hands: bool = True,
    replays: dict[int, engine.Replay] | None = None,
    facts: Mapping[int, GameFacts] | None = None,
) -> Rebuilt:
    """Bring every cached row of ``hanchans`` in line with their facts; the caller holds the
    transaction (each game's ``event`` is read from it: share one instance for many games).

    ``hands=False`` rewrites only the seat results (a change of status: the hands' rows are right), from
    ``replays`` when the caller has them. ``facts``: each game's facts as :func:`read` gave them to the
    caller, who holds the game's lock, with the caller's change applied, instead of read here; a hand
    appended without a primary key (``hand_row``, its wins from ``win_rows``) is inserted here with
    its derived values, once the replay found it legal. The facts are left as the rows now stand (the
    new hands with their keys, the results as written), so the same transaction may pass them again.
    The games whose results changed get their ratings rebuilt after the commit, and the events and
    players concerned get new results versions.
    """
    with _collector_paused():
        return _rebuild(hanchans, hands=hands, replays=replays, facts=facts)


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector for a rebuild, then resume it as it was.

    A rebuild makes millions of small objects (rows, replays, rows to write) that live until their
    batch is written. The collector runs every so many allocations and walks every object still alive,
    so it walks them again and again: a quarter of a league's rebuild time. Reference counting still
    frees them as usual; the collector only looks for cycles, which these rows do not form, and finds
    any others once it runs again. Process-wide: only the call that found it running restarts it.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _rebuild(
    hanchans: Sequence[Hanchan],
    *,
    hands: bool,
    replays: dict[int, engine.Replay] | None,
    facts: Mapping[int, GameFacts] | None,
) -> Rebuilt:
    done = Rebuilt()
    events: set[int] = set()
    players: set[int] = set()
    for start in range(0, len(hanchans), BATCH):
        batch = hanchans[start : start + BATCH]
        # The results of a finished game need its hands too: the replay (unless given) and its chombos.
        needs_hands = hands or any(
            h.entry_mode == Hanchan.EntryMode.HANDS and h.status == Hanchan.Status.FINISHED for h in batch
        )
        games = {h.pk: facts[h.pk] for h in batch} if facts is not None else _read(batch, hands=needs_hands)
        out = _Writes()
        for game in games.values():
            hanchan = game.hanchan
            played: engine.Replay | None = (replays or {}).get(hanchan.pk)
            if hanchan.entry_mode == Hanchan.EntryMode.HANDS and needs_hands:
                if played is None:
                    played = _replay(hanchan, game.stored)
                if hands:
                    _derive_hands(game, played, hanchan.event.rules, out)
                done.hands += len(game.stored)
            if played is not None:
                done.replays[hanchan.pk] = played
            _derive_results(game, played, out)
            events.add(hanchan.event_id)
            players.update(_credited(game.seats).values())
            players.update(s.player_id for s in game.seats)
        # Games whose per-seat rows were all written anew already carry the seats' current players.
        _write(out, [pk for pk in games if pk not in out.all_rows_new] if hands else [])
        # Marked for the background worker, in this transaction: ratings from these games on.
        schedule_rebuild(*out.changed_games)
        players |= out.players
        done.games += len(games)
        done.hands_written += len(out.hands) + len(out.new_hands)
        done.results_written += len(out.results)
    # A game of a round kept hidden for a final reveal changes no public page (league.versions); a
    # rebuild of a whole event (a rules change) is public whatever its games.
    bump_results(event_ids=events, player_ids=players, because_of=[h.pk for h in hanchans])
    return done


def rebuild_event(event: Event) -> Rebuilt:
    """Every cached row of every game of ``event`` (a repair, or the benchmark of one), in one
    transaction: as :func:`rebuild`, with the event's ruleset parsed once."""
    with transaction.atomic():
        games = list(Hanchan.objects.filter(event=event).order_by("pk"))
        for game in games:
            game.event = event
        return rebuild(games)
