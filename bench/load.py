"""The public pages under load: gunicorn with production settings, driven by wrk, each page ÷ the events list.

When a round ends, every player in the room reloads the standings at once. This script builds a league in
a throwaway database, serves it with gunicorn exactly as docs/deployment.md does (``config/gunicorn.conf.py``,
``DEBUG`` off, a ``SECRET_KEY``, ``ALLOWED_HOSTS``, collected static files) on a free loopback port, and
drives each page with wrk (``-c 50`` connections by default), one page after another, in one run:

- the events list ``/events/`` — the reference: a small page with one query;
- the standings page ``/events/<slug>/`` of the league;
- a player page ``/players/<pk>/`` (the player with the most games);
- a game page ``/games/<pk>/`` (the game with the most hands);
- the tournament page ``/events/demo-open/`` (demo data only: the bulk league has no tournament).

For each it prints requests/s, the p50 and p99 latency, the errors (non-2xx/3xx answers, and wrk's socket
errors: connect, read, write, timeout) and the ratio of its requests/s to the events list's (the goal is
0.5 or more, with no error). Two references come last: a 404 (``/no-such-page/``, through the same
middleware) and a static file (whitenoise); each page's ratio to them is printed too (issue 25: a cached
public page ≥ 0.8 × the 404).

``--writer`` adds what a tournament day adds: a writer thread that enters hands through the services
(a hand every ``--write-every`` seconds into open games, finishing them, and every tenth write a
correction of an early game, which makes the worker rebuild every later rating) and a background worker
(``manage.py worker``, the database backend) beside gunicorn, for the whole run.

It does so with the local-memory cache and with Redis (``--cache``), and on
SQLite or — with ``--database-url`` — a dedicated PostgreSQL database created for the run and dropped at
the end.

    python bench/load.py                                     # demo data (seed_demo), SQLite, both caches
    python bench/load.py --players 500 --games 20000         # the bulk league of bench/standings.py
    python bench/load.py --database-url postgres://postgres@127.0.0.1:5432/tenbou_load
    options: --cache local|redis|both  --redis-url redis://127.0.0.1:6379/15  --duration 10
             --connections 50 --threads 2  --workers N --gunicorn-threads N  --keep --replace
             --writer [--write-every 0.5]

The Redis database named by ``--redis-url`` (default number 15) is emptied before each run with it: name
one that holds nothing else. wrk comes from Debian (``apt-get install wrk``); the script installs it when
it is missing and it runs as root. Figures are printed, never asserted; wrk and gunicorn share the
machine's cores, as they would share a small server with its proxy.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import platform
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import textwrap
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

GOAL = 0.5  # a page's requests/s ÷ the events list's
DEFAULT_REDIS = "redis://127.0.0.1:6379/15"


def _bulk() -> Any:
    """bench/standings.py, whose throwaway database and bulk league builder this script reuses."""
    spec = importlib.util.spec_from_file_location("bench_standings", REPO / "bench" / "standings.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_standings"] = module
    spec.loader.exec_module(module)
    return module


# -- the load tool ------------------------------------------------------------------------------------


def ensure_wrk() -> str:
    """The path of wrk, installed from Debian's packages when missing (as root)."""
    found = shutil.which("wrk")
    if found:
        return found
    if os.geteuid() == 0 and shutil.which("apt-get"):
        print("installing wrk (Debian package) ...", flush=True)
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "update", "-qq"], check=True, env=env, stdout=subprocess.DEVNULL)
        subprocess.run(
            ["apt-get", "install", "-y", "-qq", "wrk"], check=True, env=env, stdout=subprocess.DEVNULL
        )
        found = shutil.which("wrk")
    if not found:
        raise SystemExit("wrk is needed: apt-get install wrk")
    return found


@dataclass
class Load:
    label: str
    path: str
    requests: int
    per_second: float
    p50_ms: float
    p99_ms: float
    non_2xx: int
    socket_errors: int
    timeouts: int

    @property
    def errors(self) -> int:
        return self.non_2xx + self.socket_errors


_UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60_000.0}


def _ms(text: str) -> float:
    value, unit = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text).groups()  # type: ignore[union-attr]
    return float(value) * _UNITS[unit]


