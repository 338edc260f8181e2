"""Between the database and the engine: a hanchan's rows as engine hands and game records.

Both directions live here so the services, selectors and commands agree on one mapping.
"""

from __future__ import annotations

import functools
import json
from collections import defaultdict, namedtuple
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection

from league.models import Hanchan, Seat

from . import engine
from .models import Hand, Penalty, Win


def stored_yaku(value: object) -> tuple[engine.ScoredYaku, ...] | None:
    """A win row's ``yaku`` column as the engine's yaku; None when they were not recorded.

    The column holds the record's own form (``[{"name": "riichi", "han": 1}, {"name": "daisangen",
    "yakuman": 1}]``), written only by :func:`yaku_column`. An empty list means "not recorded": every
    winning hand has a yaku, so an empty list can never be a fact.
    """
    if not isinstance(value, list) or not value:
        return None
    return tuple(
        engine.ScoredYaku(name=item["name"], han=item.get("han"), yakuman=item.get("yakuman"))
        for item in value
    )


def yaku_column(yaku: tuple[engine.ScoredYaku, ...] | None) -> list[dict[str, object]]:
    """The engine's yaku of a win as stored in its row (the game record's form; ``[]``: not recorded)."""
    return [
        {"name": y.name, "yakuman": y.yakuman} if y.yakuman is not None else {"name": y.name, "han": y.han}
        for y in yaku or ()
    ]


def engine_win(row: Win) -> engine.Win:
    """The engine's view of a stored win: its value and liability, and what the hand was made of when
    it is known (yaku, dora, red fives, ura dora — facts for statistics, never for payments)."""
    return engine.Win(
        row.winner,
        row.han,
        row.fu,
        row.yakuman,
        row.pao,
        yaku=stored_yaku(row.yaku),
        dora=row.dora,
        aka=row.aka,
        ura=row.ura,
    )


def engine_hand(row: Any, wins: Iterable[Any]) -> engine.Hand:
    """The engine's view of a stored hand."""
    return engine.Hand(
        result=row.result,
        wins=tuple(engine_win(w) for w in wins),
        loser=row.loser,
        riichi=tuple(row.riichi or ()),
        tenpai=tuple(row.tenpai or ()),
        nagashi=tuple(row.nagashi or ()),
        seat=row.chombo_seat,
        reason=row.abort_reason or None,
    )


_UNREAD = {"tiles"}  # the tiles as entered: never part of a replay, and the largest column


@dataclass(frozen=True)
class _Shape:
    """How :func:`fact_rows` reads a model: its table, its columns as selected, the row type."""

    table: str
    columns: str  # the SELECT list: every column but the unread ones, qualified by the table
    row_type: Any  # a namedtuple of the attribute names and ``pk``
    json_columns: list[int]
    pk: int  # the primary key's position

    def column(self, model: type, name: str) -> str:
        """A column of ``model`` qualified by its table, as a WHERE or ORDER BY names it."""
        return f"{self.table}.{connection.ops.quote_name(model._meta.get_field(name).column)}"  # type: ignore[attr-defined]


@functools.cache
def _shape(model: type, vendor: str) -> _Shape:
    meta = model._meta  # type: ignore[attr-defined]
    fields = [f for f in meta.concrete_fields if f.name not in _UNREAD]
    names = [f.attname for f in fields]
    quote = connection.ops.quote_name
    table = quote(meta.db_table)
    return _Shape(
        table=table,
        columns=", ".join(f"{table}.{quote(f.column)}" for f in fields),
        row_type=namedtuple(f"{model.__name__}Row", [*names, "pk"]),  # noqa: PYI024
        json_columns=[i for i, f in enumerate(fields) if f.get_internal_type() == "JSONField"],
        pk=names.index(meta.pk.attname),
    )


