"""Django admin for clubs, players, events, registrations and hanchans — a staff back office.

Organisers work in the manage pages, where every change goes through a scoring service that replays the
game and keeps history. The admin is for staff fixing data around that, so what the services own is
read-only here: a game's status, version and final scores change only through finish/void/reopen and the
final-scores form (they rewrite the cached results), and who sat where is fixed once a game exists
(per-hand and per-seat cached rows name the players). This app may not import ``scoring``'s services
(design.md: dependencies point one way), so it cannot re-derive those rows itself.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import Count, QuerySet
from django.http import HttpRequest
from django.utils.html import format_html, format_html_join

from .models import Club, Event, Hanchan, Player, Registration, Seat


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

    @admin.display(description="players", ordering="_players")
    def player_count(self, obj: Club) -> int:
        return obj._players  # type: ignore[attr-defined]

    @admin.display(description="events", ordering="_events")
    def event_count(self, obj: Club) -> int:
        return obj._events  # type: ignore[attr-defined]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["display_name", "given_name", "family_name", "ema_number", "country", "club", "user"]
    list_filter = ["country", "club"]
    search_fields = ["display_name", "given_name", "family_name", "=ema_number"]
    list_select_related = ["club", "user"]
    autocomplete_fields = ["club"]
    raw_id_fields = ["user"]
    ordering = ["display_name"]
    readonly_fields = ["created_at"]


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
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
        """The ruleset is fixed once games exist: their cached results were computed under it, and only
        the scoring services can recompute them. Before that it is a preset name or a settings object
        (``Event.clean`` stores the effective settings)."""
        fields = ["created_at"]
        if obj is not None and obj.hanchans.exists():
            fields += ["ruleset", "rules_in_words"]
        return fields

    @admin.display(description="preset")
    def preset(self, obj: Event) -> str:
        return str((obj.ruleset or {}).get("preset", "")) if isinstance(obj.ruleset, dict) else ""

    @admin.display(description="rules in words")
    def rules_in_words(self, obj: Event) -> str:
        return format_html(
            "<table>{}</table>",
            format_html_join("", "<tr><td>{}</td><td>{}</td></tr>", obj.rules.describe()),
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

    @admin.display(description="EMA number", ordering="player__ema_number")
    def ema_number(self, obj: Registration) -> str:
        return obj.player.ema_number or ""


class SeatInline(admin.TabularInline):
    """The four seats. Chosen when the game is created; afterwards the cached per-hand and per-seat rows
    name these players, so the seats are shown, not edited."""

    model = Seat
    extra = 0
    max_num = 4
    fields = ["seat", "player", "on_behalf_of", "final_score"]
    readonly_fields = ["final_score"]
    autocomplete_fields = ["player", "on_behalf_of"]

    def get_extra(self, request: HttpRequest, obj: Hanchan | None = None, **kwargs: Any) -> int:
        return 4 if obj is None else 0

    def has_change_permission(self, request: HttpRequest, obj: Hanchan | None = None) -> bool:
        return obj is None and super().has_change_permission(request, obj)

    def has_add_permission(self, request: HttpRequest, obj: Hanchan | None = None) -> bool:
        return obj is None and super().has_add_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Hanchan | None = None) -> bool:
        return False


@admin.register(Hanchan)
class HanchanAdmin(admin.ModelAdmin):
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
    autocomplete_fields = ["event"]
    raw_id_fields = ["entered_by"]
    date_hierarchy = "created_at"
    ordering = ["-created_at"]
    inlines = [SeatInline]
    # Changed only by the scoring services, which re-derive the cached results with them.
    readonly_fields = ["status", "version", "finished_at", "final_sticks", "created_at"]

    def get_readonly_fields(self, request: HttpRequest, obj: Hanchan | None = None) -> list[str]:
        fields = list(self.readonly_fields)
        if obj is not None:
            fields += ["event", "entry_mode"]
        return fields

    def get_queryset(self, request: HttpRequest) -> QuerySet[Hanchan]:
        return super().get_queryset(request).prefetch_related("seats__player")

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        # Bulk deletion would skip the per-game check below.
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions

    def has_delete_permission(self, request: HttpRequest, obj: Hanchan | None = None) -> bool:
        """A game that counted is voided, never deleted; a game started by mistake may go."""
        if obj is not None and obj.status != Hanchan.Status.IN_PROGRESS:
            return False
        return super().has_delete_permission(request, obj)

    @admin.display(description="players (E, S, W, N)")
    def players(self, obj: Hanchan) -> str:
        seats = sorted(obj.seats.all(), key=lambda s: s.seat)
        return ", ".join(s.player.display_name for s in seats)
