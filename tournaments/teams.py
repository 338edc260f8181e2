"""Teams of an event: the writes (create, rename, delete a team, its members and captain, the pasted
``Team; Player`` lines, the standings setting) and the reads (teams and their members, the groups the
seating keeps apart, the team standings and a team's page).

A player (or a substitute) is in at most one team of an event: a :class:`~tournaments.models.TeamMember`
is its registration, unique, so the database keeps the rule whatever the forms offer. Every write is one
transaction with one history entry (which moves the event's results version on, so cached pages and
the wall's team slide follow), and a refusal is a ``ValidationError`` naming the field and the rule.

The points are added up by :mod:`tournaments.team_points` (pure): here they are read from the cached
seat results as the individual standings read them (``scoring.standings``: the same finished games, the
same credited player, the same event-level penalties and "after round N").
"""

from __future__ import annotations

import csv
from collections import defaultdict
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Prefetch, Sum
from django.db.models.deletion import ProtectedError, RestrictedError
from django.utils.translation import gettext, gettext_noop

from league import phrases
from league import services as league_services
from league.collation import name_sort_key
from league.models import Event, Player, Registration, Seat
from scoring.models import Penalty
from scoring.services import history
from scoring.standings import (
    StandingRow,
    finished_results,
    hidden_after_round,
    hidden_games,
    penalties_up_to_round,
    public_options,
    standings,
)
from scoring.statistics import HandStats, hand_stats_by_player

from . import team_points
from .models import Team, TeamMember, TeamSettings

NAME_LENGTH = Team._meta.get_field("name").max_length or 80

# The flags a pasted line may end with (";captain", ";substitute"), in English or the page's language.
CAPTAIN, SUBSTITUTE = "captain", "substitute"

# What the history says of teams (stored as phrases: shown in the reader's language).
TEAMS_CREATED = phrases.ngettext_lazy("%(count)d team created", "%(count)d teams created", "count")
PLAYERS_REGISTERED = phrases.ngettext_lazy(
    "%(count)d player registered", "%(count)d players registered", "count"
)
MEMBERS_ADDED = phrases.ngettext_lazy("%(count)d member added", "%(count)d members added", "count")
COUNTING_WORDS = {
    "sum": gettext_noop("the sum of the members' points"),
    "best": gettext_noop("the best members' results in each round"),
}


def _lock(event: Event) -> None:
    """Serialise the team changes of one event: the checks below read what this transaction sees."""
    list(Event.objects.select_for_update(no_key=True).filter(pk=event.pk).values_list("pk", flat=True))


def _clean_name(name: str, field_name: str = "name") -> str:
    text = " ".join((name or "").split())
    if not text:
        raise ValidationError({field_name: gettext("Team name: give the team a name.")})
    if len(text) > NAME_LENGTH:
        raise ValidationError(
            {
                field_name: gettext("Team name %(name)s: at most %(max)d characters.")
                % {"name": text[:20] + "…", "max": NAME_LENGTH}
            }
        )
    if any(not ch.isprintable() for ch in text):
        raise ValidationError({field_name: gettext("Team name: no control characters.")})
    return text


def _name_taken(event: Event, name: str, exclude: int | None = None) -> Team | None:
    return Team.objects.filter(event=event, name__iexact=name).exclude(pk=exclude).first()


# -- reads ------------------------------------------------------------------------------------------------


def teams_of(event: Event) -> list[Team]:
    """The event's teams by name, each with ``members`` prefetched (registration and player), captain
    first then by name. Two queries."""
    members = TeamMember.objects.select_related("registration__player")
    teams = list(
        Team.objects.filter(event=event).prefetch_related(
            Prefetch("members", queryset=members, to_attr="roster")
        )
    )
    for team in teams:
        team.roster.sort(  # type: ignore[attr-defined]
            key=lambda m: (
                not m.is_captain,
                m.registration.is_substitute,
                name_sort_key(m.registration.player.display_name),
            )
        )
    teams.sort(key=lambda t: name_sort_key(t.name))
    return teams


