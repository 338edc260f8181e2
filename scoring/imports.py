"""Import game records (docs/game-record.md) into an event as finished hanchans, all or nothing.

The ``import_games`` command and ``seed_demo`` both come through :func:`import_records`, so a file
written by ``export_games`` and a generated demo season are stored by the same code. Every record is
checked completely — its structure and hands replayed under the *event's* ruleset, its players
matched — before it is written, a chunk of records at a time, all in one transaction, so a bad record in
the last file leaves the database exactly as it was (and a season's import holds one chunk in memory).

Rows are written in bulk and the engine-derived columns (hand rounds, deltas, per-seat hand rows, seat
results) come from :func:`scoring.services.sync.rebuild`, the same function every service calls, so an
imported game is indistinguishable from one entered hand by hand. Games are written by chunks of
:data:`WRITE_CHUNK`: a few statements per chunk rather than a few dozen per game. Going through
``record_hand`` hand by hand would replay the game once per hand (quadratic) and log a history entry per
hand for facts that were never entered here.

Besides the documented fields, records may carry the extra fields ``export_games`` writes (the format
allows added fields, never renamed ones): ``final_scores`` and ``final_sticks`` (a game entered as final
scores, with ``"hands": []``), ``on_behalf_of`` (per seat, the registered player a substitute replaced, or
null), ``round_number``, ``table_number``, ``finished_at`` (ISO 8601), ``played_on`` (an ISO date:
when the game was played) and, per penalty, ``kind`` (``chombo`` or ``other``).

The game's ``played_on`` is the record's ``played_on`` when it has one, else the date of its
``finished_at`` in the site's time zone (a record written elsewhere says when the game ended, which is
the day it was played), else the date a game started now would get (today; for a tournament, today
within the event's dates).

**Online games.** A record converted from an online log (``convert_log``, or a log read by
``scoring.engine.logs.read_log``) carries ``log`` (its site, id and lobby). Its players are then found by
their online names (:class:`scoring.online.PlayerMatcher`: the site's online name, then the display name),
the game keeps its log id (``Hanchan.source_log_id``) and a log already imported in the event is refused,
naming it — so importing the same logs twice, by file or by link, never counts a game twice. A log
without an id (an mjlog file not named after its id) is known by a fingerprint of its players and hands
instead. A game without a ``played_on`` is dated by its log id (Tenhou's and Mahjong Soul's ids start with
the date). :func:`preview_online` checks the games of the "Import online games" page without writing;
:func:`import_online_games` stores them with the names the organiser picked.
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop, ngettext

from league import phrases
from league.engine_text import engine_message, wind_name
from league.models import Event, Hanchan, Player, Registration, Seat
from league.permissions import can_edit_player, new_player_visibility
from league.versions import BECAUSE_OF_MAX
from scoring import engine
from scoring.engine import record as engine_record
from scoring.engine.errors import shown
from scoring.models import Hand, Penalty, Win
from scoring.online import Match, PlayerMatcher, online_name_field, played_on_from_log_id
from scoring.records import hand_row, win_rows
from scoring.services import history
from scoring.services.hanchan import default_played_on, seated
from scoring.services.sync import rebuild
from scoring.standings import StandingRow, rank_rows, standings, tie_break_terms

EMA_NUMBER = re.compile(r"^\d{8}$")
_MAX_NAME = Player._meta.get_field("display_name").max_length or 80
_MAX_LOG_ID = Hanchan._meta.get_field("source_log_id").max_length or 80
_MAX_ONLINE_NAME = Player._meta.get_field("tenhou_name").max_length or 40
# The record reader checks a record's final scores and sticks against these (every reader of a record
# refuses the same records); an import also checks what the event's ruleset makes of them.
SCORE_LIMIT = engine_record.SCORE_LIMIT
"""The largest score, uma or result (either sign) an imported game may store: the columns hold 32 bits,
and a score this far out is a typo or hostile input, never a game."""

IMPORTED_PENALTY = gettext_noop("imported penalty")  # a record's penalty without a reason of its own


class ImportFailed(Exception):
    """A record cannot be imported; the message names the file (and record, hand) and the rule."""


@dataclass
class ParsedGame:
    """One record, checked and ready to write: what the engine read plus the extra fields."""

    label: str
    record: engine.GameRecord
    players: list[Player | str]  # a Player, or a name to create
    on_behalf_of: list[Player | str | None]
    final_scores: list[int] | None = None
    final_sticks: int = 0
    penalty_kinds: list[str] = field(default_factory=list)
    round_number: int | None = None
    table_number: int | None = None
    finished_at: datetime | None = None
    played_on: date | None = None
    source_log_id: str = ""
    """The online log the game comes from (its id, or a fingerprint): imported once per event."""


@dataclass(frozen=True)
class Unresolved:
    """A log name that found no player, or several: the organiser picks one or has one created."""

    name: str

    def __str__(self) -> str:
        return self.name


# -- players -----------------------------------------------------------------------------------------


class PlayerBook:
    """Finds a record's player names among the event's registered players, then the club's players.

    A name is matched against display names first; a name of exactly eight digits is also tried as an
    EMA number, so that records written by scripts that know only EMA numbers import too. Registered
    players come first so that a name shared by players of two clubs resolves to the one taking part.

    The names of a record from an online log (``source``: its site) are online names, found by
    :class:`~scoring.online.PlayerMatcher`. ``choices`` are the organiser's answers for the names that
    found nobody (a player, or a name string: create that player); with ``collect`` such a name is
    kept as :class:`Unresolved` (the preview asks about it) instead of failing the import.
    """

    def __init__(
        self,
        event: Event,
        *,
        create: bool,
        choices: Mapping[str, Player | str] | None = None,
        collect: bool = False,
    ) -> None:
        self.event = event
        self.create = create
        self.choices = dict(choices or {})
        self.collect = collect
        registered = list(Player.objects.filter(registrations__event=event))
        self.registered_ids = {p.pk for p in registered}
        club_players = list(Player.objects.filter(club_id=event.club_id)) if event.club_id else []
        self._tiers = [self._index(registered), self._index(club_players)]
        self.matcher = PlayerMatcher([registered, club_players])
        self.matches: dict[str, Match] = {}
        """What each online name found (the preview says how each player was recognised)."""
        self.unresolved: dict[str, tuple[Player, ...]] = {}
        """Online names that found nobody, or several players (the candidates), in collect mode."""
        self.new_online: dict[str, dict[str, str]] = {}
        """The online name field of each player to create from a log (``{"tenhou_name": "Aoi"}``)."""
        self.remember: dict[int, tuple[Player, str, str]] = {}
        """Picked players whose online name for the log's site was blank: (player, field, name) to save."""

    @staticmethod
    def _index(players: Iterable[Player]) -> tuple[dict[str, list[Player]], dict[str, Player]]:
        by_name: dict[str, list[Player]] = {}
        by_ema: dict[str, Player] = {}
        for player in players:
            by_name.setdefault(player.display_name, []).append(player)
            if player.ema_number:
                by_ema[player.ema_number] = player
        return by_name, by_ema

    def find(self, name: str, *, source: str | None = None) -> Player | str | Unresolved:
        """The player called ``name``, or ``name`` itself when it is to be created.

        With ``source`` (the site of an online log) the name is an online name: see :meth:`find_online`.
        """
        if source is not None:
            return self.find_online(name, source)
        name = name.strip()
        if not name:
            raise ImportFailed(gettext("players: a player name is empty"))
        for by_name, by_ema in self._tiers:
            found = by_name.get(name, [])
            if len(found) > 1:
                raise ImportFailed(
                    ngettext(
                        "players: %(count)d player is called %(name)s; name them by EMA number instead",
                        "players: %(count)d players are called %(name)s; name them by EMA number instead",
                        len(found),
                    )
                    % {"count": len(found), "name": repr(name)}
                )
            if found:
                return found[0]
            if EMA_NUMBER.match(name) and name in by_ema:
                return by_ema[name]
        if not self.create:
            raise ImportFailed(
                gettext(
                    "players: unknown player %(name)s: not registered in %(event)s nor a player of its club "
                    "(--create-players adds them)"
                )
                % {"name": repr(name), "event": self.event}
            )
        if len(name) > _MAX_NAME:
            raise ImportFailed(_too_long(name))
        return name

    def find_online(self, name: str, source: str) -> Player | str | Unresolved:
        """The player a log of ``source`` calls ``name``: the organiser's choice, else the matcher's.

        A name that finds nobody is created (``create``), kept :class:`Unresolved` (``collect``) or an
        error; a name that finds several players is never guessed (created neither).
        """
        name = name.strip()
        if not name:
            raise ImportFailed(gettext("players: a player name is empty"))
        field_name = online_name_field(source)
        if name in self.choices:
            chosen = self.choices[name]
            if isinstance(chosen, str):
                self.matches[name] = Match(field="new")
                return self._new_online(name, field_name)
            self.matches[name] = Match(player=chosen, field="chosen")
            if field_name and not getattr(chosen, field_name) and len(name) <= _MAX_ONLINE_NAME:
                # Saved only where the importer may change the player (_remember_online_names).
                self.remember.setdefault(chosen.pk, (chosen, field_name, name))
            return chosen
        match = self.matcher.match(name, source)
        self.matches[name] = match
        if match.player is not None:
            return match.player
        if self.collect:
            self.unresolved[name] = match.candidates
            return Unresolved(name)
        site = _site(source)
        if match.ambiguous:
            count = len(match.candidates)
            raise ImportFailed(
                ngettext(
                    "players: %(name)s is the %(how)s of %(count)d player (%(players)s): give each their "
                    "own %(site)s name",
                    "players: %(name)s is the %(how)s of %(count)d players (%(players)s): give each their "
                    "own %(site)s name",
                    count,
                )
                % {
                    "name": repr(name),
                    "how": match.how,
                    "count": count,
                    "players": ", ".join(sorted(p.display_name for p in match.candidates)),
                    "site": site,
                }
            )
        if not self.create:
            raise ImportFailed(
                gettext(
                    "players: unknown player %(name)s: no player registered in %(event)s nor of its club has "
                    "this %(site)s name or display name (set it on the player, or --create-players adds them)"
                )
                % {"name": repr(name), "event": self.event, "site": site}
            )
        return self._new_online(name, field_name)

    def _new_online(self, name: str, field_name: str | None) -> str:
        """``name``, to be created with it as its online name too (found by it next time)."""
        if len(name) > _MAX_NAME:
            raise ImportFailed(_too_long(name))
        if name in self._tiers[1][0]:
            raise ImportFailed(
                gettext(
                    "players: %(club)s already has a player called %(name)s: pick them rather than create "
                    "another"
                )
                % {"club": self.event.club, "name": repr(name)}
            )
        if field_name and len(name) <= _MAX_ONLINE_NAME:
            self.new_online[name] = {field_name: name}
        return name


