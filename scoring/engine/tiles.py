"""Score a winning hand written as tiles: han, fu, yaku and the fu breakdown, via the ``mahjong`` package.

Organisers mostly enter a win as han and fu; this adapter is for the case where they would rather write the
tiles and let the program count. It is the only place that talks to the third-party library, so that a
change in its API (2.x differs from 1.x) or one of its quirks stays here, and every problem it reports comes
out as a :class:`~scoring.engine.errors.TileError` in words a club organiser understands.

Notation
--------
Tiles are written in MPSZ notation: the numbers, then the suit letter. ``m`` man (characters), ``p`` pin
(circles), ``s`` sou (bamboo), ``z`` honours: ``1z``-``4z`` the winds East, South, West, North, ``5z``-``7z``
the dragons white (haku), green (hatsu), red (chun). ``0`` is a red five (``0p``). Groups may come in any
order and may be separated by spaces: ``"123m 456p 789s 11z"``.

* ``tiles`` holds only the concealed part of the hand, winning tile included. Called or declared sets are
  not repeated there: with one meld the concealed part has 11 tiles, with four melds 2.
* ``melds`` lists the called and declared sets, one string each, ``KIND:TILES``:

  - ``chi:123m`` a called run, ``pon:555z`` a called triplet;
  - ``kan:1111p`` an open kan, called from a discard or added to a pon (daiminkan and shouminkan score the
    same, so one word covers both; ``daiminkan``, ``minkan``, ``shouminkan`` and ``kakan`` are accepted);
  - ``ankan:9999s`` a closed (concealed) kan, which keeps the hand closed.

* ``win_tile`` is one tile, which must be in ``tiles`` (a winning tile always completes the concealed part,
  even when it is a discard that makes a triplet).
* ``dora_indicators`` / ``ura_dora_indicators`` are the tiles turned over, not the dora they point at.

Red fives count as dora only when the ruleset plays with them (``red_fives > 0``); under a ruleset without
red fives a ``0`` is simply a five. With red fives in play the set has one red five per suit, or with
``red_fives = 4`` two red 5p, so a hand with four plain fives of a suit is refused (one of them must be red).

Results
-------
Exactly one of ``han`` and ``yakuman`` is non-zero. A yakuman hand has ``han == fu == 0``, no fu breakdown
and the yakuman multiplier (always 1 unless the ruleset lets yakuman stack; a 13-sided kokushi or a four
concealed triplets pair wait is then double). A hand of 13 han or more without a yakuman (kazoe) is reported
with its real han and ``yakuman == 0``: whether it is paid as a yakuman or as sanbaiman is the ruleset's
``kazoe_limit``, applied where han become points (``value.py``), the same as for a hand entered as han/fu.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from mahjong.constants import EAST
from mahjong.hand_calculating.fu import FuCalculator
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
from mahjong.hand_calculating.hand_response import HandResponse
from mahjong.hand_calculating.yaku import Yaku
from mahjong.meld import Meld

from .errors import Phrase, TileError, gettext_noop
from .hand import ScoredYaku
from .ruleset import Ruleset

HONOUR_NAMES = (
    gettext_noop("East wind"),
    gettext_noop("South wind"),
    gettext_noop("West wind"),
    gettext_noop("North wind"),
    gettext_noop("white dragon"),
    gettext_noop("green dragon"),
    gettext_noop("red dragon"),
)
SUITS = "mpsz"

# Meld words of the notation -> (library meld type, open?)
_MELD_KINDS: dict[str, tuple[str, bool]] = {
    "chi": (Meld.CHI, True),
    "pon": (Meld.PON, True),
    "kan": (Meld.KAN, True),
    "daiminkan": (Meld.KAN, True),
    "minkan": (Meld.KAN, True),
    "shouminkan": (Meld.KAN, True),
    "kakan": (Meld.KAN, True),
    "ankan": (Meld.KAN, False),
}

_NOTATION_RE = re.compile(r"(?:[0-9]+[mpsz])+")

# Messages for the library's error codes. Most of the checks behind them are about flags that contradict
# each other; the library finds them, we only say what they mean.
_LIBRARY_ERRORS = {
    HandCalculator.ERR_NO_WINNING_TILE: gettext_noop("the winning tile is not in the hand"),
    HandCalculator.ERR_HAND_NOT_WINNING: gettext_noop(
        "the tiles do not form a winning hand (four sets and a pair, seven pairs, or thirteen orphans)"
    ),
    HandCalculator.ERR_NO_YAKU: gettext_noop(
        "no yaku: the hand is complete but has no yaku (dora alone are not a yaku)"
    ),
    HandCalculator.ERR_OPEN_HAND_RIICHI: gettext_noop(
        "riichi needs a closed hand, but the hand has an open meld"
    ),
    HandCalculator.ERR_OPEN_HAND_DABURI: gettext_noop(
        "double riichi needs a closed hand, but the hand has an open meld"
    ),
    HandCalculator.ERR_IPPATSU_WITHOUT_RIICHI: gettext_noop("ippatsu needs riichi or double riichi"),
    HandCalculator.ERR_CHANKAN_WITH_TSUMO: gettext_noop("chankan (robbing a kan) is a ron, not a tsumo"),
    HandCalculator.ERR_RINSHAN_WITHOUT_TSUMO: gettext_noop(
        "rinshan kaihou (a win on the tile drawn after a kan) is a tsumo, not a ron"
    ),
    HandCalculator.ERR_HAITEI_WITHOUT_TSUMO: gettext_noop(
        "haitei is a tsumo on the last tile; a ron on the last discard is houtei"
    ),
    HandCalculator.ERR_HOUTEI_WITH_TSUMO: gettext_noop(
        "houtei is a ron on the last discard; a tsumo on the last tile is haitei"
    ),
    HandCalculator.ERR_HAITEI_WITH_RINSHAN: gettext_noop(
        "haitei and rinshan kaihou cannot both apply to one win"
    ),
    HandCalculator.ERR_HOUTEI_WITH_CHANKAN: gettext_noop("houtei and chankan cannot both apply to one win"),
    HandCalculator.ERR_TENHOU_NOT_AS_DEALER: gettext_noop(
        "tenhou is a dealer's win: the seat wind must be East"
    ),
    HandCalculator.ERR_TENHOU_WITHOUT_TSUMO: gettext_noop(
        "tenhou is a win on the first draw, so it is a tsumo"
    ),
    HandCalculator.ERR_TENHOU_WITH_MELD: gettext_noop(
        "tenhou is a win on the first draw, so the hand has no melds"
    ),
    HandCalculator.ERR_CHIIHOU_AS_DEALER: gettext_noop(
        "chiihou is a non-dealer's win (the dealer's is tenhou): the seat wind cannot be East"
    ),
    HandCalculator.ERR_CHIIHOU_WITHOUT_TSUMO: gettext_noop(
        "chiihou is a win on the first draw, so it is a tsumo"
    ),
    HandCalculator.ERR_CHIIHOU_WITH_MELD: gettext_noop(
        "chiihou is a win on the first draw, so the hand has no melds"
    ),
}

# Fu reasons of the library -> words on a score sheet.
_FU_LABELS = {
    FuCalculator.PENCHAN: gettext_noop("Edge wait (penchan)"),
    FuCalculator.KANCHAN: gettext_noop("Closed wait (kanchan)"),
    FuCalculator.VALUED_PAIR: gettext_noop("Pair of dragons or own/round wind"),
    FuCalculator.DOUBLE_VALUED_PAIR: gettext_noop("Pair of wind that is own and round wind"),
    FuCalculator.PAIR_WAIT: gettext_noop("Pair wait (tanki)"),
    FuCalculator.TSUMO: gettext_noop("Tsumo"),
    FuCalculator.HAND_WITHOUT_FU: gettext_noop("Open hand without fu"),
    FuCalculator.CLOSED_PON: gettext_noop("Closed pon of simples"),
    FuCalculator.OPEN_PON: gettext_noop("Open pon of simples"),
    FuCalculator.CLOSED_TERMINAL_PON: gettext_noop("Closed pon of terminals or honours"),
    FuCalculator.OPEN_TERMINAL_PON: gettext_noop("Open pon of terminals or honours"),
    FuCalculator.CLOSED_KAN: gettext_noop("Closed kan of simples"),
    FuCalculator.OPEN_KAN: gettext_noop("Open kan of simples"),
    FuCalculator.CLOSED_TERMINAL_KAN: gettext_noop("Closed kan of terminals or honours"),
    FuCalculator.OPEN_TERMINAL_KAN: gettext_noop("Open kan of terminals or honours"),
}
_BASE_LABELS = {
    20: gettext_noop("Base"),
    25: gettext_noop("Base (seven pairs)"),
    30: gettext_noop("Base (closed ron)"),
}

# Library yaku names that read badly on a score sheet.
_YAKU_NAMES = {"Kokushi Musou Juusanmen Matchi": "Kokushi Musou 13-sided wait"}

# The library's yaku classes -> the romaji names of Tenbou's yaku table (``logs/yaku.py``), so that a hand
# entered as tiles stores the same names as an online log or the yaku picker. Keyed by class name: the
# library's display names changed between releases, its classes did not.
LIBRARY_YAKU = {
    "Tsumo": "menzen_tsumo",
    "Riichi": "riichi",
    "DaburuRiichi": "double_riichi",
    "Ippatsu": "ippatsu",
    "Chankan": "chankan",
    "Rinshan": "rinshan_kaihou",
    "Haitei": "haitei_raoyue",
    "Houtei": "houtei_raoyui",
    "Renhou": "renhou",
    "RenhouYakuman": "renhou",
    "Pinfu": "pinfu",
    "Tanyao": "tanyao",
    "Iipeiko": "iipeikou",
    "Haku": "haku",
    "Hatsu": "hatsu",
    "Chun": "chun",
    "SeatWindEast": "jikaze_ton",
    "SeatWindSouth": "jikaze_nan",
    "SeatWindWest": "jikaze_shaa",
    "SeatWindNorth": "jikaze_pei",
    "RoundWindEast": "bakaze_ton",
    "RoundWindSouth": "bakaze_nan",
    "RoundWindWest": "bakaze_shaa",
    "RoundWindNorth": "bakaze_pei",
    "Sanshoku": "sanshoku_doujun",
    "Ittsu": "ittsu",
    "Chantai": "chanta",
    "Honroto": "honroutou",
    "Toitoi": "toitoi",
    "Sanankou": "sanankou",
    "SanKantsu": "sankantsu",
    "SanshokuDoukou": "sanshoku_doukou",
    "Chiitoitsu": "chiitoitsu",
    "Shosangen": "shousangen",
    "Honitsu": "honitsu",
    "Junchan": "junchan",
    "Ryanpeikou": "ryanpeikou",
    "Chinitsu": "chinitsu",
    "KokushiMusou": "kokushi_musou",
    "DaburuKokushiMusou": "kokushi_musou_13",
    "ChuurenPoutou": "chuuren_poutou",
    "DaburuChuurenPoutou": "junsei_chuuren_poutou",
    "Suuankou": "suuankou",
    "SuuankouTanki": "suuankou_tanki",
    "Daisangen": "daisangen",
    "Shousuushii": "shousuushii",
    "DaiSuushii": "daisuushii",
    "Ryuuiisou": "ryuuiisou",
    "Suukantsu": "suukantsu",
    "Tsuuiisou": "tsuuiisou",
    "Chinroutou": "chinroutou",
    "Tenhou": "tenhou",
    "Chiihou": "chiihou",
    "Daisharin": "daisharin",
    "Daichisei": "daichisei",
    "Paarenchan": "paarenchan",
}
_DORA_KINDS = {"Dora": "dora", "AkaDora": "aka", "UraDora": "ura"}


@dataclass(frozen=True, slots=True)
class TileHand:
    """A winning hand as tiles, and how it was won (see the module docstring for the notation)."""

    tiles: str
    win_tile: str
    melds: tuple[str, ...] = ()
    dora_indicators: str = ""
    ura_dora_indicators: str = ""
    tsumo: bool = False
    riichi: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    haitei: bool = False
    houtei: bool = False
    rinshan: bool = False
    chankan: bool = False
    tenhou: bool = False
    chiihou: bool = False
    seat_wind: int = 0
    round_wind: int = 0


@dataclass(frozen=True, slots=True)
class TileScore:
    """What the tiles are worth: ``han`` (dora included) and ``fu``, or a ``yakuman`` multiplier.

    Exactly one of ``han`` and ``yakuman`` is non-zero; ``han`` may be 13 or more (kazoe), which the ruleset
    caps where han become points. ``yaku`` names each yaku with its han (``"Riichi 1"``, ``"Dora 2"``) or,
    for yakuman, its size (``"Daisangen yakuman"``). ``fu_details`` lists the fu before rounding up to ``fu``.

    ``scored``, ``dora``, ``aka`` and ``ura`` are the same facts as a win stores them (``engine.Win``):
    the yaku by their romaji names with their han (or yakuman count), and the dora, red fives and ura dora
    counted apart, as online logs give them. ``scored`` is None if the library named a yaku the yaku table
    does not know (a local yaku of a newer release): better unknown than a list that does not add up.
    """

    han: int
    fu: int
    yakuman: int
    yaku: tuple[str, ...]
    fu_details: tuple[tuple[str, int], ...]
    scored: tuple[ScoredYaku, ...] | None = ()
    dora: int = 0
    aka: int = 0
    ura: int = 0


# -- notation -----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Tile:
    """One tile: its kind in the library's 34-format and whether it is a red five."""

    kind: int  # 0-33, the library's 34-format index
    red: bool

    @property
    def name(self) -> str:
        return tile_name(self.kind, red=self.red)