def team_of_players(event: Event) -> dict[int, int]:
    """Player id -> team id, for every team member of the event. One query."""
    return dict(
        TeamMember.objects.filter(team__event=event).values_list("registration__player_id", "team_id")
    )


def groups(event: Event, player_ids: Iterable[int]) -> list[list[int]]:
    """The teams among ``player_ids`` (the players a seating seats): lists of player ids, each of two
    players or more, for the seating's ``groups=`` once mapped to its indices. One query."""
    wanted = set(player_ids)
    by_team: dict[int, list[int]] = defaultdict(list)
    for player_id, team_id in team_of_players(event).items():
        if player_id in wanted:
            by_team[team_id].append(player_id)
    return [sorted(members) for _team, members in sorted(by_team.items()) if len(members) > 1]


def indexed_groups(event: Event, index: dict[int, int]) -> list[list[int]]:
    """:func:`groups` in a seating's indices (``index``: player id -> index)."""
    return [[index[pk] for pk in group] for group in groups(event, index)]


@dataclass(frozen=True)
class Together:
    """Teammates seated at one table of a round (what the seating keeps from happening)."""

    round: int
    table: int
    team: str
    players: tuple[str, ...]

    @property
    def pairs(self) -> int:
        return len(self.players) * (len(self.players) - 1) // 2


def teammates_together(event: Event, rounds: Iterable[int] | None = None) -> list[Together]:
    """Every table of the event's seated ``rounds`` (all when None) where teammates sit together, by
    round and table. Two queries."""
    team_of: dict[int, tuple[int, str]] = {
        player: (team, name)
        for player, team, name in TeamMember.objects.filter(team__event=event).values_list(
            "registration__player_id", "team_id", "team__name"
        )
    }
    if not team_of:
        return []
    seats = Seat.objects.filter(hanchan__event=event, hanchan__round_number__isnull=False)
    if rounds is not None:
        seats = seats.filter(hanchan__round_number__in=sorted(set(rounds)))
    at: dict[tuple[int, int, int, int], list[str]] = defaultdict(list)
    names: dict[int, str] = {}
    rows = seats.filter(player_id__in=list(team_of)).values_list(
        "hanchan__round_number", "hanchan__table_number", "hanchan_id", "player_id", "player__display_name"
    )
    for number, table, game, player, name in rows.order_by():
        team, team_name = team_of[player]
        names[team] = team_name
        at[number, table or 0, game, team].append(name)
    found = [
        Together(number, table, names[team], tuple(sorted(players, key=name_sort_key)))
        for (number, table, _game, team), players in at.items()
        if len(players) > 1
    ]
    return sorted(found, key=lambda t: (t.round, t.table, name_sort_key(t.team)))


def together_by_round(found: Iterable[Together]) -> dict[int, int]:
    """Round -> teammate pairs sharing a table in it."""
    counts: dict[int, int] = defaultdict(int)
    for item in found:
        counts[item.round] += item.pairs
    return dict(counts)


def check_teammates_apart(event: Event, rounds: Iterable[int], before: dict[int, int]) -> None:
    """Refuse (rolling back the caller's transaction) a seating change that seats more teammates
    together in one of ``rounds`` than ``before`` (:func:`together_by_round` before the change): teams
    are a hard constraint of the seating, kept by swaps and replacements too. A round where the seating
    had to put teammates together (a team larger than the tables) may keep them so."""
    found = teammates_together(event, rounds)
    after = together_by_round(found)
    worse = [item for item in found if after.get(item.round, 0) > before.get(item.round, 0)]
    if worse:
        raise ValidationError(
            gettext("Refused, nothing was changed: teammates never share a table. %(tables)s")
            % {"tables": " ".join(describe_together(item) for item in worse)}
        )


def describe_together(item: Together) -> str:
    return gettext("%(players)s (team %(team)s) would sit at table %(table)s of round %(round)s.") % {
        "players": ", ".join(item.players),
        "team": item.team,
        "table": item.table,
        "round": item.round,
    }


