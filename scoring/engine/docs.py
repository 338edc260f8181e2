"""The ruleset reference (docs/rulesets.md) written from the settings and presets themselves, so the
documentation cannot drift from the code: ``python -m scoring.engine.docs > docs/rulesets.md``."""

from __future__ import annotations

from .ruleset import PRESETS, SETTINGS

UNVERIFIED = {
    ("ema2025", "*"): "the 2025 EMA rules are not verified: kiriage on, the rest as EMA 2016",
    ("wrc2022", "chombo_points"): "30 000 per federation summaries",
    ("wrc2022", "leftover_sticks"): "lost, per the Toronto club summary",
    ("mleague", "leftover_sticks"): "to first, unverified",
    ("mleague", "kazoe_limit"): "yakuman, unverified",
    ("mleague", "abortive_draws"): "abortive draws and nagashi, unverified",
    ("*", "riichi_below_1000"): "EMA/WRC allowing riichi below 1000 points is unverified",
    ("mahjongsoul", "uma"): (
        "return 25 000 and uma +15/+5/-5/-15 as Mahjong Soul's friendly rooms and its game results show "
        "them; ranked rooms' rank points are not uma and are out of scope"
    ),
    ("mahjongsoul", "multiple_ron_honba"): (
        "honba to each ron winner and the sticks to the nearest, as tensoul computes a double ron; "
        "unverified against Mahjong Soul's own rules"
    ),
    ("mahjongsoul", "agari_yame"): "agari-yame, west extension and tobi as on Tenhou, unverified",
    ("mahjongsoul", "pao_yaku"): "pao on daisangen and daisuushii only (as tensoul), unverified",
    ("*", "multiple_ron_sticks"): "EMA own-deposit return is per the wiki summary",
}


def _cell(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        return " ".join(f"{v:+d}" if isinstance(v, int) else str(v) for v in value) or "—"
    return str(value)


def render() -> str:
    presets = list(PRESETS)
    lines = [
        "# Ruleset settings",
        "",
        "An event's rules are a preset plus overrides. The event stores the *effective* settings, so a",
        "later change to a preset never rewrites its results. In a game record, `rules` is a preset name or",
        '`{"preset": "ema2016", "kiriage": true, ...}`. An unknown setting, a value of the wrong type or an',
        "impossible value (uma that does not sum to 0, an unknown choice) is rejected with a message naming",
        "the setting.",
        "",
        "This page is generated from `scoring/engine/ruleset.py` by `python -m scoring.engine.docs`; a test",
        "checks that it is current.",
        "",
        "| setting | meaning | values | " + " | ".join(f"`{p}`" for p in presets) + " |",
        "|---|---|---|" + "---|" * len(presets),
    ]
    for name, setting in SETTINGS.items():
        kind = (
            " / ".join(setting.choices)
            if setting.choices
            else setting.kind.__name__.replace("tuple", "list").replace(
                "int", "points" if "points" in name else "number"
            )
        )
        if setting.kind is bool:
            kind = "yes / no"
        values = " | ".join(_cell(PRESETS[p][name]) for p in presets)
        lines.append(f"| `{name}` | {setting.meaning} | {kind} | {values} |")
    lines += [
        "",
        "## Unverified values",
        "",
        "These values come from secondary sources or are not verified (docs/rules.md §7). They are",
        "ordinary settings: override them per event if your rules say otherwise.",
        "",
    ]
    for (preset, name), note in UNVERIFIED.items():
        where = "all presets" if preset == "*" else f"`{preset}`"
        what = "" if name == "*" else f" `{name}`"
        lines.append(f"- {where}{what}: {note}.")
    lines += [
        "",
        "## Notes",
        "",
        "- Results sum exactly to the penalties, except where riichi sticks are lost at the end "
        "(`leftover_sticks: lost`, or the remainder of a split between tied leaders rounded down to "
        "100): then they sum to the penalties minus the lost sticks.",
        "- Uma and oka shared by tied players are split in units of 100; the hundreds left over go one "
        "each to the tied players earliest in seat order, so the shares always sum exactly.",
        "- `round_to_thousands` gives the points Tenhou shows: every seat but first place counts its "
        "score less the return points rounded to the nearest thousand, a half upwards (24 500 → −5.5 → "
        "−5; 31 500 → +1.5 → +2), then uma; first place takes the opposite of the others' total, so the "
        "results sum exactly as without rounding (20 100, 35 800, 5 200, 38 900 are −20, +16, −45, +49, "
        "not −19.9, +15.8, −44.8, +48.9). Leftover sticks go to first place before; penalties come after, "
        "never rounded. Players tied for first under `ties: split` share the difference like uma. "
        "`replay` then prints `rounding` in `final` (what the rounding moved, per seat) whenever it moved "
        "a result, so that `results = scores − return + uma + oka + rounding + penalties` always holds.",
        "- Mahjong Soul's points are exact, (score − start) / 1000 + uma to one decimal (32 700 → +7.7): "
        "the `mahjongsoul` preset does not round.",
        "- A setting added later never changes a stored event: an event's rules stored before "
        "`round_to_thousands` existed (every other setting spelled out) read it as no, whatever the preset "
        "says now; turning it on is a rules change like any other.",
        "- Under atamahane (`multiple_ron: atamahane`) a record lists only the nearest ron winner; a "
        "triple ron under `triple_ron: abort` is recorded as an abortive draw.",
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    print(render(), end="")
