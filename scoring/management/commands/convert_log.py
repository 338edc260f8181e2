"""``manage.py convert_log FILE``: an online game log (Tenhou, Mahjong Soul via tensoul) as a game record."""

from __future__ import annotations

import json
from typing import Any

from scoring.engine import EngineError
from scoring.engine.logs import read_log
from scoring.management.contract import CommandFailed, ContractCommand, printable, read_log_bytes


class Command(ContractCommand):
    help = (
        "Convert an online game log to a game record (docs/game-record.md) and print it as JSON: Tenhou's "
        "tenhou.net/6 JSON (as the Tenhou viewer and tensoul, the Mahjong Soul converter, write it) or "
        "Tenhou's mjlog XML, plain or gzip. The record replays to exactly the log's score changes and final "
        "scores; a log that does not is refused with the hand that differs. A file holding several games "
        "prints a JSON list of records. '-' reads standard input. A file is read up to 8 MB."
    )

    def add_arguments(self, parser):  # type: ignore[no-untyped-def]
        # Optional for argparse, required below: argparse would report a missing FILE before an unknown
        # option, and the option is the mistake worth naming.
        parser.add_argument(
            "file", nargs="?", metavar="FILE", help="the log (JSON, XML or gzip), or - for stdin"
        )

    def handle(self, *args: Any, file: str | None = None, **options: Any):  # type: ignore[no-untyped-def]
        if not file:
            raise CommandFailed(
                "convert_log: error: the following arguments are required: FILE (or - for stdin)"
            )
        label = printable(file)
        data = read_log_bytes(file, label)
        try:
            records = read_log(data, name=file)
        except EngineError as exc:
            raise CommandFailed(f"{label}: {exc}") from None
        output: Any = records[0].to_dict() if len(records) == 1 else [r.to_dict() for r in records]
        self.stdout.write(json.dumps(output, indent=2))