def tile_name(kind: int, *, red: bool = False) -> str:
    """``5m``, ``0p`` or ``1z`` for a tile in the library's 34-format (0-8 man, 9-17 pin, 18-26 sou…)."""
    suit, number = divmod(kind, 9)
    return f"{0 if red else number + 1}{SUITS[suit]}"


def _described(kind: int) -> str | Phrase:
    """A tile's name, with the honour spelled out because ``6z`` means little to most players."""
    name = tile_name(kind)
    if kind < 27:
        return name
    return Phrase(
        gettext_noop("{tile} ({honour})"), params={"tile": name, "honour": Phrase(HONOUR_NAMES[kind - 27])}
    )


def parse_tiles(text: str, *, field: str = "tiles") -> list[Tile]:
    """Tiles of an MPSZ string, in order; a ``TileError`` on ``field`` for anything else."""
    if not isinstance(text, str):
        raise TileError(
            gettext_noop("{field}: expected tiles written as text, like 123m, not {value}"),
            field=field,
            params={"field": field, "value": repr(text)},
        )
    compact = "".join(text.split()).lower()
    if not compact:
        return []
    if not _NOTATION_RE.fullmatch(compact):
        raise TileError(
            gettext_noop(
                "bad tile notation {value}: write the numbers, then the suit (m, p, s or z), like "
                "123m456p789s11z; 0 is a red five"
            ),
            field=field,
            params={"value": repr(text.strip())},
        )
    out: list[Tile] = []
    for digits, suit in re.findall(r"([0-9]+)([mpsz])", compact):
        offset = SUITS.index(suit) * 9
        for ch in digits:
            number = int(ch)
            if suit == "z" and not 1 <= number <= 7:
                raise TileError(
                    gettext_noop(
                        "bad tile notation {value}: honours are 1z-7z (1-4 winds East South West North, 5-7 "
                        "dragons white green red)"
                    ),
                    field=field,
                    params={"value": repr(text.strip())},
                )
            red = number == 0
            out.append(Tile(offset + (4 if red else number - 1), red))
    return out


