"""The players' side's pages: my page and its actions, my data, closing my account, the followed
players' fragment, the calendar feeds, and the organiser's page that links a profile to an account.

Every "me" view reads the player from the logged-in account (``services.player_of``), never from the
request: a player sees and changes only their own data.
"""

from __future__ import annotations

import json
from datetime import date, datetime
from typing import Any

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from league import phrases
from league.models import Player, Registration, Seat
from league.permissions import PRIVATE_FIELDS, LoginRequired, managed_player_or_404, visible_event_or_404
from league.views.actions import error_text, perform
from league.views.post_only import post_only
from scoring.models import SeatResult
from tournaments import guessing, links
from tournaments.views.table import client_ip

from . import calendar, selectors, services
from .forms import ClaimForm, CloseForm, LinkForm, PrivacyForm, VisibilityForm
from .models import AccountEntry, ClaimCode

MAX_FOLLOWED = 30
"""Players one browser may follow: the fragment is read on every visit of the home page."""
CLAIM_FAILURE_RATE = "10/m"
"""Wrong claim codes per address and minute (a code is 10 characters of 31: guessing one is hopeless, and
refusing it is cheap). Counted with the tables' wrong codes (``tournaments.guessing``), whose window of
a minute is also the one their clean-up keeps."""
CALENDAR_SALT = "accounts.calendar"

player_login_required = login_required(login_url="account_login")


def _me_url(*_args: Any, **_kwargs: Any) -> str:
    return reverse("accounts:me")


def _me_player(request: HttpRequest) -> Player:
    player = services.player_of(request.user)
    if player is None:
        raise Http404("No player profile is linked to this account.")
    return player


# -- my page -------------------------------------------------------------------------------------------


@never_cache
@player_login_required
def me(request: HttpRequest) -> HttpResponse:
    """My page, or (an account not linked yet) the form that claims a profile with a code."""
    player = services.player_of(request.user)
    if player is None:
        return render(request, "accounts/claim.html", {"form": ClaimForm()})
    page = selectors.my_page(player, request.user)
    token = signing.dumps({"u": request.user.pk, "k": _calendar_key(request.user)}, salt=CALENDAR_SALT)
    return render(
        request,
        "accounts/me.html",
        {
            "page": page,
            "player": player,
            "visibility_form": VisibilityForm(initial={"visibility": player.visibility}),
            "privacy_form": PrivacyForm(
                initial={f"public_{name}": getattr(player, f"public_{name}") for name in PRIVATE_FIELDS}
            ),
            "calendar_url": request.build_absolute_uri(reverse("accounts:my_calendar", args=[token])),
        },
    )


@never_cache
@player_login_required
@require_http_methods(["GET", "HEAD"])
def me_live(request: HttpRequest) -> HttpResponse:
    """My page's live table, polled by htmx while the page is open (empty once no round is open)."""
    player = services.player_of(request.user)
    live = selectors.live_table(player) if player is not None else None
    return render(request, "accounts/_live.html", {"live": live})


@post_only(_me_url)
@player_login_required
def claim(request: HttpRequest) -> HttpResponse:
    address = client_ip(request) or "unknown"
    if guessing.is_guessing(f"claim:{address}", CLAIM_FAILURE_RATE):
        messages.error(request, gettext("Too many wrong codes from this address: try again in a minute."))
        return redirect("accounts:me")
    form = ClaimForm(request.POST)

    def run(data: dict[str, Any]) -> str:
        try:
            player = services.claim_player(user=request.user, code=data["code"])
        except ValidationError as exc:
            if hasattr(exc, "error_dict") and "code" in exc.error_dict:
                guessing.count_failure(f"claim:{address}", CLAIM_FAILURE_RATE)
            raise
        return gettext("Welcome, %(player)s: your profile is linked to your account.") % {
            "player": player.display_name
        }

    return perform(request, run=run, back=reverse("accounts:me"), form=form)


