"""Organisers' tournament pages: rounds and their status, seating generation with its quality, manual
swaps, replacing a player who drops out, and printable seating lists and score slips."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db import IntegrityError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_POST

from league.collation import name_sort_key, order_by_name
from league.engine_text import WIND_WORDS, wind_name
from league.models import Event, Hanchan, Player
from league.permissions import managed_event_or_404
from scoring import engine
from tournaments import projector, seating
from tournaments import services as tournament
from tournaments.forms import ReplaceForm, SeatingForm, SwapForm, SwissForm
from tournaments.views.rounds import slip_links


def _tournament_or_404(user: Any, slug: str) -> Event:
    event = managed_event_or_404(user, slug)
    if event.kind != Event.Kind.TOURNAMENT:
        raise Http404("Not a tournament.")
    return event


def _rounds(event: Event) -> dict[int, list[Hanchan]]:
    """Round number -> its tables with seats and players (two queries)."""
    tables = (
        Hanchan.objects.filter(event=event, round_number__isnull=False)
        .prefetch_related("seats__player", "seats__on_behalf_of")
        .order_by("round_number", "table_number")
    )
    rounds: dict[int, list[Hanchan]] = defaultdict(list)
    for table in tables:
        rounds[table.round_number].append(table)
    return dict(rounds)


def _schedule_quality(rounds: dict[int, list[Hanchan]]) -> seating.Quality | None:
    """The quality of the schedule as it stands now (after swaps and replacements)."""
    if not rounds:
        return None
    index: dict[int, int] = {}
    schedule = []
    for number in sorted(rounds):
        tables = []
        for table in rounds[number]:
            seats = sorted(table.seats.all(), key=lambda s: s.seat)
            tables.append(tuple(index.setdefault(s.player_id, len(index)) for s in seats))
        schedule.append(tuple(tables))
    return seating.quality(seating.Schedule(rounds=tuple(schedule)), len(index))


def _players(event: Event) -> Any:
    return order_by_name(Player.objects.filter(registrations__event=event))


@login_required
def overview(request: HttpRequest, slug: str) -> HttpResponse:
    event = _tournament_or_404(request.user, slug)
    rounds = _rounds(event)
    players = _players(event)
    swap_form = SwapForm()
    swap_form.fields["first"].queryset = swap_form.fields["second"].queryset = players
    # Only choices that can work: a player still playing, and a substitute who is not seated in the
    # rounds left to play (the service checks the exact rounds again when the form is sent).
    replace_form = ReplaceForm(initial={"from_round": tournament.next_open_round(event)})
    replace_form.fields["player"].queryset = players.filter(
        registrations__event=event, registrations__dropped_out=False
    )
    replace_form.fields["substitute"].queryset = order_by_name(tournament.eligible_substitutes(event))
    return render(
        request,
        "tournaments/manage/tournament.html",
        {
            "event": event,
            "rounds": rounds,
            "status": tournament.round_status(event),
            "quality": _schedule_quality(rounds),
            "seating_form": SeatingForm(initial={"seed": event.seating_seed}),
            "swap_form": swap_form,
            "replace_form": replace_form,
            "faults": tournament.seating_faults(event),
            "clock_panel": projector.clock_panel(event),
        },
    )


def _act(
    request: HttpRequest, event: Event, form: forms.Form, invalid: str, run: Callable[[dict[str, Any]], str]
) -> HttpResponse:
    """Validate ``form``, call the service through ``run`` (which returns the success message), say how it
    went, and go back to the rounds page: the shape of every tournament action."""
    if not form.is_valid():
        details = [
            f"{form.fields[name].label or name.replace('_', ' ').capitalize()}: {' '.join(errors)}"
            if name in form.fields
            else " ".join(errors)
            for name, errors in form.errors.items()
        ]
        messages.error(request, " ".join([invalid, *details]))
    else:
        try:
            done = run(form.cleaned_data)
        except ValidationError as exc:
            messages.error(request, " ".join(exc.messages))
        except IntegrityError:
            # The services check everything they can foresee; what is left is a change made at the
            # same moment by someone else, which the database refused (and rolled back).
            messages.error(
                request,
                gettext(
                    "The seating was changed by someone else at the same time: nothing was saved, try again."
                ),
            )
        else:
            messages.success(request, done)
    return redirect("tournaments_manage:tournament", event.slug)


@login_required
@require_POST
def generate(request: HttpRequest, slug: str) -> HttpResponse:
    event = _tournament_or_404(request.user, slug)

    def run(data: dict[str, Any]) -> str:
        tournament.seat_tournament(
            event=event, rounds=data["rounds"], user=request.user, seed=data.get("seed")
        )
        return gettext("Seating generated for every round.")

    return _act(
        request,
        event,
        SeatingForm(request.POST),
        gettext("Rounds: a whole number from 1 to 20; seed: a positive whole number."),
        run,
    )


@login_required
@require_POST
def swap(request: HttpRequest, slug: str) -> HttpResponse:
    event = _tournament_or_404(request.user, slug)
    form = SwapForm(request.POST)
    form.fields["first"].queryset = form.fields["second"].queryset = _players(event)

    def run(data: dict[str, Any]) -> str:
        tournament.swap_players(
            event=event,
            round_number=data["round_number"],
            first=data["first"],
            second=data["second"],
            user=request.user,
        )
        return gettext("Seats swapped; the schedule's quality is updated below.")

    return _act(request, event, form, gettext("Choose a round and two registered players."), run)


@login_required
@require_POST
def replace(request: HttpRequest, slug: str) -> HttpResponse:
    event = _tournament_or_404(request.user, slug)
    form = ReplaceForm(request.POST)
    form.fields["player"].queryset = form.fields["substitute"].queryset = _players(event)

    def run(data: dict[str, Any]) -> str:
        count = tournament.replace_player(event=event, user=request.user, **data)
        return ngettext(
            "%(player)s takes over %(count)d table.", "%(player)s takes over %(count)d tables.", count
        ) % {"player": data["substitute"], "count": count}

    return _act(
        request,
        event,
        form,
        gettext("Choose the player, the substitute, the first round and give a reason."),
        run,
    )


@login_required
@require_POST
def swiss(request: HttpRequest, slug: str) -> HttpResponse:
    event = _tournament_or_404(request.user, slug)

    def run(data: dict[str, Any]) -> str:
        number = data["round_number"]
        tournament.reseat_swiss(event=event, round_number=number, user=request.user)
        return gettext("Round %(round)s reseated by the standings after round %(previous)s.") % {
            "round": number,
            "previous": number - 1,
        }

    return _act(
        request,
        event,
        SwissForm(request.POST),
        gettext("Choose a round from 2 on: round 1 has no standings to seat by."),
        run,
    )


@login_required
def seating_print(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A round's seating, by table and by player name, to print and pin up."""
    event = _tournament_or_404(request.user, slug)
    tables = _rounds(event).get(number)
    if not tables:
        raise Http404("No such round.")
    by_player = sorted(
        (
            (seat.player.display_name, table.table_number, wind_name(seat.seat))
            for table in tables
            for seat in table.seats.all()
        ),
        key=lambda row: name_sort_key(row[0]),
    )
    return render(
        request,
        "tournaments/manage/seating_print.html",
        {"event": event, "number": number, "tables": tables, "by_player": by_player},
    )


@login_required
def slips_print(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """One score slip per table of a round: players by wind, boxes for scores, sticks and signatures."""
    event = _tournament_or_404(request.user, slug)
    tables = _rounds(event).get(number)
    if not tables:
        raise Http404("No such round.")
    return render(
        request,
        "tournaments/manage/slips_print.html",
        {
            "event": event,
            "number": number,
            "tables": tables,
            "winds": WIND_WORDS,
            "expected_sum": engine.expected_total(event.rules, 0),
            # Each slip's entry link: URL, code, QR code and the players' codes (tournaments/links.py).
            "slip_links": slip_links(request, event, tables),
        },
    )
