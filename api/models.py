"""Per-event API keys (docs/api.md): what a program holds to read an event's private data or to write its
results through the API.

A key is shown once, when it is created, and only its SHA-256 digest is stored: a copy of the database
(a backup, a leaked dump) lets nobody use a key. Keys are long random strings, so a fast digest is enough
(a password needs a slow one because people choose guessable ones). The first characters after the
``tb_`` stay readable (``prefix``) so that a key can be found in one indexed query and recognised on the
organiser's page. A key is revoked, never deleted: the history names it.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from league.models import Event


class Revocable(models.Model):
    """What a key and a webhook share: who made it and when, and when it was revoked (never deleted: the
    history and the delivery log name it)."""

    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)

    class Meta:
        abstract = True
        ordering = ["-created_at", "-pk"]


class ApiKey(Revocable):
    class Scope(models.TextChoices):
        READ_PRIVATE = "read_private", _("read private data")
        ENTER_RESULTS = "enter_results", _("enter results")
        IMPORT_LOGS = "import_logs", _("import game records")

    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="api_keys", verbose_name=_("event")
    )
    name = models.CharField(_("name"), max_length=40)
    prefix = models.CharField(_("prefix"), max_length=12, unique=True, editable=False)
    digest = models.CharField(_("digest"), max_length=64, editable=False)
    scopes = models.JSONField(_("scopes"), default=list)
    last_used_at = models.DateTimeField(_("last used at"), null=True, blank=True)

    class Meta(Revocable.Meta):
        verbose_name = _("API key")
        verbose_name_plural = _("API keys")

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @property
    def scope_labels(self) -> list[str]:
        """The scopes in the reader's language."""
        labels = dict(self.Scope.choices)
        return [str(labels.get(scope, scope)) for scope in self.scopes]

    def allows(self, scope: str) -> bool:
        return self.revoked_at is None and scope in self.scopes


class Webhook(Revocable):
    """A URL an organiser registered to be told of an event's changes (docs/api.md#webhooks).

    The secret signs every delivery (HMAC-SHA256). It must be kept to sign, so unlike a key it is stored
    as it is; it is shown once, when the webhook is registered, and never on a page or in a log."""

    class Kind(models.TextChoices):
        RESULTS_CHANGED = "results.changed", _("results changed")
        SEATING_PUBLISHED = "seating.published", _("seating published")
        ROUND_STARTED = "round.started", _("round started")
        ROUND_ENDED = "round.ended", _("round ended")
        STANDINGS_RELEASED = "standings.released", _("standings released")

    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="webhooks", verbose_name=_("event")
    )
    url = models.URLField(_("URL"), max_length=300)
    kinds = models.JSONField(_("events"), default=list)
    secret = models.CharField(_("secret"), max_length=80, editable=False)

    class Meta(Revocable.Meta):
        verbose_name = _("webhook")
        verbose_name_plural = _("webhooks")

    def __str__(self) -> str:
        return self.url

    @property
    def kind_labels(self) -> list[str]:
        labels = dict(self.Kind.choices)
        return [str(labels.get(kind, kind)) for kind in self.kinds]


class Delivery(models.Model):
    """One POST of one webhook: what was sent, and each attempt's outcome (the organiser's log)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting")
        DELIVERED = "delivered", _("delivered")
        FAILED = "failed", _("failed")

    webhook = models.ForeignKey(
        Webhook, on_delete=models.CASCADE, related_name="deliveries", verbose_name=_("webhook")
    )
    kind = models.CharField(_("event"), max_length=30)
    payload = models.JSONField(_("payload"))
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    response_status = models.PositiveSmallIntegerField(_("response status"), null=True, blank=True)
    error = models.CharField(_("error"), max_length=300, blank=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    delivered_at = models.DateTimeField(_("delivered at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("delivery")
        verbose_name_plural = _("deliveries")

    def __str__(self) -> str:
        return f"{self.kind} → {self.webhook_id}"
