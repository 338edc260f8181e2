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
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from league.models import Event, Hanchan, Registration

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


class FailedGuess(models.Model):
    """One wrong table token or code from an address: what the strict rate limit on guessing counts
    (``tournaments/guessing.py``). In the database, not in the page cache: the cache may count per
    process (local memory) or not at all (``dummy://``), and the limit must hold with every setting.
    Rows older than the limit's window are deleted as new ones come."""

    address = models.CharField(_("address"), max_length=64)
    at = models.DateTimeField(_("at"), default=timezone.now)

    class Meta:
        verbose_name = _("failed guess")
        verbose_name_plural = _("failed guesses")
        indexes = [
            models.Index(fields=["address", "at"], name="failed_guess_address_at"),
            models.Index(fields=["at"], name="failed_guess_at"),
        ]

    def __str__(self) -> str:
        return f"{self.address} at {self.at:%Y-%m-%d %H:%M:%S}"


# -- teams (tournaments/teams.py) ------------------------------------------------------------------------


class Team(models.Model):
    """A team of an event: a name and its members (players and substitutes, :class:`TeamMember`).

    Teammates never share a table where a schedule seats the event (``tournaments.services``), and the
    team standings add up their members' results (``tournaments.teams``).
    """

    event = models.ForeignKey(Event, on_delete=models.CASCADE, verbose_name=_("event"), related_name="teams")
    name = models.CharField(_("name"), max_length=80)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        ordering = ["event", "name"]
        constraints = [
            # "Red" and "red" are one team: a paste that writes the name both ways joins them.
            models.UniqueConstraint(models.F("event"), Lower("name"), name="unique_team_name_per_event"),
        ]

    def __str__(self) -> str:
        return self.name


class TeamMember(models.Model):
    """A registration in a team: a player (or a substitute) of the event belongs to at most one of its
    teams — the registration is unique, so the database itself keeps that rule. The captain is a member
    flagged as such (at most one per team), so a captain is always a member of their team."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, verbose_name=_("team"), related_name="members")
    registration = models.OneToOneField(
        Registration, on_delete=models.CASCADE, verbose_name=_("registration"), related_name="team_member"
    )
    is_captain = models.BooleanField(_("captain"), default=False)

    class Meta:
        verbose_name = _("team member")
        verbose_name_plural = _("team members")
        ordering = ["team", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["team"], condition=models.Q(is_captain=True), name="one_captain_per_team"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.registration_id} in {self.team}"


class TeamSettings(models.Model):
    """How an event's team standings count: the sum of the members' points, or in each round the
    results of the team's best ``best`` members only (so a team with a substitute more is no better
    off). An event without this row counts the sum."""

    class Counting(models.TextChoices):
        SUM = "sum", _("the sum of the members' points")
        BEST = "best", _("the best members' results in each round")

    event = models.OneToOneField(
        Event,
        on_delete=models.CASCADE,
        primary_key=True,
        verbose_name=_("event"),
        related_name="team_settings",
    )
    counting = models.CharField(
        _("team points"), max_length=8, choices=Counting.choices, default=Counting.SUM
    )
    best = models.PositiveSmallIntegerField(
        _("members counted per round"),
        default=3,
        validators=[MinValueValidator(1), MaxValueValidator(50)],
        help_text=_("With the best members' results: how many members count in each round."),
    )

    class Meta:
        verbose_name = _("team settings")
        verbose_name_plural = _("team settings")

    def __str__(self) -> str:
        return f"team settings of {self.event}"


# -- the team league (tournaments/team_league.py) ---------------------------------------------------------


class MatchDay(models.Model):
    """A match day of a team league: its tables are team slots (:class:`MatchSlot`), and each team sends
    one player to each of its slots for every hanchan played there (:class:`MatchGame`)."""

    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, verbose_name=_("event"), related_name="match_days"
    )
    number = models.PositiveSmallIntegerField(
        _("number"), validators=[MinValueValidator(1), MaxValueValidator(999)]
    )
    played_on = models.DateField(_("played on"))
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        verbose_name = _("match day")
        verbose_name_plural = _("match days")
        ordering = ["event", "number"]
        constraints = [models.UniqueConstraint(fields=["event", "number"], name="unique_match_day_number")]

    def __str__(self) -> str:
        return f"{self.event} match day {self.number}"


class MatchSlot(models.Model):
    """A team's seat at a table of a match day: the team fills it with one of its players each hanchan."""

    match_day = models.ForeignKey(
        MatchDay, on_delete=models.CASCADE, verbose_name=_("match day"), related_name="slots"
    )
    table = models.PositiveSmallIntegerField(_("table"), validators=[MinValueValidator(1)])
    seat = models.PositiveSmallIntegerField(_("seat"), validators=[MaxValueValidator(3)])
    team = models.ForeignKey(Team, on_delete=models.PROTECT, verbose_name=_("team"), related_name="slots")

    class Meta:
        verbose_name = _("match slot")
        verbose_name_plural = _("match slots")
        ordering = ["match_day", "table", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["match_day", "table", "seat"], name="unique_match_slot"),
            models.UniqueConstraint(
                fields=["match_day", "table", "team"], name="one_slot_per_team_and_table"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.team} at table {self.table} of {self.match_day}"


