"""Public pages on a large league against the raw SQL they need, and the cost of rebuilding every cached row.

Builds a throwaway database (a temporary SQLite file, or a dedicated PostgreSQL database with
``--database-url``) holding one club league of P players (default 500) and G hanchans (default 20 000)
recorded hand by hand: random legal ema2016 games from the engine's generator (seeded), each played by a
random foursome, finished one after another. Then, in the same run, it times (``time.perf_counter``, best
of ``--repeat``; pages through Django's test ``Client``, so middleware, view, selectors and templates):

1. the standings page ``/events/<slug>/`` against one hand-written ``GROUP BY`` over
   ``scoring_seatresult`` joined to ``league_hanchan`` (finished games only) — the aggregate the
   standings are;
2. a player page ``/players/<pk>/`` (the player with the most games) against the hand-written queries of
   what it shows: the two aggregates its statistics are (hand statistics over ``scoring_handseat``,
   results over ``scoring_seatresult``), its games list, its wins (yaku and yakuman), its head-to-head
   and its rating history;
3. a game page ``/games/<pk>/`` (the game with the most hands) against the raw SQL of its rows (seats
   and players, hands, wins);
4. a rebuild of every cached row from the hand records: ``scoring.services.sync.refresh`` over every
   hanchan in one transaction (hand derived columns, per-seat hand rows, seat results), and the single
   ratings rebuild the background worker then does for it; then ``rebuild_all_ratings`` on its own;
5. saving a hand (the whole POST), and correcting a hand of the season's first game and of its newest
   one through the correction form: the request (issue 25's goal: under a second) and then the worker's
   ratings rebuild (``background.worker.run_ready`` in this process, as ``manage.py worker`` would);

and prints page ÷ raw SQL (the goal is 3 or less), the number of queries each page makes, the time those
queries took inside the page, and hands per second for the rebuilds. Figures are printed, never asserted.

How the league is built (``--build bulk``, the default): going through ``import_records`` or ``refresh``
game by game costs ~25 ms a game (20 queries, two ORM ``bulk_update``), ~9 minutes for 20 000 games, so
the rows are written in batches instead, with the project's own code for every value. The facts
(hanchans, seats, penalties, hands, wins) are the project's rows for the engine's games
(``scoring.records.hand_row``/``win_rows``, as ``import_records`` writes them); each game is replayed by
the engine from those rows as ``sync.replay_stored`` does; ``sync._write_hands`` itself fills the hands'
derived columns, the wins' points and the per-seat hand rows (its four writes collected, not sent); the
seat results are the engine's final result of that replay with the game's penalties, as
``sync._write_results`` stores them. Nothing here computes a score — and the rebuild measured afterwards
runs the real ``refresh`` over every game and checks that it leaves every cached row exactly as built
(the run exits 1 if not). ``--build import`` stores the games through ``scoring.imports.import_records``
(the ``import_games``/``seed_demo`` path) in batches of 500 instead: same rows, about 3.5× slower.
On PostgreSQL the build ends with ``VACUUM ANALYZE``, which autovacuum would soon do by itself.

    python bench/standings.py [--quick] [--players P] [--games G] [--seed S] [--repeat N]
                              [--rebuild-repeat N] [--build bulk|import] [--profile] [--keep]
                              [--database-url postgres://postgres@127.0.0.1:5432/tenbou_bench [--replace]]

With ``--database-url`` the named database is created for the run and dropped at the end (``--keep``
keeps it, and the SQLite file); it must not exist yet unless ``--replace`` is given, and ``postgres`` or a
template database is refused. ``--profile`` adds, per page, its queries with their times and a cProfile
of one request (the Python side).
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import io
import os
import platform
import pstats
import random
import re
import secrets
import shutil
import statistics
import sys
import sysconfig
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

PRESET = "ema2016"
GOAL = 3.0  # page time ÷ raw SQL time
REBUILD_GOAL = 10_000  # hands/s, rebuilding every cached row
SAVE_GOAL_MS = 30  # median of saving a hand, the whole POST
BATCH = 500  # games written per batch
PENALTY_CHANCE = 0.02  # a referee penalty now and then, so that refresh reads some
REFUSED_DATABASES = {"postgres", "template0", "template1"}
SITE_PACKAGES = sysconfig.get_paths()["purelib"] + "/"


# -- the throwaway database ---------------------------------------------------------------------------


@dataclass
class BenchDatabase:
    url: str
    vendor: str
    name: str
    temp_dir: str | None = None  # SQLite: the directory of the file
    admin_url: str | None = None  # PostgreSQL: where CREATE/DROP DATABASE are sent


def _pg_admin(admin_url: str, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    import psycopg

    with psycopg.connect(admin_url, autocommit=True) as conn, conn.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall() if cursor.description else []


def create_database(database_url: str | None, replace: bool) -> BenchDatabase:
    """A new, empty database for this run: a temporary SQLite file, or the named PostgreSQL database."""
    if not database_url:
        temp_dir = tempfile.mkdtemp(prefix="tenbou-bench-")
        path = Path(temp_dir) / "bench.sqlite3"
        return BenchDatabase(f"sqlite:///{path}", "sqlite", str(path), temp_dir=temp_dir)
    parts = urlsplit(database_url)
    if parts.scheme not in {"postgres", "postgresql", "pgsql"}:
        raise SystemExit(f"--database-url: only postgres:// URLs are supported (not {parts.scheme}://)")
    name = parts.path.lstrip("/")
    if not name or name in REFUSED_DATABASES or not name.replace("_", "").isalnum():
        raise SystemExit(
            f"--database-url: refusing database {name!r}; name a dedicated one, e.g. tenbou_bench"
        )
    admin_url = urlunsplit((parts.scheme.replace("pgsql", "postgresql"), parts.netloc, "/postgres", "", ""))
    exists = _pg_admin(admin_url, "SELECT 1 FROM pg_database WHERE datname = %s", (name,))
    if exists:
        if not replace:
            raise SystemExit(f"database {name} already exists: drop it, or pass --replace to drop it first")
        _pg_admin(admin_url, f'DROP DATABASE "{name}" WITH (FORCE)')
    _pg_admin(admin_url, f'CREATE DATABASE "{name}"')
    return BenchDatabase(database_url, "postgresql", name, admin_url=admin_url)


def drop_database(db: BenchDatabase) -> None:
    from django.db import connections

    connections.close_all()
    if db.temp_dir:
        shutil.rmtree(db.temp_dir, ignore_errors=True)
    elif db.admin_url:
        _pg_admin(db.admin_url, f'DROP DATABASE IF EXISTS "{db.name}" WITH (FORCE)')


def configure_django(db: BenchDatabase) -> None:
    """Production-like settings (DEBUG off) on the bench database, then ``django.setup()``.

    Plain static-file storage replaces the manifest one (there is no ``collectstatic`` here), HTTPS
    redirects are off (the test client speaks HTTP) and the test client's host is allowed. The test
    environment (``setup_test_environment``) is *not* installed: it instruments every template render,
    which would be counted in the page times.
    """
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    os.environ["DATABASE_URL"] = db.url
    os.environ["DEBUG"] = "false"
    os.environ["SECRET_KEY"] = "bench-" + secrets.token_urlsafe(32)
    os.environ["ALLOWED_HOSTS"] = "testserver,localhost"
    os.environ["SECURE_SSL_REDIRECT"] = "false"
    os.environ.setdefault("LOG_LEVEL", "ERROR")

    import django
    from django.conf import settings

    django.setup()
    from django.test.utils import override_settings

    storages = {**settings.STORAGES}
    storages["staticfiles"] = {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}
    override_settings(STORAGES=storages).enable()


# -- timing -------------------------------------------------------------------------------------------


def best_of(work: Callable[[], Any], rounds: int) -> tuple[float, Any]:
    """The fastest of ``rounds`` runs in seconds (the least disturbed by the rest of the machine), and
    what the last run returned."""
    best, result = float("inf"), None
    for _ in range(rounds):
        start = time.perf_counter()
        result = work()
        best = min(best, time.perf_counter() - start)
    return best, result


# -- building the league ------------------------------------------------------------------------------


@dataclass
class League:
    event: Any
    players: list[Any]
    hanchan_ids: list[int]
    hands: int
    wins: int
    penalties: int


def generate_games(players: int, games: int, seed: int) -> tuple[list[tuple[int, ...]], list[Any]]:
    """``games`` random legal hanchans (engine only) and, for each, the indexes of its four players."""
    from scoring.engine import make_ruleset
    from scoring.engine.generator import random_game

    rules = make_ruleset(PRESET)
    rng = random.Random(seed)
    tables, records = [], []
    for _ in range(games):
        tables.append(tuple(rng.sample(range(players), 4)))
        records.append(random_game(rules, random.Random(rng.getrandbits(32)), penalty_chance=PENALTY_CHANCE))
    return tables, records


def make_event(players: int) -> tuple[Any, list[Any]]:
    from league.models import Club, Event, Player, Registration
    from scoring.engine import make_ruleset

    club = Club.objects.create(name="Bench club", slug="bench")
    event = Event.objects.create(
        club=club,
        name="Bench league",
        slug="bench-league",
        ruleset=make_ruleset(PRESET).to_dict(),
        min_games=10,
    )
    people = Player.objects.bulk_create(
        [Player(display_name=f"Player {n:04d}", club=club) for n in range(players)], batch_size=1000
    )
    Registration.objects.bulk_create([Registration(event=event, player=p) for p in people], batch_size=1000)
    return event, people


def game_time(start: datetime, index: int) -> datetime:
    """Games finish one after another, 20 minutes apart (the rating order is the order of creation)."""
    return start + timedelta(minutes=20 * index)


def build_league(event: Any, people: list[Any], tables: list[tuple[int, ...]], records: list[Any]) -> League:
    """Every game with its cached rows, in batches of ``BATCH`` games, in one transaction.

    The facts (hanchans, seats, penalties, hands, wins) are the project's rows for the engine's games
    (``hand_row``/``win_rows``, as ``import_records`` writes them), bulk-inserted; the cached rows (the
    hands' derived columns, the wins' points, the per-seat hand rows, the seat results) are then written
    by the project's own set-based rebuild, ``sync.rebuild``, batch by batch — the code every service
    runs. Nothing here computes a score.
    """
    from django.db import transaction

    from league.models import Hanchan, Seat
    from scoring.models import Hand, Penalty, Win
    from scoring.records import hand_row, win_rows
    from scoring.services import sync

    start = datetime(2020, 1, 1, 19, tzinfo=UTC)
    ids: list[int] = []
    hands = wins = penalties = 0
    with transaction.atomic():
        for first in range(0, len(records), BATCH):
            chunk = range(first, min(first + BATCH, len(records)))
            hanchans = Hanchan.objects.bulk_create(
                [
                    Hanchan(
                        event=event,
                        status=Hanchan.Status.FINISHED,
                        entry_mode=Hanchan.EntryMode.HANDS,
                        version=1,
                        created_at=game_time(start, i),
                        finished_at=game_time(start, i),
                    )
                    for i in chunk
                ]
            )
            Seat.objects.bulk_create(
                [
                    Seat(hanchan=h, seat=seat, player=people[p])
                    for h, i in zip(hanchans, chunk, strict=True)
                    for seat, p in enumerate(tables[i])
                ]
            )
            penalty_list = [
                Penalty(
                    event=event,
                    player=people[tables[i][p.seat]],
                    hanchan=h,
                    points=p.points,
                    kind=Penalty.Kind.OTHER,
                    reason=p.reason or "referee penalty",
                    created_at=h.finished_at,
                )
                for h, i in zip(hanchans, chunk, strict=True)
                for p in records[i].penalties
            ]
            Penalty.objects.bulk_create(penalty_list)
            hand_rows: list[Any] = []
            win_list: list[Any] = []
            for h, i in zip(hanchans, chunk, strict=True):
                for number, hand in enumerate(records[i].hands, start=1):
                    row = hand_row(h, number, hand)
                    hand_rows.append(row)
                    win_list.extend(win_rows(row, hand))
            Hand.objects.bulk_create(hand_rows)
            Win.objects.bulk_create(win_list)
            for h in hanchans:
                h.event = event  # one instance: the ruleset is parsed once
            sync.rebuild(hanchans)
            ids.extend(h.pk for h in hanchans)
            hands += len(hand_rows)
            wins += len(win_list)
            penalties += len(penalty_list)
    return League(event, people, ids, hands, wins, penalties)


def fingerprint(event: Any) -> str:
    """A digest of every cached row of the event (hands' derived columns, wins' points, per-seat hand
    rows, seat results; not their own ids, which a refresh renews)."""
    from scoring.models import Hand, HandSeat, SeatResult, Win

    digest = hashlib.sha256()
    seat_fields = [f.attname for f in HandSeat._meta.concrete_fields if f.attname != "id"]
    result_fields = [f.attname for f in SeatResult._meta.concrete_fields if f.attname != "id"]
    for rows in (
        Hand.objects.filter(hanchan__event=event)
        .order_by("pk")
        .values_list("pk", "round_name", "dealer", "honba", "sticks", "deltas", "scores"),
        Win.objects.filter(hand__hanchan__event=event).order_by("pk").values_list("pk", "points"),
        HandSeat.objects.filter(hanchan__event=event).order_by("hand_id", "seat").values_list(*seat_fields),
        SeatResult.objects.filter(event=event).order_by("hanchan_id", "seat").values_list(*result_fields),
    ):
        for row in rows.iterator(chunk_size=20_000):
            digest.update(repr(row).encode())
    return digest.hexdigest()


def import_games(event: Any, people: list[Any], tables: list[tuple[int, ...]], records: list[Any]) -> League:
    """The same games through ``import_records`` (the ``import_games`` path), in batches of ``BATCH``."""
    from league.models import Hanchan
    from scoring.imports import import_records

    start = datetime(2020, 1, 1, 19, tzinfo=UTC)
    ids: list[int] = []
    for first in range(0, len(records), BATCH):
        batch = []
        for i in range(first, min(first + BATCH, len(records))):
            data = records[i].to_dict()
            data["players"] = [people[p].display_name for p in tables[i]]
            data["finished_at"] = game_time(start, i).isoformat()
            batch.append(data)
        ids.extend(h.pk for h in import_records(event=event, sources=[(f"batch {first}", batch)]))
    from scoring.models import Hand, Penalty, Win

    return League(
        event,
        people,
        ids,
        Hand.objects.count(),
        Win.objects.count(),
        Penalty.objects.filter(hanchan__in=Hanchan.objects.filter(event=event)).count(),
    )


@dataclass
class RebuildTiming:
    seconds: float  # the rebuild, in one transaction, commit included
    ratings: float  # the worker's ratings rebuild for what that transaction marked, run after the commit
    hands_written: int
    results_written: int


def rebuild_league(event: Any) -> RebuildTiming:
    """``sync.rebuild_event``: every cached row of every game, read, replayed, compared and written where
    it differs (set-based), in one transaction; then the background worker's ratings rebuild for the
    games whose results changed (``run_ready``, in this process, as a worker would right after)."""
    from background.worker import run_ready
    from scoring.services import sync

    started = time.perf_counter()
    done = sync.rebuild_event(event)
    committed = time.perf_counter()
    run_ready()
    ended = time.perf_counter()
    return RebuildTiming(committed - started, ended - committed, done.hands_written, done.results_written)


def wipe_cached_rows(event: Any) -> None:
    """Lose every cached row of the event (derived hand columns, wins' points, per-seat hand rows, seat
    results), as after a rules change that moves every value: the rebuild then writes all of them."""
    from scoring.models import Hand, HandSeat, SeatResult, Win

    HandSeat.objects.filter(hanchan__event=event).delete()
    SeatResult.objects.filter(event=event).delete()
    Hand.objects.filter(hanchan__event=event).update(
        round_name="", dealer=0, honba=0, sticks=0, deltas=[], scores=[]
    )
    Win.objects.filter(hand__hanchan__event=event).update(points=0)


def refresh_games(event: Any, count: int) -> float:
    """``refresh`` (the per-game path of every service) over ``count`` games, one call each, in one
    transaction: seconds."""
    from django.db import transaction

    from league.models import Hanchan
    from scoring.services.sync import refresh

    games = list(Hanchan.objects.filter(event=event).order_by("pk")[:count])
    started = time.perf_counter()
    with transaction.atomic():
        for game in games:
            game.event = event
            refresh(game)
    return time.perf_counter() - started


# -- saving a hand --------------------------------------------------------------------------------------


SAVE_GAMES = 40  # games on which the 12th hand is posted (the median of as many saves)


def _simple(hand: Any) -> bool:
    """A hand the plain form enters as one winner (or a draw), without the rule-specific extras."""
    if hand.result == "draw":
        return not hand.nagashi
    return hand.result in ("ron", "tsumo") and len(hand.wins) == 1 and hand.wins[0].pao is None


def hand_post(hand: Any, version: int) -> dict[str, Any]:
    """The hand-entry form's fields for ``hand``, as the organiser's browser posts them."""
    data: dict[str, Any] = {"version": version, "result": hand.result, "riichi": list(hand.riichi)}
    if hand.result == "draw":
        data["tenpai"] = list(hand.tenpai)
        return data
    win = hand.wins[0]
    data["winner"] = win.winner
    if hand.result == "ron":
        data["loser"] = hand.loser
    for name in ("han", "fu", "yakuman"):
        if getattr(win, name) is not None:
            data[name] = getattr(win, name)
    return data


def measure_hand_saves(
    event: Any, people: list[Any], seed: int, count: int = SAVE_GAMES
) -> list[tuple[float, float]]:
    """(wall, CPU) seconds of each of ``count`` hand saves: the whole POST through Django's test client
    (session, view, form, ``record_hand`` with its replay and cached rows, history, the redirect). Each
    is the 12th hand of its own game, whose first 11 hands were recorded before (bulk, then
    ``refresh``); the game goes on after it (a hand that ends a game also writes its results and
    rebuilds ratings: those are the rebuild figures below)."""
    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.test import Client

    from league.models import Hanchan
    from scoring import engine, services
    from scoring.engine.generator import random_game
    from scoring.records import hand_row, win_rows
    from scoring.services.sync import refresh

    user, _ = get_user_model().objects.get_or_create(username="bench-organiser")
    event.club.organisers.add(user)
    rules = event.rules
    rng = random.Random(seed)
    client = Client()
    client.force_login(user)
    times: list[float] = []
    while len(times) < count:
        record = random_game(rules, random.Random(rng.getrandbits(32)))
        if len(record.hands) < 13 or not _simple(record.hands[11]):  # hand 12 does not end the game
            continue
        four = rng.sample(people, 4)
        game = services.start_game(event=event, players=four, user=user)
        with transaction.atomic():
            rows = [hand_row(game, n, hand) for n, hand in enumerate(record.hands[:11], start=1)]
            for row in rows:
                row.save()
            from scoring.models import Win

            Win.objects.bulk_create(
                [w for row, hand in zip(rows, record.hands[:11], strict=True) for w in win_rows(row, hand)]
            )
            refresh(Hanchan.objects.select_related("event").get(pk=game.pk))
        game = Hanchan.objects.get(pk=game.pk)
        data = hand_post(record.hands[11], game.version)
        url = f"/manage/games/{game.pk}/hands/"
        start, cpu = time.perf_counter(), time.process_time()
        response = client.post(url, data)
        spent, cpu = time.perf_counter() - start, time.process_time() - cpu
        if response.status_code != 302:
            raise SystemExit(f"saving hand 12 of game {game.pk} answered {response.status_code}: {data}")
        assert game.hands.count() == 12 and engine is not None
        times.append((spent, cpu))
    return times


def measure_exports(client: Any, event: Any) -> None:
    """The whole league's exports (issue 25: run them in a task if they are slow): the standings CSV as
    the page's download link serves it, and ``export_games`` (every game as a record)."""
    from django.core.management import call_command

    print("\nexports of the whole league, best of 1")
    start = time.perf_counter()
    response = client.get(f"/events/{event.slug}/standings.csv")
    csv_seconds = time.perf_counter() - start
    print(
        f"  standings CSV (the page's link)  {csv_seconds * 1000:7.0f} ms  "
        f"{len(response.content) / 1024:6.0f} kB"
    )
    sink = io.StringIO()
    start = time.perf_counter()
    call_command("export_games", event=event.slug, stdout=sink)
    print(
        f"  export_games (the command)      {time.perf_counter() - start:7.1f} s   "
        f"{len(sink.getvalue()) / 2**20:6.0f} MB"
    )