def fact_rows(model: type, sql: str, params: Sequence[Any]) -> Iterator[Any]:
    """The rows of ``model`` that ``sql`` selects (from ``FROM`` on, naming tables and columns as
    :class:`_Shape` quotes them), every column but the tiles, as read-only tuples with the model's
    attribute names (``pk`` too): what :func:`engine_hand` reads, at a fraction of the cost of model
    instances, which a rebuild of a league makes by the hundred thousand and every game page by the
    dozen.

    Plain SQL through the cursor: the hands and wins hold only integers, text and JSON, and Django's
    per-value converters (a generic JSON decoder wrapped around ``json.loads``) cost more than the
    replay itself, as compiling the two querysets cost a third of reading a game's hands; the JSON
    columns are decoded here, the rest is what the database returns.
    """
    shape = _shape(model, connection.vendor)
    row_type, json_columns, pk = shape.row_type, shape.json_columns, shape.pk
    loads = json.loads
    # The short JSON values (seats that declared riichi or were tenpai, "[]") repeat from hand to hand:
    # decoded once each. Shared between rows, which their readers only read.
    short: dict[str, Any] = {}
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {shape.columns} {sql}", params)
        while batch := cursor.fetchmany(2000):
            for row in batch:
                values = list(row)
                for i in json_columns:
                    text = values[i]
                    if text is None:
                        continue
                    if len(text) > 12:
                        values[i] = loads(text)
                    elif (value := short.get(text)) is not None:
                        values[i] = value
                    else:
                        values[i] = short[text] = loads(text)
                yield row_type(*values, values[pk])


StoredHand = tuple[Any, list[Any]]
"""A stored hand and its wins, in the order entered, as :func:`fact_rows` reads them (read-only rows
with the models' attribute names; ``tiles`` left out)."""


def games_hands(hanchan_ids: Sequence[int]) -> dict[int, list[StoredHand]]:
    """The hands of these games with their wins, in order, by game: two queries whatever their number
    (a game without hands is missing)."""
    by_game: dict[int, list[StoredHand]] = defaultdict(list)
    if not hanchan_ids:
        return by_game
    hand, win = _shape(Hand, connection.vendor), _shape(Win, connection.vendor)
    game, number = hand.column(Hand, "hanchan"), hand.column(Hand, "number")
    of_games = f"{game} IN ({', '.join(['%s'] * len(hanchan_ids))})"
    rows = list(fact_rows(Hand, f"FROM {hand.table} WHERE {of_games} ORDER BY {game}, {number}", hanchan_ids))
    if not rows:
        return by_game
    by_hand: dict[int, list[Any]] = defaultdict(list)
    # The hands' id range lets PostgreSQL read the wins by their hand index; without it, the planner
    # scans every win of the database for each batch of a rebuild.
    lowest, highest = min(row.pk for row in rows), max(row.pk for row in rows)
    win_hand, win_id = win.column(Win, "hand"), win.column(Win, "id")
    wins = (
        f"FROM {win.table} INNER JOIN {hand.table} ON {hand.column(Hand, 'id')} = {win_hand} "
        f"WHERE {of_games} AND {win_hand} BETWEEN %s AND %s ORDER BY {win_hand}, {win_id}"
    )
    for row in fact_rows(Win, wins, [*hanchan_ids, lowest, highest]):
        by_hand[row.hand_id].append(row)
    for row in rows:
        by_game[row.hanchan_id].append((row, by_hand.get(row.pk, [])))
    return by_game


def stored_hands(hanchan: Hanchan) -> list[StoredHand]:
    """The hanchan's hands with their wins, in order (two queries; rows as :func:`fact_rows` reads
    them, not model instances)."""
    return games_hands([hanchan.pk]).get(hanchan.pk, [])


def engine_hands(hanchan: Hanchan) -> list[engine.Hand]:
    return [engine_hand(row, wins) for row, wins in stored_hands(hanchan)]


def seats_by_player(seats: Iterable[Seat]) -> dict[int, int]:
    """Player id -> seat, for the players who sat and for those a substitute sat for: a penalty given
    to either belongs to that seat. Takes seat rows already loaded, so it never queries."""
    by_player: dict[int, int] = {}
    for seat in seats:
        by_player[seat.player_id] = seat.seat
        if seat.on_behalf_of_id:
            by_player[seat.on_behalf_of_id] = seat.seat
    return by_player


def seat_of(hanchan: Hanchan, player_id: int) -> int | None:
    """The seat a player sat in, or that a substitute filled on their behalf."""
    return seats_by_player(hanchan.seats.all()).get(player_id)


