"""The game record (``docs/game-record.md``): one hanchan as JSON, read, written and replayed.

This is a public format: scripts outside Tenbou write records and compare ``replay``'s answers, so the
field names and meanings here follow the document to the letter. Reading is strict — a malformed record
is an error naming the hand and the rule, never a guess — and writing gives the canonical form, so that a
record written and read back is identical.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any

from .errors import EngineError, Phrase, RecordError, gettext_noop, shown
from .hanchan import Replay, replay
from .hand import ABORT, CHOMBO, DRAW, RESULTS, RON, TSUMO, Hand, ScoredYaku, Win
from .logs.yaku import YAKU_BY_NAME
from .ruleset import Ruleset, ruleset_from_spec, ruleset_spec
from .value import VALID_FU

FORMAT = 1
MAX_YAKUMAN = 6
"""The most yakuman one win may hold in a record (docs/game-record.md §4); the ruleset decides their worth."""


@dataclass(frozen=True, slots=True)
class Penalty:
    """A penalty applied after uma (negative points), other than the chombos the hands already hold."""

    seat: int
    points: int
    reason: str = ""


LOG_SOURCES = ("tenhou", "mahjongsoul")


@dataclass(frozen=True, slots=True)
class LogInfo:
    """Where a game converted from an online log comes from: the site, the log's id and its lobby.

    The id lets an import refuse a log already imported; the lobby (Tenhou's lobby number, Mahjong
    Soul's room or contest) lets an organiser check that a game belongs to the event.
    """

    source: str
    id: str | None = None
    lobby: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"source": self.source}
        if self.id is not None:
            out["id"] = self.id
        if self.lobby is not None:
            out["lobby"] = self.lobby
        return out


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game: its rules, optional player names in seat order, its hands and extra penalties, and
    (for a game converted from an online log) where the log comes from."""

    rules: Ruleset
    hands: tuple[Hand, ...] = ()
    players: tuple[str, ...] | None = None
    penalties: tuple[Penalty, ...] = field(default=())
    log: LogInfo | None = None

    def replay(self) -> Replay:
        return replay(self.hands, self.rules)

    def penalty_points(self) -> list[int]:
        points = [0, 0, 0, 0]
        for penalty in self.penalties:
            points[penalty.seat] += penalty.points
        return points

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"format": FORMAT, "rules": ruleset_spec(self.rules)}
        if self.log is not None:
            out["log"] = self.log.to_dict()
        if self.players is not None:
            out["players"] = list(self.players)
        out["hands"] = [hand_to_dict(hand) for hand in self.hands]
        if self.penalties:
            out["penalties"] = [
                {"seat": p.seat, "points": p.points, "reason": p.reason} for p in self.penalties
            ]
        return out


# -- reading -----------------------------------------------------------------------------------------

# The limits of docs/game-record.md §4: one place, so that replay, import and the web agree. They
# are generous for any real game and keep every value inside the database columns that store it.
MAX_HANDS = 500
"""The most hands a record may hold; checked before any hand is read, so oversize input costs nothing."""
MAX_PENALTIES = MAX_HANDS
"""The most extra penalties a record may hold (with the point limit, results stay within 32 bits)."""
MAX_HAN = 99
MIN_PENALTY_POINTS = -1_000_000
MAX_TEXT = 200
"""The longest player name or penalty reason."""
MAX_ABORT_REASON = 20
"""The longest abortive draw reason: the column that stores it (``Hand.abort_reason``) holds 20."""
MAX_NUMBER = 999
"""The highest round or table number (``round_number``, ``table_number``, when a record gives them)."""
MAX_DEPTH = 32
"""How deeply a record's JSON may nest: a real record needs five levels; deeper is hostile input."""
MAX_YAKU = 30
"""The most yaku one win may list (a real hand holds at most a dozen)."""
MAX_YAKU_HAN = 13
"""The most han one yaku may be worth (chinitsu is 6; local yaku stay far below)."""
MAX_LOG_TEXT = 100
"""The longest log id or lobby of a record's ``log``."""
MAX_FINAL_STICKS = 999
"""The most riichi sticks a final-scores record (``final_sticks``) may leave on the table."""
SCORE_LIMIT = 1_000_000_000
"""The largest final score (either sign) a record's ``final_scores`` may hold: the database columns hold
32 bits, and a score this far out is a typo or hostile input, never a game."""
PENALTY_KINDS = ("chombo", "other")
"""A penalty's optional ``kind`` (written by ``export_games``)."""

