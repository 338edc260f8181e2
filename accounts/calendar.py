"""iCalendar feeds (RFC 5545, written with the ``icalendar`` package): an event's rounds, and a player's
own schedule — each seated round with its table and wind.

Rounds have no planned start time in Tenbou: a round is timed once the organiser opens it (its clock's
start, else its opening, lasting the round's minutes); a round not open yet is an all-day entry on the
event's first day ("time to be announced"), which a calendar app moves once the feed is read again. Each
entry's UID is stable (the event and round number), so a reader updates it rather than adding another.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext
from icalendar import Calendar
from icalendar import Event as VEvent

from league.engine_text import wind_name
from league.models import Event, Hanchan, Player, Seat
from tournaments.models import Round

PRODID = "-//Tenbou//riichi mahjong//EN"


def _calendar(name: str) -> Calendar:
    cal = Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("x-wr-calname", name)
    cal.add("x-wr-timezone", settings.TIME_ZONE)
    return cal


def _round_times(row: Round | None, event: Event) -> tuple[datetime, datetime] | None:
    """When the round is (or was) played, if it has started."""
    if row is None:
        return None
    start = row.clock_started_at or row.opened_at
    if start is None:
        return None
    minutes = row.minutes or event.round_minutes or 90
    end = row.closed_at if row.closed_at and row.closed_at > start else start + timedelta(minutes=minutes)
    return start, end


def _day(event: Event) -> date:
    return event.start_date or timezone.localdate()


def _entry(uid: str, summary: str, event: Event, row: Round | None, description: str = "") -> VEvent:
    entry = VEvent()
    entry.add("uid", uid)
    entry.add("dtstamp", timezone.now())
    entry.add("summary", summary)
    times = _round_times(row, event)
    if times is None:
        entry.add("dtstart", _day(event))
        entry.add("dtend", _day(event) + timedelta(days=1))
        description = " ".join(p for p in (description, gettext("Time to be announced.")) if p)
    else:
        entry.add("dtstart", times[0])
        entry.add("dtend", times[1])
    if event.city:
        entry.add("location", event.city)
    if description:
        entry.add("description", description)
    return entry


def _uid(event: Event, number: int, who: str = "") -> str:
    return f"round-{event.pk}-{number}{who}@tenbou"


def _seated_rounds(event: Event) -> list[int]:
    return sorted(
        set(
            Hanchan.objects.filter(event=event, round_number__isnull=False)
            .exclude(status=Hanchan.Status.VOID)
            .values_list("round_number", flat=True)
            .order_by()
        )
    )


def event_calendar(event: Event) -> bytes:
    """The event's rounds (three queries)."""
    cal = _calendar(event.name)
    rows = {r.number: r for r in Round.objects.filter(event=event)}
    for number in _seated_rounds(event):
        summary = gettext("%(event)s: round %(n)s") % {"event": event.name, "n": number}
        cal.add_component(_entry(_uid(event, number), summary, event, rows.get(number)))
    return cal.to_ical()


def player_calendar(player: Player) -> bytes:
    """The player's seats in tournament rounds (their table and wind), every event (two queries)."""
    cal = _calendar(gettext("%(player)s: my tables") % {"player": player.display_name})
    seats = list(
        Seat.objects.filter(player=player, hanchan__round_number__isnull=False)
        .exclude(hanchan__status=Hanchan.Status.VOID)
        .select_related("hanchan__event")
        .order_by("hanchan__event_id", "hanchan__round_number")
    )
    keys = {(s.hanchan.event_id, s.hanchan.round_number) for s in seats}
    rows = {
        (r.event_id, r.number): r
        for r in Round.objects.filter(event_id__in={event for event, _n in keys})
        if (r.event_id, r.number) in keys
    }
    for seat in seats:
        game = seat.hanchan
        event = game.event
        summary = gettext("%(event)s: round %(n)s, table %(table)s, %(wind)s") % {
            "event": event.name,
            "n": game.round_number,
            "table": game.table_number,
            "wind": wind_name(seat.seat),
        }
        uid = _uid(event, game.round_number, f"-player-{player.pk}")
        cal.add_component(_entry(uid, summary, event, rows.get((event.pk, game.round_number))))
    return cal.to_ical()
