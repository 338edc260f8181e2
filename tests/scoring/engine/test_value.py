"""Value of a winning hand (docs/rules.md §1): every cell of both seed payment tables, and han/fu validation.

The seed documents' payment tables are transcribed below as data, cell by cell, in the seeds' own layout
(figures only: the tests never read the documents, so the repository is tested on its own):

* seed ``001_af7cf1cc3c5e47df`` (Polish, no kiriage): dealer tsumo ("Wschód (Tsumo)", what
  each player pays), non-dealer tsumo ("Inni (Tsumo)", two figures: the smaller is what each non-dealer
  pays, the larger what the dealer pays), dealer ron ("Wschód (Ron)"), non-dealer ron ("Inni (Ron)"),
  1–4 han × 20–100 fu (the ron tables have no 20 fu row), plus the limit table ("Limity").
* seed ``000_052b694dccc9781e`` (French, the "Table de score" at the end): per fu, the dealer
  ("Est": ``ron (tsumo each)``) and the non-dealer ("Autre joueur": ``ron (non-dealer/dealer tsumo)``),
  20–70 fu; "N/A" is an impossible value; cells marked "Arrondi à mangan dans la plupart des variantes"
  are the kiriage option.

A blank or N/A cell must be rejected by ``check_value`` with a message naming the rule; every other cell
must pass ``check_value`` and come out of ``base_points``/``ron_points``/``tsumo_points`` exactly.
"""

from __future__ import annotations

import re

import pytest

from scoring.engine import RuleViolation
from scoring.engine.ruleset import make_ruleset
from scoring.engine.value import HandValue, base_points, check_value, ron_points, tsumo_points

EMA2016 = make_ruleset("ema2016")  # no kiriage, kazoe capped at sanbaiman, no yakuman stacking
EMA2025 = make_ruleset("ema2025")  # kiriage
TENHOU = make_ruleset("tenhou")  # no kiriage, kazoe yakuman, yakuman stacking
WRC2022 = make_ruleset("wrc2022")  # kiriage, kazoe capped at sanbaiman, yakuman stacking
MLEAGUE = make_ruleset("mleague")  # kiriage, kazoe yakuman

# Rulesets without kiriage: the Polish tables hold for every cell under these.
NO_KIRIAGE = [pytest.param(EMA2016, id="ema2016"), pytest.param(TENHOU, id="tenhou")]

HANS = (1, 2, 3, 4)

# ---------------------------------------------------------------------------------------------------
# Polish seed (001_af7cf1cc3c5e47df.txt). Rows: fu → cells for 1, 2, 3, 4 han ("fan"); None = blank.
# ---------------------------------------------------------------------------------------------------

# "Wschód (Tsumo)": what each of the three others pays the dealer.
PL_DEALER_TSUMO: dict[int, tuple[int | None, ...]] = {
    20: (None, 700, 1300, 2600),
    25: (None, None, 1600, 3200),
    30: (500, 1000, 2000, 3900),
    40: (700, 1300, 2600, 4000),
    50: (800, 1600, 3200, 4000),
    60: (1000, 2000, 3900, 4000),
    70: (1200, 2300, 4000, 4000),
    80: (1300, 2600, 4000, 4000),
    90: (1500, 2900, 4000, 4000),
    100: (1600, 3200, 4000, 4000),
}

# "Inni (Tsumo)": (small, big) = (what each non-dealer pays, what the dealer pays).
PL_NON_DEALER_TSUMO: dict[int, tuple[tuple[int, int] | None, ...]] = {
    20: (None, (400, 700), (700, 1300), (1300, 2600)),
    25: (None, None, (800, 1600), (1600, 3200)),
    30: ((300, 500), (500, 1000), (1000, 2000), (2000, 3900)),
    40: ((400, 700), (700, 1300), (1300, 2600), (2000, 4000)),
    50: ((400, 800), (800, 1600), (1600, 3200), (2000, 4000)),
    60: ((500, 1000), (1000, 2000), (2000, 3900), (2000, 4000)),
    70: ((600, 1200), (1200, 2300), (2000, 4000), (2000, 4000)),
    80: ((700, 1300), (1300, 2600), (2000, 4000), (2000, 4000)),
    90: ((800, 1500), (1500, 2900), (2000, 4000), (2000, 4000)),
    100: ((800, 1600), (1600, 3200), (2000, 4000), (2000, 4000)),
}