CORRECTION_TRIES = 12  # hands of a game tried until a correction is legal (a changed hand may end it early)


def measure_correction(client: Any, game_id: int) -> tuple[float, float, int] | None:
    """(request seconds, worker seconds, hand number) of correcting one hand of game ``game_id`` through
    the correction form: the POST until its redirect (what the organiser waits for), then the background
    worker's drain that rebuilds the ratings it changed (``background.worker.run_ready``, in this
    process). A hand of the first few whose han moved by one is kept if the game stays legal; None if
    none does."""
    from django.db.models import Max

    from background.models import Pending
    from background.worker import run_ready
    from league.models import Hanchan
    from scoring.models import Hand
    from scoring.records import engine_hand

    game = Hanchan.objects.get(pk=game_id)
    rows = Hand.objects.filter(hanchan=game).prefetch_related("wins").order_by("number")[:CORRECTION_TRIES]
    for row in rows:
        hand = engine_hand(row, row.wins.all())
        if not _simple(hand) or hand.result == "draw" or hand.wins[0].yakuman:
            continue
        win = hand.wins[0]
        for han in (win.han + 1, win.han - 1):
            if han < 1 or han > 12 or (han < 2 and win.fu == 20):
                continue
            data = hand_post(hand, Hanchan.objects.get(pk=game_id).version)
            data["han"] = han
            data["correction_reason"] = "benchmark: han miscounted"
            start = time.perf_counter()
            response = client.post(f"/manage/games/{game_id}/hands/{row.number}/", data)
            spent = time.perf_counter() - start
            if response.status_code != 302:
                continue
            marked = Pending.objects.filter(kind="ratings").aggregate(n=Max("pk"))["n"] is not None
            start = time.perf_counter()
            run_ready()
            worker = time.perf_counter() - start
            for left in Pending.objects.all():
                print(f"  left after the worker: {left} attempts {left.attempts}: {left.last_error[-600:]}")
            if not marked:
                print("  the correction marked no ratings rebuild (its results did not change)")
            return spent, worker, row.number
    return None


