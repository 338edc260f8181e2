"""Actions that only a form may trigger (POST), whose address a browser may still open.

A restored tab, a reload after a lost connection, or an address copied from the bar opens an action's
URL with a GET. Answering it with a blank "405 Method Not Allowed" strands the organiser (or a table's
phone) on an empty page; :func:`post_only` sends the browser to the page the action belongs to instead
(303 See Other), where the form is. Other methods still get their 405.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed, HttpResponseRedirect

View = Callable[..., HttpResponse]


class HttpResponseSeeOther(HttpResponseRedirect):
    """303: "the result is elsewhere, fetch it with a GET" — what a GET on an action's address is told."""

    status_code = 303


def post_only(back: Callable[..., str]) -> Callable[[View], View]:
    """Let only POST reach the view; a GET or HEAD is redirected to ``back(**url_kwargs)``, the URL of
    the page the action belongs to (computed from the action's own URL arguments: nothing is read or
    written, so no permission is checked here — the page redirected to checks its own)."""

    def decorate(view: View) -> View:
        @wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method in ("GET", "HEAD"):
                return HttpResponseSeeOther(back(*args, **kwargs))
            if request.method != "POST":
                return HttpResponseNotAllowed(["POST"])
            return view(request, *args, **kwargs)

        return wrapped

    return decorate