def settings_of(event: Event) -> TeamSettings:
    """The event's team standings setting (an unsaved default, the sum, when never set). One query."""
    found = TeamSettings.objects.filter(event=event).first()
    return found if found is not None else TeamSettings(event=event)


def has_teams(event: Event) -> bool:
    return Team.objects.filter(event=event).exists()


# -- writes -------------------------------------------------------------------------------------------------


@transaction.atomic
def create_team(*, event: Event, name: str, user: Any) -> Team:
    """A new team without members. Refused when the event has a team of that name (case aside)."""
    name = _clean_name(name)
    _lock(event)
    taken = _name_taken(event, name)
    if taken is not None:
        raise ValidationError(
            {"name": gettext("Team name %(name)s: the event already has that team.") % {"name": taken.name}}
        )
    team = Team.objects.create(event=event, name=name)
    history.log(
        event=event,
        user=user,
        action="team created",
        summary=phrases.say(gettext_noop("Team %(team)s created"), team=name),
    )
    return team


@transaction.atomic
def rename_team(*, team: Team, name: str, user: Any) -> Team:
    name = _clean_name(name)
    _lock(team.event)
    taken = _name_taken(team.event, name, exclude=team.pk)
    if taken is not None:
        raise ValidationError(
            {"name": gettext("Team name %(name)s: the event already has that team.") % {"name": taken.name}}
        )
    before = Team.objects.get(pk=team.pk).name
    if before == name:
        return team
    team.name = name
    team.save(update_fields=["name"])
    history.log(
        event=team.event,
        user=user,
        action="team renamed",
        summary=phrases.say(gettext_noop("Team %(before)s renamed %(after)s"), before=before, after=name),
        before={"name": before},
        after={"name": name},
    )
    return team


@transaction.atomic
def delete_team(*, team: Team, user: Any) -> None:
    """Delete a team (its players stay registered). Refused once the team has seats on a match day of
    a team league: those games were played by the team."""
    _lock(team.event)
    name = team.name
    members = list(
        TeamMember.objects.filter(team=team).values_list("registration__player__display_name", flat=True)
    )
    try:
        Team.objects.filter(pk=team.pk).delete()
    except (ProtectedError, RestrictedError):
        raise ValidationError(
            gettext(
                "Team %(team)s has seats on a match day: it can no longer be deleted (rename it instead)."
            )
            % {"team": name}
        ) from None
    history.log(
        event=team.event,
        user=user,
        action="team deleted",
        summary=phrases.say(gettext_noop("Team %(team)s deleted"), team=name),
        before={"name": name, "members": sorted(members)},
    )


def _registration(event: Event, player: Player, field_name: str = "player") -> Registration:
    found = Registration.objects.filter(event=event, player=player).first()
    if found is None:
        raise ValidationError(
            {
                field_name: gettext("%(player)s is not registered in %(event)s: register them first.")
                % {"player": player, "event": event}
            }
        )
    return found


@transaction.atomic
def add_member(*, team: Team, player: Player, user: Any, captain: bool = False) -> TeamMember:
    """Put a registered player (or substitute) in ``team``. Refused when they are in another team of the
    event; nothing happens when they already are in this one (a form sent twice)."""
    event = team.event
    _lock(event)
    registration = _registration(event, player)
    member = TeamMember.objects.filter(registration=registration).select_related("team").first()
    if member is not None and member.team_id != team.pk:
        raise ValidationError(
            {
                "player": gettext("%(player)s is already in team %(team)s: a player is in one team at most.")
                % {"player": player, "team": member.team.name}
            }
        )
    if member is None:
        member = TeamMember.objects.create(team=team, registration=registration)
        history.log(
            event=event,
            user=user,
            action="team member added",
            summary=phrases.say(
                gettext_noop("%(player)s joins team %(team)s"), player=player.display_name, team=team.name
            ),
        )
    if captain and not member.is_captain:
        _make_captain(team, member, user)
    return member


