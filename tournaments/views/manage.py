"""Organisers' tournament pages: rounds and their status, seating generation with its quality, manual
swaps, replacing a player who drops out, and printable seating lists and score slips."""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy, ngettext

from league.collation import name_sort_key, order_by_name
from league.engine_text import WIND_WORDS, wind_name
from league.models import Event, Hanchan, Player, Registration
from league.permissions import managed_event_or_404
from league.views.actions import perform
from league.views.post_only import post_only
from scoring import engine
from tournaments import projector, seating, teams
from tournaments import services as tournament
from tournaments.forms import ReplaceForm, SeatingForm, SwapForm, SwissForm
from tournaments.seating.quality import min_shared_among
from tournaments.views.rounds import slip_links


def tournament_url(slug: str, **_: Any) -> str:
    """Where a GET on a tournament action goes (a restored tab): the rounds page (see ``post_only``)."""
    return reverse("tournaments_manage:tournament", args=[slug])


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


def _schedule_quality(event: Event, rounds: dict[int, list[Hanchan]]) -> tuple[seating.Quality | None, int]:
    """The quality of the schedule as it stands now (after swaps, replacements and late changes), teammates
    sharing a table included, and how many seated people its "shared opponents" line leaves out (two
    queries more: who is still in, and the teams).

    Repeats and winds count everyone seated. The fewest opponents shared by two players who never meet
    is taken over the players there from the first round and still in: a drop-out who sat two rounds, a
    late arrival or a substitute shares few opponents with anyone, which says nothing about how fair the
    seating is for the others (the line said "at least 0" after any late change)."""
    if not rounds:
        return None, 0
    index: dict[int, int] = {}
    schedule = []
    for number in sorted(rounds):
        tables = []
        for table in rounds[number]:
            seats = sorted(table.seats.all(), key=lambda s: s.seat)
            tables.append(tuple(index.setdefault(s.player_id, len(index)) for s in seats))
        schedule.append(tuple(tables))
    still_in = set(
        Registration.objects.filter(
            event=event, is_substitute=False, dropped_out=False, withdrawn_at__isnull=True
        ).values_list("player_id", flat=True)
    )
    first = {index[s.player_id] for table in rounds[min(rounds)] for s in table.seats.all()}
    among = sorted(i for pk, i in index.items() if pk in still_in and i in first)
    groups = teams.indexed_groups(event, index)
    whole = seating.quality(seating.Schedule(rounds=tuple(schedule)), len(index), groups=groups)
    shared = min_shared_among(schedule, among)
    return dataclasses.replace(whole, min_shared_opponents=shared), len(index) - len(among)


def _players(event: Event) -> Any:
    return order_by_name(Player.objects.filter(registrations__event=event))


@login_required
def overview(request: HttpRequest, slug: str) -> HttpResponse:
    event = _tournament_or_404(request.user, slug)
    rounds = _rounds(event)
    quality, left_out = _schedule_quality(event, rounds)
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
            "quality": quality,
            "left_out": left_out,
            "has_teams": teams.has_teams(event),
            # The box says how many rounds are seated (not the form's default), once some are.
            "seating_form": SeatingForm(initial={"seed": event.seating_seed, "rounds": len(rounds) or 8}),
            "max_rounds": tournament.MAX_ROUNDS,
            "swap_form": swap_form,
            "replace_form": replace_form,
            "faults": tournament.seating_faults(event),
            "clock_panel": projector.clock_panel(event),
        },
    )


def _act(
    request: HttpRequest, event: Event, form: forms.Form, invalid: str, run: Callable[[dict[str, Any]], str]
) -> HttpResponse:
    """A tournament action (:func:`league.views.actions.perform`), back to the tournament page. What the
    services cannot foresee — a change made at the same moment by someone else, refused by the database
    and rolled back — is said as such."""
    return perform(
        request,
        form=form,
        invalid=invalid,
        run=run,
        back=reverse("tournaments_manage:tournament", args=[event.slug]),
        refusals={IntegrityError: lambda exc: str(SEATING_CHANGED_MEANWHILE)},
    )


SEATING_CHANGED_MEANWHILE = gettext_lazy(
    "The seating was changed by someone else at the same time: nothing was saved, try again."
)


@login_required
@post_only(tournament_url)
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
        gettext("Rounds: a whole number from 1 to %(most)s; seed: a positive whole number.")
        % {"most": tournament.MAX_ROUNDS},
        run,
    )


@login_required
@post_only(tournament_url)
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
@post_only(tournament_url)
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
@post_only(tournament_url)
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
    # Players still in but not seated this round sit it out (a late change with fewer tables): the
    # sheet pinned up says so, or they would look for their name in vain.
    seated = {seat.player_id for table in tables for seat in table.seats.all()}
    sitting_out = sorted(
        (
            r.player.display_name
            for r in Registration.objects.filter(
                event=event, is_substitute=False, dropped_out=False, withdrawn_at__isnull=True
            ).select_related("player")
            if r.player_id not in seated
        ),
        key=name_sort_key,
    )
    return render(
        request,
        "tournaments/manage/seating_print.html",
        {
            "event": event,
            "number": number,
            "tables": tables,
            "by_player": by_player,
            "sitting_out": sitting_out,
        },
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