# -- the raw SQL floors ---------------------------------------------------------------------------------


STANDINGS_SQL = """
SELECT sr.player_id, p.display_name, COUNT(*), SUM(sr.result), SUM(sr.place),
       SUM(CASE WHEN sr.place = 1 THEN 1 ELSE 0 END), SUM(CASE WHEN sr.place = 2 THEN 1 ELSE 0 END),
       SUM(CASE WHEN sr.place = 3 THEN 1 ELSE 0 END), SUM(CASE WHEN sr.place = 4 THEN 1 ELSE 0 END),
       SUM(sr.score), MAX(sr.result), SUM(sr.chombos), SUM(sr.penalties)
FROM scoring_seatresult sr
JOIN league_hanchan h ON h.id = sr.hanchan_id
JOIN league_player p ON p.id = sr.player_id
WHERE sr.event_id = %s AND h.status = 'finished'
GROUP BY sr.player_id, p.display_name
"""

HAND_STATS_SQL = """
SELECT hs.player_id, COUNT(*),
       SUM(CASE WHEN hs.won THEN 1 ELSE 0 END), SUM(CASE WHEN hs.won AND hs.tsumo THEN 1 ELSE 0 END),
       SUM(CASE WHEN hs.dealt_in THEN 1 ELSE 0 END), SUM(CASE WHEN hs.riichi THEN 1 ELSE 0 END),
       SUM(CASE WHEN hs.at_draw THEN 1 ELSE 0 END), SUM(CASE WHEN hs.at_draw AND hs.tenpai THEN 1 ELSE 0 END),
       AVG(CASE WHEN hs.won THEN hs.win_points END), AVG(CASE WHEN hs.dealt_in THEN hs.deal_in_points END)
FROM scoring_handseat hs
JOIN league_hanchan h ON h.id = hs.hanchan_id
WHERE hs.player_id = %s AND h.status = 'finished'
GROUP BY hs.player_id
"""

