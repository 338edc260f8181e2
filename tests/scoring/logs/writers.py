"""Writers of tenhou.net/6 JSON and mjlog XML for the engine's games: the other half of a round trip.

A generated game (``scoring.engine.generator``) is written as an online site would log it — each hand's
round, honba, sticks and scores, riichi marks on the discards (or REACH steps), the score changes
*without* the hand's deposits, value texts (``30符2飜2000点``, ``満貫2000-4000点``, ``3900点∀``), yaku
strings summing to the han, pao, final scores — so that ``convert_log`` must recover the same game.
The writers also produce what a parser must settle by itself: riichi declared on the discard that was
ronned (never paid), draws that move no points (``流局`` with zero changes), nagashi mangan.

The tiles are not real (the converter never reads them); everything the converter does read is.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote
from xml.sax.saxutils import quoteattr

from scoring.engine import ABORT, DRAW, RON, TSUMO, GameRecord, Hand, HandOutcome, Ruleset, ScoredYaku, Win
from scoring.engine.value import HandValue, base_points, ron_points, tsumo_points

ABORT_NAMES = {
    "tenhou": {
        "nine_terminals": "九種九牌",
        "four_winds": "四風連打",
        "four_riichi": "四家立直",
        "four_kans": "四槓散了",
        "triple_ron": "三家和了",
    },
    "mahjongsoul": {  # tensoul's spellings
        "nine_terminals": "九種九牌",
        "four_winds": "四風連打",
        "four_riichi": "四家立直",
        "four_kans": "四開槓",
        "triple_ron": "三家和",
    },
}
MJLOG_ABORTS = {
    "nine_terminals": "yao9",
    "four_winds": "kaze4",
    "four_riichi": "reach4",
    "four_kans": "kan4",
    "triple_ron": "ron3",
}
LIMITS = {2000: ("満貫", 1), 3000: ("跳満", 2), 4000: ("倍満", 3), 6000: ("三倍満", 4), 8000: ("役満", 5)}
YAKUMAN = [
    ("大三元", 39, "daisangen"),
    ("字一色", 42, "tsuuiisou"),
    ("四暗刻", 40, "suuankou"),
    ("緑一色", 43, "ryuuiisou"),
]
ONE_HAN = [("断幺九", 8, "tanyao"), ("役牌 中", 20, "chun"), ("平和", 7, "pinfu")]
TWO_HAN = [("一気通貫", 24, "ittsu"), ("七対子", 22, "chiitoitsu"), ("対々和", 28, "toitoi")]


@dataclass
class WrittenWin:
    """What the log says about one win, and what the converter must read back from it."""

    win: Win
    deltas: list[int]
    value_text: str
    yaku_strings: list[str]
    mjlog_yaku: list[tuple[int, int]]
    mjlog_yakuman: list[int]
    ten: tuple[int, int, int]
    expected_yaku: tuple[ScoredYaku, ...]
    counts: dict[str, int] = field(default_factory=dict)


@dataclass
class WrittenHand:
    """One hand: the table before it, the deposits, the log's changes (deposits excluded), the result."""

    hand: Hand
    outcome: HandOutcome
    start: list[int]
    deltas: list[int]
    wins: list[WrittenWin]
    unpaid_riichi: int | None
    """The loser of a ron who declared riichi on the discard that was ronned (not paid)."""
    zero_draw_name: str = "流局"


