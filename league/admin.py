"""Django admin for clubs, players, events, registrations, hanchans and the history — a staff back office.

Organisers work in the manage pages, where every change goes through a service that checks the rights,
locks the game, checks its version, replays it and keeps history. The admin must not be a second write
path around that: clubs, players, events and registrations are edited here (their forms run
``full_clean``, the same validation as the services), but games, their seats and the history are
read-only, each page linking to the manage page where the real change is made ("Edit on the game page").
This app may not import ``scoring`` (docs/architecture.md §2: layers point one way); ``scoring.admin`` reuses
``ReadOnlyAdmin`` below for its own models.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import Count, Model, QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext, gettext_lazy

from . import history
from .engine_text import rules_in_words as rules_text
from .forms import EventAdminForm
from .models import Club, Event, Hanchan, HistoryEntry, Player, Registration, Seat
from .permissions import can_edit_player
from .services import RESULTS_SETTINGS
from .versions import bump_results


def game_manage_url(hanchan_id: int) -> str:
    """The organisers' page of a game, where hands, final scores and corrections are entered."""
    return reverse("scoring_manage:game", args=[hanchan_id])


def event_manage_url(event: Event) -> str:
    """The organisers' page of an event."""
    return reverse("league_manage:event", args=[event.slug])


class ReadOnlyAdmin(admin.ModelAdmin):
    """Rows only the services write: shown, never added, changed or deleted here (a POST to a change
    page is refused with 403), with a link to the manage page where the change is made for real.

    Subclasses say where that page is (``manage_url``) and what the link says (``manage_text``).
    """

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions

    def manage_url(self, obj: Any) -> str | None:
        """The manage page to change ``obj`` on; None when there is none."""
        return None

    def manage_text(self, obj: Any) -> str:
        return gettext("Edit on the game page")

    @admin.display(description=gettext_lazy("Where to change it"))
    def manage_link(self, obj: Any) -> SafeString | str:
        url = self.manage_url(obj) if obj is not None and obj.pk else None
        if not url:
            return gettext("Not changed by hand: the services write it.")
        return format_html('<a href="{}" class="manage-link">{}</a>', url, self.manage_text(obj))

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return [*super().get_readonly_fields(request, obj), "manage_link"]

    def get_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        fields = [f for f in super().get_fields(request, obj) if f != "manage_link"]
        return ["manage_link", *fields]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "city", "country", "player_count", "event_count"]
    list_filter = ["country"]
    search_fields = ["name", "slug", "city"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["organisers"]
    ordering = ["name"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Club]:
        return (
            super()
            .get_queryset(request)
            .annotate(_players=Count("players", distinct=True), _events=Count("events", distinct=True))
        )

    @admin.display(description=gettext_lazy("players"), ordering="_players")
    def player_count(self, obj: Club) -> int:
        return obj._players  # type: ignore[attr-defined]

    @admin.display(description=gettext_lazy("events"), ordering="_events")
    def event_count(self, obj: Club) -> int:
        return obj._events  # type: ignore[attr-defined]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = [
        "display_name",
        "given_name",
        "family_name",
        "ema_number",
        "country",
        "club",
        "visibility",
        "user",
    ]
    list_filter = ["country", "club", "visibility"]
    search_fields = ["display_name", "given_name", "family_name", "=ema_number"]
    list_select_related = ["club", "user"]
    autocomplete_fields = ["club"]
    raw_id_fields = ["user"]
    ordering = ["display_name"]
    readonly_fields = ["created_at"]

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """Who may change a player is one rule (``league.permissions.can_edit_player``), here too."""
        allowed = super().has_change_permission(request, obj)
        return allowed and (obj is None or can_edit_player(request.user, obj))


def _plain(value: Any) -> Any:
    """A form value as the history stores it: a related row as its primary key."""
    return value.pk if isinstance(value, Model) else value


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    form = EventAdminForm  # the ruleset's JSON is parsed without ever failing; the engine bounds it
    list_display = ["name", "slug", "kind", "club", "start_date", "end_date", "visibility", "preset"]
    list_filter = ["kind", "visibility", "club"]
    search_fields = ["name", "slug", "city", "club__name"]
    list_select_related = ["club"]
    autocomplete_fields = ["club"]
    prepopulated_fields = {"slug": ["name"]}
    date_hierarchy = "start_date"
    # Registrations have their own changelist (filter by event): an inline of a large league would
    # render one player widget, and one query, per registration.
    ordering = ["-start_date", "name"]

    def get_readonly_fields(self, request: HttpRequest, obj: Event | None = None) -> list[str]:
        """The ruleset and how a substitute's games count (``RESULTS_SETTINGS``) are fixed here once
        games exist: their cached results were computed under them, and only the scoring services can
        recompute them (the rules page, which the "where to change them" field links to). Before that
        the ruleset is a preset name or a settings object (``Event.clean`` stores the effective
        settings)."""
        fields = ["created_at", "results_version"]
        if obj is not None and obj.hanchans.exists():
            fields += ["results_settings_link", "ruleset", "rules_in_words", *RESULTS_SETTINGS]
        return fields

    @admin.display(description=gettext_lazy("Rules and substitutes: where to change them"))
    def results_settings_link(self, obj: Event) -> SafeString:
        url = reverse("scoring_manage:event_rules", args=[obj.slug])
        return format_html(
            '<a href="{}" class="manage-link">{}</a>',
            url,
            gettext("On the event's rules page, which recomputes every game's results"),
        )

    def save_model(self, request: HttpRequest, obj: Event, form: Any, change: bool) -> None:
        """Save, then say so in the event's history (who changed what, old → new) and move the results
        versions of the event and its players on, in the admin's transaction — as the manage pages'
        ``update_event`` does — so that no cached page shows the event as it was (a new minimum of games,
        tie-break or visibility changes the standings' reading without changing any cached row)."""
        before = {name: _plain(form.initial.get(name)) for name in form.changed_data}
        super().save_model(request, obj, form, change)
        if not change or not form.changed_data:
            return
        after = {name: _plain(form.cleaned_data.get(name)) for name in form.changed_data}
        old, new, summary = history.changes(before, after, form.changed_data)
        history.log(
            event=obj, user=request.user, action="event edited", summary=summary, before=old, after=new
        )
        bump_results(event_ids=[obj.pk], event_players=True)

    @admin.display(description=gettext_lazy("preset"))
    def preset(self, obj: Event) -> str:
        return str((obj.ruleset or {}).get("preset", "")) if isinstance(obj.ruleset, dict) else ""

    @admin.display(description=gettext_lazy("rules in words"))
    def rules_in_words(self, obj: Event) -> str:
        return format_html(
            "<table>{}</table>",
            format_html_join(
                "",
                "<tr><td>{}</td><td>{}</td></tr>",
                rules_text(obj.rules),
            ),
        )


