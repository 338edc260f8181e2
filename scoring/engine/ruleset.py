"""Rulesets as data: every setting the engine reads, the presets of docs/rules.md §7, and validated overrides.

A ruleset is a frozen value. Events store the *effective* settings (``Ruleset.to_dict()``), never just a
preset name, so that correcting a preset later never rewrites a finished event's results. Settings marked
unverified in docs/rulesets.md are ordinary settings here: a club that knows better overrides them.
"""

from __future__ import annotations

import reprlib
from dataclasses import dataclass, fields
from typing import Any

from .errors import Phrase, RulesetError, gettext_noop

PAO_YAKU = ("daisangen", "daisuushii", "suukantsu")

POINTS_MAX = 1_000_000
"""The largest number of points any setting may hold (start, return, goal and chombo points, each uma).

Real rules use tens of thousands; a million leaves room for any house rule while keeping every score a
game can reach far inside the database's integer columns (a start of 10**30 once made finishing a game
fail). Every caller — the event forms, the admin, imported records — goes through ``make_ruleset``."""

SPEC_MAX_ITEMS = 100
"""The most keys a rules object, or items a setting's list, may hold: a ruleset has fewer than 30."""

_SHOW = reprlib.Repr()
_SHOW.maxlevel, _SHOW.maxstring, _SHOW.maxother, _SHOW.maxlist, _SHOW.maxdict = 2, 40, 40, 6, 6


def _show(value: Any) -> str | Phrase:
    """A value for an error message, bounded: a deeply nested or huge value (a hostile record or admin
    input) is shown abridged instead of making the message itself fail or fill a screen."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**12:
        digits = int(value.bit_length() * 0.30103) + 1
        return Phrase(gettext_noop("a number of about {digits} digits"), params={"digits": digits})
    return _SHOW.repr(value)


@dataclass(frozen=True, slots=True)
class Setting:
    """Documentation and validation of one setting."""

    name: str
    kind: type
    meaning: str
    choices: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Ruleset:
    """The effective rules of an event. Field names are the public override keys of the game record."""

    preset: str = "ema2016"
    length: str = "hanchan"
    start_points: int = 30000
    return_points: int = 30000
    uma: tuple[int, int, int, int] = (15000, 5000, -5000, -15000)
    ties: str = "split"
    leftover_sticks: str = "first"
    round_to_thousands: bool = False
    chombo: str = "deduction"
    chombo_points: int = 20000
    multiple_ron: str = "each"
    triple_ron: str = "win"
    multiple_ron_honba: str = "each"
    multiple_ron_sticks: str = "own_back"
    kiriage: bool = False
    kazoe_limit: str = "sanbaiman"
    yakuman_stacking: bool = False
    abortive_draws: bool = False
    abortive_draw_honba: bool = True
    nagashi_mangan: bool = False
    tobi: bool = False
    agari_yame: bool = False
    west_extension: bool = False
    goal_points: int = 30000
    riichi_below_1000: bool = True
    red_fives: int = 0
    open_tanyao: bool = True
    pao_yaku: tuple[str, ...] = ("daisangen", "daisuushii")
    time_limit: str = "one_more_hand"

    # -- derived values -------------------------------------------------------------------------------

    @property
    def oka(self) -> int:
        """The first place's bonus: the difference between return and start points, from all four."""
        return (self.return_points - self.start_points) * 4

    @property
    def last_deal(self) -> int:
        """Index of the last regular deal (0 = East 1): South 4 for a hanchan, East 4 for a tonpuusen."""
        return 7 if self.length == "hanchan" else 3

    def allows_chombo(self) -> bool:
        return self.chombo != "forbidden"

    # -- conversion -----------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The effective settings as JSON-ready data (tuples become lists)."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out

    def describe(self) -> list[tuple[str, str]]:
        """(setting, value in words) pairs for pages that show an event's rules in plain language."""
        return [(SETTINGS[name].meaning, _words(getattr(self, name))) for name in SETTINGS]


def _words(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple):
        return ", ".join(f"{v:+d}" if isinstance(v, int) else str(v) for v in value) or "none"
    return str(value).replace("_", " ")


