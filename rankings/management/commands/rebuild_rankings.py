"""Recompute the ranking's rows of every tournament held here, whatever their results versions say.

The worker recomputes a tournament when its results change (``rankings.tasks``); this repairs the rows
when that could not happen (rows deleted by hand, a restored backup). Safe at any time: one transaction.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import ngettext

from rankings.local import refresh_tournaments
from scoring.management.contract import OneLineErrorsCommand


class Command(OneLineErrorsCommand):  # a bad option: one line on stderr, exit 2, like the others
    help = "Recompute the EMA-style ranking's rows of every tournament held here."

    def handle(self, *args: Any, **options: Any) -> None:
        done = refresh_tournaments(everything=True)
        self.stdout.write(
            ngettext("%(count)d tournament recomputed.", "%(count)d tournaments recomputed.", done)
            % {"count": done}
        )