_BAD_CHARACTER = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


def parse_json(text: str) -> Any:
    """JSON text as Python data, every way it can fail being a :class:`RecordError` (one line).

    ``json.loads`` raises more than ``JSONDecodeError``: :class:`RecursionError` for arrays nested a
    few thousand deep, and a bare :class:`ValueError` for an integer longer than Python converts.
    """
    try:
        return json.loads(text)
    except RecursionError:
        raise RecordError(gettext_noop("not valid JSON: nested too deeply")) from None
    except json.JSONDecodeError as exc:
        raise RecordError(gettext_noop("not valid JSON: {error}"), params={"error": str(exc)}) from None
    except UnicodeDecodeError as exc:
        raise RecordError(gettext_noop("not valid JSON: {error}"), params={"error": exc.reason}) from None
    except ValueError:
        limit = sys.get_int_max_str_digits()
        raise RecordError(
            gettext_noop("not valid JSON: a number has more than {limit} digits"), params={"limit": limit}
        ) from None


def check_text(value: Any, what: str | Phrase, *, limit: int = MAX_TEXT, field: str | None = None) -> str:
    """``value`` if it is text of at most ``limit`` characters without control characters.

    Control characters (NUL above all, which PostgreSQL cannot store) and lone surrogates (which no
    encoding can write) would fail later, in the database or on output; the record names them here.
    """
    if not isinstance(value, str):
        raise EngineError(
            gettext_noop("{what} must be text, not {value}"),
            field=field,
            params={"what": what, "value": shown(value)},
        )
    if len(value) > limit:
        raise EngineError(
            gettext_noop("{what} is {length} characters long; at most {limit} are allowed"),
            field=field,
            params={"what": what, "length": len(value), "limit": limit},
        )
    bad = _BAD_CHARACTER.search(value)
    if bad is not None:
        raise EngineError(
            gettext_noop(
                "{what} holds the character {character}: control characters and lone surrogates are "
                "not allowed"
            ),
            field=field,
            params={"what": what, "character": f"U+{ord(bad.group()):04X}"},
        )
    return value


