"""Backups restore: docs/deployment.md's recipes, run for real on the demo season.

A backup is only as good as its restore. Each test takes the seeded database, backs it up as the
deployment guide says, restores it into a fresh database with the ``manage.py`` a server would run, and
checks that every event's standings and games read back identically:

- ``dumpdata``/``loaddata``: the portable backup (any engine to any engine);
- the engine's own backup: ``pg_dump``/``pg_restore`` on PostgreSQL, SQLite's online backup on SQLite.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from django.core.management import call_command
from django.db import connection

from league.models import Event
from tests.scoring.commands import run

ROOT = Path(__file__).resolve().parent.parent
ON_POSTGRESQL = connection.vendor == "postgresql"


def manage(database_url: str, *args: str) -> str:
    """``manage.py ARGS`` on another database, as an administrator restoring a backup runs it."""
    env = {**os.environ, "DATABASE_URL": database_url}
    result = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, f"manage.py {' '.join(args)}: {result.stderr[-2000:]}"
    return result.stdout


def postgres_url(name: str) -> str:
    settings = connection.settings_dict
    user = quote(settings.get("USER") or "", safe="")
    password = quote(settings.get("PASSWORD") or "", safe="")
    credentials = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    host, port = settings.get("HOST") or "127.0.0.1", settings.get("PORT") or 5432
    return f"postgres://{credentials}{host}:{port}/{name}"


def postgres_admin(sql: str) -> None:
    """Run ``sql`` outside any transaction (CREATE/DROP DATABASE) on the server's ``postgres`` database."""
    import psycopg

    with psycopg.connect(postgres_url("postgres"), autocommit=True) as admin:
        admin.execute(sql)


@pytest.fixture
def fresh_database(tmp_path) -> Iterator[str]:
    """The URL of a new, empty database on the engine the tests run on; dropped afterwards."""
    if not ON_POSTGRESQL:
        yield f"sqlite:///{tmp_path / 'restored.sqlite3'}"
        return
    name = f"{connection.settings_dict['NAME']}_restore_{os.getpid()}"
    postgres_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    postgres_admin(f'CREATE DATABASE "{name}"')
    try:
        yield postgres_url(name)
    finally:
        postgres_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def season(transactional_db) -> dict[str, tuple[str, str]]:
    """The demo season, committed (a backup tool reads committed data): {event slug: (standings, games)}."""
    code, _, err = run("seed_demo")
    assert code == 0, err
    read: dict[str, tuple[str, str]] = {}
    for slug in Event.objects.order_by("slug").values_list("slug", flat=True):
        code, standings, err = run("standings", "--event", slug)
        assert code == 0, err
        code, games, err = run("export_games", "--event", slug)
        assert code == 0, err
        read[slug] = (standings, games)
    assert len(read) >= 2 and all(standings.strip() not in {"", "[]"} for standings, _ in read.values())
    return read


def assert_same_season(database_url: str, season: dict[str, tuple[str, str]]) -> None:
    for slug, (standings, games) in season.items():
        assert manage(database_url, "standings", "--event", slug) == standings, slug
        assert manage(database_url, "export_games", "--event", slug) == games, slug


def test_dumpdata_backup_restores_into_a_fresh_database_with_identical_standings(
    season, fresh_database, tmp_path
):
    backup = tmp_path / "tenbou.xml"
    # The deployment guide's portable backup command. XML, not JSON: Django's JSON encoder cuts times to
    # the millisecond, so games' ``finished_at`` (and their order when two finish in the same
    # millisecond) would not come back exactly.
    call_command(
        "dumpdata",
        "--format=xml",
        "--natural-foreign",
        "--natural-primary",
        "--exclude=contenttypes",
        "--exclude=auth.permission",
        "--exclude=sessions",
        f"--output={backup}",
        verbosity=0,
    )
    manage(fresh_database, "migrate", "--noinput")
    manage(fresh_database, "loaddata", str(backup))
    assert_same_season(fresh_database, season)


def native_backup_and_restore(backup: Path, fresh_database: str) -> None:
    """The engine's own backup of the test database, restored into ``fresh_database``."""
    if ON_POSTGRESQL:
        source = postgres_url(connection.settings_dict["NAME"])
        subprocess.run(
            ["pg_dump", "--format=custom", "--no-owner", f"--file={backup}", f"--dbname={source}"],
            check=True,
            timeout=300,
        )
        subprocess.run(
            ["pg_restore", "--no-owner", "--exit-on-error", f"--dbname={fresh_database}", str(backup)],
            check=True,
            timeout=300,
        )
    else:
        # What ``sqlite3 db.sqlite3 ".backup FILE"`` does: a consistent copy of a live database.
        with sqlite3.connect(connection.settings_dict["NAME"]) as live, sqlite3.connect(backup) as copy:
            live.backup(copy)
        Path(fresh_database.removeprefix("sqlite:///")).write_bytes(backup.read_bytes())


def test_native_backup_restores_into_a_fresh_database_with_identical_standings(
    season, fresh_database, tmp_path
):
    native_backup_and_restore(tmp_path / "tenbou.backup", fresh_database)
    assert_same_season(fresh_database, season)