def _too_long(name: str) -> str:
    return gettext("players: the name %(name)s… is longer than %(max)d characters") % {
        "name": repr(name[:20]),
        "max": _MAX_NAME,
    }


# -- reading -----------------------------------------------------------------------------------------


def _final_scores(data: dict[str, Any], record: engine.GameRecord) -> tuple[list[int] | None, int]:
    """The extra ``final_scores``/``final_sticks`` of a game entered as final scores (their form the
    record reader checked), checked like the final-scores form checks them (sum, multiples of 100)."""
    if data.get("final_scores") is None:
        if data.get("final_sticks") is not None:
            raise ImportFailed(gettext("final_sticks: only a record with final_scores may have final_sticks"))
        return None, 0
    scores = data["final_scores"]
    if record.hands:
        raise ImportFailed(gettext("final_scores: a record has either hands or final_scores, not both"))
    sticks = data.get("final_sticks") or 0
    try:
        engine.check_final_scores(scores, sticks, record.rules)
    except engine.RuleViolation as exc:
        raise ImportFailed(f"final_scores: {engine_message(exc)}") from None
    return list(scores), sticks


def _finished_at(data: dict[str, Any]) -> datetime | None:
    """The record's ``finished_at`` (the record reader checked it is a moment of the calendar), in the
    site's time zone when it names none."""
    value = data.get("finished_at")
    if value is None:
        return None
    parsed: datetime | None = engine_record.record_moment(value)
    try:
        if timezone.is_naive(parsed):
            parsed = timezone.make_aware(parsed)
        timezone.localtime(parsed)  # a moment the site's time zone cannot show: year 1 in Tokyo time
    except (ValueError, OverflowError):
        parsed = None
    if parsed is None:
        raise ImportFailed(
            gettext("finished_at: must be an ISO 8601 date and time that exists, not %(value)s")
            % {"value": shown(value)}
        )
    return parsed


