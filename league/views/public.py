"""Public pages of the league app: the list of events.

The event and player pages show standings and statistics too, so they live in scoring (which may import
league, not the other way round). Members-only events need a login."""

from __future__ import annotations

from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from league.permissions import visible_events


def event_list(request: HttpRequest) -> HttpResponse:
    """The events the visitor may see, newest first, with their club, kind, dates and player count."""
    events = visible_events(request.user).annotate(player_count=Count("registrations"))
    return render(request, "league/public/event_list.html", {"events": events})
