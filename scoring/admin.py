"""Django admin for hands, wins, penalties, cached results and ratings — shown, never written.

Every write of these rows goes through a scoring service, which locks the game, checks its version,
replays it with the engine and keeps a history entry with the reason. The admin used to be a second
write path (a hand correction re-implemented without the lock or the version check; forms repeating the
services' validation), so every page here is read-only and links to the manage page where the change is
made for real ("Edit on the game page"). Staff who are not organisers of the event get no such right
from the admin either.
"""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy

from league.admin import ReadOnlyAdmin, game_manage_url

from .models import Hand, HandSeat, Penalty, RatingChange, SeatResult, Win

PLAYER_SEARCH = ["player__display_name", "player__given_name", "player__family_name", "=player__ema_number"]


class GameRowAdmin(ReadOnlyAdmin):
    """A row of one game: changed on that game's manage page."""

    def manage_url(self, obj: Hand | HandSeat | SeatResult | RatingChange) -> str:
        return game_manage_url(obj.hanchan_id)


# -- hands -------------------------------------------------------------------------------------------


class WinInline(admin.TabularInline):
    model = Win
    extra = 0
    fields = ["winner", "han", "fu", "yakuman", "pao", "points", "yaku"]
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Hand | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Hand | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Hand | None = None) -> bool:
        return False


@admin.register(Hand)
class HandAdmin(GameRowAdmin):
    """A hand is entered, corrected (with a reason) or undone on the game page, which replays the game
    under its lock and version check."""

    inlines = [WinInline]
    list_display = ["hanchan", "number", "round_name", "result", "dealer", "honba", "sticks", "deltas"]
    list_filter = ["result", "hanchan__event"]
    search_fields = ["=hanchan__id", "hanchan__seats__player__display_name", "hanchan__event__name"]
    list_select_related = ["hanchan__event"]
    ordering = ["-hanchan__created_at", "hanchan", "number"]


@admin.register(HandSeat)
class HandSeatAdmin(GameRowAdmin):
    list_display = [
        "hand",
        "seat",
        "player",
        "delta",
        "riichi",
        "won",
        "tsumo",
        "dealt_in",
        "tenpai",
        "chombo",
        "win_points",
        "deal_in_points",
    ]
    list_filter = ["won", "tsumo", "dealt_in", "riichi", "at_draw", "tenpai", "chombo"]
    search_fields = PLAYER_SEARCH
    list_select_related = ["hand__hanchan__event", "player"]
    ordering = ["-hanchan__created_at", "hand__number", "seat"]


# -- penalties ---------------------------------------------------------------------------------------


@admin.register(Penalty)
class PenaltyAdmin(ReadOnlyAdmin):
    """Given and cancelled (never deleted) on the event's penalties page, through ``add_penalty`` and
    ``cancel_penalty``, which re-derive the game's results and log the change."""

    list_display = [
        "player",
        "points",
        "kind",
        "reason_shown",
        "event",
        "hanchan_id",
        "given_by",
        "created_at",
        "cancelled",
    ]
    list_filter = ["kind", "cancelled", "event"]
    search_fields = [*PLAYER_SEARCH, "reason"]
    list_select_related = ["player", "event", "given_by"]
    date_hierarchy = "created_at"
    ordering = ["-created_at"]

    @admin.display(description=gettext_lazy("reason"))
    def reason_shown(self, obj: Penalty) -> str:
        """In the reader's language when code gave it (league/phrases.py)."""
        return obj.reason_text

    def manage_url(self, obj: Penalty) -> str:
        return reverse("scoring_manage:penalties", args=[obj.event.slug])

    def manage_text(self, obj: Penalty) -> str:
        return gettext("Edit on the event's penalties page")


# -- cached results and ratings ----------------------------------------------------------------------


@admin.register(SeatResult)
class SeatResultAdmin(GameRowAdmin):
    list_display = [
        "hanchan",
        "seat",
        "player",
        "score",
        "place",
        "uma",
        "oka",
        "penalties",
        "result",
        "chombos",
        "finished_at",
    ]
    list_filter = ["place", "event"]
    search_fields = PLAYER_SEARCH
    list_select_related = ["hanchan__event", "player"]
    date_hierarchy = "finished_at"
    ordering = ["-finished_at", "hanchan", "seat"]


@admin.register(RatingChange)
class RatingChangeAdmin(GameRowAdmin):
    """Rebuilt from the seat results whenever a finished game changes: never edited."""

    list_display = ["player", "system", "event", "hanchan", "games", "before", "after", "at"]
    list_filter = ["system", "event"]
    search_fields = PLAYER_SEARCH
    list_select_related = ["player", "event", "hanchan__event"]
    date_hierarchy = "at"
    ordering = ["-at", "hanchan", "player"]
