"""Public pages of the league app: the list of events.

The event and player pages show standings and statistics too, so they live in scoring (which may import
league, not the other way round). Members-only events need a login."""

from __future__ import annotations

from typing import Any

from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from league.models import Club, Event, Registration
from league.permissions import visible_events
from league.wholepage import whole_page


def _event_list_key(request: HttpRequest) -> tuple[Any, ...]:
    """What the list shows to a visitor who is not logged in, read in one plain query (registrations
    change the counts without moving an event's results version, so the list is keyed by its own rows;
    rendering them is what the cache saves)."""
    from django.db import connection

    quote = connection.ops.quote_name
    event, club, registration = (quote(m._meta.db_table) for m in (Event, Club, Registration))
    with connection.cursor() as cursor:
        cursor.execute(
            f'SELECT e."id", e."slug", e."name", e."kind", c."name", e."start_date", e."end_date", e."city", '
            f'(SELECT COUNT(*) FROM {registration} r WHERE r."event_id" = e."id") '
            f'FROM {event} e JOIN {club} c ON c."id" = e."club_id" WHERE e."visibility" = %s ORDER BY e."id"',
            [Event.Visibility.PUBLIC],
        )
        return tuple(cursor.fetchall())


@whole_page(_event_list_key)
def event_list(request: HttpRequest) -> HttpResponse:
    """The events the visitor may see, newest first, with their club, kind, dates and player count."""
    events = visible_events(request.user).annotate(player_count=Count("registrations"))
    return render(request, "league/public/event_list.html", {"events": events})