# "Wschód (Ron)": what the discarder pays the dealer. (No 20 fu row: see test_pl_ron_table_has_no_20_fu.)
PL_DEALER_RON: dict[int, tuple[int | None, ...]] = {
    25: (None, 2400, 4800, 9600),
    30: (1500, 2900, 5800, 11600),
    40: (2000, 3900, 7700, 12000),
    50: (2400, 4800, 9600, 12000),
    60: (2900, 5800, 11600, 12000),
    70: (3400, 6800, 12000, 12000),
    80: (3900, 7700, 12000, 12000),
    90: (4400, 8700, 12000, 12000),
    100: (4800, 9600, 12000, 12000),
}

# "Inni (Ron)": what the discarder pays a non-dealer.
PL_NON_DEALER_RON: dict[int, tuple[int | None, ...]] = {
    25: (None, 1600, 3200, 6400),
    30: (1000, 2000, 3900, 7700),
    40: (1300, 2600, 5200, 8000),
    50: (1600, 3200, 6400, 8000),
    60: (2000, 3900, 7700, 8000),
    70: (2300, 4500, 8000, 8000),
    80: (2600, 5200, 8000, 8000),
    90: (2900, 5800, 8000, 8000),
    100: (3200, 6400, 8000, 8000),
}

# "Limity": (name, han range, dealer tsumo each ("Wschód"), non-dealer tsumo (small, big) ("Inni")).
PL_LIMITS = [
    ("mangan", (5,), 4000, (2000, 4000)),
    ("haneman", (6, 7), 6000, (3000, 6000)),
    ("baiman", (8, 9, 10), 8000, (4000, 8000)),
    ("sanbaiman", (11, 12), 12000, (6000, 12000)),
    ("yakuman", (13, 14, 15, 20, 26), 16000, (8000, 16000)),  # "13+"
]


def _cells(table):
    for fu, row in table.items():
        for han, cell in zip(HANS, row, strict=True):
            yield han, fu, cell


def _params(table, *, filled: bool):
    return [
        pytest.param(han, fu, cell, id=f"{han}han-{fu}fu")
        for han, fu, cell in _cells(table)
        if (cell is not None) == filled
    ]


def blank_reason(han: int, fu: int, *, tsumo: bool) -> str:
    """The rule of docs/rules.md §1.3 that makes a blank cell impossible (words the message must contain)."""
    if fu == 20 and not tsumo:
        return "fu 20 exists only on a tsumo"
    if fu == 20:
        return "fu 20 needs at least 2 han"
    if fu == 25 and tsumo:
        return "fu 25 needs at least 3 han on a tsumo"
    if fu == 25:
        return "fu 25 needs at least 2 han on a ron"
    raise AssertionError(f"no rule makes {han} han {fu} fu impossible")


def assert_rejected(han: int, fu: int, *, tsumo: bool, rules) -> None:
    reason = blank_reason(han, fu, tsumo=tsumo)
    with pytest.raises(RuleViolation, match=re.escape(reason)) as info:
        check_value(HandValue(han, fu), tsumo=tsumo, rules=rules)
    assert info.value.field == "fu"


# -- Polish tables: filled cells --------------------------------------------------------------------


@pytest.mark.parametrize("rules", NO_KIRIAGE)
@pytest.mark.parametrize(("han", "fu", "each"), _params(PL_DEALER_TSUMO, filled=True))
def test_pl_dealer_tsumo(han, fu, each, rules):
    value = HandValue(han, fu)
    check_value(value, tsumo=True, rules=rules)
    assert tsumo_points(base_points(value, rules), dealer=True) == (each, each)


@pytest.mark.parametrize("rules", NO_KIRIAGE)
@pytest.mark.parametrize(("han", "fu", "pair"), _params(PL_NON_DEALER_TSUMO, filled=True))
def test_pl_non_dealer_tsumo(han, fu, pair, rules):
    small, big = pair
    value = HandValue(han, fu)
    check_value(value, tsumo=True, rules=rules)
    # tsumo_points gives (what the dealer pays, what each non-dealer pays)
    assert tsumo_points(base_points(value, rules), dealer=False) == (big, small)


