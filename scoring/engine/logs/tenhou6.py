"""tenhou.net/6 JSON: the log format of Tenhou's viewer, also written by tensoul for Mahjong Soul games.

A log is an object ``{"title", "name": [4 names], "rule": {"disp": "般南喰赤", "aka": 1, ...}, "log": [...],
"sc": [score, points] × 4, "ref": id, "lobby": n}``. Each entry of ``log`` is one hand, 17 items:

- ``[kyoku, honba, sticks]`` (kyoku 0–3 East, 4–7 South, 8–11 West) and the four scores before the hand;
- dora and ura indicators; then per seat its starting tiles, draws and discards (a discard written
  ``"r…"`` declares riichi);
- the result: ``["和了", deltas, [winner, from, pao, value, yaku…], …]`` (one pair per winner: a double
  ron has two), ``["流局", deltas]``, ``["流し満貫", deltas]``, or an abortive draw (``"九種九牌"``,
  ``"四風連打"``, ``"四家立直"``, ``"四槓散了"``, ``"三家和了"``, and tensoul's spellings).

``deltas`` never hold the riichi deposits made in the hand (the next hand's scores do). The value reads
``"30符2飜2000点"``, ``"満貫2000-4000点"`` (non-dealer and dealer share of a tsumo), ``"3900点∀"`` (a
dealer's tsumo, from each) or ``"役満32000点"``; each yaku ``"立直(1飜)"`` or ``"大三元(役満)"``.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import replace
from typing import Any

from ..errors import Phrase, gettext_noop
from ..hand import ABORT, DRAW, RON, TSUMO, ScoredYaku, Win
from .errors import LogError
from .game import ALL_OR_NONE, DEALER_ONLY, LogGame, LogHand
from .yaku import (
    AKA,
    DORA,
    MAHJONGSOUL_DOUBLE,
    ROUND_WIND,
    SEAT_WIND,
    URA,
    YAKU_BY_NAME,
    from_japanese,
    wind_yaku,
)

WIN = "和了"
DRAWS = {"流局": None, "全員聴牌": (0, 1, 2, 3), "全員不聴": ()}
NAGASHI = "流し満貫"
ABORTS = {
    "九種九牌": "nine_terminals",
    "四風連打": "four_winds",
    "四家立直": "four_riichi",
    "四槓散了": "four_kans",
    "四開槓": "four_kans",
    "三家和了": "triple_ron",
    "三家和": "triple_ron",
}
HAND_ITEMS = 17
MAX_GAME_HANDS = 500

MAHJONGSOUL_REF = re.compile(r"^\d{6}-[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}")
MAHJONGSOUL_ROOMS = ("の間", "友人戦", "大会戦")
"""Rule displays only tensoul writes: Mahjong Soul's rooms (銅の間…), friendly (友人戦), contest (大会戦)."""

_VALUE = re.compile(r"^(?:(?P<fu>\d+)符)?(?:(?P<han>\d+)飜)?\D*?(?P<a>\d+)(?:-(?P<b>\d+))?点(?P<all>∀)?$")
_YAKU = re.compile(r"^(?P<name>.+?)\((?:(?P<han>\d+)飜|(?P<yakuman>ダブル役満|トリプル役満|役満))\)$")
_YAKUMAN_COUNT = {"役満": 1, "ダブル役満": 2, "トリプル役満": 3}


def parse(data: Any, *, name: str = "-") -> LogGame:
    """One game from a parsed tenhou.net/6 JSON object."""
    if not isinstance(data, dict) or not isinstance(data.get("log"), list):
        raise LogError(
            gettext_noop("not a tenhou.net/6 log: a JSON object with a 'log' list of hands is expected")
        )
    rule = data.get("rule") if isinstance(data.get("rule"), dict) else {}
    disp = _text(rule.get("disp", ""))
    ref = data.get("ref")
    log_id = ref if isinstance(ref, str) and ref else None
    source = "mahjongsoul" if _is_mahjongsoul(disp, log_id) else "tenhou"
    raw_hands = data["log"]
    if not raw_hands:
        raise LogError(gettext_noop("the log holds no hand"))
    if len(raw_hands) > MAX_GAME_HANDS:
        raise LogError(
            gettext_noop("the log holds {count} hands: at most {max}"),
            params={"count": len(raw_hands), "max": MAX_GAME_HANDS},
        )
    if "三" in disp or data.get("ratingc") == "PF3":
        raise LogError(gettext_noop("a three-player game: Tenbou records four-player games only"))
    hands = [_hand(raw, number, source) for number, raw in enumerate(raw_hands, start=1)]
    start = hands[0].start
    if start[3] == 0 and start[0] != 0:
        raise LogError(gettext_noop("a three-player game: Tenbou records four-player games only"))
    return LogGame(
        source=source,
        rules=_rules(source, disp, rule, start),
        names=_names(data.get("name")),
        hands=hands,
        log_id=log_id,
        lobby=_lobby(data, source),
        final_scores=_final_scores(data.get("sc"), start),
    )


