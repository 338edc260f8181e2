"""Organisers' game pages: start a game, enter hands with a live payment preview, correct, finish.

Views parse the request, call a service or selector, and render. Every view loads the game or event
through the user's managed events, so someone else's answers 404.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_http_methods

from league.forms import add_service_errors
from league.models import Hanchan, Player
from league.permissions import managed_event_or_404
from league.views.actions import error_text, form_errors_text, perform
from league.views.post_only import post_only
from scoring import engine, services
from scoring.forms import (
    CorrectionReasonForm,
    EntryModeForm,
    FinalScoresForm,
    HandForm,
    HandNumberForm,
    OrganiserFinalScoresForm,
    PenaltyCancelForm,
    PenaltyForm,
    PlayedOnForm,
    ReasonForm,
    StartGameForm,
)
from scoring.models import Penalty
from scoring.records import engine_hand
from scoring.selectors import (
    current_round,
    event_penalties,
    game_history,
    game_view,
    managed_game_or_404,
    tournament_rounds,
)
from scoring.services.hanchan import set_played_on
from scoring.services.hands import UNDO_FINISHED
from scoring.views.entry import final_scores_form, hand_form, hand_tiles, preview_context, say_hand_saved


def _game_url(pk: int, **_: Any) -> str:
    """Where a GET on one of a game's actions goes: the game's page (see ``post_only``)."""
    return reverse("scoring_manage:game", args=[pk])


def _penalties_url(slug: str, **_: Any) -> str:
    return reverse("scoring_manage:penalties", args=[slug])


def _changed(request: HttpRequest, exc: services.GameChanged, hanchan: Hanchan) -> HttpResponse:
    """The game moved on under the organiser: say so and show its current state (409). What
    ``exc`` says, in the reader's language (its own text is English)."""
    messages.error(
        request,
        gettext(
            "The game changed while you were entering this (someone else saved a change). "
            "Here is its current state: check it and enter the hand again if it is still missing."
        ),
    )
    hanchan.refresh_from_db()
    return _game_page(request, hanchan, status=409)


def _game_page(
    request: HttpRequest,
    hanchan: Hanchan,
    *,
    form: HandForm | None = None,
    scores_form: FinalScoresForm | None = None,
    status: int = 200,
) -> HttpResponse:
    view = game_view(hanchan)
    context = {
        "game": view,
        "hanchan": hanchan,
        "event": hanchan.event,
        "history": game_history(hanchan)[:50],
        "reason_form": ReasonForm(initial={"version": hanchan.version}),
        # Own ids: the final-scores form on the same page has a played_on field too.
        "played_on_form": PlayedOnForm(
            initial={"version": hanchan.version, "played_on": hanchan.played_on}, auto_id="id_date_%s"
        ),
    }
    if hanchan.entry_mode == Hanchan.EntryMode.HANDS:
        context["form"] = form or hand_form(view)
    # Whatever the game's (and the event's) entry mode, the organiser may type its final scores from
    # the table's slip: for a hand-by-hand game the form waits, folded, below the hands.
    hands = hanchan.entry_mode == Hanchan.EntryMode.HANDS
    auto_id = "id_fs_%s" if hands else "id_%s"  # the hand form beside it has a version field too
    if scores_form is not None:
        scores_form.auto_id = auto_id
    context["scores_form"] = scores_form or final_scores_form(
        view, hanchan, played_on=hanchan.played_on, form_class=OrganiserFinalScoresForm, auto_id=auto_id
    )
    context["expected_sum"] = engine.expected_total(view.rules, 0)
    if hanchan.entry_mode == Hanchan.EntryMode.FINAL_SCORES and hanchan.status != Hanchan.Status.VOID:
        context["hands_form"] = EntryModeForm(
            initial={"version": hanchan.version, "entry_mode": Hanchan.EntryMode.HANDS}, auto_id="id_mode_%s"
        )
        context["has_scores"] = any(seat.final_score is not None for seat in view.seats)
    return render(request, "scoring/manage/game.html", context, status=status)


@login_required
def game_list(request: HttpRequest, slug: str) -> HttpResponse:
    event = managed_event_or_404(request.user, slug)
    # Most recently played first: a game entered days later is listed on the day it was played.
    games = event.hanchans.prefetch_related("seats__player").order_by("-played_on", "-created_at", "-pk")
    return render(request, "scoring/manage/game_list.html", {"event": event, "games": games})


