"""Organisers' pages of a team league: its match days (draw the next one), and one match day's tables
where each team sends a player to its seat for every hanchan (substituting between hanchans).

Thin: :mod:`tournaments.team_league` draws, checks and starts the games; the games themselves are then
entered on scoring's game page like any league game. Only for a club league's organisers (anyone
else, or a tournament, answers 404).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db import IntegrityError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_http_methods

from league.engine_text import wind_name
from league.forms import add_service_errors
from league.models import Event, Hanchan, Player
from league.permissions import managed_event_or_404
from league.views.post_only import post_only
from tournaments import team_league, teams
from tournaments.models import MatchDay


class MatchDayForm(forms.Form):
    number = forms.IntegerField(min_value=1, max_value=999, widget=forms.HiddenInput)
    played_on = forms.DateField(
        label=gettext_lazy("Played on"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    slots = forms.IntegerField(
        min_value=1,
        max_value=team_league.MAX_SLOTS,
        initial=1,
        label=gettext_lazy("Seats per team"),
        help_text=gettext_lazy(
            "How many tables each team plays at on this match day (one player at each). The tables are "
            "drawn so that teams meet each other and sit each wind as evenly as the season allows."
        ),
    )


class LineupForm(forms.Form):
    """The four players of a table's next hanchan, one per team seat; the choices are each team's
    members and substitutes, as the match day's view read them (no query per select)."""

    entry_mode = forms.ChoiceField(choices=Hanchan.EntryMode.choices, label=gettext_lazy("Entry"))

    def __init__(self, *args: Any, table: team_league.TableView, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.table = table
        for slot in table.slots:
            self.fields[f"seat_{slot.seat}"] = forms.TypedChoiceField(
                choices=[("", "---------"), *((p.pk, p.display_name) for p in slot.members)],
                coerce=int,
                label=f"{slot.wind} · {slot.team.name}",
                initial=slot.last.pk if slot.last else None,
            )
        self.order_fields([f"seat_{seat}" for seat in range(4)] + ["entry_mode"])

    def seat_fields(self) -> list[forms.BoundField]:
        return [self[f"seat_{slot.seat}"] for slot in self.table.slots]

    def players(self) -> list[Player]:
        """The chosen players in seat order (once the form is valid)."""
        chosen = []
        for slot in self.table.slots:
            by_pk = {p.pk: p for p in slot.members}
            chosen.append(by_pk[self.cleaned_data[f"seat_{slot.seat}"]])
        return chosen


def _day_url(slug: str, number: int, **_: Any) -> str:
    """Where a GET on a match day's action goes (a restored tab): the match day's page."""
    return reverse("tournaments_manage:match_day", args=[slug, number])


def _league_or_404(user: Any, slug: str) -> Event:
    event = managed_event_or_404(user, slug)
    if event.kind != Event.Kind.LEAGUE:
        raise Http404("Match days belong to a club league.")
    return event


def _list(request: HttpRequest, event: Event, form: MatchDayForm | None = None) -> HttpResponse:
    number = team_league.next_number(event)
    form = form or MatchDayForm(initial={"number": number, "played_on": timezone.localdate(), "slots": 1})
    return render(
        request,
        "tournaments/manage/match_days.html",
        {
            "event": event,
            "days": team_league.match_days(event),
            "form": form,
            "next_number": number,
            "team_count": len(teams.teams_of(event)),
        },
        status=422 if form.errors else 200,
    )


@login_required
@require_http_methods(["GET", "POST"])
def match_days(request: HttpRequest, slug: str) -> HttpResponse:
    """GET: the season's match days. POST: draw the next one (the number in the form, so a form sent
    twice is refused rather than drawn twice)."""
    event = _league_or_404(request.user, slug)
    if request.method != "POST":
        return _list(request, event)
    form = MatchDayForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            day = team_league.schedule_match_day(
                event=event,
                number=data["number"],
                played_on=data["played_on"],
                slots=data["slots"],
                user=request.user,
            )
        except ValidationError as exc:
            add_service_errors(form, exc)
        except IntegrityError:
            form.add_error(None, gettext("Someone drew this match day at the same time: nothing was saved."))
        else:
            messages.success(request, gettext("Match day %(number)s drawn.") % {"number": day.number})
            return redirect("tournaments_manage:match_day", event.slug, day.number)
    return _list(request, event, form)


def _day_page(
    request: HttpRequest, event: Event, day: MatchDay, failed: dict[int, LineupForm] | None = None
) -> HttpResponse:
    view = team_league.match_day_view(day)
    forms_ = {
        table.table: LineupForm(
            table=table, prefix=f"t{table.table}", initial={"entry_mode": Hanchan.EntryMode.HANDS}
        )
        for table in view.tables
    }
    forms_.update(failed or {})
    return render(
        request,
        "tournaments/manage/match_day.html",
        {"event": event, "view": view, "tables": [(table, forms_[table.table]) for table in view.tables]},
        status=422 if failed else 200,
    )


@login_required
def match_day(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A match day: each table's teams by seat, its hanchans so far, and the next hanchan's players."""
    event = _league_or_404(request.user, slug)
    day = get_object_or_404(MatchDay, event=event, number=number)
    day.event = event
    return _day_page(request, event, day)


@login_required
@post_only(_day_url)
def start(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    """Start a table's next hanchan with the players the teams send, then enter it on the game page."""
    event = _league_or_404(request.user, slug)
    day = get_object_or_404(MatchDay, event=event, number=number)
    day.event = event
    view = team_league.match_day_view(day)
    found = next((t for t in view.tables if t.table == table), None)
    if found is None:
        raise Http404("No such table on this match day.")
    form = LineupForm(request.POST, table=found, prefix=f"t{table}")
    if form.is_valid():
        try:
            game = team_league.start_match_game(
                match_day=day,
                table=table,
                players=form.players(),
                entry_mode=form.cleaned_data["entry_mode"],
                user=request.user,
            )
        except ValidationError as exc:
            add_service_errors(form, exc)
        except IntegrityError:
            form.add_error(None, gettext("Someone started a game here at the same time: nothing was saved."))
        else:
            messages.success(
                request,
                gettext("Table %(table)s: hanchan started (%(players)s).")
                % {
                    "table": table,
                    "players": ", ".join(
                        f"{wind_name(s.seat)} {s.player}"
                        for s in game.seats.select_related("player").order_by("seat")
                    ),
                },
            )
            return redirect("scoring_manage:game", game.pk)
    return _day_page(request, event, day, failed={table: form})
