"""Errors raised by the engine.

Every error carries a message that names the rule that was broken (``fu 25 needs at least 2 han on a
ron``); the record reader and the replay add where it happened (``hand 7: …``).

A message is a constant English **template**, marked for the translation catalogues with
:func:`gettext_noop` (or :func:`ngettext_lazy` when its wording depends on a number), and what varies
travels beside it: ``params`` (values already written out, e.g. ``shown(value)`` for a repr), ``seats``
(placeholders naming a seat, kept as seat numbers) and sometimes a stable ``code``. The engine knows no
players and no language, so ``str(exc)`` is the English line with ``seat 2`` (the command-line contract);
the Django side (``league/engine_text.py``) renders the same error in the reader's language, with the
game's player names (``Bob cannot win on their own discard``).

A parameter may itself be translatable text: a :class:`Phrase` (an honour tile's name, a round in words)
or another :class:`EngineError` (``players: {error}``, ``game 2: {error}``), rendered the same way as the
message around it.
"""

from __future__ import annotations

import reprlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

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


def gettext_noop(message: str) -> str:
    """Mark ``message`` as a message id for the translation catalogues, and return it unchanged.

    The engine knows no Django and no language: it raises English templates. ``makemessages`` finds
    them through this marker (the name Django's ``makemessages`` looks for), and the Django side
    (``league/engine_text.py``) translates the template before it fills in the parameters.
    """
    return message


@dataclass(frozen=True, slots=True)
class Plural:
    """A template whose wording depends on a number: the English ``singular`` (for 1) and ``plural``
    forms, and ``count``, the name of the parameter that holds the number."""

    singular: str
    plural: str
    count: str

    def english(self, number: object) -> str:
        return self.singular if number == 1 else self.plural


def ngettext_lazy(singular: str, plural: str, count: str) -> Plural:
    """Mark a template with a singular and a plural form for the catalogues (``makemessages`` extracts
    calls by this name as a plural pair, like Django's own ``ngettext_lazy``), the form to be chosen when
    the message is rendered from the parameter named ``count`` — by English rules for ``str(exc)``, by
    the reader's language's rules (Polish has four forms) on the Django side."""
    return Plural(singular, plural, count)


Message = str | Plural
"""What a template argument may be: a :func:`gettext_noop` string or a :func:`ngettext_lazy` plural."""


def seat_word(seat: int) -> str:
    """How the engine names a seat when it knows no player: ``seat 2``."""
    return f"seat {seat}"


class Text:
    """Translatable text: a template, its parameters and the seats it names (see the module docstring).

    ``template`` is the English message id (the singular of a plural), ``plural`` the plural id or None,
    ``count`` the parameter that chooses between them. A template without ``params`` or ``seats`` is
    used as it is (braces in it are text); with them it is ``str.format_map``-ed.
    """

    def __init__(
        self,
        message: Message,
        *,
        params: Mapping[str, object] | None = None,
        seats: Mapping[str, int] | None = None,
        default_names: Sequence[str] | None = None,
    ) -> None:
        self.source: Message = message
        if isinstance(message, Plural):
            self.template, self.plural, self.count = message.singular, message.plural, message.count
        else:
            self.template, self.plural, self.count = message, None, None
        self.params: dict[str, object] = dict(params or {})
        self.seats: dict[str, int] = dict(seats or {})
        self.default_names = tuple(default_names) if default_names is not None else None

    @property
    def number(self) -> int | None:
        """The number that chooses a plural's form (None for a message without plural)."""
        if self.count is None:
            return None
        value = self.params.get(self.count)
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    def english(self) -> str:
        """The English template, in the form the number asks for."""
        if isinstance(self.source, Plural):
            return self.source.english(self.number)
        return self.template

    def text(
        self,
        seat_name: SeatName | None = None,
        template: str | None = None,
        *,
        nested: Callable[[Text], str] | None = None,
    ) -> str:
        """The text, naming each seat with ``seat_name`` (default: ``seat N``, or the default names).

        ``template`` replaces the English template (a translation of it, with the same placeholders);
        ``nested`` writes out a parameter that is itself translatable text (default: in English, with the
        same ``seat_name``).
        """
        template = self.english() if template is None else template
        if not self.params and not self.seats:
            return template  # a plain message: braces in it are text, not placeholders
        given = seat_name
        if seat_name is None:
            names = self.default_names
            seat_name = (lambda s: names[s]) if names is not None else seat_word
        write = nested if nested is not None else (lambda value: value.render(given))
        values = {key: write(v) if isinstance(v, Text) else v for key, v in self.params.items()}
        values.update({key: seat_name(seat) for key, seat in self.seats.items()})
        return template.format_map(values)

    def render(self, seat_name: SeatName | None = None) -> str:
        """The whole text as one line, with seats named by ``seat_name``."""
        return self.text(seat_name)

    def __str__(self) -> str:
        return self.render()

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


class Phrase(Text):
    """Translatable text inside a message (a parameter): an honour tile's name, a round in words."""

    def __repr__(self) -> str:
        return f"Phrase({self.template!r})"


class EngineError(Text, ValueError):
    """Base class: input that the rules do not allow.

    The message is a template (see :class:`Text`): ``seats`` maps placeholders to seat numbers (rendered
    as ``seat N`` or a player's name), ``params`` maps the other placeholders to their values.
    ``default_names`` names the seats when no one asks for players (``East``, … for the final-scores
    check, whose contract names winds). ``field`` is the record field (or form field) at fault.
    """

    def __init__(
        self,
        message: Message,
        *,
        field: str | None = None,
        code: str | None = None,
        params: Mapping[str, object] | None = None,
        seats: Mapping[str, int] | None = None,
        default_names: Sequence[str] | None = None,
    ) -> None:
        Text.__init__(self, message, params=params, seats=seats, default_names=default_names)
        self.field = field
        self.code = code
        ValueError.__init__(self, self.message)

    @property
    def message(self) -> str:
        """The message with the engine's own seat wording, without a hand number."""
        return self.text()

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

    def __init__(self, message: Message, *, hand: int | None = None, **details: object) -> None:
        self.hand = hand
        super().__init__(message, **details)  # type: ignore[arg-type]

    @classmethod
    def at_hand(cls, exc: EngineError, hand: int) -> RecordError:
        """``exc`` as it happened in hand ``hand``, keeping its template, code, params and seats."""
        return cls(exc.source, hand=hand, **exc.copy_details())

    @classmethod
    def from_error(cls, exc: EngineError) -> RecordError:
        """``exc`` as this kind of error, the same line: its template, details and hand number (if any)."""
        return cls(exc.source, hand=getattr(exc, "hand", None), **exc.copy_details())

    def render(self, seat_name: SeatName | None = None) -> str:
        text = self.text(seat_name)
        return f"hand {self.hand}: {text}" if self.hand is not None else text


class TileError(EngineError):
    """A hand written as tiles that cannot be scored (not a winning shape, no yaku, bad notation, …)."""