@login_required
def game_new(request: HttpRequest, slug: str) -> HttpResponse:
    event = managed_event_or_404(request.user, slug)
    registered = Player.objects.filter(
        registrations__event=event, registrations__dropped_out=False, registrations__withdrawn_at__isnull=True
    )
    form = StartGameForm(request.POST or None, players=registered.order_by("display_name"), event=event)
    if request.method == "POST" and form.is_valid():
        try:
            hanchan = services.start_game(
                event=event,
                players=form.players,
                user=request.user,
                entry_mode=form.cleaned_data["entry_mode"],
                round_number=form.cleaned_data.get("round_number"),
                table_number=form.cleaned_data.get("table_number"),
                played_on=form.cleaned_data.get("played_on"),
            )
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            return redirect("scoring_manage:game", hanchan.pk)
    return render(request, "scoring/manage/game_new.html", {"event": event, "form": form})


@login_required
def game(request: HttpRequest, pk: int) -> HttpResponse:
    return _game_page(request, managed_game_or_404(request.user, pk))


@login_required
@post_only(_game_url)
def hand_add(request: HttpRequest, pk: int) -> HttpResponse:
    hanchan = managed_game_or_404(request.user, pk)
    view = game_view(hanchan)
    form = hand_form(view, request.POST)
    if form.is_valid() and form.hand is not None:
        try:
            row = services.record_hand(
                hanchan=hanchan,
                hand=form.hand,
                user=request.user,
                expected_version=form.cleaned_data.get("version"),
                tiles=hand_tiles(form),
                entry_key=form.cleaned_data.get("entry_key") or "",
            )
        except services.GameChanged as exc:
            return _changed(request, exc, hanchan)
        except ValidationError as exc:
            form.apply_engine_error(exc)
        else:
            say_hand_saved(request, row)
            return redirect("scoring_manage:game", hanchan.pk)
    return _game_page(request, hanchan, form=form, status=422)


@login_required
@post_only(_game_url)
def preview(request: HttpRequest, pk: int) -> HttpResponse:
    """The payments the hand being entered would make, shown before saving (htmx partial, POSTed by the
    hand form; ``?number=N`` previews a correction of hand N)."""
    hanchan = managed_game_or_404(request.user, pk)
    view = game_view(hanchan)
    raw = request.POST.get("number") or request.GET.get("number") or None
    number = HandNumberForm({"number": raw}).number_or_none()  # a correction of hand ``number``
    if number is not None and 1 <= number <= len(view.log):
        # The form reads the winds of the hand being corrected, not of the next one.
        state = engine.TableState(scores=[], deal=view.log[number - 1].deal)
        form = HandForm(request.POST, rules=view.rules, names=view.names, state=state)
    else:
        form = hand_form(view, request.POST)
    return render(
        request, "scoring/manage/_preview.html", preview_context(hanchan, view, form, number=number)
    )