def written_hands(record: GameRecord, rng: random.Random, source: str = "tenhou") -> list[WrittenHand]:
    """Every hand of ``record`` as a log would state it (values, yaku, riichi marks), drawn with ``rng``."""
    played = record.replay()
    out = []
    for hand, outcome in zip(record.hands, played.hands, strict=True):
        start = [outcome.scores[s] - outcome.deltas[s] for s in range(4)]
        deltas = [outcome.deltas[s] + (1000 if s in hand.riichi else 0) for s in range(4)]
        wins = [_written_win(win, hand, outcome, rng, record.rules) for win in hand.wins]
        if wins:
            wins[0].deltas = deltas  # the first winner's pair carries the hand's changes; parsers sum them
            for other in wins[1:]:
                other.deltas = [0, 0, 0, 0]
        unpaid = None
        if hand.result == RON and hand.loser not in hand.riichi and rng.random() < 0.3:
            unpaid = hand.loser
        zero = "流局"
        if hand.result == DRAW and not hand.nagashi and not any(deltas) and rng.random() < 0.5:
            zero = "全員聴牌" if outcome.renchan else "全員不聴"
        out.append(WrittenHand(hand, outcome, start, deltas, wins, unpaid, zero))
    return out


def _written_win(
    win: Win, hand: Hand, outcome: HandOutcome, rng: random.Random, rules: Ruleset
) -> WrittenWin:
    base = base_points(HandValue(win.han, win.fu, win.yakuman), rules)
    dealer = win.winner == outcome.dealer
    tsumo = hand.result == TSUMO
    if tsumo:
        dealer_pays, other_pays = tsumo_points(base, dealer=dealer)
        points_text = f"{dealer_pays}点∀" if dealer else f"{other_pays}-{dealer_pays}点"
        total = dealer_pays * 3 if dealer else dealer_pays + 2 * other_pays
    else:
        total = ron_points(base, dealer=dealer)
        points_text = f"{total}点"
    riichi = win.winner in hand.riichi
    if win.yakuman:
        names = list(YAKUMAN)
        rng.shuffle(names)
        if win.pao is not None:
            names.remove(YAKUMAN[0])
            names.insert(0, YAKUMAN[0])  # the liable seat fed the daisangen
        chosen = names[: win.yakuman]
        return WrittenWin(
            win=win,
            deltas=[],
            value_text="役満" + points_text,
            yaku_strings=[f"{jp}(役満)" for jp, _, _ in chosen],
            mjlog_yaku=[],
            mjlog_yakuman=[tid for _, tid, _ in chosen],
            ten=(40, total, 5),
            expected_yaku=tuple(ScoredYaku(name, yakuman=1) for _, _, name in chosen),
        )
    han = win.han or 0
    parts: list[tuple[str, int, str, int]] = []  # (japanese, tenhou id, romaji, han)
    left = han
    if riichi:
        parts.append(("立直", 1, "riichi", 1))
        left -= 1
    if left >= 2 and rng.random() < 0.4:
        jp, tid, name = rng.choice(TWO_HAN)
        parts.append((jp, tid, name, 2))
        left -= 2
    if left >= 1 and (not parts or rng.random() < 0.6):
        jp, tid, name = rng.choice(ONE_HAN)
        parts.append((jp, tid, name, 1))
        left -= 1
    counts = {"dora": 0, "aka": 0, "ura": 0}
    kinds = ["dora", "aka"] + (["ura"] if riichi else [])
    for _ in range(left):
        counts[rng.choice(kinds)] += 1
    strings = [f"{jp}({h}飜)" for jp, _, _, h in parts]
    mjlog_yaku = [(tid, h) for _, tid, _, h in parts]
    for kind, jp, tid in (("dora", "ドラ", 52), ("aka", "赤ドラ", 54), ("ura", "裏ドラ", 53)):
        if counts[kind] or (kind == "ura" and riichi):
            strings.append(f"{jp}({counts[kind]}飜)")
            mjlog_yaku.append((tid, counts[kind]))
    limit_base = min(base, 8000)
    if han >= 5 or base >= 2000:
        limit, code = LIMITS[limit_base]
        value_text = limit + points_text
    else:
        value_text = f"{win.fu}符{han}飜" + points_text
        code = 0
    return WrittenWin(
        win=win,
        deltas=[],
        value_text=value_text,
        yaku_strings=strings,
        mjlog_yaku=mjlog_yaku,
        mjlog_yakuman=[],
        ten=(win.fu or 30, total, code),
        expected_yaku=tuple(ScoredYaku(name, han=h) for _, _, name, h in parts),
        counts=counts,
    )