def parse_wrk(label: str, path: str, output: str) -> Load:
    """The figures of one ``wrk --latency`` run."""
    requests = int(re.search(r"(\d+) requests in", output).group(1))  # type: ignore[union-attr]
    per_second = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))  # type: ignore[union-attr]
    p50 = re.search(r"^\s*50%\s+(\S+)", output, re.M)
    p99 = re.search(r"^\s*99%\s+(\S+)", output, re.M)
    non_2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", output)
    sockets = re.search(r"connect (\d+), read (\d+), write (\d+), timeout (\d+)", output)
    counts = [int(n) for n in sockets.groups()] if sockets else [0, 0, 0, 0]
    return Load(
        label,
        path,
        requests,
        per_second,
        _ms(p50.group(1)) if p50 else float("nan"),
        _ms(p99.group(1)) if p99 else float("nan"),
        int(non_2xx.group(1)) if non_2xx else 0,
        sum(counts),
        counts[3],
    )


def drive(
    wrk: str, base: str, label: str, path: str, args: argparse.Namespace, *, expect_404: bool = False
) -> Load:
    command = [
        wrk,
        f"-t{args.threads}",
        f"-c{args.connections}",
        f"-d{args.duration}s",
        f"--timeout={args.timeout}s",
        "--latency",
        base + path,
    ]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    load = parse_wrk(label, path, done.stdout)
    if not load.requests:
        print(f"wrk got no answer from {path}:\n{done.stdout}{done.stderr}", file=sys.stderr)
    if expect_404:  # its 404s are the answer asked for, not errors
        load.non_2xx = 0
    return load


# -- the server ---------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


SETTINGS_MODULE = "tenbou_load_settings"


def write_settings(where: Path, static_root: Path) -> None:
    """A settings module over config.settings whose only change is where the collected static files go
    (STATIC_ROOT is fixed beside the code; the run must not write into the work tree)."""
    (where / f"{SETTINGS_MODULE}.py").write_text(
        textwrap.dedent(
            f"""\
            from config.settings import *  # noqa: F401,F403 -- the production settings, unchanged

            STATIC_ROOT = {str(static_root)!r}
            """
        )
    )


def server_env(base: dict[str, str], *, tmp: Path, database_url: str, cache_url: str) -> dict[str, str]:
    env = {k: v for k, v in base.items() if k not in {"DJANGO_SETTINGS_MODULE"}}
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": SETTINGS_MODULE,
            "PYTHONPATH": os.pathsep.join([str(tmp), str(REPO)]),
            "DEBUG": "false",
            "SECRET_KEY": base["SECRET_KEY"],
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "SECURE_SSL_REDIRECT": "false",  # wrk speaks plain HTTP to the loopback, as the TLS proxy does
            "DATABASE_URL": database_url,
            "CACHE_URL": cache_url,
            "LOG_LEVEL": "ERROR",
            "GUNICORN_ACCESSLOG": "",  # one log line per request would be part of every figure
            # gunicorn 23+ opens a control socket under $HOME or $XDG_RUNTIME_DIR: keep it in the run's dir
            "HOME": str(tmp),
            "XDG_RUNTIME_DIR": str(tmp),
        }
    )
    return env


class Server:
    """gunicorn with config/gunicorn.conf.py on a free loopback port, stopped (by its own pid) on exit."""

    def __init__(self, env: dict[str, str], args: argparse.Namespace) -> None:
        self.port = free_port()
        env = {**env, "GUNICORN_BIND": f"127.0.0.1:{self.port}"}
        if args.workers:
            env["GUNICORN_WORKERS"] = str(args.workers)
        if args.gunicorn_threads:
            env["GUNICORN_THREADS"] = str(args.gunicorn_threads)
        self.log = open(Path(env["HOME"]) / f"gunicorn-{self.port}.log", "w")  # noqa: SIM115
        gunicorn = Path(sys.executable).with_name("gunicorn")
        self.process = subprocess.Popen(
            [str(gunicorn), "-c", "config/gunicorn.conf.py", "config.wsgi"],
            cwd=REPO,
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        self.base = f"http://127.0.0.1:{self.port}"

    def wait(self, path: str, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"gunicorn stopped: see {self.log.name}")
            try:
                with urllib.request.urlopen(self.base + path, timeout=10) as answer:
                    if answer.status == 200:
                        return
            except (OSError, urllib.error.HTTPError):
                time.sleep(0.3)
        raise SystemExit(f"gunicorn did not answer {path} within {timeout:.0f} s")

    def get(self, path: str) -> int:
        try:
            with urllib.request.urlopen(self.base + path, timeout=60) as answer:
                answer.read()
                return answer.status
        except urllib.error.HTTPError as error:
            return error.code

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=30)
        self.log.close()