@pytest.mark.parametrize("rules", NO_KIRIAGE)
@pytest.mark.parametrize(("han", "fu", "points"), _params(PL_DEALER_RON, filled=True))
def test_pl_dealer_ron(han, fu, points, rules):
    value = HandValue(han, fu)
    check_value(value, tsumo=False, rules=rules)
    assert ron_points(base_points(value, rules), dealer=True) == points


@pytest.mark.parametrize("rules", NO_KIRIAGE)
@pytest.mark.parametrize(("han", "fu", "points"), _params(PL_NON_DEALER_RON, filled=True))
def test_pl_non_dealer_ron(han, fu, points, rules):
    value = HandValue(han, fu)
    check_value(value, tsumo=False, rules=rules)
    assert ron_points(base_points(value, rules), dealer=False) == points


# -- Polish tables: blank cells ---------------------------------------------------------------------


@pytest.mark.parametrize("rules", NO_KIRIAGE)
@pytest.mark.parametrize(("han", "fu", "cell"), _params(PL_DEALER_TSUMO, filled=False))
def test_pl_dealer_tsumo_blank_is_rejected(han, fu, cell, rules):
    assert_rejected(han, fu, tsumo=True, rules=rules)


@pytest.mark.parametrize("rules", NO_KIRIAGE)
@pytest.mark.parametrize(("han", "fu", "cell"), _params(PL_NON_DEALER_TSUMO, filled=False))
def test_pl_non_dealer_tsumo_blank_is_rejected(han, fu, cell, rules):
    assert_rejected(han, fu, tsumo=True, rules=rules)


@pytest.mark.parametrize("rules", NO_KIRIAGE)
@pytest.mark.parametrize(("han", "fu", "cell"), _params(PL_DEALER_RON, filled=False))
def test_pl_dealer_ron_blank_is_rejected(han, fu, cell, rules):
    assert_rejected(han, fu, tsumo=False, rules=rules)


@pytest.mark.parametrize("rules", NO_KIRIAGE)
@pytest.mark.parametrize(("han", "fu", "cell"), _params(PL_NON_DEALER_RON, filled=False))
def test_pl_non_dealer_ron_blank_is_rejected(han, fu, cell, rules):
    assert_rejected(han, fu, tsumo=False, rules=rules)


@pytest.mark.parametrize("rules", NO_KIRIAGE)
@pytest.mark.parametrize("han", HANS, ids=lambda h: f"{h}han-20fu")
def test_pl_ron_table_has_no_20_fu(han, rules):
    """Both ron tables start at 25 fu: 20 fu never exists on a ron."""
    assert 20 not in PL_DEALER_RON and 20 not in PL_NON_DEALER_RON
    assert_rejected(han, 20, tsumo=False, rules=rules)


def test_pl_tables_cover_the_same_blanks():
    """Dealer and non-dealer tables have the same blank cells (the rules do not depend on the seat)."""
    blanks = lambda t: {(h, f) for h, f, c in _cells(t) if c is None}  # noqa: E731
    assert blanks(PL_DEALER_TSUMO) == blanks(PL_NON_DEALER_TSUMO) == {(1, 20), (1, 25), (2, 25)}
    assert blanks(PL_DEALER_RON) == blanks(PL_NON_DEALER_RON) == {(1, 25)}


# -- Polish limit table ------------------------------------------------------------------------------


def _limit_params(*, kazoe_yakuman: bool):
    out = []
    for name, hans, each, pair in PL_LIMITS:
        for han in hans:
            if han >= 13 and not kazoe_yakuman:
                continue
            out.append(pytest.param(han, each, pair, id=f"{name}-{han}han"))
    return out