# -- tenhou.net/6 JSON --------------------------------------------------------------------------------


def tenhou6_log(record: GameRecord, rng: random.Random, *, source: str = "tenhou") -> dict[str, Any]:
    """``record`` as tenhou.net/6 JSON: Tenhou's own (``source="tenhou"``) or tensoul's for Mahjong Soul."""
    hands = written_hands(record, rng, source)
    east = record.rules.length == "tonpuusen"
    log = [_tenhou6_hand(w, source, rng) for w in hands]
    final = record.replay().final()
    sc: list[Any] = []
    for seat in range(4):
        sc += [final.scores[seat], final.results[seat] / 1000]
    if source == "mahjongsoul":
        disp = f"銅の間{'東' if east else '南'}喰赤"
        ref = f"240101-{rng.getrandbits(32):08x}-0000-4000-8000-{rng.getrandbits(48):012x}"
        aka = {"aka53": 1, "aka52": 1, "aka51": 1}
    else:
        disp = f"般{'東' if east else '南'}喰赤"
        ref = f"2024010112gm-00{'e1' if east else 'a9'}-0000-{rng.getrandbits(32):08x}"
        aka = {"aka": 1}
    return {
        "ver": 2.3,
        "ref": ref,
        "title": ["", ""],
        "name": list(record.players or ("A", "B", "C", "D")),
        "rule": {"disp": disp, **aka},
        "lobby": 0,
        "log": log,
        "sc": sc,
    }


def _discards(seat: int, w: WrittenHand, rng: random.Random) -> list[Any]:
    """A seat's discards: tsumogiri (60) and tiles, with an ``r`` mark where riichi was declared."""
    discards: list[Any] = [rng.choice([11, 23, 35, 41, 60]) for _ in range(rng.randint(2, 8))]
    declared = seat in w.hand.riichi or seat == w.unpaid_riichi
    if not declared:
        return discards
    if seat == w.unpaid_riichi:
        discards.append(f"r{rng.choice([13, 27, 39, 60])}")  # the ronned discard: last
    else:
        discards.insert(rng.randrange(len(discards)), f"r{rng.choice([15, 60])}")
        if w.hand.result == RON and seat == w.hand.loser:
            discards.append(60)  # the ron came later, on another discard
    return discards


def _tenhou6_hand(w: WrittenHand, source: str, rng: random.Random) -> list[Any]:
    o = w.outcome
    entry: list[Any] = [[o.deal, o.honba, o.sticks], list(w.start), [rng.randint(11, 47)], []]
    for seat in range(4):
        entry += [[11, 12, 13, 21, 22, 23, 31, 32, 33, 41, 42, 43, 44], [12, 22], _discards(seat, w, rng)]
    hand = w.hand
    if hand.result in (RON, TSUMO):
        result: list[Any] = ["和了"]
        for ww in w.wins:
            frm = ww.win.winner if hand.result == TSUMO else hand.loser
            pao = ww.win.pao if ww.win.pao is not None else ww.win.winner
            result += [ww.deltas, [ww.win.winner, frm, pao, ww.value_text, *ww.yaku_strings]]
    elif hand.result == DRAW and hand.nagashi:
        result = ["流し満貫", w.deltas]
    elif hand.result == DRAW:
        result = [w.zero_draw_name] if w.zero_draw_name != "流局" else ["流局", w.deltas]
    else:
        assert hand.result == ABORT
        result = [ABORT_NAMES[source][hand.reason or "nine_terminals"]]
    entry.append(result)
    return entry


# -- mjlog XML -------------------------------------------------------------------------------------------