@never_cache
@player_login_required
@require_http_methods(["GET", "HEAD", "POST"])
def claim_link(request: HttpRequest, token: str) -> HttpResponse:
    """The "claim your player page" link of a registration e-mail. A GET (a mail program may open links
    on its own) only shows what the link is for and a button; the POST links the account, when it has
    confirmed the address the link was sent to. A visitor logs in (or signs up) first and comes back."""
    if request.method == "POST":

        def run(_data: dict[str, Any]) -> str:
            player, linked = services.claim_by_email_link(user=request.user, token=token)
            if not linked:
                return gettext("%(player)s's profile was already linked to your account.") % {
                    "player": player.display_name
                }
            return gettext("Welcome, %(player)s: your profile is linked to your account.") % {
                "player": player.display_name
            }

        return perform(request, run=run, back=reverse("accounts:me"))
    error = ""
    player = None
    try:
        link = services.read_claim_link(token)
    except ValidationError as exc:
        error = error_text(exc)
    else:
        player = Player.objects.filter(pk=link.player_id).only("pk", "display_name", "user_id").first()
        if player is None:
            error = gettext("This player no longer exists.")
        elif player.user_id == request.user.pk:
            messages.info(
                request,
                gettext("%(player)s's profile was already linked to your account.")
                % {"player": player.display_name},
            )
            return redirect("accounts:me")
    return render(
        request,
        "accounts/claim_link.html",
        {"player": player, "error": error, "token": token},
        status=400 if error else 200,
    )


@post_only(_me_url)
@player_login_required
def visibility(request: HttpRequest) -> HttpResponse:
    form = VisibilityForm(request.POST)

    def run(data: dict[str, Any]) -> str:
        player = services.set_visibility(user=request.user, visibility=data["visibility"])
        return gettext("Your page is now: %(choice)s.") % {"choice": player.get_visibility_display()}

    return perform(request, run=run, back=reverse("accounts:me"), form=form)


@post_only(_me_url)
@player_login_required
def privacy(request: HttpRequest) -> HttpResponse:
    form = PrivacyForm(request.POST)

    def run(data: dict[str, Any]) -> str:
        services.set_privacy(
            user=request.user, public={name: data[f"public_{name}"] for name in PRIVATE_FIELDS}
        )
        return gettext("Your privacy choices are saved.")

    return perform(request, run=run, back=reverse("accounts:me"), form=form)


@post_only(_me_url)
@player_login_required
def confirm(request: HttpRequest, pk: int) -> HttpResponse:
    """I confirm my table's handed-in result with my own code, from my page: the code is the one of my
    seat, read from my account, so no one else's code can be sent from here."""
    player = _me_player(request)
    mine = next((c for c in selectors.my_codes(player) if c.game.pk == pk), None)
    if mine is None:
        raise Http404("Not one of my games waiting for confirmation.")
    link = links.active_link(mine.game)
    if link is None:
        raise Http404("This game has no active link.")
    try:
        made = links.confirm_by_player(link=link, code=mine.code, ip=client_ip(request))
    except links.LinkRefused as refusal:
        messages.error(request, refusal.message)
    except ValidationError as exc:
        messages.error(request, error_text(exc))
    else:
        if getattr(made, "already", False):
            messages.info(request, gettext("You had already confirmed this result."))
        else:
            messages.success(request, gettext("You confirmed the result."))
    return redirect("accounts:me")


# -- my data and my account ----------------------------------------------------------------------------


def _jsonable(value: Any) -> Any:
    if isinstance(value, datetime | date):
        return value.isoformat()
    return value


