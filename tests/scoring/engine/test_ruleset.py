"""Rulesets (docs/rules.md §7): the presets' key values, validated overrides, specs and their round trip."""

from __future__ import annotations

import dataclasses

import pytest

from scoring.engine import RulesetError
from scoring.engine.ruleset import PRESETS, SETTINGS, Ruleset, make_ruleset, ruleset_from_spec, ruleset_spec

PRESET_NAMES = ["ema2016", "ema2025", "wrc2022", "mleague", "tenhou"]
BIG_TWO = ("daisangen", "daisuushii")
BIG_TWO_AND_KANS = ("daisangen", "daisuushii", "suukantsu")

# docs/rules.md §7, one column per preset. Unverified values docs/rules.md does not state (mleague's
# abortive draws / nagashi) are not listed: they are the preset's data, not a documented fact.
EXPECTED: dict[str, dict[str, object]] = {
    "ema2016": {
        "start_points": 30000,
        "return_points": 30000,
        "oka": 0,
        "uma": (15000, 5000, -5000, -15000),
        "ties": "split",
        "leftover_sticks": "first",
        "chombo": "deduction",
        "chombo_points": 20000,
        "multiple_ron": "each",
        "triple_ron": "win",
        "multiple_ron_honba": "each",
        "multiple_ron_sticks": "own_back",
        "kiriage": False,
        "kazoe_limit": "sanbaiman",
        "yakuman_stacking": False,
        "abortive_draws": False,
        "nagashi_mangan": False,
        "tobi": False,
        "agari_yame": False,
        "west_extension": False,
        "red_fives": 0,
        "pao_yaku": BIG_TWO,
        "time_limit": "one_more_hand",
        "length": "hanchan",
    },
    "ema2025": {
        "start_points": 30000,
        "return_points": 30000,
        "oka": 0,
        "uma": (15000, 5000, -5000, -15000),
        "ties": "split",
        "leftover_sticks": "first",
        "chombo": "deduction",
        "chombo_points": 20000,
        "multiple_ron": "each",
        "triple_ron": "win",
        "multiple_ron_honba": "each",
        "multiple_ron_sticks": "own_back",
        "kiriage": True,
        "kazoe_limit": "sanbaiman",
        "yakuman_stacking": False,
        "abortive_draws": False,
        "nagashi_mangan": False,
        "tobi": False,
        "agari_yame": False,
        "west_extension": False,
        "red_fives": 0,
        "pao_yaku": BIG_TWO,
        "time_limit": "one_more_hand",
        "length": "hanchan",
    },
    "wrc2022": {
        "start_points": 30000,
        "return_points": 30000,
        "oka": 0,
        "uma": (15000, 5000, -5000, -15000),
        "ties": "split",
        "leftover_sticks": "lost",
        "chombo": "deduction",
        "chombo_points": 30000,
        "multiple_ron": "atamahane",
        "kiriage": True,
        "kazoe_limit": "sanbaiman",
        "yakuman_stacking": True,
        "abortive_draws": False,
        "nagashi_mangan": False,
        "tobi": False,
        "agari_yame": False,
        "west_extension": False,
        "red_fives": 0,
        "pao_yaku": BIG_TWO,
        "time_limit": "end_after_hand",
        "length": "hanchan",
    },
    "mleague": {
        "start_points": 25000,
        "return_points": 30000,
        "oka": 20000,
        "uma": (30000, 10000, -10000, -30000),
        "ties": "split",
        "leftover_sticks": "first",
        "chombo": "deduction",
        "chombo_points": 20000,
        "multiple_ron": "atamahane",
        "kiriage": True,
        "kazoe_limit": "yakuman",
        "yakuman_stacking": True,
        "tobi": False,
        "agari_yame": False,
        "west_extension": False,
        "red_fives": 3,
        "pao_yaku": BIG_TWO_AND_KANS,
        "length": "hanchan",
    },
    "tenhou": {
        "start_points": 25000,
        "return_points": 30000,
        "oka": 20000,
        "uma": (20000, 10000, -10000, -20000),
        "ties": "seat_order",
        "leftover_sticks": "first",
        "chombo": "forbidden",
        "multiple_ron": "each",
        "triple_ron": "abort",
        "multiple_ron_honba": "nearest",
        "multiple_ron_sticks": "nearest",
        "kiriage": False,
        "kazoe_limit": "yakuman",
        "yakuman_stacking": True,
        "abortive_draws": True,
        "abortive_draw_honba": True,
        "nagashi_mangan": True,
        "tobi": True,
        "agari_yame": True,
        "west_extension": True,
        "goal_points": 30000,
        "red_fives": 3,
        "pao_yaku": BIG_TWO_AND_KANS,
        "length": "hanchan",
    },
}


