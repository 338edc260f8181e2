"""Organisers' late changes: say who drops out (several at once) and from which round, see the ways out
the change leaves — substitutes in, fewer tables with players sitting out in turn — each with what it
does to the rounds left and its quality beside the current plan's, pick one, and apply it.

Thin: the form is parsed here, :mod:`tournaments.reseating` plans and writes (one service call).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db import IntegrityError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_http_methods

from league.collation import order_by_name
from league.models import Event, Player
from tournaments import reseating
from tournaments import services as tournament
from tournaments.views.manage import _tournament_or_404


class ReseatForm(forms.Form):
    """The late change (from which round, who drops out) and, to apply it, the way out picked
    (``choice``: the plan's table count and digest, as :attr:`ReseatPlan.choice` gives them) and why."""

    from_round = forms.IntegerField(
        min_value=1, max_value=tournament.MAX_ROUNDS, label=gettext_lazy("From round")
    )
    drops = forms.ModelMultipleChoiceField(
        queryset=Player.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label=gettext_lazy("Players who drop out"),
        help_text=gettext_lazy(
            "Tick everyone who leaves from that round on. Late arrivals need nothing here: register them "
            "as players and they are seated."
        ),
    )
    choice = forms.RegexField(regex=r"^\d{1,3}:[0-9a-f]{16}$", required=False)
    reason = forms.CharField(max_length=300, required=False, label=gettext_lazy("Reason"))

    def __init__(self, *args: Any, event: Event, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["drops"].queryset = order_by_name(
            Player.objects.filter(
                registrations__event=event,
                registrations__is_substitute=False,
                registrations__dropped_out=False,
                registrations__withdrawn_at__isnull=True,
            )
        )

    @property
    def picked(self) -> tuple[int, str] | None:
        """The way out picked: (tables, digest), or None."""
        value = self.cleaned_data.get("choice") or ""
        if not value:
            return None
        tables, digest = value.split(":")
        return int(tables), digest


def _errors_into(form: ReseatForm, exc: ValidationError) -> None:
    """A service's refusal shown on the form: on the field it names when the form has it."""
    if hasattr(exc, "error_dict"):
        for name, errors in exc.message_dict.items():
            form.add_error(name if name in form.fields else None, errors)
    else:
        form.add_error(None, exc.messages)


def _apply(request: HttpRequest, event: Event, form: ReseatForm) -> HttpResponse | None:
    """Write the way out picked; the page again (None) when something is missing or refused."""
    data = form.cleaned_data
    picked = form.picked
    if picked is None:
        form.add_error("choice", gettext("Choose one of the ways out below."))
        return None
    if not data["reason"].strip():
        form.add_error("reason", gettext("Say why the rounds are reseated."))
        return None
    tables, digest = picked
    try:
        done = reseating.reseat_remaining(
            event=event,
            from_round=data["from_round"],
            drops=list(data["drops"]),
            tables=tables,
            user=request.user,
            reason=data["reason"],
            digest=digest,
        )
    except ValidationError as exc:
        _errors_into(form, exc)
        return None
    except IntegrityError:
        form.add_error(
            None,
            gettext(
                "The seating was changed by someone else at the same time: nothing was saved, try again."
            ),
        )
        return None
    messages.success(
        request,
        gettext("Rounds %(first)s to %(last)s reseated.")
        % {"first": done.from_round, "last": done.last_round},
    )
    return redirect("tournaments_manage:tournament", event.slug)


@login_required
@require_http_methods(["GET", "POST"])
def reseat(request: HttpRequest, slug: str) -> HttpResponse:
    """GET: the form. POST "preview": the ways out, each with its plan and quality beside the current
    one. POST "accept": apply the way out picked and go back to the rounds page."""
    event = _tournament_or_404(request.user, slug)
    options: list[reseating.ReseatPlan] = []
    if request.method != "POST":
        form = ReseatForm(initial={"from_round": tournament.next_open_round(event) or 1}, event=event)
    else:
        form = ReseatForm(request.POST, event=event)
        if form.is_valid() and "accept" in request.POST:
            done = _apply(request, event, form)
            if done is not None:
                return done
        data = form.cleaned_data if hasattr(form, "cleaned_data") else {}
        if "from_round" in data and "drops" in data:  # the change itself is readable: its ways out
            try:
                options = reseating.late_change_options(
                    event=event, from_round=data["from_round"], drops=list(data["drops"])
                )
            except ValidationError as exc:
                known = {str(e) for errors in form.errors.values() for e in errors}
                if not set(exc.messages) <= known:  # not already said by the refused "apply"
                    _errors_into(form, exc)
    context = {"event": event, "form": form, "options": options}
    status = 422 if request.method == "POST" and form.errors else 200
    return render(request, "tournaments/manage/reseat.html", context, status=status)