def _played_on(data: dict[str, Any], finished_at: datetime | None) -> date | None:
    """The record's ``played_on`` (an ISO date), else the date of its ``finished_at``; None without
    either (the event's default date then applies)."""
    value = data.get("played_on")
    if value is None:
        return timezone.localdate(finished_at) if finished_at is not None else None
    return engine_record.record_day(value)  # the record reader checked it is a day of the calendar


def _penalty_kinds(data: dict[str, Any]) -> list[str]:
    """Each penalty's ``kind`` (the record reader checked it is one of :data:`Penalty.Kind`)."""
    return [raw.get("kind", Penalty.Kind.OTHER) for raw in data.get("penalties") or []]


def _check_fits(record: engine.GameRecord, final_scores: list[int] | None, sticks: int) -> None:
    """Refuse a game whose scores or results the database columns cannot hold.

    The record's own values are bounded by the reader, but the *event's* ruleset decides what they are
    worth (start points, uma, chombo), so the totals are checked once computed, before anything is written.
    """
    penalties = record.penalty_points()
    if final_scores is not None:
        final = engine.final_result(final_scores, sticks, penalties, record.rules)
        numbers: list[int] = []
    else:
        played = record.replay()
        if not played.hands:
            return
        final = played.final(penalties)
        numbers = [n for outcome in played.hands for n in (*outcome.scores, *outcome.deltas)]
    numbers += [n for values in final.to_dict().values() for n in values]
    if any(abs(n) > SCORE_LIMIT for n in numbers):
        raise ImportFailed(
            gettext("the game's scores or results go beyond %(limit)d points: check the event's ruleset")
            % {"limit": SCORE_LIMIT}
        )


