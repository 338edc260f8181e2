"""The services of API keys: create (the secret returned once), revoke, and find the key a request
presents. Each change leaves a history entry on the event."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from league import history, phrases
from league.models import Event

from . import revoking
from .models import ApiKey

KEY_START = "tb_"
PREFIX_BYTES = 4  # 8 hex characters: readable on the page, unique in the table
SECRET_BYTES = 32
USED_EVERY_SECONDS = 60
"""``last_used_at`` is written at most this often: a busy bot must not cost a write per request."""


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


@dataclass(frozen=True)
class NewKey:
    key: ApiKey
    secret: str
    """The whole key, to show once: it is never stored."""


def via(key: ApiKey) -> str:
    """What the history says made a change through ``key`` (``HistoryEntry.via``, translated on the page
    by ``HistoryEntry.via_label``)."""
    return f"API key '{key.name}'"


@contextmanager
def acting_as(key: ApiKey, ip: str | None) -> Iterator[None]:
    """Every history entry written inside says the change came through ``key``, from ``ip``."""
    with history.acting_via(via(key), ip):
        yield


def _check_scopes(scopes: Sequence[str]) -> list[str]:
    chosen = sorted(set(scopes))
    if not chosen:
        raise ValidationError({"scopes": gettext("Scopes: choose at least one.")})
    unknown = [s for s in chosen if s not in ApiKey.Scope.values]
    if unknown:
        raise ValidationError({"scopes": gettext("Scopes: unknown scope %(scope)s.") % {"scope": unknown[0]}})
    return chosen


@transaction.atomic
def create_key(*, event: Event, name: str, scopes: Sequence[str], user: Any) -> NewKey:
    """A new key of ``event`` with ``scopes``; the returned secret is the only copy."""
    name = (name or "").strip()
    if not name:
        raise ValidationError({"name": gettext("Name: give the key a name (who or what uses it).")})
    if len(name) > ApiKey._meta.get_field("name").max_length:
        raise ValidationError({"name": gettext("Name: at most 40 characters.")})
    if ApiKey.objects.filter(event=event, name=name, revoked_at__isnull=True).exists():
        raise ValidationError({"name": gettext("Name: this event already has a key of that name.")})
    chosen = _check_scopes(scopes)
    prefix = secrets.token_hex(PREFIX_BYTES)
    while ApiKey.objects.filter(prefix=prefix).exists():  # pragma: no cover - 1 in 4 billion
        prefix = secrets.token_hex(PREFIX_BYTES)
    secret = f"{KEY_START}{prefix}_{secrets.token_urlsafe(SECRET_BYTES)}"
    key = ApiKey.objects.create(
        event=event,
        name=name,
        prefix=prefix,
        digest=digest(secret),
        scopes=chosen,
        created_by=history.acting_user(user),
    )
    history.log(
        event=event,
        user=user,
        action="api key created",
        summary=phrases.say(
            gettext_noop("API key '%(name)s' (%(scopes)s)"), name=name, scopes=", ".join(chosen)
        ),
    )
    return NewKey(key, secret)


def revoke_key(*, key: ApiKey, user: Any) -> ApiKey:
    """Revoke ``key``: refused from the next request on. Revoking it again changes nothing."""
    summary = phrases.say(gettext_noop("API key '%(name)s'"), name=key.name)
    return revoking.revoke(key, user=user, action="api key revoked", summary=summary)


def find_key(presented: str) -> ApiKey | None:
    """The live key ``presented`` is, or None (unknown, malformed or revoked). One query; the digest is
    compared in constant time."""
    if not presented.startswith(KEY_START) or len(presented) > 100:
        return None
    prefix, _, rest = presented[len(KEY_START) :].partition("_")
    if not prefix or not rest:
        return None
    key = ApiKey.objects.select_related("event", "event__club").filter(prefix=prefix).first()
    if key is None or key.revoked_at is not None:
        return None
    if not hmac.compare_digest(key.digest, digest(presented)):
        return None
    now = timezone.now()
    if key.last_used_at is None or (now - key.last_used_at).total_seconds() > USED_EVERY_SECONDS:
        ApiKey.objects.filter(pk=key.pk).update(last_used_at=now)
        key.last_used_at = now
    return key
