"""Organisers' pages of the league app. Every view checks the user's rights on that object."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from league.permissions import managed_clubs, managed_event_or_404, managed_events


@login_required
def dashboard(request: HttpRequest) -> HttpResponse:
    return render(request, "league/manage/dashboard.html", {
        "clubs": managed_clubs(request.user), "events": managed_events(request.user).select_related("club"),
    })


@login_required
def event_detail(request: HttpRequest, slug: str) -> HttpResponse:
    event = managed_event_or_404(request.user, slug)
    return render(request, "league/manage/event_detail.html", {"event": event})
