"""Who may read what through the API: the pages' rules (``league.permissions``, ``league.hidden_rounds``)
applied to an API request, never restated.

An anonymous request sees what an anonymous visitor of the pages sees; a logged-in session what that
user sees on the pages. Members-only data answers 404 to whoever may not see it (the pages' login
redirect has no meaning for a program: ``LoginRequired`` is an ``Http404``).

One addition, and only for one event: a key of that event with the "read private data" scope reads it
as its organisers do — members-only or not, every round (hidden ones too), every player's details.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404

from league.hidden_rounds import hidden_after_round, in_hidden_round
from league.models import Club, Event, Hanchan, Player
from league.permissions import (
    PRIVATE_FIELDS,
    Shown,
    player_page_is_public,
    require_visible_player,
    visible_event_or_404,
    visible_events,
)
from scoring.cache import results_key
from scoring.selectors import public_game_or_404

from .models import ApiKey


def api_key(request: Any) -> ApiKey | None:
    """The key the request presents (``api.authentication``), if any."""
    key = getattr(request, "auth", None)
    return key if isinstance(key, ApiKey) else None


def private(request: Any, event_id: int) -> bool:
    """Whether the request reads event ``event_id`` as its organisers do (a key of it that may)."""
    key = api_key(request)
    return key is not None and key.event_id == event_id and key.allows(ApiKey.Scope.READ_PRIVATE)


def event_or_404(request: Any, slug: str) -> Event:
    """The event of the URL if the requester may read it (read once per request: the ETag and the view
    both need it)."""
    event = getattr(request, "_api_event", None)
    if event is None or event.slug != slug:
        key = api_key(request)
        if key is not None and key.event.slug == slug and private(request, key.event_id):
            event = key.event
        else:
            event = visible_event_or_404(request.user, slug)
        request._api_event = event
    return event


def events(request: Any) -> QuerySet[Event]:
    """The events the requester may read: the pages' ``visible_events``, and a private reader's own."""
    visible = visible_events(request.user)
    key = api_key(request)
    if key is not None and private(request, key.event_id):
        visible = visible | Event.objects.filter(pk=key.event_id).select_related("club")
    return visible


def tournament_or_404(request: Any, slug: str) -> Event:
    """A tournament the requester may read: rounds, seating and clocks are a tournament's."""
    event = event_or_404(request, slug)
    if event.kind != Event.Kind.TOURNAMENT:
        raise Http404("Not a tournament.")
    return event


def hidden_after(request: Any, event: Event) -> int | None:
    """The last round of ``event`` the requester may see results of (None: every round)."""
    if private(request, event.pk):
        return None
    return hidden_after_round(event)


def event_tag(request: Any, event: Event) -> tuple[Any, ...] | None:
    """The ETag parts of an answer about ``event``'s results: its results key — which moves only with
    what the public may see, so none for a private reader of an event keeping rounds hidden."""
    if private(request, event.pk):
        if hidden_after_round(event) is not None:
            return None
        return (*results_key(event), "private")
    return results_key(event)


def visible_games(request: Any, event: Event) -> QuerySet[Hanchan]:
    """The event's games the requester may see: those of rounds kept for a final reveal left out."""
    games = Hanchan.objects.filter(event=event)
    if hidden_after(request, event) is not None:
        games = games.exclude(in_hidden_round(""))
    return games


def game_or_404(request: Any, pk: int) -> Hanchan:
    """A game the requester may see (its event's visibility, and not in a hidden round)."""
    game = getattr(request, "_api_game", None)
    if game is None or game.pk != pk:
        key = api_key(request)
        game = None
        if key is not None and private(request, key.event_id):
            games = Hanchan.objects.select_related("event", "event__club")
            game = games.filter(pk=pk, event=key.event_id).first()
        if game is None:
            game = public_game_or_404(request.user, pk)
        hidden = hidden_after(request, game.event)
        if hidden is not None and (game.round_number or 0) > hidden:
            raise Http404("This game is in a round kept hidden until the standings are released.")
        request._api_game = game
    return game


def player_or_404(request: Any, pk: int) -> Player:
    """A player whose page the requester may see (``require_visible_player``)."""
    player = getattr(request, "_api_player", None)
    if player is None or player.pk != pk:
        try:
            player = Player.objects.select_related("club").get(pk=pk)
        except Player.DoesNotExist:
            raise Http404("No such player.") from None
        require_visible_player(request.user, player)
        request._api_player = player
    return player


def shows_details(request: Any, player: Player, event: Event) -> bool:
    """Whether a list of ``event`` may show ``player``'s details (names, EMA number, country) or their
    display name only: the rule of the event page's players table (``league/_players_table.html``)."""
    return bool(request.user.is_authenticated) or player_page_is_public(player) or private(request, event.pk)


def sees_everything_in(request: Any, event: Event) -> bool:
    """Whether the requester reads every field of ``event``'s players whatever they keep private: an
    organiser of the event (or staff), or a key of the event's own. Worked out once per request."""
    known = getattr(request, "_api_everything", None)
    if known is None or known[0] != event.pk:
        user = request.user
        everything = bool(
            private(request, event.pk)
            or (
                user.is_authenticated
                and (user.is_staff or Club.objects.filter(pk=event.club_id, organisers=user).exists())
            )
        )
        known = (event.pk, everything)
        request._api_everything = known
    return known[1]


def shown_in_event(request: Any, player: Player, event: Event) -> Shown:
    """What a list of ``event`` shows of ``player``: every field to the event's organisers and to the
    player themselves, else what the player keeps public (no query per player: a list stays bounded)."""
    user = request.user
    if sees_everything_in(request, event) or (
        user.is_authenticated and player.user_id is not None and player.user_id == user.pk
    ):
        return Shown(True, *([True] * len(PRIVATE_FIELDS)))
    return Shown(False, *(bool(getattr(player, f"public_{name}")) for name in PRIVATE_FIELDS))
