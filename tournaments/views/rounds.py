"""The organiser's round page: every table of a round live, their entry links, opening and closing it.

The table list is a fragment the page polls (htmx) while the round is played, so it holds only what
changes and needs no typing (a poll would replace a half-typed field): states, referee calls, and the
one-tap actions (confirm, clear the call). The links — URL, code, QR code, seat codes — and the actions
that need a reason live beside it, outside the polled part. Every view checks that the user organises
this very event (404 otherwise) and that the game belongs to this round of it.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy, ngettext
from django.views.decorators.http import require_GET

from league.models import Event, Hanchan
from league.permissions import managed_event_or_404
from league.views.actions import perform
from league.views.post_only import post_only
from scoring import services
from tournaments import links, rounds
from tournaments.models import TableLink
from tournaments.qr import qr_svg
from tournaments.selectors import RoundView, round_view

POLL_SECONDS = 10


class CloseRoundForm(forms.Form):
    anyway = forms.BooleanField(
        required=False, label=gettext_lazy("Close it even though some tables are not in yet")
    )


class GiveBackForm(forms.Form):
    reason = forms.CharField(max_length=300, label=gettext_lazy("Why"))


def _event_or_404(user: Any, slug: str, number: int) -> Event:
    """A tournament the user organises, with tables in round ``number``; 404 for anything else."""
    event = managed_event_or_404(user, slug)
    if event.kind != Event.Kind.TOURNAMENT:
        raise Http404("Not a tournament.")
    if not Hanchan.objects.filter(event=event, round_number=number).exists():
        raise Http404("No such round.")
    return event


def _game_or_404(event: Event, number: int, pk: int) -> Hanchan:
    return get_object_or_404(Hanchan.objects.select_related("event"), pk=pk, event=event, round_number=number)


def _round_url(slug: str, number: int, **_: Any) -> str:
    """Where a GET on a round action goes (a restored tab): the round's page (see ``post_only``)."""
    return reverse("tournaments_manage:round", args=[slug, number])


def _back(event: Event, number: int) -> HttpResponse:
    return redirect("tournaments_manage:round", event.slug, number)


def _link_cards(request: HttpRequest, view: RoundView) -> list[dict[str, Any]]:
    """Each table's link as the page shows it: full URL, code, QR code (SVG) and seat codes."""
    cards = []
    for row in view.tables:
        if row.link is None:
            cards.append({"row": row, "url": "", "qr": ""})
            continue
        url = request.build_absolute_uri(reverse("tournaments:table", args=[row.link.token]))
        title = gettext("Table %(table)s, round %(round)s") % {"table": row.table, "round": view.number}
        cards.append({"row": row, "url": url, "qr": qr_svg(url, title=title)})
    return cards


def slip_links(request: HttpRequest, event: Event, tables: list[Hanchan]) -> dict[int, dict[str, Any]]:
    """Game id -> what its printed score slip shows of its entry link: URL, code, QR code, and each
    seat's confirmation code when the players confirm results. Two queries; empty when the event's
    tables do not enter their games."""
    if not event.table_entry:
        return {}
    active = (
        TableLink.objects.filter(hanchan__in=tables, revoked_at__isnull=True)
        .order_by("hanchan_id", "-created_at", "-pk")
        .prefetch_related("confirmations")
    )
    found: dict[int, dict[str, Any]] = {}
    for link in active:
        if link.hanchan_id in found:
            continue
        url = request.build_absolute_uri(reverse("tournaments:table", args=[link.token]))
        found[link.hanchan_id] = {
            "url": url,
            "code": link.code,
            "qr": qr_svg(url, title=gettext("Table entry link"), scale=2),
            "seat_codes": {c.seat: c.code for c in link.confirmations.all()},
        }
    return found