@transaction.atomic
def remove_member(*, team: Team, player: Player, user: Any) -> None:
    """Take a player out of ``team`` (they stay registered; their games stop counting for the team)."""
    _lock(team.event)
    deleted, _ = TeamMember.objects.filter(team=team, registration__player=player).delete()
    if not deleted:
        raise ValidationError(
            {"player": gettext("%(player)s is not in team %(team)s.") % {"player": player, "team": team.name}}
        )
    history.log(
        event=team.event,
        user=user,
        action="team member removed",
        summary=phrases.say(
            gettext_noop("%(player)s leaves team %(team)s"), player=player.display_name, team=team.name
        ),
    )


def _make_captain(team: Team, member: TeamMember | None, user: Any) -> None:
    before = (
        TeamMember.objects.filter(team=team, is_captain=True).select_related("registration__player").first()
    )
    if (before.pk if before else None) == (member.pk if member else None):
        return
    TeamMember.objects.filter(team=team, is_captain=True).update(is_captain=False)
    if member is not None:
        TeamMember.objects.filter(pk=member.pk).update(is_captain=True)
        member.is_captain = True
    old = before.registration.player.display_name if before else ""
    new = member.registration.player.display_name if member else ""
    summary = (
        phrases.say(gettext_noop("%(player)s is the captain of team %(team)s"), player=new, team=team.name)
        if member
        else phrases.say(gettext_noop("Team %(team)s has no captain"), team=team.name)
    )
    history.log(
        event=team.event,
        user=user,
        action="team captain set",
        summary=summary,
        before={"captain": old},
        after={"captain": new},
    )


@transaction.atomic
def set_captain(*, team: Team, player: Player | None, user: Any) -> None:
    """Make ``player`` (a member of the team) its captain; None leaves the team without one."""
    _lock(team.event)
    member = None
    if player is not None:
        member = (
            TeamMember.objects.filter(team=team, registration__player=player)
            .select_related("registration__player")
            .first()
        )
        if member is None:
            raise ValidationError(
                {
                    "captain": gettext("Captain: %(player)s is not in team %(team)s; add them first.")
                    % {"player": player, "team": team.name}
                }
            )
    _make_captain(team, member, user)


@transaction.atomic
def update_settings(*, event: Event, counting: str, best: int | None, user: Any) -> TeamSettings:
    """Choose how the team standings count (see :mod:`tournaments.team_points`)."""
    if counting not in TeamSettings.Counting.values:
        raise ValidationError(
            {"counting": gettext("Team points: choose the sum or the best members per round.")}
        )
    if counting == TeamSettings.Counting.BEST and (type(best) is not int or not 1 <= best <= 50):
        raise ValidationError({"best": gettext("Members counted per round: a whole number from 1 to 50.")})
    _lock(event)
    found = TeamSettings.objects.filter(event=event).first()
    current = found if found is not None else TeamSettings(event=event)
    before = {"counting": current.counting, "best": current.best}
    current.counting = counting
    if best is not None:
        current.best = best
    after = {"counting": current.counting, "best": current.best}
    if found is not None and before == after:
        return current  # the same form again
    current.save()
    old, new, summary = history.changes(before, after)
    history.log(
        event=event,
        user=user,
        action="team settings changed",
        summary=summary
        if summary["changes"]
        else phrases.say(
            gettext_noop("team points: %(counting)s"), counting=phrases.say(COUNTING_WORDS[current.counting])
        ),
        before=old,
        after=new,
    )
    return current


# -- the paste: "Team; Player" lines --------------------------------------------------------------------


@dataclass
class TeamPaste:
    """What a paste did: teams created, players registered, members added, captains set."""

    teams: int = 0
    registered: int = 0
    members: int = 0
    captains: int = 0
    notices: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(self.teams or self.registered or self.members or self.captains)


@dataclass
class _Line:
    number: int
    team: str
    flag: str
    registration: Registration | None
    plan: Any  # league_services.PlayerPlan | None


def _flag(text: str) -> str | None:
    """``captain``, ``substitute``, ``""`` (no flag), or None for a word that is neither."""
    word = text.strip().casefold()
    if not word:
        return ""
    for key, label in ((CAPTAIN, gettext("captain")), (SUBSTITUTE, gettext("substitute"))):
        if word in (key, label.casefold()):
            return key
    return None


