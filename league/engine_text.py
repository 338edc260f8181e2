"""The engine's errors in the reader's language: the one boundary where engine messages are translated.

The engine (``scoring.engine``) is pure Python and speaks English: each error carries an English template
(``"{loser} cannot win on their own discard"``, marked for the catalogues with the engine's own
``gettext_noop``, or ``ngettext_lazy`` for a singular/plural pair), the seats it names and its other
parameters, some of which are translatable text themselves (a ``Phrase``: an honour tile's name, a hand's
value; or another error: ``players: {error}``). Here each template is looked up in the active language's
catalogue and filled in, seats are named by the game's players (or ``seat N``, ``East`` in the reader's
language when no player is known), and a record error gets its ``hand N:`` prefix translated too. The
command line keeps ``str(exc)``: the English contract of the management commands.

This lives in ``league`` (the lowest layer, allowed to read ``scoring.engine``) so that league forms and
models can show a ruleset error as well as the scoring services can show a hand error.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext, gettext_lazy, ngettext, pgettext_lazy

from scoring.engine import SETTINGS, WINDS, RecordError, Ruleset, RulesetError, Text, ruleset_from_spec

WIND_WORDS: tuple[Any, ...] = (
    pgettext_lazy("wind", "East"),
    pgettext_lazy("wind", "South"),
    pgettext_lazy("wind", "West"),
    pgettext_lazy("wind", "North"),
)
"""The four winds in the engine's order (``scoring.engine.WINDS``, East first), in the reader's language:
the one translation of a seat's (or a round's) wind, for the models' seat choices, the forms and pages."""

_WINDS = dict(zip(WINDS, WIND_WORDS, strict=True))

PRESET_LABELS: dict[str, Any] = {
    "ema2016": gettext_lazy("EMA 2016 (Riichi Competition Rules)"),
    "ema2025": gettext_lazy("EMA 2025 (as 2016, with kiriage mangan)"),
    "wrc2022": gettext_lazy("WRC 2022 (World Riichi Championship)"),
    "mleague": gettext_lazy("M-League"),
    "tenhou": gettext_lazy("Tenhou (online)"),
    "mahjongsoul": gettext_lazy("Mahjong Soul (online)"),
}
"""The engine's presets (``scoring.engine.PRESETS``) named for people, in the reader's language: the
select of the event forms, the rules tables and the rules-change page. Every preset has one
(``tests/league/test_forms.py``); the engine's key is for records and the command line."""


def preset_label(name: str) -> str:
    """A preset's name for people in the reader's language (an unknown name is shown as it is)."""
    return str(PRESET_LABELS.get(name, name))


def seat_text(seat: int) -> str:
    """A seat no player is known for, in the reader's language: ``seat 2``."""
    return gettext("seat %(number)d") % {"number": seat}


def wind_name(seat: int) -> str:
    """Seat (or round) ``seat`` as its wind, 0 = East, in the reader's language; ``seat N`` outside 0..3."""
    return str(WIND_WORDS[seat]) if 0 <= seat < len(WIND_WORDS) else seat_text(seat)


def _template(text: Text) -> str:
    """The template of ``text`` in the active language (the English one if the catalogue lacks it)."""
    if text.plural is not None:
        number = text.number
        return ngettext(text.template, text.plural, number) if number is not None else text.english()
    return gettext(text.template) if text.template else text.template  # gettext("") is the header


def engine_message(exc: Text, names: Sequence[str] | None = None) -> str:
    """``exc`` as one line in the active language, each seat it names written as ``names[seat]``.

    ``exc`` is an engine error, or any translatable text of the engine (a ``Phrase``, e.g.
    ``HandValue.phrase(rules)``). Without ``names`` the seats are ``seat N`` (or the error's own default
    names, e.g. winds, translated). A template the catalogue does not know is used as it is, so an
    untranslated message still reads; so is the English one if a translation breaks its placeholders.
    """

    def seat_name(seat: int) -> str:
        if names is not None and 0 <= seat < len(names) and names[seat]:
            return names[seat]
        if names is None and exc.default_names is not None and 0 <= seat < len(exc.default_names):
            default = exc.default_names[seat]
            return str(_WINDS[default]) if default in _WINDS else default
        return seat_text(seat)

    def nested(value: Text) -> str:
        return engine_message(value, names)

    try:
        text = exc.text(seat_name, template=_template(exc), nested=nested)
    except (KeyError, IndexError, ValueError):  # a translation whose placeholders do not match
        text = exc.text(seat_name, nested=nested)
    if isinstance(exc, RecordError) and exc.hand is not None:
        return gettext("hand %(number)d: %(message)s") % {"number": exc.hand, "message": text}
    return text


def ruleset_or_error(spec: Any) -> Ruleset:
    """A ruleset from a ``Ruleset`` or a spec; a wrong one is a ``ValidationError`` on the setting it
    names (``ruleset`` when it names none), in the reader's language: what a service or form shows."""
    try:
        return ruleset_from_spec(spec)
    except RulesetError as exc:
        raise ValidationError({exc.field or "ruleset": engine_message(exc)}) from None


# The values of ``Ruleset.describe()`` that are words (the others are numbers, uma and yakuman names).
_VALUE_WORDS: dict[str, Any] = {
    "yes": pgettext_lazy("ruleset value", "yes"),
    "no": pgettext_lazy("ruleset value", "no"),
    "none": pgettext_lazy("ruleset value", "none"),
    "split": pgettext_lazy("ruleset value", "split"),
    "seat order": pgettext_lazy("ruleset value", "seat order"),
    "first": pgettext_lazy("ruleset value", "first"),
    "lost": pgettext_lazy("ruleset value", "lost"),
    "deduction": pgettext_lazy("ruleset value", "deduction"),
    "reverse mangan": pgettext_lazy("ruleset value", "reverse mangan"),
    "forbidden": pgettext_lazy("ruleset value", "forbidden"),
    "each": pgettext_lazy("ruleset value", "each"),
    "win": pgettext_lazy("ruleset value", "win"),
    "abort": pgettext_lazy("ruleset value", "abort"),
    "nearest": pgettext_lazy("ruleset value", "nearest"),
    "own back": pgettext_lazy("ruleset value", "own back"),
    "one more hand": pgettext_lazy("ruleset value", "one more hand"),
    "end after hand": pgettext_lazy("ruleset value", "end after hand"),
}


def rules_in_words(rules: Ruleset) -> list[tuple[str, str]]:
    """``rules.describe()`` in the reader's language: (what the setting means, its value in words).

    Japanese terms (hanchan, atamahane, sanbaiman, yakuman names) and numbers stay as they are.
    """
    out = []
    for (meaning, value), setting in zip(rules.describe(), SETTINGS.values(), strict=True):
        words = _VALUE_WORDS.get(value) if setting.kind is not int else None
        out.append((gettext(meaning), str(words) if words is not None else value))
    return out