@login_required
@require_GET
def round_page(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    event = _event_or_404(request.user, slug, number)
    view = round_view(event, number)
    return render(
        request,
        "tournaments/manage/round.html",
        {
            "event": event,
            "view": view,
            "round": view.round,
            "cards": _link_cards(request, view) if event.table_entry else [],
            "code_url": request.build_absolute_uri(reverse("tournaments:table_code")),
            "close_form": CloseRoundForm(),
            "poll_seconds": POLL_SECONDS,
        },
    )


@login_required
@require_GET
def round_tables(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The live table list alone: what the round page polls."""
    event = _event_or_404(request.user, slug, number)
    view = round_view(event, number)
    return render(
        request,
        "tournaments/manage/round_tables.html",
        {"event": event, "view": view, "poll_seconds": POLL_SECONDS},
    )


@login_required
@post_only(_round_url)
def open_round(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    event = _event_or_404(request.user, slug, number)

    def run(data: dict[str, Any]) -> str:
        rounds.open_round(event=event, number=number, user=request.user)
        return gettext("Round %(n)s is open: the tables' links work.") % {"n": number}

    return perform(request, run=run, back=_round_url(event.slug, number))


@login_required
@post_only(_round_url)
def close_round(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    event = _event_or_404(request.user, slug, number)

    def run(data: dict[str, Any]) -> str:
        rounds.close_round(
            event=event, number=number, user=request.user, allow_unfinished=data.get("anyway", False)
        )
        return gettext("Round %(n)s is closed: the tables' links no longer work.") % {"n": number}

    return perform(request, form=CloseRoundForm(request.POST), run=run, back=_round_url(event.slug, number))


@login_required
@post_only(_round_url)
def issue_links(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Links for the tables that have none (to print the slips before opening the round)."""
    event = _event_or_404(request.user, slug, number)

    def run(data: dict[str, Any]) -> str:
        made = links.issue_links(event=event, number=number, user=request.user)
        return ngettext("%(count)d link issued.", "%(count)d links issued.", len(made)) % {"count": len(made)}

    back = (
        reverse("tournaments_manage:slips_print", args=[event.slug, number])
        if request.POST.get("next") == "slips"
        else _round_url(event.slug, number)
    )
    return perform(request, run=run, back=back)


def _game_action(request: HttpRequest, slug: str, number: int, pk: int, run: Any, done: str) -> HttpResponse:
    """A one-table action: the game checked to be this round's, the service called, the outcome said."""
    event = _event_or_404(request.user, slug, number)
    game = _game_or_404(event, number, pk)

    def call(data: dict[str, Any]) -> str:
        run(game, event)
        return done % {"table": game.table_number}

    return perform(
        request,
        run=call,
        back=_round_url(event.slug, number),
        refusals={services.GameChanged: lambda exc: str(exc)},
    )


@login_required
@post_only(_round_url)
def reissue(request: HttpRequest, slug: str, number: int, pk: int) -> HttpResponse:
    return _game_action(
        request,
        slug,
        number,
        pk,
        lambda game, event: links.reissue_link(hanchan=game, user=request.user),
        gettext("Table %(table)s has a new link and new codes: the old ones no longer work."),
    )


@login_required
@post_only(_round_url)
def revoke(request: HttpRequest, slug: str, number: int, pk: int) -> HttpResponse:
    return _game_action(
        request,
        slug,
        number,
        pk,
        lambda game, event: links.revoke_link(hanchan=game, user=request.user),
        gettext("The link of table %(table)s is revoked."),
    )


@login_required
@post_only(_round_url)
def confirm(request: HttpRequest, slug: str, number: int, pk: int) -> HttpResponse:
    return _game_action(
        request,
        slug,
        number,
        pk,
        lambda game, event: links.confirm_game(hanchan=game, user=request.user, event=event),
        gettext("The game of table %(table)s is confirmed: it counts."),
    )


@login_required
@post_only(_round_url)
def clear_referee(request: HttpRequest, slug: str, number: int, pk: int) -> HttpResponse:
    return _game_action(
        request,
        slug,
        number,
        pk,
        lambda game, event: links.clear_referee(hanchan=game, user=request.user, event=event),
        gettext("The referee call of table %(table)s is cleared."),
    )


@login_required
@post_only(_round_url)
def give_back(request: HttpRequest, slug: str, number: int, pk: int) -> HttpResponse:
    form = GiveBackForm(request.POST)
    if not form.is_valid():
        event = _event_or_404(request.user, slug, number)
        _game_or_404(event, number, pk)
        messages.error(request, gettext("Say why the game goes back to the table: the history keeps it."))
        return _back(event, number)
    return _game_action(
        request,
        slug,
        number,
        pk,
        lambda game, event: links.return_to_table(
            hanchan=game, user=request.user, reason=form.cleaned_data["reason"], event=event
        ),
        gettext("Table %(table)s may change its game again."),
    )