def _line_number(message: str) -> int:
    """The line a paste's message is about (its leading number), for sorting them."""
    digits = "".join(ch for ch in message.split(":", 1)[0] if ch.isdigit())
    return int(digits) if digits else 0


def _player_key(line: _Line) -> tuple[str, Any]:
    if line.registration is not None:
        return ("player", line.registration.player_id)
    plan = line.plan
    if not plan.is_new:
        return ("player", plan.player.pk)
    return ("name", plan.player.display_name.casefold())


def _numbered_lines(text: str) -> list[tuple[int, str]]:
    """The paste's non-blank lines with their numbers, a header line left out; refused when empty or
    larger than the players' paste allows (a paste is checked and saved within one request)."""
    if len(text or "") > league_services.PASTE_MAX_CHARS:
        raise ValidationError(
            gettext("The paste holds %(count)d characters: at most %(max)d at a time; paste it in parts.")
            % {"count": len(text), "max": league_services.PASTE_MAX_CHARS}
        )
    numbered = [(n, line) for n, line in enumerate((text or "").splitlines(), start=1) if line.strip()]
    if len(numbered) > league_services.PASTE_MAX_LINES:
        raise ValidationError(
            gettext("The paste holds %(count)d lines: at most %(max)d at a time; paste it in parts.")
            % {"count": len(numbered), "max": league_services.PASTE_MAX_LINES}
        )
    header = ("team", gettext("team").casefold())
    if numbered and numbered[0][1].split(";", 1)[0].strip().casefold() in header:
        numbered = numbered[1:]
    if not numbered:
        raise ValidationError(
            gettext("Paste at least one line: the team, a semicolon, then the player (Red; Ann).")
        )
    return numbered


def _parse_line(event: Event, number: int, raw: str, user: Any) -> _Line | list[str]:
    """One pasted line as a :class:`_Line` (its player found among the registrations or planned by
    league's lookup), or the messages saying what is wrong with it."""
    if ";" not in raw:
        return [
            gettext("line %(number)s: write the team, a semicolon, then the player (Red; Ann).")
            % {"number": number}
        ]
    team_text, rest = raw.split(";", 1)
    player_text, *flags = rest.split(";")
    try:
        team = _clean_name(team_text)
    except ValidationError as exc:
        return [
            gettext("line %(number)s: %(message)s") % {"number": number, "message": m} for m in exc.messages
        ]
    flag = _flag(flags[0]) if len(flags) == 1 else ("" if not flags else None)
    if flag is None:
        return [
            gettext(
                "line %(number)s: after the player, only %(captain)s or %(substitute)s may follow "
                "(Red; Ann; %(captain)s)."
            )
            % {"number": number, "captain": gettext("captain"), "substitute": gettext("substitute")}
        ]
    try:
        fields = next(csv.reader([player_text], skipinitialspace=True), [])
    except csv.Error:
        fields = player_text.split(",")
    fields = [f.strip() for f in fields]
    if len(fields) > league_services.CSV_FIELDS:
        return [
            gettext("line %(number)s: the player has at most %(max)s columns (%(columns)s), found %(count)s.")
            % {
                "number": number,
                "max": league_services.CSV_FIELDS,
                "columns": league_services.CSV_COLUMNS,
                "count": len(fields),
            }
        ]
    registration, plan, errors = league_services.plan_pasted_player(event, fields, user=user)
    if errors or (registration is None and plan is None):
        return league_services.line_messages(number, errors)
    return _Line(number, team, flag, registration, plan)


