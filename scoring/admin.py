"""Django admin for hands, wins, penalties and the cached rows — a staff back office.

The rules of the house hold here too: writes go through the services, and what the engine derives is
never edited. So a hand's facts may be corrected (the whole game is replayed first, and a correction the
rules refuse is a form error naming the hand and the rule), a penalty is given or cancelled through
``add_penalty``/``cancel_penalty`` (never deleted), and the cached rows — per-hand seats, seat results —
and the history are read-only.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.db.models import Q
from django.forms.models import BaseInlineFormSet
from django.http import HttpRequest

from league.models import Hanchan, Registration

from . import engine, services
from .models import Hand, HandSeat, HistoryEntry, Penalty, SeatResult, Win
from .records import engine_hand, stored_hands
from .services import history
from .services.hands import bump, lock_game
from .services.sync import refresh

PLAYER_SEARCH = ["player__display_name", "player__given_name", "player__family_name", "=player__ema_number"]


class ReadOnlyAdmin(admin.ModelAdmin):
    """Rows the engine or the services write: shown, never added, changed or deleted by hand."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


# -- hands -------------------------------------------------------------------------------------------


def _hand_data(row: Hand, wins: list[dict[str, Any]]) -> dict[str, Any]:
    """A hand's facts as a game-record hand, so ``hand_from_dict`` checks them as it checks records."""
    data: dict[str, Any] = {
        "result": row.result,
        "riichi": row.riichi if row.riichi is not None else [],
    }
    if row.result == Hand.Result.RON:
        data.update(loser=row.loser, wins=wins)
    elif row.result == Hand.Result.TSUMO:
        if len(wins) != 1:
            raise ValidationError("A tsumo has exactly one winner: keep one win.")
        data.update(wins[0])
    else:
        if wins:
            raise ValidationError("Only a ron or a tsumo has winners: delete the wins.")
        if row.result == Hand.Result.DRAW:
            data.update(tenpai=row.tenpai or [], nagashi=row.nagashi or [])
        elif row.result == Hand.Result.ABORT:
            data["reason"] = row.abort_reason or None
        else:
            data["seat"] = row.chombo_seat
    return data


class WinFormSet(BaseInlineFormSet):
    """Checks the edited hand with its wins by replaying the whole game with it in place, as
    ``correct_hand`` does: nothing is saved if any hand, this one or a later one, breaks a rule."""

    def clean(self) -> None:
        super().clean()
        if any(self.errors):
            return
        wins = []
        for form in self.forms:
            data = getattr(form, "cleaned_data", None)
            if not data or data.get("DELETE"):
                continue
            wins.append({k: data.get(k) for k in ("winner", "han", "fu", "yakuman", "pao")})
        row: Hand = self.instance
        try:
            candidate = engine.hand_from_dict(_hand_data(row, wins))
            hanchan = Hanchan.objects.select_related("event").get(pk=row.hanchan_id)
            hands = [
                candidate if stored.pk == row.pk else engine_hand(stored, stored_wins)
                for stored, stored_wins in stored_hands(hanchan)
            ]
            engine.replay(hands, hanchan.event.rules)
        except engine.EngineError as exc:
            message = str(exc)
            if not message.startswith("hand "):
                message = f"hand {row.number}: {message}"
            raise ValidationError(message) from None


class WinInline(admin.TabularInline):
    model = Win
    formset = WinFormSet
    extra = 0
    max_num = 3
    fields = ["winner", "han", "fu", "yakuman", "pao", "points", "yaku"]
    readonly_fields = ["points", "yaku"]

    def _editable(self, obj: Hand | None) -> bool:
        return obj is not None and obj.hanchan.status != Hanchan.Status.VOID

    def has_add_permission(self, request: HttpRequest, obj: Hand | None = None) -> bool:
        return self._editable(obj) and super().has_add_permission(request, obj)

    def has_change_permission(self, request: HttpRequest, obj: Hand | None = None) -> bool:
        return self._editable(obj) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Hand | None = None) -> bool:
        return self._editable(obj) and super().has_delete_permission(request, obj)


class HandForm(forms.ModelForm):
    reason = forms.CharField(
        max_length=300, help_text="Why the hand is corrected: the game's history keeps it."
    )

    class Meta:
        model = Hand
        fields = ["result", "loser", "riichi", "tenpai", "nagashi", "chombo_seat", "abort_reason"]


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin):
    """Correct a hand's facts; round, dealer, honba, sticks, deltas and scores are re-derived."""

    form = HandForm
    inlines = [WinInline]
    list_display = ["hanchan", "number", "round_name", "result", "dealer", "honba", "sticks", "deltas"]
    list_filter = ["result", "hanchan__event"]
    search_fields = ["=hanchan__id", "hanchan__seats__player__display_name", "hanchan__event__name"]
    list_select_related = ["hanchan__event"]
    ordering = ["-hanchan__created_at", "hanchan", "number"]
    derived = ["round_name", "dealer", "honba", "sticks", "deltas", "scores"]
    facts = ["result", "loser", "riichi", "tenpai", "nagashi", "chombo_seat", "abort_reason"]

    def get_fields(self, request: HttpRequest, obj: Hand | None = None) -> list[str]:
        editable = self.has_change_permission(request, obj)
        return ["hanchan", "number", *self.facts, *(["reason"] if editable else []), *self.derived]

    def get_readonly_fields(self, request: HttpRequest, obj: Hand | None = None) -> list[str]:
        return ["hanchan", "number", *self.derived]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # hands are appended at the table, in order: the entry page

    def has_delete_permission(self, request: HttpRequest, obj: Hand | None = None) -> bool:
        return False  # only the last hand can go (undo), on the entry page

    def has_change_permission(self, request: HttpRequest, obj: Hand | None = None) -> bool:
        if obj is not None and obj.hanchan.status == Hanchan.Status.VOID:
            return False  # reopen the game first, as correct_hand requires
        return super().has_change_permission(request, obj)

    def save_model(self, request: HttpRequest, obj: Hand, form: forms.ModelForm, change: bool) -> None:
        old = Hand.objects.prefetch_related("wins").get(pk=obj.pk)
        obj._before = engine.hand_to_dict(engine_hand(old, list(old.wins.all())))  # type: ignore[attr-defined]
        super().save_model(request, obj, form, change)

    def save_related(self, request: HttpRequest, form: forms.ModelForm, formsets: Any, change: bool) -> None:
        """After the rows are saved (inside the admin's transaction): re-derive the game and log it."""
        super().save_related(request, form, formsets, change)
        hand: Hand = form.instance
        game = lock_game(hand.hanchan, None)
        bump(game)
        refresh(game)
        wins = sorted(hand.wins.all(), key=lambda w: w.pk)
        history.log(
            event=game.event,
            hanchan=game,
            user=request.user,
            action="hand corrected",
            summary=f"Hand {hand.number} corrected (admin)",
            reason=form.cleaned_data["reason"],
            before=getattr(hand, "_before", None),
            after=engine.hand_to_dict(engine_hand(hand, wins)),
        )


