"""Web Push (RFC 8030, encrypted per RFC 8291 ``aes128gcm``, signed with the site's VAPID key, RFC 8292)
through pywebpush.

A browser subscribes on a personal page (``static/notifications/push.js``, the service worker
``/sw.js``): its push service's endpoint and keys are stored as a :class:`PushSubscription` for the
registration's address. :func:`queue_push` writes one :class:`Push` row per subscription of the address
in the caller's transaction and marks the ``push`` work: the worker sends it after the commit, never a
request. A push service answering 404 or 410 says the subscription is gone: it is removed, and its
pushes with it. Without VAPID keys (``VAPID_PRIVATE_KEY``, ``VAPID_PUBLIC_KEY``: ``manage.py vapid_keys``)
push is off: nothing is queued and the page offers no button.
"""

from __future__ import annotations

import base64
import json

import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext
from py_vapid import Vapid
from pywebpush import WebPushException, webpush

from .models import Push, PushSubscription
from .tasks import PUSH

TTL = 12 * 3600
"""Seconds a push service keeps a message for a browser that is offline: a seating is stale after a day."""


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def make_keys() -> tuple[str, str]:
    """A new VAPID key pair: (private key as base64url of its 32 raw bytes, public key as base64url of
    its uncompressed point, the ``applicationServerKey`` browsers want)."""
    key = ec.generate_private_key(ec.SECP256R1())
    private = key.private_numbers().private_value.to_bytes(32, "big")
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return b64url(private), b64url(public)


def enabled() -> bool:
    return bool(settings.VAPID_PRIVATE_KEY and settings.VAPID_PUBLIC_KEY)


def session() -> requests.Session:
    """The HTTP session pushes are sent through (a test mounts its own push service on it)."""
    return requests.Session()


@transaction.atomic
def subscribe(*, address: str, endpoint: str, p256dh: str, auth: str, language: str) -> PushSubscription:
    """Store (or move to ``address``) a browser's subscription; refuses what is not one."""
    address = (address or "").strip().lower()
    if not address:
        raise ValidationError(gettext("Push messages need the registration's e-mail address."))
    if not (isinstance(endpoint, str) and endpoint.startswith("https://") and len(endpoint) <= 1000):
        raise ValidationError({"endpoint": gettext("This is not a push subscription (its endpoint).")})
    try:
        raw_key = base64.urlsafe_b64decode(p256dh + "=" * (-len(p256dh) % 4))
        raw_auth = base64.urlsafe_b64decode(auth + "=" * (-len(auth) % 4))
    except (ValueError, TypeError):
        raw_key = raw_auth = b""
    if len(raw_key) != 65 or len(raw_auth) != 16:
        raise ValidationError({"keys": gettext("This is not a push subscription (its keys).")})
    found, _created = PushSubscription.objects.update_or_create(
        endpoint=endpoint,
        defaults={"address": address, "p256dh": p256dh, "auth": auth, "language": language[:10]},
    )
    return found


def unsubscribe(*, endpoint: str) -> bool:
    deleted, _ = PushSubscription.objects.filter(endpoint=endpoint).delete()
    return bool(deleted)


def queue_push(
    *, key: str, address: str, kind: str, title: str, body: str, url: str = "", scope: str = ""
) -> list[Push]:
    """Queue a push to every browser ``address`` subscribed (in the caller's transaction), once per key
    and subscription. The caller checks the address wants ``kind``; ``title``/``body``: already in the
    recipient's language."""
    if not enabled():
        return []
    pushes = []
    with transaction.atomic():
        for subscription in PushSubscription.objects.filter(address=address.strip().lower()):
            push, created = Push.objects.get_or_create(
                key=f"{key}:{subscription.pk}"[:200],
                defaults={
                    "subscription": subscription,
                    "kind": kind,
                    "title": title[:200],
                    "body": body,
                    "url": url[:500],
                },
            )
            if created:
                PUSH.mark(push.pk, scope=scope[:64])
            pushes.append(push)
    return pushes


def payload(push: Push) -> str:
    """What the service worker receives (``static/sw.js`` shows it as a notification)."""
    return json.dumps({"title": push.title, "body": push.body, "url": push.url, "tag": push.key})


def send_push(pk: int) -> None:
    """Send one queued push (the worker). Sent or gone: left alone. The push service's 404/410: the
    subscription is removed; any other failure propagates, so that the work is retried later."""
    push = Push.objects.select_for_update().select_related("subscription").filter(pk=pk).first()
    if push is None or push.sent_at is not None or not enabled():
        return
    subscription = push.subscription
    keys = {"p256dh": subscription.p256dh, "auth": subscription.auth}
    info = {"endpoint": subscription.endpoint, "keys": keys}
    try:
        webpush(
            info,
            data=payload(push),
            vapid_private_key=Vapid.from_raw(settings.VAPID_PRIVATE_KEY.encode()),
            vapid_claims={"sub": settings.VAPID_SUBJECT},
            content_encoding="aes128gcm",
            ttl=TTL,
            timeout=10,
            requests_session=session(),
        )
    except WebPushException as exc:
        status = exc.response.status_code if exc.response is not None else None
        if status in (404, 410):
            subscription.delete()  # its pushes go with it
            return
        raise
    push.sent_at = timezone.now()
    push.save(update_fields=["sent_at"])
