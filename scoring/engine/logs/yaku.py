"""The yaku table: romaji names (the game record's), English meanings, and how online logs spell them.

One table for everything that names a yaku: the record reader accepts exactly these names, both log
parsers map Tenhou's numeric ids (mjlog) and the Japanese names of tenhou.net/6 JSON (Tenhou's own
spelling and Mahjong Soul's, as tensoul writes them) onto them, and the web's yaku picker can list them
with their usual han. Dora, red fives and ura dora are counted by the logs like yaku but are not yaku:
a win records them as counts (``dora``, ``aka``, ``ura``), never in its yaku list.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

# The English meanings are marked for the catalogues, not translated here (the engine knows no Django nor
# the visitor's language): the web translates a yaku's ``english`` where it shows it
# (``gettext(yaku.english)``). The romaji names are the same in every language.
from ..errors import gettext_noop

ORDINARY = "yaku"
YAKUMAN = "yakuman"
LOCAL = "local"
"""A yaku of Mahjong Soul's optional local rules, not played under any of Tenbou's presets."""


@dataclass(frozen=True, slots=True)
class Yaku:
    """One yaku. ``han_open`` is 0 when the yaku needs a closed hand; a yakuman has no han but counts
    as ``yakuman`` yakuman (a few count double on Mahjong Soul: :data:`MAHJONGSOUL_DOUBLE`)."""

    name: str
    english: str
    japanese: str
    tenhou_id: int | None = None
    han_closed: int = 0
    han_open: int = 0
    yakuman: int = 0
    kind: str = ORDINARY
    aliases: tuple[str, ...] = ()

    @property
    def is_yakuman(self) -> bool:
        return self.yakuman > 0


def _y(
    name: str, english: str, japanese: str, tenhou_id: int | None, closed: int, opened: int, *aliases: str
) -> Yaku:
    return Yaku(name, english, japanese, tenhou_id, closed, opened, aliases=aliases)


def _ym(
    name: str, english: str, japanese: str, tenhou_id: int | None, *aliases: str, kind: str = YAKUMAN
) -> Yaku:
    return Yaku(name, english, japanese, tenhou_id, yakuman=1, kind=kind, aliases=aliases)


YAKU: tuple[Yaku, ...] = (
    _y("menzen_tsumo", gettext_noop("Fully concealed hand (self-draw)"), "門前清自摸和", 0, 1, 0),
    _y("riichi", gettext_noop("Riichi"), "立直", 1, 1, 0),
    _y("ippatsu", gettext_noop("One shot"), "一発", 2, 1, 0),
    _y("chankan", gettext_noop("Robbing a kan"), "槍槓", 3, 1, 1),
    _y("rinshan_kaihou", gettext_noop("After a kan"), "嶺上開花", 4, 1, 1),
    _y("haitei_raoyue", gettext_noop("Under the sea (last tile drawn)"), "海底摸月", 5, 1, 1),
    _y("houtei_raoyui", gettext_noop("Under the river (last tile discarded)"), "河底撈魚", 6, 1, 1),
    _y("pinfu", gettext_noop("All sequences (no-points hand)"), "平和", 7, 1, 0),
    _y("tanyao", gettext_noop("All simples"), "断幺九", 8, 1, 1, "断么九"),
    _y("iipeikou", gettext_noop("Pure double sequence"), "一盃口", 9, 1, 0, "一杯口"),
    _y("jikaze_ton", gettext_noop("Seat wind: East"), "自風 東", 10, 1, 1),
    _y("jikaze_nan", gettext_noop("Seat wind: South"), "自風 南", 11, 1, 1),
    _y("jikaze_shaa", gettext_noop("Seat wind: West"), "自風 西", 12, 1, 1),
    _y("jikaze_pei", gettext_noop("Seat wind: North"), "自風 北", 13, 1, 1),
    _y("bakaze_ton", gettext_noop("Round wind: East"), "場風 東", 14, 1, 1),
    _y("bakaze_nan", gettext_noop("Round wind: South"), "場風 南", 15, 1, 1),
    _y("bakaze_shaa", gettext_noop("Round wind: West"), "場風 西", 16, 1, 1),
    _y("bakaze_pei", gettext_noop("Round wind: North"), "場風 北", 17, 1, 1),
    _y("haku", gettext_noop("White dragon"), "役牌 白", 18, 1, 1, "白"),
    _y("hatsu", gettext_noop("Green dragon"), "役牌 發", 19, 1, 1, "役牌 発", "發", "発"),
    _y("chun", gettext_noop("Red dragon"), "役牌 中", 20, 1, 1, "中"),
    _y("double_riichi", gettext_noop("Double riichi"), "両立直", 21, 2, 0, "ダブル立直", "ダブルリーチ"),
    _y("chiitoitsu", gettext_noop("Seven pairs"), "七対子", 22, 2, 0),
    _y("chanta", gettext_noop("Half outside hand"), "混全帯幺九", 23, 2, 1, "混全帯么九"),
    _y("ittsu", gettext_noop("Pure straight"), "一気通貫", 24, 2, 1),
    _y("sanshoku_doujun", gettext_noop("Mixed triple sequence"), "三色同順", 25, 2, 1),
    _y("sanshoku_doukou", gettext_noop("Triple triplets"), "三色同刻", 26, 2, 2),
    _y("sankantsu", gettext_noop("Three quads"), "三槓子", 27, 2, 2),
    _y("toitoi", gettext_noop("All triplets"), "対々和", 28, 2, 2, "対対和"),
    _y("sanankou", gettext_noop("Three concealed triplets"), "三暗刻", 29, 2, 2),
    _y("shousangen", gettext_noop("Little three dragons"), "小三元", 30, 2, 2),
    _y("honroutou", gettext_noop("All terminals and honours"), "混老頭", 31, 2, 2),
    _y("ryanpeikou", gettext_noop("Twice pure double sequence"), "二盃口", 32, 3, 0, "二杯口"),
    _y("junchan", gettext_noop("Fully outside hand"), "純全帯幺九", 33, 3, 2, "純全帯么九"),
    _y("honitsu", gettext_noop("Half flush"), "混一色", 34, 3, 2),
    _y("chinitsu", gettext_noop("Full flush"), "清一色", 35, 6, 5),
    _ym("renhou", gettext_noop("Blessing of man"), "人和", 36),
    _ym("tenhou", gettext_noop("Blessing of heaven"), "天和", 37),
    _ym("chiihou", gettext_noop("Blessing of earth"), "地和", 38),
    _ym("daisangen", gettext_noop("Big three dragons"), "大三元", 39),
    _ym("suuankou", gettext_noop("Four concealed triplets"), "四暗刻", 40),
    _ym("suuankou_tanki", gettext_noop("Four concealed triplets, single wait"), "四暗刻単騎", 41),
    _ym("tsuuiisou", gettext_noop("All honours"), "字一色", 42),
    _ym("ryuuiisou", gettext_noop("All green"), "緑一色", 43),
    _ym("chinroutou", gettext_noop("All terminals"), "清老頭", 44),
    _ym("chuuren_poutou", gettext_noop("Nine gates"), "九蓮宝燈", 45, "九蓮寶燈"),
    _ym("junsei_chuuren_poutou", gettext_noop("True nine gates"), "純正九蓮宝燈", 46, "純正九蓮寶燈"),
    _ym("kokushi_musou", gettext_noop("Thirteen orphans"), "国士無双", 47),
    _ym(
        "kokushi_musou_13",
        gettext_noop("Thirteen orphans, thirteen-sided wait"),
        "国士無双１３面",
        48,
        "国士無双十三面待ち",
        "国士無双十三面",
    ),
    _ym("daisuushii", gettext_noop("Big four winds"), "大四喜", 49),
    _ym("shousuushii", gettext_noop("Little four winds"), "小四喜", 50),
    _ym("suukantsu", gettext_noop("Four quads"), "四槓子", 51),
    # Mahjong Soul's local yaku (friendly rooms with "local yaku" on).
    Yaku("paarenchan", gettext_noop("Eight consecutive dealer wins"), "八連荘", yakuman=1, kind=LOCAL),
    Yaku(
        "tsubame_gaeshi",
        gettext_noop("Swallow's return (ron on a riichi declaration)"),
        "燕返し",
        None,
        1,
        1,
        kind=LOCAL,
    ),
    Yaku("kanburi", gettext_noop("Ron on a discard after a kan"), "槓振り", None, 1, 1, kind=LOCAL),
    Yaku("shiiaruraotai", gettext_noop("Four calls, single wait"), "十二落抬", None, 1, 1, kind=LOCAL),
    Yaku("uumensai", gettext_noop("All five kinds of tiles"), "五門斉", None, 2, 2, kind=LOCAL),
    Yaku("sanrenkou", gettext_noop("Three chained triplets"), "三連刻", None, 2, 2, kind=LOCAL),
    Yaku("isshoku_sanjun", gettext_noop("Pure triple sequence"), "一色三順", None, 3, 2, kind=LOCAL),
    Yaku("iipin_moyue", gettext_noop("Under the sea with one circle"), "一筒摸月", None, 5, 5, kind=LOCAL),
    Yaku(
        "chuupin_raoyui",
        gettext_noop("Under the river with nine circles"),
        "九筒撈魚",
        None,
        5,
        5,
        kind=LOCAL,
    ),
    Yaku("daisharin", gettext_noop("Big wheels"), "大車輪", yakuman=1, kind=LOCAL),
    Yaku("daichikurin", gettext_noop("Bamboo forest"), "大竹林", yakuman=1, kind=LOCAL),
    Yaku("daisuurin", gettext_noop("Numerous neighbours"), "大数隣", yakuman=1, kind=LOCAL),
    Yaku(
        "ishino_uenimo_sannen",
        gettext_noop("Three years on a stone"),
        "石の上にも三年",
        yakuman=1,
        kind=LOCAL,
    ),
    Yaku("daichisei", gettext_noop("Big seven stars"), "大七星", yakuman=1, kind=LOCAL),
)

YAKU_BY_NAME: dict[str, Yaku] = {y.name: y for y in YAKU}

CLOSED_ONLY_YAKUMAN = frozenset(
    {
        "renhou",
        "tenhou",
        "chiihou",
        "suuankou",
        "suuankou_tanki",
        "chuuren_poutou",
        "junsei_chuuren_poutou",
        "kokushi_musou",
        "kokushi_musou_13",
    }
)
"""Yakuman that need a closed hand (an ordinary yaku says so by ``han_open == 0``; a yakuman has no han)."""


def needs_closed_hand(yaku: Yaku) -> bool:
    """Whether ``yaku`` can be won only with a closed hand (no called tile; a closed kan keeps it closed)."""
    return yaku.name in CLOSED_ONLY_YAKUMAN if yaku.is_yakuman else yaku.han_open == 0


YAKU_BY_TENHOU_ID: dict[int, Yaku] = {y.tenhou_id: y for y in YAKU if y.tenhou_id is not None}

MAHJONGSOUL_DOUBLE = frozenset(
    {"suuankou_tanki", "junsei_chuuren_poutou", "kokushi_musou_13", "daisuushii", "daichisei"}
)
"""Yakuman that Mahjong Soul counts as double (its own table); Tenhou counts each as one."""

DORA, AKA, URA = "dora", "aka", "ura"
DORA_TENHOU_IDS = {52: DORA, 53: URA, 54: AKA}
"""Tenhou's ids for dora, ura dora and red fives: counted, not listed as yaku."""

