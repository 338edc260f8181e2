"""The public side of registration: an event's form, and each sign-up's personal page.

The personal page is reached by the token in its link (the confirmation e-mail, the check-in QR code):
whoever holds it sees that one sign-up, withdraws it or checks it in, without a login. Every refusal is a
page with its reason (422), never a server error.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext

from league.forms import add_service_errors
from league.permissions import visible_event_or_404
from league.views.actions import error_text
from league.views.post_only import post_only
from notifications import preferences as message_preferences
from notifications import push
from notifications.kinds import KINDS
from registration import selectors, services
from registration.forms import SignUpForm
from registration.models import SignUp
from scoring.views.public import login_for_members_only
from tournaments.qr import qr_svg


def _signup_url(token: str, **_kwargs: object) -> str:
    return reverse("registration:signup", args=[token])


@login_for_members_only
def register(request: HttpRequest, slug: str) -> HttpResponse:
    event = visible_event_or_404(request.user, slug)
    opening = selectors.opening_of(event)
    if opening is None:
        raise Http404("registration is not open for this event")
    status = 200
    if request.method == "POST":
        form = SignUpForm(request.POST, opening=opening)
        if form.is_valid():
            data = form.cleaned_data
            try:
                signup = services.sign_up(
                    event=event,
                    name=data["name"],
                    ema_number=data.get("ema_number", ""),
                    country=data.get("country", ""),
                    club=data.get("club", ""),
                    email=data.get("email", ""),
                    language=translation.get_language() or "",
                    form_key=data.get("form_key", ""),
                )
            except ValidationError as exc:
                add_service_errors(form, exc)
            else:
                return redirect(signup.get_absolute_url())
        status = 422
    else:
        form = SignUpForm(opening=opening)
    now = timezone.now()
    confirmed = SignUp.objects.filter(event=event, status=SignUp.Status.CONFIRMED).count()
    context = {
        "event": event,
        "opening": opening,
        "form": form,
        "not_yet": now < opening.opens_at,
        "closed": now >= opening.closes_at,
        "full": confirmed >= opening.capacity and not opening.approval,
        "places_left": max(opening.capacity - confirmed, 0),
    }
    return render(request, "registration/public/register.html", context, status=status)


def _signup_or_404(token: str) -> SignUp:
    return get_object_or_404(SignUp.objects.select_related("event", "event__club"), token=token)


def signup(request: HttpRequest, token: str) -> HttpResponse:
    signup = _signup_or_404(token)
    url = request.build_absolute_uri(signup.get_absolute_url())
    opens = services.check_in_opens(signup.event)
    context = {
        "signup": signup,
        "event": signup.event,
        "waiting_place": selectors.waiting_place(signup),
        "qr": qr_svg(url, title=gettext("Check-in code of %(name)s") % {"name": signup.name}, scale=4),
        "personal_url": url,
        "can_check_in": signup.status == SignUp.Status.CONFIRMED
        and signup.checked_in_at is None
        and (opens is None or timezone.now() >= opens),
        "can_withdraw": signup.status
        in (SignUp.Status.PENDING, SignUp.Status.CONFIRMED, SignUp.Status.WAITING),
        **_messages_context(signup),
    }
    response = render(request, "registration/public/signup.html", context)
    response["Cache-Control"] = "private, no-store"
    # The token is in the address: never sent to another site (same-origin keeps the forms' Origin header,
    # which the CSRF check needs; no-referrer would make it "null").
    response["Referrer-Policy"] = "same-origin"
    return response


def _act(request: HttpRequest, token: str, run: Callable[[SignUp], str]) -> HttpResponse:
    """A personal page's button: the service, its message, back to the page (a refusal is a message)."""
    signup = _signup_or_404(token)
    try:
        done = run(signup)
    except ValidationError as exc:
        messages.error(request, error_text(exc))
    else:
        messages.success(request, done)
    return redirect(signup.get_absolute_url())


@post_only(_signup_url)
def withdraw(request: HttpRequest, token: str) -> HttpResponse:
    def run(signup: SignUp) -> str:
        services.withdraw(signup=signup)
        return gettext("You have withdrawn from %(event)s.") % {"event": signup.event.name}

    return _act(request, token, run)


@post_only(_signup_url)
def check_in(request: HttpRequest, token: str) -> HttpResponse:
    def run(signup: SignUp) -> str:
        services.check_in(signup=signup)
        return gettext("Checked in: welcome to %(event)s!") % {"event": signup.event.name}

    return _act(request, token, run)


def _messages_context(signup: SignUp) -> dict[str, object]:
    """The personal page's choice of messages (by kind) and its push button (when the site has VAPID
    keys): both need the registration's e-mail address, which is what they are kept by."""
    if not signup.email:
        return {"kinds": []}
    muted = message_preferences.muted_kinds(signup.email)
    return {
        "kinds": [(kind, label, kind not in muted) for kind, label in KINDS.items()],
        "vapid_public_key": settings.VAPID_PUBLIC_KEY if push.enabled() else "",
    }


@post_only(_signup_url)
def preferences(request: HttpRequest, token: str) -> HttpResponse:
    """The kinds of message ticked on the personal page are those its address gets from now on."""

    def run(signup: SignUp) -> str:
        if not signup.email:
            raise ValidationError(gettext("Messages go to the registration's e-mail address: it has none."))
        message_preferences.set_wanted(signup.email, request.POST.getlist("kinds"))
        return gettext("Your choice of messages is saved.")

    return _act(request, token, run)


@post_only(_signup_url)
def push_subscribe(request: HttpRequest, token: str) -> HttpResponse:
    """The push button's subscription (``static/notifications/push.js``), for the registration's address.
    JSON answers: the script says "done" or "failed"."""
    signup = _signup_or_404(token)
    if not push.enabled():
        return JsonResponse({"error": gettext("Push messages are not set up on this site.")}, status=422)
    try:
        push.subscribe(
            address=signup.email,
            endpoint=request.POST.get("endpoint", ""),
            p256dh=request.POST.get("p256dh", ""),
            auth=request.POST.get("auth", ""),
            language=signup.language,
        )
    except ValidationError as exc:
        return JsonResponse({"error": error_text(exc)}, status=422)
    return JsonResponse({"ok": True}, status=201)