_S = Setting
SETTINGS: dict[str, Setting] = {
    s.name: s
    for s in [
        _S(
            "length",
            str,
            gettext_noop("Game length: a hanchan (East and South) or a tonpuusen (East only)"),
            ("hanchan", "tonpuusen"),
        ),
        _S("start_points", int, gettext_noop("Points each player starts with")),
        _S(
            "return_points",
            int,
            gettext_noop("Return points subtracted from the final score (the difference × 4 is oka)"),
        ),
        _S("uma", tuple, gettext_noop("Uma for 1st, 2nd, 3rd and 4th place, in points (must sum to 0)")),
        _S(
            "ties",
            str,
            gettext_noop("Tied final scores: split uma and oka, or the earlier seat places higher"),
            ("split", "seat_order"),
        ),
        _S(
            "leftover_sticks",
            str,
            gettext_noop("Riichi sticks left on the table at the end: to the first place, or lost"),
            ("first", "lost"),
        ),
        _S(
            "round_to_thousands",
            bool,
            gettext_noop(
                "Results in whole thousands, as Tenhou counts them: each score less the return points is "
                "rounded to the nearest thousand (a half upwards) before uma, and first place takes what "
                "keeps the sum"
            ),
        ),
        _S(
            "chombo",
            str,
            gettext_noop("Chombo: deduction after uma, reverse mangan at the table, or not possible"),
            ("deduction", "reverse_mangan", "forbidden"),
        ),
        _S("chombo_points", int, gettext_noop("Chombo deduction after uma, in points (deduction mode)")),
        _S(
            "multiple_ron",
            str,
            gettext_noop("Several ron winners on one discard: all win, or only the nearest (atamahane)"),
            ("each", "atamahane"),
        ),
        _S(
            "triple_ron",
            str,
            gettext_noop("Three ron winners: all three win, or the hand is an abortive draw"),
            ("win", "abort"),
        ),
        _S(
            "multiple_ron_honba",
            str,
            gettext_noop("Honba with several ron winners: paid to each, or to the nearest"),
            ("each", "nearest"),
        ),
        _S(
            "multiple_ron_sticks",
            str,
            gettext_noop(
                "Riichi sticks with several ron winners: winners get their own "
                "deposit back and the nearest the rest, or the nearest takes all"
            ),
            ("own_back", "nearest"),
        ),
        _S("kiriage", bool, gettext_noop("Kiriage mangan: 4 han 30 fu and 3 han 60 fu are paid as mangan")),
        _S(
            "kazoe_limit",
            str,
            gettext_noop("13 han or more without a yakuman: kazoe yakuman, or capped at sanbaiman"),
            ("yakuman", "sanbaiman"),
        ),
        _S(
            "yakuman_stacking",
            bool,
            gettext_noop(
                "Double and multiple yakuman are paid as such; without it any yakuman count pays one yakuman"
            ),
        ),
        _S(
            "abortive_draws",
            bool,
            gettext_noop(
                "Abortive draws (nine terminals, four winds, four riichi, four kans, triple ron) are played"
            ),
        ),
        _S("abortive_draw_honba", bool, gettext_noop("An abortive draw adds a honba counter")),
        _S("nagashi_mangan", bool, gettext_noop("Nagashi mangan is played")),
        _S("tobi", bool, gettext_noop("The game ends when a score goes below zero (exactly 0 plays on)")),
        _S(
            "agari_yame",
            bool,
            gettext_noop(
                "In the last deal, a dealer who wins or is tenpai and is first with the goal "
                "points may end the game"
            ),
        ),
        _S(
            "west_extension",
            bool,
            gettext_noop(
                "If nobody reaches the goal points after the last deal, play goes on into the next wind"
            ),
        ),
        _S("goal_points", int, gettext_noop("Goal points for agari-yame and the west extension")),
        _S(
            "riichi_below_1000", bool, gettext_noop("A player with fewer than 1000 points may declare riichi")
        ),
        _S(
            "red_fives",
            int,
            gettext_noop("Number of red fives (aka dora) in the set, for hands entered as tiles"),
        ),
        _S(
            "open_tanyao",
            bool,
            gettext_noop("All simples counts with an open hand (kuitan), for hands entered as tiles"),
        ),
        _S("pao_yaku", tuple, gettext_noop("Yakuman with liability (pao)"), PAO_YAKU),
        _S(
            "time_limit",
            str,
            gettext_noop(
                "When time is called: one more hand (EMA), end after the current hand (WRC), or no time limit"
            ),
            ("one_more_hand", "end_after_hand", "none"),
        ),
    ]
}

_BASE = Ruleset().to_dict()
del _BASE["preset"]

