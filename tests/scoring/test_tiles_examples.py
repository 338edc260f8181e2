"""The tiles examples shown to organisers (docs/organisers.md and the hand form's help text) score
through the tiles adapter: the guide can never again show an example the tiles entry rejects.

The guide used to show ``123m456p789s2233z`` with winning tile ``3z``: 13 tiles, because the tiles must
include the winning tile (and a West-wind triplet would be a yaku only for the West seat)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scoring.engine import PRESETS, make_ruleset
from scoring.engine.tiles import TileHand, score_tiles
from scoring.forms import HandForm

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "organisers.md"
EXAMPLE = re.compile(
    r"`(?P<tiles>[0-9mpsz]+)`,\s+winning\s+tile\s+`(?P<win>[0-9][mpsz])`"
    r"(?:[^`]*?(?P<han>\d+)\s+han\s+(?P<fu>\d+)\s+fu\s+on\s+a\s+ron)?"
)


def guide_examples() -> list[tuple[str, str, int | None, int | None]]:
    found = []
    for match in EXAMPLE.finditer(GUIDE.read_text(encoding="utf-8")):
        han, fu = match["han"], match["fu"]
        found.append((match["tiles"], match["win"], int(han) if han else None, int(fu) if fu else None))
    return found


EXAMPLES = guide_examples()


def test_the_guide_has_a_tiles_example():
    assert EXAMPLES, f"no tiles example (`TILES`, winning tile `T`) found in {GUIDE}"


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize(("tiles", "win", "han", "fu"), EXAMPLES)
def test_guide_example_scores_as_a_ron_for_every_seat(tiles, win, han, fu, preset):
    rules = make_ruleset(preset)
    for seat in range(4):
        score = score_tiles(TileHand(tiles=tiles, win_tile=win, seat_wind=seat, round_wind=0), rules)
        if han is not None:
            assert (score.han, score.fu) == (han, fu), (preset, seat)


def test_form_help_text_example_is_the_guide_example():
    help_text = str(HandForm.base_fields["tiles"].help_text)
    shown = re.search(r"e\.g\. ([0-9mpsz]+)", help_text)
    assert shown is not None
    assert shown[1] in {tiles for tiles, *_ in EXAMPLES}
