"""Online game logs to game records: Tenhou's tenhou.net/6 JSON (also written by tensoul for Mahjong Soul)
and Tenhou's mjlog XML, plain or gzip.

``read_log`` detects the format, parses the log into the engine's own types and checks the result: the
record it returns replays, hand by hand, to exactly the log's score changes and final scores, or it raises
:class:`LogError` saying which hand differs and how. Everything here is the standard library (``json``,
``xml.etree``, ``gzip``), like the rest of the engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import LogError
from .yaku import YAKU, YAKU_BY_NAME, Yaku, from_japanese, is_yaku_name

if TYPE_CHECKING:
    from ..record import GameRecord

__all__ = ["YAKU", "YAKU_BY_NAME", "LogError", "Yaku", "from_japanese", "is_yaku_name", "read_log"]


def read_log(data: bytes, *, name: str = "-", check: bool = True) -> list[GameRecord]:
    """The games of an online log file (``data`` as read from disk or an upload), as game records.

    ``name`` is the file's name: an mjlog holds no id of its own, Tenhou names its files after it. A file
    may hold several games (a JSON list of tenhou.net/6 logs). With ``check`` (the default) every record is
    verified against the log by replaying it; :class:`LogError` names the hand that does not match.
    """
    # Imported here, not at the top: the record reader (``record.py``) imports this package for the yaku
    # table, and the parsers import the record module, so a top-level import would be circular.
    from .reader import read_games

    return read_games(data, name=name, check=check)