PRESETS: dict[str, dict[str, Any]] = {
    "ema2016": dict(_BASE),
    "ema2025": {**_BASE, "kiriage": True},
    "wrc2022": {
        **_BASE,
        "leftover_sticks": "lost",
        "chombo_points": 30000,
        "multiple_ron": "atamahane",
        "multiple_ron_honba": "nearest",
        "multiple_ron_sticks": "nearest",
        "kiriage": True,
        "yakuman_stacking": True,
        "time_limit": "end_after_hand",
    },
    "mleague": {
        **_BASE,
        "start_points": 25000,
        "uma": [30000, 10000, -10000, -30000],
        "multiple_ron": "atamahane",
        "multiple_ron_honba": "nearest",
        "multiple_ron_sticks": "nearest",
        "kiriage": True,
        "kazoe_limit": "yakuman",
        "yakuman_stacking": True,
        "abortive_draws": True,
        "nagashi_mangan": True,
        "riichi_below_1000": False,
        "red_fives": 3,
        "pao_yaku": ["daisangen", "daisuushii", "suukantsu"],
        "time_limit": "none",
    },
    "tenhou": {
        **_BASE,
        "start_points": 25000,
        "uma": [20000, 10000, -10000, -20000],
        "ties": "seat_order",
        "round_to_thousands": True,
        "chombo": "forbidden",
        "triple_ron": "abort",
        "multiple_ron_honba": "nearest",
        "multiple_ron_sticks": "nearest",
        "kazoe_limit": "yakuman",
        "yakuman_stacking": True,
        "abortive_draws": True,
        "nagashi_mangan": True,
        "tobi": True,
        "agari_yame": True,
        "west_extension": True,
        "riichi_below_1000": False,
        "red_fives": 3,
        "pao_yaku": ["daisangen", "daisuushii", "suukantsu"],
        "time_limit": "none",
    },
    # Mahjong Soul's four-player rules (friendly rooms' defaults; ranked rooms play the same hands but
    # score the game with rank points, which are not uma). docs.py lists what is unverified. Its points
    # are exact: (score − start) / 1000 + uma, shown to one decimal (32 700 → +7.7), which is a whole
    # number of hundreds of points, so no rounding (round_to_thousands stays off).
    "mahjongsoul": {
        **_BASE,
        "start_points": 25000,
        "return_points": 25000,
        "uma": [15000, 5000, -5000, -15000],
        "ties": "seat_order",
        "chombo": "forbidden",
        "triple_ron": "abort",
        "multiple_ron_honba": "each",
        "multiple_ron_sticks": "nearest",
        "kazoe_limit": "yakuman",
        "yakuman_stacking": True,
        "abortive_draws": True,
        "nagashi_mangan": True,
        "tobi": True,
        "agari_yame": True,
        "west_extension": True,
        "riichi_below_1000": False,
        "red_fives": 3,
        "pao_yaku": ["daisangen", "daisuushii"],
        "time_limit": "none",
    },
}


def _check_value(name: str, value: Any) -> Any:
    """Validate one setting's value and return it in the dataclass's form (lists become tuples)."""
    setting = SETTINGS[name]
    if setting.kind is bool:
        if not isinstance(value, bool):
            raise RulesetError(
                gettext_noop("rules: setting '{name}' must be true or false, not {value}"),
                field=name,
                params={"name": name, "value": _show(value)},
            )
        return value
    if setting.kind is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise RulesetError(
                gettext_noop("rules: setting '{name}' must be a whole number of points, not {value}"),
                field=name,
                params={"name": name, "value": _show(value)},
            )
        if value < 0:
            raise RulesetError(
                gettext_noop("rules: setting '{name}' cannot be negative ({value})"),
                field=name,
                params={"name": name, "value": _show(value)},
            )
        if value > POINTS_MAX:
            raise RulesetError(
                gettext_noop("rules: setting '{name}' must be at most {max} points, not {value}"),
                field=name,
                params={"name": name, "max": POINTS_MAX, "value": _show(value)},
            )
        return value
    if setting.kind is str:
        if not isinstance(value, str) or value not in setting.choices:
            raise RulesetError(
                gettext_noop("rules: setting '{name}' must be one of {choices}, not {value}"),
                field=name,
                params={"name": name, "choices": ", ".join(setting.choices), "value": _show(value)},
            )
        return value
    # tuples
    if not isinstance(value, list | tuple):
        raise RulesetError(
            gettext_noop("rules: setting '{name}' must be a list, not {value}"),
            field=name,
            params={"name": name, "value": _show(value)},
        )
    if name == "uma":
        if len(value) != 4 or any(isinstance(v, bool) or not isinstance(v, int) for v in value):
            raise RulesetError(
                gettext_noop("rules: setting '{name}' must be four whole numbers of points (1st to 4th)"),
                field=name,
                params={"name": name},
            )
        if any(abs(v) > POINTS_MAX for v in value):
            raise RulesetError(
                gettext_noop(
                    "rules: setting '{name}': each place's uma must be between -{max} and {max} points"
                ),
                field=name,
                params={"name": name, "max": POINTS_MAX},
            )
        return tuple(value)
    if len(value) > SPEC_MAX_ITEMS:
        raise RulesetError(
            gettext_noop("rules: setting '{name}' holds {count} items: at most {max}"),
            field=name,
            params={"name": name, "count": len(value), "max": SPEC_MAX_ITEMS},
        )
    unknown = [v for v in value if not isinstance(v, str) or v not in setting.choices]
    if unknown:
        raise RulesetError(
            gettext_noop("rules: setting '{name}': unknown yakuman {value} (known: {choices})"),
            field=name,
            params={"name": name, "value": _show(unknown[0]), "choices": ", ".join(setting.choices)},
        )
    return tuple(dict.fromkeys(value))