@dataclass(frozen=True, slots=True)
class _Meld:
    kind: str  # library meld type
    opened: bool
    tiles: list[Tile]


def _parse_meld(text: str) -> _Meld:
    if not isinstance(text, str) or ":" not in text:
        raise TileError(
            gettext_noop(
                "bad meld notation {meld}: write chi:123m, pon:555z, kan:1111p (open kan) or ankan:9999s "
                "(closed kan)"
            ),
            field="melds",
            params={"meld": repr(text)},
        )
    word, _, written = text.partition(":")
    word = word.strip().lower()
    if word not in _MELD_KINDS:
        raise TileError(
            gettext_noop(
                "bad meld notation {meld}: unknown kind {kind}; write chi:123m, pon:555z, kan:1111p (open "
                "kan) or ankan:9999s (closed kan)"
            ),
            field="melds",
            params={"meld": repr(text), "kind": repr(word)},
        )
    meld_type, opened = _MELD_KINDS[word]
    try:
        tiles = parse_tiles(written, field="melds")
    except TileError as exc:
        raise TileError(
            gettext_noop("meld {meld}: {error}"), field="melds", params={"meld": repr(text), "error": exc}
        ) from None
    kinds = sorted(t.kind for t in tiles)
    if meld_type == Meld.CHI:
        ok = (
            len(kinds) == 3
            and kinds[0] < 27
            and kinds[0] // 9 == kinds[2] // 9
            and kinds == [kinds[0], kinds[0] + 1, kinds[0] + 2]
        )
        if not ok:
            raise TileError(
                gettext_noop("meld {meld}: chi needs three tiles in a row of one suit, like chi:345p"),
                field="melds",
                params={"meld": repr(text)},
            )
    else:
        size = 3 if meld_type == Meld.PON else 4
        if len(kinds) != size or len(set(kinds)) != 1:
            example = "pon:555z" if size == 3 else f"{word}:1111p"
            raise TileError(
                gettext_noop("meld {meld}: {kind} needs {size} identical tiles, like {example}"),
                field="melds",
                params={"meld": repr(text), "kind": word, "size": size, "example": example},
            )
    return _Meld(meld_type, opened, tiles)


