"""The pages a table opens with its entry link (``/t/<token>/…``): its own game, nothing else.

No account: the token in the URL is the key, so every view starts by resolving it (an unknown, revoked
or closed link gets a page that says so, with a 404/403/410 status, never a server error) and then works
on that link's game only. The entry reuses scoring's forms, templates and — through ``tournaments.links``
— services, so the table's entry validates, previews and guards against double submits exactly as the
organiser's does. Every endpoint is rate-limited by client address: a generous limit for the traffic of
a room of tables (often behind one address), and a strict one on wrong tokens and codes, which is what
guessing looks like — counted in the database (``tournaments/guessing.py``), so that it holds whatever
the cache: per-process local memory or ``dummy://``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.module_loading import import_string
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods
from django_ratelimit.core import get_usage

from league.engine_text import wind_name
from league.forms import add_service_errors
from league.models import Event, Hanchan
from league.views.post_only import post_only
from scoring import engine, services
from scoring.forms import FinalScoresForm, HandForm, ReasonForm
from scoring.selectors import game_view
from scoring.views import entry
from tournaments import guessing, links
from tournaments.forms import PlayerCodeForm, RefereeForm, TableCodeForm
from tournaments.models import SeatConfirmation

DEFAULT_RATE = "600/m"  # every request to a token page, per client address
DEFAULT_FAILURE_RATE = guessing.DEFAULT_RATE  # wrong tokens and codes, per client address


# -- who is asking, and how often -----------------------------------------------------------------------


def client_ip(request: HttpRequest) -> str | None:
    """The client's address as the site's trusted proxies report it (``config.proxy.client_ip``, which
    django-axes uses too). Reached through the setting that names it, because ``tournaments`` sits below
    ``config`` in the layers and may not import it."""
    path = getattr(settings, "AXES_CLIENT_IP_CALLABLE", None)
    if path:
        return import_string(path)(request)
    return request.META.get("REMOTE_ADDR")


def _ip_key(group: str, request: HttpRequest) -> str:
    return client_ip(request) or "unknown"


def _rate(group: str, request: HttpRequest) -> str:
    return getattr(settings, "TABLE_LINK_RATE", DEFAULT_RATE)


def _failure_rate(group: str, request: HttpRequest) -> str:
    return getattr(settings, "TABLE_LINK_FAILURE_RATE", DEFAULT_FAILURE_RATE)


def _guessing(request: HttpRequest) -> bool:
    """Whether this address has used up its wrong tokens and codes for now (counted by ``_failed`` in
    the database, whatever the cache: ``tournaments/guessing.py``)."""
    return guessing.is_guessing(_ip_key("", request), _failure_rate("", request))


def _failed(request: HttpRequest) -> None:
    """Count one wrong token or code against this address."""
    guessing.count_failure(_ip_key("", request), _failure_rate("", request))


def _flooding(request: HttpRequest) -> bool:
    usage = get_usage(request, group="table-link", key=_ip_key, rate=_rate, increment=True)
    return usage is not None and usage["should_limit"]


def _too_many(request: HttpRequest) -> HttpResponse:
    response = render(request, "tournaments/table/too_many.html", status=429)
    response["Retry-After"] = "60"
    return response


def _refused(request: HttpRequest, refusal: links.LinkRefused) -> HttpResponse:
    if refusal.reason == "unknown":
        _failed(request)
    return render(
        request,
        "tournaments/table/refused.html",
        {"message": refusal.message, "reason": refusal.reason, "code_form": TableCodeForm()},
        status=refusal.status,
    )


def rate_limited(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Answer 429 when the address sends too much, or has guessed too often."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if _guessing(request) or _flooding(request):
            return _too_many(request)
        return view(request, *args, **kwargs)

    return wrapped


def token_view(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A page of one link: rate-limited, never cached, given the access its token opens (or the page
    saying why it opens nothing — also when the link is revoked while the request is on its way)."""

    @never_cache
    @rate_limited
    @wraps(view)
    def wrapped(request: HttpRequest, token: str) -> HttpResponse:
        try:
            access = links.resolve(token)
            response = view(request, access)
        except links.LinkRefused as refusal:
            return _refused(request, refusal)
        response["X-Robots-Tag"] = "noindex, nofollow"
        return response

    return wrapped


# -- the page -------------------------------------------------------------------------------------------


