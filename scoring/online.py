"""Online games: finding a log's players by their online names, and fetching a Tenhou log by its replay link.

**Matching.** An online log names its players by the name they play under (a Tenhou name, a Mahjong Soul
nickname), rarely their name in the league. :class:`PlayerMatcher` looks a log name up tier by tier —
the event's registered players first, then the players of its club — and within a tier by the online
name of the log's site (Tenhou name; Mahjong Soul nickname, then friend ID), then by display name. Names
are compared as people type them: Unicode-normalised (NFKC: full-width letters as ASCII) and without
case. A name that fits two players of the same tier is *ambiguous*: never guessed, the organiser picks.

**Fetching.** An organiser pastes the link the Tenhou viewer shows (``https://tenhou.net/0/?log=…`` or
``/6/?log=…``). Only the log id is taken from it, checked against the form of Tenhou's ids; the request
always goes to ``settings.TENBOU_TENHOU_URL`` (tenhou.net, a local fake server in tests) with that id, so
a pasted link can never make the server request another host (no SSRF), and redirects are not followed.
The answer is read with a short timeout for each step, a deadline for the whole answer (twice the
timeout: a server that sends one byte a second is cut off there, not kept until the size limit) and a
size limit; every way it can fail is one :class:`OnlineError` whose message says what happened and what
to do instead (upload the file).
"""

from __future__ import annotations

import contextlib
import http.client
import socket
import threading
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from urllib.parse import parse_qs, urlsplit

from django.conf import settings
from django.utils.translation import gettext, gettext_lazy

from league.models import Player
from scoring.engine.logs.mjlog import TENHOU_ID
from scoring.engine.logs.reader import MAX_BYTES
from scoring.engine.logs.tenhou6 import MAHJONGSOUL_REF

DEFAULT_TENHOU_URL = "https://tenhou.net"
"""Where logs are fetched from, unless ``settings.TENBOU_TENHOU_URL`` says otherwise (tests: a local one)."""
DEFAULT_TIMEOUT = 10.0
"""Seconds to wait for Tenhou (``settings.TENBOU_TENHOU_TIMEOUT``): a log is a few kB, Tenhou answers in
well under a second; longer means it is down, and the organiser is waiting on a page. Each step (the
connection, each read) waits at most this long, and the whole answer at most twice as long."""
READ_CHUNK = 64 * 1024
LOG_PATH = "/0/log/?"
"""Tenhou's download of a game's mjlog XML: ``/0/log/?<log id>``."""
TENHOU_HOSTS = frozenset({"tenhou.net", "www.tenhou.net"})
REPLAY_PATHS = frozenset({"/0/", "/6/", "/0/index.html", "/6/index.html"})
MAX_URL = 500
"""The longest replay link read: a real one is under 100 characters."""
USER_AGENT = "Tenbou (riichi league manager; imports a game log an organiser asked for)"

# Which fields hold a player's name on each site, in the order they are tried.
ONLINE_FIELDS: dict[str, tuple[str, ...]] = {
    "tenhou": ("tenhou_name",),
    "mahjongsoul": ("mahjongsoul_name", "mahjongsoul_id"),
}
ALL_ONLINE_FIELDS = ("tenhou_name", "mahjongsoul_name", "mahjongsoul_id")
FIELD_LABELS = {
    "tenhou_name": gettext_lazy("Tenhou name"),
    "mahjongsoul_name": gettext_lazy("Mahjong Soul nickname"),
    "mahjongsoul_id": gettext_lazy("Mahjong Soul friend ID"),
    "display_name": gettext_lazy("display name"),
}
NAME_FIELD = {"tenhou": "tenhou_name", "mahjongsoul": "mahjongsoul_name"}
"""The field a new player created from a log of that site gets the log's name in."""


