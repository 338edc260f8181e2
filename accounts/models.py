"""What the players' side keeps: the codes that let a player claim their profile, and a log of what
happened to the link between an account and a profile.

The link itself is ``league.models.Player.user`` (a one-to-one field that was already there): one place
says whose profile a player is, and the lower apps may read it (a table's slip leaves out the code of a
player whose code is on their phone) without importing this app.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from league.models import Player

# No 0/O, 1/I/L: a code is read on paper or a screen and typed on a phone.
CLAIM_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CLAIM_LENGTH = 10


def new_claim_code() -> str:
    return "".join(secrets.choice(CLAIM_ALPHABET) for _ in range(CLAIM_LENGTH))


class ClaimCode(models.Model):
    """A one-time code an organiser gives a player (on paper, by e-mail): typed on the player's page
    once logged in, it links their account to this profile. A new code replaces the player's unused
    one; a code expires after ``CLAIM_DAYS`` days."""

    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, verbose_name=_("player"), related_name="claim_codes"
    )
    code = models.CharField(_("code"), max_length=16, unique=True, default=new_claim_code)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        verbose_name=_("created by"),
        related_name="+",
    )
    used_at = models.DateTimeField(_("used at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("claim code")
        verbose_name_plural = _("claim codes")

    def __str__(self) -> str:
        return f"{self.player} ({self.code})"


class AccountEntry(models.Model):
    """One change of a profile's link or of what it shows: linked, claimed, unlinked, visibility,
    account closed. Kept when the account is closed (its user is then empty), so the organiser still
    reads who held the profile's link and when. The summary is a phrase (league.phrases), rendered in
    the reader's language."""

    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, verbose_name=_("player"), related_name="account_entries"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        verbose_name=_("by"),
        related_name="+",
    )
    action = models.CharField(_("action"), max_length=40)
    summary = models.CharField(_("summary"), max_length=300)
    summary_data = models.JSONField(_("summary (data)"), null=True, blank=True, editable=False)
    at = models.DateTimeField(_("at"), default=timezone.now)

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name = _("account entry")
        verbose_name_plural = _("account entries")

    def __str__(self) -> str:
        return f"{self.player}: {self.action}"
