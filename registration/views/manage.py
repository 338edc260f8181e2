"""The organisers' pages of registration: its settings and the list of sign-ups (approve, reject, move to
the waiting list, export, make the confirmed ones the event's players), and check-in on the day.

Thin: :mod:`registration.services` writes. Every view loads the event through
``league.permissions.managed_event_or_404`` and a sign-up within that event, so someone else's answers 404;
every action is a POST (``post_only``: a GET goes back to its page) shaped by
``league.views.actions.perform``.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from league.forms import add_service_errors
from league.models import Event
from league.permissions import managed_event_or_404
from league.views.actions import perform
from league.views.post_only import post_only
from registration import selectors, services
from registration.forms import OpeningForm, SearchForm, SeatForm, TapForm
from registration.models import Opening, SignUp
from registration.services import ASKED
from scoring.exports.csvfile import csv_response


def _list_url(slug: str, **_kwargs: Any) -> str:
    return reverse("registration_manage:registration", args=[slug])


def _check_in_url(slug: str, **_kwargs: Any) -> str:
    return reverse("registration_manage:check_in", args=[slug])


def _signup_or_404(event: Event, pk: int) -> SignUp:
    return get_object_or_404(SignUp.objects.select_related("event", "registration"), event=event, pk=pk)


@login_required
def registration(request: HttpRequest, slug: str) -> HttpResponse:
    event = managed_event_or_404(request.user, slug)
    opening = selectors.opening_of(event)
    status = 200
    if request.method == "POST":
        form = OpeningForm(request.POST, instance=opening or Opening(event=event))
        if form.is_valid():
            data = form.cleaned_data
            try:
                services.save_opening(
                    event=event,
                    user=request.user,
                    opens_at=data["opens_at"],
                    closes_at=data["closes_at"],
                    capacity=data["capacity"],
                    waiting_list=data["waiting_list"],
                    approval=data["approval"],
                    asks={name: data[f"ask_{name}"] for name in ASKED},
                )
            except ValidationError as exc:
                add_service_errors(form, exc)
            else:
                messages.success(request, gettext("Registration settings saved."))
                return redirect(_list_url(slug))
        status = 422
    else:
        now = timezone.localtime().replace(second=0, microsecond=0)
        initial = {"opens_at": now, "closes_at": now + timedelta(days=14), "capacity": 32}
        form = OpeningForm(instance=opening, initial=initial if opening is None else None)
    rows = list(selectors.signups(event))
    order = selectors.waiting_order(rows)
    for row in rows:
        row.waiting_number = order.get(row.pk)  # type: ignore[attr-defined]
    context = {
        "event": event,
        "opening": opening,
        "form": form,
        "rows": rows,
        "counts": selectors.counts(rows),
        "to_add": sum(1 for r in rows if r.status == SignUp.Status.CONFIRMED and r.registration_id is None),
        "public_url": request.build_absolute_uri(reverse("registration:register", args=[slug])),
    }
    return render(request, "registration/manage/registration.html", context, status=status)


def _decide(request: HttpRequest, slug: str, pk: int, service: Any, said: str) -> HttpResponse:
    event = managed_event_or_404(request.user, slug)
    signup = _signup_or_404(event, pk)

    def run(_data: dict[str, Any]) -> str:
        service(signup=signup, user=request.user)
        return said % {"name": signup.name}

    return perform(request, run=run, back=_list_url(slug))


@login_required
@post_only(_list_url)
def approve(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    return _decide(request, slug, pk, services.approve, gettext("%(name)s confirmed."))


@login_required
@post_only(_list_url)
def reject(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    return _decide(request, slug, pk, services.reject, gettext("%(name)s rejected."))


@login_required
@post_only(_list_url)
def wait(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    return _decide(
        request, slug, pk, services.move_to_waiting_list, gettext("%(name)s is on the waiting list.")
    )


@login_required
@post_only(_list_url)
def add_players(request: HttpRequest, slug: str) -> HttpResponse:
    event = managed_event_or_404(request.user, slug)

    def run(_data: dict[str, Any]) -> str:
        made = services.add_confirmed_players(event=event, user=request.user)
        if not made:
            return gettext("Every confirmed registration is one of the event's players already.")
        return ngettext(
            "%(count)d confirmed registration added to the event's players.",
            "%(count)d confirmed registrations added to the event's players.",
            len(made),
        ) % {"count": len(made)}

    return perform(request, run=run, back=_list_url(slug))


@login_required
def export_csv(request: HttpRequest, slug: str) -> HttpResponse:
    """The sign-ups as CSV (machine format: English headers and state keys, like every export)."""
    event = managed_event_or_404(request.user, slug)
    rows: list[list[Any]] = [
        [
            "name",
            "ema_number",
            "country",
            "club",
            "email",
            "status",
            "registered_at",
            "checked_in_at",
            "player_id",
        ]
    ]
    for row in selectors.signups(event):
        rows.append(
            [
                row.name,
                row.ema_number or "",
                str(row.country or ""),
                row.club,
                row.email,
                row.status,
                row.created_at.isoformat(timespec="seconds"),
                row.checked_in_at.isoformat(timespec="seconds") if row.checked_in_at else "",
                row.player_id or "",
            ]
        )
    return csv_response(rows, f"{event.slug}-registrations.csv")


@login_required
def check_in_list(request: HttpRequest, slug: str) -> HttpResponse:
    event = managed_event_or_404(request.user, slug)
    search = SearchForm(request.GET)
    query = search.cleaned_data["q"].strip() if search.is_valid() else ""
    context = {
        "event": event,
        "search": search,
        "query": query,
        **selectors.check_in_rows(event, query),
        "seat_form": SeatForm(initial={"rounds": 4}),
        "is_tournament": event.kind == Event.Kind.TOURNAMENT,
    }
    return render(request, "registration/manage/check_in.html", context)


@login_required
@post_only(_check_in_url)
def tap(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    event = managed_event_or_404(request.user, slug)
    signup = _signup_or_404(event, pk)
    back = _check_in_url(slug) + (f"?q={request.POST.get('q', '')[:80]}" if request.POST.get("q") else "")

    def run(data: dict[str, Any]) -> str:
        if data["undo"]:
            services.undo_check_in(signup=signup, user=request.user)
            return gettext("%(name)s: check-in undone.") % {"name": signup.name}
        services.check_in(signup=signup, user=request.user)
        return gettext("%(name)s checked in.") % {"name": signup.name}

    return perform(request, run=run, back=back, form=TapForm(request.POST))


@login_required
@post_only(_check_in_url)
def seat(request: HttpRequest, slug: str) -> HttpResponse:
    event = managed_event_or_404(request.user, slug)

    def run(data: dict[str, Any]) -> str:
        services.seat_checked_in(event=event, rounds=data["rounds"], user=request.user)
        return gettext("The players who checked in are seated for every round.")

    response = perform(
        request,
        run=run,
        back=_check_in_url(slug),
        form=SeatForm(request.POST),
        invalid=gettext("The seating was not made."),
    )
    return response