def parse_game(label: str, data: Any, event: Event, book: PlayerBook) -> ParsedGame:
    """Check one record completely (no writes); ImportFailed names what is wrong, prefixed by ``label``."""
    try:
        if isinstance(data, dict) and "rules" in data:
            # The event's ruleset decides; the record's own must still be a ruleset (not a typo).
            engine.ruleset_from_spec(data["rules"])
        record = engine.record_from_dict(data, rules=event.rules)
        assert isinstance(data, dict)  # record_from_dict refuses anything else
        if record.players is None:
            raise ImportFailed(
                gettext(
                    "players: the record names no players; importing needs the four player names in seat "
                    "order"
                )
            )
        final_scores, final_sticks = _final_scores(data, record)
        finished_at = _finished_at(data)
        if final_scores is None and not record.hands:
            raise ImportFailed(
                gettext("hands: the record has no hands (and no final_scores): nothing to import")
            )
        source = record.log.source if record.log is not None else None
        players = [book.find(name, source=source) for name in record.players]
        keys = [p.pk if isinstance(p, Player) else p for p in players]
        if len(set(keys)) != 4:
            raise ImportFailed(gettext("players: a player can sit in only one seat of a game"))
        behalf: list[Player | str | None] = [None] * 4
        raw_behalf = data.get("on_behalf_of")
        if raw_behalf is not None:  # four names or nulls: the record reader checked them
            for seat, name in enumerate(raw_behalf):
                if name is None:
                    continue
                found = book.find(name)
                if (found.pk if isinstance(found, Player) else found) in keys:
                    raise ImportFailed(
                        gettext(
                            "on_behalf_of: %(name)s sits at the table, so no substitute can stand in for them"
                        )
                        % {"name": repr(name)}
                    )
                behalf[seat] = found
        _check_fits(record, final_scores, final_sticks)
        log_id = _source_log_id(record)
        played_on = _played_on(data, finished_at)
        if played_on is None and record.log is not None:
            played_on = played_on_from_log_id(record.log.id)
        return ParsedGame(
            label=label,
            record=record,
            players=players,
            on_behalf_of=behalf,
            final_scores=final_scores,
            final_sticks=final_sticks,
            penalty_kinds=_penalty_kinds(data),
            # record_from_dict checked them (1 to MAX_NUMBER, docs/game-record.md §4).
            round_number=data.get("round_number"),
            table_number=data.get("table_number"),
            finished_at=finished_at,
            played_on=played_on,
            source_log_id=log_id,
        )
    except engine.EngineError as exc:
        raise ImportFailed(f"{label}: {engine_message(exc)}") from None
    except ImportFailed as exc:
        raise ImportFailed(f"{label}: {exc}") from None


def _source_log_id(record: engine.GameRecord) -> str:
    """What identifies the online log of ``record`` ("" for a game not from a log): the log's id, or a
    fingerprint of its players and hands when the log has none (an mjlog file under another name)."""
    if record.log is None:
        return ""
    if record.log.id:
        if len(record.log.id) > _MAX_LOG_ID:
            raise ImportFailed(
                gettext("log: the log id %(id)s… is longer than %(max)d characters")
                % {"id": repr(record.log.id[:20]), "max": _MAX_LOG_ID}
            )
        return record.log.id
    facts = {k: v for k, v in record.to_dict().items() if k not in ("format", "rules", "log")}
    facts["source"] = record.log.source
    text = json.dumps(facts, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:40]


def _check_log_ids(games: Sequence[ParsedGame], event: Event, seen: dict[str, str] | None = None) -> None:
    """Refuse a log that is in the import twice, or already imported in ``event``: one game, counted once.
    ``seen``: the log ids of the import's earlier chunks (log id → label), updated."""
    seen = {} if seen is None else seen
    new: list[str] = []
    for game in games:
        if not game.source_log_id:
            continue
        if game.source_log_id in seen:
            raise ImportFailed(
                gettext("%(label)s: log %(id)s is in this import twice (also %(other)s)")
                % {"label": game.label, "id": game.source_log_id, "other": seen[game.source_log_id]}
            )
        seen[game.source_log_id] = game.label
        new.append(game.source_log_id)
    if not new:
        return
    done = Hanchan.objects.filter(event=event, source_log_id__in=new).order_by("pk")
    for log_id, pk, played_on in done.values_list("source_log_id", "pk", "played_on")[:1]:
        raise ImportFailed(
            gettext(
                "%(label)s: log %(id)s is already imported in %(event)s (game %(game)s, played on %(date)s): "
                "a log is imported once"
            )
            % {"label": seen[log_id], "id": log_id, "event": event, "game": pk, "date": played_on.isoformat()}
        )


def parse_sources(sources: Iterable[tuple[str, Any]], event: Event, book: PlayerBook) -> list[ParsedGame]:
    """Every record of every source; a source holds one record (an object) or a list of them."""
    return list(_parsed(sources, event, book))


def _parsed(sources: Iterable[tuple[str, Any]], event: Event, book: PlayerBook) -> Iterator[ParsedGame]:
    """The records of the sources one after another, each checked as it comes (a source is read when its
    first record is asked for: a generator of sources reads one file at a time)."""
    for name, data in sources:
        if isinstance(data, list):  # an empty list is the export of an event without games
            for number, item in enumerate(data, start=1):
                label = gettext("%(name)s: record %(number)d") % {"name": name, "number": number}
                yield parse_game(label, item, event, book)
        else:
            yield parse_game(name, data, event, book)


# -- writing -----------------------------------------------------------------------------------------


def _create_players(
    games: Sequence[ParsedGame], event: Event, book: PlayerBook, made: dict[str, Player] | None = None
) -> None:
    """Create the players named only by name (``--create-players``, or "create" on the online import
    page) in the event's club, once each; a player from an online log gets its name as online name.
    ``made``: the players created by the import's earlier chunks (name → player), updated."""
    made = {} if made is None else made
    for game in games:
        for seats in (game.players, game.on_behalf_of):
            for i, who in enumerate(seats):
                if isinstance(who, str):
                    if who not in made:
                        # PlayerBook.find checked the name (not blank, not too long, not in the club).
                        made[who] = Player.objects.create(
                            display_name=who,
                            club=event.club,
                            visibility=new_player_visibility(event),
                            **book.new_online.get(who, {}),
                        )
                    seats[i] = made[who]


