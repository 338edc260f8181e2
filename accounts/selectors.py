"""Reads of the players' side: a player's own page, what a follower's home page shows, and the
schedules the calendar feeds list. Each costs a fixed number of queries, whatever the player's history.

"Next table": the player's seat in a game of a tournament round that is not closed — the open round's
first, else the lowest round seated ahead (the room's wall shows that seating before the round opens,
so it is public too). Results the public may not see yet (a tournament's hidden rounds) are left out of
what a follower reads and of the player's own statistics, as every public page leaves them out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import OuterRef, Prefetch, Q, QuerySet, Subquery

from league.hidden_rounds import in_hidden_round
from league.models import Event, Hanchan, Player, Registration, Seat
from league.permissions import visible_events
from scoring.models import SeatResult
from scoring.selectors import game_view
from scoring.statistics import GameResult, HandStats, Placements, game_results, hand_stats, tally
from tournaments.models import Round, SeatConfirmation, TableLink


@dataclass
class NextTable:
    """A seat the player has ahead of them (or is sitting at): where, which wind, the round's state."""

    seat: Seat
    game: Hanchan
    event: Event
    round_number: int
    round_status: str
    table: int | None

    @property
    def wind(self) -> int:
        return self.seat.seat

    @property
    def playing(self) -> bool:
        return self.round_status == Round.Status.OPEN


@dataclass
class LiveTable:
    """The player's table while its round is open: the four names and their scores now."""

    game: Hanchan
    rows: list[tuple[str, int, bool]]  # (name, score now, is me)
    hands: int


@dataclass
class MyCode:
    """The player's own confirmation code for a game their table handed in (or will hand in)."""

    game: Hanchan
    code: str
    confirmed: bool
    waiting: bool  # handed in: the code (or the button) confirms now


@dataclass
class MyPage:
    player: Player
    next_tables: list[NextTable]
    live: LiveTable | None
    codes: list[MyCode]
    games: list[GameResult]
    placements: Placements
    hands: HandStats
    registrations: list[Registration] = field(default_factory=list)


def _round_statuses(event_ids: set[int]) -> dict[tuple[int, int], str]:
    rows = Round.objects.filter(event_id__in=event_ids).values_list("event_id", "number", "status")
    return {(event_id, number): status for event_id, number, status in rows}


def next_tables(
    players: list[Player] | QuerySet[Player], *, limit_per_player: int = 1, public_only: bool = False
) -> dict[int, list[NextTable]]:
    """Each player's seats in games of rounds not closed yet, the open rounds first (two queries for any
    number of players). ``public_only``: only in public events (what anyone following them may read)."""
    ids = [p.pk for p in players]
    rows = Seat.objects.filter(
        player_id__in=ids,
        hanchan__status=Hanchan.Status.IN_PROGRESS,
        hanchan__round_number__isnull=False,
        hanchan__submitted_at__isnull=True,
    )
    if public_only:
        rows = rows.filter(hanchan__event__visibility=Event.Visibility.PUBLIC)
    seats = list(
        rows.select_related("hanchan__event__club").order_by(
            "hanchan__event__start_date", "hanchan__round_number", "pk"
        )
    )
    statuses = _round_statuses({s.hanchan.event_id for s in seats})
    found: dict[int, list[NextTable]] = {pk: [] for pk in ids}
    ahead = []
    for seat in seats:
        game = seat.hanchan
        status = statuses.get((game.event_id, game.round_number), Round.Status.PENDING)
        if status == Round.Status.CLOSED:
            continue
        ahead.append(NextTable(seat, game, game.event, game.round_number, status, game.table_number))
    ahead.sort(key=lambda n: (not n.playing, n.round_number))
    for item in ahead:
        if len(found[item.seat.player_id]) < limit_per_player:
            found[item.seat.player_id].append(item)
    return found


def latest_results(players: list[Player]) -> dict[int, SeatResult]:
    """Each player's latest result the public may see: of a public event, not of a round its tournament
    keeps hidden (two queries for any number of players)."""
    public = SeatResult.objects.filter(event__visibility=Event.Visibility.PUBLIC).exclude(
        in_hidden_round("hanchan")
    )
    latest = (
        Player.objects.filter(pk__in=[p.pk for p in players])
        .annotate(
            latest=Subquery(
                public.filter(player=OuterRef("pk")).order_by("-finished_at", "-hanchan_id").values("pk")[:1]
            )
        )
        .values_list("latest", flat=True)
    )
    rows = SeatResult.objects.filter(pk__in=[pk for pk in latest if pk is not None]).select_related("event")
    return {row.player_id: row for row in rows}


def _live(player: Player, upcoming: list[NextTable]) -> LiveTable | None:
    playing = next((n for n in upcoming if n.playing), None)
    if playing is None:
        return None
    view = game_view(playing.game)
    scores = view.state.scores
    rows = [
        (seat.player.display_name, scores[i], seat.player_id == player.pk)
        for i, seat in enumerate(view.seats)
    ]
    return LiveTable(playing.game, rows, len(view.hands))


def live_table(player: Player) -> LiveTable | None:
    """My table's scores now, while its round is open (what my page polls): about six queries."""
    return _live(player, next_tables([player], limit_per_player=5)[player.pk])


def my_codes(player: Player) -> list[MyCode]:
    """The player's own seat codes on the active links of their games waiting for (or heading to) the
    players' confirmation (two queries)."""
    seats = {
        (s.hanchan_id, s.seat): s
        for s in Seat.objects.filter(
            player=player,
            hanchan__status=Hanchan.Status.IN_PROGRESS,
            hanchan__event__confirmation=Event.Confirmation.PLAYERS,
        ).select_related("hanchan__event")
    }
    if not seats:
        return []
    links = TableLink.objects.filter(
        hanchan_id__in={game for game, _seat in seats}, revoked_at__isnull=True
    ).prefetch_related(Prefetch("confirmations", queryset=SeatConfirmation.objects.order_by("seat")))
    found = []
    for link in links:
        for confirmation in link.confirmations.all():
            seat = seats.get((link.hanchan_id, confirmation.seat))
            if seat is not None:
                game = seat.hanchan
                found.append(
                    MyCode(
                        game,
                        confirmation.code,
                        confirmation.confirmed_at is not None,
                        game.submitted_at is not None,
                    )
                )
    found.sort(key=lambda c: (c.game.event_id, c.game.round_number or 0))
    return found


def my_page(player: Player, user: Any) -> MyPage:
    """Everything ``/me/`` shows. About a dozen queries, whatever the number of games."""
    upcoming = next_tables([player], limit_per_player=5)[player.pk]
    events = visible_events(user)
    games = game_results(player, events, hidden=in_hidden_round("hanchan"))
    registrations = list(
        Registration.objects.filter(player=player)
        .select_related("event__club")
        .order_by("-event__start_date", "-pk")
    )
    return MyPage(
        player=player,
        next_tables=upcoming,
        live=_live(player, upcoming),
        codes=my_codes(player),
        games=list(reversed(games))[:50],
        placements=tally(games),
        hands=hand_stats(player, events, hidden=in_hidden_round("hanchan")),
        registrations=registrations,
    )


def followed(ids: list[int]) -> list[Player]:
    """The players a follower's browser lists whose pages are public (members-only players are left out:
    the follower may be anyone). One query."""
    return list(
        Player.objects.filter(pk__in=ids, visibility=Player.Visibility.PUBLIC)
        .filter(Q(registrations__event__visibility=Event.Visibility.PUBLIC))
        .distinct()
        .order_by("display_name")
    )
