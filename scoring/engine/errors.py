"""Errors raised by the engine.

Every error carries a message that names the rule that was broken (``fu 25 needs at least 2 han on a
ron``); the record reader and the replay add where it happened (``hand 7: …``). The Django side shows these
messages as they are, on the form field or in the command's one-line error.
"""

from __future__ import annotations


class EngineError(ValueError):
    """Base class: input that the rules do not allow."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field

    def __str__(self) -> str:
        return self.message


class RulesetError(EngineError):
    """A ruleset specification that names an unknown preset or setting, or a value a setting cannot take."""


class RuleViolation(EngineError):
    """A hand or a value that cannot happen under the ruleset (a han/fu pair that does not exist, …)."""


class RecordError(EngineError):
    """A game record that is malformed or breaks a rule; ``hand`` is the 1-based hand number, if any."""

    def __init__(self, message: str, *, hand: int | None = None, field: str | None = None) -> None:
        super().__init__(message, field=field)
        self.hand = hand

    def __str__(self) -> str:
        return f"hand {self.hand}: {self.message}" if self.hand is not None else self.message


class TileError(EngineError):
    """A hand written as tiles that cannot be scored (not a winning shape, no yaku, bad notation, …)."""
