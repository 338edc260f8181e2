"""Public game pages: the hand log and the final table, readable by anyone who may see the event."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from scoring.selectors import game_view, visible_game_or_404


def game(request: HttpRequest, pk: int) -> HttpResponse:
    hanchan = visible_game_or_404(request.user, pk)
    return render(request, "scoring/public/game.html", {"game": game_view(hanchan), "hanchan": hanchan})
