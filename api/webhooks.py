"""Webhooks (docs/api.md#webhooks): an organiser registers a URL and the kinds of change to be told of;
each change is POSTed there as JSON, signed, by a background worker, retried with backoff, and logged.

- **What is announced** comes from the signals the lower layers send inside their services'
  transactions (``scoring.signals``, ``tournaments.signals``): the listeners below write a
  :class:`~api.models.Delivery` per webhook and mark it as work (``api.tasks.WEBHOOKS``) in that same
  transaction, so a change that rolls back announces nothing, and a committed one is delivered even if
  the worker is down now.
- **The signature**: ``Tenbou-Signature: t=<unix time>,v1=<hex HMAC-SHA256 of "<t>.<body>" with the
  webhook's secret>``; a receiver recomputes it and refuses a stale ``t`` (a replayed request).
  ``Tenbou-Delivery`` carries the delivery's id: a delivery may come twice (a worker that died between the
  send and its commit sends again), and a receiver ignores an id it has seen.
- **Never to a private address** (SSRF): the host must resolve to public addresses only — no loopback,
  private, link-local, shared, reserved or multicast address — checked when the URL is registered and
  again at every delivery, after resolving the name, and the request goes to the address checked (a name
  that resolves elsewhere a second time cannot redirect it). Redirects are not followed.
"""

from __future__ import annotations

import hashlib
import hmac
import http.client
import ipaddress
import json
import secrets
import socket
import ssl
import time
from collections.abc import Callable, Sequence
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.dispatch import receiver
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from league import history, phrases
from league.hidden_rounds import in_hidden_round
from league.models import Event, Hanchan
from scoring.signals import results_changed
from tournaments import signals as day

from . import revoking
from .models import Delivery, Webhook

TIMEOUT_SECONDS = 10
MAX_ERROR = 300
USER_AGENT = "Tenbou-Webhooks/1"


class Refused(Exception):
    """A URL Tenbou will not send to (the message says why, in the reader's language)."""


# -- where we may send -----------------------------------------------------------------------------------


def resolve(host: str, port: int) -> list[str]:
    """The addresses ``host`` resolves to (a function of its own so that tests can stand in for DNS)."""
    return sorted({info[4][0] for info in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)})


