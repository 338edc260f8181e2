"""The yaku picker of the hand-entry form: which yaku it offers, what the picked yaku are worth, and which
combinations no hand can hold.

The picker is optional (as in Pantheon's table app): an organiser may type han and fu and never touch it.
When yaku are picked, the form stores them with the win (``Win.yaku``, plus the dora, red-five and ura
dora counts) and checks them here, on the server, whatever the page's script did: the script only fills
han and fu as a convenience, so a page without it, or a hand-made request, is checked the same way.

The yaku themselves — romaji names, English meanings, han closed and open — are the engine's yaku table
(``scoring/engine/logs/yaku.py``), the one that online logs are read with; this module adds what only a
form needs: groups to show them in, the fixed fu, and the messages (translated, naming the field and the
rule) for picks that cannot go together.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy

from league.engine_text import wind_name
from scoring import engine
from scoring.engine.logs.yaku import (
    MAHJONGSOUL_DOUBLE,
    ORDINARY,
    YAKU,
    YAKU_BY_NAME,
    YAKUMAN,
    Yaku,
    needs_closed_hand,
)

PICKABLE: tuple[Yaku, ...] = tuple(y for y in YAKU if y.kind in (ORDINARY, YAKUMAN))
"""The yaku the picker offers: every yaku of the usual rules (Mahjong Soul's local yaku are left out)."""
PICKABLE_NAMES = frozenset(y.name for y in PICKABLE)
_ORDER = {y.name: i for i, y in enumerate(YAKU)}

DOUBLE_YAKUMAN = frozenset(MAHJONGSOUL_DOUBLE - {"daichisei"})
"""Yakuman worth two where yakuman stack (as the ``mahjong`` package counts them for hands entered as
tiles): thirteen-sided kokushi, four concealed triplets on a pair wait, true nine gates, big four winds."""

WINDS = ("ton", "nan", "shaa", "pei")
SEAT_WINDS = tuple(f"jikaze_{w}" for w in WINDS)
ROUND_WINDS = tuple(f"bakaze_{w}" for w in WINDS)
DRAGONS = ("haku", "hatsu", "chun")
VALUE_HONOURS = frozenset(DRAGONS + SEAT_WINDS + ROUND_WINDS)

TSUMO_ONLY = frozenset({"menzen_tsumo", "haitei_raoyue", "rinshan_kaihou", "tenhou", "chiihou"})
RON_ONLY = frozenset({"houtei_raoyui", "chankan", "renhou"})

GROUPS: tuple[tuple[Promise, tuple[str, ...]], ...] = (
    (
        gettext_lazy("Riichi and the moment of the win"),
        (
            "riichi",
            "double_riichi",
            "ippatsu",
            "menzen_tsumo",
            "haitei_raoyue",
            "houtei_raoyui",
            "rinshan_kaihou",
            "chankan",
        ),
    ),
    (gettext_lazy("Dragons and winds"), DRAGONS + SEAT_WINDS + ROUND_WINDS),
    (
        gettext_lazy("Shape of the hand"),
        (
            "pinfu",
            "tanyao",
            "iipeikou",
            "chiitoitsu",
            "toitoi",
            "sanankou",
            "sankantsu",
            "sanshoku_doujun",
            "sanshoku_doukou",
            "ittsu",
            "chanta",
            "junchan",
            "honroutou",
            "shousangen",
            "ryanpeikou",
            "honitsu",
            "chinitsu",
        ),
    ),
    (gettext_lazy("Yakuman"), tuple(y.name for y in PICKABLE if y.is_yakuman)),
)
"""How the picker lays the yaku out: by what a player looks at first, each group in the table's order."""


def _never_together() -> dict[str, frozenset[str]]:
    """Pairs of yaku no hand can hold at once, both ways round."""
    pairs: list[tuple[str, Iterable[str]]] = [
        ("riichi", ["double_riichi"]),
        ("iipeikou", ["ryanpeikou"]),
        ("chanta", ["junchan", "ittsu"]),
        ("junchan", ["ittsu"]),
        ("honitsu", ["chinitsu"]),
        ("haitei_raoyue", ["rinshan_kaihou"]),
        ("houtei_raoyui", ["chankan"]),
        ("sanshoku_doujun", ["ittsu", "sanshoku_doukou"]),
        # Seven pairs: no sets at all, no honour triplet, no kan.
        (
            "chiitoitsu",
            [
                "pinfu",
                "iipeikou",
                "ryanpeikou",
                "toitoi",
                "sanankou",
                "sankantsu",
                "sanshoku_doujun",
                "sanshoku_doukou",
                "ittsu",
                "chanta",
                "junchan",
                "shousangen",
                "rinshan_kaihou",
                "chankan",
                *VALUE_HONOURS,
            ],
        ),
        # Pinfu: four sequences and a pair that is worth no fu, so no triplet, kan or value pair.
        (
            "pinfu",
            [
                "toitoi",
                "sanankou",
                "sankantsu",
                "sanshoku_doukou",
                "honroutou",
                "shousangen",
                "rinshan_kaihou",
                *VALUE_HONOURS,
            ],
        ),
        # All simples: no terminal, no honour.
        (
            "tanyao",
            ["chanta", "junchan", "honroutou", "shousangen", "honitsu", "ittsu", *VALUE_HONOURS],
        ),
        # All triplets: no sequence.
        ("toitoi", ["iipeikou", "ryanpeikou", "sanshoku_doujun", "ittsu"]),
        # All terminals and honours: no sequence, no simple.
        ("honroutou", ["chanta", "junchan", "iipeikou", "ryanpeikou", "sanshoku_doujun", "ittsu"]),
        ("suuankou", ["suuankou_tanki"]),
        ("kokushi_musou", ["kokushi_musou_13"]),
        ("chuuren_poutou", ["junsei_chuuren_poutou"]),
        ("daisuushii", ["shousuushii"]),
        ("tenhou", ["chiihou", "renhou"]),
        ("chiihou", ["renhou"]),
    ]
    table: dict[str, set[str]] = {}
    for name, others in pairs:
        for other in others:
            table.setdefault(name, set()).add(other)
            table.setdefault(other, set()).add(name)
    return {name: frozenset(others) for name, others in table.items()}


NEVER_TOGETHER = _never_together()


# Keys that are not romaji as they stand (an English word in them): how players say them in Japanese.
_SPOKEN = {"double_riichi": "Daburu riichi"}


def romaji(name: str) -> str:
    """How a yaku's name is written for people, the same in every language (its meaning beside it is
    translated): ``sanshoku_doujun`` → ``Sanshoku doujun``, ``double_riichi`` → ``Daburu riichi``."""
    return _SPOKEN.get(name) or name.replace("_", " ").capitalize()


def english(name: str) -> str:
    """The yaku's English meaning in the visitor's language (the table marks it for translation)."""
    return gettext(YAKU_BY_NAME[name].english)


def meaning(name: str) -> str:
    """The meaning to write beside the romaji: :func:`english`, or nothing when it only says the romaji
    again (``Riichi`` means "Riichi" in English): a page writing both would read "Riichi Riichi"."""
    text = english(name)
    return "" if text.casefold() == romaji(name).casefold() else text


def label(name: str) -> str:
    """``Pinfu (All sequences (no-points hand))``: the romaji with the English meaning, once when the two
    say the same (``Riichi``)."""
    written, said = romaji(name), meaning(name)
    return f"{written} ({said})" if said else written


def ordered(names: Iterable[str]) -> list[str]:
    """Yaku names in the table's order (the order a score sheet lists them), without repeats."""
    return sorted(set(names), key=lambda n: _ORDER.get(n, len(_ORDER)))


def yaku_han(yaku: Yaku, *, closed: bool) -> int:
    """What an ordinary yaku adds: its closed han, or its open han (one less for most) in an open hand."""
    return yaku.han_closed if closed or not yaku.han_open else yaku.han_open


def yakuman_count(yaku: Yaku, rules: engine.Ruleset) -> int:
    """How many yakuman a yakuman yaku counts: two for the double ones where yakuman stack."""
    return 2 if rules.yakuman_stacking and yaku.name in DOUBLE_YAKUMAN else 1


@dataclass(frozen=True, slots=True)
class PickedValue:
    """What the picked yaku and dora are worth, as the win will store them.

    ``han`` counts the yaku and every dora (it may pass 13: kazoe); ``fu`` is set only where the yaku
    fix it below mangan (seven pairs 25, pinfu 20 on a tsumo and 30 on a ron); ``yakuman`` is the count
    of a yakuman hand (whose han and fu are then None).
    """

    han: int | None
    fu: int | None
    yakuman: int | None
    yaku: tuple[engine.ScoredYaku, ...]
    fixed_fu_rule: str = ""


def picked_value(
    names: Sequence[str],
    *,
    closed: bool,
    tsumo: bool,
    dora: int,
    aka: int,
    ura: int,
    rules: engine.Ruleset,
) -> PickedValue:
    """The value of the picked yaku (call :func:`check_picks` first for whether they can go together)."""
    chosen = [YAKU_BY_NAME[n] for n in ordered(names)]
    big = [y for y in chosen if y.is_yakuman]
    if big:
        counts = [yakuman_count(y, rules) for y in big]
        scored = tuple(engine.ScoredYaku(name=y.name, yakuman=c) for y, c in zip(big, counts, strict=True))
        return PickedValue(None, None, sum(counts) if rules.yakuman_stacking else 1, scored)
    scored = tuple(engine.ScoredYaku(name=y.name, han=yaku_han(y, closed=closed)) for y in chosen)
    han = sum(y.han or 0 for y in scored) + dora + aka + ura
    fu, rule = None, ""
    if han < 5:
        picked = {y.name for y in chosen}
        if "chiitoitsu" in picked:
            fu, rule = 25, gettext("seven pairs (chiitoitsu) are always 25 fu")
        elif "pinfu" in picked and tsumo:
            fu, rule = 20, gettext("pinfu won by tsumo is always 20 fu")
        elif "pinfu" in picked:
            fu, rule = 30, gettext("pinfu won by ron is always 30 fu")
    return PickedValue(han, fu, None, scored, rule)


def closed_from_stored(yaku: Sequence[engine.ScoredYaku]) -> bool:
    """Whether a stored win's yaku say its hand was closed (the win does not store it): open when one of
    them counts its open han where that differs from the closed one. Ambiguous lists (tanyao alone) are
    worth the same either way, so "closed" is as good an answer for showing them again."""
    for item in yaku:
        table = YAKU_BY_NAME.get(item.name)
        if table is None or table.is_yakuman or item.han is None:
            continue
        if needs_closed_hand(table):
            return True
        if table.han_open != table.han_closed and item.han == table.han_open:
            return False
    return True


def _names(names: Iterable[str]) -> str:
    return ", ".join(romaji(n) for n in ordered(names))


def check_picks(
    names: Sequence[str],
    *,
    closed: bool,
    tsumo: bool,
    winner: int,
    dealer: int,
    deal: int,
    riichi_paid: bool,
    rules: engine.Ruleset,
    winner_name: str,
) -> list[tuple[str, str]]:
    """Why the picked yaku cannot be one hand, as ``(field, message)`` pairs (none: they can).

    ``winner`` and ``dealer`` are seats and ``deal`` the deal's index (0 = East 1), for the wind yaku and
    the first-draw yakuman; ``riichi_paid`` says whether the winner's riichi deposit is ticked.
    """
    picked = ordered(n for n in names if n in YAKU_BY_NAME)
    if not picked:
        return []
    errors: list[tuple[str, str]] = []

    def add(field: str, message: str) -> None:
        if (field, message) not in errors:
            errors.append((field, message))

    chosen = [YAKU_BY_NAME[n] for n in picked]
    big = [y.name for y in chosen if y.is_yakuman]
    ordinary = [y.name for y in chosen if not y.is_yakuman]
    if big and ordinary:
        add(
            "yaku",
            gettext(
                "Yaku: a yakuman replaces every other yaku, so %(yakuman)s cannot be counted with "
                "%(others)s. Unpick %(others)s (or the yakuman)."
            )
            % {"yakuman": _names(big), "others": _names(ordinary)},
        )
    if not closed:
        for yaku in chosen:
            if needs_closed_hand(yaku):
                add(
                    "yaku",
                    gettext(
                        "Yaku: %(yaku)s needs a closed hand, but the hand is marked open (a called tile)."
                    )
                    % {"yaku": romaji(yaku.name)},
                )
        if "tanyao" in picked and not rules.open_tanyao:
            add(
                "yaku",
                gettext(
                    "Yaku: tanyao needs a closed hand under this event's rules (no open tanyao, kuitan)."
                ),
            )
    for name in picked:
        if tsumo and name in RON_ONLY:
            add(
                "yaku",
                gettext("Yaku: %(yaku)s is won by ron, but this win is a tsumo.") % {"yaku": romaji(name)},
            )
        if not tsumo and name in TSUMO_ONLY:
            add(
                "yaku",
                gettext("Yaku: %(yaku)s is won by tsumo, but this win is a ron.") % {"yaku": romaji(name)},
            )
    if tsumo and closed and ordinary and not big and "menzen_tsumo" not in picked:
        add(
            "yaku",
            gettext("Yaku: a closed hand won by tsumo always has menzen tsumo: pick it too."),
        )
    if "ippatsu" in picked and not {"riichi", "double_riichi"} & set(picked):
        add("yaku", gettext("Yaku: ippatsu needs riichi or double riichi."))
    for i, name in enumerate(picked):
        for other in picked[i + 1 :]:
            if other in NEVER_TOGETHER.get(name, ()):
                if {name, other} == {"riichi", "double_riichi"}:
                    message = gettext(
                        "Yaku: pick riichi or double riichi, not both (double riichi is a riichi declared "
                        "on the first discard, and counts instead of it)."
                    )
                else:
                    message = gettext("Yaku: %(first)s and %(second)s cannot both be in one hand.") % {
                        "first": romaji(name),
                        "second": romaji(other),
                    }
                add("yaku", message)
    seat_wind = (winner - dealer) % 4
    round_wind = min(deal // 4, 3)
    for name in picked:
        if name in SEAT_WINDS and SEAT_WINDS.index(name) != seat_wind:
            add(
                "yaku",
                gettext("Yaku: %(yaku)s is the seat wind %(wind)s, but %(name)s sits %(seat)s in this hand.")
                % {
                    "yaku": romaji(name),
                    "wind": wind_name(SEAT_WINDS.index(name)),
                    "name": winner_name,
                    "seat": wind_name(seat_wind),
                },
            )
        if name in ROUND_WINDS and ROUND_WINDS.index(name) != round_wind:
            add(
                "yaku",
                gettext("Yaku: %(yaku)s is the round wind %(wind)s, but this hand is in the %(round)s round.")
                % {
                    "yaku": romaji(name),
                    "wind": wind_name(ROUND_WINDS.index(name)),
                    "round": wind_name(round_wind),
                },
            )
    if "tenhou" in picked and winner != dealer:
        add(
            "yaku",
            gettext("Yaku: tenhou is the dealer's win on the first draw, and %(name)s is not the dealer.")
            % {"name": winner_name},
        )
    for name in ("chiihou", "renhou"):
        if name in picked and winner == dealer:
            add(
                "yaku",
                gettext(
                    "Yaku: %(yaku)s is a non-dealer's win, and %(name)s is the dealer (theirs is tenhou)."
                )
                % {"yaku": romaji(name), "name": winner_name},
            )
    with_riichi = {"riichi", "double_riichi"} & set(picked)
    if with_riichi and not riichi_paid:
        add(
            "riichi",
            gettext("Riichi deposits: %(name)s won with %(yaku)s, so their 1000 deposit was paid: tick it.")
            % {"name": winner_name, "yaku": _names(with_riichi)},
        )
    if riichi_paid and not with_riichi and not big:
        add(
            "yaku",
            gettext(
                "Yaku: %(name)s paid a riichi deposit, so the hand counts riichi (or double riichi): pick it."
            )
            % {"name": winner_name},
        )
    if riichi_paid and not closed:
        add(
            "open_hand",
            gettext("Open hand: %(name)s declared riichi, so their hand is closed.") % {"name": winner_name},
        )
    return errors
