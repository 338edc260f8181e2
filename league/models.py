"""Who and when: clubs, players, events with their effective ruleset, registrations and hanchans.

What happened at the table and what it is worth lives in ``scoring``; this app imports only
``scoring.engine`` (to validate and read a ruleset).
"""

from __future__ import annotations

import re

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _
from django_countries.fields import CountryField

from scoring.engine import EngineError, Ruleset, ruleset_from_spec

from . import phrases
from .countries import EMA_PREFIXES
from .engine_text import WIND_WORDS, engine_message

ema_number_validator = RegexValidator(
    r"^\d{8}$", _("An EMA number is 8 digits, leading zeros included (e.g. 04390002).")
)


def validate_ema_prefix(value: str) -> None:
    """The first two digits of an EMA number name a member country (docs/rules.md §9.1)."""
    known = set(EMA_PREFIXES) | set(getattr(settings, "TENBOU_EXTRA_EMA_PREFIXES", ()))
    if value and value[:2] not in known:
        raise ValidationError(
            _("EMA number %(value)s: the first two digits must be an EMA member country code."),
            params={"value": value},
            code="ema_prefix",
        )


class Club(models.Model):
    """A club: it runs leagues and tournaments, and its organisers manage them."""

    name = models.CharField(_("name"), max_length=120, unique=True)
    slug = models.SlugField(_("slug"), max_length=60, unique=True)
    city = models.CharField(_("city"), max_length=80, blank=True)
    country = CountryField(_("country"), blank=True)
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, verbose_name=_("organisers"), related_name="organised_clubs", blank=True
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    """A person who plays. The EMA number is optional (a tournament may have non-EMA players)."""

    class Visibility(models.TextChoices):
        PUBLIC = "public", pgettext_lazy("player page", "Public")
        MEMBERS = "members", _("Members only: the public sees the display name in standings, nothing more")

    display_name = models.CharField(_("display name"), max_length=80)
    given_name = models.CharField(_("given name"), max_length=80, blank=True)
    family_name = models.CharField(_("family name"), max_length=80, blank=True)
    ema_number = models.CharField(
        _("EMA number"),
        max_length=8,
        unique=True,
        null=True,
        blank=True,
        validators=[ema_number_validator, validate_ema_prefix],
    )
    country = CountryField(_("country"), blank=True)
    club = models.ForeignKey(
        Club,
        on_delete=models.PROTECT,
        verbose_name=_("club"),
        related_name="players",
        null=True,
        blank=True,
    )
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        verbose_name=_("user"),
        null=True,
        blank=True,
        related_name="player",
    )
    # Whether anyone may see the player's page (name, club, country, EMA number, results), or only
    # logged-in members: the player's and their club's decision, never an event's — another club that
    # registers a members-only player in its public event shows their display name there, nothing more
    # (league.permissions.require_visible_player).
    visibility = models.CharField(
        _("page visibility"),
        max_length=10,
        choices=Visibility.choices,
        default=Visibility.PUBLIC,
        help_text=_(
            "Who may see the player's page. A members-only player stays members-only in every event, "
            "another club's public ones included."
        ),
    )
    # What the player's page shows beyond their display name and results, field by field: the player's
    # own choice on their page (accounts.services.set_privacy). Whoever may read the page sees a field
    # left public; the player and the organisers of their club and events always see every field
    # (league.permissions.shown_fields). All public by default: the page as it always was.
    public_full_name = models.BooleanField(_("full name public"), default=True)
    public_club = models.BooleanField(_("club public"), default=True)
    public_country = models.BooleanField(_("country public"), default=True)
    public_ema_number = models.BooleanField(_("EMA number public"), default=True)
    public_statistics = models.BooleanField(_("statistics and charts public"), default=True)
    public_ratings = models.BooleanField(_("ratings public"), default=True)
    # Online names, so that imported Tenhou and Mahjong Soul logs find their players.
    tenhou_name = models.CharField(_("Tenhou name"), max_length=40, blank=True)
    mahjongsoul_name = models.CharField(_("Mahjong Soul nickname"), max_length=40, blank=True)
    mahjongsoul_id = models.CharField(_("Mahjong Soul friend ID"), max_length=20, blank=True)
    # Bumped in the same transaction as every change of this player's results: the cache key of the pages
    # that show them (a cached page is never stale, and nothing waits for a timer).
    results_version = models.PositiveBigIntegerField(_("results version"), default=0, editable=False)
    # Moved with it by every change other than results (a registration, a visibility, a reveal): the part
    # of a page's key that a stale page may never cross (league/versions.py, league/wholepage.py).
    shown_version = models.PositiveBigIntegerField(_("shown version"), default=0, editable=False)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        ordering = ["display_name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.UniqueConstraint(fields=["club", "display_name"], name="unique_player_name_per_club"),
        ]

    def __str__(self) -> str:
        return self.display_name

    def get_absolute_url(self) -> str:
        return reverse("scoring:player", args=[self.pk])

    def clean(self) -> None:
        if self.ema_number == "":
            self.ema_number = None


