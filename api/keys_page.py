"""The organiser's page of an event's API keys: the keys (never their secret), a form to create one —
whose secret is shown on the answer to that form, once — and a button to revoke each."""

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

from .keys import create_key, revoke_key
from .models import ApiKey


class KeyForm(forms.Form):
    name = forms.CharField(
        label=gettext_lazy("Name"),
        max_length=40,
        help_text=gettext_lazy("Who or what uses the key (a bot, a club's website): the history names it."),
    )
    scopes = forms.MultipleChoiceField(
        label=gettext_lazy("Scopes"),
        choices=ApiKey.Scope.choices,
        widget=forms.CheckboxSelectMultiple,
    )


def _page(
    request: HttpRequest, event: Event, form: KeyForm, secret: str = "", status: int = 200
) -> HttpResponse:
    keys = ApiKey.objects.filter(event=event).select_related("created_by")
    response = render(
        request,
        "api/manage/keys.html",
        {"event": event, "keys": keys, "form": form, "secret": secret},
        status=status,
    )
    if secret:  # a page showing a secret is kept by no cache, the browser's included
        response["Cache-Control"] = "no-store"
    return response


@login_required
def keys(request: HttpRequest, slug: str) -> HttpResponse:
    event = managed_event_or_404(request.user, slug)
    if request.method != "POST":
        return _page(request, event, KeyForm())
    form = KeyForm(request.POST)
    if form.is_valid():
        try:
            data = form.cleaned_data
            made = create_key(event=event, name=data["name"], scopes=data["scopes"], user=request.user)
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            return _page(request, event, KeyForm(), secret=made.secret, status=201)
    return _page(request, event, form, status=422)


def _keys_url(slug: str, pk: int) -> str:
    return reverse("api_manage:keys", args=[slug])


@login_required
@post_only(_keys_url)
def revoke(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    event = managed_event_or_404(request.user, slug)
    key = get_object_or_404(ApiKey, pk=pk, event=event)
    if key.revoked_at is None:
        revoke_key(key=key, user=request.user)
        messages.success(request, gettext("API key %(name)s revoked.") % {"name": key.name})
    return redirect("api_manage:keys", event.slug)