RESULTS_SQL = """
SELECT sr.player_id, COUNT(*),
       SUM(CASE WHEN sr.place = 1 THEN 1 ELSE 0 END), SUM(CASE WHEN sr.place = 2 THEN 1 ELSE 0 END),
       SUM(CASE WHEN sr.place = 3 THEN 1 ELSE 0 END), SUM(CASE WHEN sr.place = 4 THEN 1 ELSE 0 END),
       SUM(CASE WHEN sr.score < 0 THEN 1 ELSE 0 END), AVG(sr.place), AVG(sr.score), SUM(sr.result),
       SUM(sr.chombos)
FROM scoring_seatresult sr
WHERE sr.player_id = %s
GROUP BY sr.player_id
"""

# What the player page shows besides the two aggregates, each as one hand-written query: the games list
# (with its events and dates), the wins (the yaku and yakuman lists; their dates and events are the
# games'), the head-to-head and the rating history.
PLAYER_LIST_SQL = (
    """
SELECT sr.hanchan_id, sr.finished_at, e.name, e.slug, h.entry_mode, sr.place, sr.score, sr.result,
       h.played_on
FROM scoring_seatresult sr
JOIN league_hanchan h ON h.id = sr.hanchan_id
JOIN league_event e ON e.id = sr.event_id
WHERE sr.player_id = %s AND h.status = 'finished'
ORDER BY h.played_on, sr.finished_at, sr.hanchan_id
""",
    """
SELECT hs.hanchan_id, hd.number, hd.round_name, w.yaku, w.han, w.yakuman, w.dora, w.aka, w.ura
FROM scoring_handseat hs
JOIN scoring_win w ON w.hand_id = hs.hand_id AND w.winner = hs.seat
JOIN scoring_hand hd ON hd.id = hs.hand_id
JOIN league_hanchan h ON h.id = hs.hanchan_id
WHERE hs.player_id = %s AND hs.won AND h.status = 'finished'
ORDER BY h.finished_at, hs.hanchan_id, hd.number
""",
    """
SELECT them.player_id, p.display_name, COUNT(*),
       SUM(CASE WHEN me.place < them.place THEN 1 ELSE 0 END),
       SUM(CASE WHEN me.place > them.place THEN 1 ELSE 0 END), AVG(me.place), AVG(them.place)
FROM scoring_seatresult me
JOIN scoring_seatresult them ON them.hanchan_id = me.hanchan_id AND them.player_id <> me.player_id
JOIN league_player p ON p.id = them.player_id
WHERE me.player_id = %s
GROUP BY them.player_id, p.display_name
ORDER BY COUNT(*) DESC, p.display_name
LIMIT 5
""",
    """
SELECT system, hanchan_id, games, before, after
FROM scoring_ratingchange
WHERE player_id = %s AND event_id IS NULL
ORDER BY at, hanchan_id
""",
)

