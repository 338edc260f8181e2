"""Organisers' pages of the league app. Every view checks the user's rights on *that* club or event
(someone else's answers 404), parses a form, calls a service and renders; writes follow
post/redirect/get so that reloading a page never registers a player twice."""

from __future__ import annotations

from urllib.parse import urlsplit

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import Resolver404, resolve, reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods

from league import services
from league.collation import sorted_by_name
from league.engine_text import rules_in_words
from league.forms import (
    EventEditForm,
    EventForm,
    PlayerEditForm,
    RegisterPlayerForm,
    RegisterPlayersCsvForm,
    WithdrawForm,
    add_service_errors,
    chosen_preset,
    preset_label,
)
from league.models import Event, Hanchan, Registration
from league.permissions import (
    editable_players,
    managed_club_or_404,
    managed_clubs,
    managed_event_or_404,
    managed_player_or_404,
)
from league.views.post_only import post_only


def _event_url(slug: str, **_: object) -> str:
    """Where a GET on an event action goes (a restored tab): the event's page (see ``post_only``)."""
    return reverse("league_manage:event", args=[slug])


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
            # Only the players the organiser may change get an "Edit" link: not a visitor from another
            # club (league.permissions.can_edit_player).
            "editable_ids": set(
                editable_players(request.user).filter(registrations__event=event).values_list("pk", flat=True)
            ),
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
@post_only(_event_url)
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
@post_only(_event_url)
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
    and the proposed rules — with how a substitute's games count (``RESULTS_SETTINGS``), which decides
    the games' results too — are handed (as a query string) to scoring's rules page, which replays every
    game under them and asks for a confirmation: league cannot read the hands.
    """
    event = managed_event_or_404(request.user, slug)
    if request.method == "POST":
        form = EventEditForm(request.POST, event=event, preset=chosen_preset(request.POST.get("preset")))
        if form.is_valid():
            rules = form.ruleset()
            data = form.details()
            results_changed = rules.to_dict() != event.rules.to_dict() or any(
                name in data and data[name] != getattr(event, name) for name in services.RESULTS_SETTINGS
            )
            to_check = results_changed and Hanchan.objects.filter(event=event).exists()
            if to_check:
                for name in services.RESULTS_SETTINGS:  # saved with the rules, once confirmed
                    data.pop(name, None)
            elif results_changed:
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
                            "The event's details are saved. The new rules and substitute settings are not "
                            "applied yet: check what they change for the games already played, then "
                            "confirm."
                        ),
                    )
                    url = reverse("scoring_manage:event_rules", args=[event.slug])
                    return redirect(f"{url}?{form.rules_query()}")
                messages.success(request, gettext("%(event)s is saved.") % {"event": event.name})
                if event.standings_released_at is not None and event.standings_hidden_after_round:
                    # "Saved" alone would suggest the round above hides something: it does not.
                    messages.info(
                        request,
                        gettext(
                            "The standings stay released: the public sees every round. To hide the rounds "
                            "after round %(round)s again, tick “Hide the standings again”."
                        )
                        % {"round": event.standings_hidden_after_round},
                    )
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


def _next_url(request: HttpRequest, fallback: str) -> str:
    """Where to go back to: the ``next`` parameter when it is a path of this site that names one of its
    pages, else ``fallback``.

    "A page of this site" is checked twice: by host and scheme (no ``//evil.example``), then by resolving
    the path — ``next=abc`` is a relative reference that ``redirect`` would try as a view name and fail on,
    after the change was saved; a path that names no page would be a redirect to a 404.
    """
    target = request.POST.get("next") or request.GET.get("next") or ""
    if not target.startswith("/") or not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return fallback
    try:
        resolve(urlsplit(target).path)
    except (Resolver404, ValueError):
        return fallback
    return target


@login_required
@require_http_methods(["GET", "POST"])
def player_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """Correct a player's names, EMA number, country and page visibility (the same player in every
    event); only their club's organisers and staff reach it (league.permissions.managed_player_or_404)."""
    player = managed_player_or_404(request.user, pk)
    back = _next_url(request, reverse("league_manage:dashboard"))
    if request.method == "POST":
        form = PlayerEditForm(request.POST)
        if form.is_valid():
            try:
                services.update_player(player=player, user=request.user, **form.cleaned_data)
            except ValidationError as exc:
                add_service_errors(form, exc)
            else:
                messages.success(request, gettext("%(player)s is saved.") % {"player": player.display_name})
                return redirect(back)
    else:
        form = PlayerEditForm(initial=PlayerEditForm.initial_from(player))
    return render(request, "league/manage/player_form.html", {"player": player, "form": form, "next": back})


# -- withdrawing a registration -----------------------------------------------------------------------------


def _event_players_url(event: Event) -> str:
    return reverse("league_manage:event", args=[event.slug]) + "#players"


@login_required
@require_http_methods(["GET", "POST"])
def registration_withdraw(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Withdraw a player, after a confirmation: GET shows what withdrawing does to *this* player (and
    asks why, required once they have played), POST withdraws. A player who has not played is
    unregistered; one who has is marked withdrawn, their games kept."""
    event = managed_event_or_404(request.user, slug)
    registration = get_object_or_404(Registration.objects.select_related("player"), pk=pk, event=event)
    name = registration.player.display_name
    if registration.withdrawn_at is not None:
        messages.info(request, gettext("%(player)s is already withdrawn.") % {"player": name})
        return redirect(_event_players_url(event))
    form = WithdrawForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            kept = services.withdraw_registration(
                registration=registration, user=request.user, reason=form.cleaned_data["reason"]
            )
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            if kept is None:
                text = gettext("%(player)s had not played: the registration is removed.")
            else:
                text = gettext(
                    "%(player)s is withdrawn: their games still count, but no new game or seating will "
                    "include them."
                )
            messages.success(request, text % {"player": name})
            return redirect(_event_players_url(event))
    context = {
        "event": event,
        "registration": registration,
        "form": form,
        "games": services.games_played(registration),
        "kept": services.has_games(registration),
        "seated_ahead": services.seated_without_result(registration),
    }
    status = 422 if request.method == "POST" else 200
    return render(request, "league/manage/withdraw_confirm.html", context, status=status)


@login_required
@post_only(_event_url)
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