def _expected_params():
    return [
        pytest.param(preset, name, value, id=f"{preset}-{name}")
        for preset, values in EXPECTED.items()
        for name, value in values.items()
    ]


# -- presets -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_every_preset_loads(preset):
    assert preset in PRESETS
    rules = make_ruleset(preset)
    assert isinstance(rules, Ruleset)
    assert rules.preset == preset
    assert sum(rules.uma) == 0
    assert set(PRESETS[preset]) == set(SETTINGS)


def test_presets_are_the_documented_ones():
    assert set(PRESET_NAMES) <= set(PRESETS)


@pytest.mark.parametrize(("preset", "name", "value"), _expected_params())
def test_preset_matches_rules_md(preset, name, value):
    assert getattr(make_ruleset(preset), name) == value


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_preset_chombo_allowed(preset):
    assert make_ruleset(preset).allows_chombo() is (preset != "tenhou")


@pytest.mark.parametrize(("preset", "last_deal"), [("ema2016", 7), ("tenhou", 7)])
def test_last_deal_hanchan(preset, last_deal):
    assert make_ruleset(preset).last_deal == last_deal
    assert make_ruleset(preset, {"length": "tonpuusen"}).last_deal == 3


def test_atamahane_presets_also_give_honba_and_sticks_to_the_nearest():
    for preset in ("wrc2022", "mleague"):
        rules = make_ruleset(preset)
        assert rules.multiple_ron == "atamahane"
        assert (rules.multiple_ron_honba, rules.multiple_ron_sticks) == ("nearest", "nearest")


# -- overrides ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("overrides", "attribute", "value"),
    [
        ({"kiriage": True}, "kiriage", True),
        ({"uma": [20000, 10000, -10000, -20000]}, "uma", (20000, 10000, -10000, -20000)),
        ({"uma": (10000, 0, 0, -10000)}, "uma", (10000, 0, 0, -10000)),
        ({"start_points": 25000}, "oka", 20000),
        ({"chombo": "reverse_mangan"}, "chombo", "reverse_mangan"),
        ({"chombo": "forbidden", "chombo_points": 0}, "chombo_points", 0),
        ({"pao_yaku": ["daisangen"]}, "pao_yaku", ("daisangen",)),
        ({"pao_yaku": []}, "pao_yaku", ()),
        ({"pao_yaku": ["daisangen", "daisangen"]}, "pao_yaku", ("daisangen",)),
        ({"length": "tonpuusen"}, "length", "tonpuusen"),
        ({"goal_points": 0}, "goal_points", 0),
        ({"red_fives": 4}, "red_fives", 4),
    ],
    ids=lambda v: str(v) if isinstance(v, dict) else None,
)
def test_valid_overrides(overrides, attribute, value):
    rules = make_ruleset("ema2016", overrides)
    assert getattr(rules, attribute) == value
    assert rules.preset == "ema2016"