GAME_SQL = (
    """
SELECT s.seat, s.player_id, p.display_name, s.on_behalf_of_id, s.final_score
FROM league_seat s JOIN league_player p ON p.id = s.player_id
WHERE s.hanchan_id = %s ORDER BY s.seat
""",
    """
SELECT id, number, result, loser, riichi, tenpai, nagashi, chombo_seat, abort_reason,
       round_name, dealer, honba, sticks, deltas, scores
FROM scoring_hand WHERE hanchan_id = %s ORDER BY number
""",
    """
SELECT w.hand_id, w.winner, w.han, w.fu, w.yakuman, w.pao, w.points
FROM scoring_win w JOIN scoring_hand h ON h.id = w.hand_id
WHERE h.hanchan_id = %s ORDER BY h.number, w.id
""",
)


def run_sql(*statements: tuple[str, Any]) -> int:
    """Run each (sql, parameter) and fetch every row; returns the number of rows."""
    from django.db import connection

    rows = 0
    with connection.cursor() as cursor:
        for sql, param in statements:
            cursor.execute(sql, [param])
            rows += len(cursor.fetchall())
    return rows


# -- the pages ----------------------------------------------------------------------------------------


@dataclass
class PageFigures:
    label: str
    url: str
    page: float  # cold: rendered from nothing (the page cache emptied before each request)
    sql: float
    sql_rows: int
    queries: int
    query_time: float  # time of the page's own queries, as Django's debug cursor measures them
    size: int
    warm: float = 0.0  # served with its body from the page cache
    warm_queries: int = 0

    @property
    def ratio(self) -> float:
        return self.page / self.sql if self.sql else float("inf")


