"""What happened at the table (hands, wins, penalties) and what it is worth (cached results).

Models store the facts an organiser recorded plus values the engine derived from them. The derived
columns (a hand's round, dealer, honba, sticks, deltas and scores; per-seat rows; a game's results) are
rewritten by the services after every change by replaying the whole game, never edited on their own.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from league import phrases
from league.models import Event, Hanchan, HistoryEntry, Player

# HistoryEntry moved to league (the audit trail is a base concern league's services write too); it is
# re-exported here so ``from scoring.models import HistoryEntry`` keeps working.
__all__ = ["Hand", "HandSeat", "HistoryEntry", "Penalty", "RatingChange", "SeatResult", "Win"]


class Hand(models.Model):
    """One hand of a hanchan as recorded: the outcome and the seats involved (0–3, first-hand order)."""

    class Result(models.TextChoices):
        RON = "ron", pgettext_lazy("hand outcome", "Ron")
        TSUMO = "tsumo", pgettext_lazy("hand outcome", "Tsumo")
        DRAW = "draw", pgettext_lazy("hand outcome", "Exhaustive draw")
        ABORT = "abort", pgettext_lazy("hand outcome", "Abortive draw")
        CHOMBO = "chombo", pgettext_lazy("hand outcome", "Chombo")

    # No index of its own: the unique (hanchan, number) index serves every lookup by game.
    hanchan = models.ForeignKey(
        Hanchan, on_delete=models.CASCADE, related_name="hands", verbose_name=_("game"), db_index=False
    )
    number = models.PositiveSmallIntegerField(_("number"))
    result = models.CharField(_("result"), max_length=8, choices=Result.choices)
    loser = models.PositiveSmallIntegerField(
        _("discarder"), null=True, blank=True, help_text=_("The discarder, on a ron.")
    )
    riichi = models.JSONField(
        _("riichi deposits"), default=list, blank=True, help_text=_("Seats whose riichi deposit was paid.")
    )
    tenpai = models.JSONField(
        _("tenpai"), default=list, blank=True, help_text=_("Tenpai seats at an exhaustive draw.")
    )
    nagashi = models.JSONField(
        _("nagashi mangan"), default=list, blank=True, help_text=_("Seats paid a nagashi mangan.")
    )
    chombo_seat = models.PositiveSmallIntegerField(_("chombo seat"), null=True, blank=True)
    abort_reason = models.CharField(_("abortive draw reason"), max_length=20, blank=True)
    # Derived by the engine on every change:
    round_name = models.CharField(pgettext_lazy("of a game", "round"), max_length=3, blank=True)
    dealer = models.PositiveSmallIntegerField(_("dealer"), default=0)
    honba = models.PositiveSmallIntegerField(_("honba"), default=0)
    sticks = models.PositiveSmallIntegerField(_("riichi sticks"), default=0)
    deltas = models.JSONField(_("score changes"), default=list, blank=True)
    scores = models.JSONField(_("scores"), default=list, blank=True)
    # The random key of the entry form that sent this hand (empty for hands entered otherwise): the same
    # form sent again is recognised by it (``scoring.services.hands.saved_hand``).
    entry_key = models.CharField(_("entry key"), max_length=40, blank=True, default="", editable=False)

    class Meta:
        verbose_name = _("hand")
        verbose_name_plural = _("hands")
        ordering = ["hanchan", "number"]
        constraints = [
            models.UniqueConstraint(fields=["hanchan", "number"], name="unique_hand_number"),
            models.UniqueConstraint(
                fields=["hanchan", "entry_key"],
                condition=~models.Q(entry_key=""),
                name="unique_hand_entry_key",
            ),
        ]

    def __str__(self) -> str:
        return gettext("hand %(number)s of %(game)s") % {"number": self.number, "game": self.hanchan}


class Win(models.Model):
    """One winner's claim in a hand: value as han/fu or a yakuman multiplier, and the liable seat."""

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="wins", verbose_name=_("hand"))
    winner = models.PositiveSmallIntegerField(_("winner"))
    han = models.PositiveSmallIntegerField(_("han"), null=True, blank=True)
    fu = models.PositiveSmallIntegerField(_("fu"), null=True, blank=True)
    yakuman = models.PositiveSmallIntegerField(_("yakuman"), null=True, blank=True)
    pao = models.PositiveSmallIntegerField(_("pao"), null=True, blank=True)
    tiles = models.JSONField(
        _("tiles"), null=True, blank=True, help_text=_("The hand as tiles, when entered that way.")
    )
    yaku = models.JSONField(
        _("yaku"),
        default=list,
        blank=True,
        help_text=_('[{"name": "riichi", "han": 1}, ...] when the yaku are known.'),
    )
    # Dora counts when known (online logs, hands entered as tiles, the yaku picker); None: not recorded.
    dora = models.PositiveSmallIntegerField(_("dora"), null=True, blank=True)
    aka = models.PositiveSmallIntegerField(_("red fives"), null=True, blank=True)
    ura = models.PositiveSmallIntegerField(_("ura dora"), null=True, blank=True)
    # Derived: the hand's value without honba or sticks (for statistics).
    points = models.PositiveIntegerField(_("points"), default=0)

    class Meta:
        verbose_name = _("win")
        verbose_name_plural = _("wins")
        ordering = ["hand", "id"]

    def __str__(self) -> str:
        return gettext("seat %(seat)s wins %(hand)s") % {"seat": self.winner, "hand": self.hand}


