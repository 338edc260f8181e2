"""``manage.py export_ema --event SLUG [--format xlsx|csv] [--output FILE]``: the EMA results report.

The report the organiser downloads from the EMA page (both render :class:`EmaResultsExport`). CSV goes
to standard output unless ``--output`` names a file: a file is the download byte for byte (UTF-8 with a
byte-order mark, so that a spreadsheet reads accented names right); standard output is the same text
without the mark, since scripts read it and the commands' contract (docs/game-record.md §7) has none. XLSX is
binary: it needs ``--output`` — written to a terminal it would be garbage, and a script piping it
somewhere can name the file just as well — so ``--format xlsx`` without ``--output`` fails like any other
error (docs/game-record.md §7: nothing on standard output, one line on standard error, status 2), as do an
unknown event and an event that is not a tournament. The reconciliation is not checked here: the page
shows it, and it never blocks.
"""

from __future__ import annotations

from typing import Any

from league.models import Event
from scoring.management.contract import CommandFailed, ContractCommand, text_option
from tournaments.ema.report import EmaResultsExport


class Command(ContractCommand):
    help = (
        "Write a tournament's EMA results report (the legacy EMA grid with its header block) as CSV "
        "(standard output by default) or XLSX (--output FILE needed)."
    )

    def add_arguments(self, parser):  # type: ignore[no-untyped-def]
        parser.add_argument("--event", required=True, metavar="SLUG", help="the tournament")
        # Checked in handle(), not with argparse choices: a bad value must fail with one line on stderr.
        parser.add_argument("--format", default="csv", metavar="xlsx|csv", help="output format (csv)")
        parser.add_argument("--output", metavar="FILE", help="write to FILE instead of standard output")

    def handle(self, *args: Any, **options: Any) -> None:
        fmt, output = options["format"], options["output"]
        if fmt not in EmaResultsExport.formats:
            raise CommandFailed(f"format: choose xlsx or csv, not {fmt!r}")
        if fmt == "xlsx" and not output:
            raise CommandFailed("format xlsx is binary: name the file with --output FILE")
        slug = text_option(options["event"], "--event")
        event = Event.objects.select_related("club").filter(slug=slug).first()
        if event is None:
            raise CommandFailed(f"event {options['event']!r} does not exist")
        if event.kind != Event.Kind.TOURNAMENT:
            raise CommandFailed(f"event {event.slug!r} is a club league: the EMA report is for tournaments")
        export = EmaResultsExport(event)
        if not output:
            self.stdout.write(export.to_csv(), ending="")
            return
        report = export.render(fmt)
        try:
            with open(output, "wb") as handle:
                handle.write(report.data)
        except OSError as exc:
            raise CommandFailed(f"{output}: cannot write the file: {exc.strerror or exc}") from None