def _across_lines(lines: list[_Line], memberships: dict[int, TeamMember]) -> list[str]:
    """The rules across lines and with the teams already there: one team per player, one captain per
    team, a registered player's kind (player or substitute) as registered."""
    messages: list[str] = []
    captains: dict[str, int] = {}
    for line in lines:
        if line.registration is not None:
            member = memberships.get(line.registration.pk)
            player = line.registration.player.display_name
            if member is not None and member.team.name.casefold() != line.team.casefold():
                messages.append(
                    gettext(
                        "line %(number)s: %(player)s is already in team %(team)s: a player is in one team "
                        "at most."
                    )
                    % {"number": line.number, "player": player, "team": member.team.name}
                )
            if line.flag == SUBSTITUTE and not line.registration.is_substitute:
                messages.append(
                    gettext("line %(number)s: %(player)s is registered as a player, not as a substitute.")
                    % {"number": line.number, "player": player}
                )
        if line.flag == CAPTAIN:
            team_key = line.team.casefold()
            if team_key in captains:
                messages.append(
                    gettext("line %(number)s: team %(team)s already has its captain on line %(other)s.")
                    % {"number": line.number, "team": line.team, "other": captains[team_key]}
                )
            captains[team_key] = line.number
    return messages


def _save_paste(event: Event, lines: list[_Line], memberships: dict[int, TeamMember], user: Any) -> TeamPaste:
    """Write checked lines: register the new players (league's history entries), create the missing
    teams, add the members not in them yet, set the captains."""
    done = TeamPaste()
    plans = []
    for line in lines:
        if line.registration is None:
            line.plan.is_substitute = line.flag == SUBSTITUTE
            done.notices += line.plan.notices
            plans.append(line.plan)
    existing = {t.name.casefold(): t for t in Team.objects.filter(event=event)}
    made = iter(league_services.register_planned(event=event, plans=plans, user=user))
    done.registered = len(plans)
    new_members: list[TeamMember] = []
    for line in lines:
        if line.registration is None:
            line.registration = next(made)
        team = existing.get(line.team.casefold())
        if team is None:
            team = existing[line.team.casefold()] = Team.objects.create(event=event, name=line.team)
            done.teams += 1
        if line.registration.pk not in memberships:
            member = memberships[line.registration.pk] = TeamMember(team=team, registration=line.registration)
            new_members.append(member)
    TeamMember.objects.bulk_create(new_members)
    done.members = len(new_members)
    for line in lines:
        if line.flag == CAPTAIN and line.registration is not None:
            member = TeamMember.objects.get(registration=line.registration)
            if not member.is_captain:
                TeamMember.objects.filter(team=member.team_id, is_captain=True).update(is_captain=False)
                TeamMember.objects.filter(pk=member.pk).update(is_captain=True)
                done.captains += 1
    return done


@transaction.atomic
def register_teams(*, event: Event, text: str, user: Any) -> TeamPaste:
    """Register pasted ``Team; Player`` lines, all or none: the team is created if the event has none of
    that name, the player registered if they are not (the player's columns are those of the players'
    paste: display name, then optionally given name, family name, EMA number, …) and put in the team.
    A line may end with ``; captain`` or ``; substitute`` (a new registration as a substitute).

    Every line is checked before anything is written and every wrong line is reported with its number,
    in the order of the paste. Pasting the same lines again changes nothing (a player already in the
    team stays); a player in another team, or named on two lines, is an error.
    """
    numbered = _numbered_lines(text)
    _lock(event)
    messages: list[str] = []
    lines: list[_Line] = []
    seen: dict[tuple[str, Any], int] = {}
    for number, raw in numbered:
        parsed = _parse_line(event, number, raw, user)
        if isinstance(parsed, list):
            messages += parsed
            continue
        key = _player_key(parsed)
        if key in seen:
            name = (parsed.registration or parsed.plan).player.display_name
            messages.append(
                gettext("line %(number)s: same player as line %(other)s (%(player)s)")
                % {"number": number, "other": seen[key], "player": name}
            )
            continue
        seen[key] = number
        lines.append(parsed)
    memberships = {
        m.registration_id: m
        for m in TeamMember.objects.filter(registration__event=event).select_related("team")
    }
    messages += _across_lines(lines, memberships)
    if messages:
        raise ValidationError(sorted(messages, key=_line_number))  # "line 2" never after "line 7"
    try:
        with transaction.atomic():
            done = _save_paste(event, lines, memberships, user)
    except IntegrityError:
        raise ValidationError(
            gettext("Someone changed these teams at the same time: nothing was saved, try again.")
        ) from None
    if done.changed:
        history.log(
            event=event,
            user=user,
            action="teams registered",
            summary=phrases.say(
                gettext_noop("Pasted teams: %(teams)s; %(registered)s; %(members)s"),
                teams=phrases.say(TEAMS_CREATED, count=done.teams),
                registered=phrases.say(PLAYERS_REGISTERED, count=done.registered),
                members=phrases.say(MEMBERS_ADDED, count=done.members),
            ),
        )
    return done


