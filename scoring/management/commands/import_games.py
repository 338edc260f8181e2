"""``manage.py import_games --event SLUG [--format record|tenhou6|mjlog] FILE…``: store games as finished
hanchans of an event.

By default the files hold game records (docs/game-record.md), as ``export_games`` and ``convert_log`` write
them. ``--format tenhou6`` or ``--format mjlog`` reads online logs instead (Tenhou's tenhou.net/6 JSON, as
tensoul writes Mahjong Soul games too, or Tenhou's mjlog XML, plain or gzip) through the same reader as
``convert_log``; their players are matched by online name (Tenhou name, Mahjong Soul nickname or friend
ID), then display name, and a log already imported in the event is refused. The format is never guessed:
a script states what it feeds, and a file of the other format is an error naming it.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterator
from typing import Any

from django.contrib.auth import get_user_model

from league.models import Event
from scoring.engine import EngineError, RecordError
from scoring.engine.logs import read_log
from scoring.engine.logs.reader import GZIP_MAGIC
from scoring.engine.record import parse_json
from scoring.imports import ImportFailed, import_records
from scoring.management.contract import (
    MAX_RECORDS_BYTES,
    CommandFailed,
    ContractCommand,
    printable,
    read_log_bytes,
    read_source,
    text_option,
)

FORMATS = ("record", "tenhou6", "mjlog")
FORMAT_NAMES = {"tenhou6": "tenhou.net/6 JSON", "mjlog": "Tenhou's mjlog XML"}


class Command(ContractCommand):
    help = (
        "Import games as finished games of an event, all or nothing. By default each FILE holds game "
        "records (docs/game-record.md): one record or a JSON list of them (export_games' output). With "
        "--format "
        "tenhou6 or --format mjlog each FILE is an online log (tenhou.net/6 JSON, also Mahjong Soul via "
        "tensoul; Tenhou's mjlog XML, plain or gzip), converted as convert_log does. Players are matched by "
        "display name (or an 8-digit EMA number) — for logs by Tenhou name, Mahjong Soul nickname or friend "
        "ID first — among the event's registered players, then the club's players. A log already imported "
        "in the event is refused. '-' reads standard input. A file of records is read up to 64 MB, a log "
        'up to 8 MB. Prints {"imported": N, "hanchans": [ids]}.'
    )

    def add_arguments(self, parser):  # type: ignore[no-untyped-def]
        parser.add_argument("files", nargs="+", metavar="FILE", help="game record(s) or logs, or - for stdin")
        parser.add_argument("--event", required=True, metavar="SLUG", help="the event to import into")
        parser.add_argument(
            "--format",
            choices=FORMATS,
            default="record",
            dest="file_format",
            help="what the files hold: game records (the default), tenhou.net/6 JSON logs or mjlog XML logs",
        )
        parser.add_argument(
            "--create-players",
            action="store_true",
            help="create unknown players in the event's club and register them (otherwise an error)",
        )
        parser.add_argument("--user", metavar="USERNAME", help="who the history entries name")
        parser.add_argument(
            "--progress",
            action="store_true",
            help="print 'stored N games' on standard error after each chunk of games checked and written "
            "(nothing is committed before the end; a failure comes after these lines)",
        )

    def handle(  # type: ignore[no-untyped-def]
        self,
        *args: Any,
        files: list[str],
        event: str,
        file_format: str = "record",
        create_players: bool = False,
        user: str | None = None,
        progress: bool = False,
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
        try:
            hanchans = import_records(
                event=target,
                sources=_sources(files, file_format),
                create_players=create_players,
                user=who,
                progress=self._progress if progress else None,
            )
        except ImportFailed as exc:
            raise CommandFailed(str(exc)) from None
        self.stdout.write(json.dumps({"imported": len(hanchans), "hanchans": [h.pk for h in hanchans]}))

    def _progress(self, stored: int) -> None:
        self.stderr.write(f"stored {stored} games")
        self.stderr.flush()


def _sources(files: list[str], file_format: str) -> Iterator[tuple[str, Any]]:
    """Each file's records, read when the import gets to it: one file in memory at a time (a failure to
    read one rolls back what the import wrote before it)."""
    for path in files:
        label = printable(path)  # the history names the file: no lone surrogate may reach the database
        if file_format == "record":
            text = read_source(path, limit=MAX_RECORDS_BYTES)
            try:
                data = parse_json(text)  # deep nesting, huge numbers: one line each
            except RecordError as exc:
                raise CommandFailed(f"{label}: {exc}") from None
            del text
            yield label, data
        else:
            yield label, _log_records(path, label, file_format)


def _log_records(path: str, label: str, file_format: str) -> Any:
    """The records of the log at ``path`` (one, or a list for a file of several games), as JSON data."""
    data = read_log_bytes(path, label)
    found = _sniff(data)
    if found is not None and found != file_format:  # not a log at all: read_log says what it is not
        raise CommandFailed(
            f"{label}: --format {file_format} reads {FORMAT_NAMES[file_format]}, but this file is "
            f"{FORMAT_NAMES[found]}"
        )
    try:
        records = read_log(data, name=path)
    except EngineError as exc:
        raise CommandFailed(f"{label}: {exc}") from None
    dicts = [record.to_dict() for record in records]
    return dicts[0] if len(dicts) == 1 else dicts


def _sniff(data: bytes) -> str | None:
    """Which log format ``data`` starts like (``mjlog``, ``tenhou6``), looking inside a gzip file."""
    head = data[:4096]
    if head[:2] == GZIP_MAGIC:
        try:
            head = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(data[:65536], 4096)
        except zlib.error:
            return None  # read_log says what is wrong with it
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")[:1]
    if text == b"<":
        return "mjlog"
    if text in (b"{", b"["):
        return "tenhou6"
    return None
