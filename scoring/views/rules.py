"""The organisers' page that changes an event's rules once games are recorded — and how a substitute's
game counts, the other setting its results depend on.

A GET with a proposal (the rules form's fields in the query string — the league edit page redirects
here with one) previews it: every game replayed under the new rules inside a rolled-back savepoint, the
settings that differ and the standings lines that change, or the game, hand and rule that refuse it. A
POST of the same proposal (hidden inputs) with ``confirm`` saves it; a reason is required once a game is
finished. Someone else's event answers 404.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from league.engine_text import preset_label, rules_in_words
from league.forms import EventRulesForm, RulesForm, chosen_preset
from league.models import Event, Hanchan
from league.permissions import managed_event_or_404
from scoring.forms import ReasonForm
from scoring.services import rules as rules_service


def _proposal(request: HttpRequest) -> QueryDict | None:
    """The submitted rules, if any: the POST, or a GET that carries the settings (not only a preset)."""
    if request.method == "POST":
        return request.POST
    if "start_points" in request.GET:
        return request.GET
    return None


@login_required
@require_http_methods(["GET", "POST"])
def event_rules(request: HttpRequest, slug: str) -> HttpResponse:
    """Preview a rules change of an event (GET with the proposal) and confirm it (POST)."""
    event = managed_event_or_404(request.user, slug)
    data = _proposal(request)
    if data is None:
        preset = request.GET.get("preset")
        form = EventRulesForm(event=event, preset=chosen_preset(preset) if preset else None)
        if getattr(request, "htmx", False):
            return render(request, "league/manage/_rules_fieldset.html", {"form": form})
        return _page(request, event, form)
    form = EventRulesForm(data, event=event)
    # The reason goes through a bounded form field (at most 300 characters, no NUL, which the database
    # refuses): a raw value once reached the history's insert.
    reason_form = ReasonForm({"reason": data.get("reason") or ""})
    reason_ok = reason_form.is_valid()
    reason = reason_form.cleaned_data["reason"] if reason_ok else ""
    if not form.is_valid():
        return _page(request, event, form, status=422 if request.method == "POST" else 200)
    rules = form.ruleset()
    substitutes = form.substitutes()
    if rules.to_dict() == event.rules.to_dict() and substitutes == rules_service.substitutes_of(event):
        form.add_error(
            None, gettext("These are the event's current rules: change a setting to see what it does.")
        )
        return _page(request, event, form, status=422 if request.method == "POST" else 200)
    errors: list[str] = []
    reason_errors: list[str] = [] if reason_ok else list(reason_form.errors["reason"])
    if request.method == "POST" and "confirm" in data and reason_ok:
        try:
            rules_service.change_rules(
                event=event, ruleset=rules, substitutes=substitutes, user=request.user, reason=reason
            )
        except ValidationError as exc:
            if hasattr(exc, "error_dict") and "reason" in exc.error_dict:
                reason_errors = exc.message_dict["reason"]
            else:
                errors = exc.messages
        else:
            messages.success(
                request, gettext("The new rules are saved and every game is replayed under them.")
            )
            return redirect("league_manage:event", slug=event.slug)
    preview = None
    if not errors:
        try:
            preview = rules_service.preview_rules_change(event, rules, substitutes)
        except ValidationError as exc:
            errors = exc.messages
    status = 422 if errors or reason_errors else 200
    return _page(
        request,
        event,
        form,
        preview=preview,
        errors=errors,
        reason=reason,
        reason_errors=reason_errors,
        status=status,
    )


def _page(
    request: HttpRequest, event: Event, form: RulesForm, *, status: int = 200, **context: Any
) -> HttpResponse:
    finished = Hanchan.objects.filter(event=event, status=Hanchan.Status.FINISHED).count()
    return render(
        request,
        "scoring/manage/event_rules.html",
        {
            "event": event,
            "form": form,
            "rules": rules_in_words(event.rules),
            "preset_label": preset_label(event.rules.preset),
            "finished": finished,
            "games": Hanchan.objects.filter(event=event).count(),
            **context,
        },
        status=status,
    )