class HandSeat(models.Model):
    """Cached per hand and seat, so statistics are grouped queries: who played, won, dealt in, declared."""

    # Each index costs every rewritten row (a rebuild inserts four per hand): the unique (hand, seat)
    # index serves lookups by hand, the player's foreign key index the statistics.
    hand = models.ForeignKey(
        Hand, on_delete=models.CASCADE, related_name="seat_rows", verbose_name=_("hand"), db_index=False
    )
    # Copies for the statistics' filters, checked by no database constraint: the hand's key is the one
    # that keeps a row from outliving what it was derived from, the game is the hand's own, and the
    # player is the seat's credited player (sync writes both from the seats; Django's deletion still
    # cascades and protects). On PostgreSQL each constraint is a check per row at commit: on a rebuild
    # that rewrites a league's 941 100 rows, the two were 11 of its 63 seconds.
    hanchan = models.ForeignKey(
        Hanchan, on_delete=models.CASCADE, related_name="+", verbose_name=_("game"), db_constraint=False
    )
    seat = models.PositiveSmallIntegerField(_("seat"))
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("player"), db_constraint=False
    )
    delta = models.IntegerField(_("score change"), default=0)
    riichi = models.BooleanField(_("riichi"), default=False)
    won = models.BooleanField(_("won"), default=False)
    tsumo = models.BooleanField(_("tsumo"), default=False)
    dealt_in = models.BooleanField(_("dealt in"), default=False)
    at_draw = models.BooleanField(_("at an exhaustive draw"), default=False)
    tenpai = models.BooleanField(_("tenpai"), default=False)
    chombo = models.BooleanField(_("chombo"), default=False)
    win_points = models.PositiveIntegerField(_("win points"), default=0)
    deal_in_points = models.PositiveIntegerField(_("deal-in points"), default=0)

    class Meta:
        verbose_name = _("hand seat")
        verbose_name_plural = _("hand seats")
        constraints = [models.UniqueConstraint(fields=["hand", "seat"], name="unique_hand_seat")]

    def __str__(self) -> str:
        return gettext("seat %(seat)s in %(hand)s") % {"seat": self.seat, "hand": self.hand}