@pytest.mark.parametrize("fu", [None, 30], ids=["no-fu", "fu-30"])
@pytest.mark.parametrize(("han", "each", "pair"), _limit_params(kazoe_yakuman=True))
def test_pl_limits_tenhou(han, each, pair, fu):
    """Under tenhou (kazoe_limit="yakuman") the whole limit table holds, 13+ han being kazoe yakuman."""
    assert TENHOU.kazoe_limit == "yakuman"
    small, big = pair
    for tsumo in (True, False):
        check_value(HandValue(han, fu), tsumo=tsumo, rules=TENHOU)
    base = base_points(HandValue(han, fu), TENHOU)
    assert tsumo_points(base, dealer=True) == (each, each)
    assert tsumo_points(base, dealer=False) == (big, small)
    # The ron values follow from the same base: 6 × base = 3 × each, 4 × base = 2 × big.
    assert ron_points(base, dealer=True) == 3 * each
    assert ron_points(base, dealer=False) == 2 * big


@pytest.mark.parametrize("rules", [pytest.param(EMA2016, id="ema2016"), pytest.param(WRC2022, id="wrc2022")])
@pytest.mark.parametrize(("han", "each", "pair"), _limit_params(kazoe_yakuman=False))
def test_pl_limits_up_to_sanbaiman_any_ruleset(han, each, pair, rules):
    small, big = pair
    base = base_points(HandValue(han), rules)
    assert tsumo_points(base, dealer=True) == (each, each)
    assert tsumo_points(base, dealer=False) == (big, small)


@pytest.mark.parametrize(
    "rules",
    [pytest.param(r, id=r.preset) for r in (EMA2016, EMA2025, WRC2022, MLEAGUE, TENHOU)],
)
def test_pl_limit_yakuman_row_as_a_yakuman(rules):
    """The "Yakuman" row as a real yakuman (multiplier 1): 16000 all / 8000-16000 under every preset."""
    value = HandValue(yakuman=1)
    check_value(value, tsumo=True, rules=rules)
    base = base_points(value, rules)
    assert base == 8000
    assert tsumo_points(base, dealer=True) == (16000, 16000)
    assert tsumo_points(base, dealer=False) == (16000, 8000)
    assert ron_points(base, dealer=True) == 48000
    assert ron_points(base, dealer=False) == 32000


# ---------------------------------------------------------------------------------------------------
# French seed (000_052b694dccc9781e.txt, "Table de score"). Rows: fu → cells for 1, 2, 3, 4 han, as
# printed ("ron (tsumo)"); the seed prints the dealer's columns from 4 han down to 1 han.
# ---------------------------------------------------------------------------------------------------

ARRONDI = "Arrondi à mangan dans la plupart des variantes"

# "Est": "ron (each player's tsumo payment)".
FR_DEALER: dict[int, tuple[str, ...]] = {
    20: ("N/A", "N/A (700)", "N/A (1300)", "N/A (2600)"),
    25: ("N/A", "2400 (N/A)", "4800 (1600)", "9600 (3200)"),
    30: ("1500 (500)", "2900 (1000)", "5800 (2000)", f"11600 (3900) {ARRONDI}"),
    40: ("2000 (700)", "3900 (1300)", "7700 (2600)", "Mangan"),
    50: ("2400 (800)", "4800 (1600)", "9600 (3200)", "Mangan"),
    60: ("2900 (1000)", "5800 (2000)", f"11600 (3900) {ARRONDI}", "Mangan"),
    70: ("3400 (1200)", "6800 (2300)", "Mangan", "Mangan"),
}

# "Autre joueur": "ron (non-dealer pays/dealer pays on a tsumo)".
FR_NON_DEALER: dict[int, tuple[str, ...]] = {
    20: ("N/A", "N/A (400/700)", "N/A (700/1300)", "N/A (1300/2600)"),
    25: ("N/A", "1600 (N/A)", "3200 (800/1600)", "6400 (1600/3200)"),
    30: ("1000 (300/500)", "2000 (500/1000)", "3900 (1000/2000)", f"7700 (2000/3900) {ARRONDI}"),
    40: ("1300 (400/700)", "2600 (700/1300)", "5200 (1300/2600)", "Mangan"),
    50: ("1600 (400/800)", "3200 (800/1600)", "6400 (1600/3200)", "Mangan"),
    60: ("2000 (500/1000)", "3900 (1000/2000)", f"7700 (2000/3900) {ARRONDI}", "Mangan"),
    70: ("2300 (600/1200)", "4500 (1200/2300)", "Mangan", "Mangan"),
}

