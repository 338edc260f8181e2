"""``manage.py export_games --event SLUG``: the event's finished games as a JSON list of game records."""

from __future__ import annotations

import json
from typing import Any

from league.models import Event, Hanchan
from scoring.management.contract import CommandFailed, ContractCommand, text_option
from scoring.models import Penalty
from scoring.records import game_record, seat_of


def export_record(hanchan: Hanchan) -> dict[str, Any]:
    """One finished hanchan as a record, with the extra fields import_games reads back.

    ``game_record`` holds what the format documents; what it cannot say is added under new names (the
    format allows added fields, never renamed ones), so that importing the export reproduces the
    standings: the final scores of a game entered on paper, substitutes, round and table, when it
    finished and the date it was played on, and which penalties were chombos.
    """
    out = game_record(hanchan).to_dict()
    seats = sorted(hanchan.seats.all(), key=lambda s: s.seat)
    if hanchan.entry_mode == Hanchan.EntryMode.FINAL_SCORES:
        out["hands"] = []
        out["final_scores"] = [s.final_score for s in seats]
        out["final_sticks"] = hanchan.final_sticks
    if any(s.on_behalf_of_id for s in seats):
        out["on_behalf_of"] = [s.on_behalf_of.display_name if s.on_behalf_of else None for s in seats]
    if out.get("penalties"):
        # The same penalties, in the same order, as game_record lists them.
        listed = [
            p
            for p in Penalty.objects.filter(hanchan=hanchan, cancelled=False).order_by("created_at", "pk")
            if seat_of(hanchan, p.player_id) is not None
        ]
        for entry, penalty in zip(out["penalties"], listed, strict=True):
            entry["kind"] = penalty.kind
    if hanchan.round_number is not None:
        out["round_number"] = hanchan.round_number
    if hanchan.table_number is not None:
        out["table_number"] = hanchan.table_number
    if hanchan.finished_at is not None:
        out["finished_at"] = hanchan.finished_at.isoformat()
    # Its own field: a game entered (and finished) days after it was played keeps its date.
    out["played_on"] = hanchan.played_on.isoformat()
    return out


class Command(ContractCommand):
    help = (
        "Print an event's finished games as a JSON list of game records (docs/game-record.md), oldest played "
        "first, "
        "players named by display name. Importing the output into an empty event with the same ruleset "
        "reproduces the standings."
    )

    def add_arguments(self, parser):  # type: ignore[no-untyped-def]
        parser.add_argument("--event", required=True, metavar="SLUG", help="the event to export")

    def handle(self, *args: Any, event: str, **options: Any):  # type: ignore[no-untyped-def]
        target = Event.objects.filter(slug=text_option(event, "--event")).first()
        if target is None:
            raise CommandFailed(f"event {event!r} does not exist")
        hanchans = (
            Hanchan.objects.filter(event=target, status=Hanchan.Status.FINISHED)
            .prefetch_related("seats__player", "seats__on_behalf_of")
            .order_by("played_on", "created_at", "pk")
        )
        records = []
        for hanchan in hanchans:
            hanchan.event = target  # one instance: the ruleset is parsed once
            records.append(export_record(hanchan))
        self.stdout.write(json.dumps(records, indent=2))
