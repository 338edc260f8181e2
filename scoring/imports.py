"""Import game records (game-record.md) into an event as finished hanchans, all or nothing.

The ``import_games`` command and ``seed_demo`` both come through :func:`import_records`, so a file
written by ``export_games`` and a generated demo season are stored by the same code. Every record is
first checked completely — its structure and hands replayed under the *event's* ruleset, its players
matched — before anything is written; the writes then happen in one transaction, so a bad record in the
last file leaves the database exactly as it was.

Rows are written in bulk and the engine-derived columns (hand rounds, deltas, per-seat hand rows, seat
results) come from :func:`scoring.services.sync.refresh`, the same function every service calls, so an
imported game is indistinguishable from one entered hand by hand. Going through ``record_hand`` hand by
hand would replay the game once per hand (quadratic) and log a history entry per hand for facts that were
never entered here.

Besides the documented fields, records may carry the extra fields ``export_games`` writes (the format
allows added fields, never renamed ones): ``final_scores`` and ``final_sticks`` (a game entered as final
scores, with ``"hands": []``), ``on_behalf_of`` (per seat, the registered player a substitute replaced, or
null), ``round_number``, ``table_number``, ``finished_at`` (ISO 8601), ``played_on`` (an ISO date:
when the game was played) and, per penalty, ``kind`` (``chombo`` or ``other``).

The game's ``played_on`` is the record's ``played_on`` when it has one, else the date of its
``finished_at`` in the site's time zone (a record written elsewhere says when the game ended, which is
the day it was played), else the date a game started now would get (today; for a tournament, today
within the event's dates).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime

from league.models import Event, Hanchan, Player, Registration, Seat
from scoring import engine
from scoring.engine.errors import shown
from scoring.engine.record import check_text
from scoring.models import Hand, Penalty, Win
from scoring.records import hand_row, win_rows
from scoring.services import history
from scoring.services.hanchan import default_played_on
from scoring.services.sync import refresh

SEAT_NAMES = engine.WINDS
EMA_NUMBER = re.compile(r"^\d{8}$")
_MAX_NAME = Player._meta.get_field("display_name").max_length or 80
MAX_FINAL_STICKS = 999
"""The most riichi sticks a final-scores record may leave on the table (far more than any game can)."""
SCORE_LIMIT = 1_000_000_000
"""The largest score, uma or result (either sign) an imported game may store: the columns hold 32 bits,
and a score this far out is a typo or hostile input, never a game."""


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


# -- players -----------------------------------------------------------------------------------------


class PlayerBook:
    """Finds a record's player names among the event's registered players, then the club's players.

    A name is matched against display names first; a name of exactly eight digits is also tried as an
    EMA number, so that records written by scripts that know only EMA numbers import too. Registered
    players come first so that a name shared by players of two clubs resolves to the one taking part.
    """

    def __init__(self, event: Event, *, create: bool) -> None:
        self.event = event
        self.create = create
        registered = list(Player.objects.filter(registrations__event=event))
        self.registered_ids = {p.pk for p in registered}
        club_players = list(Player.objects.filter(club_id=event.club_id)) if event.club_id else []
        self._tiers = [self._index(registered), self._index(club_players)]

    @staticmethod
    def _index(players: Iterable[Player]) -> tuple[dict[str, list[Player]], dict[str, Player]]:
        by_name: dict[str, list[Player]] = {}
        by_ema: dict[str, Player] = {}
        for player in players:
            by_name.setdefault(player.display_name, []).append(player)
            if player.ema_number:
                by_ema[player.ema_number] = player
        return by_name, by_ema

    def find(self, name: str) -> Player | str:
        """The player called ``name``, or ``name`` itself when it is to be created."""
        name = name.strip()
        if not name:
            raise ImportFailed("players: a player name is empty")
        for by_name, by_ema in self._tiers:
            found = by_name.get(name, [])
            if len(found) > 1:
                raise ImportFailed(
                    f"players: {len(found)} players are called {name!r}; name them by EMA number instead"
                )
            if found:
                return found[0]
            if EMA_NUMBER.match(name) and name in by_ema:
                return by_ema[name]
        if not self.create:
            raise ImportFailed(
                f"players: unknown player {name!r}: not registered in {self.event} nor a player of its "
                f"club (--create-players adds them)"
            )
        if len(name) > _MAX_NAME:
            raise ImportFailed(f"players: the name {name[:20]!r}… is longer than {_MAX_NAME} characters")
        return name


# -- reading -----------------------------------------------------------------------------------------


def _optional_int(data: dict[str, Any], key: str, *, minimum: int, maximum: int) -> int | None:
    value = data.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not minimum <= value <= maximum:
        raise ImportFailed(
            f"{key}: must be a whole number from {minimum} to {maximum}, not {shown(value)}"
        )
    return value


def _final_scores(data: dict[str, Any], record: engine.GameRecord) -> tuple[list[int] | None, int]:
    """The extra ``final_scores``/``final_sticks`` of a game entered as final scores, checked like the
    final-scores form checks them (sum, multiples of 100)."""
    if "final_scores" not in data:
        if "final_sticks" in data:
            raise ImportFailed("final_sticks: only a record with final_scores may have final_sticks")
        return None, 0
    scores = data["final_scores"]
    if (
        not isinstance(scores, list)
        or len(scores) != 4
        or any(isinstance(s, bool) or not isinstance(s, int) for s in scores)
    ):
        raise ImportFailed("final_scores: must be a list of four whole numbers in seat order")
    if any(abs(s) > SCORE_LIMIT for s in scores):
        raise ImportFailed(f"final_scores: each score must be from -{SCORE_LIMIT} to {SCORE_LIMIT}")
    if record.hands:
        raise ImportFailed("final_scores: a record has either hands or final_scores, not both")
    sticks = _optional_int(data, "final_sticks", minimum=0, maximum=MAX_FINAL_STICKS) or 0
    try:
        engine.check_final_scores(scores, sticks, record.rules)
    except engine.RuleViolation as exc:
        raise ImportFailed(f"final_scores: {exc.message}") from None
    return list(scores), sticks


def _finished_at(data: dict[str, Any]) -> datetime | None:
    value = data.get("finished_at")
    if value is None:
        return None
    try:
        parsed = parse_datetime(value) if isinstance(value, str) else None
        if parsed is not None:
            if timezone.is_naive(parsed):
                parsed = timezone.make_aware(parsed)
            timezone.localtime(parsed)  # a moment the site's time zone cannot show: year 1 at +14:00
    except (ValueError, OverflowError):  # well formed but not on the calendar: 2025-02-30T10:00
        parsed = None
    if parsed is None:
        raise ImportFailed(
            f"finished_at: must be an ISO 8601 date and time that exists, not {shown(value)}"
        )
    return parsed


def _played_on(data: dict[str, Any], finished_at: datetime | None) -> date | None:
    """The record's ``played_on`` (an ISO date), else the date of its ``finished_at``; None without
    either (the event's default date then applies)."""
    value = data.get("played_on")
    if value is None:
        return timezone.localdate(finished_at) if finished_at is not None else None
    try:
        parsed = parse_date(value) if isinstance(value, str) else None
    except ValueError:  # well formed but not a day of the calendar: 2025-02-30
        parsed = None
    if parsed is None:
        raise ImportFailed(
            f"played_on: must be an ISO 8601 date (YYYY-MM-DD) that exists, not {shown(value)}"
        )
    return parsed


def _penalty_kinds(data: dict[str, Any]) -> list[str]:
    kinds = []
    for number, raw in enumerate(data.get("penalties") or [], start=1):
        kind = raw.get("kind", Penalty.Kind.OTHER)
        if not isinstance(kind, str) or kind not in Penalty.Kind.values:
            raise ImportFailed(
                f"penalty {number}: kind must be chombo or other, not {shown(kind)}"
            )
        kinds.append(kind)
    return kinds


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
            f"the game's scores or results go beyond {SCORE_LIMIT} points: check the event's ruleset"
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
                "players: the record names no players; importing needs the four player names in seat order"
            )
        final_scores, final_sticks = _final_scores(data, record)
        finished_at = _finished_at(data)
        if final_scores is None and not record.hands:
            raise ImportFailed("hands: the record has no hands (and no final_scores): nothing to import")
        players = [book.find(name) for name in record.players]
        keys = [p.pk if isinstance(p, Player) else p for p in players]
        if len(set(keys)) != 4:
            raise ImportFailed("players: a player can sit in only one seat of a game")
        behalf: list[Player | str | None] = [None] * 4
        raw_behalf = data.get("on_behalf_of")
        if raw_behalf is not None:
            if not isinstance(raw_behalf, list) or len(raw_behalf) != 4:
                raise ImportFailed("on_behalf_of: must be a list of four names or nulls, in seat order")
            for seat, name in enumerate(raw_behalf):
                if name is None:
                    continue
                if not isinstance(name, str):
                    raise ImportFailed(f"on_behalf_of: must be names or nulls, not {shown(name)}")
                check_text(name, f"on_behalf_of: the name of seat {seat}")
                found = book.find(name)
                if (found.pk if isinstance(found, Player) else found) in keys:
                    raise ImportFailed(
                        f"on_behalf_of: {name!r} sits at the table, so no substitute can stand in for them"
                    )
                behalf[seat] = found
        _check_fits(record, final_scores, final_sticks)
        return ParsedGame(
            label=label,
            record=record,
            players=players,
            on_behalf_of=behalf,
            final_scores=final_scores,
            final_sticks=final_sticks,
            penalty_kinds=_penalty_kinds(data),
            # record_from_dict checked them (1 to MAX_NUMBER, game-record.md's limits).
            round_number=data.get("round_number"),
            table_number=data.get("table_number"),
            finished_at=finished_at,
            played_on=_played_on(data, finished_at),
        )
    except engine.EngineError as exc:
        raise ImportFailed(f"{label}: {exc}") from None
    except ImportFailed as exc:
        raise ImportFailed(f"{label}: {exc}") from None