# What "Mangan" means in each column: (ron, tsumo) with the tsumo as in the column's own notation.
FR_MANGAN = {True: (12000, "4000"), False: (8000, "2000/4000")}

CELL = re.compile(r"^(?P<ron>\d+|N/A)(?: \((?P<tsumo>[\d/]+|N/A)\))?(?P<arrondi> " + ARRONDI + ")?$")


def parse_fr_cell(cell: str, *, dealer: bool, kiriage: bool):
    """(ron points or None, tsumo payments or None) of a French cell under a ruleset with/without kiriage.

    The tsumo payments are in ``tsumo_points`` order: (what the dealer pays, what a non-dealer pays).
    """
    if cell == "Mangan" or (kiriage and cell.endswith(ARRONDI)):
        ron, tsumo = FR_MANGAN[dealer]
    elif cell == "N/A":  # both impossible (1 han 20 fu, 1 han 25 fu)
        return None, None
    else:
        match = CELL.match(cell)
        assert match, cell
        ron = None if match["ron"] == "N/A" else int(match["ron"])
        tsumo = match["tsumo"]
    if tsumo is None or tsumo == "N/A":
        return ron, None
    if dealer:
        return ron, (int(tsumo), int(tsumo))
    small, big = (int(x) for x in tsumo.split("/"))
    return ron, (big, small)


FR_RULESETS = [pytest.param(EMA2016, id="ema2016-no-kiriage"), pytest.param(EMA2025, id="ema2025-kiriage")]


def _fr_params():
    out = []
    for dealer, table in ((True, FR_DEALER), (False, FR_NON_DEALER)):
        who = "dealer" if dealer else "non-dealer"
        for han, fu, cell in _cells(table):
            out.append(pytest.param(dealer, han, fu, cell, id=f"{who}-{han}han-{fu}fu"))
    return out


@pytest.mark.parametrize("rules", FR_RULESETS)
@pytest.mark.parametrize(("dealer", "han", "fu", "cell"), _fr_params())
def test_fr_ron_cell(dealer, han, fu, cell, rules):
    ron, _ = parse_fr_cell(cell, dealer=dealer, kiriage=rules.kiriage)
    value = HandValue(han, fu)
    if ron is None:
        assert_rejected(han, fu, tsumo=False, rules=rules)
    else:
        check_value(value, tsumo=False, rules=rules)
        assert ron_points(base_points(value, rules), dealer=dealer) == ron


@pytest.mark.parametrize("rules", FR_RULESETS)
@pytest.mark.parametrize(("dealer", "han", "fu", "cell"), _fr_params())
def test_fr_tsumo_cell(dealer, han, fu, cell, rules):
    _, tsumo = parse_fr_cell(cell, dealer=dealer, kiriage=rules.kiriage)
    value = HandValue(han, fu)
    if tsumo is None:
        assert_rejected(han, fu, tsumo=True, rules=rules)
    else:
        check_value(value, tsumo=True, rules=rules)
        assert tsumo_points(base_points(value, rules), dealer=dealer) == tsumo


def test_fr_table_has_exactly_four_arrondi_cells():
    arrondi = [
        (d, h, f)
        for d, t in (("dealer", FR_DEALER), ("non-dealer", FR_NON_DEALER))
        for h, f, c in _cells(t)
        if c.endswith(ARRONDI)
    ]
    assert sorted(arrondi) == [
        ("dealer", 3, 60),
        ("dealer", 4, 30),
        ("non-dealer", 3, 60),
        ("non-dealer", 4, 30),
    ]


