"""Stages, cuts and finals: the organisers' pages (the stages, adding one, closing one at its cut line,
seating one) and the public ones (a stage's standings and CSV, the event's final ranking, the wall's
stage slide).

A league's play-off uses the same pages: its season is stage 1, the form offers only what a play-off may
be, and the organisers' page lists the play-off's tables with a link to each game's entry (a league has
no rounds pages); the wall stays a tournament's.

Thin: :mod:`tournaments.stages` writes and reads. Manage views load the event through
``league.permissions.managed_event_or_404`` and the stage within it, so someone else's answers 404;
public views are as public as the event and show what a visitor may see (hidden rounds stay hidden).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy

from league.collation import order_by_name
from league.forms import add_service_errors
from league.models import Event, Hanchan, Player, Seat
from league.permissions import managed_event_or_404, visible_event_or_404
from league.views.actions import perform
from league.views.post_only import post_only
from scoring.exports.csvfile import csv_response
from scoring.standings import hidden_after_round, round_in_play
from scoring.views.public import LIVE_POLL_SECONDS, REVEAL_POLL_SECONDS, login_for_members_only
from tournaments import reveal, stages
from tournaments.models import Stage
from tournaments.views import wall
from tournaments.views.wall import _tournament as public_tournament

# -- forms ------------------------------------------------------------------------------------------------


class StageForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=80, required=False)
    rounds = forms.IntegerField(label=gettext_lazy("Rounds"), min_value=1, max_value=99, initial=1)
    entrants = forms.ChoiceField(
        label=gettext_lazy("Who plays it"), choices=Stage.Entrants.choices, initial=Stage.Entrants.TOP
    )
    cut_size = forms.IntegerField(
        label=gettext_lazy("Players going through"),
        min_value=4,
        max_value=9996,
        required=False,
        help_text=gettext_lazy("With the top players of the previous stage: a multiple of 4."),
    )
    players = forms.ModelMultipleChoiceField(
        label=gettext_lazy("The organiser's list"),
        queryset=Player.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=gettext_lazy("With a list the organiser picks: a multiple of 4 players."),
    )
    carry_over = forms.ChoiceField(
        label=gettext_lazy("Points carried over"),
        choices=Stage.CarryOver.choices,
        initial=Stage.CarryOver.NONE,
    )
    bonus = forms.CharField(
        label=gettext_lazy("Bonus by place"),
        max_length=200,
        required=False,
        help_text=gettext_lazy("With a fixed bonus: the points of the 1st, 2nd, … separated by commas."),
    )
    seating = forms.ChoiceField(
        label=gettext_lazy("Seating"), choices=Stage.Seating.choices, initial=Stage.Seating.RANK
    )
    winds = forms.ChoiceField(
        label=gettext_lazy("Seat winds"),
        choices=Stage.Winds.choices,
        initial=Stage.Winds.DRAWN,
        help_text=gettext_lazy(
            "By rank or by the final table: drawn at each table, or the best placed East."
        ),
    )
    after = forms.IntegerField(
        label=gettext_lazy("Stages shown"),
        widget=forms.HiddenInput,
        required=False,
        min_value=1,
        max_value=99,
    )
    standings_hidden_after_round = forms.IntegerField(
        label=gettext_lazy("Hide standings after round"),
        min_value=0,
        max_value=999,
        required=False,
        help_text=gettext_lazy(
            "For a reveal of this stage: the public standings stop at this round (a round number of the "
            "event; the round before the stage's first hides the whole stage) until you release the "
            "stage's standings. Empty: nothing hidden."
        ),
    )


class HideForm(forms.Form):
    """A stage's own hidden standings: the round its public standings stop at (empty: none)."""

    standings_hidden_after_round = forms.IntegerField(
        label=gettext_lazy("Hide standings after round"), min_value=0, max_value=999, required=False
    )


