"""Organisers' pages of the league app. Every view checks the user's rights on *that* club or event
(someone else's answers 404), parses a form, calls a service and renders; writes follow
post/redirect/get so that reloading a page never registers a player twice."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from league import services
from league.forms import (
    EventForm,
    RegisterPlayerForm,
    RegisterPlayersCsvForm,
    add_service_errors,
    chosen_preset,
    preset_label,
)
from league.models import Event, Registration
from league.permissions import managed_club_or_404, managed_clubs, managed_event_or_404


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
                messages.success(request, f"{event.name} created. Register its players below.")
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
    registrations = Registration.objects.filter(event=event).select_related("player")
    return render(
        request,
        "league/manage/event_detail.html",
        {
            "event": event,
            "rules": event.rules.describe(),
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
            messages.success(request, f"{registration.player.display_name} is registered.")
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
            messages.success(request, f"{count} player{'s' if count != 1 else ''} registered.")
            return redirect("league_manage:event", slug=event.slug)
    return _event_page(request, event, csv_form=form)
