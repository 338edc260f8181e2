"""The public pages that many people read, cached by the results versions that every write bumps.

When a round ends, a whole room reloads the standings at once; between two changes of results every one
of those requests would compute and render the same page. So the expensive part of each public page
(the standings with their tables, a player's statistics and charts, a game's log and chart) is rendered
once per *results version* and kept in Django's cache framework (local memory by default, Redis in
production: ``CACHE_URL``), and a browser that reloads an unchanged page gets a ``304 Not Modified``
(:func:`etag`, through Django's ``condition`` decorator).

Correctness never rests on a timer. Every service that changes what a page shows bumps the event's and
the players' ``results_version`` in its own transaction (:func:`bump_results`, i.e.
``league.versions.bump_results``), and the versions are part of every key: a page cached under a version
is by construction the page of that version. The timeout below only lets old versions' entries leave
the cache. A key is made of:

- the version(s) of what the page shows — :func:`results_key` for an event's pages (the event's version
  and the hidden-standings state, which the organiser's "release" also changes), the player's version
  for a player page, the event's version and the game's own for a game page;
- what else the HTML depends on: the query string (filters, sort, page), whether the visitor is logged in
  (members-only events), the language;
- the build (:func:`build_id`): a digest of the code, templates and translations, so that a deployment
  that changes how a page looks never serves HTML rendered by the previous code from a shared Redis.

The tournament-day pages (the live standings fragment, the wall screen) go through the same functions:
``cached_fragment((*results_key(event), "what", ...), render)`` and ``etag(request, ...)``.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe

from league.build import build_id
from league.models import Event, Hanchan, Player
from league.versions import bump_results

__all__ = [
    "TIMEOUT",
    "build_id",
    "PageCache",
    "bump_results",
    "cached_fragment",
    "cached_value",
    "etag",
    "fragment_key",
    "game_key",
    "player_key",
    "query_key",
    "results_key",
]

logger = logging.getLogger(__name__)

TIMEOUT = 24 * 3600
"""Seconds an entry stays: housekeeping for the versions nobody asks for any more, never correctness."""

def results_key(event: Event) -> tuple[Any, ...]:
    """The part of a key that says which results of ``event`` a page shows.

    The hidden-standings state (a tournament's standings frozen after round N until the organiser
    releases them) is in it too: it decides what the public standings show, whichever service set it.
    """
    hidden = getattr(event, "standings_hidden_after_round", None)
    released = getattr(event, "standings_released_at", None)
    by_stage = getattr(event, "stage_hidden_after_round", None)  # the stages' own hides (their summary)
    return (
        "event",
        event.pk,
        event.results_version,
        hidden,
        released.isoformat() if released else None,
        by_stage,
    )


def player_key(player: Player) -> tuple[Any, ...]:
    """The part of a key that says which results of ``player`` a page shows."""
    return ("player", player.pk, player.results_version)


def game_key(hanchan: Hanchan) -> tuple[Any, ...]:
    """A game page shows the game (its own version) within its event (names, rules: the event's)."""
    return ("game", hanchan.pk, hanchan.version, *results_key(hanchan.event))


def query_key(
    request: HttpRequest, names: Iterable[str] | None = None
) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The query string as part of a key: every parameter (or only ``names``), sorted, values in order."""
    wanted = set(names) if names is not None else None
    return tuple(
        (name, tuple(request.GET.getlist(name)))
        for name in sorted(request.GET)
        if wanted is None or name in wanted
    )


def fragment_key(parts: Sequence[Any]) -> str:
    """The cache key of a fragment: the build, the language and ``parts``, hashed to a short string."""
    raw = repr((build_id(), translation.get_language(), *parts))
    return "tenbou:fragment:" + hashlib.sha256(raw.encode()).hexdigest()


def cached_value(key_parts: Sequence[Any], compute: Callable[[], Any]) -> Any:
    """What ``compute()`` gives (anything the cache can pickle), from the cache when this key was
    computed before. If the cache cannot be reached (Redis down), it is computed as if nothing were
    cached: slower, never an error."""
    key = fragment_key(key_parts)
    try:
        value = cache.get(key)
    except Exception:  # noqa: BLE001 -- any cache failure: compute, log, go on
        logger.warning("page cache unreachable; computing %s", key_parts[:3], exc_info=True)
        return compute()
    if value is None:
        value = compute()
        try:
            cache.set(key, value, TIMEOUT)
        except Exception:  # noqa: BLE001
            logger.warning("page cache unreachable; not storing %s", key_parts[:3], exc_info=True)
    return value


def cached_fragment(key_parts: Sequence[Any], render: Callable[[], str]) -> SafeString:
    """The HTML ``render()`` gives, from the cache when this key was rendered before.

    ``render`` must return HTML that is safe to put in a page (``render_to_string`` does) and that depends
    on nothing but what ``key_parts`` name (see :func:`cached_value`).
    """
    return mark_safe(cached_value(key_parts, lambda: str(render())))


@dataclass(frozen=True)
class PageCache:
    """What ``{% cachedpage %}`` (scoring/templatetags/tenbou_cache.py) needs to cache a page's body: the
    key's parts, and the context the body is rendered with — a callable, called only on a miss, so that
    a page served from the cache computes none of it."""

    key_parts: tuple[Any, ...]
    context: Callable[[], dict[str, Any]]


def _has_pending_messages(request: HttpRequest) -> bool:
    """Whether a message waits to be shown (a 304 would keep it from being shown)."""
    if settings.MESSAGE_STORAGE.endswith(("FallbackStorage", "CookieStorage")) and request.COOKIES.get(
        getattr(settings, "MESSAGE_COOKIE_NAME", "messages")
    ):
        return True
    if settings.SESSION_COOKIE_NAME in request.COOKIES:
        session = getattr(request, "session", None)
        return bool(session is not None and session.get("_messages"))
    return False


def etag(request: HttpRequest, *key_parts: Any) -> str | None:
    """The ETag of a page: its cache key's parts plus what differs between visitors of the same page.

    The page around a cached fragment shows who is logged in and carries a CSRF token tied to the
    visitor's CSRF cookie, so both are in it (hashed: the tag must not reveal the cookie). ``None`` — no
    ETag, no 304 — while a message waits to be shown.
    """
    if _has_pending_messages(request):
        return None
    user = getattr(request, "user", None)
    who = user.pk if user is not None and user.is_authenticated else 0
    csrf = request.COOKIES.get(settings.CSRF_COOKIE_NAME, "")
    raw = repr(
        (build_id(), translation.get_language(), request.path, who, csrf, query_key(request), key_parts)
    )
    return '"' + hashlib.sha256(raw.encode()).hexdigest()[:32] + '"'
