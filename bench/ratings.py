"""Rating rebuild cost on a large league: what a correction, a void or a newly finished game costs.

A correction rebuilds every rating row from the changed game onward, in its event and in the lifetime
scope (scoring/ratings.py says why). This script builds a league of N finished games (default 2000) among
P players in a throwaway test database (SQLite in memory, or ``test_<name>`` on PostgreSQL with
``DATABASE_URL``), then times (best of 3, ``time.perf_counter``):

1. a full rebuild of every scope (``rebuild_all_ratings``, the ``rebuild_ratings`` command);
2. a rebuild after the *first* game changed (the worst case: both scopes from the start);
3. after a game in the middle changed;
4. after the last game changed or was newly finished (the common case);
5. the pure rating arithmetic for all games (Tenhou R and OpenSkill, no database);
6. reading the seat results the rebuild needs, as raw SQL (the floor for any rebuild);

and prints each with its ratio to (6). Games are written in bulk (hanchans, seats and seat results with
random places and the odd split tie): ratings read only seat results, so hands are not needed here.

    python bench/ratings.py [--games N] [--players P] [--seed S]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402
from django.utils import timezone  # noqa: E402

from league.models import Club, Event, Hanchan, Player, Registration, Seat  # noqa: E402
from scoring.engine import make_ruleset  # noqa: E402
from scoring.models import RatingChange, SeatResult  # noqa: E402
from scoring.ratings import Rating, rate_game, rebuild_all_ratings, rebuild_ratings_for  # noqa: E402

ROUNDS = 3


def best_of(work: Callable[[], Any], rounds: int = ROUNDS) -> tuple[float, Any]:
    """The fastest of ``rounds`` runs in seconds, and what the last run returned."""
    best, result = float("inf"), None
    for _ in range(rounds):
        start = time.perf_counter()
        result = work()
        best = min(best, time.perf_counter() - start)
    return best, result


def build(games: int, players: int, seed: int) -> tuple[list[int], list[list[int]]]:
    """The league: ``games`` finished final-score games; returns the game ids and their places."""
    rng = random.Random(seed)
    club = Club.objects.create(name="Bench club", slug="bench")
    event = Event.objects.create(
        club=club, name="Bench league", slug="bench-league", ruleset=make_ruleset("ema2016").to_dict()
    )
    people = Player.objects.bulk_create(
        [Player(display_name=f"Player {n:03d}", club=club) for n in range(players)]
    )
    Registration.objects.bulk_create([Registration(event=event, player=p) for p in people])
    start = timezone.now() - timedelta(days=games)
    hanchans = Hanchan.objects.bulk_create(
        [
            Hanchan(
                event=event,
                status=Hanchan.Status.FINISHED,
                entry_mode=Hanchan.EntryMode.FINAL_SCORES,
                created_at=start + timedelta(hours=n),
                finished_at=start + timedelta(hours=n),
            )
            for n in range(games)
        ]
    )
    seats, results, all_places = [], [], []
    for game in hanchans:
        table = rng.sample(people, 4)
        places = rng.sample([1, 2, 3, 4], 4)
        if rng.random() < 0.03:  # a split tie for 2nd
            places = [2 if p == 3 else p for p in places]
        all_places.append(places)
        for seat, (player, place) in enumerate(zip(table, places, strict=True)):
            score = {1: 45000, 2: 32000, 3: 25000, 4: 18000}[place]
            seats.append(Seat(hanchan=game, seat=seat, player=player, final_score=score))
            results.append(
                SeatResult(
                    hanchan=game,
                    event=event,
                    seat=seat,
                    player=player,
                    score=score,
                    place=place,
                    uma=0,
                    oka=0,
                    penalties=0,
                    result=0,
                    finished_at=game.finished_at,
                )
            )
    Seat.objects.bulk_create(seats, batch_size=4000)
    SeatResult.objects.bulk_create(results, batch_size=4000)
    return [h.pk for h in hanchans], all_places


def arithmetic(all_places: list[list[int]]) -> None:
    """Both systems for every game, in memory: the part of a rebuild that is not the database."""
    state = [Rating() for _ in range(4)]
    for places in all_places:
        state = rate_game(state, places)


def read_seat_results() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT hanchan_id, player_id, place, finished_at FROM scoring_seatresult "
            "ORDER BY finished_at, hanchan_id, seat"
        )
        return len(cursor.fetchall())


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    setup_test_environment()
    name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        started = time.perf_counter()
        ids, all_places = build(args.games, args.players, args.seed)
        print(
            f"{connection.vendor} ({name}): {args.games} games among {args.players} players, built in "
            f"{time.perf_counter() - started:.1f} s"
        )
        floor, rows = best_of(read_seat_results)
        full, report = best_of(rebuild_all_ratings)
        print(f"  read {rows} seat results (raw SQL)        {floor * 1000:8.1f} ms   1.0×")
        print(
            f"  full rebuild, every scope                {full * 1000:8.1f} ms {full / floor:6.1f}×  "
            f"({report.rows_written} rows, {report.scopes} scopes)"
        )
        for label, game in (
            ("first game changed (worst case)", ids[0]),
            ("middle game changed", ids[len(ids) // 2]),
            ("last game changed / newly finished", ids[-1]),
        ):
            spent, report = best_of(lambda game=game: rebuild_ratings_for([game]))
            print(
                f"  {label:<40} {spent * 1000:8.1f} ms {spent / floor:6.1f}×  "
                f"({report.games} games rated again, {report.rows_written} rows rewritten)"
            )
        pure, _ = best_of(lambda: arithmetic(all_places))
        print(f"  rating arithmetic only (no database)     {pure * 1000:8.1f} ms {pure / floor:6.1f}×")
        assert RatingChange.objects.count() == args.games * 4 * 2 * 2
    finally:
        connection.creation.destroy_test_db(name, verbosity=0)


if __name__ == "__main__":
    main()
