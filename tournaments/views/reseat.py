"""Organisers' late changes: preview the reseating of the rounds left after a late arrival, a drop-out
or one table fewer, with its quality beside the current plan's, then accept it.

Thin: the form is parsed here, :mod:`tournaments.reseating` plans and writes.
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

from league.collation import order_by_name
from league.models import Event, Player
from tournaments import reseating
from tournaments import services as tournament
from tournaments.views.manage import _tournament_or_404

CHANGES = [
    ("arrival", gettext_lazy("A late arrival joins (register them first)")),
    ("drop", gettext_lazy("A player drops out")),
    ("table", gettext_lazy("One table fewer")),
]


class ReseatForm(forms.Form):
    change = forms.ChoiceField(choices=CHANGES, label=gettext_lazy("Late change"))
    from_round = forms.IntegerField(min_value=1, max_value=20, label=gettext_lazy("From round"))
    player = forms.ModelChoiceField(
        queryset=Player.objects.none(),
        required=False,
        label=gettext_lazy("Player who drops out"),
    )
    reason = forms.CharField(max_length=300, required=False, label=gettext_lazy("Reason"))
    digest = forms.CharField(max_length=64, required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, event: Event, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = order_by_name(
            Player.objects.filter(
                registrations__event=event,
                registrations__is_substitute=False,
                registrations__dropped_out=False,
                registrations__withdrawn_at__isnull=True,
            )
        )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("change") == "drop" and not data.get("player"):
            self.add_error("player", gettext("Choose the player who drops out."))
        return data


def _plan_arguments(event: Event, data: dict[str, Any]) -> dict[str, Any]:
    """The service's keyword arguments for the change the organiser picked."""
    arguments: dict[str, Any] = {"event": event, "from_round": data["from_round"]}
    if data["change"] == "drop":
        arguments["drop"] = data["player"]
    elif data["change"] == "table":
        current = event.hanchans.filter(round_number=data["from_round"]).count()
        arguments["tables"] = max(1, current - 1)
    return arguments


def _errors_into(form: ReseatForm, exc: ValidationError) -> None:
    """A service's refusal shown on the form: on the field it names when the form has it."""
    if hasattr(exc, "error_dict"):
        for name, errors in exc.message_dict.items():
            form.add_error(name if name in form.fields else None, errors)
    else:
        form.add_error(None, exc.messages)


@login_required
def reseat(request: HttpRequest, slug: str) -> HttpResponse:
    """GET: the form. POST "preview": the plan and its quality beside the current one. POST "accept":
    write the previewed plan and go back to the rounds page."""
    event = _tournament_or_404(request.user, slug)
    plan = None
    if request.method != "POST":
        form = ReseatForm(initial={"from_round": tournament.next_open_round(event) or 1}, event=event)
    else:
        form = ReseatForm(request.POST, event=event)
        accepting = "accept" in request.POST
        if form.is_valid():
            data = form.cleaned_data
            try:
                if accepting:
                    if not data["reason"].strip():
                        raise ValidationError({"reason": gettext("Say why the rounds are reseated.")})
                    done = reseating.reseat_remaining(
                        **_plan_arguments(event, data),
                        user=request.user,
                        reason=data["reason"],
                        digest=data["digest"] or None,
                    )
                    messages.success(
                        request,
                        gettext("Rounds %(first)s to %(last)s reseated.")
                        % {"first": done.from_round, "last": done.last_round},
                    )
                    return redirect("tournaments_manage:tournament", event.slug)
                plan = reseating.plan_reseat(**_plan_arguments(event, data))
                form = ReseatForm(
                    initial={**{k: v for k, v in data.items() if k != "digest"}, "digest": plan.digest},
                    event=event,
                )
            except ValidationError as exc:
                _errors_into(form, exc)
            except IntegrityError:
                form.add_error(
                    None,
                    gettext(
                        "The seating was changed by someone else at the same time: nothing was saved, "
                        "try again."
                    ),
                )
    return render(request, "tournaments/manage/reseat.html", {"event": event, "form": form, "plan": plan})