@pytest.mark.parametrize(
    ("rules", "han", "fu", "dealer", "ron", "tsumo"),
    [
        pytest.param(EMA2016, 4, 30, False, 7700, (3900, 2000), id="ema2016-4-30-non-dealer"),
        pytest.param(EMA2016, 3, 60, False, 7700, (3900, 2000), id="ema2016-3-60-non-dealer"),
        pytest.param(EMA2016, 4, 30, True, 11600, (3900, 3900), id="ema2016-4-30-dealer"),
        pytest.param(EMA2016, 3, 60, True, 11600, (3900, 3900), id="ema2016-3-60-dealer"),
        pytest.param(TENHOU, 4, 30, False, 7700, (3900, 2000), id="tenhou-4-30-non-dealer"),
        pytest.param(EMA2025, 4, 30, False, 8000, (4000, 2000), id="ema2025-4-30-non-dealer"),
        pytest.param(EMA2025, 3, 60, False, 8000, (4000, 2000), id="ema2025-3-60-non-dealer"),
        pytest.param(EMA2025, 4, 30, True, 12000, (4000, 4000), id="ema2025-4-30-dealer"),
        pytest.param(EMA2025, 3, 60, True, 12000, (4000, 4000), id="ema2025-3-60-dealer"),
        pytest.param(WRC2022, 4, 30, False, 8000, (4000, 2000), id="wrc2022-4-30-non-dealer"),
        pytest.param(MLEAGUE, 3, 60, True, 12000, (4000, 4000), id="mleague-3-60-dealer"),
    ],
)
def test_kiriage_option(rules, han, fu, dealer, ron, tsumo):
    """The "arrondi à mangan" cells: 7700/11600 without kiriage, mangan with it (docs/rules.md §1.1)."""
    base = base_points(HandValue(han, fu), rules)
    assert ron_points(base, dealer=dealer) == ron
    assert tsumo_points(base, dealer=dealer) == tsumo


@pytest.mark.parametrize(
    ("han", "fu"),
    [(4, 25), (3, 50), (2, 60), (4, 20), (3, 40), (2, 100), (1, 110)],
    ids=lambda v: str(v),
)
def test_kiriage_touches_only_4_30_and_3_60(han, fu):
    assert base_points(HandValue(han, fu), EMA2025) == base_points(HandValue(han, fu), EMA2016) < 2000


@pytest.mark.parametrize(
    ("name", "base"),
    [("mangan", 2000), ("haneman", 3000), ("baiman", 4000), ("sanbaiman", 6000), ("yakuman", 8000)],
)
def test_fr_limit_base_points(name, base):
    """The French seed's base points of the limits (mangan 2000 … yakuman 8000)."""
    han = {"mangan": 5, "haneman": 6, "baiman": 8, "sanbaiman": 11}.get(name)
    value = HandValue(yakuman=1) if han is None else HandValue(han)
    assert base_points(value, EMA2016) == base


# ---------------------------------------------------------------------------------------------------
# Validation and the rest of docs/rules.md §1
# ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("tsumo", [True, False], ids=["tsumo", "ron"])
@pytest.mark.parametrize("han", HANS)
@pytest.mark.parametrize("fu", [35, 15, 140, 10, 0, 22, 150, -30])
def test_invalid_fu_is_rejected(fu, han, tsumo):
    with pytest.raises(RuleViolation, match=rf"fu {fu} does not exist") as info:
        check_value(HandValue(han, fu), tsumo=tsumo, rules=EMA2016)
    assert info.value.field == "fu"


@pytest.mark.parametrize("fu", [110, 120, 130])
@pytest.mark.parametrize("han", HANS)
def test_fu_above_100_up_to_130_exists(han, fu):
    value = HandValue(han, fu)
    check_value(value, tsumo=False, rules=EMA2016)
    check_value(value, tsumo=True, rules=EMA2016)
    assert base_points(value, EMA2016) == min(fu * 2 ** (han + 2), 2000)


@pytest.mark.parametrize("tsumo", [True, False], ids=["tsumo", "ron"])
@pytest.mark.parametrize("han", [0, -1])
def test_han_below_1_is_rejected(han, tsumo):
    with pytest.raises(RuleViolation, match=rf"han must be a whole number of at least 1, not {han}") as info:
        check_value(HandValue(han, 30), tsumo=tsumo, rules=EMA2016)
    assert info.value.field == "han"


def test_han_missing_is_rejected():
    with pytest.raises(RuleViolation, match="a win needs han"):
        check_value(HandValue(None, 30), tsumo=False, rules=EMA2016)


