"""The unsubscribe page every e-mail links to: no login, the signed address in the link is the key.

A GET shows what the link will do and its buttons (mail scanners open links: they must not unsubscribe
anyone); a button's POST, or a mail program's one-click ``List-Unsubscribe-Post``, does it. An e-mail
about one kind of message (``?kind=seating``) offers "only this kind" beside "everything"; the one-click
POST (no ``what``) stops everything, as the header promises. The POST needs no CSRF token: the signed
link is the authority, and all it can do is stop e-mails to the address it names.
"""

from __future__ import annotations

from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import cache_control
from django.views.decorators.csrf import csrf_exempt

from . import outbox, preferences
from .kinds import KINDS, label


@csrf_exempt
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    address = outbox.address_of(token)
    if address is None:
        raise Http404("unknown unsubscribe link")
    kind = request.GET.get("kind", "")
    kind = kind if kind in KINDS else ""
    context = {"address": address, "kind": kind, "kind_label": label(kind) if kind else ""}
    if request.method == "POST":
        if kind and request.POST.get("what") == "kind":
            preferences.mute(address, kind)
            return render(request, "notifications/unsubscribe.html", {**context, "muted": True})
        outbox.unsubscribe(address)
        return render(request, "notifications/unsubscribe.html", {**context, "done": True})
    muted = bool(kind) and kind in preferences.muted_kinds(address)
    done = outbox.is_unsubscribed(address)
    return render(request, "notifications/unsubscribe.html", {**context, "done": done, "muted": muted})


@cache_control(max_age=0, public=True)
def service_worker(request: HttpRequest) -> HttpResponse:
    """``static/notifications/sw.js`` from the root (a worker's scope is its own path and below): a
    static file, no inline script, so the Content-Security-Policy ("script-src 'self'") holds."""
    path = finders.find("notifications/sw.js")
    if not path:
        raise Http404("no service worker")
    with open(path, "rb") as worker:  # noqa: PTH123 -- a small file, read whole
        response = HttpResponse(worker.read(), content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    return response
