"""Queue e-mails; a background worker sends them.

Any feature calls :func:`queue_email` inside the transaction of the change that calls for a message
(a registration confirmed, a place freed on the waiting list). It records a :class:`Message` row and marks
it for the ``email`` work (``notifications.tasks.EMAIL``), which enqueues a Django Tasks wake-up once the
transaction commits: nothing is sent inside a request, a rolled-back change sends nothing, and a mail
server that is down delays the message (retried with backoff) without failing anyone's page.

- **Idempotent by key.** The caller names the message (``signup:12:confirmed``): queueing the same key
  again returns the first message and sends nothing more (a double submit, a retried service).
- **In the recipient's language.** The subject and body are rendered when the message is sent, from
  ``<template>_subject.txt`` and ``<template>.txt`` with the stored context, under the language stored
  with the message.
- **Unsubscribe.** Every message carries a link (in its body and its ``List-Unsubscribe`` header, with
  one-click ``List-Unsubscribe-Post``) to a page that works without a login: the link holds the address,
  signed. An address that unsubscribed is sent nothing more; one that turned a kind of message off
  (``notifications.preferences``) is sent nothing more of that kind.
- **A QR code.** A context holding ``qr_code`` (a link) gets that link's QR code attached as a PNG image
  (a registration's check-in code): scanned at the door from the e-mail itself.
- **Already rendered.** :func:`queue_rendered` queues a message whose subject, text and HTML were
  rendered by the caller (django-allauth's own e-mails: confirm an address, reset a password). These are
  answers to what the recipient just asked for, so they carry no unsubscribe link and are sent even to an
  address that unsubscribed from the site's notifications.
- **At least once.** The worker sends, then commits "sent": a crash between the two sends the message
  again, with the same ``Message-ID`` so that mail programs can tell it is the same.
"""

from __future__ import annotations

import hashlib
import io
import uuid
from typing import Any

import segno
from django.conf import settings
from django.core import signing
from django.core.mail import EmailMessage, EmailMultiAlternatives
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from .models import Message, Muted, Unsubscribed
from .tasks import EMAIL

_SALT = "notifications.unsubscribe"
RENDERED = "(rendered)"
"""The ``template`` of a message queued already rendered (:func:`queue_rendered`): its context holds
``subject``, ``text`` and ``html``."""


def queue_email(
    *,
    key: str,
    to: str,
    template: str,
    context: dict[str, Any],
    language: str = "",
    scope: str = "",
    kind: str = "",
) -> Message | None:
    """Queue one e-mail to ``to`` (in the caller's transaction); the existing message when ``key`` was
    queued before, ``None`` when there is no address. ``context`` must be JSON (names, numbers, links);
    ``language`` defaults to the active one; ``kind`` (``notifications.kinds``): what it is about, which
    the recipient may have turned off."""
    to = (to or "").strip()
    if not to:
        return None
    language = language or translation.get_language() or settings.LANGUAGE_CODE
    with transaction.atomic():
        message, created = Message.objects.get_or_create(
            key=key[:200],
            defaults={
                "to": to,
                "template": template,
                "context": context,
                "language": language,
                "kind": kind,
            },
        )
        if created:
            EMAIL.mark(message.pk, scope=scope[:64])
    return message


def queue_rendered(
    *, to: str, subject: str, text: str, html: str = "", key: str = "", language: str = ""
) -> Message | None:
    """Queue one transactional e-mail already rendered (in the caller's transaction; the worker sends it
    once the transaction commits): no unsubscribe link, sent whatever the address unsubscribed from.
    ``key`` defaults to a fresh one (each call is its own message: a second "resend the link" is a
    second e-mail, as it would be if sent at once)."""
    to = (to or "").strip()
    if not to:
        return None
    return queue_email(
        key=key or f"rendered:{uuid.uuid4().hex}",
        to=to,
        template=RENDERED,
        context={"subject": " ".join(str(subject).split()), "text": str(text), "html": str(html or "")},
        language=language,
    )


def site_url(path: str) -> str:
    """An absolute link for a message (the worker writes it, outside any request): ``SITE_URL`` + path."""
    return settings.SITE_URL + path


