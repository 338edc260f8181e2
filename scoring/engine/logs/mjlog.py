"""Tenhou's mjlog XML: the log Tenhou itself keeps (``.mjlog`` files are gzip-compressed).

``<mjloggm ver="2.3">`` holds, in order: ``<GO type=… lobby=…/>`` (the lobby's rules as bits), ``<UN n0=…
n3=…/>`` (URL-encoded names), ``<TAIKYOKU/>``, then per hand ``<INIT seed="kyoku,honba,sticks,…"
ten="250,…" oya=…/>`` (scores in hundreds), the draws, discards and calls, ``<REACH who step="1"/>`` (the
declaration) and ``<REACH who step="2" ten=…/>`` (the deposit, once the discard passed), and the end:

- ``<AGARI ba="honba,sticks" ten="fu,points,limit" yaku="id,han,…" yakuman="id,…" who fromWho paoWho
  sc="score,delta,…"/>``, one per winner (a double ron has two);
- ``<RYUUKYOKU sc=… hai0=…/>`` (the tenpai seats show their hands) with ``type`` for a nagashi mangan
  (``nm``) or an abortive draw (``yao9``, ``kaze4``, ``reach4``, ``kan4``, ``ron3``).

The last end carries ``owari="score,points,…"``. Deltas in ``sc`` exclude the hand's riichi deposits (the
scores beside them already paid them). The log holds no id of its own: Tenhou names the file after it.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from typing import Any
from urllib.parse import unquote

from ..errors import gettext_noop
from ..hand import ABORT, DRAW, RON, TSUMO, ScoredYaku, Win
from .errors import LogError
from .game import LogGame, LogHand
from .yaku import DORA, DORA_TENHOU_IDS, YAKU_BY_TENHOU_ID

ABORTS = {
    "yao9": "nine_terminals",
    "kaze4": "four_winds",
    "reach4": "four_riichi",
    "kan4": "four_kans",
    "ron3": "triple_ron",
}
NAGASHI = "nm"
TENHOU_ID = re.compile(r"\d{10}gm-[0-9a-f]{4}-\d{4}-[0-9a-f]{8}")
"""A Tenhou log id (2019050417gm-0029-0000-4f2a8622), as Tenhou names its log files."""

GO_NO_RED, GO_NO_KUITAN, GO_HANCHAN, GO_SANMA = 0x02, 0x04, 0x08, 0x10
MAX_GAME_HANDS = 500


def parse(text: str, *, name: str = "-") -> LogGame:
    """One game from mjlog XML text."""
    if "<!DOCTYPE" in text or "<!ENTITY" in text:
        raise LogError(gettext_noop("not an mjlog: a DOCTYPE or an entity declaration is not allowed"))
    try:
        root = ElementTree.fromstring(text)
    except ElementTree.ParseError as exc:
        raise LogError(gettext_noop("not valid XML: {error}"), params={"error": str(exc)}) from None
    if root.tag != "mjloggm":
        raise LogError(
            gettext_noop("not an mjlog: the document is <{tag}>, not <mjloggm>"),
            params={"tag": f"{root.tag:.40}"},
        )
    reader = _Reader()
    for element in root:
        reader.feed(element)
    return reader.game(name)


def _int(
    element: ElementTree.Element, key: str, *, hand: int | None = None, default: int | None = None
) -> int:
    value = element.get(key)
    if value is None and default is not None:
        return default
    try:
        return int(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise LogError(
            gettext_noop("<{tag}> needs a whole number in '{key}', not {value}"),
            hand=hand,
            params={"tag": element.tag, "key": key, "value": f"{value!r:.40}"},
        ) from None


def _ints(element: ElementTree.Element, key: str, *, hand: int | None = None) -> list[int]:
    value = element.get(key) or ""
    try:
        return [int(part) for part in value.split(",") if part.strip()]
    except ValueError:
        raise LogError(
            gettext_noop("<{tag}> needs numbers in '{key}', not {value}"),
            hand=hand,
            params={"tag": element.tag, "key": key, "value": f"{value!r:.60}"},
        ) from None


def _seat(element: ElementTree.Element, key: str, hand: int) -> int:
    seat = _int(element, key, hand=hand)
    if not 0 <= seat <= 3:
        raise LogError(
            gettext_noop("<{tag}> names seat {seat} in '{key}': seats are 0 to 3"),
            hand=hand,
            params={"tag": element.tag, "seat": seat, "key": key},
        )
    return seat


class _Reader:
    """Reads the elements in order, one hand at a time."""

    def __init__(self) -> None:
        self.type: int | None = None
        self.lobby: str | None = None
        self.names: tuple[str, str, str, str] | None = None
        self.hands: list[LogHand] = []
        self.current: LogHand | None = None
        self.ended = False
        self.final: tuple[int, int, int, int] | None = None

    def feed(self, element: ElementTree.Element) -> None:
        tag = element.tag
        if tag == "GO":
            self.type = _int(element, "type", default=0)
            lobby = element.get("lobby")
            self.lobby = lobby.strip()[:100] if lobby and lobby.strip() else None
            if self.type & GO_SANMA:
                raise LogError(gettext_noop("a three-player game: Tenbou records four-player games only"))
        elif tag == "UN" and self.names is None and "n0" in element.attrib:
            self.names = tuple(unquote(element.get(f"n{seat}", "")) for seat in range(4))  # type: ignore[assignment]
            if self.names and not self.names[3]:
                raise LogError(gettext_noop("a three-player game: Tenbou records four-player games only"))
        elif tag == "INIT":
            self._start(element)
        elif tag == "REACH":
            hand = self._in_hand(element)
            if element.get("step") == "2":
                hand.riichi.add(_seat(element, "who", hand.number))
        elif tag == "AGARI":
            self._agari(element)
        elif tag == "RYUUKYOKU":
            self._ryuukyoku(element)

    def _in_hand(self, element: ElementTree.Element) -> LogHand:
        if self.current is None:
            raise LogError(
                gettext_noop("<{tag}> outside a hand (before any <INIT>)"), params={"tag": element.tag}
            )
        return self.current

    def _close(self) -> None:
        hand = self.current
        if hand is not None and not self.ended:
            raise LogError(gettext_noop("the hand has no result: the log is cut short"), hand=hand.number)
        self.current = None

    def _start(self, element: ElementTree.Element) -> None:
        self._close()
        number = len(self.hands) + 1
        if number > MAX_GAME_HANDS:
            raise LogError(
                gettext_noop("the log holds more than {max} hands"), params={"max": MAX_GAME_HANDS}
            )
        seed = _ints(element, "seed", hand=number)
        ten = _ints(element, "ten", hand=number)
        if len(seed) < 3 or len(ten) != 4:
            raise LogError(
                gettext_noop("<INIT> needs seed='kyoku,honba,sticks,…' and four scores in ten"), hand=number
            )
        kyoku, honba, sticks = seed[:3]
        if not 0 <= kyoku < 16 or honba < 0 or sticks < 0 or any(abs(t) > 100_000 for t in ten):
            raise LogError(
                gettext_noop("<INIT seed={seed}> is not a hand of a game"),
                hand=number,
                params={"seed": f"{element.get('seed')!r:.40}"},
            )
        if _int(element, "oya", hand=number, default=kyoku % 4) != kyoku % 4:
            raise LogError(
                gettext_noop("<INIT> names dealer {dealer} in round {round}"),
                hand=number,
                params={"dealer": f"{element.get('oya')!r:.10}", "round": kyoku},
            )
        self.current = LogHand(
            number=number,
            kyoku=kyoku,
            honba=honba,
            sticks=sticks,
            start=tuple(100 * t for t in ten),  # type: ignore[arg-type]
            result=DRAW,
        )
        self.hands.append(self.current)
        self.ended = False

    def _deltas(self, element: ElementTree.Element, hand: LogHand) -> tuple[int, int, int, int]:
        sc = _ints(element, "sc", hand=hand.number)
        if len(sc) != 8:
            raise LogError(
                gettext_noop("<{tag}> needs sc='score,change,…' for four seats"),
                hand=hand.number,
                params={"tag": element.tag},
            )
        return tuple(100 * sc[2 * seat + 1] for seat in range(4))  # type: ignore[return-value]

    def _owari(self, element: ElementTree.Element, hand: LogHand) -> None:
        """The final scores (in hundreds), on the end of the last hand: ``owari="score,points,…"``."""
        owari = element.get("owari")
        if owari is None:
            return
        parts = owari.split(",")
        try:
            self.final = tuple(100 * int(parts[2 * seat]) for seat in range(4))  # type: ignore[assignment]
        except (ValueError, IndexError):
            raise LogError(
                gettext_noop("owari must be 'score,points,…' for four seats, not {value}"),
                hand=hand.number,
                params={"value": f"{owari!r:.60}"},
            ) from None

    def _agari(self, element: ElementTree.Element) -> None:
        hand = self._in_hand(element)
        n = hand.number
        who, frm = _seat(element, "who", n), _seat(element, "fromWho", n)
        if self.ended and (hand.result != RON or who == frm or frm != hand.loser):
            raise LogError(gettext_noop("a second win in a hand must be a ron off the same discard"), hand=n)
        deltas = self._deltas(element, hand)
        previous = hand.deltas or (0, 0, 0, 0)
        hand.deltas = tuple(previous[s] + deltas[s] for s in range(4))  # type: ignore[assignment]
        hand.result, hand.loser = (TSUMO, None) if who == frm else (RON, frm)
        hand.wins.append(_win(element, hand, who, tsumo=who == frm))
        self._owari(element, hand)
        self.ended = True

    def _ryuukyoku(self, element: ElementTree.Element) -> None:
        hand = self._in_hand(element)
        if self.ended:
            raise LogError(gettext_noop("a hand ends twice"), hand=hand.number)
        kind = element.get("type")
        hand.deltas = self._deltas(element, hand) if element.get("sc") else (0, 0, 0, 0)
        if kind in ABORTS:
            hand.result, hand.reason = ABORT, ABORTS[kind]
        elif kind in (None, NAGASHI):
            hand.result = DRAW
            hand.tenpai = tuple(seat for seat in range(4) if element.get(f"hai{seat}") is not None)
            if kind == NAGASHI:
                hand.nagashi = tuple(seat for seat in range(4) if hand.deltas[seat] > 0)
        else:
            raise LogError(
                gettext_noop("unknown kind of draw {kind}"),
                hand=hand.number,
                params={"kind": f"{kind!r:.20}"},
            )
        self._owari(element, hand)
        self.ended = True

    def game(self, name: str) -> LogGame:
        if self.current is not None and not self.ended:
            raise LogError(
                gettext_noop("the hand has no result: the log is cut short"), hand=self.current.number
            )
        if not self.hands:
            raise LogError(gettext_noop("the log holds no hand (no <INIT>)"))
        start = self.hands[0].start
        game_type = self.type if self.type is not None else GO_HANCHAN
        spec: dict[str, Any] = {"preset": "tenhou"}
        if not game_type & GO_HANCHAN:
            spec["length"] = "tonpuusen"
        if game_type & GO_NO_RED:
            spec["red_fives"] = 0
        if game_type & GO_NO_KUITAN:
            spec["open_tanyao"] = False
        if len(set(start)) == 1 and start[0] not in (0, 25000):
            spec["start_points"] = start[0]
        match = TENHOU_ID.search(name or "")
        return LogGame(
            source="tenhou",
            rules=spec,
            names=self.names or ("", "", "", ""),
            hands=self.hands,
            log_id=match.group() if match else None,
            lobby=self.lobby,
            final_scores=self.final,
        )


def _win(element: ElementTree.Element, hand: LogHand, who: int, *, tsumo: bool) -> Win:
    """One winner of an ``<AGARI>``: value from ``ten``, yaku from ``yaku``/``yakuman``, pao."""
    n = hand.number
    ten = _ints(element, "ten", hand=n)
    if len(ten) < 2:
        raise LogError(gettext_noop("<AGARI> needs ten='fu,points,limit'"), hand=n)
    fu, points = ten[0], ten[1]
    pao = _seat(element, "paoWho", n) if element.get("paoWho") is not None else None
    pao = pao if pao != who else None
    pairs = _ints(element, "yaku", hand=n)
    if len(pairs) % 2:
        raise LogError(gettext_noop("<AGARI> needs yaku='id,han,…' in pairs"), hand=n)
    counts = {kind: 0 for kind in DORA_TENHOU_IDS.values()}
    scored: list[ScoredYaku] = []
    han = 0
    for yaku_id, yaku_han in zip(pairs[::2], pairs[1::2], strict=True):
        han += yaku_han
        if yaku_id in DORA_TENHOU_IDS:
            counts[DORA_TENHOU_IDS[yaku_id]] += yaku_han
        elif yaku_id in YAKU_BY_TENHOU_ID:
            if yaku_han > 0:
                scored.append(ScoredYaku(name=YAKU_BY_TENHOU_ID[yaku_id].name, han=yaku_han))
        else:
            raise LogError(
                gettext_noop("{seat}'s win lists an unknown yaku id {id}"),
                hand=n,
                seats={"seat": who},
                params={"id": yaku_id},
            )
    yakuman_ids = _ints(element, "yakuman", hand=n)
    if yakuman_ids:
        for yaku_id in yakuman_ids:
            if yaku_id not in YAKU_BY_TENHOU_ID:
                raise LogError(
                    gettext_noop("{seat}'s win lists an unknown yakuman id {id}"),
                    hand=n,
                    seats={"seat": who},
                    params={"id": yaku_id},
                )
            scored.append(ScoredYaku(name=YAKU_BY_TENHOU_ID[yaku_id].name, yakuman=1))
        unit = 48000 if who == hand.dealer else 32000
        count = points // unit if points > 0 and points % unit == 0 else len(yakuman_ids)
        return Win(winner=who, yakuman=count, pao=pao, yaku=tuple(scored))
    if han < 1:
        raise LogError(gettext_noop("{seat}'s win has no han"), hand=n, seats={"seat": who})
    return Win(
        winner=who,
        han=han,
        fu=fu if han <= 4 else None,
        pao=pao,
        yaku=tuple(scored),
        dora=counts[DORA],
        aka=counts["aka"],
        ura=counts["ura"],
    )