# -- team standings ----------------------------------------------------------------------------------------


@dataclass
class TeamStandings:
    """The team standings of an event as one page shows them."""

    rows: list[team_points.TeamTotal]
    settings: TeamSettings
    up_to_round: int | None
    rounds: list[int]
    """The rounds a visitor may ask "after round N" for (a tournament's seated rounds they may see)."""
    names: dict[int, str] = field(default_factory=dict)
    """Player id -> display name, for every member."""

    def member_names(self, row: team_points.TeamTotal) -> list[str]:
        """The team's members by name, as a reader sorts them."""
        return sorted((self.names.get(pk, "") for pk in row.members), key=name_sort_key)

    @property
    def ranked(self) -> list[team_points.TeamTotal]:
        return [row for row in self.rows if row.ranked]


def _round_key(round_number: int | None, match_day: int | None, played_on: Any) -> Hashable:
    """What "a round" is for the best-K rule: a tournament's round, else a team league's match day,
    else the day the game was played (a league's evening)."""
    if round_number is not None:
        return ("round", round_number)
    if match_day is not None:
        return ("day", match_day)
    return ("date", played_on)


def team_standings(event: Event, *, up_to_round: int | None = None, public: bool = True) -> TeamStandings:
    """The team standings (after round ``up_to_round`` when given). ``public``: as a visitor may see
    them — capped at the round the standings are hidden after (``scoring.standings.public_options``).
    Six queries whatever the number of teams, players or games."""
    if public:
        up_to_round = public_options(event, {"up_to_round": up_to_round})["up_to_round"]
    chosen = settings_of(event)
    teams = dict(Team.objects.filter(event=event).values_list("pk", "name"))
    members: dict[int, list[int]] = defaultdict(list)
    names: dict[int, str] = {}
    for team_id, player_id, name in TeamMember.objects.filter(team__event=event).values_list(
        "team_id", "registration__player_id", "registration__player__display_name"
    ):
        members[team_id].append(player_id)
        names[player_id] = name
    results = finished_results(event)
    if up_to_round is not None:
        results = results.filter(hanchan__round_number__lte=up_to_round)
    rows = results.values_list(
        "player_id",
        "hanchan__round_number",
        "hanchan__match_game__match_day__number",
        "hanchan__played_on",
        "result",
    ).order_by()
    penalties = dict(
        penalties_up_to_round(
            Penalty.objects.filter(event=event, hanchan__isnull=True, cancelled=False), up_to_round
        )
        .values("player_id")
        .annotate(points=Sum("points"))
        .values_list("player_id", "points")
        .order_by()
    )
    totals = team_points.team_totals(
        teams,
        members,
        (
            team_points.Result(player, _round_key(rnd, day, played), points)
            for player, rnd, day, played, points in rows
        ),
        {player: int(points or 0) for player, points in penalties.items()},
        counting=chosen.counting,
        best=chosen.best,
    )
    return TeamStandings(
        rows=totals,
        settings=chosen,
        up_to_round=up_to_round,
        rounds=visible_rounds(event, public=public),
        names=names,
    )


def visible_rounds(event: Event, *, public: bool = True) -> list[int]:
    """The seated rounds of a tournament (for a visitor, those up to the round the standings are hidden
    after). One query."""
    if event.kind != Event.Kind.TOURNAMENT:
        return []
    numbers = event.hanchans.filter(round_number__isnull=False).values_list("round_number", flat=True)
    found = sorted(set(numbers.order_by()))
    last = hidden_after_round(event) if public else None
    return [n for n in found if last is None or n <= last]