def final_result(
    hanchan: Hanchan, played: engine.Replay | None, seats: Sequence[Seat], extra: Sequence[int]
) -> engine.FinalResult | None:
    """The game's final result as the engine computes it, with ``extra`` penalty points per seat: from
    the replay of its hands (``played``), or from its seats' final scores for a game entered so. None
    while it cannot be computed (no hand yet, a final score missing). For the rebuild's seat results and
    the game page alike."""
    rules = hanchan.event.rules
    if hanchan.entry_mode == Hanchan.EntryMode.HANDS:
        if played is None or not played.hands:
            return None
        return played.final(list(extra))
    scores = [s.final_score for s in sorted(seats, key=lambda s: s.seat)]
    if len(scores) != 4 or any(score is None for score in scores):
        return None
    return engine.final_result(scores, hanchan.final_sticks, list(extra), rules)  # type: ignore[arg-type]


def penalty_points(hanchan: Hanchan, seats: Iterable[Seat] | None = None) -> list[int]:
    """Per seat, the active penalties given in this hanchan (chombo hands are not here: the engine
    derives those from the hands). Two queries, one when the caller has the ``seats`` already."""
    by_player = seats_by_player(hanchan.seats.all() if seats is None else seats)
    points = [0, 0, 0, 0]
    for player_id, amount in Penalty.objects.filter(hanchan=hanchan, cancelled=False).values_list(
        "player_id", "points"
    ):
        if player_id in by_player:
            points[by_player[player_id]] += amount
    return points


def chombo_penalties_by_seat(hanchan: Hanchan) -> list[int]:
    """Per seat, the active chombo penalties of a game (final-score games enter their chombos so)."""
    by_player = seats_by_player(hanchan.seats.all())
    counts = [0, 0, 0, 0]
    for player_id in Penalty.objects.filter(
        hanchan=hanchan, kind=Penalty.Kind.CHOMBO, cancelled=False
    ).values_list("player_id", flat=True):
        if player_id in by_player:
            counts[by_player[player_id]] += 1
    return counts


def game_record(hanchan: Hanchan) -> engine.GameRecord:
    """The hanchan as a game record (docs/game-record.md), for export and replay."""
    seats = sorted(hanchan.seats.select_related("player"), key=lambda s: s.seat)
    by_player = seats_by_player(seats)
    penalties = []
    for penalty in Penalty.objects.filter(hanchan=hanchan, cancelled=False).order_by("created_at", "pk"):
        seat = by_player.get(penalty.player_id)
        if seat is not None:
            penalties.append(engine.Penalty(seat=seat, points=penalty.points, reason=penalty.reason))
    return engine.GameRecord(
        rules=hanchan.event.rules,
        hands=tuple(engine_hands(hanchan)),
        players=tuple(s.player.display_name for s in seats),
        penalties=tuple(penalties),
    )


def hand_row(hanchan: Hanchan, number: int, hand: engine.Hand) -> Hand:
    """An unsaved row holding the facts of an engine hand (the derived columns are filled by sync)."""
    return Hand(
        hanchan=hanchan,
        number=number,
        result=hand.result,
        loser=hand.loser,
        riichi=sorted(hand.riichi),
        tenpai=sorted(hand.tenpai),
        nagashi=sorted(hand.nagashi),
        chombo_seat=hand.seat,
        abort_reason=hand.reason or "",
    )


def win_rows(row: Hand, hand: engine.Hand, tiles: list | None = None) -> list[Win]:
    """Unsaved win rows of a hand; ``tiles`` optionally holds each win's tiles as entered. The yaku and
    dora counts are kept when the hand knows them (online logs, tiles, the yaku picker, records)."""
    return [
        Win(
            hand=row,
            winner=w.winner,
            han=w.han,
            fu=w.fu,
            yakuman=w.yakuman,
            pao=w.pao,
            tiles=tiles[i] if tiles and i < len(tiles) else None,
            yaku=yaku_column(w.yaku),
            dora=w.dora,
            aka=w.aka,
            ura=w.ura,
        )
        for i, w in enumerate(hand.wins)
    ]