@pytest.mark.parametrize("value", [HandValue(True, 30), HandValue(2, True), HandValue("3", 30)], ids=repr)
def test_non_integer_han_or_fu_is_rejected(value):
    with pytest.raises(RuleViolation, match="must be a whole number"):
        check_value(value, tsumo=False, rules=EMA2016)


@pytest.mark.parametrize("tsumo", [True, False], ids=["tsumo", "ron"])
@pytest.mark.parametrize("han", HANS)
def test_fu_missing_below_5_han_is_rejected(han, tsumo):
    with pytest.raises(RuleViolation, match=rf"{han} han needs fu") as info:
        check_value(HandValue(han, None), tsumo=tsumo, rules=EMA2016)
    assert info.value.field == "fu"


@pytest.mark.parametrize("tsumo", [True, False], ids=["tsumo", "ron"])
@pytest.mark.parametrize("fu", [None, 20, 25, 35, 140, 30], ids=lambda f: f"fu-{f}")
@pytest.mark.parametrize(
    ("han", "base"), [(5, 2000), (6, 3000), (7, 3000), (8, 4000), (11, 6000), (12, 6000)]
)
def test_fu_is_ignored_from_5_han(han, base, fu, tsumo):
    """From 5 han fu is irrelevant: it may be left out, and any value given changes nothing."""
    value = HandValue(han, fu)
    check_value(value, tsumo=tsumo, rules=EMA2016)
    assert base_points(value, EMA2016) == base


@pytest.mark.parametrize(("han", "fu"), [(3, 70), (4, 40), (3, 80), (4, 50), (4, 100), (2, 130)])
@pytest.mark.parametrize("rules", NO_KIRIAGE)
def test_mangan_reached_by_the_formula(han, fu, rules):
    """3 han 70 fu and 4 han 40 fu reach the mangan cap by themselves, without kiriage."""
    assert not rules.kiriage
    base = base_points(HandValue(han, fu), rules)
    assert base == 2000
    assert ron_points(base, dealer=False) == 8000
    assert ron_points(base, dealer=True) == 12000


@pytest.mark.parametrize(("han", "fu"), [(2, 120), (1, 130)])
def test_just_below_mangan(han, fu):
    # 2 han 120 fu: 120 × 16 = 1920; 1 han 130 fu: 130 × 8 = 1040.
    assert base_points(HandValue(han, fu), EMA2016) == fu * 2 ** (han + 2) < 2000


@pytest.mark.parametrize(
    ("dealer", "base", "expected"),
    [
        pytest.param(False, 240, (500, 300), id="1-30-non-dealer-300-500"),
        pytest.param(False, 320, (700, 400), id="1-40-non-dealer-400-700"),
        pytest.param(False, 400, (800, 400), id="1-50-non-dealer-400-800"),
        pytest.param(True, 240, (500, 500), id="1-30-dealer-500-all"),
        pytest.param(False, 1920, (3900, 2000), id="4-30-non-dealer-2000-3900"),
    ],
)
def test_each_payment_rounded_up_separately(dealer, base, expected):
    """Each payment is rounded up on its own: a 1-30 non-dealer tsumo is 300/500 (1100), not 1000."""
    assert tsumo_points(base, dealer=dealer) == expected


def test_1_30_non_dealer_tsumo_value():
    base = base_points(HandValue(1, 30), EMA2016)
    assert base == 240
    dealer_pays, other_pays = tsumo_points(base, dealer=False)
    assert (other_pays, dealer_pays) == (300, 500)
    assert dealer_pays + 2 * other_pays == 1100  # more than the 1000 of a ron
    assert ron_points(base, dealer=False) == 1000


@pytest.mark.parametrize(
    ("base", "dealer", "ron"), [(240, False, 1000), (240, True, 1500), (1920, True, 11600)]
)
def test_ron_rounded_up(base, dealer, ron):
    assert ron_points(base, dealer=dealer) == ron


# -- yakuman multipliers and kazoe -------------------------------------------------------------------


