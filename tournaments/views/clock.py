"""The organiser's round-clock actions (start, pause, add or take back time, set the length) and the
release of hidden standings: POST only, each on a tournament the user organises (404 for anyone
else's), each through one service, back to the tournament page with what happened."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy, ngettext_lazy

from league.models import Event
from league.views.post_only import post_only
from tournaments import clock, reveal
from tournaments.models import Round
from tournaments.views.manage import _act, _tournament_or_404, tournament_url


class RoundForm(forms.Form):
    round_number = forms.IntegerField(label=gettext_lazy("Round"), min_value=1, max_value=999)


class AdjustForm(RoundForm):
    minutes = forms.IntegerField(
        label=gettext_lazy("Minutes"),
        min_value=-clock.MAX_ADJUST_MINUTES,
        max_value=clock.MAX_ADJUST_MINUTES,
        help_text=gettext_lazy("A negative number takes time back."),
    )

    def clean_minutes(self) -> int:
        minutes = self.cleaned_data["minutes"]
        if minutes == 0:
            raise forms.ValidationError(gettext_lazy("Add or take back at least 1 minute, not 0."))
        return minutes


class LengthForm(RoundForm):
    minutes = forms.IntegerField(
        label=gettext_lazy("Round length (minutes)"), min_value=1, max_value=clock.MAX_MINUTES
    )
    clear_added = forms.BooleanField(required=False, label=gettext_lazy("Drop the time added"))


def _clock_action(
    request: HttpRequest,
    slug: str,
    form_class: type[RoundForm],
    failed: Promise,
    change: Callable[[Event, dict[str, Any]], Round],
    done: Promise,
) -> HttpResponse:
    """Every clock action: the organiser's tournament, one form, one service changing one round, and
    what the round's clock now says (``done`` may name the round ``n``, time ``left`` and ``minutes``;
    time added on top of the length is always said, so that a length set later never hides it).

    Back to the page the form was on: the tournament page, or the round's page (``next=round``)."""
    event = _tournament_or_404(request.user, slug)

    def run(data: dict[str, Any]) -> str:
        found = change(event, data)
        said = str(
            done
            % {
                "n": found.number,
                "left": clock.format_seconds(int(found.remaining().total_seconds())),
                "minutes": found.minutes,
            }
        )
        if found.added_seconds:
            said += " " + gettext("Time added to the length: %(added)s min (%(total)s in all).") % {
                "added": clock.signed_minutes(found.added_seconds),
                "total": clock.format_seconds(max(0, found.minutes * 60 + found.added_seconds)),
            }
        return said

    response = _act(request, event, form_class(request.POST), str(failed), run)
    number = request.POST.get("round_number", "")
    if request.POST.get("next") == "round" and number.isdigit() and 1 <= int(number) <= 999:
        return redirect("tournaments_manage:round", event.slug, int(number))
    return response


@login_required
@post_only(tournament_url)
def start(request: HttpRequest, slug: str) -> HttpResponse:
    return _clock_action(
        request,
        slug,
        RoundForm,
        gettext_lazy("The clock did not start."),
        lambda event, data: clock.start_clock(event=event, number=data["round_number"], user=request.user),
        gettext_lazy("Round %(n)s: the clock runs, %(left)s left."),
    )


@login_required
@post_only(tournament_url)
def pause(request: HttpRequest, slug: str) -> HttpResponse:
    return _clock_action(
        request,
        slug,
        RoundForm,
        gettext_lazy("The clock was not paused."),
        lambda event, data: clock.pause_clock(event=event, number=data["round_number"], user=request.user),
        gettext_lazy("Round %(n)s: the clock is paused, %(left)s left."),
    )


@login_required
@post_only(tournament_url)
def adjust(request: HttpRequest, slug: str) -> HttpResponse:
    return _clock_action(
        request,
        slug,
        AdjustForm,
        gettext_lazy("The time was not changed."),
        lambda event, data: clock.adjust_clock(
            event=event, number=data["round_number"], seconds=data["minutes"] * 60, user=request.user
        ),
        gettext_lazy("Round %(n)s: %(left)s left."),
    )


@login_required
@post_only(tournament_url)
def length(request: HttpRequest, slug: str) -> HttpResponse:
    return _clock_action(
        request,
        slug,
        LengthForm,
        gettext_lazy("The length was not changed."),
        lambda event, data: clock.set_length(
            event=event,
            number=data["round_number"],
            minutes=data["minutes"],
            user=request.user,
            clear_added=data["clear_added"],
        ),
        ngettext_lazy(
            "Round %(n)s lasts %(minutes)s minute.", "Round %(n)s lasts %(minutes)s minutes.", "minutes"
        ),
    )


@login_required
@post_only(tournament_url)
def release_standings(request: HttpRequest, slug: str) -> HttpResponse:
    """Show the hidden rounds of the standings to the public (the final reveal)."""
    event = _tournament_or_404(request.user, slug)

    def run(data: dict[str, Any]) -> str:
        reveal.release_standings(event=event, user=request.user)
        return gettext("The standings are released: the public sees every round.")

    return _act(request, event, forms.Form(request.POST), gettext("Nothing was released."), run)