class MatchGame(models.Model):
    """A hanchan played at a table of a match day (its seats follow the table's team slots)."""

    hanchan = models.OneToOneField(
        Hanchan, on_delete=models.CASCADE, verbose_name=_("hanchan"), related_name="match_game"
    )
    match_day = models.ForeignKey(
        MatchDay, on_delete=models.PROTECT, verbose_name=_("match day"), related_name="games"
    )
    table = models.PositiveSmallIntegerField(_("table"), validators=[MinValueValidator(1)])

    class Meta:
        verbose_name = _("match game")
        verbose_name_plural = _("match games")
        ordering = ["match_day", "table", "hanchan"]

    def __str__(self) -> str:
        return f"{self.hanchan} at table {self.table} of {self.match_day}"


# -- stages, cuts and finals (tournaments/stages.py, tournaments/cuts.py) -----------------------------------


class Stage(models.Model):
    """A stage of an event: qualifying rounds, semifinals, a final. An event plays its stages in
    ``order``; a stage covers the rounds from ``first_round`` up to the round before the next stage's
    first (the last stage, every round from its first on), so an event that never adds a stage is one
    stage holding all its rounds, and its games need no stage column: the round number says the stage.

    Who plays a stage (``entrants``), what they bring from the stage before (``carry_over``) and how
    its tables are drawn (``seating``) are the organiser's choices; the players of a stage after the
    first are fixed when the stage before is closed (:class:`StageEntrant`)."""

    class Entrants(models.TextChoices):
        EVERYONE = "everyone", _("everyone")
        TOP = "top", _("the top players of the previous stage")
        LIST = "list", _("a list the organiser picks")

    class CarryOver(models.TextChoices):
        NONE = "none", _("none: everyone starts again at zero")
        ALL = "all", _("all the points of the previous stage")
        HALF = "half", _("half the points of the previous stage")
        BONUS = "bonus", _("a fixed bonus by place in the previous stage")

    class Seating(models.TextChoices):
        SCHEDULE = "schedule", _("the no-repeat schedule")
        SWISS = "swiss", _("Swiss: by the standings, avoiding repeated opponents")
        RANK = "rank", _("by rank: 1st–4th, 5th–8th, …")
        FINAL = "final", _("one final table")

    class Winds(models.TextChoices):
        DRAWN = "drawn", _("drawn")
        RANK = "rank", _("by rank: the best placed sits East")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, verbose_name=_("event"), related_name="stages")
    order = models.PositiveSmallIntegerField(
        _("order"), validators=[MinValueValidator(1), MaxValueValidator(20)]
    )
    name = models.CharField(
        _("name"), max_length=80, blank=True, help_text=_("Left empty, the stage is called “Stage 1”, …")
    )
    first_round = models.PositiveSmallIntegerField(
        _("first round"), default=1, validators=[MinValueValidator(1), MaxValueValidator(999)]
    )
    rounds = models.PositiveSmallIntegerField(
        _("rounds"), default=1, validators=[MinValueValidator(1), MaxValueValidator(99)]
    )
    entrants = models.CharField(
        _("players"), max_length=10, choices=Entrants.choices, default=Entrants.EVERYONE
    )
    cut_size = models.PositiveSmallIntegerField(
        _("players going through"),
        null=True,
        blank=True,
        validators=[MinValueValidator(4), MaxValueValidator(9996)],
        help_text=_("With the top players of the previous stage: how many go through (a multiple of 4)."),
    )
    carry_over = models.CharField(
        _("points carried over"), max_length=10, choices=CarryOver.choices, default=CarryOver.NONE
    )
    bonus = models.CharField(
        _("bonus by place"),
        max_length=200,
        blank=True,
        help_text=_(
            "With a fixed bonus: the points of the 1st, 2nd, … of the previous stage, separated by commas."
        ),
    )
    seating = models.CharField(_("seating"), max_length=10, choices=Seating.choices, default=Seating.SCHEDULE)
    winds = models.CharField(_("seat winds"), max_length=10, choices=Winds.choices, default=Winds.DRAWN)
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    standings_hidden_after_round = models.PositiveSmallIntegerField(
        _("hide standings after round"),
        null=True,
        blank=True,
        help_text=_(
            "For a reveal of this stage: the public standings stop at this round until you release the "
            "stage's standings."
        ),
    )
    standings_released_at = models.DateTimeField(
        _("standings released at"), null=True, blank=True, editable=False
    )

    class Meta:
        verbose_name = _("stage")
        verbose_name_plural = _("stages")
        ordering = ["event", "order"]
        constraints = [
            models.UniqueConstraint(fields=["event", "order"], name="unique_stage_order"),
            models.UniqueConstraint(fields=["event", "first_round"], name="unique_stage_first_round"),
        ]

    def __str__(self) -> str:
        return f"{self.event} stage {self.order}"

    @property
    def label(self) -> str:
        """The stage's name, or "Stage N" in the reader's language; a league's are its "Season" (the
        games before its play-off) and its "Play-off" (then "Play-off, stage 2", …). The event is read
        only when already loaded (no query)."""
        if self.name:
            return self.name
        if Stage.event.is_cached(self) and self.event.kind == Event.Kind.LEAGUE:
            if self.order == 1:
                return gettext("Season")
            if self.order == 2:
                return gettext("Play-off")
            return gettext("Play-off, stage %(order)s") % {"order": self.order - 1}
        return gettext("Stage %(order)s") % {"order": self.order}

    @property
    def last_round(self) -> int:
        """The last round the stage plans (later stages start after it)."""
        return self.first_round + self.rounds - 1


class StageEntrant(models.Model):
    """A player of a stage after the first, as the cut (or the organiser's list) put them in: ``seed``
    is their place going in (1 = best), ``replaces`` the player who dropped out before the cut and
    whose place they took, and ``note`` the reason that player gave (the history keeps it too, with the
    organiser's decision on a tie at the line)."""

    stage = models.ForeignKey(
        Stage, on_delete=models.CASCADE, verbose_name=_("stage"), related_name="entrants_in"
    )
    player = models.ForeignKey(
        "league.Player", on_delete=models.PROTECT, verbose_name=_("player"), related_name="stage_entries"
    )
    seed = models.PositiveSmallIntegerField(_("seed"), validators=[MinValueValidator(1)])
    replaces = models.ForeignKey(
        "league.Player",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        verbose_name=_("in place of"),
        related_name="+",
    )
    note = models.CharField(_("note"), max_length=200, blank=True)

    class Meta:
        verbose_name = _("stage player")
        verbose_name_plural = _("stage players")
        ordering = ["stage", "seed"]
        constraints = [models.UniqueConstraint(fields=["stage", "player"], name="unique_stage_player")]

    def __str__(self) -> str:
        return f"{self.player_id} in {self.stage}"