class Penalty(models.Model):
    """A penalty after uma (negative points). Never deleted: cancelled with a reason instead."""

    class Kind(models.TextChoices):
        CHOMBO = "chombo", pgettext_lazy("penalty kind", "Chombo")
        OTHER = "other", pgettext_lazy("penalty kind", "Other")

    event = models.ForeignKey(
        Event, on_delete=models.PROTECT, related_name="penalties", verbose_name=_("event")
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="penalties", verbose_name=_("player")
    )
    hanchan = models.ForeignKey(
        Hanchan,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="penalties",
        verbose_name=_("game"),
    )
    round_number = models.PositiveSmallIntegerField(
        pgettext_lazy("of a tournament", "round"),
        null=True,
        blank=True,
        help_text=_("The tournament round it was given in: standings after an earlier round leave it out."),
    )
    points = models.IntegerField(
        _("points"), help_text=_("Negative: the points taken off the player's result.")
    )
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices, default=Kind.OTHER)
    reason = models.CharField(_("reason"), max_length=200)
    given_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("given by"),
    )
    created_at = models.DateTimeField(_("given at"), default=timezone.now)
    cancelled = models.BooleanField(_("cancelled"), default=False)
    cancelled_reason = models.CharField(_("reason for cancelling"), max_length=200, blank=True)
    cancelled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("cancelled by"),
    )
    cancelled_at = models.DateTimeField(_("cancelled at"), null=True, blank=True)
    # The reasons code gives (a chombo entered with the final scores, one cancelled by correcting them),
    # as data (``league/phrases.py``): shown in the reader's language, ``reason`` and
    # ``cancelled_reason`` holding their English rendering. None: the reason is as the organiser typed it.
    reason_data = models.JSONField(_("reason (data)"), null=True, blank=True, editable=False)
    cancelled_reason_data = models.JSONField(
        _("reason for cancelling (data)"), null=True, blank=True, editable=False
    )

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("penalty")
        verbose_name_plural = _("penalties")
        constraints = [
            models.CheckConstraint(condition=models.Q(points__lt=0), name="penalty_points_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.points} ({self.reason})"

    @property
    def reason_text(self) -> str:
        """Why it was given, in the reader's language when code gave it (as typed otherwise)."""
        return phrases.render(self.reason_data) if self.reason_data else self.reason

    @property
    def cancelled_reason_text(self) -> str:
        """Why it was cancelled, in the reader's language when code cancelled it (as typed otherwise)."""
        return (
            phrases.render(self.cancelled_reason_data)
            if self.cancelled_reason_data
            else self.cancelled_reason
        )


class SeatResult(models.Model):
    """Cached result of one seat of a finished hanchan; standings are grouped sums over these rows."""

    # Lookups by game use the unique (hanchan, seat) index, by event the (event, player) one.
    hanchan = models.ForeignKey(
        Hanchan, on_delete=models.CASCADE, related_name="results", verbose_name=_("game"), db_index=False
    )
    # Copies, as on HandSeat: the game's event and the seat's credited player, written by sync from
    # them and checked by no database constraint (the game's key is the one that ties a result to what
    # it was derived from; Django's deletion still cascades and protects). Each constraint is a check
    # per row at commit on PostgreSQL: a rebuild of a league writes 80 000 rows.
    event = models.ForeignKey(
        Event,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("event"),
        db_index=False,
        db_constraint=False,
    )
    seat = models.PositiveSmallIntegerField(_("seat"))
    player = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        related_name="results",
        verbose_name=_("player"),
        db_constraint=False,
    )
    score = models.IntegerField(_("score"))
    place = models.PositiveSmallIntegerField(_("place"))
    uma = models.IntegerField(_("uma"))
    oka = models.IntegerField(_("oka"))
    penalties = models.IntegerField(_("penalties"))
    result = models.IntegerField(_("result"))
    chombos = models.PositiveSmallIntegerField(_("chombos"), default=0)
    finished_at = models.DateTimeField(_("finished at"))

    class Meta:
        verbose_name = _("seat result")
        verbose_name_plural = _("seat results")
        ordering = ["hanchan", "seat"]
        constraints = [models.UniqueConstraint(fields=["hanchan", "seat"], name="unique_seat_result")]
        indexes = [models.Index(fields=["event", "player"])]

    def __str__(self) -> str:
        return gettext("%(player)s: %(result)s in %(game)s") % {
            "player": self.player,
            "result": f"{self.result:+d}",
            "game": self.hanchan,
        }


class RatingChange(models.Model):
    """One player's rating before and after one finished game, per rating system and scope.

    ``event`` is the scope: an event's own rating, or the lifetime rating when it is empty. Rebuilt from
    the seat results whenever a finished game is corrected, voided or reopened.
    """

    class System(models.TextChoices):
        TENHOU = "tenhou", _("Tenhou R")
        OPENSKILL = "openskill", _("OpenSkill")

    system = models.CharField(_("rating system"), max_length=10, choices=System.choices)
    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, null=True, blank=True, related_name="+", verbose_name=_("event")
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="rating_changes", verbose_name=_("player")
    )
    hanchan = models.ForeignKey(
        Hanchan, on_delete=models.CASCADE, related_name="rating_changes", verbose_name=_("game")
    )
    games = models.PositiveIntegerField(
        _("games"), help_text=_("Games rated in this scope, this one included.")
    )
    before = models.FloatField(_("before"))
    after = models.FloatField(_("after"))
    mu = models.FloatField(_("mu"), null=True, blank=True)
    sigma = models.FloatField(_("sigma"), null=True, blank=True)
    at = models.DateTimeField(_("at"))

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        ordering = ["at", "hanchan_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["system", "event", "player", "hanchan"], name="unique_rating_change"
            ),
        ]
        indexes = [models.Index(fields=["system", "event", "player", "at"])]

    def __str__(self) -> str:
        return f"{self.player} {self.system}: {self.before:.1f} → {self.after:.1f}"


class ImportJob(models.Model):
    """Logs of the "Import online games" page being read by a background worker: every replay link (a
    fetch from tenhou.net may take seconds) and the files too large to read in the request.

    The worker (``scoring.import_jobs.run``) reads the sources in order and commits its progress after
    each one (``done``, the games read, the errors), so the page that polls it shows "3 of 12" and a
    worker killed on the way goes on from where it stopped. The organiser's language is kept to write
    the errors in it. Finished jobs are read once into the organiser's import, then deleted."""

    class Status(models.TextChoices):
        QUEUED = "queued", pgettext_lazy("import job", "queued")
        RUNNING = "running", pgettext_lazy("import job", "running")
        DONE = "done", pgettext_lazy("import job", "done")

    id = models.UUIDField(primary_key=True)
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="+", verbose_name=_("event"))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    updated_at = models.DateTimeField(_("updated"), default=timezone.now)
    language = models.CharField(max_length=16, default="en")
    status = models.CharField(_("status"), max_length=8, choices=Status.choices, default=Status.QUEUED)
    sources = models.JSONField(default=list)  # {"url": …} or {"label", "name", "data" (base64)}, in order
    done = models.PositiveIntegerField(default=0)
    games = models.JSONField(default=list)  # [label, record dict] pairs, as the import's batch keeps them
    errors = models.JSONField(default=list)

    class Meta:
        verbose_name = _("import job")
        verbose_name_plural = _("import jobs")

    def __str__(self) -> str:
        return f"{self.event} {self.done}/{len(self.sources)} ({self.status})"

    @property
    def total(self) -> int:
        return len(self.sources)
