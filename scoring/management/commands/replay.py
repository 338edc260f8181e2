"""``manage.py replay FILE…``: replay game records with the engine and print the result as JSON."""

from __future__ import annotations

import json

from scoring.engine import EngineError, load_record, replay_output
from scoring.management.contract import CommandFailed, ContractCommand, read_source


class Command(ContractCommand):
    help = (
        "Replay game records (docs/game-record.md) and print, per record, every hand's round, dealer, honba, "
        "sticks, deltas and scores, whether the game is over, and the final result. One file prints one "
        "JSON object; several print one object per line. '-' reads standard input. A file is read up to "
        "8 MB."
    )

    def add_arguments(self, parser):  # type: ignore[no-untyped-def]
        parser.add_argument("files", nargs="+", metavar="FILE", help="game record (JSON), or - for stdin")
        parser.add_argument("--rules", metavar="PRESET", help="replace the records' rules with this preset")

    def handle(self, *args, files: list[str], rules: str | None = None, **options):  # type: ignore[no-untyped-def]
        several = len(files) > 1
        outputs = []
        for path in files:
            prefix = f"{path}: " if several else ""
            text = read_source(path)
            try:
                record = load_record(text, rules=rules)
                outputs.append(replay_output(record))
            except EngineError as exc:
                raise CommandFailed(f"{prefix}{exc}") from None
        if several:
            for output in outputs:
                self.stdout.write(json.dumps(output, separators=(",", ":")))
        else:
            self.stdout.write(json.dumps(outputs[0], indent=2))