@admin.register(HandSeat)
class HandSeatAdmin(ReadOnlyAdmin):
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


class PenaltyForm(forms.ModelForm):
    """Adding checks what ``add_penalty`` checks, so a refusal is a form error rather than a crash;
    changing is only cancelling, with a reason."""

    class Meta:
        model = Penalty
        fields = ["event", "player", "hanchan", "points", "kind", "reason", "cancelled", "cancelled_reason"]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.instance.pk is None:
            event, player, hanchan = data.get("event"), data.get("player"), data.get("hanchan")
            if event and player and not Registration.objects.filter(event=event, player=player).exists():
                self.add_error("player", f"{player} is not registered in {event}.")
            if event and hanchan and hanchan.event_id != event.pk:
                self.add_error("hanchan", "That game belongs to another event.")
            elif (
                hanchan
                and player
                and not hanchan.seats.filter(Q(player=player) | Q(on_behalf_of=player)).exists()
            ):
                self.add_error("player", f"{player} did not play in that game.")
            points = data.get("points")
            if points is not None and points >= 0:
                self.add_error("points", "A penalty takes points off: enter a negative number (e.g. -20000).")
            if data.get("reason") is not None and not data["reason"].strip():
                self.add_error("reason", "Give the reason for the penalty.")
        elif data.get("cancelled") and not (data.get("cancelled_reason") or "").strip():
            self.add_error("cancelled_reason", "Say why the penalty is cancelled.")
        return data


@admin.register(Penalty)
class PenaltyAdmin(admin.ModelAdmin):
    """Given through ``add_penalty`` and cancelled through ``cancel_penalty``, which re-derive the game's
    results and log the change. Never deleted: cancelling keeps who, when and why."""

    form = PenaltyForm
    list_display = [
        "player",
        "points",
        "kind",
        "reason",
        "event",
        "hanchan_id",
        "given_by",
        "created_at",
        "cancelled",
    ]
    list_filter = ["kind", "cancelled", "event"]
    search_fields = [*PLAYER_SEARCH, "reason"]
    list_select_related = ["player", "event", "given_by"]
    autocomplete_fields = ["event", "player", "hanchan"]
    date_hierarchy = "created_at"
    ordering = ["-created_at"]
    audit = ["given_by", "created_at", "cancelled_by", "cancelled_at"]

    def get_fields(self, request: HttpRequest, obj: Penalty | None = None) -> list[str]:
        given = ["event", "player", "hanchan", "points", "kind", "reason"]
        if obj is None:
            return given
        return [*given, "cancelled", "cancelled_reason", *self.audit]

    def get_readonly_fields(self, request: HttpRequest, obj: Penalty | None = None) -> list[str]:
        if obj is None:
            return []
        fields = ["event", "player", "hanchan", "points", "kind", "reason", *self.audit]
        if obj.cancelled:
            fields += ["cancelled", "cancelled_reason"]  # a cancellation is final
        return fields

    def has_delete_permission(self, request: HttpRequest, obj: Penalty | None = None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: Penalty, form: forms.ModelForm, change: bool) -> None:
        if not change:
            made = services.add_penalty(
                event=obj.event,
                player=obj.player,
                points=obj.points,
                reason=obj.reason,
                user=request.user,
                kind=obj.kind,
                hanchan=obj.hanchan,
            )
            obj.pk, obj.created_at, obj.given_by = made.pk, made.created_at, made.given_by
            obj._state.adding = False
        elif "cancelled" in form.changed_data and obj.cancelled:
            services.cancel_penalty(penalty=obj, user=request.user, reason=obj.cancelled_reason)


# -- cached results and history ----------------------------------------------------------------------


@admin.register(SeatResult)
class SeatResultAdmin(ReadOnlyAdmin):
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


@admin.register(HistoryEntry)
class HistoryEntryAdmin(ReadOnlyAdmin):
    list_display = ["at", "event", "hanchan_id", "user", "action", "summary", "reason"]
    list_filter = ["action", "event"]
    search_fields = ["summary", "reason", "action", "user__username", "=hanchan__id"]
    list_select_related = ["event", "user"]
    date_hierarchy = "at"
    ordering = ["-at", "-id"]