class Event(models.Model):
    """A club league (a season) or a tournament, with the effective ruleset it is played under."""

    class Kind(models.TextChoices):
        LEAGUE = "league", _("Club league")
        TOURNAMENT = "tournament", _("Tournament")

    class Visibility(models.TextChoices):
        PUBLIC = "public", _("Public")
        MEMBERS = "members", _("Members only (login needed)")

    class TieBreak(models.TextChoices):
        POINTS_PLACEMENT_GAMES = "points,placement,games", _("Points, then average placement, then games")
        POINTS_GAMES_PLACEMENT = "points,games,placement", _("Points, then games, then average placement")
        POINTS_PLACEMENT = "points,placement", _("Points, then average placement")

    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices, default=Kind.LEAGUE)
    club = models.ForeignKey(Club, on_delete=models.PROTECT, verbose_name=_("club"), related_name="events")
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    start_date = models.DateField(_("start date"), null=True, blank=True)
    end_date = models.DateField(_("end date"), null=True, blank=True)
    city = models.CharField(_("city"), max_length=80, blank=True)
    country = CountryField(_("country"), blank=True)
    ruleset = models.JSONField(
        _("ruleset"),
        help_text=_(
            "The effective settings (a preset with overrides applied), stored in full so that a "
            "later change to a preset never rewrites this event's results."
        ),
    )
    visibility = models.CharField(
        _("visibility"), max_length=10, choices=Visibility.choices, default=Visibility.PUBLIC
    )
    min_games = models.PositiveIntegerField(
        _("min games"),
        default=0,
        help_text=_("Games a player needs to be ranked in the standings (0: everyone is ranked)."),
    )
    tie_break = models.CharField(
        _("tie break"), max_length=40, choices=TieBreak.choices, default=TieBreak.POINTS_PLACEMENT_GAMES
    )

    playoff_first_round = models.PositiveSmallIntegerField(
        _("play-off from round"),
        null=True,
        blank=True,
        editable=False,
        help_text=_(
            "A league with a play-off: its first round. The season's standings count the games before it "
            "(or without a round number); the play-off's stages count the rest (tournaments/stages.py)."
        ),
    )

    class SubstituteCredit(models.TextChoices):
        REGISTERED = "registered", _("The registered player gets the substitute's result")
        FIXED = "fixed", _("The registered player gets a fixed result")

    substitute_credit = models.CharField(
        _("substitute credit"),
        max_length=12,
        choices=SubstituteCredit.choices,
        default=SubstituteCredit.REGISTERED,
        help_text=_("How a game played by a substitute counts for the registered player it replaces."),
    )
    substitute_fixed_result = models.IntegerField(
        _("substitute fixed result"),
        default=0,
        help_text=_("The result credited to a replaced player when substitutes earn a fixed result."),
    )
    seating_seed = models.PositiveIntegerField(
        _("seating seed"), default=1, help_text=_("Seed of the generated seating.")
    )
    ema_days = models.PositiveSmallIntegerField(_("days (MERS)"), default=1)
    ema_qualification = models.BooleanField(_("qualification required (MERS)"), default=False)

    # -- tournament day ------------------------------------------------------------------------------
    class Confirmation(models.TextChoices):
        NONE = "none", _("none: a table's game counts when the table finishes it")
        ORGANISER = "organiser", _("the organiser confirms each game a table enters")
        PLAYERS = "players", _("all four players confirm with their own codes")

    round_minutes = models.PositiveSmallIntegerField(
        _("round length (minutes)"), default=90, validators=[MinValueValidator(1), MaxValueValidator(600)]
    )
    table_entry = models.BooleanField(
        _("tables enter their own games"),
        default=True,
        help_text=_("Each table gets a link and a QR code on its score slip while its round is open."),
    )
    table_entry_mode = models.CharField(
        _("tables enter"),
        max_length=12,
        choices=[("hands", _("hand by hand")), ("final", _("final scores"))],
        default="hands",
    )
    confirmation = models.CharField(
        _("confirmation of tables' games"),
        max_length=12,
        choices=Confirmation.choices,
        default=Confirmation.NONE,
    )
    standings_hidden_after_round = models.PositiveSmallIntegerField(
        _("hide standings after round"),
        null=True,
        blank=True,
        help_text=_("For a final reveal: the public standings stop at this round until you release them."),
    )
    standings_released_at = models.DateTimeField(
        _("standings released at"), null=True, blank=True, editable=False
    )
    stage_hidden_after_round = models.PositiveSmallIntegerField(
        _("a stage hides the standings after round"),
        null=True,
        blank=True,
        editable=False,
        help_text=_(
            "Kept by the stages' own hidden standings (tournaments.reveal): the earliest round after which a "
            "stage not yet released hides its rounds."
        ),
    )

    # -- online events -------------------------------------------------------------------------------
    class Online(models.TextChoices):
        NONE = "", _("played at the table")
        TENHOU = "tenhou", _("Tenhou")
        MAHJONGSOUL = "mahjongsoul", _("Mahjong Soul")

    online = models.CharField(
        _("played online"), max_length=12, choices=Online.choices, blank=True, default=""
    )
    online_lobby = models.CharField(
        _("lobby or contest id"),
        max_length=40,
        blank=True,
        help_text=_("The Tenhou lobby or Mahjong Soul contest id."),
    )

    # Bumped in the same transaction as every change of this event's results: the cache key of its pages.
    results_version = models.PositiveBigIntegerField(_("results version"), default=0, editable=False)
    # Moved with it by every change other than results (see Player.shown_version).
    shown_version = models.PositiveBigIntegerField(_("shown version"), default=0, editable=False)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        ordering = ["-start_date", "name"]
        verbose_name = _("event")
        verbose_name_plural = _("events")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("scoring:event", args=[self.slug])

    @property
    def rules(self) -> Ruleset:
        """The engine's ruleset for this event (cached on the instance)."""
        cached = getattr(self, "_rules", None)
        if cached is None:
            cached = ruleset_from_spec(self.ruleset)
            self._rules = cached
        return cached

    def clean(self) -> None:
        try:
            rules = ruleset_from_spec(self.ruleset)
        except EngineError as exc:
            raise ValidationError({"ruleset": engine_message(exc)}) from None
        self.ruleset = rules.to_dict()
        if self.start_date and self.end_date and self.end_date < self.start_date:
            raise ValidationError({"end_date": _("The event cannot end before it starts.")})