class CloseForm(forms.Form):
    """The close page's choices: who drops out now (with the reason) and, on a tie the tie-breaks cannot
    break, who of the tied goes through; ``accept`` closes, otherwise the preview is shown again."""

    dropped = forms.ModelMultipleChoiceField(
        label=gettext_lazy("Players who drop out before the cut"),
        queryset=Player.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    reason = forms.CharField(label=gettext_lazy("Why they drop out"), max_length=200, required=False)
    decided = forms.ModelMultipleChoiceField(
        label=gettext_lazy("Tied players who go through"),
        queryset=Player.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    accept = forms.BooleanField(required=False)


def _stages_url(slug: str, **_: Any) -> str:
    """Where a GET on a stage action goes: the event's stages page (see ``post_only``)."""
    return reverse("tournaments_manage:stages", args=[slug])


def _registered(event: Event) -> Any:
    return order_by_name(
        Player.objects.filter(registrations__event=event, registrations__is_substitute=False)
    )


def _stage(event: Event, order: int) -> tuple[list[Stage], Stage]:
    found = stages.stages_of(event)
    stage = next((s for s in found if s.order == order), None)
    if stage is None:
        raise Http404("No such stage.")
    return found, stage


# -- organisers ---------------------------------------------------------------------------------------------


def _overview(request: HttpRequest, event: Event, form: StageForm | None = None) -> HttpResponse:
    found = stages.stages_of(event)
    if form is None:
        form = _stage_form(event, initial={"after": len(found)})
    league = event.kind == Event.Kind.LEAGUE
    lines = []
    for index, stage in enumerate(found):
        following = found[index + 1] if index + 1 < len(found) else None
        lines.append(
            {
                "stage": stage,
                "rounds": stages.stage_rounds(found, stage),
                "can_close": stage.closed_at is None
                and (index == 0 or found[index - 1].closed_at is not None)
                and not (league and following is None and index == 0),
                "can_seat": stage.closed_at is None
                and (index == 0 or found[index - 1].closed_at is not None or stage.entrants == "list"),
                "following": following,
            }
        )
    context = {
        "event": event,
        "lines": lines,
        "form": form,
        "can_add": found[-1].closed_at is None,
        "league": league,
        "tables": _playoff_tables(event),
    }
    return render(request, "tournaments/manage/stages.html", context, status=422 if form.errors else 200)


def _stage_form(event: Event, data: Any = None, **options: Any) -> StageForm:
    """The form to add a stage; a league's play-off offers only what it may be: the top players, seated
    at one final table or by rank."""
    form = StageForm(data, **options)
    if event.kind == Event.Kind.LEAGUE:
        del form.fields["players"]
        del form.fields["standings_hidden_after_round"]  # a tournament's reveal (tournaments/reveal.py)
        entrants = form.fields["entrants"]
        entrants.choices = [(Stage.Entrants.TOP, gettext_lazy("the top players of the season's standings"))]
        seating = form.fields["seating"]
        seating.choices = [
            c for c in Stage.Seating.choices if c[0] in (Stage.Seating.FINAL, Stage.Seating.RANK)
        ]
        form.fields["rounds"].help_text = gettext_lazy(
            "The play-off's games are numbered after the season's."
        )
    else:
        form.fields["players"].queryset = _registered(event)
    return form


def _playoff_tables(event: Event) -> list[Hanchan]:
    """A league's play-off tables with their players (two queries; none for a tournament, whose tables
    are on its rounds' pages, nor for a league without a play-off): where its games are entered."""
    if event.kind != Event.Kind.LEAGUE or event.playoff_first_round is None:
        return []
    seats = Seat.objects.select_related("player").order_by("seat")
    return list(
        Hanchan.objects.filter(event=event, round_number__gte=event.playoff_first_round)
        .order_by("round_number", "table_number")
        .prefetch_related(Prefetch("seats", queryset=seats, to_attr="seated"))
    )


@login_required
def overview(request: HttpRequest, slug: str) -> HttpResponse:
    """The event's stages in order: their rounds, who plays, carry-over and seating; add one. A league's
    stages are its season and its play-off."""
    return _overview(request, _managed_event(request, slug))


def _managed_event(request: HttpRequest, slug: str) -> Event:
    """A tournament, or a league (its play-off), the user organises."""
    return managed_event_or_404(request.user, slug)


@login_required
@post_only(_stages_url)
def add(request: HttpRequest, slug: str) -> HttpResponse:
    event = _managed_event(request, slug)
    form = _stage_form(event, request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            stage = stages.add_stage(
                event=event,
                user=request.user,
                name=data["name"],
                rounds=data["rounds"],
                entrants=data["entrants"],
                cut_size=data["cut_size"],
                carry_over=data["carry_over"],
                bonus=data["bonus"],
                seating_method=data["seating"],
                winds=data["winds"],
                players=list(data.get("players") or []),
                after=data["after"],
                hidden_after_round=data.get("standings_hidden_after_round"),
            )
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            messages.success(request, gettext("%(stage)s added.") % {"stage": stage.label})
            return redirect("tournaments_manage:stages", event.slug)
    return _overview(request, event, form)


def _close_page(
    request: HttpRequest, event: Event, stage: Stage, form: CloseForm, status: int = 200
) -> HttpResponse:
    dropped: dict[int, str] = {}
    decided: list[int] | None = None
    if form.is_bound and form.is_valid():
        reason = form.cleaned_data["reason"].strip()
        dropped = {p.pk: reason or "?" for p in form.cleaned_data["dropped"]}
        chosen = [p.pk for p in form.cleaned_data["decided"]]
        decided = chosen or None
    try:
        preview = stages.cut_preview(stage, dropped=dropped, decided=decided)
    except ValidationError as exc:
        add_service_errors(form, exc)
        preview = stages.cut_preview(stage, dropped=dropped)
        status = 422
    rows = [{"line": r, "status": preview.status(r.player_id)} for r in preview.rows]
    context = {
        "event": event,
        "stage": stage,
        "preview": preview,
        "rows": rows,
        "form": form,
        "tied_names": [preview.names.get(pk, "") for pk in preview.cut.tied],
        "stepped_in": [
            (preview.names.get(new, ""), preview.names.get(gone, ""))
            for new, gone in preview.cut.stepped_in.items()
        ],
    }
    return render(request, "tournaments/manage/stage_close.html", context, status=status)


def _close_form(event: Event, stage: Stage, data: Any = None) -> CloseForm:
    form = CloseForm(data)
    people = Player.objects.filter(registrations__event=event)
    form.fields["dropped"].queryset = order_by_name(people)
    form.fields["decided"].queryset = people
    return form


@login_required
def close(request: HttpRequest, slug: str, order: int) -> HttpResponse:
    """The cut line of a stage before the organiser accepts it (GET, or POST without ``accept``: the
    preview with the drop-outs and tie choices ticked), and the close itself (POST with ``accept``)."""
    event = _managed_event(request, slug)
    _found, stage = _stage(event, order)
    if request.method != "POST":
        return _close_page(request, event, stage, _close_form(event, stage))
    form = _close_form(event, stage, request.POST)
    if not form.is_valid() or not form.cleaned_data["accept"]:
        return _close_page(request, event, stage, form, status=200 if form.is_valid() else 422)
    reason = form.cleaned_data["reason"]
    dropped = {p.pk: reason for p in form.cleaned_data["dropped"]}
    decided = [p.pk for p in form.cleaned_data["decided"]] or None
    try:
        stages.close_stage(stage=stage, user=request.user, dropped=dropped, decided=decided)
    except ValidationError as exc:
        add_service_errors(form, exc)
        return _close_page(request, event, stage, form, status=422)
    messages.success(request, gettext("%(stage)s closed.") % {"stage": stage.label})
    return redirect("tournaments_manage:stages", event.slug)


@login_required
@post_only(_stages_url)
def seat(request: HttpRequest, slug: str, order: int) -> HttpResponse:
    event = _managed_event(request, slug)
    _found, stage = _stage(event, order)

    def run(_data: dict[str, Any]) -> str:
        done = stages.seat_stage(stage=stage, user=request.user)
        return gettext("%(stage)s seated: round %(rounds)s.") % {
            "stage": stage.label,
            "rounds": ", ".join(str(n) for n in done),
        }

    return perform(request, run=run, back=reverse("tournaments_manage:stages", args=[event.slug]))


@login_required
@post_only(_stages_url)
def hide(request: HttpRequest, slug: str, order: int) -> HttpResponse:
    """Set (or clear) the round a stage's public standings stop at until its release."""
    event = _managed_event(request, slug)
    _found, stage = _stage(event, order)

    def run(data: dict[str, Any]) -> str:
        after = data["standings_hidden_after_round"]
        row = reveal.set_stage_hiding(stage=stage, user=request.user, hidden_after_round=after)
        if after is not None and row.standings_released_at is not None:  # the same round: still released
            return gettext(
                "%(stage)s stays released: the public sees its rounds. To hide them again, clear the round, "
                "save, then give it again."
            ) % {"stage": stage.label}
        if after is None:
            return gettext("%(stage)s hides no round.") % {"stage": stage.label}
        return gettext(
            "%(stage)s: the public standings stop after round %(round)s until you release them."
        ) % {
            "stage": stage.label,
            "round": after,
        }

    return perform(
        request,
        run=run,
        back=reverse("tournaments_manage:stages", args=[event.slug]),
        form=HideForm(request.POST),
        invalid=gettext("Nothing was changed."),
    )


@login_required
@post_only(_stages_url)
def release(request: HttpRequest, slug: str, order: int) -> HttpResponse:
    """Show a stage's hidden rounds to the public (that stage's reveal)."""
    event = _managed_event(request, slug)
    _found, stage = _stage(event, order)

    def run(_data: dict[str, Any]) -> str:
        _row, released = reveal.release_stage_standings(stage=stage, user=request.user)
        if not released:
            return gettext("The %(stage)s standings were already released.") % {"stage": stage.label}
        return gettext("The %(stage)s standings are released.") % {"stage": stage.label}

    return perform(request, run=run, back=reverse("tournaments_manage:stages", args=[event.slug]))


# -- public -------------------------------------------------------------------------------------------------


def _public_stage(request: HttpRequest, slug: str, order: int) -> tuple[Event, list[Stage], Stage]:
    event = visible_event_or_404(request.user, slug)
    found, stage = _stage(event, order)
    return event, found, stage


def _thousands(points: int) -> Decimal:
    return Decimal(f"{points / 1000:.1f}")


def _csv_rows(rows: list[stages.StageRow]) -> list[list[Any]]:
    """A stage's standings as CSV rows: a fixed English header (a machine format, as every export) and
    the points in thousands with one decimal as plain numbers, as the standings CSV writes them."""
    header = ["rank", "player", "points", "carried_over", "stage_points", "games", "seed"]
    return [header] + [
        [
            r.rank or "",
            r.name,
            _thousands(r.total),
            _thousands(r.carried),
            _thousands(r.row.points),
            r.row.games,
            r.seed or "",
        ]
        for r in rows
    ]


@login_for_members_only
def standings(request: HttpRequest, slug: str, order: int) -> HttpResponse:
    """A stage's standings: its players by the points of its games plus the carry-over."""
    event, found, stage = _public_stage(request, slug, order)
    rows = stages.stage_standings(event, stage, stages=found, public=True)
    hidden = hidden_after_round(event)
    live = round_in_play(event)
    context = {
        "event": event,
        "stages": found,
        "stage": stage,
        "rows": rows,
        "hidden_after_round": hidden,
        "first": stage.order == 1,
        # While a round is open the table refreshes itself (the page polls itself for it, htmx); while
        # rounds are hidden too, slower, so that an open page learns of a release (the event page's way).
        "live": live,
        "poll_seconds": LIVE_POLL_SECONDS if live else REVEAL_POLL_SECONDS if hidden is not None else None,
    }
    return render(request, "tournaments/public/stage_standings.html", context)


@login_for_members_only
def standings_csv(request: HttpRequest, slug: str, order: int) -> HttpResponse:
    event, found, stage = _public_stage(request, slug, order)
    rows = stages.stage_standings(event, stage, stages=found, public=True)
    return csv_response(_csv_rows(rows), f"{event.slug}-stage-{stage.order}.csv")


@login_for_members_only
def ranking(request: HttpRequest, slug: str) -> HttpResponse:
    """The event's final ranking: the finalists first, then everyone else by the stage they reached (a
    league: its play-off's players first, then the season's others)."""
    event = visible_event_or_404(request.user, slug)
    hidden = hidden_after_round(event)
    context = {
        "event": event,
        "stages": stages.stages_of(event),
        "rows": stages.final_ranking(event, public=True),
        "hidden_after_round": hidden,
        # Polled while rounds are hidden, so that an open page learns of a release.
        "poll_seconds": REVEAL_POLL_SECONDS if hidden is not None else None,
    }
    return render(request, "tournaments/public/final_ranking.html", context)


@login_for_members_only
def wall_stage(request: HttpRequest, slug: str, order: int) -> HttpResponse:
    """The wall's slide of one stage (polled by the wall showing that stage): a tournament's."""
    event = public_tournament(request, slug)
    found, stage = _stage(event, order)
    return HttpResponse(wall.stage_html(event, found, stage, wall.options(request)))
