"""Sentences that code writes into the database, stored as what happened and written in the reader's
language when shown.

A history entry's summary ("Hand 3 removed") and a reason code gives ("confirmed by the organiser; the
table said: …"), and a penalty's reason when code gives the penalty ("chombo (entered with the final
scores)"), used to be stored as sentences in the language of whoever made the change — English through
a table's link or a command — and shown as such on French and Polish pages. They are stored as a
**phrase** instead: a JSON object naming an English message id (marked for the catalogues, like the
engine's errors) and its parameters, rendered by :func:`render` in the active language. What a person
typed (an organiser's reason, a referee note) stays as typed: it is a plain string, never a phrase.

A phrase is one of:

- ``{"text": msgid, "params": {...}}`` — ``gettext(msgid) % params``; with ``"context"``, ``pgettext``;
  with ``"plural"`` and ``"count"`` (the parameter holding the number), ``ngettext``;
- ``{"wind": seat}`` — a seat's wind (``East`` …);
- ``{"join": [phrase, …]}`` — its parts, each rendered, joined by "; ";
- ``{"changes": [[field, old, new], …]}`` — "field: old → new; …", each field named in the reader's
  language (``FIELD_LABELS``); a ruleset's value names the settings that changed in it.

A parameter is a plain value (a name, a number: shown as it is) or a phrase (rendered first). The models'
text columns keep the English rendering (``english``): the admin's search and the machine formats (the
game records' penalty reasons) read it.

Messages are marked for ``makemessages`` with ``gettext_noop`` and with this module's
``ngettext_lazy`` and ``pgettext_lazy``, which — like the engine's ``ngettext_lazy``
(``scoring/engine/errors.py``) — translate nothing: they carry the message ids to :func:`say`, under the
names ``makemessages`` looks for.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django.utils import translation
from django.utils.translation import gettext, gettext_lazy, gettext_noop, ngettext, pgettext

from .engine_text import wind_name

__all__ = [
    "FIELD_LABELS",
    "Message",
    "Phrase",
    "changes",
    "english",
    "field_label",
    "gettext_noop",
    "is_phrase",
    "joined",
    "ngettext_lazy",
    "pgettext_lazy",
    "render",
    "say",
    "wind",
]

Phrase = dict[str, Any]
"""A phrase as stored (JSON): see the module docstring."""


@dataclass(frozen=True, slots=True)
class Message:
    """A message id with its plural (and the parameter holding the number) or its context."""

    text: str
    plural: str | None = None
    count: str | None = None
    context: str | None = None


def ngettext_lazy(singular: str, plural: str, count: str) -> Message:
    """Mark a singular/plural pair for the catalogues (``makemessages`` extracts calls by this name as
    a plural pair); ``count`` names the parameter whose number chooses the form when rendered."""
    return Message(singular, plural=plural, count=count)


def pgettext_lazy(context: str, text: str) -> Message:
    """Mark a message with its context for the catalogues (a word that needs one: "Chombo" the penalty
    kind, not the hand's result)."""
    return Message(text, context=context)


def _value(value: Any) -> Any:
    """A parameter as a phrase stores it: a phrase as it is, a date as ISO text, a sequence as a list."""
    if isinstance(value, Mapping):
        return dict(value)
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    if isinstance(value, (list, tuple)):
        return [_value(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)  # a model, a name: the text it shows now


def say(message: str | Message, /, **params: Any) -> Phrase:
    """The phrase of ``message`` (a ``gettext_noop`` string or a ``Message``) with ``params``."""
    if isinstance(message, Message):
        data: Phrase = {"text": message.text}
        if message.plural is not None:
            data.update(plural=message.plural, count=message.count)
        if message.context is not None:
            data["context"] = message.context
    else:
        data = {"text": str(message)}
    if params:
        data["params"] = {key: _value(value) for key, value in params.items()}
    return data


def wind(seat: int) -> Phrase:
    """Seat ``seat`` as its wind (0 = East)."""
    return {"wind": int(seat)}


def joined(*parts: Phrase | str | None) -> Phrase:
    """The parts (empty ones left out; a plain string is shown as it is), separated by "; "."""
    return {"join": [part for part in parts if part]}


def changes(items: Sequence[tuple[str, Any, Any]]) -> Phrase:
    """ "field: old → new" for each (field, old, new): see ``league.history.changes``."""
    return {"changes": [[name, _value(old), _value(new)] for name, old, new in items]}


def is_phrase(value: Any) -> bool:
    return isinstance(value, Mapping)


# -- rendering ------------------------------------------------------------------------------------------

# How a changed field is named ("min games: 0 → 3"). A field not listed is named by its key with spaces (a
# ruleset's settings keep their keys: the game record's names).
FIELD_LABELS: dict[str, Any] = {
    # events
    "name": gettext_lazy("name"),
    "start_date": gettext_lazy("start date"),
    "end_date": gettext_lazy("end date"),
    "city": gettext_lazy("city"),
    "country": gettext_lazy("country"),
    "visibility": gettext_lazy("visibility"),
    "min_games": gettext_lazy("min games"),
    "tie_break": gettext_lazy("tie break"),
    "substitute_credit": gettext_lazy("substitute credit"),
    "substitute_fixed_result": gettext_lazy("substitute fixed result"),
    "ema_days": gettext_lazy("days (MERS)"),
    "ema_qualification": gettext_lazy("qualification required (MERS)"),
    "round_minutes": gettext_lazy("round minutes"),
    "table_entry": gettext_lazy("table entry"),
    "table_entry_mode": gettext_lazy("table entry mode"),
    "confirmation": gettext_lazy("confirmation"),
    "standings_hidden_after_round": gettext_lazy("standings hidden after round"),
    "standings_released_at": gettext_lazy("standings released at"),
    "online": gettext_lazy("online"),
    "online_lobby": gettext_lazy("online lobby"),
    "ruleset": gettext_lazy("ruleset"),
    # players
    "display_name": gettext_lazy("display name"),
    "given_name": gettext_lazy("given name"),
    "family_name": gettext_lazy("family name"),
    "ema_number": gettext_lazy("EMA number"),
    "tenhou_name": gettext_lazy("Tenhou name"),
    "mahjongsoul_name": gettext_lazy("Mahjong Soul nickname"),
    "mahjongsoul_id": gettext_lazy("Mahjong Soul friend ID"),
    # games (scoring's final scores)
    "scores": gettext_lazy("scores"),
    "sticks": gettext_lazy("sticks"),
    "chombos": gettext_lazy("chombos"),
    "chombo_penalties": gettext_lazy("chombo penalties"),
    "played_on": gettext_lazy("played on"),
    # teams (tournaments.teams' settings)
    "counting": gettext_lazy("team points"),
    "best": gettext_lazy("members counted"),
}

# A stored value a summary names in the reader's language, by field (the stored value stays the key).
VALUE_LABELS: dict[str, dict[str, Any]] = {
    "counting": {"sum": gettext_lazy("sum"), "best": gettext_lazy("best members")},
}


def field_label(name: str) -> str:
    """A changed field as a summary names it, in the active language (see ``FIELD_LABELS``)."""
    return str(FIELD_LABELS.get(name, name.replace("_", " ")))


def _shown(value: Any) -> str:
    """A value as a summary shows it: an empty value is an em dash, not a blank."""
    if value is None or value == "" or value == []:
        return "—"
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if isinstance(value, list):
        return "/".join(_shown(v) for v in value)
    if isinstance(value, dict):
        return "{…}"  # a ruleset: the before/after JSON holds it whole
    return str(value)


def _changes_text(items: Sequence[Sequence[Any]]) -> str:
    parts: list[str] = []
    for name, old, new in items:
        label = field_label(str(name))
        if isinstance(old, dict) and isinstance(new, dict):  # a ruleset: name the settings that changed
            keys = [*old, *(k for k in new if k not in old)]
            inner = [(k, old.get(k), new.get(k)) for k in keys if old.get(k) != new.get(k)]
            parts.append(f"{label}: {_changes_text(inner)}")
        else:
            values = VALUE_LABELS.get(str(name), {})
            shown_old = str(values.get(old, _shown(old))) if isinstance(old, str) else _shown(old)
            shown_new = str(values.get(new, _shown(new))) if isinstance(new, str) else _shown(new)
            parts.append(f"{label}: {shown_old} → {shown_new}")
    return "; ".join(parts)


def _template(data: Mapping[str, Any], params: Mapping[str, Any]) -> str:
    text = str(data.get("text", ""))
    if not text:
        return ""  # gettext("") is the catalogue's header
    plural = data.get("plural")
    if plural is not None:
        number = params.get(str(data.get("count")))
        number = number if isinstance(number, int) and not isinstance(number, bool) else 0
        return ngettext(text, str(plural), number)
    context = data.get("context")
    return pgettext(str(context), text) if context else gettext(text)


def _english_template(data: Mapping[str, Any], params: Mapping[str, Any]) -> str:
    plural = data.get("plural")
    if plural is not None and params.get(str(data.get("count"))) != 1:
        return str(plural)
    return str(data.get("text", ""))


def render(data: Any) -> str:
    """A phrase (or a plain string, shown as it is) as text in the active language.

    Never fails: a translation whose placeholders do not match falls back to the English template, and
    a stored phrase this code no longer understands to its message id."""
    if data is None:
        return ""
    if isinstance(data, str):
        return data
    if not isinstance(data, Mapping):
        return str(data)
    if "join" in data:
        parts = data["join"] if isinstance(data["join"], list) else [data["join"]]
        return "; ".join(text for text in (render(part) for part in parts) if text)
    if "changes" in data:
        try:
            return _changes_text(data["changes"] or ())
        except (TypeError, ValueError):
            return ""
    if "wind" in data:
        seat = data["wind"]
        return wind_name(seat) if isinstance(seat, int) and not isinstance(seat, bool) else str(seat)
    raw = data.get("params")
    raw = raw if isinstance(raw, Mapping) else {}
    params = {key: render(value) if isinstance(value, Mapping) else value for key, value in raw.items()}
    template = _template(data, raw)
    if not params:
        return template
    for candidate in (template, _english_template(data, raw)):
        try:
            return candidate % params
        except (KeyError, ValueError, TypeError):
            continue
    return str(data.get("text", ""))


def english(data: Any) -> str:
    """A phrase rendered in English: what the models' text columns keep beside it."""
    with translation.override("en"):
        return render(data)
