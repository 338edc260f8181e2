"""The engine's messages are translatable, and the command line keeps its English.

The engine raises constant English templates marked with its ``gettext_noop`` (or ``ngettext_lazy``), with
what varies as parameters; ``league.engine_text.engine_message`` renders them in the reader's language.
Three checks: a static one that every error the engine builds has a marked constant template (a computed
message could never be in a catalogue), one that ``str(exc)`` — the management commands' contract — is the
same English line as ever, and the French and Polish renderings of real errors (these pass once the
catalogues hold the engine's translations).
"""

from __future__ import annotations

import ast
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from django.utils import translation

from league.engine_text import engine_message, rules_in_words, seat_text
from scoring.engine import (
    EngineError,
    Hand,
    HandValue,
    RecordError,
    RulesetError,
    RuleViolation,
    TableState,
    Win,
    check_final_scores,
    load_record,
    make_ruleset,
    play_hand,
    replay,
)
from scoring.engine.logs import LogError, read_log
from scoring.engine.logs.game import _where
from scoring.engine.tiles import TileHand, score_tiles

ENGINE = Path(__file__).resolve().parents[2] / "scoring" / "engine"
ENGINE_FILES = sorted(ENGINE.rglob("*.py"))
EMA = make_ruleset("ema2016")
NAMES = ["Ann", "Bob", "Cho", "Dan"]

# -- every message is a marked constant ----------------------------------------------------------------

MESSAGE_TYPES = {
    "EngineError",
    "RulesetError",
    "RuleViolation",
    "RecordError",
    "TileError",
    "LogError",
    "Phrase",
}
"""What takes a template as its first argument."""


def _name(node: ast.expr) -> str:
    return node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""


def _is_string(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _is_marker(node: ast.expr) -> bool:
    """``gettext_noop("constant")`` or ``ngettext_lazy("singular", "plural", "count")``."""
    if not isinstance(node, ast.Call) or node.keywords:
        return False
    if _name(node.func) == "gettext_noop":
        return len(node.args) == 1 and _is_string(node.args[0])
    if _name(node.func) == "ngettext_lazy":
        return len(node.args) == 3 and all(_is_string(arg) for arg in node.args)
    return False


def _marked_tables(tree: ast.Module) -> set[str]:
    """Module-level dicts and tuples whose every value is a marked constant (``_LIBRARY_ERRORS``)."""
    names = set()
    for node in tree.body:
        target, value = None, None
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        elif isinstance(node, ast.AnnAssign):
            target, value = node.target, node.value
        if not isinstance(target, ast.Name) or value is None:
            continue
        items = value.values if isinstance(value, ast.Dict) else getattr(value, "elts", None)
        if items and all(_is_marker(item) for item in items):
            names.add(target.id)
    return names


def _is_template(node: ast.expr, tables: set[str]) -> bool:
    if _is_marker(node):
        return True
    if isinstance(node, ast.IfExp):  # one of two marked templates
        return _is_template(node.body, tables) and _is_template(node.orelse, tables)
    if isinstance(node, ast.Attribute) and node.attr == "source":  # an existing error's own template
        return True
    # one of a table of marked templates: TABLE[key]
    return isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in tables


def unmarked_messages(path: Path) -> list[str]:
    """``line: code`` of every error or phrase built in ``path`` whose template is not a marked constant."""
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source, filename=str(path))
    tables = _marked_tables(tree)
    bad = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        kind = _name(node.func)
        if kind in MESSAGE_TYPES:
            keyword = next((k.value for k in node.keywords if k.arg == "message"), None)
            first = node.args[0] if node.args else keyword
        elif kind == "_S":  # ruleset settings: name, kind, meaning
            first = node.args[2] if len(node.args) > 2 else None
        elif kind in ("_y", "_ym", "Yaku"):  # yaku table: name, English meaning, …
            first = node.args[1] if len(node.args) > 1 else None
            if isinstance(first, ast.Name):
                continue  # the helpers _y and _ym pass on their argument, checked where they are called
        else:
            continue
        if first is None or not _is_template(first, tables):
            code = (ast.get_source_segment(source, node) or "")[:90]
            bad.append(f"{path.name}:{node.lineno}: {code}")
    return bad


@pytest.mark.parametrize("path", ENGINE_FILES, ids=lambda p: str(p.relative_to(ENGINE)))
def test_every_engine_message_is_a_marked_constant(path: Path) -> None:
    """A new ``raise XxxError(f"…")`` fails here: wrap a constant template in ``gettext_noop`` and pass
    what varies as ``params`` (or ``seats``), so that makemessages puts the message in the catalogues."""
    assert unmarked_messages(path) == []


def test_the_check_finds_unmarked_messages(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "def f(x):\n"
        "    raise RuleViolation(f'bad {x}')\n"
        "def g(x):\n"
        "    raise RecordError('hand: ' + x, hand=1)\n"
        "def h(x):\n"
        "    raise TileError(gettext_noop('fine {x}'), params={'x': x})\n"
        "def i(x):\n"
        "    return Phrase(gettext_noop('a') if x else 'b')\n",
        encoding="utf-8",
    )
    found = unmarked_messages(sample)
    assert [line.split(":")[1] for line in found] == ["2", "4", "8"]