def mjlog_xml(record: GameRecord, rng: random.Random) -> str:
    """``record`` as Tenhou's mjlog XML (scores in hundreds, names URL-encoded)."""
    hands = written_hands(record, rng)
    game_type = 0x01 | (0x08 if record.rules.length == "hanchan" else 0) | (0x20 | 0x80)
    names = record.players or ("A", "B", "C", "D")
    parts = [
        '<mjloggm ver="2.3">',
        '<SHUFFLE seed="mt19937ar-sha512-n288-base64,x" ref=""/>',
        f'<GO type="{game_type}" lobby="0"/>',
        "<UN " + " ".join(f"n{s}={quoteattr(quote(names[s]))}" for s in range(4)) + ' dan="0,0,0,0"/>',
        '<TAIKYOKU oya="0"/>',
    ]
    final = record.replay().final()
    owari = ",".join(f"{final.scores[s] // 100},{final.results[s] / 1000:.1f}" for s in range(4))
    for index, w in enumerate(hands):
        last = index == len(hands) - 1
        parts += _mjlog_hand(w, owari if last else None)
    parts.append("</mjloggm>")
    return "\n".join(parts)


def _hundreds(values: list[int]) -> str:
    return ",".join(str(v // 100) for v in values)


def _mjlog_hand(w: WrittenHand, owari: str | None) -> list[str]:
    o, hand = w.outcome, w.hand
    out = [
        f'<INIT seed="{o.deal},{o.honba},{o.sticks},0,0,52" ten="{_hundreds(w.start)}" oya="{o.dealer}" '
        'hai0="0,1,2" hai1="3,4,5" hai2="6,7,8" hai3="9,10,11"/>',
        "<T12/><D12/>",
    ]
    scores = list(w.start)
    for seat in sorted(hand.riichi):
        scores[seat] -= 1000
        out.append(f'<REACH who="{seat}" step="1"/><D60/>')
        out.append(f'<REACH who="{seat}" ten="{_hundreds(scores)}" step="2"/>')
    if w.unpaid_riichi is not None:
        out.append(f'<REACH who="{w.unpaid_riichi}" step="1"/>')  # ronned: never reaches step 2
    ba = f"{o.honba},{o.sticks + len(hand.riichi)}"
    if hand.result in (RON, TSUMO):
        for index, ww in enumerate(w.wins):
            frm = ww.win.winner if hand.result == TSUMO else hand.loser
            sc = ",".join(f"{scores[s] // 100},{ww.deltas[s] // 100}" for s in range(4))
            attrs = [
                f'ba="{ba}"',
                'hai="0,1,2,3,4,5,6,7,8,9,10,11,12,13"',
                f'ten="{",".join(map(str, ww.ten))}"',
            ]
            if ww.mjlog_yakuman:
                attrs.append(f'yakuman="{",".join(map(str, ww.mjlog_yakuman))}"')
            else:
                attrs.append(f'yaku="{",".join(f"{i},{h}" for i, h in ww.mjlog_yaku)}"')
            attrs += [f'doraHai="52" who="{ww.win.winner}" fromWho="{frm}"']
            if ww.win.pao is not None:
                attrs.append(f'paoWho="{ww.win.pao}"')
            attrs.append(f'sc="{sc}"')
            if owari is not None and index == len(w.wins) - 1:
                attrs.append(f'owari="{owari}"')
            out.append("<AGARI " + " ".join(attrs) + "/>")
        return out
    sc = ",".join(f"{scores[s] // 100},{w.deltas[s] // 100}" for s in range(4))
    attrs = [f'ba="{ba}"', f'sc="{sc}"']
    if hand.result == ABORT:
        attrs.append(f'type="{MJLOG_ABORTS[hand.reason or "nine_terminals"]}"')
    else:
        if hand.nagashi:
            attrs.append('type="nm"')
        attrs += [f'hai{s}="0,1,2,3"' for s in sorted(hand.tenpai)]
    if owari is not None:
        attrs.append(f'owari="{owari}"')
    out.append("<RYUUKYOKU " + " ".join(attrs) + "/>")
    return out