@pytest.mark.parametrize(
    ("overrides", "setting", "words"),
    [
        # unknown setting
        pytest.param({"kiriagee": True}, "kiriagee", "unknown setting", id="unknown-setting"),
        pytest.param({"preset": "tenhou"}, "preset", "unknown setting", id="preset-as-override"),
        # wrong type
        pytest.param({"start_points": True}, "start_points", "whole number", id="bool-for-int"),
        pytest.param({"chombo_points": 2.5}, "chombo_points", "whole number", id="float-for-int"),
        pytest.param({"goal_points": "30000"}, "goal_points", "whole number", id="str-for-int"),
        pytest.param({"kiriage": "yes"}, "kiriage", "true or false", id="yes-for-bool"),
        pytest.param({"tobi": 1}, "tobi", "true or false", id="int-for-bool"),
        pytest.param({"uma": "15,5,-5,-15"}, "uma", "must be a list", id="str-for-uma"),
        pytest.param({"uma": [15000, 5000, -20000]}, "uma", "four whole numbers", id="uma-three-values"),
        pytest.param({"uma": [15000, 5000, -5000, True]}, "uma", "four whole numbers", id="uma-bool"),
        pytest.param({"pao_yaku": "daisangen"}, "pao_yaku", "must be a list", id="str-for-pao"),
        # impossible values
        pytest.param({"uma": [15000, 5000, -5000, -10000]}, "uma", "sum to 0", id="uma-not-zero"),
        pytest.param({"uma": [-15000, -5000, 5000, 15000]}, "uma", "must not increase", id="uma-increasing"),
        pytest.param({"ties": "coin_toss"}, "ties", "must be one of split, seat_order", id="unknown-choice"),
        pytest.param({"kazoe_limit": "baiman"}, "kazoe_limit", "must be one of", id="unknown-kazoe"),
        pytest.param({"chombo": "yes"}, "chombo", "must be one of", id="unknown-chombo"),
        pytest.param({"pao_yaku": ["kokushi"]}, "pao_yaku", "unknown yakuman 'kokushi'", id="unknown-pao"),
        pytest.param({"start_points": -25000}, "start_points", "cannot be negative", id="negative-start"),
        pytest.param({"chombo_points": -20000}, "chombo_points", "cannot be negative", id="negative-chombo"),
        pytest.param({"return_points": -1}, "return_points", "cannot be negative", id="negative-return"),
        pytest.param({"start_points": 0}, "start_points", "above 0", id="zero-start"),
        pytest.param({"chombo_points": 0}, "chombo_points", "above 0", id="zero-chombo-deduction"),
        pytest.param({"red_fives": 5}, "red_fives", "between 0 and 4", id="five-red-fives"),
    ],
)
def test_invalid_overrides(overrides, setting, words):
    with pytest.raises(RulesetError) as info:
        make_ruleset("ema2016", overrides)
    message = str(info.value)
    assert f"'{setting}'" in message
    assert words in message
    assert info.value.field == setting


def test_unknown_preset():
    with pytest.raises(RulesetError, match="unknown preset 'ema2099'") as info:
        make_ruleset("ema2099")
    assert info.value.field == "preset"
    assert "ema2016" in str(info.value)  # lists the known ones


def test_overrides_do_not_change_the_preset():
    make_ruleset("ema2016", {"kiriage": True, "uma": [20000, 10000, -10000, -20000]})
    assert make_ruleset("ema2016").kiriage is False
    assert PRESETS["ema2016"]["kiriage"] is False


def test_ruleset_is_frozen():
    rules = make_ruleset("ema2016")
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.kiriage = True  # type: ignore[misc]


# -- specs -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_ruleset_from_spec_name(preset):
    assert ruleset_from_spec(preset) == make_ruleset(preset)


def test_ruleset_from_spec_dict():
    rules = ruleset_from_spec({"preset": "ema2016", "kiriage": True, "uma": [20000, 10000, -10000, -20000]})
    assert rules == make_ruleset("ema2016", {"kiriage": True, "uma": [20000, 10000, -10000, -20000]})
    assert rules.preset == "ema2016"
    assert rules.kiriage is True