def _check_depth(data: Any) -> None:
    """Refuse JSON nested deeper than :data:`MAX_DEPTH`, without recursion (the input may be hostile)."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise RecordError(
                gettext_noop("the record is nested more than {depth} levels deep"),
                params={"depth": MAX_DEPTH},
            )
        children = value.values() if isinstance(value, dict) else value
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))


def _int(data: dict[str, Any], key: str, *, required: bool = True) -> int | None:
    value = data.get(key)
    if value is None:
        if required:
            raise EngineError(gettext_noop("'{key}' is missing"), field=key, params={"key": key})
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise EngineError(
            gettext_noop("'{key}' must be a whole number, not {value}"),
            field=key,
            params={"key": key, "value": shown(value)},
        )
    return value


def _seat_list(data: dict[str, Any], key: str) -> tuple[int, ...]:
    value = data.get(key, [])
    if value is None:
        return ()
    if not isinstance(value, list):
        raise EngineError(
            gettext_noop("'{key}' must be a list of seats, not {value}"),
            field=key,
            params={"key": key, "value": shown(value)},
        )
    for seat in value:
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise EngineError(
                gettext_noop("'{key}' must be a list of seats from 0 to 3, not {value}"),
                field=key,
                params={"key": key, "value": shown(value)},
            )
    return tuple(value)


def _count(data: dict[str, Any], key: str, *, low: int, high: int, what: str | Phrase) -> int | None:
    """An optional whole number from ``low`` to ``high`` (a dora count, a yaku's han)."""
    value = data.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise EngineError(
            gettext_noop("'{key}' {what} must be a whole number from {low} to {high}, not {value}"),
            field=key,
            params={"key": key, "what": what, "low": low, "high": high, "value": shown(value)},
        )
    return value


def _scored_yaku(data: Any) -> ScoredYaku:
    if not isinstance(data, dict):
        raise EngineError(
            gettext_noop('\'yaku\' must list objects such as {{"name": "riichi", "han": 1}}, not {value}'),
            field="yaku",
            params={"value": shown(data)},
        )
    name = data.get("name")
    if not isinstance(name, str) or name not in YAKU_BY_NAME:
        raise EngineError(
            gettext_noop(
                "'yaku': unknown yaku {value} (names are the romaji of the yaku table, e.g. riichi, "
                "tanyao, daisangen)"
            ),
            field="yaku",
            params={"value": shown(name)},
        )
    of_yaku = Phrase(gettext_noop("of yaku {name}"), params={"name": name})
    han = _count(data, "han", low=1, high=MAX_YAKU_HAN, what=of_yaku)
    yakuman = _count(data, "yakuman", low=1, high=MAX_YAKUMAN, what=of_yaku)
    if (han is None) == (yakuman is None):
        raise EngineError(
            gettext_noop(
                "'yaku': {name} needs either 'han' or 'yakuman' (how many yakuman it counts), not both"
            ),
            field="yaku",
            params={"name": name},
        )
    return ScoredYaku(name=name, han=han, yakuman=yakuman)


def _yaku_list(data: dict[str, Any]) -> tuple[ScoredYaku, ...] | None:
    value = data.get("yaku")
    if value is None:
        return None
    if not isinstance(value, list):
        raise EngineError(
            gettext_noop("'yaku' must be a list of yaku, not {value}"),
            field="yaku",
            params={"value": shown(value)},
        )
    if len(value) > MAX_YAKU:
        raise EngineError(
            gettext_noop("'yaku' lists {count} yaku: at most {max}"),
            field="yaku",
            params={"count": len(value), "max": MAX_YAKU},
        )
    return tuple(_scored_yaku(item) for item in value)


def _win(data: Any) -> Win:
    if not isinstance(data, dict):
        raise EngineError(
            gettext_noop("a win must be an object, not {value}"), field="wins", params={"value": shown(data)}
        )
    yakuman = _int(data, "yakuman", required=False)
    if yakuman is not None and yakuman > MAX_YAKUMAN:
        raise EngineError(
            gettext_noop("'yakuman' is how many yakuman the hand holds, from 1 to {max}, not {value}"),
            field="yakuman",
            params={"max": MAX_YAKUMAN, "value": yakuman},
        )
    han = _int(data, "han", required=False)
    if han is not None and han > MAX_HAN:
        raise EngineError(
            gettext_noop("'han' must be from 1 to {max}, not {value}"),
            field="han",
            params={"max": MAX_HAN, "value": shown(han)},
        )
    fu = _int(data, "fu", required=False)
    if fu is not None and fu not in VALID_FU:  # the engine checks fu below 5 han only: it is stored
        raise EngineError(
            gettext_noop("fu {fu} does not exist (20, 25, or a multiple of 10 from 30 to 130)"),
            field="fu",
            params={"fu": shown(fu)},
        )
    return Win(
        winner=_int(data, "winner"),  # type: ignore[arg-type]
        han=han,
        fu=fu,
        yakuman=yakuman,
        pao=_int(data, "pao", required=False),
        yaku=_yaku_list(data),
        dora=_count(data, "dora", low=0, high=MAX_HAN, what=Phrase(gettext_noop("(dora in the hand)"))),
        aka=_count(data, "aka", low=0, high=MAX_HAN, what=Phrase(gettext_noop("(red fives in the hand)"))),
        ura=_count(data, "ura", low=0, high=MAX_HAN, what=Phrase(gettext_noop("(ura dora in the hand)"))),
    )


def hand_from_dict(data: Any) -> Hand:
    """One hand of a record. Raises :class:`EngineError` (without the hand number) on malformed data."""
    if not isinstance(data, dict):
        raise EngineError(
            gettext_noop("a hand must be an object, not {value}"), params={"value": shown(data)}
        )
    result = data.get("result")
    if not isinstance(result, str) or result not in RESULTS:
        raise EngineError(
            gettext_noop("unknown result {result} (ron, tsumo, draw, abort or chombo)"),
            field="result",
            params={"result": shown(result)},
        )
    riichi = _seat_list(data, "riichi")
    if result == RON:
        wins = data.get("wins")
        if not isinstance(wins, list) or not wins:
            raise EngineError(
                gettext_noop("a ron needs 'wins', a list of one to three winners"), field="wins"
            )
        if len(wins) > 3:
            raise EngineError(
                gettext_noop("a ron has at most three winners, not {count}"),
                field="wins",
                params={"count": len(wins)},
            )
        return Hand(RON, wins=tuple(_win(w) for w in wins), loser=_int(data, "loser"), riichi=riichi)
    if result == TSUMO:
        return Hand(TSUMO, wins=(_win(data),), riichi=riichi)
    if result == DRAW:
        return Hand(
            DRAW, tenpai=_seat_list(data, "tenpai"), nagashi=_seat_list(data, "nagashi"), riichi=riichi
        )
    if result == ABORT:
        reason = data.get("reason")
        if reason is not None:
            check_text(reason, "'reason'", limit=MAX_ABORT_REASON, field="reason")
        return Hand(ABORT, riichi=riichi, reason=reason)
    assert result == CHOMBO
    return Hand(CHOMBO, seat=_int(data, "seat"), riichi=riichi)


def _number(data: dict[str, Any], key: str) -> None:
    """A round or table number, when the record gives one (``export_games`` does): 1 to MAX_NUMBER."""
    value = data.get(key)
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_NUMBER:
        raise RecordError(
            gettext_noop("{key}: must be a whole number from 1 to {max}, not {value}"),
            field=key,
            params={"key": key, "max": MAX_NUMBER, "value": shown(value)},
        )


def record_moment(value: Any) -> datetime:
    """A record's ``finished_at``: an ISO 8601 date and time that exists (no 30 February, no hour 25, an
    offset under a day) and that can be told in UTC. Naive means the site's time zone (the importer's)."""
    try:
        moment = datetime.fromisoformat(value) if isinstance(value, str) else None
        if moment is not None and moment.tzinfo is not None:
            moment.astimezone(UTC)  # year 1 at +14:00 is before the first moment a datetime holds
    except (ValueError, OverflowError):
        moment = None
    if moment is None:
        raise RecordError(
            gettext_noop("finished_at: must be an ISO 8601 date and time that exists, not {value}"),
            field="finished_at",
            params={"value": shown(value)},
        )
    return moment


def record_day(value: Any) -> date:
    """A record's ``played_on``: an ISO 8601 date (YYYY-MM-DD) that exists."""
    try:
        day = date.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        day = None
    if day is None:
        raise RecordError(
            gettext_noop("played_on: must be an ISO 8601 date (YYYY-MM-DD) that exists, not {value}"),
            field="played_on",
            params={"value": shown(value)},
        )
    return day


def _final_scores(data: dict[str, Any]) -> None:
    """``final_scores`` and ``final_sticks`` (a game entered as final scores), when the record has them:
    four whole numbers within :data:`SCORE_LIMIT`, and 0 to :data:`MAX_FINAL_STICKS` sticks. What they
    must add up to is the ruleset's business, checked where they are used (the import)."""
    scores = data.get("final_scores")
    if scores is not None:
        if (
            not isinstance(scores, list)
            or len(scores) != 4
            or any(isinstance(s, bool) or not isinstance(s, int) for s in scores)
        ):
            raise RecordError(
                gettext_noop("final_scores: must be a list of four whole numbers in seat order"),
                field="final_scores",
            )
        if any(abs(s) > SCORE_LIMIT for s in scores):
            raise RecordError(
                gettext_noop("final_scores: each score must be from -{limit} to {limit}"),
                field="final_scores",
                params={"limit": SCORE_LIMIT},
            )
    sticks = data.get("final_sticks")
    if sticks is not None and (
        isinstance(sticks, bool) or not isinstance(sticks, int) or not 0 <= sticks <= MAX_FINAL_STICKS
    ):
        raise RecordError(
            gettext_noop("{key}: must be a whole number from {min} to {max}, not {value}"),
            field="final_sticks",
            params={"key": "final_sticks", "min": 0, "max": MAX_FINAL_STICKS, "value": shown(sticks)},
        )


def _on_behalf_of(data: dict[str, Any]) -> None:
    """``on_behalf_of``, when the record has it: per seat, the name of the registered player a
    substitute stood in for, or null."""
    value = data.get("on_behalf_of")
    if value is None:
        return
    if not isinstance(value, list) or len(value) != 4:
        raise RecordError(
            gettext_noop("on_behalf_of: must be a list of four names or nulls, in seat order"),
            field="on_behalf_of",
        )
    for seat, name in enumerate(value):
        if name is None:
            continue
        if not isinstance(name, str):
            raise RecordError(
                gettext_noop("on_behalf_of: must be names or nulls, not {value}"),
                field="on_behalf_of",
                params={"value": shown(name)},
            )
        try:
            check_text(name, Phrase(gettext_noop("the name of seat {seat}"), params={"seat": seat}))
        except EngineError as exc:
            raise RecordError(
                gettext_noop("on_behalf_of: {error}"), field="on_behalf_of", params={"error": exc}
            ) from None


def _extras(data: dict[str, Any]) -> None:
    """The fields ``export_games`` adds (the format allows added fields): checked here, for every
    reader of a record — ``replay`` as much as an import — so that a record with an impossible date or a
    malformed extra is refused the same way wherever it is read."""
    _number(data, "round_number")
    _number(data, "table_number")
    if data.get("finished_at") is not None:
        record_moment(data["finished_at"])
    if data.get("played_on") is not None:
        record_day(data["played_on"])
    _final_scores(data)
    _on_behalf_of(data)


def record_from_dict(data: Any, *, rules: Any = None) -> GameRecord:
    """A record from parsed JSON; ``rules`` (a preset name, spec or Ruleset) replaces the record's own.

    Checks the structure, the limits (cheap checks first, so that oversize input is refused before any
    replay) and every hand's legality by replaying it, so that a returned record is valid.
    """
    if not isinstance(data, dict):
        raise RecordError(gettext_noop("a game record must be a JSON object"))
    raw_hands = data.get("hands", [])
    if not isinstance(raw_hands, list):
        raise RecordError(gettext_noop("hands: must be a list"), field="hands")
    if len(raw_hands) > MAX_HANDS:
        raise RecordError(
            gettext_noop("hands: a record holds at most {max} hands, not {count}"),
            field="hands",
            params={"max": MAX_HANDS, "count": len(raw_hands)},
        )
    raw_penalties = data.get("penalties", [])
    if not isinstance(raw_penalties, list):
        raise RecordError(gettext_noop("penalties: must be a list"), field="penalties")
    if len(raw_penalties) > MAX_PENALTIES:
        raise RecordError(
            gettext_noop("penalties: a record holds at most {max} penalties, not {count}"),
            field="penalties",
            params={"max": MAX_PENALTIES, "count": len(raw_penalties)},
        )
    _check_depth(data)
    fmt = data.get("format", FORMAT)
    if isinstance(fmt, bool) or fmt != FORMAT:
        raise RecordError(
            gettext_noop("format: unsupported format {value} (this is format {format})"),
            field="format",
            params={"value": shown(fmt), "format": FORMAT},
        )
    try:
        ruleset = ruleset_from_spec(rules if rules is not None else data.get("rules"))
    except EngineError as exc:
        raise RecordError.from_error(exc) from None
    players = data.get("players")
    if players is not None:
        if not isinstance(players, list) or len(players) != 4 or not all(isinstance(p, str) for p in players):
            raise RecordError(
                gettext_noop("players: must be a list of four names in seat order"), field="players"
            )
        for seat, name in enumerate(players):
            try:
                check_text(name, Phrase(gettext_noop("the name of seat {seat}"), params={"seat": seat}))
            except EngineError as exc:
                raise RecordError(
                    gettext_noop("players: {error}"), field="players", params={"error": exc}
                ) from None
        players = tuple(players)
    _extras(data)
    log = _log_info(data.get("log"))
    hands = []
    for number, raw in enumerate(raw_hands, start=1):
        try:
            hands.append(hand_from_dict(raw))
        except EngineError as exc:
            raise RecordError.at_hand(exc, number) from None
    penalties = [_penalty(raw, number) for number, raw in enumerate(raw_penalties, start=1)]
    record = GameRecord(
        rules=ruleset, hands=tuple(hands), players=players, penalties=tuple(penalties), log=log
    )
    record.replay()  # raises RecordError naming the hand
    return record


def _log_info(raw: Any) -> LogInfo | None:
    """The record's ``log`` (a game converted from an online log), when it has one."""
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise RecordError(
            gettext_noop('log: must be an object such as {{"source": "tenhou", "id": "..."}}, not {value}'),
            field="log",
            params={"value": shown(raw)},
        )
    source = raw.get("source")
    if not isinstance(source, str) or source not in LOG_SOURCES:
        raise RecordError(
            gettext_noop("log: 'source' must be one of {sources}, not {value}"),
            field="log",
            params={"sources": ", ".join(LOG_SOURCES), "value": shown(source)},
        )
    texts: dict[str, str | None] = {}
    for key in ("id", "lobby"):
        value = raw.get(key)
        if value is not None:
            try:
                check_text(value, f"'{key}'", limit=MAX_LOG_TEXT, field="log")
            except EngineError as exc:
                raise RecordError(gettext_noop("log: {error}"), field="log", params={"error": exc}) from None
        texts[key] = value
    return LogInfo(source=source, id=texts["id"], lobby=texts["lobby"])


def _penalty(raw: Any, number: int) -> Penalty:
    if not isinstance(raw, dict):
        raise RecordError(
            gettext_noop("penalty {number}: must be an object with seat, points and reason"),
            field="penalties",
            params={"number": number},
        )
    try:
        seat = _int(raw, "seat")
        points = _int(raw, "points")
    except EngineError as exc:
        raise RecordError(
            gettext_noop("penalty {number}: {error}"),
            field="penalties",
            params={"number": number, "error": exc},
        ) from None
    assert seat is not None and points is not None
    if not 0 <= seat <= 3:
        raise RecordError(
            gettext_noop("penalty {number}: seat must be from 0 to 3, not {value}"),
            field="penalties",
            params={"number": number, "value": shown(seat)},
        )
    if not MIN_PENALTY_POINTS <= points < 0:
        raise RecordError(
            gettext_noop("penalty {number}: points must be negative, from {min} to -1, not {value}"),
            field="penalties",
            params={"number": number, "min": MIN_PENALTY_POINTS, "value": shown(points)},
        )
    reason = raw.get("reason", "")
    try:
        check_text(reason, "reason")
    except EngineError as exc:
        raise RecordError(
            gettext_noop("penalty {number}: {error}"),
            field="penalties",
            params={"number": number, "error": exc},
        ) from None
    kind = raw.get("kind", "other")
    if not isinstance(kind, str) or kind not in PENALTY_KINDS:
        raise RecordError(
            gettext_noop("penalty {number}: kind must be chombo or other, not {value}"),
            field="penalties",
            params={"number": number, "value": shown(kind)},
        )
    return Penalty(seat=seat, points=points, reason=reason)


def load_record(text: str, *, rules: Any = None) -> GameRecord:
    """A record from JSON text."""
    return record_from_dict(parse_json(text), rules=rules)


# -- writing -----------------------------------------------------------------------------------------


def _win_to_dict(win: Win) -> dict[str, Any]:
    out: dict[str, Any] = {"winner": win.winner}
    if win.yakuman is not None:
        out["yakuman"] = win.yakuman
    else:
        out["han"] = win.han
        if win.fu is not None:
            out["fu"] = win.fu
    if win.pao is not None:
        out["pao"] = win.pao
    if win.yaku is not None:
        out["yaku"] = [_scored_yaku_to_dict(y) for y in win.yaku]
    for key in ("dora", "aka", "ura"):
        value = getattr(win, key)
        if value is not None:
            out[key] = value
    return out


def _scored_yaku_to_dict(yaku: ScoredYaku) -> dict[str, Any]:
    if yaku.yakuman is not None:
        return {"name": yaku.name, "yakuman": yaku.yakuman}
    return {"name": yaku.name, "han": yaku.han}


def hand_to_dict(hand: Hand) -> dict[str, Any]:
    """One hand in the record's canonical form (empty optional lists left out)."""
    out: dict[str, Any] = {"result": hand.result}
    if hand.result == RON:
        out["loser"] = hand.loser
        out["wins"] = [_win_to_dict(w) for w in hand.wins]
    elif hand.result == TSUMO:
        out.update(_win_to_dict(hand.wins[0]))
    elif hand.result == DRAW:
        out["tenpai"] = list(hand.tenpai)
        if hand.nagashi:
            out["nagashi"] = list(hand.nagashi)
    elif hand.result == ABORT:
        if hand.reason is not None:
            out["reason"] = hand.reason
    elif hand.result == CHOMBO:
        out["seat"] = hand.seat
    if hand.riichi:
        out["riichi"] = list(hand.riichi)
    return out


def replay_output(record: GameRecord) -> dict[str, Any]:
    """What ``manage.py replay`` prints for a record: every hand, whether the game is over, the result."""
    played = record.replay()
    return {
        "hands": [outcome.to_dict() for outcome in played.hands],
        "finished": played.finished,
        "final": played.final(record.penalty_points()).to_dict(),
    }