@admin.register(Registration)
class RegistrationAdmin(admin.ModelAdmin):
    list_display = ["player", "ema_number", "event", "is_substitute", "dropped_out", "created_at"]
    list_filter = ["is_substitute", "dropped_out", "event"]
    search_fields = [
        "player__display_name",
        "player__given_name",
        "player__family_name",
        "=player__ema_number",
        "event__name",
    ]
    list_select_related = ["player", "event"]
    autocomplete_fields = ["event", "player"]
    ordering = ["event", "player__display_name"]
    readonly_fields = ["created_at"]

    @admin.display(description=gettext_lazy("EMA number"), ordering="player__ema_number")
    def ema_number(self, obj: Registration) -> str:
        return obj.player.ema_number or ""


class SeatInline(admin.TabularInline):
    """The four seats, shown: who sat where is chosen on the game page and fixed once the game exists
    (the cached per-hand and per-seat rows name these players)."""

    model = Seat
    extra = 0
    max_num = 4
    fields = ["seat", "player", "on_behalf_of", "final_score"]
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Hanchan | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Hanchan | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Hanchan | None = None) -> bool:
        return False


@admin.register(Hanchan)
class HanchanAdmin(ReadOnlyAdmin):
    """Games are started, scored, finished, voided and reopened on the game page, under the game's lock
    and version check, with a history entry: here they are only shown."""

    list_display = [
        "id",
        "event",
        "round_number",
        "table_number",
        "players",
        "status",
        "entry_mode",
        "created_at",
        "finished_at",
    ]
    list_display_links = ["id", "event"]
    list_filter = ["status", "entry_mode", "event"]
    search_fields = [
        "=id",
        "event__name",
        "seats__player__display_name",
        "=seats__player__ema_number",
    ]
    list_select_related = ["event"]
    date_hierarchy = "created_at"
    ordering = ["-created_at"]
    inlines = [SeatInline]

    def manage_url(self, obj: Hanchan) -> str:
        return game_manage_url(obj.pk)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Hanchan]:
        return super().get_queryset(request).prefetch_related("seats__player")

    @admin.display(description=gettext_lazy("players (E, S, W, N)"))
    def players(self, obj: Hanchan) -> str:
        seats = sorted(obj.seats.all(), key=lambda s: s.seat)
        return ", ".join(s.player.display_name for s in seats)


@admin.register(HistoryEntry)
class HistoryEntryAdmin(ReadOnlyAdmin):
    """The audit trail: written by the services, never edited (a history that can be rewritten proves
    nothing). Each entry links to the page of its game, or of its event."""

    list_display = ["at", "event", "hanchan_id", "user", "action_shown", "summary_shown", "reason_shown"]
    list_filter = ["action", "event"]
    search_fields = ["summary", "reason", "action", "user__username", "=hanchan__id"]
    list_select_related = ["event", "user"]
    date_hierarchy = "at"
    ordering = ["-at", "-id"]

    @admin.display(description=gettext_lazy("action"), ordering="action")
    def action_shown(self, obj: HistoryEntry) -> str:
        return obj.action_label

    @admin.display(description=gettext_lazy("summary"))
    def summary_shown(self, obj: HistoryEntry) -> str:
        """In the reader's language (what code wrote is stored as data, see league/phrases.py)."""
        return obj.summary_text

    @admin.display(description=gettext_lazy("reason"))
    def reason_shown(self, obj: HistoryEntry) -> str:
        return obj.reason_text

    def manage_url(self, obj: HistoryEntry) -> str:
        if obj.hanchan_id is not None:
            return game_manage_url(obj.hanchan_id)
        return event_manage_url(obj.event)

    def manage_text(self, obj: HistoryEntry) -> str:
        if obj.hanchan_id is not None:
            return gettext("Edit on the game page")
        return gettext("Edit on the event page")
