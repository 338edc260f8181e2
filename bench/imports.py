"""``import_games`` of N games on SQLite and on PostgreSQL in one run: seconds, games/s, peak memory.

The issue's goal (c): importing 20 000 games in one call takes on PostgreSQL at most twice what it takes on
SQLite, in bounded memory, with progress. This script writes N random legal hanchans of ema2016 (the
engine's generator, seeded, as ``bench/standings.py``) as game records into files of at most
``--per-file`` games (the command reads a file of records up to 64 MB), then, for each database in its own
process (so that each one's peak memory is its own), builds an empty league of ``--players`` registered
players and times one ``manage.py import_games --event … FILE…`` call — the command as an organiser runs
it, with its progress lines on stderr — and prints the seconds, games/s, the process's peak resident memory
(``getrusage``) above what it held before the call, and the ratio PostgreSQL ÷ SQLite.

    .venv/bin/python bench/imports.py --games 2000
    .venv/bin/python bench/imports.py --games 20000 \
        --database-url postgres://postgres@127.0.0.1:5432/tenbou_imports
    options: --players 500 --seed 2016 --per-file 5000 --sqlite-only --replace

The PostgreSQL database is created for the run and dropped at the end (``postgres`` and template databases
are refused, as in ``bench/standings.py``); the SQLite one is a temporary file. Figures are printed, never
asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))


def _bulk():  # type: ignore[no-untyped-def]
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_standings", REPO / "bench" / "standings.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_standings"] = module
    spec.loader.exec_module(module)
    return module


def write_records(games: int, players: int, seed: int, per_file: int, where: Path) -> list[Path]:
    """The games as record files (docs/game-record.md), the players named as the league's."""
    bulk = _bulk()
    tables, records = bulk.generate_games(players, games, seed)
    start = datetime(2020, 1, 1, 19, tzinfo=UTC)
    files = []
    for first in range(0, games, per_file):
        batch = []
        for i in range(first, min(first + per_file, games)):
            data = records[i].to_dict()
            data["players"] = [f"Player {p:04d}" for p in tables[i]]
            data["finished_at"] = (start + timedelta(minutes=20 * i)).isoformat()
            batch.append(data)
        path = where / f"games-{first:06d}.json"
        path.write_text(json.dumps(batch))
        files.append(path)
    return files


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: kB


def child(args: argparse.Namespace) -> int:
    """One database: build the empty league, time one import_games call, print a JSON line of figures."""
    bulk = _bulk()
    db = bulk.create_database(args.database_url, args.replace)
    try:
        bulk.configure_django(db)
        from django.core.management import call_command
        from django.db import connection

        call_command("migrate", verbosity=0, interactive=False)
        event, _ = bulk.make_event(args.players)
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE")
        import gc
        import io

        gc.collect()
        before = peak_rss_mb()
        out = io.StringIO()
        started = time.perf_counter()
        call_command("import_games", *args.files, "--event", event.slug, "--progress", stdout=out)
        seconds = time.perf_counter() - started
        imported = json.loads(out.getvalue())["imported"]
        from league.models import Hanchan
        from scoring.models import SeatResult

        figures = {
            "vendor": connection.vendor,
            "seconds": seconds,
            "imported": imported,
            "hanchans": Hanchan.objects.filter(event=event).count(),
            "seat_results": SeatResult.objects.filter(event=event).count(),
            "rss_before_mb": before,
            "peak_rss_mb": peak_rss_mb(),
        }
        print("FIGURES " + json.dumps(figures), flush=True)
    finally:
        bulk.drop_database(db)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        epilog=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--seed", type=int, default=2016)
    parser.add_argument("--per-file", type=int, default=5000, help="games per record file (default 5000)")
    parser.add_argument("--database-url", default=None, help="a PostgreSQL database to create and drop")
    parser.add_argument("--replace", action="store_true", help="drop the --database-url database first")
    parser.add_argument("--sqlite-only", action="store_true")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--files", nargs="*", default=[], help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        return child(args)

    tmp = Path(tempfile.mkdtemp(prefix="tenbou-imports-"))
    started = time.perf_counter()
    files = write_records(args.games, args.players, args.seed, args.per_file, tmp)
    size = sum(f.stat().st_size for f in files) / 1e6
    print(
        f"{args.games:,} games in {len(files)} record files ({size:.0f} MB), written in "
        f"{time.perf_counter() - started:.0f} s; load average {os.getloadavg()[0]:.1f}",
        flush=True,
    )
    runs = [None] if args.sqlite_only or not args.database_url else [None, args.database_url]
    results = []
    for url in runs:
        command = [
            sys.executable,
            __file__,
            "--child",
            "--players",
            str(args.players),
            "--files",
            *map(str, files),
        ]
        if url:
            command += ["--database-url", url] + (["--replace"] if args.replace else [])
        done = subprocess.run(command, cwd=REPO, stdout=subprocess.PIPE, text=True)
        line = next((x for x in done.stdout.splitlines() if x.startswith("FIGURES ")), None)
        if done.returncode or line is None:
            print(done.stdout, file=sys.stderr)
            raise SystemExit(f"the {'PostgreSQL' if url else 'SQLite'} run failed")
        results.append(json.loads(line.removeprefix("FIGURES ")))
    for path in files:
        path.unlink()
    tmp.rmdir()

    print(
        f"\nimport_games of {args.games:,} games, {args.players} players; "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    print(f"  {'database':<12} {'seconds':>8} {'games/s':>8} {'peak RSS':>9} {'above start':>11}")
    for r in results:
        print(
            f"  {r['vendor']:<12} {r['seconds']:8.1f} {r['imported'] / r['seconds']:8.0f} "
            f"{r['peak_rss_mb']:6.0f} MB {r['peak_rss_mb'] - r['rss_before_mb']:8.0f} MB"
            f"   ({r['hanchans']:,} games, {r['seat_results']:,} seat results)"
        )
    if len(results) == 2:
        ratio = results[1]["seconds"] / results[0]["seconds"]
        print(f"  PostgreSQL ÷ SQLite: {ratio:.2f}× (goal ≤ 2×)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