def test_the_engine_builds_many_marked_messages() -> None:
    """The check above really walks the engine's messages (a refactoring could hide them from it)."""
    count = 0
    for path in ENGINE_FILES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and _name(node.func) in MESSAGE_TYPES and node.args:
                count += _is_marker(node.args[0]) or isinstance(node.args[0], ast.IfExp)
    assert count > 150


# -- str(exc) is the command line's English, unchanged -------------------------------------------------


def raised(action: Callable[[], object]) -> EngineError:
    with pytest.raises(EngineError) as info:
        action()
    return info.value


def _record(**fields: object) -> str:
    return json.dumps({"format": 1, "rules": "ema2016", **fields})


def ron(**win: object) -> dict[str, object]:
    """A record's ron by seat 1 off seat 0."""
    return {"result": "ron", "loser": 0, "wins": [{"winner": 1, **win}]}


ENGLISH = [
    pytest.param(
        lambda: replay([Hand.ron(1, Win(1, 2, 30))], EMA),
        "hand 1: seat 1 cannot win on their own discard",
        id="own-discard",
    ),
    pytest.param(
        lambda: load_record(_record(hands=[{"result": "draw"}, ron(han=1, fu=25)])),
        "hand 2: fu 25 needs at least 2 han on a ron",
        id="contract-example",
    ),
    pytest.param(
        lambda: check_final_scores([30000, 30000, 30000, 30000], 1, EMA),
        "the four scores sum to 120000, but must sum to 119000 (4 × 30000 start points − 1 riichi stick left "
        "on the table)",
        id="final-sum-one-stick",
    ),
    pytest.param(
        lambda: check_final_scores([30000, 30000, 30000, 30000], 2, EMA),
        "the four scores sum to 120000, but must sum to 118000 (4 × 30000 start points − 2 riichi sticks "
        "left on the table)",
        id="final-sum-sticks",
    ),
    pytest.param(
        lambda: check_final_scores([30000, 30000, 30050, 29950], 0, EMA),
        "West's score 30050 is not a multiple of 100",
        id="final-wind",
    ),
    pytest.param(
        lambda: make_ruleset("ema2016", {"start_points": 10**20}),
        "rules: setting 'start_points' must be at most 1000000 points, not a number of about 21 digits",
        id="ruleset-huge-number",
    ),
    pytest.param(
        lambda: make_ruleset("ema2016", {"ties": "coin"}),
        "rules: setting 'ties' must be one of split, seat_order, not 'coin'",
        id="ruleset-choice",
    ),
    pytest.param(
        lambda: load_record(_record(rules="nope")),
        "rules: unknown preset 'nope' (known: ema2016, ema2025, wrc2022, mleague, tenhou, mahjongsoul)",
        id="record-ruleset",
    ),
    pytest.param(
        lambda: load_record(_record(players=["a", "b", "c", "d\x00"])),
        "players: the name of seat 3 holds the character U+0000: control characters and lone surrogates are "
        "not allowed",
        id="nested-players",
    ),
    pytest.param(
        lambda: load_record(_record(penalties=[{"seat": 0}])),
        "penalty 1: 'points' is missing",
        id="nested-penalty",
    ),
    pytest.param(
        lambda: load_record(_record(hands=[ron(han=1, fu=30, yaku=[{"name": "riichi"}])])),
        "hand 1: 'yaku': riichi needs either 'han' or 'yakuman' (how many yakuman it counts), not both",
        id="yaku-han",
    ),
    pytest.param(
        lambda: load_record(_record(hands=[ron(han=1, fu=30, dora=200)])),
        "hand 1: 'dora' (dora in the hand) must be a whole number from 0 to 99, not 200",
        id="dora-phrase",
    ),
    pytest.param(
        lambda: load_record(_record(log=[1])),
        'log: must be an object such as {"source": "tenhou", "id": "..."}, not [1]',
        id="literal-braces",
    ),
    pytest.param(
        lambda: play_hand(TableState.start(EMA), Hand.ron(7, Win(1, 2, 30)), EMA),
        "loser must be a seat from 0 to 3, not 7",
        id="seat-range",
    ),
    pytest.param(
        lambda: score_tiles(TileHand(tiles="123m 456p 789s 11z", win_tile="1m", melds=("pon:5x",)), EMA),
        "meld 'pon:5x': bad tile notation '5x': write the numbers, then the suit (m, p, s or z), like "
        "123m456p789s11z; 0 is a red five",
        id="nested-meld",
    ),
    pytest.param(
        lambda: score_tiles(TileHand(tiles="123m456p789s66666z", win_tile="6z"), EMA),
        "more than four 6z (green dragon): the hand, its melds and the dora indicators show 5",
        id="honour-phrase",
    ),
    pytest.param(
        lambda: score_tiles(TileHand(tiles="123m456p789s1112z", win_tile="2z"), EMA),
        "hand has 13 tiles; a winning hand needs 14 (counting each kan as 3): the tiles include the winning "
        "tile, so add 2z to them",
        id="tiles-hint",
    ),
    pytest.param(
        lambda: read_log(b'[{"log": []}]'),
        "game 1: the log holds no hand",
        id="nested-log",
    ),
]


