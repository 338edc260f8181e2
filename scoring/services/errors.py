"""Errors the services raise besides Django's ``ValidationError``."""

from __future__ import annotations

from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.utils.translation import gettext

from league.engine_text import engine_message
from league.models import Hanchan
from scoring import engine


class GameChanged(Exception):
    """Someone else changed the game since this change was prepared: nothing was saved.

    Carries the game's current version so the page can show the current state and let the organiser
    decide again, instead of silently losing or duplicating a hand.
    """

    def __init__(self, hanchan_id: int, current_version: int, expected_version: int) -> None:
        # Raised while answering a request: the message is in the reader's language (pages show it).
        super().__init__(
            gettext(
                "The game changed while you were entering this (someone else saved a change). "
                "Here is its current state: check it and enter the hand again if it is still missing."
            )
        )
        self.hanchan_id = hanchan_id
        self.current_version = current_version
        self.expected_version = expected_version


def seat_names(hanchan: Hanchan) -> list[str]:
    """The display names of the hanchan's players in seat order (one query, on the error path only)."""
    seats = hanchan.seats.select_related("player").order_by("seat")
    return [seat.player.display_name for seat in seats]


def as_validation_error(
    exc: engine.EngineError, *, hanchan: Hanchan | None = None, names: Sequence[str] | None = None
) -> ValidationError:
    """An engine error as a form error on the field it names (``__all__`` when it names none), with the
    seats it names written as the players of ``hanchan`` (or ``names``, in seat order)."""
    if names is None and hanchan is not None and exc.seats:
        names = seat_names(hanchan)
    message = engine_message(exc, names)
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