def my_data(user: Any) -> dict[str, Any]:
    """Everything Tenbou keeps about this account and its profile, as the download gives it."""
    from allauth.account.models import EmailAddress

    data: dict[str, Any] = {
        "exported_at": timezone.now().isoformat(),
        "account": {
            "username": user.username,
            "email": user.email,
            "date_joined": user.date_joined.isoformat(),
            "last_login": user.last_login.isoformat() if user.last_login else None,
            "email_addresses": [
                {"email": e.email, "verified": e.verified, "primary": e.primary}
                for e in EmailAddress.objects.filter(user=user).order_by("pk")
            ],
        },
        "player": None,
    }
    player = services.player_of(user)
    if player is None:
        return data
    data["player"] = {
        "id": player.pk,
        "display_name": player.display_name,
        "given_name": player.given_name,
        "family_name": player.family_name,
        "ema_number": player.ema_number,
        "country": player.country.code if player.country else "",
        "club": player.club.name if player.club else None,
        "visibility": player.visibility,
        "public_fields": {name: getattr(player, f"public_{name}") for name in PRIVATE_FIELDS},
        "tenhou_name": player.tenhou_name,
        "mahjongsoul_name": player.mahjongsoul_name,
        "mahjongsoul_id": player.mahjongsoul_id,
        "created_at": player.created_at.isoformat(),
    }
    data["registrations"] = [
        {
            "event": r.event.name,
            "event_slug": r.event.slug,
            "substitute": r.is_substitute,
            "withdrawn_at": _jsonable(r.withdrawn_at),
            "created_at": r.created_at.isoformat(),
        }
        for r in Registration.objects.filter(player=player).select_related("event").order_by("pk")
    ]
    data["seats"] = [
        {
            "game": s.hanchan_id,
            "event": s.hanchan.event.slug,
            "round": s.hanchan.round_number,
            "table": s.hanchan.table_number,
            "seat": s.seat,
            "status": s.hanchan.status,
            "final_score": s.final_score,
        }
        for s in Seat.objects.filter(Q(player=player) | Q(on_behalf_of=player))
        .select_related("hanchan__event")
        .order_by("hanchan_id", "seat")
    ]
    data["results"] = [
        {
            "game": r.hanchan_id,
            "event": r.event.slug,
            "place": r.place,
            "score": r.score,
            "uma": r.uma,
            "oka": r.oka,
            "result": r.result,
            "finished_at": _jsonable(r.finished_at),
        }
        for r in SeatResult.objects.filter(player=player).select_related("event").order_by("hanchan_id")
    ]
    data["account_history"] = [
        {"at": e.at.isoformat(), "action": e.action, "summary": phrases.render(e.summary_data or e.summary)}
        for e in AccountEntry.objects.filter(player=player).order_by("at", "pk")
    ]
    return data


@never_cache
@player_login_required
def data_download(request: HttpRequest) -> HttpResponse:
    body = json.dumps(my_data(request.user), cls=DjangoJSONEncoder, ensure_ascii=False, indent=2)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="tenbou-my-data.json"'
    return response


@never_cache
@player_login_required
@require_http_methods(["GET", "HEAD", "POST"])
def close(request: HttpRequest) -> HttpResponse:
    """Close my account: asks for the password, then deletes the account; the results stay."""
    form = CloseForm(request.POST if request.method == "POST" else None)
    status = 200
    if request.method == "POST":
        if form.is_valid() and request.user.check_password(form.cleaned_data["password"]):
            try:
                services.close_account(user=request.user)
            except ValidationError as exc:
                messages.error(request, error_text(exc))
                return redirect("accounts:me")
            logout(request)
            messages.success(
                request, gettext("Your account is closed. Your results stay in the events you played.")
            )
            return redirect("home")
        if form.is_valid():
            form.add_error("password", gettext("Password: this is not your password."))
        status = 422
    return render(request, "accounts/close.html", {"form": form}, status=status)


# -- following without an account ----------------------------------------------------------------------


def _ids(raw: str) -> list[int]:
    found: list[int] = []
    for part in (raw or "").split(",")[: MAX_FOLLOWED * 2]:
        part = part.strip()
        if part.isascii() and part.isdigit() and len(part) < 12 and int(part) not in found:
            found.append(int(part))
    return found[:MAX_FOLLOWED]


@require_http_methods(["GET", "HEAD"])
def followed(request: HttpRequest) -> HttpResponse:
    """The home page's fragment for the players a browser follows (``?ids=3,14,15``): each one's next
    table and latest result. Only public players and public results: anyone may ask."""
    players = selectors.followed(_ids(request.GET.get("ids", "")))
    upcoming = selectors.next_tables(players, public_only=True) if players else {}
    latest = selectors.latest_results(players) if players else {}
    rows = [
        {"player": p, "next": (upcoming.get(p.pk) or [None])[0], "latest": latest.get(p.pk)} for p in players
    ]
    return render(request, "accounts/_followed.html", {"rows": rows})


