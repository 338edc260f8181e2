"""Public pages of the league app: events and players. Members-only events need a login; everything
else is readable by anyone, in a bounded number of queries (players check these on phones)."""

from __future__ import annotations

from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from league.forms import preset_label
from league.models import Player, Registration
from league.permissions import visible_event_or_404, visible_events


def event_list(request: HttpRequest) -> HttpResponse:
    """The events the visitor may see, newest first, with their club, kind, dates and player count."""
    events = visible_events(request.user).annotate(player_count=Count("registrations"))
    return render(request, "league/public/event_list.html", {"events": events})


def event_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """An event: club, dates, rules in words and registered players (standings come in a block)."""
    event = visible_event_or_404(request.user, slug)
    registrations = Registration.objects.filter(event=event).select_related("player")
    return render(
        request,
        "league/public/event_detail.html",
        {
            "event": event,
            "rules": event.rules.describe(),
            "preset_label": preset_label(event.rules.preset),
            "registrations": registrations,
        },
    )


def player_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A player: name, club, country, EMA number and the events they play in that the visitor may see."""
    player = get_object_or_404(Player.objects.select_related("club"), pk=pk)
    registrations = (
        Registration.objects.filter(player=player, event__in=visible_events(request.user))
        .select_related("event", "event__club")
        .order_by("-event__start_date", "event__name")
    )
    return render(
        request, "league/public/player_detail.html", {"player": player, "registrations": registrations}
    )