def _remember_online_names(book: PlayerBook, event: Event, user: Any) -> None:
    """Save the log's name on the players the organiser picked for it whose online name was blank, so
    that the next import finds them by themselves; each change is in the event's history."""
    for player, field_name, name in book.remember.values():
        if not can_edit_player(user, player, event=event):
            continue  # another club's player is theirs to change (league.permissions.can_edit_player)
        others = Player.objects.filter(club=player.club_id, **{f"{field_name}__iexact": name})
        if others.exclude(pk=player.pk).exists():
            continue  # another player of the club has it: an online name must find one player
        if not Player.objects.filter(pk=player.pk, **{field_name: ""}).update(**{field_name: name}):
            continue  # filled in meanwhile: the player's own value stays
        setattr(player, field_name, name)
        before, after, what = history.changes({field_name: ""}, {field_name: name}, [field_name])
        history.log(
            event=event,
            user=user,
            action="player edited",
            summary=phrases.say(
                gettext_noop("Player %(player)s edited: %(changes)s"),
                player=player.display_name,
                changes=what,
            ),
            reason=phrases.say(gettext_noop("picked for this name when importing online games")),
            before={"player": player.pk, **before},
            after={"player": player.pk, **after},
        )


def _register(games: Sequence[ParsedGame], event: Event, book: PlayerBook) -> None:
    """Register every player who played (or was stood in for): standings count registered players."""
    missing: dict[int, Registration] = {}
    for game in games:
        for who in [*game.players, *game.on_behalf_of]:
            if isinstance(who, Player) and who.pk not in book.registered_ids and who.pk not in missing:
                missing[who.pk] = Registration(event=event, player=who)
    Registration.objects.bulk_create(list(missing.values()))
    book.registered_ids.update(missing)


WRITE_CHUNK = BECAUSE_OF_MAX
"""Games written together: one INSERT per table and one set-based rebuild of their cached rows per chunk
(instead of a dozen statements per game and one per hand), so that a season's import costs PostgreSQL,
where each statement is a round trip, about what it costs SQLite. No more than the versions' writer
checks one by one (``league.versions.BECAUSE_OF_MAX``): a chunk of games all in rounds kept hidden for
a final reveal still moves no public page."""

Progress = Callable[[int], None]
"""Told the games stored so far after each chunk: the command prints it."""


def _hanchan_row(game: ParsedGame, event: Event, user: Any, now: datetime) -> Hanchan:
    return Hanchan(
        event=event,
        round_number=game.round_number,
        table_number=game.table_number,
        status=Hanchan.Status.FINISHED,
        entry_mode=(Hanchan.EntryMode.HANDS if game.final_scores is None else Hanchan.EntryMode.FINAL_SCORES),
        version=1,
        entered_by=user,
        created_at=game.finished_at or now,
        finished_at=game.finished_at or now,
        played_on=game.played_on or default_played_on(event),
        final_sticks=game.final_sticks,
        source_log_id=game.source_log_id,
    )


def _history_entry(game: ParsedGame, hanchan: Hanchan, played: Any, event: Event, user: Any) -> Any:
    """The game's "game imported" entry: its players, its log, its final scores or hands."""
    names = seated(game.players)
    if game.source_log_id and not game.source_log_id.startswith("sha256:"):
        names = phrases.say(gettext_noop("%(players)s; log %(id)s"), players=names, id=game.source_log_id)
    count = len(game.record.hands)
    if game.final_scores is not None:
        how = phrases.say(
            gettext_noop("final scores %(scores)s"), scores=" / ".join(str(s) for s in game.final_scores)
        )
    elif played is not None and played.finished:
        how = phrases.say(phrases.ngettext_lazy("%(count)d hand", "%(count)d hands", "count"), count=count)
    else:
        how = phrases.say(
            phrases.ngettext_lazy(
                "%(count)d hand, finished early (time limit)",
                "%(count)d hands, finished early (time limit)",
                "count",
            ),
            count=count,
        )
    return history.entry(
        event=event,
        hanchan=hanchan,
        user=user,
        action="game imported",
        summary=phrases.joined(names, how),
        reason=phrases.say(gettext_noop("imported from %(source)s"), source=game.label),
    )