def test_ruleset_from_spec_dict_without_overrides():
    assert ruleset_from_spec({"preset": "tenhou"}) == make_ruleset("tenhou")


def test_ruleset_from_spec_ruleset():
    rules = make_ruleset("wrc2022")
    assert ruleset_from_spec(rules) is rules


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        pytest.param({"kiriage": True}, "needs a 'preset'", id="missing-preset"),
        pytest.param({"preset": "nope"}, "unknown preset 'nope'", id="unknown-preset-in-dict"),
        pytest.param("nope", "unknown preset 'nope'", id="unknown-preset-name"),
        pytest.param({"preset": "ema2016", "tobi": "no"}, "'tobi'", id="bad-override-in-dict"),
        pytest.param(None, "preset name or an object", id="none"),
        pytest.param(["ema2016"], "preset name or an object", id="list"),
        pytest.param(2016, "preset name or an object", id="number"),
    ],
)
def test_ruleset_from_spec_errors(spec, words):
    with pytest.raises(RulesetError) as info:
        ruleset_from_spec(spec)
    assert words in str(info.value)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_ruleset_spec_of_a_plain_preset_is_its_name(preset):
    assert ruleset_spec(make_ruleset(preset)) == preset


@pytest.mark.parametrize(
    ("preset", "overrides"),
    [
        ("ema2016", {"kiriage": True}),
        ("ema2016", {"uma": [20000, 10000, -10000, -20000], "start_points": 25000}),
        ("tenhou", {"abortive_draw_honba": False, "pao_yaku": ["daisangen"]}),
        ("wrc2022", {"chombo": "reverse_mangan", "leftover_sticks": "first"}),
        ("mleague", {"length": "tonpuusen", "red_fives": 0}),
        ("ema2025", {"kiriage": True}),  # same as the preset: not an override
    ],
    ids=lambda v: str(v),
)
def test_ruleset_spec_round_trip(preset, overrides):
    rules = make_ruleset(preset, overrides)
    spec = ruleset_spec(rules)
    assert ruleset_from_spec(spec) == rules
    if isinstance(spec, dict):
        assert spec["preset"] == preset
        # only the settings that differ from the preset
        assert set(spec) - {"preset"} == {k for k, v in overrides.items() if PRESETS[preset][k] != v}
    else:
        assert spec == preset


def test_ruleset_spec_overrides_are_json_ready():
    spec = ruleset_spec(make_ruleset("ema2016", {"uma": (20000, 10000, -10000, -20000)}))
    assert spec == {"preset": "ema2016", "uma": [20000, 10000, -10000, -20000]}


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_to_dict_round_trip(preset):
    rules = make_ruleset(preset)
    data = rules.to_dict()
    assert data["preset"] == preset
    assert isinstance(data["uma"], list) and isinstance(data["pao_yaku"], list)
    assert ruleset_from_spec(data) == rules


# -- SETTINGS ----------------------------------------------------------------------------------------


def test_every_ruleset_field_has_a_setting():
    names = {f.name for f in dataclasses.fields(Ruleset)} - {"preset"}
    assert names == set(SETTINGS)


@pytest.mark.parametrize("name", sorted(SETTINGS))
def test_setting_is_documented(name):
    setting = SETTINGS[name]
    assert setting.name == name
    assert setting.meaning
    assert setting.kind in (bool, int, str, tuple)
    if setting.kind is str:
        assert setting.choices
        for preset in PRESET_NAMES:
            assert getattr(make_ruleset(preset), name) in setting.choices


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_describe_covers_every_setting(preset):
    assert len(make_ruleset(preset).describe()) == len(SETTINGS)


# -- hostile numbers and shapes (one place for the forms, the admin and imported records) ----------------


INT_SETTINGS = sorted(name for name, s in SETTINGS.items() if s.kind is int and name != "red_fives")


