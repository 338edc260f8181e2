"""The game record (``shared/docs/game-record.md``): one hanchan as JSON, read, written and replayed.

This is a public format: scripts outside Tenbou write records and compare ``replay``'s answers, so the
field names and meanings here follow the document to the letter. Reading is strict — a malformed record
is an error naming the hand and the rule, never a guess — and writing gives the canonical form, so that a
record written and read back is identical.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .errors import EngineError, RecordError
from .hanchan import Replay, replay
from .hand import ABORT, CHOMBO, DRAW, RESULTS, RON, TSUMO, Hand, Win
from .ruleset import Ruleset, ruleset_from_spec, ruleset_spec

FORMAT = 1
MAX_YAKUMAN = 6
"""The most yakuman one win may hold in a record (game-record.md limits); the ruleset decides their worth."""


@dataclass(frozen=True, slots=True)
class Penalty:
    """A penalty applied after uma (negative points), other than the chombos the hands already hold."""

    seat: int
    points: int
    reason: str = ""


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game: its rules, optional player names in seat order, its hands and extra penalties."""

    rules: Ruleset
    hands: tuple[Hand, ...] = ()
    players: tuple[str, ...] | None = None
    penalties: tuple[Penalty, ...] = field(default=())

    def replay(self) -> Replay:
        return replay(self.hands, self.rules)

    def penalty_points(self) -> list[int]:
        points = [0, 0, 0, 0]
        for penalty in self.penalties:
            points[penalty.seat] += penalty.points
        return points

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"format": FORMAT, "rules": ruleset_spec(self.rules)}
        if self.players is not None:
            out["players"] = list(self.players)
        out["hands"] = [hand_to_dict(hand) for hand in self.hands]
        if self.penalties:
            out["penalties"] = [
                {"seat": p.seat, "points": p.points, "reason": p.reason} for p in self.penalties
            ]
        return out


# -- reading -----------------------------------------------------------------------------------------


def _int(data: dict[str, Any], key: str, *, required: bool = True) -> int | None:
    value = data.get(key)
    if value is None:
        if required:
            raise EngineError(f"'{key}' is missing", field=key)
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise EngineError(f"'{key}' must be a whole number, not {value!r}", field=key)
    return value


def _seat_list(data: dict[str, Any], key: str) -> tuple[int, ...]:
    value = data.get(key, [])
    if value is None:
        return ()
    if not isinstance(value, list):
        raise EngineError(f"'{key}' must be a list of seats, not {value!r}", field=key)
    for seat in value:
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise EngineError(f"'{key}' must be a list of seats from 0 to 3, not {value!r}", field=key)
    return tuple(value)


def _win(data: Any) -> Win:
    if not isinstance(data, dict):
        raise EngineError(f"a win must be an object, not {data!r}", field="wins")
    yakuman = _int(data, "yakuman", required=False)
    if yakuman is not None and yakuman > MAX_YAKUMAN:
        raise EngineError(
            f"'yakuman' is how many yakuman the hand holds, from 1 to {MAX_YAKUMAN}, not {yakuman}",
            field="yakuman",
        )
    return Win(
        winner=_int(data, "winner"),  # type: ignore[arg-type]
        han=_int(data, "han", required=False),
        fu=_int(data, "fu", required=False),
        yakuman=yakuman,
        pao=_int(data, "pao", required=False),
    )


