"""What the organiser's game page and a table's own page (``tournaments.views.table``) share when a hand
or the final scores are entered: the forms as the game stands, the preview of a hand's payments, and
what is said once a hand is saved. One place, so that a table's phone and the organiser's page can never
disagree on what a form accepts or on what a payment preview shows."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.utils.translation import gettext

from league.models import Hanchan
from scoring import services
from scoring.forms import FinalScoresForm, HandForm
from scoring.records import chombo_penalties_by_seat


def hand_form(view: Any, data: Any = None, initial: dict[str, Any] | None = None) -> HandForm:
    """The next hand's form: the winds and scores of the game as it stands, and its version."""
    return HandForm(
        data,
        rules=view.rules,
        names=view.names,
        state=view.state,
        initial={"version": view.hanchan.version, **(initial or {})},
    )


def hand_tiles(form: HandForm) -> list[str] | None:
    """The tiles typed with the hand, in the form the services store them (or None)."""
    return [form.data.get("tiles")] if form.cleaned_data.get("tiles") else None


def final_scores_form(
    view: Any,
    game: Hanchan,
    data: Any = None,
    *,
    form_class: type[FinalScoresForm] = FinalScoresForm,
    auto_id: str = "id_%s",
    **initial: Any,
) -> FinalScoresForm:
    """The final-scores form filled with what is stored: scores, sticks left and chombos per seat
    (``auto_id``: its own ids, on a page that has another form with the same field names)."""
    values: dict[str, Any] = {"version": game.version, "sticks": game.final_sticks, **initial}
    chombos = chombo_penalties_by_seat(game)
    for seat in view.seats:
        values[f"score_{seat.seat}"] = seat.final_score
        values[f"chombo_{seat.seat}"] = chombos[seat.seat]
    return form_class(data, initial=values, names=view.names, auto_id=auto_id)


def say_hand_saved(request: HttpRequest, row: Any) -> None:
    """Saved, or already saved by the same form sent twice (a double tap, a resent page)."""
    if row.already_saved:
        messages.info(
            request, gettext("This hand was already saved (hand %(number)s).") % {"number": row.number}
        )
    else:
        messages.success(request, gettext("Hand %(number)s saved.") % {"number": row.number})


def preview_context(game: Hanchan, view: Any, form: HandForm, *, number: int | None = None) -> dict[str, Any]:
    """The payments the hand being entered would make, or why it cannot be entered (htmx partial)."""
    context: dict[str, Any] = {"game": view, "form": form}
    if form.is_valid() and form.hand is not None:
        try:
            outcome = services.preview(game, form.hand, number=number)
        except ValidationError as exc:
            context["error"] = " ".join(exc.messages)
        else:
            context["outcome"] = outcome
            context["rows"] = list(zip(view.names, outcome.deltas, outcome.scores, strict=True))
    else:
        context["error"] = " ".join(str(e) for errors in form.errors.values() for e in errors)
    return context
