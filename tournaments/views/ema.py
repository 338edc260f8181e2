"""The organiser's EMA report page: reconciliation, MERS preview, the grid as it will be sent, downloads.

Tournaments only, and only for the organisers of that event's club (or staff): anyone else gets a 404,
as on every manage page, so that nobody learns which other events exist.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy

from league.models import Event
from league.permissions import managed_event_or_404
from tournaments.ema.reconciliation import by_stage, reconcile
from tournaments.ema.report import COLUMNS, EmaResultsExport

# The page shows the report's header keys and grid columns in the reader's language; the files keep the
# EMA's English names (a fixed format: tournaments/ema/report.py).
HEADER_LABELS = {
    "Tournament": gettext_lazy("Tournament"),
    "City": gettext_lazy("City"),
    "Country": gettext_lazy("Country"),
    "Start date": gettext_lazy("Start date"),
    "End date": gettext_lazy("End date"),
    "Days": gettext_lazy("Days"),
    "Players": gettext_lazy("Players"),
    "Countries": gettext_lazy("Countries"),
    "Rules": gettext_lazy("Rules"),
    "MERS weight": gettext_lazy("MERS weight"),
}
COLUMN_LABELS = {
    "Place": gettext_lazy("Place"),
    "First Name": gettext_lazy("First Name"),
    "Last name": gettext_lazy("Last name"),
    "EMA number": gettext_lazy("EMA number"),
    "Table points": gettext_lazy("Table points"),
    "Score": gettext_lazy("Score"),
    "Ema Member": gettext_lazy("Ema Member"),
    "Country": gettext_lazy("Country"),
}
NUMERIC_COLUMNS = {"Place", "Table points", "Score"}


def _tournament_or_404(user: Any, slug: str) -> Event:
    """The EMA report exists for tournaments: a club league is not an EMA-ranked event."""
    event = managed_event_or_404(user, slug)
    if event.kind != Event.Kind.TOURNAMENT:
        raise Http404("Not a tournament.")
    return event


@login_required
def overview(request: HttpRequest, slug: str) -> HttpResponse:
    event = _tournament_or_404(request.user, slug)
    export = EmaResultsExport(event)
    check = reconcile(event, export=export)
    return render(
        request,
        "tournaments/manage/ema.html",
        {
            "event": event,
            "export": export,
            "header": [
                (HEADER_LABELS.get(k, k), v.isoformat() if isinstance(v, date) else v)
                for k, v in export.header.items()
            ],
            "weight": dict(export.header.items())["MERS weight"],
            "rows": export.rows,
            "columns": [(COLUMN_LABELS.get(c, c), c in NUMERIC_COLUMNS) for c in COLUMNS],
            "check": check,
            "stage_checks": by_stage(event, check),
        },
    )


@login_required
def download(request: HttpRequest, slug: str, fmt: str) -> HttpResponse:
    """The report as a file. Sent even when the reconciliation flags something: it warns, never blocks."""
    event = _tournament_or_404(request.user, slug)
    if fmt not in EmaResultsExport.formats:
        raise Http404("Unknown format.")
    report = EmaResultsExport(event).render(fmt)
    response = HttpResponse(report.data, content_type=report.content_type)
    response["Content-Disposition"] = f'attachment; filename="{report.filename}"'
    return response
