"""The team league: a club league (``Event.kind == league``) played by teams over a season of match days.

A match day seats *teams*, not players: its tables are team slots (:class:`~tournaments.models.MatchSlot`,
one team per seat), drawn like a tournament's rounds so that over the season every team meets the others
as evenly as the tables allow and sits each wind as often (``tournaments.seating.reseat_remaining``
with the match days already drawn as the rounds played). With ``slots`` seats per team, a match day has
``teams × slots / 4`` tables. Every hanchan at a table, each team sends one of its players (a member or
one of its substitutes) to its seat; between hanchans it may send another (a substitution): each game is
a league game of its own (``scoring.services.start_game``), linked to its table by a
:class:`~tournaments.models.MatchGame`, and the team standings (``tournaments.teams``) add up the season.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Prefetch
from django.utils.translation import gettext, ngettext

from league import phrases
from league.engine_text import wind_name
from league.models import Event, Hanchan, Player, Seat
from scoring import services as scoring_services
from scoring.services import history
from tournaments import seating

from .models import MatchDay, MatchGame, MatchSlot, Team, TeamMember

MAX_SLOTS = 8
"""The most seats a team may have on one match day."""


def _lock(event: Event) -> None:
    list(Event.objects.select_for_update(no_key=True).filter(pk=event.pk).values_list("pk", flat=True))


def _league(event: Event) -> None:
    if event.kind != Event.Kind.LEAGUE:
        raise ValidationError(gettext("Match days belong to a team league; a tournament seats its rounds."))


def next_number(event: Event) -> int:
    """The number of the match day to schedule next. One query."""
    last = MatchDay.objects.filter(event=event).order_by("-number").values_list("number", flat=True).first()
    return (last or 0) + 1


@transaction.atomic
def schedule_match_day(
    *, event: Event, number: int, played_on: date, slots: int, user: Any, seed: int | None = None
) -> MatchDay:
    """Draw match day ``number`` (the next one: a form sent twice is refused, not drawn twice): its
    tables of four teams, ``slots`` seats per team, keeping the match days already drawn as they are.

    Every team of the event plays, so the number of teams must be a multiple of four.
    """
    _league(event)
    if type(slots) is not int or not 1 <= slots <= MAX_SLOTS:
        raise ValidationError(
            {"slots": gettext("Seats per team: a whole number from 1 to %(max)d.") % {"max": MAX_SLOTS}}
        )
    if not isinstance(played_on, date):
        raise ValidationError({"played_on": gettext("Played on: enter a date (YYYY-MM-DD).")})
    _lock(event)
    expected = next_number(event)
    if number != expected:
        raise ValidationError(
            {
                "number": gettext(
                    "Match day %(number)s is already drawn: the next one is match day %(next)s."
                )
                % {"number": number, "next": expected}
                if number < expected
                else gettext("Match days are drawn in order: the next one is match day %(next)s.")
                % {"next": expected}
            }
        )
    team_ids = list(Team.objects.filter(event=event).order_by("pk").values_list("pk", flat=True))
    if len(team_ids) < seating.TABLE_SIZE or len(team_ids) % seating.TABLE_SIZE:
        raise ValidationError(
            ngettext(
                "A match day seats four teams per table, every team playing: the number of teams must be a "
                "multiple of four (4, 8, 12…), and the event has %(count)d team.",
                "A match day seats four teams per table, every team playing: the number of teams must be a "
                "multiple of four (4, 8, 12…), and the event has %(count)d teams.",
                len(team_ids),
            )
            % {"count": len(team_ids)}
        )
    index = {pk: i for i, pk in enumerate(team_ids)}
    # The tables drawn so far, each as a round of its own: what counts is who met whom and who sat
    # which wind, and a team that joined later is simply absent from them.
    tables: dict[tuple[int, int], list[int | None]] = defaultdict(lambda: [None] * seating.TABLE_SIZE)
    for day, table, seat, team in MatchSlot.objects.filter(match_day__event=event).values_list(
        "match_day_id", "table", "seat", "team_id"
    ):
        tables[day, table][seat] = index[team]
    played = [[table] for table in tables.values() if None not in table]
    try:
        drawn = seating.reseat_remaining(
            played,  # type: ignore[arg-type]
            list(range(len(team_ids))),
            slots,
            n_players=len(team_ids),
            tables=len(team_ids) // seating.TABLE_SIZE,
            seed=(event.seating_seed if seed is None else seed) + number,
        )
    except ValueError as exc:
        raise ValidationError(gettext("The match day cannot be drawn: %(error)s.") % {"error": exc}) from None
    match_day = MatchDay.objects.create(event=event, number=number, played_on=played_on)
    rows = []
    for sub_round, round_ in enumerate(drawn.rounds):
        for t, table in enumerate(round_, start=1):
            number_of_table = sub_round * len(round_) + t
            rows += [
                MatchSlot(match_day=match_day, table=number_of_table, seat=seat, team_id=team_ids[i])
                for seat, i in enumerate(table)
            ]
    MatchSlot.objects.bulk_create(rows)
    history.log(
        event=event,
        user=user,
        action="match day scheduled",
        summary=phrases.say(
            phrases.ngettext_lazy(
                "Match day %(number)s on %(date)s: %(tables)d table",
                "Match day %(number)s on %(date)s: %(tables)d tables",
                "tables",
            ),
            number=number,
            date=played_on.isoformat(),
            tables=len(rows) // seating.TABLE_SIZE,
        ),
    )
    return match_day


def _slots(match_day: MatchDay, table: int) -> list[MatchSlot]:
    return list(
        MatchSlot.objects.filter(match_day=match_day, table=table).select_related("team").order_by("seat")
    )


@transaction.atomic
def start_match_game(
    *,
    match_day: MatchDay,
    table: int,
    players: Sequence[Player | None],
    user: Any,
    entry_mode: str = Hanchan.EntryMode.HANDS,
) -> Hanchan:
    """The next hanchan at ``table`` of ``match_day``: ``players`` in seat order, each a member (or a
    substitute) of the team of that seat. A team may send another player than last time (a
    substitution); a player cannot sit at two tables at once.

    The table's previous hanchan must be over (finished or void). Sending the same four players again
    while their game is in progress (a form sent twice) answers that game instead of starting another.
    """
    event = match_day.event
    _league(event)
    _lock(event)
    slots = _slots(match_day, table)
    if len(slots) != seating.TABLE_SIZE:
        raise ValidationError(
            {
                "table": gettext("Match day %(day)s has no table %(table)s.")
                % {"day": match_day.number, "table": table}
            }
        )
    if len(players) != seating.TABLE_SIZE:
        raise ValidationError(gettext("A game needs four players, one in each seat."))
    errors: dict[str, list[str]] = {}
    teams_of = defaultdict(set)
    for player_id, team_id in TeamMember.objects.filter(
        team__event=event, registration__player__in=[p for p in players if p is not None]
    ).values_list("registration__player_id", "team_id"):
        teams_of[player_id].add(team_id)
    for seat, (slot, player) in enumerate(zip(slots, players, strict=True)):
        key = f"seat_{seat}"
        if player is None:
            errors[key] = [
                gettext("%(wind)s: team %(team)s sends a player.")
                % {"wind": wind_name(seat), "team": slot.team}
            ]
        elif slot.team_id not in teams_of.get(player.pk, ()):
            errors[key] = [
                gettext("%(wind)s: %(player)s is not in team %(team)s, whose seat this is.")
                % {"wind": wind_name(seat), "player": player, "team": slot.team}
            ]
    if errors:
        raise ValidationError(errors)
    chosen = [p for p in players if p is not None]
    games = MatchGame.objects.filter(match_day=match_day)
    running = (
        games.filter(table=table, hanchan__status=Hanchan.Status.IN_PROGRESS)
        .select_related("hanchan")
        .first()
    )
    if running is not None:
        seated = list(
            Seat.objects.filter(hanchan=running.hanchan).order_by("seat").values_list("player_id", flat=True)
        )
        if seated == [p.pk for p in chosen]:
            return running.hanchan  # the same form again: that game
        raise ValidationError(
            gettext(
                "Table %(table)s of match day %(day)s is still playing its hanchan (#%(game)s): finish or "
                "void it before the next one."
            )
            % {"table": table, "day": match_day.number, "game": running.hanchan_id}
        )
    busy = (
        Seat.objects.filter(
            hanchan__match_game__match_day=match_day,
            hanchan__status=Hanchan.Status.IN_PROGRESS,
            player__in=chosen,
        )
        .select_related("player", "hanchan__match_game")
        .first()
    )
    if busy is not None:
        raise ValidationError(
            gettext("%(player)s is playing at table %(table)s of this match day.")
            % {"player": busy.player, "table": busy.hanchan.match_game.table}
        )
    hanchan = scoring_services.start_game(
        event=event, players=chosen, user=user, entry_mode=entry_mode, played_on=match_day.played_on
    )
    MatchGame.objects.create(hanchan=hanchan, match_day=match_day, table=table)
    return hanchan


# -- reads --------------------------------------------------------------------------------------------------


@dataclass
class SlotView:
    seat: int
    team: Team
    members: list[Player]
    """Who the team may send: its members and substitutes, by name."""
    last: Player | None = None
    """Who sat here in the table's last hanchan (the form's default)."""

    @property
    def wind(self) -> str:
        return wind_name(self.seat)


@dataclass
class TableView:
    table: int
    slots: list[SlotView]
    games: list[Hanchan] = field(default_factory=list)

    @property
    def playing(self) -> Hanchan | None:
        return next((g for g in self.games if g.status == Hanchan.Status.IN_PROGRESS), None)


@dataclass
class MatchDayView:
    day: MatchDay
    tables: list[TableView]


def match_day_view(match_day: MatchDay) -> MatchDayView:
    """A match day's tables: the teams in their seats, who each may send, the hanchans played there
    with their seats. Four queries whatever the number of tables and games."""
    slots = list(
        MatchSlot.objects.filter(match_day=match_day).select_related("team").order_by("table", "seat")
    )
    members: dict[int, list[Player]] = defaultdict(list)
    for member in (
        TeamMember.objects.filter(team__in={s.team_id for s in slots})
        .select_related("registration__player")
        .order_by("registration__is_substitute", "registration__player__display_name")
    ):
        members[member.team_id].append(member.registration.player)
    games = (
        MatchGame.objects.filter(match_day=match_day)
        .select_related("hanchan")
        .prefetch_related(
            Prefetch("hanchan__seats", queryset=Seat.objects.select_related("player").order_by("seat"))
        )
        .order_by("table", "hanchan__created_at", "hanchan_id")
    )
    by_table: dict[int, list[Hanchan]] = defaultdict(list)
    for game in games:
        by_table[game.table].append(game.hanchan)
    tables: dict[int, TableView] = {}
    for slot in slots:
        view = tables.setdefault(
            slot.table, TableView(table=slot.table, slots=[], games=by_table[slot.table])
        )
        view.slots.append(SlotView(seat=slot.seat, team=slot.team, members=members[slot.team_id]))
    for view in tables.values():
        last = next((g for g in reversed(view.games) if g.status != Hanchan.Status.VOID), None)
        if last is not None:
            seated = {seat.seat: seat.player for seat in last.seats.all()}
            for slot_view in view.slots:
                slot_view.last = seated.get(slot_view.seat)
    return MatchDayView(day=match_day, tables=[tables[n] for n in sorted(tables)])


def match_days(event: Event) -> list[tuple[MatchDay, int, int]]:
    """Each match day with its number of tables and of hanchans. Three queries."""
    days = list(MatchDay.objects.filter(event=event).order_by("number"))
    tables: dict[int, set[int]] = defaultdict(set)
    for day, table in MatchSlot.objects.filter(match_day__event=event).values_list("match_day_id", "table"):
        tables[day].add(table)
    games: dict[int, int] = defaultdict(int)
    for day in MatchGame.objects.filter(match_day__event=event).values_list("match_day_id", flat=True):
        games[day] += 1
    return [(day, len(tables[day.pk]), games[day.pk]) for day in days]
