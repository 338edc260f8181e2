"""Public pages that show results: an event (standings), a player (statistics), a game (hand log).

Readable by anyone who may see the event; members-only events need a login."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from league.forms import preset_label
from league.models import Player, Registration
from league.permissions import visible_event_or_404, visible_events
from scoring.selectors import game_view, visible_game_or_404


def game(request: HttpRequest, pk: int) -> HttpResponse:
    hanchan = visible_game_or_404(request.user, pk)
    return render(request, "scoring/public/game.html", {"game": game_view(hanchan), "hanchan": hanchan})


def event(request: HttpRequest, slug: str) -> HttpResponse:
    """An event: club, dates, rules in words and registered players (standings come in a block)."""
    event = visible_event_or_404(request.user, slug)
    registrations = Registration.objects.filter(event=event).select_related("player")
    return render(
        request,
        "scoring/public/event.html",
        {
            "event": event,
            "rules": event.rules.describe(),
            "preset_label": preset_label(event.rules.preset),
            "registrations": registrations,
        },
    )


def player(request: HttpRequest, pk: int) -> HttpResponse:
    """A player: name, club, country, EMA number and the events they play in that the visitor may see."""
    player = get_object_or_404(Player.objects.select_related("club"), pk=pk)
    registrations = (
        Registration.objects.filter(player=player, event__in=visible_events(request.user))
        .select_related("event", "event__club")
        .order_by("-event__start_date", "event__name")
    )
    return render(request, "scoring/public/player.html", {"player": player, "registrations": registrations})