def hand_from_dict(data: Any) -> Hand:
    """One hand of a record. Raises :class:`EngineError` (without the hand number) on malformed data."""
    if not isinstance(data, dict):
        raise EngineError(f"a hand must be an object, not {data!r}")
    result = data.get("result")
    if result not in RESULTS:
        raise EngineError(f"unknown result {result!r} (ron, tsumo, draw, abort or chombo)", field="result")
    riichi = _seat_list(data, "riichi")
    if result == RON:
        wins = data.get("wins")
        if not isinstance(wins, list) or not wins:
            raise EngineError("a ron needs 'wins', a list of one to three winners", field="wins")
        if len(wins) > 3:
            raise EngineError(f"a ron has at most three winners, not {len(wins)}", field="wins")
        return Hand(RON, wins=tuple(_win(w) for w in wins), loser=_int(data, "loser"), riichi=riichi)
    if result == TSUMO:
        return Hand(TSUMO, wins=(_win(data),), riichi=riichi)
    if result == DRAW:
        return Hand(
            DRAW, tenpai=_seat_list(data, "tenpai"), nagashi=_seat_list(data, "nagashi"), riichi=riichi
        )
    if result == ABORT:
        reason = data.get("reason")
        if reason is not None and not isinstance(reason, str):
            raise EngineError(f"'reason' must be text, not {reason!r}", field="reason")
        return Hand(ABORT, riichi=riichi, reason=reason)
    assert result == CHOMBO
    return Hand(CHOMBO, seat=_int(data, "seat"), riichi=riichi)


def record_from_dict(data: Any, *, rules: Any = None) -> GameRecord:
    """A record from parsed JSON; ``rules`` (a preset name, spec or Ruleset) replaces the record's own.

    Checks the structure and every hand's legality by replaying it, so that a returned record is valid.
    """
    if not isinstance(data, dict):
        raise RecordError("a game record must be a JSON object")
    fmt = data.get("format", FORMAT)
    if fmt != FORMAT:
        raise RecordError(f"format: unsupported format {fmt!r} (this is format {FORMAT})", field="format")
    try:
        ruleset = ruleset_from_spec(rules if rules is not None else data.get("rules"))
    except EngineError as exc:
        raise RecordError(exc.message, field=exc.field) from None
    players = data.get("players")
    if players is not None:
        if not isinstance(players, list) or len(players) != 4 or not all(isinstance(p, str) for p in players):
            raise RecordError("players: must be a list of four names in seat order", field="players")
        players = tuple(players)
    raw_hands = data.get("hands", [])
    if not isinstance(raw_hands, list):
        raise RecordError("hands: must be a list", field="hands")
    hands = []
    for number, raw in enumerate(raw_hands, start=1):
        try:
            hands.append(hand_from_dict(raw))
        except EngineError as exc:
            raise RecordError.at_hand(exc, number) from None
    penalties = []
    raw_penalties = data.get("penalties", [])
    if not isinstance(raw_penalties, list):
        raise RecordError("penalties: must be a list", field="penalties")
    for number, raw in enumerate(raw_penalties, start=1):
        penalties.append(_penalty(raw, number))
    record = GameRecord(rules=ruleset, hands=tuple(hands), players=players, penalties=tuple(penalties))
    record.replay()  # raises RecordError naming the hand
    return record


def _penalty(raw: Any, number: int) -> Penalty:
    where = f"penalty {number}"
    if not isinstance(raw, dict):
        raise RecordError(f"{where}: must be an object with seat, points and reason", field="penalties")
    try:
        seat = _int(raw, "seat")
        points = _int(raw, "points")
    except EngineError as exc:
        raise RecordError(f"{where}: {exc.message}", field="penalties") from None
    assert seat is not None and points is not None
    if not 0 <= seat <= 3:
        raise RecordError(f"{where}: seat must be from 0 to 3, not {seat}", field="penalties")
    if points >= 0:
        raise RecordError(f"{where}: points must be negative, not {points}", field="penalties")
    reason = raw.get("reason", "")
    if not isinstance(reason, str):
        raise RecordError(f"{where}: reason must be text", field="penalties")
    return Penalty(seat=seat, points=points, reason=reason)


def load_record(text: str, *, rules: Any = None) -> GameRecord:
    """A record from JSON text."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise RecordError(f"not valid JSON: {exc}") from None
    return record_from_dict(data, rules=rules)


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
    return out


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