@pytest.mark.parametrize("tsumo", [True, False], ids=["tsumo", "ron"])
@pytest.mark.parametrize("rules", [pytest.param(EMA2016, id="ema2016"), pytest.param(EMA2025, id="ema2025")])
@pytest.mark.parametrize("k", [2, 3, 6])
def test_yakuman_multiplier_paid_as_one_without_stacking(k, rules, tsumo):
    """The record states the count at the table; a ruleset without stacking pays it as one yakuman."""
    assert not rules.yakuman_stacking
    value = HandValue(yakuman=k)
    check_value(value, tsumo=tsumo, rules=rules)  # accepted, not rejected
    base = base_points(value, rules)
    assert base == 8000
    assert ron_points(base, dealer=False) == 32000
    assert ron_points(base, dealer=True) == 48000
    assert tsumo_points(base, dealer=False) == (16000, 8000)


@pytest.mark.parametrize("tsumo", [True, False], ids=["tsumo", "ron"])
@pytest.mark.parametrize(
    "rules",
    [pytest.param(WRC2022, id="wrc2022"), pytest.param(TENHOU, id="tenhou"), pytest.param(MLEAGUE, id="ml")],
)
@pytest.mark.parametrize("k", [1, 2, 3])
def test_yakuman_multiplier_accepted_with_stacking(k, rules, tsumo):
    assert rules.yakuman_stacking
    value = HandValue(yakuman=k)
    check_value(value, tsumo=tsumo, rules=rules)
    base = base_points(value, rules)
    assert base == 8000 * k
    assert ron_points(base, dealer=False) == 32000 * k
    assert ron_points(base, dealer=True) == 48000 * k
    assert tsumo_points(base, dealer=False) == (16000 * k, 8000 * k)
    assert tsumo_points(base, dealer=True) == (16000 * k, 16000 * k)


@pytest.mark.parametrize("k", [0, -1, True])
def test_yakuman_multiplier_below_1_rejected(k):
    with pytest.raises(RuleViolation, match="yakuman must be a whole number of at least 1"):
        check_value(HandValue(yakuman=k), tsumo=False, rules=WRC2022)


def test_han_and_yakuman_together_rejected():
    with pytest.raises(RuleViolation, match="either han .* or yakuman, not both"):
        check_value(HandValue(13, None, 1), tsumo=False, rules=TENHOU)


@pytest.mark.parametrize(
    ("rules", "base"),
    [
        pytest.param(EMA2016, 6000, id="ema2016-sanbaiman"),
        pytest.param(EMA2025, 6000, id="ema2025-sanbaiman"),
        pytest.param(WRC2022, 6000, id="wrc2022-sanbaiman"),
        pytest.param(MLEAGUE, 8000, id="mleague-yakuman"),
        pytest.param(TENHOU, 8000, id="tenhou-yakuman"),
    ],
)
@pytest.mark.parametrize("han", [13, 14, 20, 30])
def test_kazoe(han, rules, base):
    """13+ han: kazoe yakuman, or capped at sanbaiman (EMA, WRC): 13 han = 6000 base in ema2016."""
    assert base_points(HandValue(han), rules) == base
    assert ron_points(base_points(HandValue(han), rules), dealer=False) == 4 * base


def test_kazoe_capped_at_sanbaiman_payments_ema2016():
    base = base_points(HandValue(13), EMA2016)
    assert base == 6000
    assert ron_points(base, dealer=False) == 24000
    assert ron_points(base, dealer=True) == 36000
    assert tsumo_points(base, dealer=False) == (12000, 6000)


@pytest.mark.parametrize(
    ("overrides", "base"),
    [({"kazoe_limit": "yakuman"}, 8000), ({"kazoe_limit": "sanbaiman"}, 6000)],
    ids=["override-yakuman", "override-sanbaiman"],
)
def test_kazoe_limit_override(overrides, base):
    assert base_points(HandValue(13), make_ruleset("ema2016", overrides)) == base
    assert base_points(HandValue(13), make_ruleset("tenhou", overrides)) == base


def test_kiriage_override():
    assert base_points(HandValue(4, 30), make_ruleset("ema2016", {"kiriage": True})) == 2000
    assert base_points(HandValue(4, 30), make_ruleset("ema2025", {"kiriage": False})) == 1920