def csv_rows(found: TeamStandings) -> list[list[Any]]:
    """The team standings as CSV rows: a fixed English header (a machine format, as every export), the
    points in thousands with one decimal as plain numbers (as the standings CSV writes them), the
    members by name."""
    out: list[list[Any]] = [["rank", "team", "points", "games", "members"]]
    for row in found.rows:
        out.append(
            [
                row.rank,
                row.name,
                Decimal(f"{row.points / 1000:.1f}"),
                row.games,
                "; ".join(found.member_names(row)),
            ]
        )
    return out


# -- a team's page -------------------------------------------------------------------------------------------


@dataclass
class MemberLine:
    """One member on a team's page: their standings line, their share of the team's points and what
    their hand-by-hand games give."""

    player: Player
    is_captain: bool
    is_substitute: bool
    standing: StandingRow
    counted: int
    penalties: int
    hands: HandStats | None


@dataclass
class TeamPage:
    team: Team
    total: team_points.TeamTotal
    members: list[MemberLine]
    hands: HandStats | None
    """The members' hand statistics added up (None when no game was entered hand by hand)."""
    standings: TeamStandings
    rounds: list[tuple[str, Any, int]]
    """(kind, number or date, the team's points) in order: kind "round" (a tournament's round), "day"
    (a team league's match day) or "date" (the day a league game was played)."""


def _sum_hands(stats: Iterable[HandStats]) -> HandStats | None:
    stats = [s for s in stats if s.hands]
    if not stats:
        return None

    def mean(value: str, weight: str) -> float | None:
        total = sum(getattr(s, weight) for s in stats)
        if not total:
            return None
        return sum((getattr(s, value) or 0) * getattr(s, weight) for s in stats) / total

    counts = ("hands", "wins", "tsumo_wins", "deal_ins", "riichi", "draws", "tenpai_at_draw", "riichi_wins")
    summed = {name: sum(getattr(s, name) for s in stats) for name in counts}
    return HandStats(
        **summed,
        average_win=mean("average_win", "wins"),
        average_deal_in=mean("average_deal_in", "deal_ins"),
        riichi_average_win=mean("riichi_average_win", "riichi_wins"),
    )


def team_page(team: Team, *, up_to_round: int | None = None, public: bool = True) -> TeamPage:
    """A team's page: its line of the team standings, each member's standings line and statistics
    (``scoring.standings`` and ``scoring.statistics``), the team's points per round. Bounded: the team
    standings (six queries), the members (one), the individual standings (three), the hand statistics
    (one)."""
    event = team.event
    found = team_standings(event, up_to_round=up_to_round, public=public)
    total = next(row for row in found.rows if row.team == team.pk)
    roster = list(TeamMember.objects.filter(team=team).select_related("registration__player"))
    rows = {row.player_id: row for row in standings(event, up_to_round=found.up_to_round, min_games=0)}
    ids = [m.registration.player_id for m in roster]
    hidden = hidden_games({event.pk: found.up_to_round}) if found.up_to_round is not None else None
    hands = hand_stats_by_player(ids, Event.objects.filter(pk=event.pk), hidden=hidden)
    members = []
    for member in roster:
        player = member.registration.player
        share = total.members.get(player.pk) or team_points.MemberTotal(player=player.pk)
        members.append(
            MemberLine(
                player=player,
                is_captain=member.is_captain,
                is_substitute=member.registration.is_substitute,
                standing=rows.get(player.pk) or StandingRow(player.pk, player.display_name),
                counted=share.counted,
                penalties=share.penalties,
                hands=hands.get(player.pk),
            )
        )
    members.sort(key=lambda m: (-m.counted, not m.is_captain, name_sort_key(m.player.display_name)))
    labels = [(kind, value, total.rounds[kind, value]) for kind, value in sorted(total.rounds)]
    return TeamPage(
        team=team,
        total=total,
        members=members,
        hands=_sum_hands(m.hands for m in members if m.hands is not None),
        standings=found,
        rounds=labels,
    )
