"""Errors the services raise besides Django's ``ValidationError``."""

from __future__ import annotations

from django.core.exceptions import ValidationError

from scoring import engine


class GameChanged(Exception):
    """Someone else changed the game since this change was prepared: nothing was saved.

    Carries the game's current version so the page can show the current state and let the organiser
    decide again, instead of silently losing or duplicating a hand.
    """

    def __init__(self, hanchan_id: int, current_version: int, expected_version: int) -> None:
        super().__init__(
            "The game changed while you were entering this (someone else saved a change). "
            "Here is its current state: check it and enter the hand again if it is still missing."
        )
        self.hanchan_id = hanchan_id
        self.current_version = current_version
        self.expected_version = expected_version


def as_validation_error(exc: engine.EngineError) -> ValidationError:
    """An engine error as a form error on the field it names (``__all__`` when it names none)."""
    message = str(exc)
    field = exc.field if exc.field in FORM_FIELDS else None
    return ValidationError({field: message} if field else message)


# Engine field names that hand-entry forms show as fields of their own.
FORM_FIELDS = {
    "han",
    "fu",
    "yakuman",
    "pao",
    "loser",
    "winner",
    "wins",
    "riichi",
    "tenpai",
    "nagashi",
    "seat",
    "result",
}
