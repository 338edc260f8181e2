"""Registration opened to the players themselves, and their check-in on the day.

A :class:`Opening` is an event's registration: when it is open, how many places, a waiting list or
not, the organiser's approval or not, and which fields the form asks. A :class:`SignUp` is one person's
entry: not yet one of the event's players (``league.Registration``) — the organiser turns the confirmed
sign-ups into players when the list is final (``registration.services.add_confirmed_players``).
"""

from __future__ import annotations

import secrets
from datetime import datetime

from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django_countries.fields import CountryField

from league.models import Event, Player, Registration


def new_token() -> str:
    """A sign-up's personal link: whoever holds it sees and changes that one sign-up (and checks it in)."""
    return secrets.token_urlsafe(24)


class Opening(models.Model):
    """An event's registration, as the organiser opened it."""

    class Ask(models.TextChoices):
        NO = "no", _("not asked")
        OPTIONAL = "optional", _("optional")
        REQUIRED = "required", _("required")

    event = models.OneToOneField(
        Event, on_delete=models.CASCADE, related_name="registration_opening", verbose_name=_("event")
    )
    opens_at = models.DateTimeField(_("opens at"))
    closes_at = models.DateTimeField(_("closes at"))
    capacity = models.PositiveIntegerField(_("places"), help_text=_("How many players the event takes."))
    waiting_list = models.BooleanField(
        _("waiting list"),
        default=True,
        help_text=_(
            "Once every place is taken, more people may join a waiting list: a withdrawal gives "
            "its place to the first of them, who is told by e-mail."
        ),
    )
    approval = models.BooleanField(
        _("organiser's approval"),
        default=False,
        help_text=_("Each registration waits for an organiser to approve it before it takes a place."),
    )
    ask_ema_number = models.CharField(
        _("EMA number"), max_length=10, choices=Ask.choices, default=Ask.OPTIONAL
    )
    ask_country = models.CharField(_("country"), max_length=10, choices=Ask.choices, default=Ask.OPTIONAL)
    ask_club = models.CharField(_("club"), max_length=10, choices=Ask.choices, default=Ask.OPTIONAL)
    ask_email = models.CharField(_("e-mail"), max_length=10, choices=Ask.choices, default=Ask.REQUIRED)
    updated_at = models.DateTimeField(_("updated at"), default=timezone.now)

    class Meta:
        verbose_name = _("registration opening")
        verbose_name_plural = _("registration openings")

    def __str__(self) -> str:
        return str(self.event)

    def is_open(self, now: datetime | None = None) -> bool:
        now = now or timezone.now()
        return self.opens_at <= now < self.closes_at


ACTIVE = ("pending", "confirmed", "waiting")
"""The states of a sign-up that hold (or wait for) a place: an EMA number is in one of them at most."""


class SignUp(models.Model):
    """One person's registration through the public form."""

    class Status(models.TextChoices):
        PENDING = "pending", _("awaiting approval")
        CONFIRMED = "confirmed", _("confirmed")
        WAITING = "waiting", _("waiting list")
        REJECTED = "rejected", _("rejected")
        WITHDRAWN = "withdrawn", _("withdrawn")

    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="signups", verbose_name=_("event")
    )
    name = models.CharField(_("name"), max_length=80)
    # NULL when not given: the unique constraint below holds for the numbers given only.
    ema_number = models.CharField(_("EMA number"), max_length=8, null=True, blank=True)  # noqa: DJ001
    country = CountryField(_("country"), blank=True)
    club = models.CharField(_("club"), max_length=120, blank=True)
    email = models.EmailField(_("e-mail"), blank=True)
    language = models.CharField(_("language"), max_length=10, default="en")
    # The player found by the EMA number typed: linked, never changed (their club keeps their details).
    player = models.ForeignKey(
        Player,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="signups",
        verbose_name=_("player"),
    )
    # The event's registration made from this sign-up (``add_confirmed_players``).
    registration = models.OneToOneField(
        Registration,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="signup",
        verbose_name=_("registration"),
    )
    status = models.CharField(_("status"), max_length=12, choices=Status.choices)
    token = models.CharField(
        _("personal link"), max_length=64, unique=True, default=new_token, editable=False
    )
    # The random key of the form that sent it: the same form sent twice is one sign-up.
    form_key = models.CharField(max_length=64, unique=True, null=True, blank=True, editable=False)
    created_at = models.DateTimeField(_("registered at"), default=timezone.now)
    waiting_since = models.DateTimeField(_("waiting since"), null=True, blank=True)
    checked_in_at = models.DateTimeField(_("checked in at"), null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        verbose_name = _("sign-up")
        verbose_name_plural = _("sign-ups")
        constraints = [
            models.UniqueConstraint(
                fields=["event", "ema_number"],
                condition=Q(status__in=ACTIVE, ema_number__isnull=False),
                name="registration_one_active_signup_per_ema_number",
            ),
        ]
        indexes = [models.Index(fields=["event", "status"], name="registration_signup_status")]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("registration:signup", args=[self.token])