# -- calendars -----------------------------------------------------------------------------------------


def _ics(body: bytes, name: str) -> HttpResponse:
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{name}.ics"'
    return response


@require_http_methods(["GET", "HEAD"])
def event_calendar(request: HttpRequest, slug: str) -> HttpResponse:
    """An event's rounds, for any visitor who may see the event (a calendar app never logs in, so a
    members-only event's feed is a 404 to it)."""
    try:
        event = visible_event_or_404(request.user, slug)
    except LoginRequired:
        raise Http404("No such event.") from None
    return _ics(calendar.event_calendar(event), event.slug)


def _calendar_key(user: Any) -> str:
    """A part of the private calendar address that changes with the account's password: a player whose
    address went too far changes their password, and the old address opens nothing."""
    return salted_hmac(CALENDAR_SALT, user.password).hexdigest()[:16]


@require_http_methods(["GET", "HEAD"])
def my_calendar(request: HttpRequest, token: str) -> HttpResponse:
    """My own schedule (table, wind) at a private address: a calendar app cannot log in, so the address
    carries a signed token naming the account (shown on my page only). A closed account's address, an
    address from before a password change, or an account no longer linked to a profile, opens nothing."""
    try:
        data = signing.loads(token[:300], salt=CALENDAR_SALT)
        user_id, key = int(data["u"]), str(data["k"])
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        raise Http404("Unknown calendar.") from None
    player = Player.objects.select_related("user").filter(user_id=user_id).first()
    if player is None or not constant_time_compare(key, _calendar_key(player.user)):
        raise Http404("Unknown calendar.")
    return _ics(calendar.player_calendar(player), "tenbou-my-tables")


# -- the organiser links a profile to an account -------------------------------------------------------


def _account_url(pk: int) -> str:
    return reverse("accounts:player_account", args=[pk])


@never_cache
@login_required
def player_account(request: HttpRequest, pk: int) -> HttpResponse:
    player = managed_player_or_404(request.user, pk)
    code = ClaimCode.objects.filter(player=player, used_at__isnull=True).first()
    return render(
        request,
        "accounts/manage/player_account.html",
        {
            "player": player,
            "code": code,
            "claim_days": services.CLAIM_DAYS,
            "link_form": LinkForm(),
            "entries": [
                (e, phrases.render(e.summary_data or e.summary))
                for e in AccountEntry.objects.filter(player=player).select_related("user")[:20]
            ],
        },
    )


@post_only(_account_url)
@login_required
def player_account_link(request: HttpRequest, pk: int) -> HttpResponse:
    player = managed_player_or_404(request.user, pk)

    def run(data: dict[str, Any]) -> str:
        services.link_account(player=player, email=data["email"], user=request.user)
        return gettext("%(player)s's profile is linked to the account.") % {"player": player.display_name}

    return perform(request, run=run, back=_account_url(pk), form=LinkForm(request.POST))


@post_only(_account_url)
@login_required
def player_account_unlink(request: HttpRequest, pk: int) -> HttpResponse:
    player = managed_player_or_404(request.user, pk)

    def run(_data: dict[str, Any]) -> str:
        services.unlink_account(player=player, user=request.user)
        return gettext("%(player)s's profile is no longer linked to an account.") % {
            "player": player.display_name
        }

    return perform(request, run=run, back=_account_url(pk))


@post_only(_account_url)
@login_required
def player_account_code(request: HttpRequest, pk: int) -> HttpResponse:
    player = managed_player_or_404(request.user, pk)

    def run(_data: dict[str, Any]) -> str:
        made = services.issue_claim_code(player=player, user=request.user)
        return gettext("New claim code for %(player)s: %(code)s") % {
            "player": player.display_name,
            "code": made.code,
        }

    return perform(request, run=run, back=_account_url(pk))