@login_required
def hand_correct(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    hanchan = managed_game_or_404(request.user, pk)
    row = get_object_or_404(hanchan.hands.prefetch_related("wins"), number=number)
    view = game_view(hanchan)
    current = engine_hand(row, row.wins.all())
    # The form shows the players' winds as they were in that hand.
    before = view.log[number - 1]
    state = engine.TableState(scores=[], deal=before.deal)
    form = HandForm(
        request.POST or None,
        rules=view.rules,
        names=view.names,
        state=state,
        initial={"version": hanchan.version, **HandForm.initial_for(current)},
    )
    reason_error = None
    reason_form = CorrectionReasonForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and not reason_form.is_valid():
        reason_error = " ".join(reason_form.errors["correction_reason"])
        form.is_valid()  # show the hand's own errors too
    elif request.method == "POST" and form.is_valid() and form.hand is not None:
        reason = reason_form.cleaned_data["correction_reason"]
        try:
            services.correct_hand(
                hanchan=hanchan,
                number=number,
                hand=form.hand,
                user=request.user,
                reason=reason,
                expected_version=form.cleaned_data.get("version"),
            )
        except services.GameChanged as exc:
            return _changed(request, exc, hanchan)
        except ValidationError as exc:
            if hasattr(exc, "error_dict") and "reason" in exc.error_dict:
                reason_error = " ".join(exc.error_dict["reason"][0].messages)
            else:
                form.apply_engine_error(exc)
        else:
            messages.success(
                request, gettext("Hand %(number)s corrected; later hands were replayed.") % {"number": number}
            )
            return redirect("scoring_manage:game", hanchan.pk)
    return render(
        request,
        "scoring/manage/hand_correct.html",
        {
            "game": view,
            "hanchan": hanchan,
            "form": form,
            "number": number,
            "line": before,
            "reason_error": reason_error,
            # Shown back in the input only as long as the column allows (the form refused the rest).
            "reason": request.POST.get("correction_reason", "")[:300].replace("\x00", ""),
        },
        status=422 if request.method == "POST" else 200,
    )


def _undo_page(
    request: HttpRequest, hanchan: Hanchan, form: ReasonForm, *, status: int = 200
) -> HttpResponse:
    """The confirmation step of "Undo last hand": which hand goes, and why (the reason is required)."""
    view = game_view(hanchan)
    if hanchan.status == Hanchan.Status.FINISHED or not view.log:
        messages.error(
            request,
            str(UNDO_FINISHED) if view.log else gettext("There is no hand to undo."),
        )
        return redirect("scoring_manage:game", hanchan.pk)
    context = {"game": view, "hanchan": hanchan, "event": hanchan.event, "form": form, "line": view.log[-1]}
    return render(request, "scoring/manage/undo_confirm.html", context, status=status)


def _action(
    request: HttpRequest,
    pk: int,
    run: Any,
    done: Any,
    *,
    form_class: type[forms.Form] = ReasonForm,
    fields: tuple[str, ...] = (),
) -> HttpResponse:
    """A game action from its form on the game page: parse, call the service, say what happened.

    ``fields`` are the form's values passed on to ``run`` besides the reason and the version; ``done`` is
    the success message, or a function of the cleaned data that makes it."""
    hanchan = managed_game_or_404(request.user, pk)

    def call(data: dict[str, Any]) -> str:
        run(
            hanchan=hanchan,
            user=request.user,
            reason=data.get("reason") or "",
            expected_version=data.get("version"),
            **{name: data[name] for name in fields},
        )
        return done(data) if callable(done) else done

    return perform(
        request,
        form=form_class(request.POST),
        run=call,
        back=reverse("scoring_manage:game", args=[pk]),
        refusals={services.GameChanged: lambda exc: _changed(request, exc, hanchan)},
    )


@login_required
@require_http_methods(["GET", "POST"])
def undo(request: HttpRequest, pk: int) -> HttpResponse:
    """Undo the last hand: GET asks for a confirmation and a reason, POST removes the hand.

    A finished game is refused (by the service, and the game page hides the button): undoing would
    take it out of the standings without anyone deciding so.
    """
    hanchan = managed_game_or_404(request.user, pk)
    if request.method == "GET":
        return _undo_page(request, hanchan, ReasonForm(initial={"version": hanchan.version}))
    form = ReasonForm(request.POST)
    if form.is_valid():
        try:
            services.undo_last_hand(
                hanchan=hanchan,
                user=request.user,
                reason=form.cleaned_data.get("reason") or "",
                expected_version=form.cleaned_data.get("version"),
            )
        except services.GameChanged as exc:
            return _changed(request, exc, hanchan)
        except ValidationError as exc:
            if not (hasattr(exc, "error_dict") and set(exc.error_dict) <= set(form.fields)):
                messages.error(request, error_text(exc))
                return redirect("scoring_manage:game", pk)
            form.add_error(None, exc)  # the missing reason, on its field
        else:
            messages.success(request, gettext("The last hand was removed."))
            return redirect("scoring_manage:game", pk)
    return _undo_page(request, hanchan, form, status=422)


@login_required
@post_only(_game_url)
def finish(request: HttpRequest, pk: int) -> HttpResponse:
    done = gettext_lazy("The game is finished and counts in the standings.")
    return _action(request, pk, services.finish_game, done)


@login_required
@post_only(_game_url)
def void(request: HttpRequest, pk: int) -> HttpResponse:
    return _action(request, pk, services.void_game, gettext_lazy("The game is void: it no longer counts."))


@login_required
@post_only(_game_url)
def reopen(request: HttpRequest, pk: int) -> HttpResponse:
    return _action(request, pk, services.reopen_game, gettext_lazy("The game is reopened."))


@login_required
@post_only(_game_url)
def final_scores(request: HttpRequest, pk: int) -> HttpResponse:
    """The four final scores of any game: a hand-by-hand game becomes a final-scores game (its hands
    replaced only when the organiser ticks it and says why; the history keeps them)."""
    hanchan = managed_game_or_404(request.user, pk)
    view = game_view(hanchan)
    form = OrganiserFinalScoresForm(request.POST, names=view.names)
    if form.is_valid():
        try:
            saved = services.record_final_scores(
                hanchan=hanchan,
                scores=form.scores,
                sticks=form.cleaned_data["sticks"],
                user=request.user,
                expected_version=form.cleaned_data.get("version"),
                reason=form.cleaned_data.get("reason") or "",
                chombos=form.chombos,
                played_on=form.cleaned_data.get("played_on"),
                switch_mode=True,
                replace_hands=form.cleaned_data["replace"],
                entry_key=form.cleaned_data.get("entry_key") or "",
            )
        except services.GameChanged as exc:
            return _changed(request, exc, hanchan)
        except ValidationError as exc:
            # The missing reason of a correction goes on its field; an error about a setting the form
            # has no field for ("chombos") goes at the top rather than failing the request.
            add_service_errors(form, exc)
        else:
            if getattr(saved, "already_saved", False):
                messages.info(request, gettext("These final scores were already saved."))
            else:
                messages.success(request, gettext("Final scores saved: the game is finished."))
            return redirect("scoring_manage:game", pk)
    return _game_page(request, hanchan, scores_form=form, status=422)


@login_required
@post_only(_game_url)
def entry_mode(request: HttpRequest, pk: int) -> HttpResponse:
    """Enter a final-scores game hand by hand instead (its scores removed only when the organiser ticks
    it and says why; the history keeps them)."""
    return _action(
        request,
        pk,
        services.change_entry_mode,
        lambda data: (
            gettext("The game is now entered hand by hand: enter its hands below.")
            if data["entry_mode"] == Hanchan.EntryMode.HANDS
            else gettext("The game is now entered as final scores: enter them below.")
        ),
        form_class=EntryModeForm,
        fields=("entry_mode", "replace"),
    )


@login_required
def penalties(request: HttpRequest, slug: str) -> HttpResponse:
    event = managed_event_or_404(request.user, slug)
    players = Player.objects.filter(registrations__event=event).order_by("display_name")
    rounds = tournament_rounds(event)  # none for a league: the form then has no round
    form = PenaltyForm(
        request.POST or None,
        players=players,
        games=event.hanchans.all(),
        rounds=rounds,
        current_round=current_round(event) if rounds and request.method != "POST" else None,
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.add_penalty(event=event, user=request.user, **form.cleaned_data)
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            messages.success(request, gettext("Penalty given."))
            return redirect("scoring_manage:penalties", slug)
    return render(
        request,
        "scoring/manage/penalties.html",
        {
            "event": event,
            "form": form,
            "penalties": event_penalties(event),
        },
        status=422 if request.method == "POST" else 200,
    )


@login_required
@post_only(_penalties_url)
def penalty_cancel(request: HttpRequest, slug: str, penalty_id: int) -> HttpResponse:
    event = managed_event_or_404(request.user, slug)
    penalty = get_object_or_404(Penalty, pk=penalty_id, event=event)
    form = PenaltyCancelForm(request.POST)
    if not form.is_valid():
        messages.error(
            request,
            gettext("The penalty is not cancelled. %(errors)s") % {"errors": form_errors_text(form)},
        )
        return redirect("scoring_manage:penalties", slug)
    try:
        services.cancel_penalty(penalty=penalty, user=request.user, reason=form.cleaned_data["reason"])
    except ValidationError as exc:
        messages.error(request, error_text(exc))
    else:
        messages.success(request, gettext("Penalty cancelled."))
    return redirect("scoring_manage:penalties", slug)


@login_required
@post_only(_game_url)
def played_on(request: HttpRequest, pk: int) -> HttpResponse:
    """Change the date a game was played on (any game, finished or not; the history keeps the change)."""
    return _action(
        request,
        pk,
        set_played_on,
        lambda data: gettext("The game is dated %(date)s.") % {"date": data["played_on"].isoformat()},
        form_class=PlayedOnForm,
        fields=("played_on",),
    )
