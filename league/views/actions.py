"""The shape of an organiser's action button: a small form, one service, a message, back to the page.

Undo, finish, void, open a round, swap two players, start the clock … each is a POST from a form on a
page; the view validates the form, calls one service, says what happened in a flash message and goes
back to the page. :func:`perform` is that shape, written once for every app (the views of scoring and
tournaments build on league's, never the other way round), so that a refused form always names its
fields the same way and a refusal never escapes as a server error.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext

Refusal = Callable[[Any], "HttpResponse | str"]
"""What to do when the service refuses with an exception other than ``ValidationError``: the page to
answer with, or the message to flash before going back."""


def error_text(exc: ValidationError) -> str:
    """A service's refusal as one line (its messages name the field and the rule)."""
    return " ".join(exc.messages)


def form_errors_text(form: forms.Form) -> str:
    """Every error of an invalid form, each after its field's label ("Played on: Enter a valid date.")."""
    parts = []
    for name, errors in form.errors.items():
        field = form.fields.get(name)
        label = str(field.label or name.replace("_", " ").capitalize()) if field is not None else ""
        text = " ".join(str(e) for e in errors)
        parts.append(gettext("%(label)s: %(error)s") % {"label": label, "error": text} if label else text)
    return " ".join(parts)


def perform(
    request: HttpRequest,
    *,
    run: Callable[[dict[str, Any]], str],
    back: str,
    form: forms.Form | None = None,
    invalid: str = "",
    refusals: Mapping[type[Exception], Refusal] | None = None,
) -> HttpResponse:
    """Validate ``form`` (if any), call ``run`` with its cleaned data — the service, returning the
    message that says it was done —, flash the outcome and redirect to ``back``.

    An invalid form is said with ``invalid`` first, then each field's error after its label; a
    ``ValidationError`` from the service with its own messages; another exception listed in
    ``refusals`` as its handler says (a page of its own, e.g. a 409 for a game changed meanwhile, or a
    message)."""
    if form is not None and not form.is_valid():
        messages.error(request, " ".join(part for part in (invalid, form_errors_text(form)) if part))
        return redirect(back)
    handlers = dict(refusals or {})
    try:
        done = run(form.cleaned_data if form is not None else {})
    except ValidationError as exc:
        messages.error(request, error_text(exc))
    except tuple(handlers) as exc:
        handler = next(h for kind, h in handlers.items() if isinstance(exc, kind))
        answer = handler(exc)
        if isinstance(answer, HttpResponse):
            return answer
        messages.error(request, answer)
    else:
        messages.success(request, done)
    return redirect(back)