def _meld_texts(melds: tuple[str, ...] | list[str] | str | None) -> list[str]:
    """The meld strings; a single string is split on commas and spaces, a common way to type several."""
    if not melds:
        return []
    if isinstance(melds, str):
        return [m for m in re.split(r"[\s,]+", melds) if m]
    return list(melds)


# -- red fives and tile counts ------------------------------------------------------------------------------


def _reds_in_set(suit: int, red_fives: int) -> int:
    """Red fives of ``suit`` (0 man, 1 pin, 2 sou) in a set with ``red_fives``: two 5p in a set of four."""
    if red_fives <= 0:
        return 0
    return 2 if suit == 1 and red_fives >= 4 else 1


def _check_counts(all_tiles: list[Tile], rules: Ruleset) -> None:
    """No tile more than four times; no more red fives than the set has (hand, melds and indicators)."""
    counts = Counter(t.kind for t in all_tiles)
    for kind, count in sorted(counts.items()):
        if count > 4:
            raise TileError(
                gettext_noop(
                    "more than four {tile}: the hand, its melds and the dora indicators show {count}"
                ),
                field="tiles",
                params={"tile": _described(kind), "count": count},
            )
    if rules.red_fives <= 0:
        return
    reds = Counter(t.kind for t in all_tiles if t.red)
    for kind, count in sorted(reds.items()):
        allowed = _reds_in_set(kind // 9, rules.red_fives)
        if count > allowed:
            raise TileError(
                gettext_noop(
                    "{count} red {tile} but the set has only {allowed} (red fives in play: {red_fives})"
                ),
                field="tiles",
                params={
                    "count": count,
                    "tile": tile_name(kind),
                    "allowed": allowed,
                    "red_fives": rules.red_fives,
                },
            )
    if sum(reds.values()) > rules.red_fives:
        raise TileError(
            gettext_noop("{count} red fives, but the set has only {red_fives}"),
            field="tiles",
            params={"count": sum(reds.values()), "red_fives": rules.red_fives},
        )
    for kind in (4, 13, 22):
        plain = counts[kind] - reds[kind]
        if rules.red_fives >= 3 and plain > 4 - _reds_in_set(kind // 9, rules.red_fives):
            raise TileError(
                gettext_noop(
                    "{count} plain {tile}, but with red fives in play one of the four is red: write it as "
                    "{red}"
                ),
                field="tiles",
                params={"count": plain, "tile": tile_name(kind), "red": tile_name(kind, red=True)},
            )


class _Indexer:
    """Gives each tile of the hand its own 136-format index, as the library wants.

    The library knows a red five only by its index (the first of the four copies of a five), and knows one
    red five per suit. With red fives in play, plain fives take the other three indices. What the library
    cannot see is kept in ``red_correction`` for :func:`score_tiles` to add to the red-five dora: +1 for the
    second red 5p of a four-red set, -1 when four plain fives leave a plain five on the red five's index
    (possible only with one or two red fives in the set).
    """

    def __init__(self, aka: bool) -> None:
        self.aka = aka
        self.taken: set[int] = set()
        self.red_correction = 0

    def index(self, tile: Tile) -> int:
        base = tile.kind * 4
        free = [base + i for i in range(4) if base + i not in self.taken]
        if self.aka and tile.kind in (4, 13, 22):
            red_free = base in free
            if tile.red and red_free:
                free = [base]
            elif len(free) > 1:
                free = [i for i in free if i != base]
            if tile.red and not red_free:
                self.red_correction += 1
            elif not tile.red and free[0] == base:
                self.red_correction -= 1
        self.taken.add(free[0])
        return free[0]


# -- scoring -------------------------------------------------------------------------------------------------


def _options(rules: Ruleset) -> OptionalRules:
    """The library's optional rules for ``rules``: a new object for every call, as the library changes it."""
    return OptionalRules(
        has_open_tanyao=rules.open_tanyao,
        has_aka_dora=rules.red_fives > 0,
        has_double_yakuman=rules.yakuman_stacking,
        kazoe_limit=(
            HandConstants.KAZOE_LIMITED if rules.kazoe_limit == "yakuman" else HandConstants.KAZOE_SANBAIMAN
        ),
        kiriage=rules.kiriage,
        fu_for_open_pinfu=True,
        fu_for_pinfu_tsumo=False,
    )


def _wind(value: int, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 3:
        raise TileError(
            gettext_noop("seat wind must be 0-3 (East, South, West, North), not {value}")
            if field == "seat_wind"
            else gettext_noop("round wind must be 0-3 (East, South, West, North), not {value}"),
            field=field,
            params={"value": repr(value)},
        )
    return EAST + value


def score_tiles(hand: TileHand, rules: Ruleset) -> TileScore:
    """Han, fu, yaku and fu breakdown of ``hand`` under ``rules``; a ``TileError`` if it cannot be scored.

    The library picks the most valuable reading of the tiles (for example 3 han 40 fu over 2 han 50 fu);
    ties in value go to the reading with more han.
    """
    # Notation and tile counts first, so a typing mistake is reported as such, not as "not a winning hand".
    concealed = parse_tiles(hand.tiles, field="tiles")
    melds = [_parse_meld(m) for m in _meld_texts(hand.melds)]
    win = parse_tiles(hand.win_tile, field="win_tile")
    if len(win) != 1:
        raise TileError(
            gettext_noop("the winning tile must be one tile, like 5p, not {value}"),
            field="win_tile",
            params={"value": repr(hand.win_tile)},
        )
    dora = parse_tiles(hand.dora_indicators, field="dora_indicators")
    ura = parse_tiles(hand.ura_dora_indicators, field="ura_dora_indicators")
    seat_wind = _wind(hand.seat_wind, "seat_wind")
    round_wind = _wind(hand.round_wind, "round_wind")

    size = len(concealed) + 3 * len(melds)
    if size != 14:
        quads = [k for k, n in Counter(t.kind for t in concealed).items() if n == 4]
        if size > 14 and quads:
            number, suit = tile_name(quads[0])
            raise TileError(
                gettext_noop(
                    "hand has {size} tiles; a winning hand needs 14 (counting each kan as 3) (a kan goes in "
                    "melds, like ankan:{kan})"
                ),
                field="tiles",
                params={"size": size, "kan": f"{number * 4}{suit}"},
            )
        if size == 13:
            # The commonest slip: the 13 tiles held before winning, with the winning tile only beside them.
            raise TileError(
                gettext_noop(
                    "hand has {size} tiles; a winning hand needs 14 (counting each kan as 3): the tiles "
                    "include the winning tile, so add {tile} to them"
                ),
                field="tiles",
                params={"size": size, "tile": win[0].name},
            )
        raise TileError(
            gettext_noop("hand has {size} tiles; a winning hand needs 14 (counting each kan as 3)"),
            field="tiles",
            params={"size": size},
        )
    win_tile = win[0]
    if not any(t.kind == win_tile.kind for t in concealed):
        raise TileError(
            gettext_noop("winning tile {tile} is not in the hand"),
            field="win_tile",
            params={"tile": win_tile.name},
        )
    if len(dora) > 5:
        raise TileError(
            gettext_noop("{count} dora indicators; there are at most 5 (one and one per kan)"),
            field="dora_indicators",
            params={"count": len(dora)},
        )
    if len(ura) > 5:
        raise TileError(
            gettext_noop("{count} ura dora indicators; there are at most 5 (one and one per kan)"),
            field="ura_dora_indicators",
            params={"count": len(ura)},
        )
    if ura and not (hand.riichi or hand.double_riichi):
        raise TileError(
            gettext_noop("ura dora indicators are turned over only for a riichi hand"),
            field="ura_dora_indicators",
        )
    if hand.rinshan and not any(len(m.tiles) == 4 for m in melds):
        raise TileError(
            gettext_noop("rinshan kaihou is a win on the tile drawn after a kan, but the hand has no kan"),
            field="melds",
        )
    in_play = concealed + [t for m in melds for t in m.tiles]
    _check_counts(in_play + dora + ura, rules)

    aka = rules.red_fives > 0
    indexer = _Indexer(aka)
    meld_objects = [
        Meld(meld_type=m.kind, tiles=[indexer.index(t) for t in m.tiles], opened=m.opened) for m in melds
    ]
    concealed_136 = [indexer.index(t) for t in concealed]
    # Prefer the copy written like the winning tile (red or not); the library only needs its kind.
    same_kind = [(t, i) for t, i in zip(concealed, concealed_136, strict=True) if t.kind == win_tile.kind]
    win_136 = next((i for t, i in same_kind if t.red == win_tile.red), same_kind[0][1])
    all_136 = concealed_136 + [i for m in meld_objects for i in m.tiles]

    config = HandConfig(
        is_tsumo=hand.tsumo,
        is_riichi=hand.riichi or hand.double_riichi,
        is_daburu_riichi=hand.double_riichi,
        is_ippatsu=hand.ippatsu,
        is_haitei=hand.haitei,
        is_houtei=hand.houtei,
        is_rinshan=hand.rinshan,
        is_chankan=hand.chankan,
        is_tenhou=hand.tenhou,
        is_chiihou=hand.chiihou,
        player_wind=seat_wind,
        round_wind=round_wind,
        options=_options(rules),
    )
    try:
        result = HandCalculator.estimate_hand_value(
            all_136,
            win_136,
            melds=meld_objects,
            dora_indicators=[t.kind * 4 for t in dora],
            ura_dora_indicators=[t.kind * 4 for t in ura],
            config=config,
        )
    except Exception as exc:  # the library is not ours: none of its exceptions may reach a user
        raise TileError(
            gettext_noop("the hand could not be scored ({error})"),
            field="tiles",
            params={"error": f"{type(exc).__name__}: {exc}"},
        ) from exc

    if result.error:
        if result.error == HandCalculator.ERR_NO_WINNING_TILE:
            raise TileError(
                gettext_noop("winning tile {tile} is not in the hand"), params={"tile": win_tile.name}
            )
        if result.error in _LIBRARY_ERRORS:
            raise TileError(_LIBRARY_ERRORS[result.error])
        raise TileError(
            gettext_noop("the hand cannot be scored ({error})"), params={"error": str(result.error)}
        )
    return _score(result, indexer.red_correction, rules)


def _score(result: HandResponse, red_correction: int, rules: Ruleset) -> TileScore:
    """The library's answer as a :class:`TileScore` (yaku in words, yakuman as a multiplier)."""
    yaku_list = list(result.yaku or [])
    is_open = bool(result.is_open_hand)

    def han_of(item: Yaku) -> int:
        # The rule the library itself uses to add up han.
        return item.han_open if is_open and item.han_open else item.han_closed

    yakuman_items = [y for y in yaku_list if y.is_yakuman]
    if yakuman_items:
        names = []
        for y in yakuman_items:
            multiple = han_of(y) // 13 if rules.yakuman_stacking else 1
            label = {1: "yakuman", 2: "double yakuman"}.get(multiple, f"{multiple}x yakuman")
            names.append(f"{_YAKU_NAMES.get(y.name, y.name)} {label}")
        size = sum(han_of(y) for y in yakuman_items) // 13 if rules.yakuman_stacking else 1
        scored = _scored(
            [(y, han_of(y) // 13 if rules.yakuman_stacking else 1) for y in yakuman_items], yakuman=True
        )
        return TileScore(han=0, fu=0, yakuman=max(1, size), yaku=tuple(names), fu_details=(), scored=scored)

    counted = [(y.name, han_of(y)) for y in yaku_list]
    if sum(h for _, h in counted) != result.han:  # pragma: no cover - a change in the library
        raise TileError(gettext_noop("the hand could not be scored (the yaku do not add up to the han)"))
    if red_correction:
        aka = next((h for name, h in counted if name == "Aka Dora"), 0) + red_correction
        counted = [(name, h) for name, h in counted if name != "Aka Dora"]
        if aka:
            counted.append(("Aka Dora", aka))
    names = tuple(f"{_YAKU_NAMES.get(name, name)} {h}" for name, h in counted)
    kinds = {"dora": 0, "aka": red_correction, "ura": 0}
    plain: list[tuple[Yaku, int]] = []
    for item in yaku_list:
        kind = _DORA_KINDS.get(type(item).__name__)
        if kind:
            kinds[kind] += han_of(item)
        else:
            plain.append((item, han_of(item)))

    details = []
    for item in result.fu_details or []:
        reason, fu = item["reason"], item["fu"]
        if reason == FuCalculator.BASE:
            label = _BASE_LABELS.get(fu, "Base")
        else:
            label = _FU_LABELS.get(reason, reason)
        details.append((label, fu))
    details.sort(key=lambda d: not d[0].startswith("Base"))  # base first, then the library's order
    return TileScore(
        han=sum(h for _, h in counted),
        fu=result.fu,
        yakuman=0,
        yaku=names,
        fu_details=tuple(details),
        scored=_scored(plain, yakuman=False),
        dora=kinds["dora"],
        aka=kinds["aka"],
        ura=kinds["ura"],
    )


def _scored(items: list[tuple[Yaku, int]], *, yakuman: bool) -> tuple[ScoredYaku, ...] | None:
    """The library's yaku as the win stores them: romaji names with their han (or yakuman count); None
    if one of them is not in Tenbou's yaku table."""
    out = []
    for item, count in items:
        name = LIBRARY_YAKU.get(type(item).__name__)
        if name is None:
            return None
        out.append(ScoredYaku(name=name, yakuman=count) if yakuman else ScoredYaku(name=name, han=count))
    return tuple(out)
