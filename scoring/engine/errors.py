"""Errors raised by the engine.

Every error carries a message that names the rule that was broken (``fu 25 needs at least 2 han on a
ron``); the record reader and the replay add where it happened (``hand 7: …``).

An error that names a seat keeps the seat as data, not as words: its message is a template
(``"{loser} cannot win on their own discard"``) with the seat numbers beside it, plus a stable ``code``
and ``params``. The engine knows no players, so ``str(exc)`` says ``seat 2`` (the command-line contract);
the Django side renders the same error with the game's player names (``Bob cannot win on their own
discard``) through :meth:`EngineError.render`, and can later translate it by ``code``.
"""

from __future__ import annotations

import reprlib
from collections.abc import Callable, Mapping, Sequence

SeatName = Callable[[int], str]

_SHOWN = reprlib.Repr()
_SHOWN.maxlevel = 3
_SHOWN.maxlist = _SHOWN.maxdict = _SHOWN.maxtuple = _SHOWN.maxset = 6
_SHOWN.maxstring = _SHOWN.maxother = _SHOWN.maxlong = 60


def shown(value: object) -> str:
    """``repr(value)`` cut short, for an error message about hostile input.

    A plain ``repr`` of a value read from a file may be megabytes long, or nested so deeply that
    ``repr`` itself raises :class:`RecursionError`; an error line must stay short and always be
    produced, so messages quote what they reject through this.
    """
    return _SHOWN.repr(value)


def seat_word(seat: int) -> str:
    """How the engine names a seat when it knows no player: ``seat 2``."""
    return f"seat {seat}"


class EngineError(ValueError):
    """Base class: input that the rules do not allow.

    ``template`` is the message, with ``{name}`` placeholders when ``params`` or ``seats`` are given;
    ``seats`` maps placeholders to seat numbers (rendered as ``seat N`` or a player's name), ``params``
    maps the other placeholders to their values. ``default_names`` names the seats when no one asks for
    players (``East``, … for the final-scores check, whose contract names winds).
    """

    def __init__(
        self,
        message: str,
        *,
        field: str | None = None,
        code: str | None = None,
        params: Mapping[str, object] | None = None,
        seats: Mapping[str, int] | None = None,
        default_names: Sequence[str] | None = None,
    ) -> None:
        self.template = message
        self.field = field
        self.code = code
        self.params: dict[str, object] = dict(params or {})
        self.seats: dict[str, int] = dict(seats or {})
        self.default_names = tuple(default_names) if default_names is not None else None
        super().__init__(self.message)

    def text(self, seat_name: SeatName | None = None) -> str:
        """The message, naming each seat with ``seat_name`` (default: ``seat N``, or the default names)."""
        if not self.params and not self.seats:
            return self.template  # a plain message: braces in it are text, not placeholders
        if seat_name is None:
            names = self.default_names
            seat_name = (lambda s: names[s]) if names is not None else seat_word
        values = {**self.params, **{key: seat_name(seat) for key, seat in self.seats.items()}}
        return self.template.format_map(values)

    @property
    def message(self) -> str:
        """The message with the engine's own seat wording (what the command line prints)."""
        return self.text()

    def render(self, seat_name: SeatName | None = None) -> str:
        """The whole error as one line, with seats named by ``seat_name`` (``str(exc)`` uses ``seat N``)."""
        return self.text(seat_name)

    def __str__(self) -> str:
        return self.render()

    def copy_details(self) -> dict[str, object]:
        """The keyword arguments that rebuild this error's message elsewhere (e.g. with a hand number)."""
        return {
            "field": self.field,
            "code": self.code,
            "params": self.params,
            "seats": self.seats,
            "default_names": self.default_names,
        }


class RulesetError(EngineError):
    """A ruleset specification that names an unknown preset or setting, or a value a setting cannot take."""


class RuleViolation(EngineError):
    """A hand or a value that cannot happen under the ruleset (a han/fu pair that does not exist, …)."""


class RecordError(EngineError):
    """A game record that is malformed or breaks a rule; ``hand`` is the 1-based hand number, if any."""

    def __init__(self, message: str, *, hand: int | None = None, **details: object) -> None:
        self.hand = hand
        super().__init__(message, **details)  # type: ignore[arg-type]

    @classmethod
    def at_hand(cls, exc: EngineError, hand: int) -> RecordError:
        """``exc`` as it happened in hand ``hand``, keeping its code, params and seats."""
        return cls(exc.template, hand=hand, **exc.copy_details())

    def render(self, seat_name: SeatName | None = None) -> str:
        text = self.text(seat_name)
        return f"hand {self.hand}: {text}" if self.hand is not None else text


class TileError(EngineError):
    """A hand written as tiles that cannot be scored (not a winning shape, no yaku, bad notation, …)."""
