"""``manage.py standings --event SLUG``: the standings exactly as the event page shows them, as JSON or CSV.

Same rows, columns, order and cell text as the page and its CSV download (they share
:mod:`scoring.tables`), and the same filters read through the same :class:`~scoring.filters.StandingsFilter`,
so a script checking our standings compares like with like. ``--format csv`` prints the download's content:
the same characters, numbers written plainly (``-20.0``, never ``+`` nor the typographic minus), only
without the download's byte-order mark: scripts read standard output, and docs/game-record.md §7 (JSON
or CSV on standard output) promises none. ``--format json`` prints a list of objects keyed by the CSV
header, whose values are the page's cell text (``+23.4``, ``−20.0``), as it has always been.
"""

from __future__ import annotations

import json
from typing import Any

from league.models import Event
from scoring.filters import StandingsFilter
from scoring.management.contract import CommandFailed, ContractCommand, text_option
from scoring.standings import standings
from scoring.tables import export_rows, standings_tables, to_csv, to_records

FORMATS = ("json", "csv")


class Command(ContractCommand):
    help = (
        "Print an event's standings as the standings page shows them: ranked players, then those not yet "
        "ranked. JSON (a list of objects keyed by the CSV header) or CSV (the page's download)."
    )

    def add_arguments(self, parser):  # type: ignore[no-untyped-def]
        parser.add_argument("--event", required=True, metavar="SLUG", help="the event")
        # Checked in handle(), not with argparse choices: a bad value must fail with one line on stderr.
        parser.add_argument("--format", default="json", metavar="json|csv", help="output format (json)")
        parser.add_argument("--date-from", metavar="YYYY-MM-DD", help="games played on or after this date")
        parser.add_argument("--date-to", metavar="YYYY-MM-DD", help="games played on or before this date")
        parser.add_argument(
            "--min-games", metavar="N", help="games needed to be ranked (default: the event's setting)"
        )
        parser.add_argument("--after-round", metavar="N", help="a tournament's standings after round N")

    def handle(self, *args: Any, **options: Any) -> None:
        output = options["format"]
        if output not in FORMATS:
            raise CommandFailed(f"format: choose json or csv, not {output!r}")
        event = Event.objects.filter(slug=text_option(options["event"], "--event")).first()
        if event is None:
            raise CommandFailed(f"event {options['event']!r} does not exist")
        if options["after_round"] is not None and event.kind != Event.Kind.TOURNAMENT:
            # The page ignores ?up_to_round= on a league; a script asking for it has the wrong event.
            raise CommandFailed(
                f"after-round: event {event.slug!r} is a club league, which has no rounds "
                "(--after-round is for tournaments)"
            )
        filters = StandingsFilter(
            {
                "date_from": options["date_from"],
                "date_to": options["date_to"],
                "min_games": options["min_games"],
                "up_to_round": options["after_round"],
            },
            event=event,
        )
        error = filters.first_error()
        if error is not None:
            raise CommandFailed(error)
        rows = export_rows(standings_tables(standings(event, **filters.options())))
        if output == "csv":
            self.stdout.write(to_csv(rows), ending="")
        else:
            self.stdout.write(json.dumps(to_records(rows), indent=2, ensure_ascii=False))
