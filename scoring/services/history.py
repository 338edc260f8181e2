"""The audit trail, as scoring's services know it: a thin re-export of ``league.history``.

The model and the helper live in league (league's services write history too, and league may not
import scoring); scoring's callers keep writing ``history.log(...)`` through this module.
"""

from __future__ import annotations

from league.history import (
    Text,
    acting_user,
    acting_via,
    changes,
    clip,
    entry,
    given,
    jsonable,
    log,
    log_many,
)
from league.models import HistoryEntry

__all__ = [
    "HistoryEntry",
    "Text",
    "acting_user",
    "acting_via",
    "changes",
    "clip",
    "entry",
    "given",
    "jsonable",
    "log",
    "log_many",
]
