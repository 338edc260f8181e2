"""What the rankings are computed from, and the merges of two records of one person.

- :class:`Tournament`: one tournament whose results count for the EMA-style ranking — a tournament held
  here (``event`` set: its rows are recomputed from the event's standings by the ``rankings`` task) or one
  held elsewhere whose EMA results file was imported (``event`` empty).
- :class:`TournamentResult`: one player's place in one of them, with the base rank it gives.
- :class:`RankingState`: what the stored rows were computed from (the tournaments' results versions) and
  the version the ranking pages are cached by.
- :class:`MergeRequest`: an organiser's request to merge two player records, the other club's answer,
  and what the merge moved (kept after the merged record is gone).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django_countries.fields import CountryField

from league.models import Club, Event, Player


class Tournament(models.Model):
    """A tournament counted in the ranking: held here (``event``) or imported from an EMA results file."""

    event = models.OneToOneField(
        Event,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="ranking_tournament",
        verbose_name=_("event"),
    )
    name = models.CharField(_("name"), max_length=160)
    city = models.CharField(_("city"), max_length=80, blank=True)
    country = CountryField(_("country"), blank=True)
    club = models.ForeignKey(
        Club,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="ranking_tournaments",
        verbose_name=_("club"),
        help_text=_("The club that held the tournament here, or that imported its results."),
    )
    start_date = models.DateField(_("start date"), null=True, blank=True)
    end_date = models.DateField(_("end date"))
    days = models.PositiveSmallIntegerField(_("days"), default=1)
    players = models.PositiveIntegerField(_("players"))
    countries = models.PositiveSmallIntegerField(_("countries"), default=1)
    qualification = models.BooleanField(_("qualification required"), default=False)
    mers = models.BooleanField(
        _("MERS tournament"),
        default=True,
        help_text=_("Only MERS tournaments count in the EMA ranking."),
    )
    weight = models.FloatField(_("MERS weight"))
    results_version = models.PositiveBigIntegerField(_("results version"), default=0, editable=False)
    imported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("imported by"),
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        ordering = ["-end_date", "name"]
        verbose_name = _("ranked tournament")
        verbose_name_plural = _("ranked tournaments")

    def __str__(self) -> str:
        return f"{self.name} ({self.end_date:%Y-%m-%d})"

    @property
    def imported(self) -> bool:
        return self.event_id is None


class TournamentResult(models.Model):
    """One player's place in one ranked tournament."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="results", verbose_name=_("tournament")
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="ranking_results", verbose_name=_("player")
    )
    place = models.PositiveIntegerField(_("place"))
    score = models.IntegerField(_("score"), null=True, blank=True)
    base_rank = models.PositiveSmallIntegerField(_("base rank"))

    class Meta:
        ordering = ["tournament", "place", "player"]
        verbose_name = _("tournament result")
        verbose_name_plural = _("tournament results")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="unique_ranking_result"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} #{self.place} @ {self.tournament_id}"


class RankingState(models.Model):
    """One row: the signature of the tournaments' results the stored rows were computed from, and the
    version the ranking pages are cached by (moved by every recomputation, import and merge)."""

    signature = models.CharField(max_length=200, blank=True, default="")
    version = models.PositiveBigIntegerField(default=0)
    computed_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"rankings v{self.version}"


class MergeRequest(models.Model):
    """Merge ``merged`` into ``kept``: asked by an organiser of one club, accepted by the other's.

    After the merge ``merged`` is gone; ``merged_snapshot`` keeps who it was (name, EMA number, club) and
    ``moved`` how many rows of each kind now point at ``kept``."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for the other club")
        DONE = "done", _("Merged")
        DECLINED = "declined", _("Declined")
        CANCELLED = "cancelled", _("Cancelled")

    kept = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="+", verbose_name=_("player kept")
    )
    merged = models.ForeignKey(
        Player,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("player merged"),
    )
    merged_snapshot = models.JSONField(_("merged player"), default=dict, blank=True)
    reason = models.CharField(_("reason"), max_length=300, blank=True)
    status = models.CharField(_("status"), max_length=12, choices=Status.choices, default=Status.PENDING)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    requested_at = models.DateTimeField(_("requested at"), default=timezone.now)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    moved = models.JSONField(_("rows moved"), default=dict, blank=True)

    class Meta:
        ordering = ["-requested_at", "-id"]
        verbose_name = _("merge request")
        verbose_name_plural = _("merge requests")

    def __str__(self) -> str:
        return f"merge {self.merged_id or self.merged_snapshot.get('display_name')} into {self.kept_id}"
