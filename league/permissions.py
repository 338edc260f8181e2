"""Who may see and manage what. Manage views answer 404 (not 403) for someone else's objects, so that
an organiser cannot even learn which other events exist."""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404

from .models import Club, Event, Hanchan, Player


def managed_clubs(user: Any) -> QuerySet[Club]:
    """Clubs the user organises (all of them for staff)."""
    if not user.is_authenticated:
        return Club.objects.none()
    if user.is_staff:
        return Club.objects.all()
    return Club.objects.filter(organisers=user)


def managed_events(user: Any) -> QuerySet[Event]:
    if not user.is_authenticated:
        return Event.objects.none()
    if user.is_staff:
        return Event.objects.all()
    return Event.objects.filter(club__organisers=user)


def managed_club_or_404(user: Any, slug: str) -> Club:
    return get_object_or_404(managed_clubs(user), slug=slug)


def managed_event_or_404(user: Any, slug: str) -> Event:
    return get_object_or_404(managed_events(user).select_related("club"), slug=slug)


def visible_events(user: Any) -> QuerySet[Event]:
    """Events a visitor may read: public ones, and members-only ones once logged in."""
    events = Event.objects.select_related("club")
    if user.is_authenticated:
        return events
    return events.filter(visibility=Event.Visibility.PUBLIC)


class LoginRequired(Http404):
    """An anonymous visitor asked for a members-only page: a login would show it.

    Public views turn it into a redirect to the login page (with ``?next=``), so a member who followed
    a link is asked to log in rather than told the page does not exist. It is an ``Http404`` so that
    any code that does not handle it still answers 404 — never a server error, never the page.
    """


def visible_event_or_404(user: Any, slug: str) -> Event:
    """The event if the visitor may read it; :class:`LoginRequired` for an anonymous visitor of a
    members-only event, 404 when there is no such event."""
    event = get_object_or_404(Event.objects.select_related("club"), slug=slug)
    if event.visibility == Event.Visibility.MEMBERS and not user.is_authenticated:
        raise LoginRequired("This event is visible to members only.")
    return event


def require_login_for_members_game(user: Any, pk: int) -> None:
    """Raise :class:`LoginRequired` when an anonymous visitor asks for a game of a members-only event.

    Only the existence of the game is revealed (that a login is needed), as for an event's page; a
    logged-in user, or a game that does not exist, is left to the usual visibility check (404).
    """
    if user.is_authenticated:
        return
    if Hanchan.objects.filter(pk=pk, event__visibility=Event.Visibility.MEMBERS).exists():
        raise LoginRequired("This game belongs to an event visible to members only.")


def played_by(player: Player) -> Q:
    """Events in which ``player`` plays: registered, seated, or replaced by a substitute at a table."""
    return (
        Q(registrations__player=player)
        | Q(hanchans__seats__player=player)
        | Q(hanchans__seats__on_behalf_of=player)
    )


def require_visible_player(user: Any, player: Player) -> None:
    """Raise unless ``player`` plays in an event the visitor may see (one query when they do).

    A player page shows a person's name, club, country and EMA number: it is only as public as the
    events they play in. A player of members-only events only is :class:`LoginRequired` for an anonymous
    visitor (as the events' own pages are), and a 404 for anyone who may see none of their events,
    including a player who plays nowhere yet. Player ids are sequential, so a page that answered
    otherwise would list every member of every club.
    """
    if visible_events(user).filter(played_by(player)).exists():
        return
    if not user.is_authenticated and Event.objects.filter(played_by(player)).exists():
        raise LoginRequired("This player plays in events visible to members only.")
    raise Http404("No such player in an event you can see.")