SEAT_WIND = "seat_wind"
ROUND_WIND = "round_wind"
"""Mahjong Soul names a wind yaku without its wind (役牌:自風牌); the parser knows the wind from the seat."""

_WINDS = ("ton", "nan", "shaa", "pei")


def _key(text: str) -> str:
    """A Japanese yaku name reduced to compare spellings: full-width forms folded (NFKC: １３ → 13,
    ： → :), spaces and colons dropped, so that 役牌 白, 役牌:白 and 役牌白 are one name."""
    folded = unicodedata.normalize("NFKC", text)
    return "".join(ch for ch in folded if not ch.isspace() and ch not in ":・")


_BY_JAPANESE: dict[str, str] = {}
for _yaku in YAKU:
    for _spelling in (_yaku.japanese, *_yaku.aliases):
        _BY_JAPANESE[_key(_spelling)] = _yaku.name
for _spelling, _kind in {
    "ドラ": DORA,
    "赤ドラ": AKA,
    "裏ドラ": URA,
    "抜きドラ": DORA,
    "役牌:自風牌": SEAT_WIND,
    "自風牌": SEAT_WIND,
    "役牌:場風牌": ROUND_WIND,
    "場風牌": ROUND_WIND,
}.items():
    _BY_JAPANESE[_key(_spelling)] = _kind


def from_japanese(text: str) -> str | None:
    """The romaji name for a Japanese yaku name (or ``dora``/``aka``/``ura``, or :data:`SEAT_WIND` /
    :data:`ROUND_WIND` for Mahjong Soul's wind yaku without their wind); None if unknown."""
    return _BY_JAPANESE.get(_key(text))


def wind_yaku(kind: str, wind: int) -> str:
    """``jikaze_nan`` from (:data:`SEAT_WIND`, 1): the wind yaku for a wind index (0 = East)."""
    prefix = "jikaze" if kind == SEAT_WIND else "bakaze"
    return f"{prefix}_{_WINDS[wind % 4]}"


def is_yaku_name(name: object) -> bool:
    """Whether ``name`` is a yaku of the table (what a game record's yaku list may name)."""
    return isinstance(name, str) and name in YAKU_BY_NAME