def gunicorn_figures(env: dict[str, str], args: argparse.Namespace) -> str:
    """The workers and threads config/gunicorn.conf.py gives in this environment (what is measured)."""
    overrides = {"GUNICORN_WORKERS": args.workers, "GUNICORN_THREADS": args.gunicorn_threads}
    env = {**env, **{k: str(v) for k, v in overrides.items() if v}}
    code = (
        "ns = {}; exec(open('config/gunicorn.conf.py').read(), ns); "
        "print(f\"{ns['workers']} workers x {ns.get('threads', 1)} threads \""
        "f\"({'gthread' if ns.get('threads', 1) > 1 else 'sync'})\")"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True)
    return done.stdout.strip() or done.stderr.strip()


def flush_redis(url: str) -> None:
    import redis

    redis.Redis.from_url(url).flushdb()


# -- the data -----------------------------------------------------------------------------------------


def build(args: argparse.Namespace, bulk: Any) -> list[tuple[str, str]]:
    """Migrate, build the league, and return the pages to drive as (label, path), events list first."""
    from django.core.management import call_command
    from django.db import connection
    from django.db.models import Count

    from league.models import Event, Hanchan
    from scoring.models import SeatResult

    started = time.perf_counter()
    call_command("migrate", verbosity=0, interactive=False)
    if args.players or args.games:
        players, games = args.players or 500, args.games or 20_000
        tables, records = bulk.generate_games(players, games, args.seed)
        event, people = bulk.make_event(players)
        bulk.build_league(event, people, tables, records)
        from scoring.ratings import rebuild_all_ratings

        rebuild_all_ratings()
        what = f"bulk league: {players} players, {games:,} hanchans"
    else:
        call_command("seed_demo", verbosity=0)
        event = Event.objects.get(slug="demo-league")
        what = "demo data (seed_demo)"
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")
    print(f"{what}, built in {time.perf_counter() - started:.1f} s")
    busiest = (
        SeatResult.objects.filter(event=event)
        .values("player_id")
        .annotate(n=Count("pk"))
        .order_by("-n", "player_id")
        .first()
    )
    game = (
        Hanchan.objects.filter(event=event)
        .annotate(n=Count("hands"))
        .order_by("-n", "pk")
        .values_list("pk", "n")
    ).first()
    pages = [
        ("events list", "/events/"),
        (f"standings ({event.registrations.count()} players)", f"/events/{event.slug}/"),
        (f"player ({busiest['n']} games)", f"/players/{busiest['player_id']}/"),
        (f"game ({game[1]} hands)", f"/games/{game[0]}/"),
    ]
    tournament = Event.objects.filter(slug="demo-open").first()
    if tournament is not None:
        pages.append((f"tournament ({tournament.registrations.count()} players)", "/events/demo-open/"))
    return pages


# -- the run ------------------------------------------------------------------------------------------


NOT_FOUND = "/no-such-page/"
CACHED_GOAL = 0.8  # a cached public page's requests/s ÷ a 404's


def static_path(static_root: Path) -> str:
    """The hashed URL of the stylesheet, as the pages link it (whitenoise's manifest)."""
    import json

    manifest = json.loads((static_root / "staticfiles.json").read_text())
    return "/static/" + manifest["paths"]["css/tenbou.css"]