@pytest.mark.parametrize("name", INT_SETTINGS)
@pytest.mark.parametrize("value", [1_000_001, 10**30, 10**5000], ids=["1e6+1", "1e30", "1e5000"])
def test_points_settings_are_bounded(name, value):
    with pytest.raises(RulesetError) as caught:
        make_ruleset("ema2016", {name: value})
    assert caught.value.field == name
    assert "at most 1000000" in caught.value.message
    assert len(caught.value.message) < 200  # a 5 000-digit number is not repeated back


@pytest.mark.parametrize(
    "uma",
    [[10**30, 0, 0, -(10**30)], [2_000_000, 0, 0, -2_000_000], [10**5000, 0, 0, -(10**5000)]],
    ids=["1e30", "2e6", "1e5000"],
)
def test_uma_entries_are_bounded(uma):
    with pytest.raises(RulesetError) as caught:
        make_ruleset("ema2016", {"uma": uma})
    assert caught.value.field == "uma"
    assert len(caught.value.message) < 200


def _nested(depth: int) -> list:
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize("name", ["pao_yaku", "ties", "kiriage", "start_points"])
def test_deeply_nested_values_are_refused_with_a_short_message(name):
    with pytest.raises(RulesetError) as caught:
        ruleset_from_spec({"preset": "ema2016", name: _nested(50_000)})
    assert caught.value.field == name
    assert len(caught.value.message) < 300


def test_oversized_specs_are_refused():
    with pytest.raises(RulesetError):
        make_ruleset("ema2016", {"pao_yaku": ["daisangen"] * 10_000})
    with pytest.raises(RulesetError):
        ruleset_from_spec({"preset": "ema2016", **{f"k{i}": 1 for i in range(1000)}})
    with pytest.raises(RulesetError):
        make_ruleset("ema2016", ["start_points"])  # type: ignore[arg-type]


# -- settings added later: a stored event's results never change by themselves -----------------------


def _stored_before_rounding(preset: str) -> dict[str, object]:
    """An event's effective rules as it stored them before ``round_to_thousands`` existed."""
    data = make_ruleset(preset).to_dict()
    del data["round_to_thousands"]
    return data


@pytest.mark.parametrize("preset", [*PRESET_NAMES, "mahjongsoul"])
def test_a_ruleset_stored_before_rounding_existed_keeps_exact_points(preset):
    """An old ``tenhou`` event stored every setting of its time and played exact points: read back, it
    still does (the preset rounds now, but a stored event's results change only when someone changes
    its rules); everything else it stored is read as it was."""
    rules = ruleset_from_spec(_stored_before_rounding(preset))
    assert rules.round_to_thousands is False
    assert dataclasses.replace(rules, round_to_thousands=make_ruleset(preset).round_to_thousands) == (
        make_ruleset(preset)
    )
    # saved again (Event.clean writes to_dict()), the setting is spelled out and stays off
    assert ruleset_from_spec(rules.to_dict()) == rules
    assert ruleset_spec(rules) == (
        {"preset": "tenhou", "round_to_thousands": False} if preset == "tenhou" else preset
    )


def test_rounding_comes_from_the_preset_in_every_other_spec():
    """Only a dict spelling out every older setting is a stored ruleset: a preset name, a record's short
    overrides or a stored ruleset that names the setting read it as they say."""
    assert make_ruleset("tenhou").round_to_thousands is True
    assert ruleset_from_spec("tenhou").round_to_thousands is True
    assert ruleset_from_spec({"preset": "tenhou", "length": "tonpuusen"}).round_to_thousands is True
    assert ruleset_from_spec(make_ruleset("tenhou").to_dict()).round_to_thousands is True
    stored = _stored_before_rounding("ema2016")
    assert ruleset_from_spec({**stored, "round_to_thousands": True}).round_to_thousands is True
    partial = _stored_before_rounding("tenhou")
    del partial["kiriage"]
    assert ruleset_from_spec(partial).round_to_thousands is True  # overrides, not a stored ruleset
