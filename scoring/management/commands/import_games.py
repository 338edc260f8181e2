"""``manage.py import_games --event SLUG FILE…``: store game records as finished hanchans of an event."""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth import get_user_model

from league.models import Event
from scoring.engine import RecordError
from scoring.engine.record import parse_json
from scoring.imports import ImportFailed, import_records
from scoring.management.contract import CommandFailed, ContractCommand, printable, read_source, text_option


class Command(ContractCommand):
    help = (
        "Import game records (game-record.md) as finished games of an event, all or nothing. Players are "
        "matched by display name (or an 8-digit EMA number) among the event's registered players, then "
        "the club's players. A file holds one record or a JSON list of records (export_games' output); "
        '\'-\' reads standard input. Prints {"imported": N, "hanchans": [ids]}.'
    )

    def add_arguments(self, parser):  # type: ignore[no-untyped-def]
        parser.add_argument("files", nargs="+", metavar="FILE", help="game record(s) as JSON, or - for stdin")
        parser.add_argument("--event", required=True, metavar="SLUG", help="the event to import into")
        parser.add_argument(
            "--create-players",
            action="store_true",
            help="create unknown players in the event's club and register them (otherwise an error)",
        )
        parser.add_argument("--user", metavar="USERNAME", help="who the history entries name")

    def handle(  # type: ignore[no-untyped-def]
        self,
        *args: Any,
        files: list[str],
        event: str,
        create_players: bool = False,
        user: str | None = None,
        **options: Any,
    ):
        target = Event.objects.select_related("club").filter(slug=text_option(event, "--event")).first()
        if target is None:
            raise CommandFailed(f"event {event!r} does not exist")
        who = None
        if user:
            who = get_user_model().objects.filter(username=text_option(user, "--user")).first()
            if who is None:
                raise CommandFailed(f"user {user!r} does not exist")
        sources = []
        for path in files:
            text = read_source(path)
            label = printable(path)  # the history names the file: no lone surrogate may reach the database
            try:
                sources.append((label, parse_json(text)))  # deep nesting, huge numbers: one line each
            except RecordError as exc:
                raise CommandFailed(f"{label}: {exc}") from None
        try:
            hanchans = import_records(event=target, sources=sources, create_players=create_players, user=who)
        except ImportFailed as exc:
            raise CommandFailed(str(exc)) from None
        self.stdout.write(json.dumps({"imported": len(hanchans), "hanchans": [h.pk for h in hanchans]}))