def unsubscribe_token(address: str) -> str:
    return signing.dumps(address.strip().lower(), salt=_SALT, compress=True)


def address_of(token: str) -> str | None:
    """The address a link's token was made for, or None for a token this site did not sign."""
    try:
        value = signing.loads(token, salt=_SALT)
    except signing.BadSignature:
        return None
    return value if isinstance(value, str) else None


def unsubscribe_url(address: str, kind: str = "") -> str:
    """The link of an e-mail about ``kind``: its page offers "only this kind" and "everything"."""
    path = reverse("notifications:unsubscribe", args=[unsubscribe_token(address)])
    return site_url(f"{path}?kind={kind}" if kind else path)


def is_unsubscribed(address: str) -> bool:
    return Unsubscribed.objects.filter(address=address.strip().lower()).exists()


def wants(address: str, kind: str) -> bool:
    """Whether ``address`` still gets messages of ``kind`` (not unsubscribed, that kind not muted)."""
    address = address.strip().lower()
    if is_unsubscribed(address):
        return False
    return not (kind and Muted.objects.filter(address=address, kind=kind).exists())


def unsubscribe(address: str) -> bool:
    """Send nothing more to ``address``; whether it was subscribed until now (a second click is fine)."""
    _row, created = Unsubscribed.objects.get_or_create(address=address.strip().lower())
    return created


def _message_id(message: Message) -> str:
    digest = hashlib.sha256(message.key.encode()).hexdigest()[:32]
    domain = settings.DEFAULT_FROM_EMAIL.rpartition("@")[2].strip("> ") or "localhost"
    return f"<{digest}@{domain}>"


def _render_rendered(message: Message) -> EmailMessage:
    """A message queued already rendered: its subject, text and HTML as they were, no unsubscribe link."""
    context = message.context if isinstance(message.context, dict) else {}
    email = EmailMultiAlternatives(
        subject=str(context.get("subject", "")),
        body=str(context.get("text", "")),
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[message.to],
        headers={"Message-ID": _message_id(message), "Content-Language": message.language},
    )
    html = context.get("html")
    if isinstance(html, str) and html:
        email.attach_alternative(html, "text/html")
    return email


def render(message: Message) -> EmailMessage:
    """The message as it is sent: rendered in its recipient's language, with its unsubscribe link."""
    if message.template == RENDERED:
        return _render_rendered(message)
    link = unsubscribe_url(message.to, message.kind)
    context = {**message.context, "unsubscribe_url": link, "site_url": settings.SITE_URL}
    with translation.override(message.language):
        subject = " ".join(render_to_string(f"{message.template}_subject.txt", context).split())
        body = render_to_string(f"{message.template}.txt", context)
    email = EmailMessage(
        subject=subject,
        body=body,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[message.to],
        headers={
            "List-Unsubscribe": f"<{link}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "Message-ID": _message_id(message),
            "Content-Language": message.language,
        },
    )
    qr_link = message.context.get("qr_code")
    if isinstance(qr_link, str) and qr_link:
        email.attach("qr-code.png", qr_png(qr_link), "image/png")
    return email


def qr_png(text: str) -> bytes:
    """``text`` as a QR code in a PNG image (medium error correction, as the tables' slips)."""
    out = io.BytesIO()
    segno.make(text, error="m", micro=False).save(out, kind="png", scale=8, border=4)
    return out.getvalue()


def send_message(pk: int) -> None:
    """Send one queued message (the worker, inside the drain's transaction): a message already sent, or
    gone, is left alone; an address that unsubscribed is not sent to. A mail server's error propagates,
    so that the work is retried later."""
    message = Message.objects.select_for_update().filter(pk=pk).first()
    if message is None or message.status != Message.Status.QUEUED:
        return
    if message.template != RENDERED and not wants(message.to, message.kind):
        message.status = Message.Status.UNSUBSCRIBED
    else:
        render(message).send(fail_silently=False)
        message.status = Message.Status.SENT
        message.sent_at = timezone.now()
        if message.template == RENDERED:
            # Its body holds a secret link (a password reset): not kept once sent.
            message.context = {"subject": message.context.get("subject", "")}
    message.save(update_fields=["status", "sent_at", "context"])