def measure_page(client: Any, label: str, url: str, floor: Callable[[], int], rounds: int) -> PageFigures:
    from django.core.cache import cache
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def cold() -> Any:
        cache.clear()  # the page rendered from nothing, as after a change of results
        return client.get(url)

    response = cold()  # templates compiled, URL resolver filled
    if response.status_code != 200:
        raise SystemExit(f"{url} answered {response.status_code}")
    with CaptureQueriesContext(connection) as captured:
        cold()
    queries = captured.captured_queries  # read now: the next request empties the log
    query_time = sum(float(q["time"]) for q in queries)
    floor()
    page, _ = best_of(cold, rounds)
    sql, rows = best_of(floor, rounds)
    client.get(url)
    with CaptureQueriesContext(connection) as captured:
        client.get(url)
    warm_queries = len(captured.captured_queries)
    warm, _ = best_of(lambda: client.get(url), rounds)
    return PageFigures(
        label, url, page, sql, rows, len(queries), query_time, len(response.content), warm, warm_queries
    )


# What a page's profile is cut down to: the project's own code, and the library calls it spends on
# (charts, tables, templates, URL reversing, date formatting).
PROFILE_FOCUS = (
    rf"{re.escape(str(REPO))}/(scoring|league)/"
    r"|pygal/graph/public\.py.*render|django_tables2/templatetags/.*render"
    r"|django/template/(base\.py:\d+\(render\)|loader_tags)|django/urls/base\.py.*reverse"
    r"|django/utils/dateformat\.py.*format"
)


def profile_page(client: Any, url: str, top: int = 40, rounds: int = 5) -> None:
    """Where one request of the page goes: each of its queries run again raw (best of ``rounds``, rows
    fetched: the debug cursor's own times leave out SQLite's fetching and are rounded to the ms), then a
    cProfile of one request cut down to :data:`PROFILE_FOCUS`, by cumulative time. Every request is a
    cold one (the page cache emptied first): a warm one is a cache read."""
    from django.core.cache import cache
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    cache.clear()
    start = time.perf_counter()
    client.get(url)
    page = time.perf_counter() - start
    cache.clear()
    with CaptureQueriesContext(connection) as captured:
        client.get(url)
    timed = []
    for q in captured.captured_queries:
        with connection.cursor() as cursor:
            spent, _ = best_of(lambda sql=q["sql"]: (cursor.execute(sql), cursor.fetchall()), rounds)
        timed.append((spent, " ".join(q["sql"].split())))
    total = sum(spent for spent, _ in timed)
    print(
        f"\n--- {url}: {page * 1000:.1f} ms, of which {len(timed)} queries {total * 1000:.1f} ms "
        f"(each run again raw, rows fetched), slowest first"
    )
    for spent, sql in sorted(timed, key=lambda t: -t[0]):
        print(f"  {spent * 1000:8.2f} ms  {sql[:200]}{'…' if len(sql) > 200 else ''}")
    cache.clear()
    profiler = cProfile.Profile()
    profiler.enable()
    client.get(url)
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(PROFILE_FOCUS, top)
    lines = [line for line in out.getvalue().splitlines() if line.strip()]
    body = [line for line in lines if re.match(r"\s*[\d/]+\s+\d", line) or "ncalls" in line]
    print(f"--- {url}: cProfile of one request (its overhead inflates every figure), by cumulative time")
    for line in body:
        print("  " + line.replace(SITE_PACKAGES, "").replace(str(REPO) + "/", ""))


# -- the run ------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        epilog=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--players", type=int, default=None, help="players in the league (default 500)")
    parser.add_argument("--games", type=int, default=None, help="hanchans, hand by hand (default 20 000)")
    parser.add_argument("--quick", action="store_true", help="a fast sanity run: 100 players, 1000 games")
    parser.add_argument("--seed", type=int, default=2016, help="generator seed (default 2016)")
    parser.add_argument("--repeat", type=int, default=5, help="best of N for pages and SQL (default 5)")
    parser.add_argument(
        "--rebuild-repeat", type=int, default=1, help="best of N for the two rebuilds (default 1)"
    )
    parser.add_argument(
        "--build",
        choices=["bulk", "import"],
        default="bulk",
        help="bulk facts then refresh (default), or import_records in batches",
    )
    parser.add_argument("--database-url", default=None, help="a PostgreSQL database to create and drop")
    parser.add_argument("--replace", action="store_true", help="drop the --database-url database first")
    parser.add_argument("--keep", action="store_true", help="keep the database (and say where it is)")
    parser.add_argument("--profile", action="store_true", help="per page: queries by time and a cProfile")
    parser.add_argument(
        "--saves-only",
        action="store_true",
        help="build the league, then only the hand saves and the corrections (no pages, rebuilds, exports)",
    )
    args = parser.parse_args(argv)
    players = args.players or (100 if args.quick else 500)
    games = args.games or (1000 if args.quick else 20_000)
    if players < 4 or games < 1 or args.repeat < 1 or args.rebuild_repeat < 1:
        parser.error("need at least 4 players, 1 game and 1 repeat")

    db = create_database(args.database_url, args.replace)
    try:
        configure_django(db)
        return run(args, db, players, games)
    finally:
        if args.keep:
            print(f"\nkept the database: {db.url}")
        else:
            drop_database(db)


