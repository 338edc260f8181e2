"""Writes. Every service takes keyword arguments, runs in one transaction, validates by replaying the
game with the engine, and leaves an entry in the history."""

from .errors import GameChanged
from .hanchan import change_entry_mode, finish_game, record_final_scores, reopen_game, start_game, void_game
from .hands import correct_hand, preview, record_hand, undo_last_hand
from .penalties import add_penalty, cancel_penalty

__all__ = [
    "GameChanged",
    "add_penalty",
    "cancel_penalty",
    "change_entry_mode",
    "correct_hand",
    "finish_game",
    "preview",
    "record_final_scores",
    "record_hand",
    "reopen_game",
    "start_game",
    "undo_last_hand",
    "void_game",
]