def _write_games(games: Sequence[ParsedGame], event: Event, user: Any) -> list[Hanchan]:
    """Store one chunk of checked games, in order: their facts in one INSERT per table, their cached rows
    by the set-based rebuild every service runs (``sync.rebuild``, which also marks their ratings and
    moves the pages' versions), and one history entry per game."""
    now = timezone.now()
    hanchans = Hanchan.objects.bulk_create([_hanchan_row(game, event, user, now) for game in games])
    seats: list[Seat] = []
    hands: list[Hand] = []
    records: list[engine.Hand] = []
    penalties: list[Penalty] = []
    for game, hanchan in zip(games, hanchans, strict=True):
        hanchan.event = event  # share the instance: its ruleset is parsed once
        final_mode = game.final_scores is not None
        seats += [
            Seat(
                hanchan=hanchan,
                seat=i,
                player=player,  # type: ignore[misc]
                on_behalf_of=game.on_behalf_of[i],  # type: ignore[misc]
                final_score=game.final_scores[i] if final_mode else None,  # type: ignore[index]
            )
            for i, player in enumerate(game.players)
        ]
        hands += [hand_row(hanchan, number, hand) for number, hand in enumerate(game.record.hands, start=1)]
        records += game.record.hands
        penalties += [
            Penalty(
                event=event,
                player=game.players[p.seat],  # type: ignore[misc]  # the offender, who sat there
                hanchan=hanchan,
                points=p.points,
                kind=kind,
                reason=(p.reason or IMPORTED_PENALTY)[:200],
                reason_data=None if p.reason else phrases.say(IMPORTED_PENALTY),
                given_by=user,
                created_at=hanchan.finished_at,
                # A penalty of a tournament table belongs to its round (standings after a round).
                round_number=hanchan.round_number if event.kind == Event.Kind.TOURNAMENT else None,
            )
            for p, kind in zip(game.record.penalties, game.penalty_kinds, strict=True)
        ]
    Seat.objects.bulk_create(seats)
    rows = Hand.objects.bulk_create(hands)
    Win.objects.bulk_create([w for row, hand in zip(rows, records, strict=True) for w in win_rows(row, hand)])
    Penalty.objects.bulk_create(penalties)
    replays = rebuild(hanchans).replays
    history.log_many(
        _history_entry(game, hanchan, replays.get(hanchan.pk), event, user)
        for game, hanchan in zip(games, hanchans, strict=True)
    )
    return hanchans


def _store(games: Sequence[ParsedGame], event: Event, book: PlayerBook, user: Any) -> list[Hanchan]:
    """Write checked games: players to create, registrations, the games, the online names picked."""
    _create_players(games, event, book)
    _register(games, event, book)
    written: list[Hanchan] = []
    for first in range(0, len(games), WRITE_CHUNK):
        written += _write_games(games[first : first + WRITE_CHUNK], event, user)
    _remember_online_names(book, event, user)
    return written


def _chunked(games: Iterator[ParsedGame], size: int) -> Iterator[list[ParsedGame]]:
    while chunk := list(itertools.islice(games, size)):
        yield chunk


def _imported_meanwhile() -> ImportFailed:
    """A log stored by a concurrent import between the check and the write (the unique constraint)."""
    return ImportFailed(
        gettext(
            "someone imported one of these logs at the same time: nothing was saved; import again to see "
            "which"
        )
    )


def import_records(
    *,
    event: Event,
    sources: Iterable[tuple[str, Any]],
    create_players: bool = False,
    user: Any = None,
    progress: Progress | None = None,
) -> list[Hanchan]:
    """Store the records of ``sources`` (pairs of a label, e.g. the file name, and parsed JSON) as
    finished hanchans of ``event``, in order; all or nothing.

    In bounded memory: the records are checked and written :data:`WRITE_CHUNK` at a time, in one
    transaction, so that a season of games holds one chunk of checked games at a time (and, when
    ``sources`` is a generator, one source). The first record in order that is refused — by its
    contents, its players or its log — rolls every chunk back. ``progress(stored)`` is told after each
    chunk written (nothing is committed before the end).

    Raises :class:`ImportFailed` whose message starts with the label of the offending source.
    """
    user = history.acting_user(user)
    try:
        with transaction.atomic():
            book = PlayerBook(event, create=create_players)
            seen: dict[str, str] = {}
            made: dict[str, Player] = {}
            written: list[Hanchan] = []
            for games in _chunked(_parsed(sources, event, book), WRITE_CHUNK):
                _check_log_ids(games, event, seen)
                _create_players(games, event, book, made)
                _register(games, event, book)
                written += _write_games(games, event, user)
                if progress is not None:
                    progress(len(written))
            _remember_online_names(book, event, user)
            return written
    except IntegrityError:
        raise _imported_meanwhile() from None


# -- online games: the preview and the import of the "Import online games" page ----------------------

NEW_PLAYER = "new"
"""The choice that creates a player from a log's name (the others are player ids)."""


def selectable_players(event: Event) -> list[Player]:
    """The players an organiser may pick for a log's name: registered in the event, or of its club."""
    players = Player.objects.filter(Q(registrations__event=event) | Q(club_id=event.club_id)).distinct()
    return list(players.order_by("display_name", "pk"))


def resolve_choices(event: Event, choices: Mapping[str, int | str]) -> dict[str, Player | str]:
    """The organiser's answers (log name → player id, or :data:`NEW_PLAYER`) as PlayerBook takes them.

    A player id must be one of :func:`selectable_players`: a form's value is never trusted to name
    another club's player.
    """
    ids = {int(v) for v in choices.values() if isinstance(v, int) or (isinstance(v, str) and v.isdigit())}
    allowed = {p.pk: p for p in selectable_players(event) if p.pk in ids} if ids else {}
    resolved: dict[str, Player | str] = {}
    for name, value in choices.items():
        if value == NEW_PLAYER:
            resolved[name.strip()] = name.strip()
            continue
        pk = int(value) if isinstance(value, int) or (isinstance(value, str) and value.isdigit()) else None
        if pk is None or pk not in allowed:
            raise ImportFailed(
                gettext(
                    "players: the player picked for %(name)s is not registered in %(event)s nor a player of "
                    "its club"
                )
                % {"name": repr(name), "event": event}
            )
        resolved[name.strip()] = allowed[pk]
    return resolved


