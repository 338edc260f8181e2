"""Tenbou's scoring engine: pure Python, no Django, the only place where scores are computed.

The public names below are what the Django side (models, services, commands) uses; see the modules for
the rules each one implements: ``ruleset`` (settings and presets), ``value`` (han/fu and payments),
``hand`` (the facts of a hand), ``hanchan`` (replay, renchan, honba, sticks, end of game), ``final``
(leftover sticks, placement, uma, oka), ``record`` (the JSON game record) and ``generator`` (random legal
games).
"""

from .errors import (
    EngineError,
    Phrase,
    RecordError,
    RulesetError,
    RuleViolation,
    Text,
    TileError,
    seat_word,
)
from .final import FinalResult, check_final_scores, expected_total, final_result, places
from .hanchan import HandOutcome, Replay, TableState, play_hand, replay, round_name
from .hand import ABORT, CHOMBO, DRAW, RESULTS, RON, TSUMO, WINDS, Hand, ScoredYaku, Win, nearest_first
from .record import (
    GameRecord,
    LogInfo,
    Penalty,
    hand_from_dict,
    hand_to_dict,
    load_record,
    record_from_dict,
    replay_output,
)
from .ruleset import PRESETS, SETTINGS, Ruleset, make_ruleset, ruleset_from_spec, ruleset_spec
from .value import (
    HandValue,
    base_points,
    check_value,
    hand_points,
    paid_as_one_yakuman,
    paid_yakuman,
    ron_points,
    tsumo_points,
)

__all__ = [
    "ABORT",
    "CHOMBO",
    "DRAW",
    "PRESETS",
    "RESULTS",
    "RON",
    "SETTINGS",
    "TSUMO",
    "WINDS",
    "EngineError",
    "FinalResult",
    "GameRecord",
    "Hand",
    "HandOutcome",
    "HandValue",
    "LogInfo",
    "Penalty",
    "Phrase",
    "RecordError",
    "Replay",
    "RuleViolation",
    "Ruleset",
    "RulesetError",
    "ScoredYaku",
    "TableState",
    "Text",
    "TileError",
    "Win",
    "base_points",
    "check_final_scores",
    "check_value",
    "expected_total",
    "hand_points",
    "final_result",
    "hand_from_dict",
    "hand_to_dict",
    "load_record",
    "make_ruleset",
    "nearest_first",
    "paid_as_one_yakuman",
    "paid_yakuman",
    "places",
    "play_hand",
    "record_from_dict",
    "replay",
    "replay_output",
    "ron_points",
    "round_name",
    "seat_word",
    "ruleset_from_spec",
    "ruleset_spec",
    "tsumo_points",
]
