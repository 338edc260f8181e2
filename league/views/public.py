"""Public pages of the league app (placeholders until the standings work lands)."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from league.models import Player
from league.permissions import visible_event_or_404, visible_events


def event_list(request: HttpRequest) -> HttpResponse:
    events = visible_events(request.user)
    return render(request, "league/public/event_list.html", {"events": events})


def event_detail(request: HttpRequest, slug: str) -> HttpResponse:
    event = visible_event_or_404(request.user, slug)
    return render(request, "league/public/event_detail.html", {"event": event})


def player_detail(request: HttpRequest, pk: int) -> HttpResponse:
    player = get_object_or_404(Player.objects.select_related("club"), pk=pk)
    return render(request, "league/public/player_detail.html", {"player": player})
