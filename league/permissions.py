"""Who may see and manage what. Manage views answer 404 (not 403) for someone else's objects, so that
an organiser cannot even learn which other events exist."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404

from .models import Club, Event


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


def visible_event_or_404(user: Any, slug: str) -> Event:
    event = get_object_or_404(Event.objects.select_related("club"), slug=slug)
    if event.visibility == Event.Visibility.MEMBERS and not user.is_authenticated:
        raise Http404("This event is visible to members only.")
    return event
