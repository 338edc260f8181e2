"""The public yaku page of an event: which yaku its players won with, over the games with yaku recorded.

A page of its own (not a section of the event page) so that the standings page, the one a tournament's
crowd reloads, does not pay for it."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from league.permissions import visible_event_or_404
from scoring.standings import hidden_after_round
from scoring.views.public import login_for_members_only
from scoring.yaku_stats import event_yaku


@login_for_members_only
def event_yaku_table(request: HttpRequest, slug: str) -> HttpResponse:
    """The event's yaku table (two queries for the figures, whatever the number of games)."""
    event = visible_event_or_404(request.user, slug)
    summary = event_yaku(event, up_to_round=hidden_after_round(event))  # hidden rounds stay hidden here too
    return render(request, "scoring/public/yaku.html", {"event": event, "summary": summary})
