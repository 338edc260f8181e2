"""The event day's own state: rounds with their clock, and the tables' entry links.

Who sits where is still ``league``'s (``Hanchan`` rows with a round and table number); what happened is
``scoring``'s. This app adds what only the day needs: whether a round is open for the tables, how much
time it has left, and the links with which each table enters its own game without an account.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from league.models import Event, Hanchan

# Short table codes avoid letters and digits that read alike on a printed slip (0/O, 1/I/L, 5/S, 2/Z).
CODE_ALPHABET = "ACDEFGHJKMNPQRTUVWXY346789"
CODE_LENGTH = 6


def new_token() -> str:
    """An unguessable URL token: 192 random bits."""
    return secrets.token_urlsafe(24)


def new_code() -> str:
    """A short code a player can type from the slip (26^6 ≈ 3·10^8; entry is rate-limited)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


class Round(models.Model):
    """One round of a tournament: open for the tables' entry or not, and its clock.

    The clock is stored as what happened (started, paused, time added) rather than as a ticking value,
    so every page and every worker computes the same remaining time from the database alone.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("not open yet")
        OPEN = "open", _("open")
        CLOSED = "closed", _("closed")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, verbose_name=_("event"), related_name="rounds")
    number = models.PositiveSmallIntegerField(
        _("number"), validators=[MinValueValidator(1), MaxValueValidator(999)]
    )
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.PENDING)
    opened_at = models.DateTimeField(_("opened at"), null=True, blank=True)
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    # -- the clock -----------------------------------------------------------------------------------
    minutes = models.PositiveSmallIntegerField(
        _("length (minutes)"), default=90, validators=[MinValueValidator(1), MaxValueValidator(600)]
    )
    added_seconds = models.IntegerField(
        _("seconds added"), default=0, help_text=_("Time the organiser added (or took back).")
    )
    clock_started_at = models.DateTimeField(
        _("clock started at"), null=True, blank=True, help_text=_("When the clock last started running.")
    )
    elapsed_seconds = models.PositiveIntegerField(
        _("seconds elapsed"),
        default=0,
        help_text=_("Seconds run before the clock last started (pauses excluded)."),
    )

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["event", "number"]
        constraints = [models.UniqueConstraint(fields=["event", "number"], name="unique_round_number")]

    def __str__(self) -> str:
        return f"{self.event} round {self.number}"

    @property
    def running(self) -> bool:
        return self.clock_started_at is not None

    def elapsed(self, now: datetime | None = None) -> timedelta:
        """Time the clock has run, pauses excluded."""
        seconds = self.elapsed_seconds
        if self.clock_started_at is not None:
            seconds += max(0, int(((now or timezone.now()) - self.clock_started_at).total_seconds()))
        return timedelta(seconds=seconds)

    def remaining(self, now: datetime | None = None) -> timedelta:
        """Time left, never below zero."""
        total = self.minutes * 60 + self.added_seconds
        return max(timedelta(0), timedelta(seconds=total) - self.elapsed(now))


class TableLink(models.Model):
    """A table's entry link for one game (a seated table of a round): the token in the URL and QR code,
    and a short code to type. Revoked links stay, so history can still say which link did what."""

    hanchan = models.ForeignKey(
        Hanchan, on_delete=models.CASCADE, verbose_name=_("hanchan"), related_name="table_links"
    )
    token = models.CharField(_("token"), max_length=64, unique=True, default=new_token, editable=False)
    code = models.CharField(_("code"), max_length=12, default=new_code, db_index=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        verbose_name=_("created by"),
        related_name="+",
    )
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)
    # "Call the referee": a table flags its game as disputed; the organiser clears it.
    referee_called_at = models.DateTimeField(_("referee called at"), null=True, blank=True)
    referee_note = models.CharField(_("referee note"), max_length=200, blank=True)

    class Meta:
        verbose_name = _("table link")
        verbose_name_plural = _("table links")
        ordering = ["hanchan", "-created_at"]

    def __str__(self) -> str:
        return f"link of {self.hanchan}"

    @property
    def active(self) -> bool:
        return self.revoked_at is None


class SeatConfirmation(models.Model):
    """Under the "players confirm" setting: each seat's own code, and when that player confirmed."""

    link = models.ForeignKey(
        TableLink, on_delete=models.CASCADE, verbose_name=_("table link"), related_name="confirmations"
    )
    seat = models.PositiveSmallIntegerField(_("seat"), validators=[MaxValueValidator(3)])
    code = models.CharField(_("code"), max_length=12, default=new_code)
    confirmed_at = models.DateTimeField(_("confirmed at"), null=True, blank=True)

    class Meta:
        verbose_name = _("seat confirmation")
        verbose_name_plural = _("seat confirmations")
        ordering = ["link", "seat"]
        constraints = [models.UniqueConstraint(fields=["link", "seat"], name="unique_confirmation_seat")]

    def __str__(self) -> str:
        return f"seat {self.seat} of {self.link}"