def _is_mahjongsoul(disp: str, log_id: str | None) -> bool:
    return any(room in disp for room in MAHJONGSOUL_ROOMS) or bool(log_id and MAHJONGSOUL_REF.match(log_id))


def _text(value: Any) -> str:
    return unicodedata.normalize("NFKC", value) if isinstance(value, str) else ""


def _rules(source: str, disp: str, rule: dict[str, Any], start: tuple[int, ...]) -> dict[str, Any]:
    """The preset of the lobby, with the game length, red fives, open tanyao and start of the log."""
    preset = "mahjongsoul" if source == "mahjongsoul" else "tenhou"
    spec: dict[str, Any] = {"preset": preset}
    if "東" in disp:
        spec["length"] = "tonpuusen"
    reds = [rule.get(key) for key in ("aka51", "aka52", "aka53")]
    if any(isinstance(r, int) and not isinstance(r, bool) for r in reds):
        spec["red_fives"] = min(4, sum(r for r in reds if isinstance(r, int) and not isinstance(r, bool)))
    elif isinstance(rule.get("aka"), int):
        spec["red_fives"] = 3 if rule["aka"] else 0
    elif disp and "赤" not in disp:
        spec["red_fives"] = 0
    if disp and "喰" not in disp:
        spec["open_tanyao"] = False
    if len(set(start)) == 1 and start[0] != 25000 and start[0] > 0:
        spec["start_points"] = start[0]  # a tournament lobby's own start
        if source == "mahjongsoul":
            spec["return_points"] = start[0]
    if spec.get("red_fives") == 3:
        del spec["red_fives"]  # the presets' own value
    return spec


def _names(raw: Any) -> tuple[str, str, str, str]:
    if not isinstance(raw, list) or len(raw) < 4:
        return ("", "", "", "")
    return tuple(n if isinstance(n, str) else "" for n in raw[:4])  # type: ignore[return-value]


def _lobby(data: dict[str, Any], source: str) -> str | None:
    """Tenhou's lobby number; for Mahjong Soul, the room or contest that tensoul appends to the title."""
    if source == "mahjongsoul":
        title = data.get("title")
        first = title[0] if isinstance(title, list) and title and isinstance(title[0], str) else ""
        _, sep, lobby = first.rpartition(": ")
        return (lobby.strip()[:100] or None) if sep else None
    lobby = data.get("lobby")
    if isinstance(lobby, int) and not isinstance(lobby, bool):
        return str(lobby)
    if isinstance(lobby, str) and lobby.strip():
        return lobby.strip()[:100]
    return None


def _final_scores(raw: Any, start: tuple[int, ...]) -> tuple[int, int, int, int] | None:
    """The final scores of ``sc`` (in points; older converters write hundreds, recognised by their sum)."""
    if not isinstance(raw, list) or len(raw) < 8:
        return None
    try:
        scores = [_number(raw[2 * seat], "sc") for seat in range(4)]
    except LogError:
        return None
    if sum(scores) * 100 == sum(start):
        scores = [score * 100 for score in scores]
    return tuple(scores)  # type: ignore[return-value]


# -- one hand ----------------------------------------------------------------------------------------