def parse_sources(sources: Iterable[tuple[str, Any]], event: Event, book: PlayerBook) -> list[ParsedGame]:
    """Every record of every source; a source holds one record (an object) or a list of them."""
    games: list[ParsedGame] = []
    for name, data in sources:
        if isinstance(data, list):  # an empty list is the export of an event without games
            for number, item in enumerate(data, start=1):
                games.append(parse_game(f"{name}: record {number}", item, event, book))
        else:
            games.append(parse_game(name, data, event, book))
    return games


# -- writing -----------------------------------------------------------------------------------------


def _create_players(games: Sequence[ParsedGame], event: Event) -> None:
    """Create the players named only by name (``--create-players``) in the event's club, once each."""
    made: dict[str, Player] = {}
    for game in games:
        for seats in (game.players, game.on_behalf_of):
            for i, who in enumerate(seats):
                if isinstance(who, str):
                    if who not in made:
                        # PlayerBook.find checked the name (not blank, not too long, not in the club).
                        made[who] = Player.objects.create(display_name=who, club=event.club)
                    seats[i] = made[who]


def _register(games: Sequence[ParsedGame], event: Event, book: PlayerBook) -> None:
    """Register every player who played (or was stood in for): standings count registered players."""
    missing: dict[int, Registration] = {}
    for game in games:
        for who in [*game.players, *game.on_behalf_of]:
            if isinstance(who, Player) and who.pk not in book.registered_ids and who.pk not in missing:
                missing[who.pk] = Registration(event=event, player=who)
    Registration.objects.bulk_create(list(missing.values()))
    book.registered_ids.update(missing)