class Registration(models.Model):
    """A player taking part in an event; a substitute plays seats on behalf of registered players."""

    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, verbose_name=_("event"), related_name="registrations"
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, verbose_name=_("player"), related_name="registrations"
    )
    is_substitute = models.BooleanField(_("is substitute"), default=False)
    dropped_out = models.BooleanField(_("dropped out"), default=False)
    withdrawn_at = models.DateTimeField(
        _("withdrawn at"),
        null=True,
        blank=True,
        help_text=_(
            "Set when the registration is withdrawn: the games already played stay and count, but no "
            "new game or seating includes the player."
        ),
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        ordering = ["player__display_name"]
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="unique_registration"),
        ]

    def __str__(self) -> str:
        return gettext("%(player)s in %(event)s") % {"player": self.player, "event": self.event}


class Hanchan(models.Model):
    """One game of four players. Seats are East, South, West, North of the first hand (0–3)."""

    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress", _("In progress")
        FINISHED = "finished", _("Finished")
        VOID = "void", _("Void")

    class EntryMode(models.TextChoices):
        HANDS = "hands", _("Hand by hand")
        FINAL_SCORES = "final_scores", _("Final scores")

    event = models.ForeignKey(
        Event, on_delete=models.PROTECT, verbose_name=_("event"), related_name="hanchans"
    )
    round_number = models.PositiveSmallIntegerField(_("round number"), null=True, blank=True)
    table_number = models.PositiveSmallIntegerField(_("table number"), null=True, blank=True)
    status = models.CharField(_("status"), max_length=12, choices=Status.choices, default=Status.IN_PROGRESS)
    entry_mode = models.CharField(
        _("entry mode"), max_length=12, choices=EntryMode.choices, default=EntryMode.HANDS
    )
    version = models.PositiveIntegerField(
        _("version"),
        default=0,
        help_text=_("Bumped by every change, so that two organisers never overwrite each other."),
    )
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        verbose_name=_("entered by"),
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    played_on = models.DateField(
        _("played on"),
        default=timezone.localdate,
        help_text=_("When the game was played: the game lists and the standings' date filters use it."),
    )
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    # A table that entered its own game handed it in at this time; under the event's confirmation
    # setting it stays in progress (and out of the standings) until confirmed.
    submitted_at = models.DateTimeField(_("submitted at"), null=True, blank=True)
    # The online log this game was imported from (Tenhou or Mahjong Soul log id): imported once per event.
    source_log_id = models.CharField(_("source log id"), max_length=80, blank=True, default="")
    final_sticks = models.PositiveSmallIntegerField(
        _("final sticks"),
        default=0,
        help_text=_("Riichi sticks left on the table at the end (final-score entry)."),
    )
    # The random key of the final-scores form that last saved the scores: the same form sent again (a
    # double tap, a resent page) is answered as saved (``scoring.services.record_final_scores``).
    scores_key = models.CharField(
        _("scores entry key"), max_length=40, blank=True, default="", editable=False
    )

    class Meta:
        ordering = ["-played_on", "-created_at"]
        verbose_name = _("hanchan")
        verbose_name_plural = _("hanchans")
        indexes = [
            # (event, status) lookups, and an event's latest finished games read in index order (the
            # event page's list) instead of sorting all its games.
            models.Index(
                fields=["event", "status", "played_on", "finished_at", "id"],
                name="hanchan_event_status_latest",
            ),
            models.Index(fields=["event", "played_on"]),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "source_log_id"],
                condition=~models.Q(source_log_id=""),
                name="unique_source_log_per_event",
            )
        ]

    def __str__(self) -> str:
        if self.round_number:
            return gettext("%(event)s round %(round)s table %(table)s #%(id)s") % {
                "event": self.event,
                "round": self.round_number,
                "table": self.table_number,
                "id": self.pk,
            }
        return gettext("%(event)s #%(id)s") % {"event": self.event, "id": self.pk}

    def get_absolute_url(self) -> str:
        return reverse("scoring:game", args=[self.pk])