@pytest.mark.parametrize(("action", "english"), ENGLISH)
def test_str_is_the_english_line(action, english):
    exc = raised(action)
    assert str(exc) == english
    assert engine_message(exc) == english  # rendered in English, the same words


def test_english_rendering_names_players():
    exc = raised(ENGLISH[0].values[0])
    assert engine_message(exc, NAMES) == "hand 1: Bob cannot win on their own discard"
    assert engine_message(exc, ["", "", "", ""]) == "hand 1: seat 1 cannot win on their own discard"


def test_phrases_keep_their_english():
    rules = make_ruleset("ema2016")
    assert HandValue(3, 40).describe() == "3 han 40 fu"
    assert HandValue(6).describe() == "6 han"
    assert HandValue(yakuman=2).describe(rules) == "double yakuman, paid as one yakuman"
    assert HandValue(yakuman=4).describe() == "4× yakuman"
    assert engine_message(HandValue(yakuman=2).phrase(rules)) == "double yakuman, paid as one yakuman"
    assert str(_where(1, 2, 1)) == "E2 with 2 honba and 1 riichi stick"
    assert str(_where(20, 0, 3)) == "round 20 with 0 honba and 3 riichi sticks"


def test_plain_message_braces_are_text():
    exc = RuleViolation("unknown result {'a': 1}", field="result")
    assert str(exc) == engine_message(exc) == "unknown result {'a': 1}"


def test_a_broken_translation_falls_back_to_english(monkeypatch):
    import league.engine_text as engine_text

    monkeypatch.setattr(engine_text, "gettext", lambda text: "{nope} !" if "{" in text else text)
    exc = raised(ENGLISH[0].values[0])
    assert engine_message(exc, NAMES) == "hand 1: Bob cannot win on their own discard"


def test_rules_in_words_in_english_is_describe():
    for preset in ("ema2016", "tenhou", "wrc2022"):
        rules = make_ruleset(preset)
        assert rules_in_words(rules) == rules.describe()


def test_errors_are_still_the_same_classes():
    assert isinstance(raised(lambda: make_ruleset("nope")), RulesetError)
    assert isinstance(raised(lambda: read_log(b"x")), LogError)
    assert isinstance(raised(lambda: load_record("{")), RecordError)


# -- French and Polish (pass once the engine's translations are in the catalogues) ----------------------


def test_french_ron_on_own_discard_names_the_players():
    exc = raised(ENGLISH[0].values[0])
    with translation.override("fr"):
        assert engine_message(exc, NAMES) == "donne 1 : Bob ne peut pas gagner sur son propre écart"
        assert engine_message(exc) == "donne 1 : place 1 ne peut pas gagner sur son propre écart"
        assert seat_text(2) == "place 2"


def test_french_record_error_with_a_hand_number():
    exc = raised(ENGLISH[1].values[0])
    with translation.override("fr"):
        assert engine_message(exc) == "donne 2 : fu 25 demande au moins 2 han sur un ron"


def test_french_ruleset_error():
    exc = raised(lambda: make_ruleset("ema2016", {"uma": [10, 0, 0, -5]}))
    with translation.override("fr"):
        assert engine_message(exc) == (
            "règles : le paramètre 'uma' doit totaliser 0 pour que les résultats totalisent les pénalités "
            "(il totalise 5)"
        )


def test_french_final_scores_error_names_the_wind():
    exc = raised(lambda: check_final_scores([30000, 30000, 30050, 29950], 0, EMA))
    with translation.override("fr"):
        assert engine_message(exc) == "Ouest : le score 30050 n'est pas un multiple de 100"
        assert engine_message(exc, NAMES) == "Cho : le score 30050 n'est pas un multiple de 100"


def test_french_plural_and_nested_phrases():
    one = raised(lambda: check_final_scores([30000] * 4, 1, EMA))
    honour = raised(ENGLISH[15].values[0])
    with translation.override("fr"):
        assert engine_message(one) == (
            "les quatre scores totalisent 120000, mais doivent totaliser 119000 (4 × 30000 points de départ "
            "− 1 bâton de riichi resté sur la table)"
        )
        assert engine_message(honour) == (
            "plus de quatre 6z (dragon vert) : la main, ses groupes et les indicateurs de dora en montrent 5"
        )


def test_polish_plural_forms():
    with translation.override("pl"):
        few = engine_message(raised(lambda: check_final_scores([30000] * 4, 3, EMA)))
        many = engine_message(raised(lambda: check_final_scores([30000] * 4, 5, EMA)))
    assert "3 patyczki riichi" in few
    assert "5 patyczków riichi" in many