@dataclass
class OnlineGame:
    """One game of an online import, as the preview shows it."""

    label: str
    record: engine.GameRecord
    players: list[Player | str | Unresolved] = field(default_factory=list)
    final: engine.FinalResult | None = None
    """The result under the *event's* rules: what the standings will count."""
    log_scores: tuple[int, ...] | None = None
    """The final scores under the log's own rules, when the event's rules give others."""
    error: str = ""
    warnings: list[str] = field(default_factory=list)
    parsed: ParsedGame | None = None
    matches: list[Match] = field(default_factory=list)
    """Per seat, how the log's name found its player."""

    @property
    def seats(self) -> list[dict[str, Any]]:
        """Per seat: the log's name, who it is, and the final score, place and result."""
        names = self.record.players or ("", "", "", "")
        out = []
        for seat, name in enumerate(names):
            who = self.players[seat] if seat < len(self.players) else None
            match = self.matches[seat] if seat < len(self.matches) else Match()
            out.append(
                {
                    "wind": wind_name(seat),
                    "name": name,
                    "player": who if isinstance(who, Player) else None,
                    "new": isinstance(who, str),
                    "unresolved": isinstance(who, Unresolved),
                    "how": match.how,
                    "picked": match.field == "chosen",
                    "score": self.final.scores[seat] if self.final else None,
                    "place": self.final.places[seat] if self.final else None,
                    "result": self.final.results[seat] if self.final else None,
                    "log_score": self.log_scores[seat] if self.log_scores else None,
                }
            )
        return out


@dataclass
class StandingChange:
    """One player's line in the standings before and after the import."""

    name: str
    new_player: bool
    """Not a player yet: to be created, or a name still to be settled (``unknown``)."""
    unknown: bool
    games_before: int
    games_after: int
    points_before: int
    points_after: int
    rank_before: int | None
    rank_after: int | None

    @property
    def points_change(self) -> int:
        return self.points_after - self.points_before


@dataclass
class OnlinePreview:
    """What importing the games would do: each game, who each name is, and the standings change."""

    games: list[OnlineGame]
    matches: dict[str, Match]
    unresolved: dict[str, tuple[Player, ...]]
    standings: list[StandingChange]

    @property
    def errors(self) -> list[str]:
        return [game.error for game in self.games if game.error]

    @property
    def ready(self) -> bool:
        """Whether the import can be confirmed: games, none in error, every name settled."""
        return bool(self.games) and not self.errors and not self.unresolved


def _online_warnings(event: Event, record: engine.GameRecord) -> list[str]:
    """What the organiser should check before importing: another site or lobby than the event's."""
    warnings = []
    log = record.log
    if log is None:
        return warnings
    if event.online and log.source != event.online:
        warnings.append(
            gettext("This game was played on %(site)s; the event is marked as played on %(event_site)s.")
            % {"site": _site(log.source), "event_site": _site(event.online)}
        )
    if event.online_lobby and log.lobby and log.lobby.strip() != event.online_lobby.strip():
        warnings.append(
            gettext("This game was played in lobby %(lobby)s; the event's lobby is %(event_lobby)s.")
            % {"lobby": log.lobby, "event_lobby": event.online_lobby}
        )
    return warnings


def _site(source: str) -> str:
    return gettext("Tenhou") if source == "tenhou" else gettext("Mahjong Soul")


def _check_online_game(label: str, record: engine.GameRecord, event: Event, book: PlayerBook) -> OnlineGame:
    game = OnlineGame(label=label, record=record, warnings=_online_warnings(event, record))
    try:
        parsed = parse_game(label, record.to_dict(), event, book)
    except ImportFailed as exc:
        game.error = str(exc)
        if record.rules.to_dict() != event.rules.to_dict():
            game.error += " " + gettext(
                "(The log was played under %(log_rules)s rules, this event's are %(event_rules)s.)"
            ) % {"log_rules": record.rules.preset, "event_rules": event.rules.preset}
        game.players = [
            (book.choices.get(n.strip()) or book.matches.get(n.strip(), Match()).player or Unresolved(n))
            for n in (record.players or ())
        ]
        game.matches = [book.matches.get(n.strip(), Match()) for n in (record.players or ())]
        return game
    game.matches = [book.matches.get(n.strip(), Match()) for n in (record.players or ())]
    game.parsed = parsed
    game.players = list(parsed.players)
    replayed = parsed.record.replay()
    game.final = replayed.final(parsed.record.penalty_points())
    if record.rules.to_dict() != event.rules.to_dict():
        own = record.replay().final(record.penalty_points())
        if own.scores != game.final.scores or own.results != game.final.results:
            game.log_scores = own.scores
            game.warnings.append(
                gettext(
                    "The log was played under %(log_rules)s rules; this event's rules (%(event_rules)s) "
                    "score it differently: the final scores and results shown are the event's. To keep the "
                    "log's, give the event the log's rules first."
                )
                % {"log_rules": record.rules.preset, "event_rules": event.rules.preset}
            )
    if not replayed.finished:
        game.warnings.append(
            gettext("Under this event's rules the game is not over after the log's last hand.")
        )
    return game


