"""The audit trail: every service writes one entry saying who did what, when, what changed and why.

It lives in league because both apps write it: league's services (events, players, registrations) and
scoring's (games, hands, penalties, rules). ``scoring.services.history`` re-exports it, so scoring's
callers are unchanged. An entry stores ``before``/``after`` as JSON and a summary naming each changed
field as "name: old → new", so the history says what changed, not only that something did.

A summary or reason that code writes is a phrase (``league/phrases.py``): stored as data
(``summary_data``, ``reason_data``) and shown in the reader's language, its English rendering kept in the
text column; a reason a person typed is a plain string, stored and shown as typed.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import date, datetime
from typing import Any

from . import phrases
from .models import Event, Hanchan, HistoryEntry
from .versions import bump_results

SUMMARY_LENGTH = 300  # HistoryEntry.summary
REASON_LENGTH = 300  # HistoryEntry.reason


def field_label(name: str) -> str:
    """A changed field as a summary names it (see ``league.phrases.FIELD_LABELS``)."""
    return phrases.field_label(name)


_VIA: ContextVar[tuple[str, str | None]] = ContextVar("history_via", default=("", None))


@contextmanager
def acting_via(via: str, ip: str | None) -> Iterator[None]:
    """Record every history entry written inside the block as made through ``via`` (e.g. "table 5
    (link)") from ``ip``: changes made without an account, by a table's entry link. A context variable
    rather than one more argument through every service, because the services are the same ones the
    organiser's pages call."""
    token = _VIA.set((via[:60], ip))
    try:
        yield
    finally:
        _VIA.reset(token)


def acting_user(user: Any) -> Any:
    """The user to record as having done something: None for an anonymous user (or none at all)."""
    return user if getattr(user, "is_authenticated", False) else None


def jsonable(value: Any) -> Any:
    """``value`` as the JSON column stores it: dates as ISO text, a country as its code, sequences as
    lists; so that ``before`` and ``after`` compare and read the same after a round trip."""
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    if hasattr(value, "code") and not isinstance(value, (str, bytes)):  # django-countries' Country
        return value.code or ""
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    return value


def changes(
    before: Mapping[str, Any], after: Mapping[str, Any], fields: Iterable[str] | None = None
) -> tuple[dict[str, Any], dict[str, Any], phrases.Phrase]:
    """The fields that differ between ``before`` and ``after``: (old values, new values, summary).

    The summary is a phrase (``league.phrases.changes``) listing each changed field as
    ``name: old → new``, in the order of ``fields`` (or of ``after``), in the reader's language."""
    names = list(fields) if fields is not None else list(after)
    old: dict[str, Any] = {}
    new: dict[str, Any] = {}
    items: list[tuple[str, Any, Any]] = []
    for name in names:
        a, b = jsonable(before.get(name)), jsonable(after.get(name))
        if a == b:
            continue
        old[name], new[name] = a, b
        items.append((name, a, b))
    return old, new, phrases.changes(items)


def clip(text: str, length: int = SUMMARY_LENGTH) -> str:
    """``text`` cut to the column's length, with an ellipsis when something was cut."""
    text = text or ""
    return text if len(text) <= length else text[: length - 1] + "…"


Text = str | phrases.Phrase
"""A summary or reason: a phrase (written by code) or a plain string (typed by a person)."""


def given(value: Text | None) -> bool:
    """Whether a reason was given: a phrase, or a string that is not blank."""
    return phrases.is_phrase(value) or bool(str(value or "").strip())


def _text(value: Text | None, length: int, *, typed_cut: bool = False) -> tuple[str, phrases.Phrase | None]:
    """(the text column, the phrase column) of a summary or reason (a typed reason is cut as it is)."""
    if phrases.is_phrase(value):
        return clip(phrases.english(value), length), dict(value)  # type: ignore[arg-type]
    text = str(value or "")
    return (text[:length] if typed_cut else clip(text, length)), None


def entry(
    *,
    event: Event,
    user: Any,
    action: str,
    summary: Text,
    hanchan: Hanchan | None = None,
    reason: Text = "",
    before: Any = None,
    after: Any = None,
) -> HistoryEntry:
    """An unsaved history entry, its texts cut to their columns (see ``log`` and ``log_many``)."""
    via, ip = _VIA.get()
    summary_text, summary_data = _text(summary, SUMMARY_LENGTH)
    reason_text, reason_data = _text(reason, REASON_LENGTH, typed_cut=True)
    return HistoryEntry(
        event=event,
        hanchan=hanchan,
        via=via,
        ip=ip,
        user=acting_user(user),
        action=action[:40],
        summary=summary_text,
        summary_data=summary_data,
        reason=reason_text,
        reason_data=reason_data,
        before=jsonable(before),
        after=jsonable(after),
    )


def log(
    *,
    event: Event,
    user: Any,
    action: str,
    summary: Text,
    hanchan: Hanchan | None = None,
    reason: Text = "",
    before: Any = None,
    after: Any = None,
    hidden_round: bool = False,
) -> HistoryEntry:
    """Write one history entry; the caller holds the transaction of the change it records.

    ``hidden_round``: the change belongs to a round the event keeps from the public until its final
    reveal, without a game to say so (a penalty given for the round): no public page moves."""
    made = entry(
        event=event,
        hanchan=hanchan,
        user=user,
        action=action,
        summary=summary,
        reason=reason,
        before=before,
        after=after,
    )
    made.save()
    if not hidden_round:
        changed_pages([made])
    return made


def log_many(entries: Iterable[HistoryEntry]) -> list[HistoryEntry]:
    """Write several entries in one query (a pasted list of players: one entry per player)."""
    made = HistoryEntry.objects.bulk_create(list(entries), batch_size=500)
    changed_pages(made)
    return made


def changed_pages(entries: Iterable[HistoryEntry]) -> None:
    """Every audited change may change what its event's public pages show (and, for a game, its
    players' pages): their results versions move on in the same transaction, so that no cached page
    outlives it (``scoring/cache.py``). Here rather than in each service, so that a service added later
    cannot forget it: a change that leaves a history entry invalidates its pages — unless it is about
    games the public may not see yet (``league.versions.bump_results``' ``because_of``)."""
    entries = list(entries)
    about_games = [e for e in entries if e.hanchan_id is not None]
    others = [e for e in entries if e.hanchan_id is None]
    if others:
        bump_results(event_ids={e.event_id for e in others})
    if about_games:
        # A change of a game kept hidden for a final reveal changes no public page: nothing moves.
        games = {e.hanchan_id for e in about_games}
        bump_results(event_ids={e.event_id for e in about_games}, hanchan_ids=games, because_of=games)
