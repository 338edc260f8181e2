"""Rate every finished game again, in every event and lifetime (Tenhou R and OpenSkill).

Services keep the rating history up to date after each change; this repairs it when that could not
happen — games stored before ratings existed, a crash between a commit and its rebuild, rows deleted by
hand. Safe to run at any time: it rewrites the whole history in one transaction.
"""

from __future__ import annotations

import time
from typing import Any

from django.utils.translation import gettext, ngettext

from scoring.management.contract import OneLineErrorsCommand
from scoring.ratings import rebuild_all_ratings


class Command(OneLineErrorsCommand):  # a bad option: one line on stderr, exit 2, like the others
    help = "Rebuild the Tenhou R and OpenSkill history of every event and the lifetime ratings."

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.perf_counter()
        report = rebuild_all_ratings()
        games = report.games
        self.stdout.write(
            ngettext(
                "Rated %(games)d game over %(scopes)d scopes (every event, and lifetime): %(written)d rows "
                "written, %(deleted)d deleted, in %(seconds)s s.",
                "Rated %(games)d games over %(scopes)d scopes (every event, and lifetime): %(written)d rows "
                "written, %(deleted)d deleted, in %(seconds)s s.",
                games,
            )
            % {
                "games": games,
                "scopes": report.scopes,
                "written": report.rows_written,
                "deleted": report.rows_deleted,
                "seconds": f"{time.perf_counter() - started:.2f}",
            }
        )
        if report.skipped:
            self.stdout.write(
                gettext("Not rated (a player in two seats): games %(games)s.")
                % {"games": sorted(set(report.skipped))}
            )
