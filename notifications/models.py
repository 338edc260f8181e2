"""The outbox: every e-mail the site sends, as a row written in the transaction of the change that calls
for it, and the addresses that asked for no more."""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Message(models.Model):
    """One e-mail to one address. What it says is rendered when it is sent, from ``template`` and
    ``context`` in ``language`` (the recipient's, not the language of whoever caused it); ``key`` makes
    queueing idempotent: the same key queued twice is one message."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        SENT = "sent", _("sent")
        UNSUBSCRIBED = "unsubscribed", _("not sent: unsubscribed")

    key = models.CharField(_("key"), max_length=200, unique=True)
    to = models.EmailField(_("to"))
    language = models.CharField(_("language"), max_length=10)
    template = models.CharField(_("template"), max_length=120)
    # What it is about (``notifications.kinds``): the recipient may have turned that kind off.
    kind = models.CharField(_("kind"), max_length=20, blank=True)
    context = models.JSONField(_("context"), default=dict, blank=True)
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.QUEUED)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("e-mail")
        verbose_name_plural = _("e-mails")

    def __str__(self) -> str:
        return f"{self.template} → {self.to}"


class Unsubscribed(models.Model):
    """An address that asked for no more e-mails (through the link every e-mail carries)."""

    address = models.EmailField(_("address"), unique=True)  # lower case
    at = models.DateTimeField(_("at"), default=timezone.now)

    class Meta:
        verbose_name = _("unsubscribed address")
        verbose_name_plural = _("unsubscribed addresses")

    def __str__(self) -> str:
        return self.address


class Muted(models.Model):
    """A kind of message an address asked not to get (its personal page, or "only this kind" on the
    unsubscribe page): e-mails and pushes of that kind are not sent to it."""

    address = models.EmailField(_("address"))  # lower case
    kind = models.CharField(_("kind"), max_length=20)

    class Meta:
        verbose_name = _("muted kind")
        verbose_name_plural = _("muted kinds")
        constraints = [models.UniqueConstraint(fields=["address", "kind"], name="notifications_muted_once")]

    def __str__(self) -> str:
        return f"{self.address}: {self.kind}"


class PushSubscription(models.Model):
    """One browser's Web Push subscription (its push service's endpoint and keys, RFC 8291), made on a
    personal page: it gets the pushes of ``address`` (the registration's e-mail) while the address wants
    them. Removed when its push service answers that it is gone (404, 410)."""

    address = models.EmailField(_("address"))  # lower case
    endpoint = models.URLField(_("endpoint"), max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    language = models.CharField(_("language"), max_length=10)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        verbose_name = _("push subscription")
        verbose_name_plural = _("push subscriptions")
        indexes = [models.Index(fields=["address"], name="notifications_push_address")]

    def __str__(self) -> str:
        return self.address


class Push(models.Model):
    """One push message to one subscription, queued like an e-mail (idempotent ``key``) and sent by the
    worker. ``title`` and ``body`` are rendered when it is queued, in the subscription's language."""

    key = models.CharField(_("key"), max_length=200, unique=True)
    subscription = models.ForeignKey(
        PushSubscription, on_delete=models.CASCADE, related_name="pushes", verbose_name=_("subscription")
    )
    kind = models.CharField(_("kind"), max_length=20, blank=True)
    title = models.CharField(_("notification heading"), max_length=200)
    body = models.TextField(_("notification text"))
    url = models.CharField(_("page it opens"), max_length=500, blank=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)

    class Meta:
        verbose_name = _("push message")
        verbose_name_plural = _("push messages")

    def __str__(self) -> str:
        return self.title
