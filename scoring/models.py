"""What happened at the table (hands, wins, penalties) and what it is worth (cached results).

Models store the facts an organiser recorded plus values the engine derived from them. The derived
columns (a hand's round, dealer, honba, sticks, deltas and scores; per-seat rows; a game's results) are
rewritten by the services after every change by replaying the whole game, never edited on their own.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from league.models import Event, Hanchan, HistoryEntry, Player

# HistoryEntry moved to league (the audit trail is a base concern league's services write too); it is
# re-exported here so ``from scoring.models import HistoryEntry`` keeps working.
__all__ = ["Hand", "HandSeat", "HistoryEntry", "Penalty", "RatingChange", "SeatResult", "Win"]


class Hand(models.Model):
    """One hand of a hanchan as recorded: the outcome and the seats involved (0–3, first-hand order)."""

    class Result(models.TextChoices):
        RON = "ron", "Ron"
        TSUMO = "tsumo", "Tsumo"
        DRAW = "draw", "Exhaustive draw"
        ABORT = "abort", "Abortive draw"
        CHOMBO = "chombo", "Chombo"

    hanchan = models.ForeignKey(Hanchan, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveSmallIntegerField()
    result = models.CharField(max_length=8, choices=Result.choices)
    loser = models.PositiveSmallIntegerField(null=True, blank=True, help_text="The discarder, on a ron.")
    riichi = models.JSONField(default=list, blank=True, help_text="Seats whose riichi deposit was paid.")
    tenpai = models.JSONField(default=list, blank=True, help_text="Tenpai seats at an exhaustive draw.")
    nagashi = models.JSONField(default=list, blank=True, help_text="Seats paid a nagashi mangan.")
    chombo_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    abort_reason = models.CharField(max_length=20, blank=True)
    # Derived by the engine on every change:
    round_name = models.CharField(max_length=3, blank=True)
    dealer = models.PositiveSmallIntegerField(default=0)
    honba = models.PositiveSmallIntegerField(default=0)
    sticks = models.PositiveSmallIntegerField(default=0)
    deltas = models.JSONField(default=list, blank=True)
    scores = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["hanchan", "number"]
        constraints = [
            models.UniqueConstraint(fields=["hanchan", "number"], name="unique_hand_number"),
        ]

    def __str__(self) -> str:
        return f"hand {self.number} of {self.hanchan}"


class Win(models.Model):
    """One winner's claim in a hand: value as han/fu or a yakuman multiplier, and the liable seat."""

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="wins")
    winner = models.PositiveSmallIntegerField()
    han = models.PositiveSmallIntegerField(null=True, blank=True)
    fu = models.PositiveSmallIntegerField(null=True, blank=True)
    yakuman = models.PositiveSmallIntegerField(null=True, blank=True)
    pao = models.PositiveSmallIntegerField(null=True, blank=True)
    tiles = models.JSONField(null=True, blank=True, help_text="The hand as tiles, when entered that way.")
    yaku = models.JSONField(
        default=list, blank=True, help_text='[{"name": "riichi", "han": 1}, ...] when the yaku are known.'
    )
    # Dora counts when known (online logs, hands entered as tiles, the yaku picker); None: not recorded.
    dora = models.PositiveSmallIntegerField(null=True, blank=True)
    aka = models.PositiveSmallIntegerField(null=True, blank=True)
    ura = models.PositiveSmallIntegerField(null=True, blank=True)
    # Derived: the hand's value without honba or sticks (for statistics).
    points = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["hand", "id"]

    def __str__(self) -> str:
        return f"seat {self.winner} wins {self.hand}"


class HandSeat(models.Model):
    """Cached per hand and seat, so statistics are grouped queries: who played, won, dealt in, declared."""

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="seat_rows")
    hanchan = models.ForeignKey(Hanchan, on_delete=models.CASCADE, related_name="+")
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    delta = models.IntegerField(default=0)
    riichi = models.BooleanField(default=False)
    won = models.BooleanField(default=False)
    tsumo = models.BooleanField(default=False)
    dealt_in = models.BooleanField(default=False)
    at_draw = models.BooleanField(default=False)
    tenpai = models.BooleanField(default=False)
    chombo = models.BooleanField(default=False)
    win_points = models.PositiveIntegerField(default=0)
    deal_in_points = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["hand", "seat"], name="unique_hand_seat")]
        indexes = [models.Index(fields=["player"])]

    def __str__(self) -> str:
        return f"seat {self.seat} in {self.hand}"


class Penalty(models.Model):
    """A penalty after uma (negative points). Never deleted: cancelled with a reason instead."""

    class Kind(models.TextChoices):
        CHOMBO = "chombo", "Chombo"
        OTHER = "other", "Other"

    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="penalties")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="penalties")
    hanchan = models.ForeignKey(
        Hanchan, on_delete=models.PROTECT, null=True, blank=True, related_name="penalties"
    )
    round_number = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="The tournament round it was given in: standings after an earlier round leave it out.",
    )
    points = models.IntegerField(help_text="Negative: the points taken off the player's result.")
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.OTHER)
    reason = models.CharField(max_length=200)
    given_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    cancelled = models.BooleanField(default=False)
    cancelled_reason = models.CharField(max_length=200, blank=True)
    cancelled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    cancelled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name_plural = "penalties"
        constraints = [
            models.CheckConstraint(condition=models.Q(points__lt=0), name="penalty_points_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.points} ({self.reason})"


class SeatResult(models.Model):
    """Cached result of one seat of a finished hanchan; standings are grouped sums over these rows."""

    hanchan = models.ForeignKey(Hanchan, on_delete=models.CASCADE, related_name="results")
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="+")
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="results")
    score = models.IntegerField()
    place = models.PositiveSmallIntegerField()
    uma = models.IntegerField()
    oka = models.IntegerField()
    penalties = models.IntegerField()
    result = models.IntegerField()
    chombos = models.PositiveSmallIntegerField(default=0)
    finished_at = models.DateTimeField()

    class Meta:
        ordering = ["hanchan", "seat"]
        constraints = [models.UniqueConstraint(fields=["hanchan", "seat"], name="unique_seat_result")]
        indexes = [models.Index(fields=["event", "player"])]

    def __str__(self) -> str:
        return f"{self.player}: {self.result:+d} in {self.hanchan}"


class RatingChange(models.Model):
    """One player's rating before and after one finished game, per rating system and scope.

    ``event`` is the scope: an event's own rating, or the lifetime rating when it is empty. Rebuilt from
    the seat results whenever a finished game is corrected, voided or reopened.
    """

    class System(models.TextChoices):
        TENHOU = "tenhou", "Tenhou R"
        OPENSKILL = "openskill", "OpenSkill"

    system = models.CharField(max_length=10, choices=System.choices)
    event = models.ForeignKey(Event, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_changes")
    hanchan = models.ForeignKey(Hanchan, on_delete=models.CASCADE, related_name="rating_changes")
    games = models.PositiveIntegerField(help_text="Games rated in this scope, this one included.")
    before = models.FloatField()
    after = models.FloatField()
    mu = models.FloatField(null=True, blank=True)
    sigma = models.FloatField(null=True, blank=True)
    at = models.DateTimeField()

    class Meta:
        ordering = ["at", "hanchan_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["system", "event", "player", "hanchan"], name="unique_rating_change"
            ),
        ]
        indexes = [models.Index(fields=["system", "event", "player", "at"])]

    def __str__(self) -> str:
        return f"{self.player} {self.system}: {self.before:.1f} → {self.after:.1f}"