class OnlineError(Exception):
    """A replay link that cannot be read or a log that cannot be fetched; the message says which and why."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


# -- matching -------------------------------------------------------------------------------------------


def name_key(name: str) -> str:
    """A name as compared: NFKC (full-width ``Ａｎｎ`` is ``Ann``), no surrounding spaces, no case (the
    Unicode standard's compatibility caseless match: normalised again after case folding)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name or "").casefold()).strip()


@dataclass(frozen=True)
class Match:
    """What a log name found: one player and the field that matched, or the players it could be."""

    player: Player | None = None
    field: str = ""
    candidates: tuple[Player, ...] = ()

    @property
    def ambiguous(self) -> bool:
        return len(self.candidates) > 1

    @property
    def how(self) -> str:
        """The field that matched, in words ("Tenhou name")."""
        return str(FIELD_LABELS.get(self.field, ""))


class PlayerMatcher:
    """Players looked up by a log's name: tier by tier, by the site's online names, then display name."""

    def __init__(self, tiers: Sequence[Iterable[Player]]) -> None:
        self._tiers = [self._index(players) for players in tiers]

    @staticmethod
    def _index(players: Iterable[Player]) -> dict[tuple[str, str], list[Player]]:
        index: dict[tuple[str, str], list[Player]] = {}
        for player in players:
            for field in (*ALL_ONLINE_FIELDS, "display_name"):
                key = name_key(getattr(player, field) or "")
                if key:
                    found = index.setdefault((field, key), [])
                    if all(p.pk != player.pk for p in found):
                        found.append(player)
        return index

    def match(self, name: str, source: str | None) -> Match:
        """The player a log of ``source`` ("tenhou", "mahjongsoul") calls ``name``."""
        key = name_key(name)
        if not key:
            return Match()
        fields = (*ONLINE_FIELDS.get(source or "", ALL_ONLINE_FIELDS), "display_name")
        for index in self._tiers:
            for field in fields:
                found = index.get((field, key), [])
                if len(found) == 1:
                    return Match(player=found[0], field=field)
                if found:
                    return Match(field=field, candidates=tuple(found))
        return Match()


def online_name_field(source: str | None) -> str | None:
    """The player field that holds a name on ``source`` (a log's site), None for no known site."""
    return NAME_FIELD.get(source or "")


def played_on_from_log_id(log_id: str | None) -> date | None:
    """The day a game was played, from its log id: Tenhou's start with ``YYYYMMDDHH``, Mahjong Soul's
    (as tensoul writes them) with ``YYMMDD``. None when the id says no date that exists."""
    if not log_id:
        return None
    try:
        if TENHOU_ID.fullmatch(log_id):
            return date(int(log_id[0:4]), int(log_id[4:6]), int(log_id[6:8]))
        if MAHJONGSOUL_REF.match(log_id):
            return date(2000 + int(log_id[0:2]), int(log_id[2:4]), int(log_id[4:6]))
    except ValueError:  # 2023-02-30: not a day of the calendar
        return None
    return None


# -- replay links ---------------------------------------------------------------------------------------


def log_id_from_url(url: str) -> str:
    """The Tenhou log id of a replay link, or :class:`OnlineError` saying what the link is not."""
    text = (url or "").strip()
    shown = _printable(text, 80)
    if len(text) > MAX_URL:
        raise OnlineError(
            gettext("The link %(url)s is longer than %(max)d characters: not a Tenhou replay link.")
            % {"url": shown, "max": MAX_URL}
        )
    try:
        parts = urlsplit(text)
        host = (parts.hostname or "").lower()
    except ValueError:  # an invalid IPv6 host, a port that is not a number
        parts, host = None, ""
    if parts is None or parts.scheme not in ("http", "https") or not host:
        raise OnlineError(
            gettext(
                "%(url)s is not a link: paste the replay link the Tenhou viewer shows, like "
                "https://tenhou.net/0/?log=2023061523gm-0089-0000-1a2b3c4d"
            )
            % {"url": shown}
        )
    if host not in TENHOU_HOSTS:
        if "mahjongsoul" in host or "majsoul" in host:
            raise OnlineError(
                gettext(
                    "%(url)s is a Mahjong Soul link: Mahjong Soul replays cannot be fetched. Convert the "
                    "game with tensoul and upload the file it writes."
                )
                % {"url": shown}
            )
        raise OnlineError(
            gettext("%(url)s: only tenhou.net replay links can be fetched, not links to %(host)s.")
            % {"url": shown, "host": _printable(host, 60)}
        )
    ids = parse_qs(parts.query).get("log", [])
    if parts.path not in REPLAY_PATHS or len(ids) != 1:
        raise OnlineError(
            gettext(
                "%(url)s is not a Tenhou replay link: expected https://tenhou.net/0/?log=… or "
                "https://tenhou.net/6/?log=…"
            )
            % {"url": shown}
        )
    log_id = ids[0].strip()
    if not TENHOU_ID.fullmatch(log_id):
        raise OnlineError(
            gettext(
                "%(url)s: the log id %(id)s is not a Tenhou log id, which looks like "
                "2023061523gm-0089-0000-1a2b3c4d (an id with an x in its last part is encoded: open the "
                "replay in the Tenhou viewer and copy the link it shows)."
            )
            % {"url": shown, "id": _printable(log_id, 60)}
        )
    return log_id


def _printable(text: str, limit: int) -> str:
    """``text`` for a one-line message: control characters shown as �, cut after ``limit`` characters."""
    shown = "".join(ch if ch.isprintable() else "\N{REPLACEMENT CHARACTER}" for ch in text[:limit])
    return shown + ("…" if len(text) > limit else "")


def tenhou_url() -> str:
    """The base address logs are fetched from (``settings.TENBOU_TENHOU_URL``), without a final slash."""
    return str(getattr(settings, "TENBOU_TENHOU_URL", DEFAULT_TENHOU_URL) or DEFAULT_TENHOU_URL).rstrip("/")


def fetch_timeout() -> float:
    return float(getattr(settings, "TENBOU_TENHOU_TIMEOUT", DEFAULT_TIMEOUT) or DEFAULT_TIMEOUT)


class _Watchdog:
    """The deadline of one fetch, kept whatever the server does.

    A socket timeout bounds each wait, not the whole: a server that sends a byte just before each timeout
    (headers or body, one byte a second) would hold the request until the size limit. At the deadline a
    timer thread shuts the connection's socket down, which ends any read blocked on it at once; the
    fetch then reports the deadline. The socket is watched through a duplicate of its descriptor, taken
    when it is created (before TLS takes it over), so the shutdown reaches the connection at any stage and
    never another file that reused a closed descriptor's number; :meth:`finish` closes it.
    """

    def __init__(self, seconds: float) -> None:
        self.expired = False
        self._finished = False
        self._guards: list[socket.socket] = []
        self._lock = threading.Lock()
        self._timer = threading.Timer(seconds, self._expire)
        self._timer.daemon = True
        self._timer.start()

    def guard(self, sock: socket.socket) -> None:
        with self._lock:
            if self._finished:
                return
            guard = sock.dup()
            self._guards.append(guard)
            if self.expired:
                self._shut(guard)

    def _expire(self) -> None:
        with self._lock:
            if self._finished:
                return
            self.expired = True
            for guard in self._guards:
                self._shut(guard)

    @staticmethod
    def _shut(guard: socket.socket) -> None:
        with contextlib.suppress(OSError):  # already closed by the other side
            guard.shutdown(socket.SHUT_RDWR)

    def finish(self) -> None:
        self._timer.cancel()
        with self._lock:
            self._finished = True
            for guard in self._guards:
                guard.close()
            self._guards.clear()


class _WatchedHTTP(http.client.HTTPConnection):
    """An HTTP connection whose socket the fetch's :class:`_Watchdog` watches from its creation."""

    watchdog: _Watchdog

    def connect(self) -> None:
        super().connect()
        self.watchdog.guard(self.sock)


class _WatchedHTTPS(http.client.HTTPSConnection, _WatchedHTTP):
    """HTTPS: ``HTTPSConnection.connect`` opens the TCP socket through ``_WatchedHTTP.connect`` (which
    watches it), then does the TLS handshake on it, under the watch too."""


def fetch_tenhou_log(log_id: str) -> bytes:
    """The mjlog of ``log_id`` as Tenhou serves it (XML, possibly gzip), or :class:`OnlineError`.

    ``log_id`` must be a Tenhou log id (see :func:`log_id_from_url`); it is checked again here, since
    it becomes part of the address. The request goes to ``settings.TENBOU_TENHOU_URL`` through
    ``http.client``, which never follows a redirect (a 302 is an answer like a 500).
    """
    if not TENHOU_ID.fullmatch(log_id or ""):
        raise OnlineError(gettext("%(id)s is not a Tenhou log id.") % {"id": _printable(log_id or "", 60)})
    timeout = fetch_timeout()
    deadline = 2 * timeout
    unreachable = gettext(
        "tenhou.net could not be reached (%(reason)s): try again later, or download the log and upload "
        "the file."
    )
    too_slow = gettext(
        "tenhou.net did not answer within %(seconds)s seconds: try again later, or download the log and "
        "upload the file."
    ) % {"seconds": f"{timeout:g}"}
    past_deadline = gettext(
        "tenhou.net did not send log %(id)s within %(seconds)s seconds: try again later, or download the "
        "log and upload the file."
    ) % {"id": log_id, "seconds": f"{deadline:g}"}
    base = urlsplit(tenhou_url())
    kind = _WatchedHTTPS if base.scheme == "https" else _WatchedHTTP
    try:
        connection = kind(base.hostname or "", base.port, timeout=timeout)
    except (ValueError, http.client.HTTPException) as exc:  # a misconfigured address
        raise OnlineError(unreachable % {"reason": exc.__class__.__name__}) from None
    watchdog = _Watchdog(deadline)
    connection.watchdog = watchdog
    try:
        data = _get(connection, f"{base.path}{LOG_PATH}{log_id}", log_id)
    except OnlineError:
        raise
    except (TimeoutError, OSError, http.client.HTTPException) as exc:
        if watchdog.expired:
            raise OnlineError(past_deadline) from None
        if isinstance(exc, TimeoutError):
            raise OnlineError(too_slow) from None
        reason = getattr(exc, "strerror", None) or exc.__class__.__name__
        raise OnlineError(unreachable % {"reason": reason}) from None
    finally:
        watchdog.finish()
        connection.close()
    if watchdog.expired:  # the shutdown can look like the end of the answer
        raise OnlineError(past_deadline)
    if not data.strip():
        raise OnlineError(
            gettext("tenhou.net sent an empty answer for log %(id)s: check the link.") % {"id": log_id}
        )
    return data


def _get(connection: http.client.HTTPConnection, path: str, log_id: str) -> bytes:
    """The body of ``GET path``, read as it arrives (each read returns what one arrival brought, so the
    size limit is checked as it grows), or :class:`OnlineError` for an answer that is not a log."""
    connection.request(
        "GET", path, headers={"User-Agent": USER_AGENT, "Accept": "application/xml, text/xml, */*"}
    )
    response = connection.getresponse()
    if response.status == 404:
        raise OnlineError(
            gettext("tenhou.net has no log %(id)s (HTTP 404): check the link.") % {"id": log_id}
        )
    if response.status != 200:
        raise OnlineError(
            gettext(
                "tenhou.net answered HTTP %(status)s for log %(id)s: try again later, or upload the file."
            )
            % {"status": response.status, "id": log_id}
        )
    chunks: list[bytes] = []
    size = 0
    while chunk := response.read1(READ_CHUNK):
        chunks.append(chunk)
        size += len(chunk)
        if size > MAX_BYTES:
            raise OnlineError(
                gettext("tenhou.net sent more than %(max)d MB for log %(id)s: not a game log.")
                % {"max": MAX_BYTES // (1024 * 1024), "id": log_id}
            )
    return b"".join(chunks)
