"""Organisers' pages of the league app. Every view checks the user's rights on *that* club or event
(someone else's answers 404), parses a form, calls a service and renders; writes follow
post/redirect/get so that reloading a page never registers a player twice."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db.models import Prefetch, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods, require_POST

from league import services
from league.collation import sorted_by_name
from league.engine_text import rules_in_words
from league.forms import (
    EventEditForm,
    EventForm,
    PlayerForm,
    RegisterPlayerForm,
    RegisterPlayersCsvForm,
    add_service_errors,
    chosen_preset,
    preset_label,
)
from league.models import Event, Hanchan, Player, Registration
from league.permissions import managed_club_or_404, managed_clubs, managed_event_or_404, managed_events


@login_required
def dashboard(request: HttpRequest) -> HttpResponse:
    """The clubs the user organises, each with its events and a link to create one."""
    clubs = managed_clubs(request.user).prefetch_related(
        Prefetch("events", queryset=Event.objects.order_by("-start_date", "name"))
    )
    return render(request, "league/manage/dashboard.html", {"clubs": clubs})


@login_required
@require_http_methods(["GET", "POST"])
def event_create(request: HttpRequest, club_slug: str) -> HttpResponse:
    """A new event in the club. ``?preset=NAME`` (or htmx on the preset select) reloads the settings."""
    club = managed_club_or_404(request.user, club_slug)
    if request.method == "POST":
        form = EventForm(request.POST, preset=chosen_preset(request.POST.get("preset")))
        if form.is_valid():
            data = form.cleaned_data
            try:
                event = services.create_event(
                    club=club,
                    name=data["name"],
                    slug=data["slug"],
                    kind=data["kind"],
                    preset=data["preset"],
                    overrides=form.overrides(),
                    visibility=data["visibility"],
                    min_games=data["min_games"],
                    start_date=data["start_date"],
                    end_date=data["end_date"],
                    city=data["city"],
                    country=data["country"],
                    user=request.user,
                    tie_break=data["tie_break"],
                    substitute_credit=data["substitute_credit"],
                    substitute_fixed_result=data["substitute_fixed_result"],
                    ema_days=data["ema_days"],
                    ema_qualification=data["ema_qualification"],
                )
            except ValidationError as exc:
                add_service_errors(form, exc)
            else:
                messages.success(
                    request, gettext("%(event)s created. Register its players below.") % {"event": event.name}
                )
                return redirect("league_manage:event", slug=event.slug)
    else:
        form = EventForm(preset=chosen_preset(request.GET.get("preset")))
        if getattr(request, "htmx", False):
            return render(request, "league/manage/_rules_fieldset.html", {"form": form})
    return render(request, "league/manage/event_form.html", {"club": club, "form": form})


def _event_page(
    request: HttpRequest,
    event: Event,
    *,
    player_form: RegisterPlayerForm | None = None,
    csv_form: RegisterPlayersCsvForm | None = None,
) -> HttpResponse:
    """The manage page of an event, with the registration forms (bound ones when they have errors)."""
    registrations = sorted_by_name(
        Registration.objects.filter(event=event).select_related("player"), lambda r: r.player.display_name
    )
    return render(
        request,
        "league/manage/event_detail.html",
        {
            "event": event,
            "rules": rules_in_words(event.rules),
            "preset_label": preset_label(event.rules.preset),
            "registrations": registrations,
            "player_form": player_form or RegisterPlayerForm(),
            "csv_form": csv_form or RegisterPlayersCsvForm(),
        },
    )


@login_required
def event_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """An event's rules and players, and the forms to register more."""
    event = managed_event_or_404(request.user, slug)
    return _event_page(request, event)


@login_required
@require_POST
def register_player(request: HttpRequest, slug: str) -> HttpResponse:
    """Register one player; on error, the event page again with the form and its errors."""
    event = managed_event_or_404(request.user, slug)
    form = RegisterPlayerForm(request.POST)
    if form.is_valid():
        try:
            registration = services.register_player(event=event, user=request.user, **form.cleaned_data)
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            messages.success(
                request, gettext("%(player)s is registered.") % {"player": registration.player.display_name}
            )
            for notice in getattr(registration, "notices", ()):  # e.g. a visitor from another club
                messages.info(request, notice)
            return redirect("league_manage:event", slug=event.slug)
    return _event_page(request, event, player_form=form)


@login_required
@require_POST
def register_players_csv(request: HttpRequest, slug: str) -> HttpResponse:
    """Register pasted players, all or none; on error, every wrong line is listed under the textarea."""
    event = managed_event_or_404(request.user, slug)
    form = RegisterPlayersCsvForm(request.POST)
    if form.is_valid():
        try:
            registrations = services.register_players_csv(
                event=event, text=form.cleaned_data["csv"], user=request.user
            )
        except ValidationError as exc:
            form.add_error("csv", exc.messages)  # the per-line report, under the textarea
        else:
            count = len(registrations)
            done = ngettext("%(count)d player registered.", "%(count)d players registered.", count)
            messages.success(request, done % {"count": count})
            for registration in registrations:  # e.g. visitors from another club, registered as they are
                for notice in getattr(registration, "notices", ()):
                    messages.info(request, notice)
            return redirect("league_manage:event", slug=event.slug)
    return _event_page(request, event, csv_form=form)


