"""The audit trail: every service writes one entry saying who did what, when, what changed and why.

It lives in league because both apps write it: league's services (events, players, registrations) and
scoring's (games, hands, penalties, rules). ``scoring.services.history`` re-exports it, so scoring's
callers are unchanged. An entry stores ``before``/``after`` as JSON and a summary naming each changed
field as "name: old → new", so the history says what changed, not only that something did.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import date, datetime
from typing import Any

from django.utils.translation import gettext, gettext_lazy

from .models import Event, Hanchan, HistoryEntry
from .versions import bump_results

SUMMARY_LENGTH = 300  # HistoryEntry.summary
REASON_LENGTH = 300  # HistoryEntry.reason


# How a summary names a changed field ("min games: 0 → 3"), in the writer's language. A field not listed
# is named by its key with spaces (a ruleset's settings keep their keys: the game record's names).
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
}


def field_label(name: str) -> str:
    """A changed field as a summary names it (see ``FIELD_LABELS``)."""
    return str(FIELD_LABELS.get(name, name.replace("_", " ")))


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


def _shown(value: Any) -> str:
    """A value as the summary shows it: an empty value is an em dash, not a blank."""
    if value is None or value == "" or value == []:
        return "—"
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if isinstance(value, list):
        return "/".join(_shown(v) for v in value)
    if isinstance(value, dict):
        return "{…}"  # a ruleset: the before/after JSON holds it whole
    return str(value)


def changes(
    before: Mapping[str, Any], after: Mapping[str, Any], fields: Iterable[str] | None = None
) -> tuple[dict[str, Any], dict[str, Any], str]:
    """The fields that differ between ``before`` and ``after``: (old values, new values, summary).

    The summary lists each changed field as ``name: old → new`` (underscores read as spaces), in the
    order of ``fields`` (or of ``after``), separated by "; "."""
    names = list(fields) if fields is not None else list(after)
    old: dict[str, Any] = {}
    new: dict[str, Any] = {}
    parts: list[str] = []
    for name in names:
        a, b = jsonable(before.get(name)), jsonable(after.get(name))
        if a == b:
            continue
        old[name], new[name] = a, b
        label = field_label(name)
        if isinstance(a, dict) and isinstance(b, dict):  # a ruleset: name the settings that changed
            inner = changes(a, b, [*a, *(k for k in b if k not in a)])[2]
            parts.append(f"{label}: {inner}")
        else:
            parts.append(f"{label}: {_shown(a)} → {_shown(b)}")
    return old, new, "; ".join(parts)


def clip(text: str, length: int = SUMMARY_LENGTH) -> str:
    """``text`` cut to the column's length, with an ellipsis when something was cut."""
    text = text or ""
    return text if len(text) <= length else text[: length - 1] + "…"


def entry(
    *,
    event: Event,
    user: Any,
    action: str,
    summary: str,
    hanchan: Hanchan | None = None,
    reason: str = "",
    before: Any = None,
    after: Any = None,
) -> HistoryEntry:
    """An unsaved history entry, its texts cut to their columns (see ``log`` and ``log_many``)."""
    via, ip = _VIA.get()
    return HistoryEntry(
        event=event,
        hanchan=hanchan,
        via=via,
        ip=ip,
        user=acting_user(user),
        action=action[:40],
        summary=clip(summary),
        reason=(reason or "")[:REASON_LENGTH],
        before=jsonable(before),
        after=jsonable(after),
    )


def log(
    *,
    event: Event,
    user: Any,
    action: str,
    summary: str,
    hanchan: Hanchan | None = None,
    reason: str = "",
    before: Any = None,
    after: Any = None,
) -> HistoryEntry:
    """Write one history entry; the caller holds the transaction of the change it records."""
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
    cannot forget it: a change that leaves a history entry invalidates its pages."""
    entries = list(entries)
    bump_results(event_ids={e.event_id for e in entries}, hanchan_ids={e.hanchan_id for e in entries})