def _urls(token: str) -> dict[str, str]:
    names = (
        "table",
        "table_hand",
        "table_preview",
        "table_undo",
        "table_finish",
        "table_scores",
        "table_referee",
        "table_confirm",
    )
    return {name: reverse(f"tournaments:{name}", args=[token]) for name in names}


def _page(
    request: HttpRequest,
    access: links.TableAccess,
    *,
    hand_form: HandForm | None = None,
    scores_form: FinalScoresForm | None = None,
    undo_form: ReasonForm | None = None,
    finish_form: ReasonForm | None = None,
    referee_form: RefereeForm | None = None,
    code_form: PlayerCodeForm | None = None,
    status: int = 200,
) -> HttpResponse:
    game = access.game
    view = game_view(game)
    event: Event = game.event
    context: dict[str, Any] = {
        "access": access,
        "event": event,
        "hanchan": game,
        "game": view,
        "round": access.round,
        "urls": _urls(access.link.token),
        "can_enter": access.can_enter,
        "referee_form": referee_form or RefereeForm(),
        "version": game.version,
        "given_back": links.given_back(game),
    }
    if access.can_enter:
        if game.entry_mode == Hanchan.EntryMode.HANDS:
            context["form"] = hand_form or entry.hand_form(view)
            context["undo_form"] = undo_form or ReasonForm(initial={"version": game.version})
            context["finish_form"] = finish_form or ReasonForm(initial={"version": game.version})
        else:
            context["scores_form"] = scores_form or entry.final_scores_form(view, game)
            context["expected_sum"] = engine.expected_total(view.rules, 0)
    if not access.can_enter:
        # An entry refused because the game was handed in meanwhile: its form is no longer on the page,
        # so its errors are shown at the top instead of being lost.
        sent = (hand_form, scores_form, undo_form, finish_form)
        context["refused"] = [e for form in sent if form is not None for e in form.non_field_errors()]
    if game.submitted_at is not None and event.confirmation == Event.Confirmation.PLAYERS:
        confirmations = {c.seat: c for c in SeatConfirmation.objects.filter(link=access.link)}
        context["confirmations"] = [
            {
                "wind": wind_name(seat.seat),
                "name": seat.player.display_name,
                "confirmed": confirmations.get(seat.seat) is not None
                and confirmations[seat.seat].confirmed_at is not None,
            }
            for seat in view.seats
        ]
        context["code_form"] = code_form or PlayerCodeForm()
    return render(request, "tournaments/table/game.html", context, status=status)


def _changed(request: HttpRequest, access: links.TableAccess, exc: services.GameChanged) -> HttpResponse:
    """Someone else (the organiser, another phone at the table) changed the game first: show it now."""
    messages.error(request, str(exc))
    access.game.refresh_from_db()
    return _page(request, access, status=409)


def _back(access: links.TableAccess) -> HttpResponse:
    return redirect("tournaments:table", access.link.token)


def _table_url(token: str) -> str:
    """Where a GET on one of the table's actions goes (a restored tab on a phone): the table's page,
    which resolves the token itself (see ``post_only``)."""
    return reverse("tournaments:table", args=[token])


@token_view
@require_http_methods(["GET", "HEAD"])
def table(request: HttpRequest, access: links.TableAccess) -> HttpResponse:
    return _page(request, access)


@post_only(_table_url)
@token_view
def hand(request: HttpRequest, access: links.TableAccess) -> HttpResponse:
    view = game_view(access.game)
    form = entry.hand_form(view, request.POST)
    if form.is_valid() and form.hand is not None:
        try:
            row = links.enter_hand(
                link=access.link,
                hand=form.hand,
                ip=client_ip(request),
                expected_version=form.cleaned_data.get("version"),
                tiles=entry.hand_tiles(form),
                entry_key=form.cleaned_data.get("entry_key") or "",
            )
        except services.GameChanged as exc:
            return _changed(request, access, exc)
        except ValidationError as exc:
            form.apply_engine_error(exc)
        else:
            entry.say_hand_saved(request, row)
            return _back(access)
    return _page(request, access, hand_form=form, status=422)


@post_only(_table_url)
@token_view
def preview(request: HttpRequest, access: links.TableAccess) -> HttpResponse:
    """The payments the hand being entered would make (htmx partial), as on the organiser's page."""
    view = game_view(access.game)
    form = entry.hand_form(view, request.POST)
    if access.can_enter:
        context = entry.preview_context(access.game, view, form)
    else:
        context = {"game": view, "form": form}
        context["error"] = str(links.HANDED_IN if access.game.submitted_at else links.FINISHED)
    return render(request, "scoring/manage/_preview.html", context)