def is_public(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%")[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast


def target(url: str) -> tuple[str, str, int, str, list[str]]:
    """(scheme, host, port, path with query, the host's public addresses) of ``url``; :class:`Refused`
    when Tenbou will not send there."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise Refused(gettext("The URL must start with https:// (or http://) and name a host."))
    if parts.username or parts.password:
        raise Refused(gettext("The URL must not carry a user name or password."))
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise Refused(gettext("The URL's port is not a number from 1 to 65535.")) from None
    try:
        addresses = resolve(parts.hostname, port)
    except (OSError, UnicodeError):
        raise Refused(gettext("The URL's host %(host)s has no address.") % {"host": parts.hostname}) from None
    if not addresses:
        raise Refused(gettext("The URL's host %(host)s has no address.") % {"host": parts.hostname})
    private = [a for a in addresses if not is_public(a)]
    if private:
        raise Refused(
            gettext(
                "The URL's host %(host)s is at %(address)s, a private, loopback or link-local address: "
                "webhooks go to public addresses only."
            )
            % {"host": parts.hostname, "address": private[0]}
        )
    path = parts.path or "/"
    if parts.query:
        path = f"{path}?{parts.query}"
    return parts.scheme, parts.hostname, port, path, addresses


# -- registering -----------------------------------------------------------------------------------------


@transaction.atomic
def register(*, event: Event, url: str, kinds: Sequence[str], user: Any) -> tuple[Webhook, str]:
    """A new webhook of ``event``; the returned secret is shown once (the page that answers)."""
    url = (url or "").strip()
    chosen = sorted(set(kinds))
    if not chosen:
        raise ValidationError({"kinds": gettext("Events: choose at least one.")})
    if any(k not in Webhook.Kind.values for k in chosen):
        raise ValidationError({"kinds": gettext("Events: choose among those listed.")})
    try:
        target(url)
    except Refused as exc:
        raise ValidationError({"url": gettext("URL: %(why)s") % {"why": exc}}) from None
    secret = secrets.token_urlsafe(32)
    hook = Webhook.objects.create(
        event=event, url=url, kinds=chosen, secret=secret, created_by=history.acting_user(user)
    )
    history.log(
        event=event,
        user=user,
        action="webhook registered",
        summary=phrases.say(gettext_noop("Webhook %(url)s (%(kinds)s)"), url=url, kinds=", ".join(chosen)),
    )
    return hook, secret


def revoke(*, webhook: Webhook, user: Any) -> Webhook:
    """Stop a webhook: nothing more is sent to it (deliveries waiting are dropped as failed)."""
    summary = phrases.say(gettext_noop("Webhook %(url)s"), url=webhook.url)
    return revoking.revoke(webhook, user=user, action="webhook revoked", summary=summary)


# -- announcing ------------------------------------------------------------------------------------------


def announce(
    event_id: int, kind: str, data: dict[str, Any] | Callable[[], dict[str, Any] | None]
) -> list[Delivery]:
    """A delivery to every live webhook of the event that asked for ``kind``, marked as work in the
    caller's transaction. One query when the event has no webhook (the usual case). ``data`` may be a
    function, called only when some webhook listens; None from it: nothing to announce."""
    from .tasks import WEBHOOKS

    hooks = [h for h in Webhook.objects.filter(event_id=event_id, revoked_at__isnull=True) if kind in h.kinds]
    if not hooks:
        return []
    if callable(data):
        data = data()
        if data is None:
            return []
    slug = Event.objects.filter(pk=event_id).values_list("slug", flat=True).first()
    made = []
    for hook in hooks:
        delivery = Delivery.objects.create(webhook=hook, kind=kind, payload={})
        delivery.payload = {
            "id": delivery.pk,
            "kind": kind,
            "event": slug,
            "at": timezone.now().isoformat(),
            "data": data,
        }
        delivery.save(update_fields=["payload"])
        made.append(delivery)
    WEBHOOKS.mark_many((d.pk, f"event:{event_id}") for d in made)
    return made


@receiver(results_changed, dispatch_uid="api-webhooks-results")
def _results(sender: Any, event_id: int, hanchan_ids: Sequence[int], **kwargs: Any) -> None:
    """The games the public may see: results of rounds kept for the final reveal are not announced
    (``league.hidden_rounds``); the release is (``standings.released``)."""

    def public_games() -> dict[str, Any] | None:
        games = Hanchan.objects.filter(pk__in=list(hanchan_ids)).exclude(in_hidden_round(""))
        shown = sorted(games.values_list("pk", flat=True))
        return {"games": shown} if shown else None

    announce(event_id, Webhook.Kind.RESULTS_CHANGED, public_games)


@receiver(day.seating_published, dispatch_uid="api-webhooks-seating")
def _seating(sender: Any, event: Event, rounds: Sequence[int], **kwargs: Any) -> None:
    announce(event.pk, Webhook.Kind.SEATING_PUBLISHED, {"rounds": list(rounds)})


@receiver(day.round_started, dispatch_uid="api-webhooks-round-started")
def _started(sender: Any, event: Event, number: int, **kwargs: Any) -> None:
    announce(event.pk, Webhook.Kind.ROUND_STARTED, {"round": number})


@receiver(day.round_ended, dispatch_uid="api-webhooks-round-ended")
def _ended(sender: Any, event: Event, number: int, **kwargs: Any) -> None:
    announce(event.pk, Webhook.Kind.ROUND_ENDED, {"round": number})


@receiver(day.standings_released, dispatch_uid="api-webhooks-released")
def _released(sender: Any, event: Event, stage: Any = None, **kwargs: Any) -> None:
    """The event-wide release says nothing more; a stage's release names the stage (its order)."""
    announce(event.pk, Webhook.Kind.STANDINGS_RELEASED, {"stage": stage.order} if stage is not None else {})


# -- delivering ------------------------------------------------------------------------------------------


def signature(secret: str, timestamp: int, body: bytes) -> str:
    """The ``Tenbou-Signature`` header's value."""
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return f"t={timestamp},v1={mac}"


class _PinnedHTTPS(http.client.HTTPSConnection):
    """HTTPS to the address checked, with the certificate checked for the host name."""

    def __init__(self, host: str, address: str, port: int, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout, context=ssl.create_default_context())
        self._address = address

    def connect(self) -> None:
        sock = socket.create_connection((self._address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)  # type: ignore[attr-defined]


class _PinnedHTTP(http.client.HTTPConnection):
    def __init__(self, host: str, address: str, port: int, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout)
        self._address = address

    def connect(self) -> None:
        self.sock = socket.create_connection((self._address, self.port), self.timeout)


def post(
    scheme: str, host: str, address: str, port: int, path: str, body: bytes, headers: dict[str, str]
) -> int:
    """POST ``body`` to ``address`` (for ``host``) and return the status (redirects are not followed)."""
    kind = _PinnedHTTPS if scheme == "https" else _PinnedHTTP
    connection = kind(host, address, port, getattr(settings, "WEBHOOK_TIMEOUT", TIMEOUT_SECONDS))
    try:
        connection.request("POST", path, body=body, headers=headers)
        response = connection.getresponse()
        response.read(65536)
        return response.status
    finally:
        connection.close()


class DeliveryFailed(Exception):
    """The receiver did not take the delivery; the worker tries again later (with backoff)."""


def deliver(delivery_id: int) -> None:
    """Send one delivery, once it is due: its attempt, status and error are saved (the organiser's log)
    whatever happens; a failure raises :class:`DeliveryFailed`, so that the worker retries it."""
    delivery = Delivery.objects.select_related("webhook").filter(pk=delivery_id).first()
    if delivery is None or delivery.status == Delivery.Status.DELIVERED:
        return  # delivered before a crash kept its work row: done
    hook = delivery.webhook
    delivery.attempts += 1
    if hook.revoked_at is not None:
        _record(delivery, Delivery.Status.FAILED, None, gettext("The webhook was revoked."))
        return
    try:
        scheme, host, port, path, addresses = target(hook.url)
    except Refused as exc:  # checked again after DNS: a name moved to a private address is refused
        _record(delivery, Delivery.Status.FAILED, None, str(exc))
        return
    body = json.dumps(delivery.payload, separators=(",", ":"), sort_keys=True).encode()
    headers = {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        "Tenbou-Delivery": str(delivery.pk),
        "Tenbou-Event": delivery.kind,
        "Tenbou-Signature": signature(hook.secret, int(time.time()), body),
    }
    try:
        code = post(scheme, host, addresses[0], port, path, body, headers)
    except (OSError, http.client.HTTPException) as exc:
        _record(delivery, Delivery.Status.PENDING, None, f"{type(exc).__name__}: {exc}")
        raise DeliveryFailed(f"delivery {delivery.pk}: {type(exc).__name__}") from None
    if 200 <= code < 300:
        _record(delivery, Delivery.Status.DELIVERED, code, "")
        return
    answered = gettext("The receiver answered %(code)s.") % {"code": code}
    _record(delivery, Delivery.Status.PENDING, code, answered)
    raise DeliveryFailed(f"delivery {delivery.pk}: HTTP {code}")


def _record(delivery: Delivery, status: str, code: int | None, error: str) -> None:
    delivery.status = status
    delivery.response_status = code
    delivery.error = error[:MAX_ERROR]
    if status == Delivery.Status.DELIVERED:
        delivery.delivered_at = timezone.now()
    delivery.save(update_fields=["status", "response_status", "error", "delivered_at", "attempts"])


def give_up(delivery_id: int) -> None:
    """After the last attempt: the delivery is failed for good (its log says so)."""
    waiting = Delivery.objects.filter(pk=delivery_id, status=Delivery.Status.PENDING)
    waiting.update(status=Delivery.Status.FAILED)