class Writer:
    """A writer thread entering hands through the services while the pages are driven, and a background
    worker process beside gunicorn: what a tournament day adds to the readers' load."""

    def __init__(self, env: dict[str, str], every: float) -> None:
        import threading

        self.every = every
        self.stopping = threading.Event()
        self.writes = 0
        self.corrections = 0
        self.failures = 0
        self.why: dict[str, int] = {}  # each failed write's exception, counted: what, not only how many
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.log = open(Path(env["HOME"]) / "worker.log", "w")  # noqa: SIM115
        self.worker = subprocess.Popen(
            [sys.executable, "manage.py", "worker", "--interval", "0.5"],
            cwd=REPO,
            env={**env, "TASKS_BACKEND": "database"},
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        self.thread.start()

    def _run(self) -> None:
        import random

        from django.contrib.auth import get_user_model
        from django.db import connection

        from league.models import Event, Hanchan, Player
        from scoring import services
        from scoring.engine import Hand, Win

        rng = random.Random(25)
        user, _ = get_user_model().objects.get_or_create(username="bench-writer")
        event = Event.objects.filter(kind=Event.Kind.LEAGUE).order_by("pk").first()
        players = list(event.registrations.values_list("player_id", flat=True))
        early = list(
            Hanchan.objects.filter(event=event, status="finished")
            .order_by("finished_at")
            .values_list("pk", flat=True)[:50]
        )
        game = None
        while not self.stopping.wait(self.every):
            try:
                if self.writes % 10 == 9:
                    self._correct(Hanchan.objects.select_related("event").get(pk=rng.choice(early)), user)
                    self.corrections += 1
                else:
                    if game is None or game.status != Hanchan.Status.IN_PROGRESS:
                        four = Player.objects.filter(pk__in=rng.sample(players, 4))
                        game = services.start_game(event=event, players=list(four), user=user)
                    hand = Hand.tsumo(Win(rng.randrange(4), 2, 30))
                    services.record_hand(hanchan=game, hand=hand, user=user)
                    game = Hanchan.objects.select_related("event").get(pk=game.pk)
                self.writes += 1
            except Exception as exc:  # noqa: BLE001 -- counted: a write that failed (a correction made illegal)
                self.failures += 1
                reason = f"{type(exc).__name__}: {str(exc)[:70]}"
                self.why[reason] = self.why.get(reason, 0) + 1
        connection.close()

    @staticmethod
    def _correct(game: Any, user: Any) -> None:
        """Hand 1 of ``game`` with one han more (or less): what the correction form would save."""
        from dataclasses import replace

        from scoring import services
        from scoring.records import engine_hand

        row = game.hands.prefetch_related("wins").get(number=1)
        hand = engine_hand(row, row.wins.all())
        if not hand.wins or hand.wins[0].yakuman:
            raise ValueError("not a simple win")
        win = hand.wins[0]
        han = win.han + 1 if win.han < 4 else win.han - 1
        corrected = replace(hand, wins=(replace(win, han=han), *hand.wins[1:]))
        services.correct_hand(hanchan=game, number=1, hand=corrected, user=user, reason="bench")

    def stop(self) -> str:
        self.stopping.set()
        self.thread.join(timeout=60)
        self.worker.terminate()
        try:
            self.worker.wait(timeout=120)
        except subprocess.TimeoutExpired:
            self.worker.kill()
        self.log.close()
        from django.db import connection

        from background.models import Pending

        waiting = Pending.objects.count()
        connection.close()
        return (
            f"writer: {self.writes} writes ({self.corrections} corrections of early games), "
            f"{self.failures} failed; work still waiting for the worker at the end: {waiting}"
            + "".join(f"\n    failed {count} ×  {reason}" for reason, count in sorted(self.why.items()))
        )


def run_backend(
    wrk: str,
    label: str,
    env: dict[str, str],
    pages: list[tuple[str, str]],
    args: argparse.Namespace,
    static: str,
) -> list[Load]:
    server = Server(env, args)
    writer = None
    try:
        server.wait(pages[0][1])
        for _, path in pages:  # warm: templates compiled, caches filled
            for _ in range(3):
                status = server.get(path)
                if status != 200:
                    raise SystemExit(f"{path} answered {status}: see {server.log.name}")
        if args.writer:
            writer = Writer(env, args.write_every)
        results = [drive(wrk, server.base, name, path, args) for name, path in pages]
        results.append(drive(wrk, server.base, "(a 404)", NOT_FOUND, args, expect_404=True))
        results.append(drive(wrk, server.base, "(a static file)", static, args))
    finally:
        written = writer.stop() if writer is not None else ""
        server.stop()
    reference, not_found, static_rate = results[0].per_second, results[-2].per_second, results[-1].per_second
    print(f"\n{label}: wrk -t{args.threads} -c{args.connections} -d{args.duration}s, one page after another")
    if written:
        print(f"  {written}")
    print(
        f"  {'page':<28} {'req/s':>8} {'p50':>9} {'p99':>9} {'errors':>7} {'timeouts':>8} "
        f"{'÷ events list':>13} {'÷ 404':>7} {'÷ static':>8}"
    )
    for r in results:
        ratio = r.per_second / reference if reference else float("nan")
        mark = (
            ""
            if r is results[0] or r.label.startswith("(")
            else ("  ok" if ratio >= GOAL and not r.errors else "  MISSED")
        )
        print(
            f"  {r.label:<28} {r.per_second:8.0f} {r.p50_ms:6.1f} ms {r.p99_ms:6.1f} ms {r.errors:7d} "
            f"{r.timeouts:8d} {ratio:12.2f}× {r.per_second / not_found:6.2f}× "
            f"{r.per_second / static_rate:7.2f}×{mark}"
        )
    print(
        f"  (goals: every page ≥ {GOAL} × the events list, no error; a cached page ≥ {CACHED_GOAL} × the 404)"
    )
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        epilog=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--players", type=int, default=None, help="bulk league: players (default demo data)")
    parser.add_argument("--games", type=int, default=None, help="bulk league: hanchans (default demo data)")
    parser.add_argument("--seed", type=int, default=2016, help="bulk league: generator seed")
    parser.add_argument("--database-url", default=None, help="a PostgreSQL database to create and drop")
    parser.add_argument("--replace", action="store_true", help="drop the --database-url database first")
    parser.add_argument("--keep", action="store_true", help="keep the database (and say where it is)")
    parser.add_argument("--cache", choices=["local", "redis", "both"], default="both")
    parser.add_argument("--redis-url", default=DEFAULT_REDIS, help=f"emptied first (default {DEFAULT_REDIS})")
    parser.add_argument("--duration", type=int, default=10, help="seconds of load per page (default 10)")
    parser.add_argument("--connections", type=int, default=50, help="wrk connections (default 50)")
    parser.add_argument("--threads", type=int, default=2, help="wrk threads (default 2)")
    parser.add_argument("--timeout", type=int, default=5, help="wrk: a request slower than this is an error")
    parser.add_argument("--workers", type=int, default=None, help="gunicorn workers (default: its config)")
    parser.add_argument("--gunicorn-threads", type=int, default=None, help="gunicorn threads per worker")
    parser.add_argument("--writer", action="store_true", help="a writer and a background worker meanwhile")
    parser.add_argument("--write-every", type=float, default=0.5, help="seconds between the writer's writes")
    args = parser.parse_args(argv)
    if (args.players is not None and args.players < 4) or (args.games is not None and args.games < 1):
        parser.error("need at least 4 players and 1 game")

    wrk = ensure_wrk()
    bulk = _bulk()
    db = bulk.create_database(args.database_url, args.replace)
    tmp = Path(tempfile.mkdtemp(prefix="tenbou-load-"))
    try:
        bulk.configure_django(db)
        import django

        pages = build(args, bulk)
        static_root = tmp / "static"
        write_settings(tmp, static_root)
        base_env = server_env(dict(os.environ), tmp=tmp, database_url=db.url, cache_url="locmem://")
        subprocess.run(
            [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
            cwd=REPO,
            env=base_env,
            check=True,
        )
        from django.db import connections

        connections.close_all()  # the server's workers are the only users of the database from here
        print(
            f"{time.strftime('%Y-%m-%d %H:%M')}  {os.cpu_count()} cores  Python {platform.python_version()}  "
            f"Django {django.get_version()}  {db.vendor}  gunicorn: {gunicorn_figures(base_env, args)}"
        )
        backends = ["local", "redis"] if args.cache == "both" else [args.cache]
        for backend in backends:
            cache_url = "locmem://" if backend == "local" else args.redis_url
            if backend == "redis":
                flush_redis(args.redis_url)
            env = {**base_env, "CACHE_URL": cache_url}
            run_backend(
                wrk, f"{db.vendor}, {backend} cache ({cache_url})", env, pages, args, static_path(static_root)
            )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        if args.keep:
            print(f"\nkept the database: {db.url}")
        else:
            bulk.drop_database(db)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