def _reason_action(
    request: HttpRequest,
    access: links.TableAccess,
    service: Callable[..., Any],
    *,
    done: str,
    form_name: str,
) -> HttpResponse:
    """Undo and finish share one path: a reason form, the link's service, "the game changed" as on the
    organiser's page, the service's errors on the form."""
    form = ReasonForm(request.POST)
    if form.is_valid():
        try:
            service(
                link=access.link,
                reason=form.cleaned_data.get("reason") or "",
                ip=client_ip(request),
                expected_version=form.cleaned_data.get("version"),
            )
        except services.GameChanged as exc:
            return _changed(request, access, exc)
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            messages.success(request, done)
            return _back(access)
    return _page(request, access, **{form_name: form}, status=422)


@post_only(_table_url)
@token_view
def undo(request: HttpRequest, access: links.TableAccess) -> HttpResponse:
    return _reason_action(
        request, access, links.undo_hand, done=gettext("The last hand was removed."), form_name="undo_form"
    )


@post_only(_table_url)
@token_view
def finish(request: HttpRequest, access: links.TableAccess) -> HttpResponse:
    return _reason_action(
        request, access, links.finish_game, done=gettext("The game is handed in."), form_name="finish_form"
    )


@post_only(_table_url)
@token_view
def scores(request: HttpRequest, access: links.TableAccess) -> HttpResponse:
    view = game_view(access.game)
    form = FinalScoresForm(request.POST, names=view.names)
    if form.is_valid():
        try:
            saved = links.enter_final_scores(
                link=access.link,
                scores=form.scores,
                sticks=form.cleaned_data["sticks"],
                chombos=form.chombos if view.rules.chombo == "deduction" else None,
                ip=client_ip(request),
                expected_version=form.cleaned_data.get("version"),
                entry_key=form.cleaned_data.get("entry_key") or "",
            )
        except services.GameChanged as exc:
            return _changed(request, access, exc)
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            if saved:
                messages.success(request, gettext("Final scores saved: the game is handed in."))
            else:
                messages.info(request, gettext("These final scores were already saved."))
            return _back(access)
    return _page(request, access, scores_form=form, status=422)


@post_only(_table_url)
@token_view
def referee(request: HttpRequest, access: links.TableAccess) -> HttpResponse:
    form = RefereeForm(request.POST)
    if not form.is_valid():
        return _page(request, access, referee_form=form, status=422)
    links.call_referee(link=access.link, note=form.cleaned_data["note"], ip=client_ip(request))
    messages.success(request, gettext("The referee is called: stay at your table."))
    return _back(access)


@post_only(_table_url)
@token_view
def confirm(request: HttpRequest, access: links.TableAccess) -> HttpResponse:
    """A player confirms the handed-in result with their own code (wrong codes count as guesses)."""
    form = PlayerCodeForm(request.POST)
    if form.is_valid():
        try:
            made = links.confirm_by_player(
                link=access.link, code=form.cleaned_data["code"], ip=client_ip(request)
            )
        except ValidationError as exc:
            if hasattr(exc, "error_dict") and "code" in exc.error_dict:
                _failed(request)
            add_service_errors(form, exc)
        else:
            wind = wind_name(made.seat)
            if getattr(made, "already", False):
                messages.info(request, gettext("%(wind)s had already confirmed.") % {"wind": wind})
            else:
                messages.success(request, gettext("%(wind)s confirmed the result.") % {"wind": wind})
            return _back(access)
    return _page(request, access, code_form=form, status=422)


@never_cache
@rate_limited
@require_http_methods(["GET", "HEAD", "POST"])
def code(request: HttpRequest) -> HttpResponse:
    """Type the table code from the slip (a phone that cannot scan): it leads to the table's page."""
    form = TableCodeForm(request.POST if request.method == "POST" else None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            link = links.find_by_code(form.cleaned_data["code"])
            if link is not None:
                return redirect("tournaments:table", link.token)
            form.add_error(
                "code",
                gettext(
                    "Table code: no table has this code now. Check it on your slip, or ask the organiser."
                ),
            )
            _failed(request)
            status = 404
        else:
            status = 422
    return render(request, "tournaments/table/code.html", {"code_form": form}, status=status)