class Seat(models.Model):
    """Who sat in a seat of a hanchan; ``on_behalf_of`` is the registered player a substitute replaces."""

    hanchan = models.ForeignKey(
        Hanchan, on_delete=models.CASCADE, verbose_name=_("hanchan"), related_name="seats"
    )
    seat = models.PositiveSmallIntegerField(
        _("seat"),
        choices=list(enumerate(WIND_WORDS)),
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, verbose_name=_("player"), related_name="seats"
    )
    on_behalf_of = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        verbose_name=_("on behalf of"),
        null=True,
        blank=True,
        related_name="substituted_seats",
    )
    final_score = models.IntegerField(
        _("final score"),
        null=True,
        blank=True,
        help_text=_("The final score, for games entered as final scores."),
    )

    class Meta:
        ordering = ["hanchan", "seat"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["hanchan", "seat"], name="unique_seat"),
            models.UniqueConstraint(fields=["hanchan", "player"], name="unique_player_per_hanchan"),
        ]

    def __str__(self) -> str:
        return f"{self.get_seat_display()}: {self.player}"

    @property
    def credited_player(self) -> Player:
        """Whose standings this seat counts for: the registered player a substitute stands in for."""
        return self.on_behalf_of or self.player


class HistoryEntry(models.Model):
    """One change to an event, its players or one of its games: who, when, what (old → new) and why.

    The audit trail is "who did what when", a concern of every app, so the model lives here at the base
    of the dependency graph: league's services write it as scoring's do (scoring may import league, never
    the other way). The table keeps the name it was created with in scoring.
    """

    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, verbose_name=_("event"), related_name="history"
    )
    hanchan = models.ForeignKey(
        Hanchan,
        on_delete=models.CASCADE,
        verbose_name=_("hanchan"),
        null=True,
        blank=True,
        related_name="history",
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        verbose_name=_("user"),
        null=True,
        blank=True,
        related_name="+",
    )
    action = models.CharField(_("action"), max_length=40)
    summary = models.CharField(_("summary"), max_length=300)
    reason = models.CharField(_("reason"), max_length=300, blank=True)
    # What code wrote as summary or reason, as data (``league/phrases.py``): shown in the reader's
    # language; ``summary`` and ``reason`` then hold its English rendering. None: the text is as typed.
    summary_data = models.JSONField(_("summary (data)"), null=True, blank=True, editable=False)
    reason_data = models.JSONField(_("reason (data)"), null=True, blank=True, editable=False)
    before = models.JSONField(_("before"), null=True, blank=True)
    after = models.JSONField(_("after"), null=True, blank=True)
    at = models.DateTimeField(_("at"), default=timezone.now)
    # A change made without an account, through a table's entry link: "table 5 (link)", and from where.
    via = models.CharField(_("via"), max_length=60, blank=True)
    ip = models.GenericIPAddressField(_("IP address"), null=True, blank=True)

    class Meta:
        db_table = "scoring_historyentry"
        ordering = ["-at", "-id"]
        verbose_name = _("history entry")
        verbose_name_plural = _("history entries")

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action}: {self.summary}"

    @property
    def via_label(self) -> str:
        """Where the change came from, in the reader's language: ``via`` is stored as data in English
        ("table 5 (link)", written by tournaments.links), so a page translates the forms it knows."""
        found = _VIA_TABLE.match(self.via or "")
        if found:
            return gettext("table %(table)s (link)") % {"table": found.group(1)}
        found = _VIA_API_KEY.match(self.via or "")
        if found:  # written by api.keys
            return gettext("API key '%(name)s'") % {"name": found.group(1)}
        return self.via

    @property
    def summary_text(self) -> str:
        """The summary in the reader's language (written by code: rendered from its data)."""
        return phrases.render(self.summary_data) if self.summary_data else self.summary

    @property
    def reason_text(self) -> str:
        """The reason in the reader's language when code gave it; as typed when a person did."""
        return phrases.render(self.reason_data) if self.reason_data else self.reason

    @property
    def action_label(self) -> str:
        """The action in the reader's language (the stored ``action`` is a key that code filters on)."""
        label = HISTORY_ACTIONS.get(self.action)
        return str(label) if label is not None else self.action


