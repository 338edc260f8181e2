"""The organiser's page of an event's webhooks: register a URL (its signing secret shown once, on the
answer), see each webhook's latest deliveries, revoke one."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy

from league.forms import add_service_errors
from league.models import Event
from league.permissions import managed_event_or_404
from league.views.post_only import post_only

from . import webhooks
from .models import Delivery, Webhook

LOG_LENGTH = 20
"""Deliveries listed per webhook, newest first."""


class WebhookForm(forms.Form):
    url = forms.URLField(
        label=gettext_lazy("URL"),
        max_length=300,
        assume_scheme="https",
        help_text=gettext_lazy("Where Tenbou sends each change, as a signed POST: a public address."),
    )
    kinds = forms.MultipleChoiceField(
        label=gettext_lazy("Events"), choices=Webhook.Kind.choices, widget=forms.CheckboxSelectMultiple
    )


def _page(
    request: HttpRequest, event: Event, form: WebhookForm, secret: str = "", status: int = 200
) -> HttpResponse:
    hooks = list(Webhook.objects.filter(event=event))
    for hook in hooks:
        hook.log = list(Delivery.objects.filter(webhook=hook).order_by("-created_at", "-pk")[:LOG_LENGTH])
    response = render(
        request,
        "api/manage/webhooks.html",
        {"event": event, "hooks": hooks, "form": form, "secret": secret},
        status=status,
    )
    if secret:
        response["Cache-Control"] = "no-store"
    return response


@login_required
def hooks(request: HttpRequest, slug: str) -> HttpResponse:
    event = managed_event_or_404(request.user, slug)
    if request.method != "POST":
        return _page(request, event, WebhookForm())
    form = WebhookForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            made = webhooks.register(event=event, url=data["url"], kinds=data["kinds"], user=request.user)
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            return _page(request, event, WebhookForm(), secret=made[1], status=201)
    return _page(request, event, form, status=422)


def _hooks_url(slug: str, pk: int) -> str:
    return reverse("api_manage:webhooks", args=[slug])


@login_required
@post_only(_hooks_url)
def revoke(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    event = managed_event_or_404(request.user, slug)
    hook = get_object_or_404(Webhook, pk=pk, event=event)
    if hook.revoked_at is None:
        webhooks.revoke(webhook=hook, user=request.user)
        messages.success(request, gettext("Webhook %(url)s revoked.") % {"url": hook.url})
    return redirect("api_manage:webhooks", event.slug)
