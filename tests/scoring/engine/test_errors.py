"""Engine errors keep the seats they name as data: ``str(exc)`` says ``seat N`` (the command line's
contract), and ``render`` names the same seats any other way (the web: player names), with a stable
``code`` and ``params`` for a later translation."""

from __future__ import annotations

import pytest

from scoring.engine import (
    Hand,
    RecordError,
    RuleViolation,
    TableState,
    Win,
    check_final_scores,
    make_ruleset,
    play_hand,
    replay,
)

NAMES = ("Ann", "Bob", "Cho", "Dan")
EMA = make_ruleset("ema2016")


def name(seat: int) -> str:
    return NAMES[seat]


@pytest.mark.parametrize(
    ("hands", "rules", "code", "seat_words", "name_words"),
    [
        pytest.param(
            [Hand.ron(1, Win(1, 3, 40))],
            EMA,
            "ron_on_own_discard",
            "seat 1 cannot win on their own discard",
            "Bob cannot win on their own discard",
            id="own-discard",
        ),
        pytest.param(
            [Hand.draw((0,), riichi=(2, 2))],
            EMA,
            "seat_listed_twice",
            "seat 2 is listed twice in riichi",
            "Cho is listed twice in riichi",
            id="listed-twice",
        ),
        pytest.param(
            [Hand.ron(0, Win(1, 2, 30), Win(3, 2, 30))],
            make_ruleset("wrc2022"),
            "atamahane_nearest_only",
            "only the nearest ron winner wins under atamahane: record seat 1 alone",
            "only the nearest ron winner wins under atamahane: record Bob alone",
            id="atamahane",
        ),
        pytest.param(
            # tenhou starts at 25000: seat 3 pays 12000 twice (1000 left), then 300 (700 left)
            [
                Hand.ron(3, Win(1, 6)),
                Hand.ron(3, Win(2, 6)),
                Hand.tsumo(Win(0, 1, 30)),
                Hand.draw((3,), riichi=(3,)),
            ],
            make_ruleset("tenhou"),
            "riichi_below_1000",
            "seat 3 cannot declare riichi with 700 points (fewer than 1000)",
            "Dan cannot declare riichi with 700 points (fewer than 1000)",
            id="riichi-below-1000",
        ),
    ],
)
def test_seat_errors_render_seats_or_names(hands, rules, code, seat_words, name_words):
    with pytest.raises(RecordError) as info:
        replay(hands, rules)
    exc = info.value
    number = len(hands)
    assert str(exc) == f"hand {number}: {seat_words}"  # the command line's wording, unchanged
    assert exc.message == seat_words
    assert exc.code == code
    assert exc.render(name) == f"hand {number}: {name_words}"
    assert exc.text(name) == name_words
    assert "seat" not in exc.text(name)


def test_play_hand_error_keeps_seats_as_data():
    with pytest.raises(RuleViolation) as info:
        play_hand(TableState.start(EMA), Hand.ron(2, Win(2, 1, 30)), EMA)
    exc = info.value
    assert exc.seats == {"loser": 2}
    assert exc.field == "loser"
    assert str(exc) == "seat 2 cannot win on their own discard"
    assert exc.render(name) == "Cho cannot win on their own discard"


def test_final_scores_error_names_the_wind_by_default_and_players_on_request():
    with pytest.raises(RuleViolation) as info:
        check_final_scores([30000, 30000, 30050, 29950], 0, EMA)
    exc = info.value
    assert str(exc) == "West's score 30050 is not a multiple of 100"
    assert exc.render(name) == "Cho's score 30050 is not a multiple of 100"
    assert exc.code == "score_not_multiple_of_100"
    assert exc.params == {"score": 30050}


def test_plain_messages_are_not_templates():
    """A message without seats is text: braces in it (a repr of bad input) are printed as they are."""
    exc = RuleViolation("unknown result {'a': 1}", field="result")
    assert str(exc) == "unknown result {'a': 1}"
    assert exc.render(name) == "unknown result {'a': 1}"
    assert exc.code is None