def _check_consistency(rules: Ruleset) -> None:
    """Rules between settings: what makes results sum to the penalties, and values that cannot be played."""
    if rules.start_points <= 0:
        raise RulesetError(
            gettext_noop("rules: setting 'start_points' must be above 0"), field="start_points"
        )
    if sum(rules.uma) != 0:
        raise RulesetError(
            gettext_noop(
                "rules: setting 'uma' must sum to 0 so that results sum to the penalties (sums to {total})"
            ),
            field="uma",
            params={"total": sum(rules.uma)},
        )
    if list(rules.uma) != sorted(rules.uma, reverse=True):
        raise RulesetError(
            gettext_noop("rules: setting 'uma' must not increase from 1st to 4th place"), field="uma"
        )
    if rules.red_fives > 4:
        raise RulesetError(
            gettext_noop("rules: setting 'red_fives' must be between 0 and 4"), field="red_fives"
        )
    if rules.chombo == "deduction" and rules.chombo_points == 0:
        raise RulesetError(
            gettext_noop("rules: setting 'chombo_points' must be above 0 when chombo is a deduction"),
            field="chombo_points",
        )


def make_ruleset(preset: str, overrides: dict[str, Any] | None = None) -> Ruleset:
    """The preset's settings with ``overrides`` applied, validated."""
    if not isinstance(preset, str) or preset not in PRESETS:
        raise RulesetError(
            gettext_noop("rules: unknown preset {value} (known: {presets})"),
            field="preset",
            params={"value": _show(preset), "presets": ", ".join(PRESETS)},
        )
    if overrides is not None and not isinstance(overrides, dict):
        raise RulesetError(gettext_noop("rules: the overrides must be an object of settings"), field="preset")
    if overrides and len(overrides) > SPEC_MAX_ITEMS:
        raise RulesetError(
            gettext_noop("rules: {count} settings given, at most {max}"),
            field="preset",
            params={"count": len(overrides), "max": SPEC_MAX_ITEMS},
        )
    values: dict[str, Any] = {}
    for name, value in {**PRESETS[preset], **(overrides or {})}.items():
        if not isinstance(name, str) or name not in SETTINGS:
            raise RulesetError(
                gettext_noop("rules: unknown setting {value}"),
                field=name if isinstance(name, str) else None,
                params={"value": _show(name)},
            )
        values[name] = _check_value(name, value)
    rules = Ruleset(preset=preset, **values)
    _check_consistency(rules)
    return rules


ADDED_SETTINGS: dict[str, Any] = {"round_to_thousands": False}
"""Settings added after events began storing their effective rules, each with the value that plays as
the engine did before it existed.

An event stores every setting of its time (``Ruleset.to_dict()``), and a stored event's results never
change by themselves. Read as overrides, such a dict would take a later setting from its preset (the
``tenhou`` preset rounds to thousands), so a spec that spells out every other setting — a stored
ruleset, never a hand-written override — takes the value here instead. Saving the event again writes
the setting out; an organiser who wants the new behaviour turns it on like any other setting."""


def _stored_before(spec: dict[str, Any]) -> dict[str, Any]:
    """The added settings a stored ruleset (``spec`` naming every older setting) lacks, at their old value."""
    missing = {name: value for name, value in ADDED_SETTINGS.items() if name not in spec}
    if missing and all(name in spec for name in SETTINGS if name not in ADDED_SETTINGS):
        return missing
    return {}


def ruleset_from_spec(spec: Any) -> Ruleset:
    """A ruleset from a record's ``rules``: a preset name, or ``{"preset": NAME, ...overrides}``.

    A dict holding every setting (an event's stored effective rules) written before a setting of
    :data:`ADDED_SETTINGS` existed reads that setting as it played then, not as its preset says now.
    """
    if isinstance(spec, Ruleset):
        return spec
    if isinstance(spec, str):
        return make_ruleset(spec)
    if isinstance(spec, dict):
        if "preset" not in spec:
            raise RulesetError(gettext_noop("rules: an object of rules needs a 'preset'"), field="preset")
        overrides = {k: v for k, v in spec.items() if k != "preset"}
        overrides.update(_stored_before(spec))
        return make_ruleset(spec["preset"], overrides)
    raise RulesetError(
        gettext_noop("rules: must be a preset name or an object with a 'preset'"), field="preset"
    )


def ruleset_spec(rules: Ruleset) -> str | dict[str, Any]:
    """The shortest spec that gives ``rules`` back: the preset name alone, or the preset and the overrides."""
    base = make_ruleset(rules.preset).to_dict()
    overrides = {k: v for k, v in rules.to_dict().items() if base[k] != v}
    return {"preset": rules.preset, **overrides} if overrides else rules.preset