def _standings_change(event: Event, games: Sequence[OnlineGame]) -> list[StandingChange]:
    """The standings lines of the players of ``games``, before and after they count (ranked the same
    way as the standings page ranks them)."""
    rows = standings(event)
    before = {row.player_id: dataclasses.replace(row) for row in rows}
    after = {row.player_id: dataclasses.replace(row) for row in rows}
    new_ids: dict[str, int] = {}
    unknown: set[int] = set()
    involved: list[int] = []
    for game in games:
        if game.final is None:
            continue
        for seat, who in enumerate(game.players):
            if isinstance(who, Player):
                key, name = who.pk, who.display_name
            else:
                name = str(who)
                key = new_ids.setdefault(name, -1 - len(new_ids))  # not a player yet
                if isinstance(who, Unresolved):
                    unknown.add(key)
            row = after.setdefault(key, StandingRow(key, name))
            result, place, score = game.final.results[seat], game.final.places[seat], game.final.scores[seat]
            row.games += 1
            row.points += result
            row.place_sum += place
            row.score_sum += score
            row.best = result if row.best is None else max(row.best, result)
            if place == 1:
                row.firsts += 1
            elif place == 2:
                row.seconds += 1
            elif place == 3:
                row.thirds += 1
            else:
                row.fourths += 1
            if key not in involved:
                involved.append(key)
    ranked = rank_rows(list(after.values()), tie_break_terms(event), event.min_games)
    after_rank = {row.player_id: row.rank for row in ranked}
    order = {row.player_id: index for index, row in enumerate(ranked)}
    changes = []
    for key in sorted(involved, key=lambda k: order[k]):
        old = before.get(key)
        new = after[key]
        changes.append(
            StandingChange(
                name=new.name,
                new_player=key < 0,
                unknown=key in unknown,
                games_before=old.games if old else 0,
                games_after=new.games,
                points_before=old.points if old else 0,
                points_after=new.points,
                rank_before=old.rank if old else None,
                rank_after=after_rank.get(key),
            )
        )
    return changes


def preview_online(
    *,
    event: Event,
    records: Sequence[tuple[str, engine.GameRecord]],
    choices: Mapping[str, int | str] | None = None,
) -> OnlinePreview:
    """Check the games of an online import without writing anything: each game under the event's rules,
    its players (by online name, or the organiser's ``choices``), logs already imported, and what the
    standings become. ``records`` are (label, record) pairs, e.g. (file name or link, the log's game)."""
    try:
        resolved = resolve_choices(event, choices or {})
    except ImportFailed:
        resolved = {}  # a stale form (a player removed meanwhile): ask again
    book = PlayerBook(event, create=False, choices=resolved, collect=True)
    games = [_check_online_game(label, record, event, book) for label, record in records]
    seen: dict[str, str] = {}
    parsed = [g for g in games if g.parsed is not None]
    for game in parsed:
        log_id = game.parsed.source_log_id  # type: ignore[union-attr]
        if log_id and log_id in seen:
            game.error = gettext("%(label)s: this log is in the import twice (also %(other)s).") % {
                "label": game.label,
                "other": seen[log_id],
            }
        elif log_id:
            seen[log_id] = game.label
    if seen:
        done = dict(
            Hanchan.objects.filter(event=event, source_log_id__in=list(seen)).values_list(
                "source_log_id", "pk"
            )
        )
        for game in parsed:
            log_id = game.parsed.source_log_id  # type: ignore[union-attr]
            if log_id in done and not game.error:
                game.error = gettext(
                    "%(label)s: log %(id)s is already imported in this event (game %(game)s): a log is "
                    "imported once."
                ) % {"label": game.label, "id": log_id, "game": done[log_id]}
    return OnlinePreview(
        games=games,
        matches=book.matches,
        unresolved=book.unresolved,
        standings=_standings_change(event, [g for g in games if not g.error]),
    )


def import_online_games(
    *,
    event: Event,
    records: Sequence[tuple[str, engine.GameRecord]],
    choices: Mapping[str, int | str] | None = None,
    user: Any = None,
) -> list[Hanchan]:
    """Store the games of online logs as finished hand-by-hand games of ``event``; all or nothing.

    ``choices`` settle the names no player was found for (log name → player id, or :data:`NEW_PLAYER`
    to create one with that name as online name). A name still unknown, a log already imported, a game
    the event's rules cannot replay: :class:`ImportFailed`, and nothing is written.
    """
    user = history.acting_user(user)
    if not records:
        raise ImportFailed(gettext("There is no game to import."))
    try:
        with transaction.atomic():
            book = PlayerBook(event, create=False, choices=resolve_choices(event, choices or {}))
            games = parse_sources([(label, record.to_dict()) for label, record in records], event, book)
            _check_log_ids(games, event)
            return _store(games, event, book, user)
    except IntegrityError:
        raise _imported_meanwhile() from None