def run(args: argparse.Namespace, db: BenchDatabase, players: int, games: int) -> int:
    import django
    from django.core.management import call_command
    from django.db import connection
    from django.db.models import Count
    from django.test import Client

    from league.models import Hanchan
    from scoring.models import Hand, HandSeat, RatingChange, SeatResult
    from scoring.ratings import rebuild_all_ratings

    with connection.cursor() as cursor:
        cursor.execute("SELECT sqlite_version()" if db.vendor == "sqlite" else "SHOW server_version")
        db_version = cursor.fetchone()[0]
    print(
        f"{time.strftime('%Y-%m-%d %H:%M')}  {os.cpu_count()} cores  Python {platform.python_version()}  "
        f"Django {django.get_version()}  {db.vendor} {db_version}"
    )
    print(
        f"league: {players} players, {games:,} hanchans of {PRESET} recorded hand by hand, seed {args.seed}"
    )

    started = time.perf_counter()
    call_command("migrate", verbosity=0, interactive=False)
    migrated = time.perf_counter()
    tables, records = generate_games(players, games, args.seed)
    generated = time.perf_counter()
    event, people = make_event(players)
    if args.build == "bulk":
        league = build_league(event, people, tables, records)
        written = time.perf_counter()
        rebuild_all_ratings()
    else:
        league = import_games(event, people, tables, records)
        written = time.perf_counter()
    built = time.perf_counter()
    del records
    if connection.vendor == "postgresql":
        # What autovacuum does on its own soon after a bulk load. Without statistics the planner picks
        # sequential scans of the whole league for the player page (over a second instead of ~0.1 s).
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")
    analysed = time.perf_counter()
    hands = league.hands
    print(f"  migrate                        {migrated - started:7.1f} s")
    print(
        f"  engine: generate the games     {generated - migrated:7.1f} s   {hands:,} hands "
        f"({hands / games:.1f} per game), {league.wins:,} wins, {league.penalties} penalties"
    )
    if args.build == "bulk":
        print(
            f"  write facts and cached rows    {written - generated:7.1f} s  (bulk; cached rows: sync's code)"
        )
        print(f"  ratings (rebuild_all_ratings)  {built - written:7.1f} s")
    else:
        print(f"  import_records, {BATCH} a batch    {written - generated:7.1f} s   (ratings included)")
    if connection.vendor == "postgresql":
        print(f"  VACUUM ANALYZE                 {analysed - built:7.1f} s")
    print(f"  league built in                {analysed - started:7.1f} s")
    assert SeatResult.objects.filter(event=event).count() == 4 * games
    assert HandSeat.objects.filter(hanchan__event=event).count() == 4 * hands
    assert Hand.objects.filter(hanchan__event=event).count() == hands
    assert RatingChange.objects.count() == 4 * games * 2 * 2

    client = Client()
    same, pages = True, []
    if not args.saves_only:
        # The pages to measure: the player with the most games, the game with the most hands.
        busiest = (
            SeatResult.objects.filter(event=event)
            .values("player_id")
            .annotate(n=Count("pk"))
            .order_by("-n", "player_id")
            .first()
        )
        player_id, player_games = busiest["player_id"], busiest["n"]
        player_hands = HandSeat.objects.filter(player_id=player_id).count()
        game_id, game_hands = (
            Hanchan.objects.filter(event=event)
            .annotate(n=Count("hands"))
            .order_by("-n", "pk")
            .values_list("pk", "n")
            .first()
        )

        def player_floor() -> int:
            return run_sql(
                (HAND_STATS_SQL, player_id),
                (RESULTS_SQL, player_id),
                *((sql, player_id) for sql in PLAYER_LIST_SQL),
            )

        pages = [
            measure_page(
                client,
                f"standings ({players} players)",
                f"/events/{event.slug}/",
                lambda: run_sql((STANDINGS_SQL, event.pk)),
                args.repeat,
            ),
            measure_page(
                client,
                f"player ({player_games} games, {player_hands:,} hands)",
                f"/players/{player_id}/",
                player_floor,
                args.repeat,
            ),
            # The page's charts are SVGs of their own (the page links them as <img>): the first of the four
            # draws them all from the same data, the others come from the cache.
            measure_page(
                client,
                "  its 4 charts (1st SVG: all drawn)",
                f"/players/{player_id}/charts/cumulative.svg",
                player_floor,
                args.repeat,
            ),
            measure_page(
                client,
                f"game ({game_hands} hands)",
                f"/games/{game_id}/",
                lambda: run_sql(*((sql, game_id) for sql in GAME_SQL)),
                args.repeat,
            ),
            measure_page(
                client,
                "  its chart (SVG)",
                f"/games/{game_id}/chart.svg",
                lambda: run_sql(*((sql, game_id) for sql in GAME_SQL)),
                args.repeat,
            ),
        ]
        print(f"\npages, best of {args.repeat} (goal: a cold page ÷ its raw SQL ≤ {GOAL:g})")
        print(
            f"  {'page':<36} {'cold':>10} {'raw SQL':>10} {'ratio':>8}  {'queries':>7} "
            f"{'in queries':>10}  {'HTML':>6}  {'warm':>9} {'queries':>7}"
        )
        for p in pages:
            print(
                f"  {p.label:<36} {p.page * 1000:7.1f} ms {p.sql * 1000:7.2f} ms {p.ratio:7.1f}×  "
                f"{p.queries:7d} {p.query_time * 1000:7.1f} ms  {p.size / 1024:4.0f} kB  "
                f"{p.warm * 1000:6.2f} ms {p.warm_queries:7d}"
            )
        client.get("/")
        empty, _ = best_of(lambda: client.get("/"), args.repeat)
        print(f"  {'(reference: the home page, no data)':<36} {empty * 1000:7.1f} ms")
        print(
            "  cold: Client.get with the page cache emptied first, middleware to rendered HTML; warm: the\n"
            "  same with the page's body in the cache; raw SQL: the hand-written floor through\n"
            "  connection.cursor(); in queries: the page's own queries as Django's debug cursor times them\n"
            "  (SQLite's fetching is not in it, and each query is rounded to the ms: --profile re-times them)"
        )

        print("\nrebuild every cached row from the hand records (sync.rebuild_event, one transaction)")
        before = fingerprint(event)
        check = rebuild_league(event)
        unchanged = fingerprint(event) == before and check.hands_written == 0 and check.results_written == 0
        print(
            f"  every row checked, none wrong   {check.seconds:7.1f} s  "
            f"{hands / check.seconds:>8,.0f} hands/s "
            f"{games / check.seconds:>6,.0f} games/s  (wrote {check.hands_written} hands, "
            f"{check.results_written} results)"
        )
        timings = []
        for _ in range(args.rebuild_repeat):
            wipe_cached_rows(event)
            timings.append(rebuild_league(event))
        timing = min(timings, key=lambda t: t.seconds)
        same = fingerprint(event) == before
        print(
            f"  every row lost, all rewritten   {timing.seconds:7.1f} s  "
            f"{hands / timing.seconds:>8,.0f} hands/s "
            f"{games / timing.seconds:>6,.0f} games/s  ({timing.hands_written:,} hands, "
            f"{timing.results_written:,} results written; goal ≥ {REBUILD_GOAL:,} hands/s)"
        )
        print(
            f"  + the worker's ratings rebuild  {timing.ratings:7.1f} s  (queued by it, run after its commit)"
        )
        sample = min(games, 500)
        per_game = refresh_games(event, sample)
        sample_hands = Hand.objects.filter(hanchan__in=league.hanchan_ids[:sample]).count()
        print(
            f"  refresh() game by game ({sample})  {per_game:7.1f} s  "
            f"{sample_hands / per_game:>8,.0f} hands/s "
            f"{sample / per_game:>6,.0f} games/s  (the services' path, one game a call)"
        )
        ratings, report = best_of(rebuild_all_ratings, args.rebuild_repeat)
        print(
            f"  rebuild_all_ratings             {ratings:7.1f} s  {hands / ratings:>8,.0f} hands/s "
            f"{games / ratings:>6,.0f} games/s  ({report.rows_written:,} rows, {report.scopes} scopes)"
        )
        same = same and unchanged and fingerprint(event) == before
        print(
            "  cached rows after the rebuilds: "
            + (
                "identical to the ones the league was built with"
                if same
                else "DIFFERENT from the built ones!"
            )
        )

    if connection.vendor == "postgresql":
        # The rebuilds above rewrote a million rows: what autovacuum does after that (as after the
        # build), so that the saves measure a league in its steady state, not autovacuum running
        # beside them or index scans that have to visit the dead row versions.
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")
    saves = measure_hand_saves(event, league.players, args.seed, SAVE_GAMES)
    walls, cpus = [w for w, _ in saves], [c for _, c in saves]
    print(
        f"\nsaving a hand (the 12th of a game; the whole POST), {len(saves)} saves: median "
        f"{statistics.median(walls) * 1000:.1f} ms (CPU {statistics.median(cpus) * 1000:.1f} ms), "
        f"p90 {sorted(walls)[int(len(walls) * 0.9)] * 1000:.1f} ms; goal ≤ {SAVE_GOAL_MS} ms median"
    )

    if not args.saves_only:
        measure_exports(client, event)

    # A correction in the season's first game (every later rating is rebuilt) and in its newest one,
    # through the correction form: the request, then the worker's rebuild (issue 25: < 1 s in the request).
    from django.contrib.auth import get_user_model

    organiser = Client()
    organiser.force_login(get_user_model().objects.get(username="bench-organiser"))
    finished = Hanchan.objects.filter(event=event, status=Hanchan.Status.FINISHED, entry_mode="hands")
    print("\ncorrecting a hand through the correction form (the request; then the worker's ratings rebuild)")
    for label, game in (
        ("the season's first game", finished.order_by("finished_at", "pk").first()),
        ("the newest game", finished.order_by("-finished_at", "-pk").first()),
    ):
        figures = measure_correction(organiser, game.pk)
        if figures is None:
            print(f"  {label:<26} no hand of the first {CORRECTION_TRIES} could be corrected legally")
            continue
        request, worker, number = figures
        print(
            f"  {label:<26} hand {number:>2}: request {request * 1000:7.0f} ms (goal < 1000 ms); "
            f"worker's rebuild {worker:6.2f} s"
        )

    if args.profile:
        for p in pages:
            profile_page(client, p.url)
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
