"""Which log a file holds: gzip or not, then mjlog XML or tenhou.net/6 JSON (one game or a list).

Logs come from uploads and scripts, so every way a file can be wrong is one :class:`LogError`: too large
(also once decompressed: a small gzip bomb is refused, not unpacked), not UTF-8, not JSON or XML, not a
log. Each game is then converted and checked by :func:`game.to_record`.
"""

from __future__ import annotations

import gzip
import io
import zlib

from ..errors import EngineError, gettext_noop
from ..record import GameRecord, parse_json
from . import mjlog, tenhou6
from .errors import LogError
from .game import LogGame, to_record

MAX_BYTES = 8 * 1024 * 1024
"""The largest log, once decompressed: a real hanchan is 30–100 kB in either format."""
MAX_GAMES = 100
"""The most games one file (a JSON list of tenhou.net/6 logs) may hold."""
GZIP_MAGIC = b"\x1f\x8b"


def read_games(data: bytes, *, name: str = "-", check: bool = True) -> list[GameRecord]:
    """The game records of a log file's bytes (see :func:`scoring.engine.logs.read_log`)."""
    if not isinstance(data, bytes | bytearray):
        raise LogError(gettext_noop("a log is read from bytes"))
    if bytes(data[:2]) == GZIP_MAGIC:
        data = _gunzip(bytes(data))
    if len(data) > MAX_BYTES:
        raise LogError(
            gettext_noop("the log is larger than {size} MB: no game log is that large"),
            params={"size": MAX_BYTES // (1024 * 1024)},
        )
    try:
        text = bytes(data).decode("utf-8-sig")
    except UnicodeDecodeError:
        raise LogError(gettext_noop("not a game log: the file is not UTF-8 text (nor gzip)")) from None
    head = text.lstrip()[:1]
    if head == "<":
        games = [mjlog.parse(text, name=name)]
    elif head in ("{", "["):
        games = _json_games(text, name)
    else:
        raise LogError(gettext_noop("not a game log: expected Tenhou's mjlog XML or tenhou.net/6 JSON"))
    records = []
    for number, game in enumerate(games, start=1):
        try:
            records.append(to_record(game, check=check))
        except LogError as exc:
            if len(games) == 1:
                raise
            raise LogError(
                gettext_noop("game {number}: {error}"), params={"number": number, "error": exc}
            ) from None
    return records


def _gunzip(data: bytes) -> bytes:
    """Decompress, reading at most one byte more than :data:`MAX_BYTES` (a bomb is never unpacked)."""
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as stream:
            out = stream.read(MAX_BYTES + 1)
    except (OSError, EOFError, zlib.error) as exc:
        raise LogError(
            gettext_noop("not a readable gzip file: {error}"), params={"error": str(exc)}
        ) from None
    if len(out) > MAX_BYTES:
        raise LogError(
            gettext_noop("the log is larger than {size} MB once decompressed"),
            params={"size": MAX_BYTES // (1024 * 1024)},
        )
    return out


def _json_games(text: str, name: str) -> list[LogGame]:
    try:
        data = parse_json(text)
    except EngineError as exc:
        raise LogError.from_error(exc) from None
    if isinstance(data, dict):
        return [tenhou6.parse(data, name=name)]
    if not isinstance(data, list) or not data:
        raise LogError(gettext_noop("not a tenhou.net/6 log: expected an object, or a list of them"))
    if len(data) > MAX_GAMES:
        raise LogError(
            gettext_noop("the file holds {count} games: at most {max}"),
            params={"count": len(data), "max": MAX_GAMES},
        )
    games = []
    for number, item in enumerate(data, start=1):
        try:
            games.append(tenhou6.parse(item, name=name))
        except LogError as exc:
            raise LogError(
                gettext_noop("game {number}: {error}"), params={"number": number, "error": exc}
            ) from None
    return games
