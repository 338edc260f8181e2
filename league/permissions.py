"""Who may see and manage what. Manage views answer 404 (not 403) for someone else's objects, so that
an organiser cannot even learn which other events exist."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
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


# -- who may change a player ---------------------------------------------------------------------------
#
# A player belongs to one club (``Player.club``), and their details — names, EMA number, country, online
# names, whether their page is public — are that club's to keep: they are what the club's EMA reports
# and members list show. Another club may *register* the player in its own events (found by their EMA
# number, which public pages show) but never change them. This is the one rule of every write path that
# changes a player: the edit page, the registration services (which fill in blank details), the import
# of online games (which remembers a player's online name) and the admin.


def editable_players(user: Any) -> QuerySet[Player]:
    """The players ``user`` may change: every player for staff, those of the clubs they organise
    otherwise (a player of no club: staff only, since no club's organisers speak for them)."""
    if user is None or not user.is_authenticated:
        return Player.objects.none()
    if user.is_staff:
        return Player.objects.all()
    return Player.objects.filter(club__in=managed_clubs(user).values("pk"))


def can_edit_player(user: Any, player: Player, *, event: Event | None = None) -> bool:
    """Whether ``user`` may change ``player``'s details (see :func:`editable_players`).

    ``event``: the change is made while working on that event (registering a player in it, importing
    its games), on behalf of its club: only a player of the event's own club is changed there, whoever
    the user is (a staff member registering a visitor in a tournament registers them as they are).
    ``user`` None is the command line, whose operator holds the database anyway.
    """
    if event is not None and (player.club_id is None or player.club_id != event.club_id):
        return False
    if user is None:
        return True
    if not user.is_authenticated:
        return False
    if user.is_staff:
        return True
    return player.club_id is not None and managed_clubs(user).filter(pk=player.club_id).exists()


def managed_player_or_404(user: Any, pk: int) -> Player:
    """A player the user may change (:func:`editable_players`), or 404 — also for a player of another
    club registered in one of the user's events: registering a visitor gives no right over them."""
    return get_object_or_404(editable_players(user).select_related("club"), pk=pk)


def is_member(user: Any) -> bool:
    """Whether ``user`` reads what events and players keep for members: staff, a club's organisers, and
    a player whose account a club linked to their player record (an organiser linked it, or handed them
    the claim code). Logging in alone is not membership: anyone may sign up for a player's account, and
    a members-only event is its clubs' business. Worked out once per request (kept on the user)."""
    if user is None or not user.is_authenticated:
        return False
    if user.is_staff:
        return True
    known = getattr(user, "_tenbou_member", None)
    if known is None:
        known = (
            get_user_model()
            .objects.filter(pk=user.pk)
            .filter(Q(organised_clubs__isnull=False) | Q(player__isnull=False))
            .exists()
        )
        user._tenbou_member = known
    return known


def members_only_refusal(user: Any, message: str) -> Http404:
    """What a visitor who may not read a members-only page is answered: :class:`LoginRequired` (the
    login page, then back) before logging in, a plain 404 for an account that is not a member's."""
    return Http404(message) if user.is_authenticated else LoginRequired(message)


def visible_events(user: Any) -> QuerySet[Event]:
    """Events a visitor may read: public ones, and members-only ones for members (:func:`is_member`)."""
    events = Event.objects.select_related("club")
    if is_member(user):
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
    if event.visibility == Event.Visibility.MEMBERS and not is_member(user):
        raise members_only_refusal(user, "This event is visible to members only.")
    return event


def require_login_for_members_game(user: Any, pk: int) -> None:
    """Raise :class:`LoginRequired` when an anonymous visitor asks for a game of a members-only event.

    Only the existence of the game is revealed (that a login is needed), as for an event's page; a
    logged-in user, or a game that does not exist, is left to the usual visibility check (404).
    """
    if is_member(user):
        return
    if Hanchan.objects.filter(pk=pk, event__visibility=Event.Visibility.MEMBERS).exists():
        raise members_only_refusal(user, "This game belongs to an event visible to members only.")


def played_by(player: Player) -> Q:
    """Events in which ``player`` plays: registered, seated, or replaced by a substitute at a table."""
    return (
        Q(registrations__player=player)
        | Q(hanchans__seats__player=player)
        | Q(hanchans__seats__on_behalf_of=player)
    )


def player_page_is_public(player: Player) -> bool:
    """Whether the player lets the public see their page (``Player.visibility``: theirs and their club's
    decision). A members-only player's page needs a login whatever events they play in; the public pages
    of those events show their display name only (``league/_players_table.html``)."""
    return player.visibility != Player.Visibility.MEMBERS


PRIVATE_FIELDS = ("full_name", "club", "country", "ema_number", "statistics", "ratings")
"""What a player may keep off their public page, each a ``Player.public_<name>`` flag."""


@dataclass(frozen=True)
class Shown:
    """Which of a player's fields a visitor reads (:func:`shown_fields`); ``everything`` when the visitor
    is the player or one of their organisers (their choices do not apply to them)."""

    everything: bool
    full_name: bool
    club: bool
    country: bool
    ema_number: bool
    statistics: bool
    ratings: bool

    @property
    def key(self) -> tuple[bool, ...]:
        """For cache keys and ETags: what decides the page's content."""
        return (self.everything, *(getattr(self, name) for name in PRIVATE_FIELDS))


def sees_everything_of(user: Any, player: Player) -> bool:
    """Whether ``user`` reads every field of ``player`` whatever the player made private: the player
    themselves, staff, the organisers of the player's club and of any event the player plays in. No query
    for a visitor; at most one for an account, kept on the user for the request."""
    if user is None or not user.is_authenticated:
        return False
    if user.is_staff or (player.user_id is not None and player.user_id == user.pk):
        return True
    known: dict[int, bool] = getattr(user, "_tenbou_sees_everything", None) or {}
    if player.pk not in known:
        known[player.pk] = (
            Club.objects.filter(organisers=user)
            .filter(Q(pk=player.club_id) | Q(events__in=Event.objects.filter(played_by(player))))
            .exists()
        )
        user._tenbou_sees_everything = known
    return known[player.pk]


def shown_fields(user: Any, player: Player) -> Shown:
    """Which fields of ``player``'s page ``user`` reads (the name and results always). A player who keeps
    nothing private costs no query: everyone reads everything."""
    flags = [bool(getattr(player, f"public_{name}")) for name in PRIVATE_FIELDS]
    if all(flags) or sees_everything_of(user, player):
        return Shown(True, *([True] * len(PRIVATE_FIELDS)))
    return Shown(False, *flags)


def new_player_visibility(event: Event) -> str:
    """The page visibility of a player created for ``event`` (registered in it, or imported from its
    games): public for a public event, members-only for a members-only one. Their club changes it."""
    if event.visibility == Event.Visibility.MEMBERS:
        return Player.Visibility.MEMBERS
    return Player.Visibility.PUBLIC


def require_visible_player(user: Any, player: Player) -> None:
    """Raise unless the visitor may see ``player``'s page (one query when they may).

    A player page shows a person's name, club, country and EMA number. It is as public as the player
    lets it be (:func:`player_page_is_public`) and, within that, only as public as the events they play
    in: a members-only player, or a player of members-only events only, is :class:`LoginRequired` for an
    anonymous visitor (as members-only events' own pages are), and a 404 for anyone who may see none of
    their events, including a player who plays nowhere yet. Player ids are sequential, so a page that
    answered otherwise would list every member of every club. Registering a members-only player in a
    public event — another club may, by EMA number — does not make their page public.
    """
    if (is_member(user) or player_page_is_public(player)) and visible_events(user).filter(
        played_by(player)
    ).exists():
        return
    if Event.objects.filter(played_by(player)).exists():
        raise members_only_refusal(user, "This player's page is visible to members only.")
    raise Http404("No such player in an event you can see.")