_VIA_TABLE = re.compile(r"^table (\w+) \(link\)$")
_VIA_API_KEY = re.compile(r"^API key '(.*)'$")

# The history's action keys (stored in English: services and tests filter on them) and how a page says
# them. A key missing here is shown as it is stored.
HISTORY_ACTIONS = {
    "api key created": _("API key created"),
    "api key revoked": _("API key revoked"),
    "webhook registered": _("webhook registered"),
    "webhook revoked": _("webhook revoked"),
    "event created": _("event created"),
    "event edited": _("event edited"),
    "rules changed": _("rules changed"),
    "player registered": _("player registered"),
    "player edited": _("player edited"),
    "player unregistered": _("player unregistered"),
    "player withdrawn": _("player withdrawn"),
    "player restored": _("player restored"),
    "player replaced": _("player replaced"),
    "players swapped": _("players swapped"),
    "game started": _("game started"),
    "game imported": _("game imported"),
    "game finished": _("game finished"),
    "game reopened": _("game reopened"),
    "game voided": _("game voided"),
    "date changed": _("date changed"),
    "hand recorded": _("hand recorded"),
    "hand corrected": _("hand corrected"),
    "hand undone": _("hand undone"),
    "final scores entered": _("final scores entered"),
    "final scores corrected": _("final scores corrected"),
    "entry mode changed": _("entry mode changed"),
    "penalty given": _("penalty given"),
    "penalty cancelled": _("penalty cancelled"),
    "seating generated": _("seating generated"),
    "round reseated": _("round reseated"),
    "rounds reseated": _("rounds reseated"),
    "round_open": _("round opened"),
    "round_close": _("round closed"),
    "standings released": _("standings released"),
    "stage standings hidden": _("stage standings hidden"),
    "stage standings released": _("stage standings released"),
    "clock started": _("clock started"),
    "clock paused": _("clock paused"),
    "clock adjusted": _("clock adjusted"),
    "clock length": _("clock length changed"),
    "entry mode set": _("entry mode set"),
    "table link issued": _("table link issued"),
    "table link revoked": _("table link revoked"),
    "game handed in": _("game handed in"),
    "game confirmed": _("game confirmed"),
    "result confirmed by a player": _("result confirmed by a player"),
    "referee called": _("referee called"),
    "referee call cleared": _("referee call cleared"),
    "game returned to the table": _("game returned to the table"),
    # teams and the team league (tournaments/teams.py, tournaments/team_league.py)
    "team created": _("team created"),
    "team renamed": _("team renamed"),
    "team deleted": _("team deleted"),
    "team member added": _("team member added"),
    "team member removed": _("team member removed"),
    "team captain set": _("team captain set"),
    "team settings changed": _("team settings changed"),
    "teams registered": _("teams registered"),
    "match day scheduled": _("match day scheduled"),
    # rankings (rankings/merge.py)
    "players merged": _("players merged"),
    # players' own registration and check-in (registration/services.py)
    "registration opened": _("registration opened"),
    "registration changed": _("registration settings changed"),
    "signed up": _("signed up"),
    "signup approved": _("registration approved"),
    "signup rejected": _("registration rejected"),
    "signup moved to waiting list": _("moved to the waiting list"),
    "signup promoted": _("promoted from the waiting list"),
    "signup withdrawn": _("registration withdrawn"),
    "checked in": _("checked in"),
    "check-in undone": _("check-in undone"),
}