def _write_game(game: ParsedGame, event: Event, user: Any) -> Hanchan:
    record = game.record
    now = timezone.now()
    final_mode = game.final_scores is not None
    hanchan = Hanchan.objects.create(
        event=event,
        round_number=game.round_number,
        table_number=game.table_number,
        status=Hanchan.Status.FINISHED,
        entry_mode=Hanchan.EntryMode.FINAL_SCORES if final_mode else Hanchan.EntryMode.HANDS,
        version=1,
        entered_by=user,
        created_at=game.finished_at or now,
        finished_at=game.finished_at or now,
        played_on=game.played_on or default_played_on(event),
        final_sticks=game.final_sticks,
    )
    hanchan.event = event  # share the instance: its ruleset is parsed once
    Seat.objects.bulk_create(
        [
            Seat(
                hanchan=hanchan,
                seat=i,
                player=player,  # type: ignore[misc]
                on_behalf_of=game.on_behalf_of[i],  # type: ignore[misc]
                final_score=game.final_scores[i] if final_mode else None,  # type: ignore[index]
            )
            for i, player in enumerate(game.players)
        ]
    )
    rows = Hand.objects.bulk_create(
        [hand_row(hanchan, number, hand) for number, hand in enumerate(record.hands, start=1)]
    )
    Win.objects.bulk_create(
        [w for row, hand in zip(rows, record.hands, strict=True) for w in win_rows(row, hand)]
    )
    Penalty.objects.bulk_create(
        [
            Penalty(
                event=event,
                player=game.players[p.seat],  # type: ignore[misc]  # the offender, who sat there
                hanchan=hanchan,
                points=p.points,
                kind=kind,
                reason=(p.reason or "imported penalty")[:200],
                given_by=user,
                created_at=hanchan.finished_at,
                # A penalty of a tournament table belongs to its round (standings after a round).
                round_number=hanchan.round_number if event.kind == Event.Kind.TOURNAMENT else None,
            )
            for p, kind in zip(record.penalties, game.penalty_kinds, strict=True)
        ]
    )
    played = refresh(hanchan)
    names = ", ".join(f"{SEAT_NAMES[i]} {p}" for i, p in enumerate(game.players))
    if final_mode:
        how = "final scores " + " / ".join(str(s) for s in game.final_scores)  # type: ignore[union-attr]
    elif played is not None and played.finished:
        how = f"{len(record.hands)} hands"
    else:
        how = f"{len(record.hands)} hands, finished early (time limit)"
    history.log(
        event=event,
        hanchan=hanchan,
        user=user,
        action="game imported",
        summary=f"{names}; {how}",
        reason=f"imported from {game.label}",
    )
    return hanchan


def import_records(
    *,
    event: Event,
    sources: Iterable[tuple[str, Any]],
    create_players: bool = False,
    user: Any = None,
) -> list[Hanchan]:
    """Store the records of ``sources`` (pairs of a label, e.g. the file name, and parsed JSON) as
    finished hanchans of ``event``, in order; all or nothing.

    Raises :class:`ImportFailed` whose message starts with the label of the offending source.
    """
    user = history.acting_user(user)
    with transaction.atomic():
        book = PlayerBook(event, create=create_players)
        games = parse_sources(sources, event, book)
        _create_players(games, event)
        _register(games, event, book)
        return [_write_game(game, event, user) for game in games]