# -- editing an event -------------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def event_edit(request: HttpRequest, slug: str) -> HttpResponse:
    """Edit an event's details and rules. ``?preset=NAME`` (or htmx) reloads the settings from a preset.

    A rules change of an event without games is saved here. Once games exist, the details are saved
    and the proposed rules are handed (as a query string) to scoring's rules page, which replays every
    game under them and asks for a confirmation: league cannot read the hands.
    """
    event = managed_event_or_404(request.user, slug)
    if request.method == "POST":
        form = EventEditForm(request.POST, event=event, preset=chosen_preset(request.POST.get("preset")))
        if form.is_valid():
            rules = form.ruleset()
            rules_changed = rules.to_dict() != event.rules.to_dict()
            to_check = rules_changed and Hanchan.objects.filter(event=event).exists()
            data = form.details()
            if rules_changed and not to_check:
                data["ruleset"] = rules
            try:
                services.update_event(event=event, user=request.user, data=data)
            except ValidationError as exc:
                add_service_errors(form, exc)
            else:
                if to_check:
                    messages.warning(
                        request,
                        gettext(
                            "The event's details are saved. The new rules are not applied yet: check what "
                            "they change for the games already played, then confirm."
                        ),
                    )
                    url = reverse("scoring_manage:event_rules", args=[event.slug])
                    return redirect(f"{url}?{form.rules_query()}")
                messages.success(request, gettext("%(event)s is saved.") % {"event": event.name})
                return redirect("league_manage:event", slug=event.slug)
    else:
        preset = request.GET.get("preset")
        form = EventEditForm(event=event, preset=chosen_preset(preset) if preset else None)
        if getattr(request, "htmx", False):
            return render(request, "league/manage/_rules_fieldset.html", {"form": form})
    has_games = Hanchan.objects.filter(event=event).exists()
    return render(
        request, "league/manage/event_edit.html", {"event": event, "form": form, "has_games": has_games}
    )


# -- editing a player ---------------------------------------------------------------------------------------


def managed_player_or_404(user: object, pk: int) -> Player:
    """A player of a club the user organises, or registered in an event they organise (404 otherwise)."""
    players = Player.objects.select_related("club")
    if not getattr(user, "is_staff", False):
        players = players.filter(
            Q(club__in=managed_clubs(user)) | Q(registrations__event__in=managed_events(user))
        ).distinct()
    return get_object_or_404(players, pk=pk)


def _next_url(request: HttpRequest, fallback: str) -> str:
    """Where to go back to: the ``next`` parameter when it is a page of this site, else ``fallback``."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return fallback


@login_required
@require_http_methods(["GET", "POST"])
def player_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """Correct a player's names, EMA number and country (the same player in every event)."""
    player = managed_player_or_404(request.user, pk)
    back = _next_url(request, reverse("league_manage:dashboard"))
    if request.method == "POST":
        form = PlayerForm(request.POST)
        if form.is_valid():
            try:
                services.update_player(player=player, user=request.user, **form.cleaned_data)
            except ValidationError as exc:
                add_service_errors(form, exc)
            else:
                messages.success(request, gettext("%(player)s is saved.") % {"player": player.display_name})
                return redirect(back)
    else:
        form = PlayerForm(initial=PlayerForm.initial_from(player))
    return render(request, "league/manage/player_form.html", {"player": player, "form": form, "next": back})


# -- withdrawing a registration -----------------------------------------------------------------------------


def _event_players_url(event: Event) -> str:
    return reverse("league_manage:event", args=[event.slug]) + "#players"


@login_required
@require_POST
def registration_withdraw(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Withdraw a player: unregistered if they have not played, marked withdrawn (games kept) if they have."""
    event = managed_event_or_404(request.user, slug)
    registration = get_object_or_404(Registration.objects.select_related("player"), pk=pk, event=event)
    name = registration.player.display_name
    try:
        kept = services.withdraw_registration(registration=registration, user=request.user)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        if kept is None:
            text = gettext("%(player)s had not played: the registration is removed.")
        else:
            text = gettext(
                "%(player)s is withdrawn: their games still count, but no new game or seating will include "
                "them."
            )
        messages.success(request, text % {"player": name})
    return redirect(_event_players_url(event))


@login_required
@require_POST
def registration_restore(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Undo a withdrawal: the player can be seated and start games again."""
    event = managed_event_or_404(request.user, slug)
    registration = get_object_or_404(Registration.objects.select_related("player"), pk=pk, event=event)
    try:
        services.restore_registration(registration=registration, user=request.user)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(
            request,
            gettext("%(player)s is back in %(event)s.")
            % {"player": registration.player.display_name, "event": event.name},
        )
    return redirect(_event_players_url(event))