def _number(value: Any, what: str | Phrase, *, hand: int | None = None) -> int:
    """A whole number (tensoul writes some as 16000.0)."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) > 10**7:
        raise LogError(
            gettext_noop("{what} must be a whole number, not {value}"),
            hand=hand,
            params={"what": what, "value": f"{value!r:.40}"},
        )
    return value


def _numbers(value: Any, count: int, what: str | Phrase, *, hand: int) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) != count:
        raise LogError(
            gettext_noop("{what} must be a list of {count} numbers, not {value}"),
            hand=hand,
            params={"what": what, "count": count, "value": f"{value!r:.60}"},
        )
    return tuple(_number(v, what, hand=hand) for v in value)


def _hand(raw: Any, number: int, source: str) -> LogHand:
    if not isinstance(raw, list) or len(raw) != HAND_ITEMS:
        if isinstance(raw, list):
            raise LogError(
                gettext_noop("a hand must be a list of {items} items (a four-player log), not {count} items"),
                hand=number,
                params={"items": HAND_ITEMS, "count": len(raw)},
            )
        raise LogError(
            gettext_noop("a hand must be a list of {items} items (a four-player log), not {value}"),
            hand=number,
            params={"items": HAND_ITEMS, "value": f"{raw!r:.40}"},
        )
    kyoku, honba, sticks = _numbers(
        raw[0], 3, Phrase(gettext_noop("the hand's [kyoku, honba, sticks]")), hand=number
    )
    if not 0 <= kyoku < 16 or honba < 0 or sticks < 0:
        raise LogError(
            gettext_noop("[kyoku, honba, sticks] = {value} is not a hand of a game"),
            hand=number,
            params={"value": str([kyoku, honba, sticks])},
        )
    start = _numbers(raw[1], 4, Phrase(gettext_noop("the scores before the hand")), hand=number)
    result = raw[16]
    if not isinstance(result, list) or not result or not isinstance(result[0], str):
        raise LogError(gettext_noop("the hand has no result (its 17th item)"), hand=number)
    kind = _text(result[0])
    hand = LogHand(number=number, kyoku=kyoku, honba=honba, sticks=sticks, start=start, result=DRAW)  # type: ignore[arg-type]
    discards = [raw[6 + 3 * seat] if isinstance(raw[6 + 3 * seat], list) else [] for seat in range(4)]
    declared = {seat for seat in range(4) if _riichi_mark(discards[seat]) is not None}
    hand.riichi = set(declared)
    hand.riichi_known = False  # settled from the next hand's scores where there is one
    if kind == WIN:
        _wins(hand, result[1:], source)
        if hand.result == RON and hand.loser in declared:
            mark = _riichi_mark(discards[hand.loser])
            if mark == len(discards[hand.loser]) - 1:
                hand.riichi.discard(hand.loser)  # declared on the discard that was ronned: not paid
        return hand
    deltas = _deltas(result[1] if len(result) > 1 else None, number)
    hand.deltas = deltas
    if kind in DRAWS:
        tenpai = DRAWS[kind]
        if tenpai is not None:
            hand.tenpai = tenpai
        elif any(deltas):
            hand.tenpai = tuple(seat for seat in range(4) if deltas[seat] > 0)
        else:
            hand.tenpai, hand.tenpai_unknown = None, ALL_OR_NONE
        return hand
    if kind == NAGASHI:
        hand.nagashi = tuple(seat for seat in range(4) if deltas[seat] > 0)
        if not hand.nagashi:
            raise LogError(gettext_noop("a nagashi mangan where no one is paid"), hand=number)
        hand.tenpai, hand.tenpai_unknown = None, DEALER_ONLY
        return hand
    if kind in ABORTS:
        hand.result, hand.reason = ABORT, ABORTS[kind]
        return hand
    raise LogError(
        gettext_noop("unknown result {result} (和了, 流局, 流し満貫 or an abortive draw)"),
        hand=number,
        params={"result": f"{result[0]!r:.40}"},
    )


def _riichi_mark(discards: list[Any]) -> int | None:
    """The index of the discard that declared riichi (``"r…"``), if any."""
    for index, item in enumerate(discards):
        if isinstance(item, str) and item.startswith("r"):
            return index
    return None


def _deltas(raw: Any, number: int) -> tuple[int, int, int, int]:
    if raw is None:
        return (0, 0, 0, 0)
    changes = Phrase(gettext_noop("the hand's score changes"))
    return _numbers(raw, 4, changes, hand=number)  # type: ignore[return-value]


def _wins(hand: LogHand, items: list[Any], source: str) -> None:
    """The winners of a 和了 result: one (deltas, detail) pair per winner."""
    number = hand.number
    if not items or len(items) % 2:
        raise LogError(gettext_noop("a win needs its score changes and its details, per winner"), hand=number)
    total = [0, 0, 0, 0]
    losers = set()
    for index in range(0, len(items), 2):
        deltas = _deltas(items[index], number)
        total = [total[s] + deltas[s] for s in range(4)]
        win, loser = _win(items[index + 1], hand, source)
        hand.wins.append(win)
        losers.add(loser)
    if len(losers) != 1:
        raise LogError(gettext_noop("the winners of one hand won off different seats"), hand=number)
    loser = losers.pop()
    if loser is None:
        if len(hand.wins) != 1:
            raise LogError(gettext_noop("a tsumo has exactly one winner"), hand=number)
        hand.result = TSUMO
    else:
        hand.result, hand.loser = RON, loser
    hand.deltas = tuple(total)  # type: ignore[assignment]


def _win(detail: Any, hand: LogHand, source: str) -> tuple[Win, int | None]:
    number = hand.number
    if not isinstance(detail, list) or len(detail) < 4 or not isinstance(detail[3], str):
        raise LogError(
            gettext_noop("a win's details must be [winner, from, pao, value, yaku…], not {value}"),
            hand=number,
            params={"value": f"{detail!r:.60}"},
        )
    seats_text = Phrase(gettext_noop("a win's seats"))
    who, frm, pao = (_number(v, seats_text, hand=number) for v in detail[:3])
    if not all(0 <= seat <= 3 for seat in (who, frm, pao)):
        raise LogError(
            gettext_noop("a win names seats {seats}: seats are 0 to 3"),
            hand=number,
            params={"seats": str(detail[:3])},
        )
    value = _VALUE.match(_text(detail[3]).replace(",", ""))
    if value is None:
        raise LogError(
            gettext_noop("{seat}'s win has a value the log format does not allow: {value}"),
            hand=number,
            seats={"seat": who},
            params={"value": f"{detail[3]!r:.40}"},
        )
    tsumo = who == frm
    dealer = who == hand.dealer
    scored, counts, yakuman_items = _yaku(detail[4:], hand, who, source)
    yakuman = _yakuman_count(value, tsumo=tsumo, dealer=dealer) if yakuman_items else None
    win = Win(winner=who, pao=pao if pao != who else None, yaku=tuple(scored))
    if yakuman is not None:
        return replace(win, yakuman=yakuman), (None if tsumo else frm)
    han = int(value["han"]) if value["han"] else sum(y.han or 0 for y in scored) + sum(counts.values())
    if han < 1:
        raise LogError(
            gettext_noop("{seat}'s win has no han (value {value})"),
            hand=number,
            seats={"seat": who},
            params={"value": f"{detail[3]!r:.40}"},
        )
    fu = int(value["fu"]) if value["fu"] else None
    if han >= 5:
        fu = None
    elif fu is None:
        fu = _mangan_fu(han, who, number)
    win = replace(win, han=han, fu=fu, dora=counts[DORA], aka=counts[AKA], ura=counts[URA])
    return win, (None if tsumo else frm)


def _mangan_fu(han: int, who: int, number: int) -> int:
    """The fu of a 3- or 4-han mangan, which the value text does not give: the least that makes it one
    (40 fu at 4 han, 70 at 3), so the record is worth what the log paid."""
    if han == 4:
        return 40
    if han == 3:
        return 70
    raise LogError(
        gettext_noop("{seat}'s win of {han} han gives no fu"),
        hand=number,
        seats={"seat": who},
        params={"han": han},
    )


def _yakuman_count(value: re.Match[str], *, tsumo: bool, dealer: bool) -> int:
    """How many yakuman a yakuman win holds, from the points it was paid (Mahjong Soul's double yakuman
    read "(役満)" like single ones; the points never lie)."""
    a, b = int(value["a"]), int(value["b"] or 0)
    paid = (a if dealer or not b else b) if tsumo else a
    divisor = 2 if tsumo else 6 if dealer else 4
    return max(1, paid // divisor // 8000)


def _yaku(
    items: list[Any], hand: LogHand, who: int, source: str
) -> tuple[list[ScoredYaku], dict[str, int], bool]:
    """The yaku of a win (dora kinds counted apart) and whether it is a yakuman."""
    scored: list[ScoredYaku] = []
    counts = {DORA: 0, AKA: 0, URA: 0}
    yakuman = False
    for item in items:
        match = _YAKU.match(_text(item)) if isinstance(item, str) else None
        if match is None:
            raise LogError(
                gettext_noop("{seat}'s win lists a yaku the log format does not allow: {value}"),
                hand=hand.number,
                seats={"seat": who},
                params={"value": f"{item!r:.40}"},
            )
        name = from_japanese(match["name"])
        if name is None:
            raise LogError(
                gettext_noop("{seat}'s win lists a yaku Tenbou does not know: {value}"),
                hand=hand.number,
                seats={"seat": who},
                params={"value": f"{match['name']!r:.40}"},
            )
        if name in counts:
            counts[name] += int(match["han"] or 0)
            continue
        if name in (SEAT_WIND, ROUND_WIND):
            wind = (who - hand.dealer) % 4 if name == SEAT_WIND else hand.kyoku // 4
            name = wind_yaku(name, wind)
        if match["yakuman"]:
            yakuman = True
            count = _YAKUMAN_COUNT[match["yakuman"]]
            if count == 1 and source == "mahjongsoul" and name in MAHJONGSOUL_DOUBLE:
                count = 2
            scored.append(ScoredYaku(name=name, yakuman=count))
        elif int(match["han"]) > 0:
            scored.append(ScoredYaku(name=name, han=int(match["han"])))
    assert all(y.name in YAKU_BY_NAME for y in scored)
    return scored, counts, yakuman
