"""Whole public pages from the cache, for visitors who are not logged in.

The body of a public page is cached by results version (``scoring/cache.py``), but the page around it —
the header, the language switcher, the CSRF token — was still rendered on every request, which cost a
cached page two thirds of its time. For a visitor with no session (not logged in, no message waiting)
that page is the same for everyone but for the CSRF token, so it is kept whole: rendered once per key,
stored with the token cut out, and served by putting the visitor's own token back (``get_token``: their
CSRF cookie is set as usual). A cached page then costs the key's one query and a cache read.

The key is the view's own (the versions of what the page shows, see :func:`whole_page`), the full path
with its query string, the language and the build (:func:`league.build.build_id`). Only a 200 answer
without cookies of its own is kept; anything else — a logged-in visitor, a session cookie, a message
waiting, an htmx request, a POST, a browser revalidating its copy (``If-None-Match``: the view's ETag
answers it with a 304) — goes to the view as before.

The decorator goes *outside* the view's checks (visibility, hidden rounds, the ETag): a page is stored
only when the view answered 200 under the versions in its key, and every change that could turn that
answer (visibility, a hidden round, a registration) moves one of those versions, so a key met again is
an answer already checked. The key functions read the versions with plain SQL (``Model.objects.raw``):
compiling an ORM query cost more than the rest of a cached page.

*Stale for a few seconds, never across what may be shown.* A page whose results move constantly (the
standings while hands are entered, two a second) would be rendered again by every reader who meets a new
version. A key function may therefore split its key (:class:`Keyed`): ``shown`` — what decides what
may be shown at all (the object, its ``shown_version``, which every change but a change of results moves
(``league/versions.py``): visibility, registrations, a reveal; the hidden-rounds state; and always the
path, the language and the build) — and the rest, results versions only. When a page's full key is
missing but a page of the same ``shown`` part is kept, one request renders the new version (a lock,
``cache.add``) while the others get that previous page, for at most ``TENBOU_STALE_SECONDS`` (default 5;
0 turns it off) counted from the first request that met the new version; past that they wait for the
render as before. A stale page carries no ETag (a browser must not keep it as the new version's).
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import wraps
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.utils import translation
from django.utils.cache import patch_cache_control

from league.build import build_id

logger = logging.getLogger(__name__)

TIMEOUT = 24 * 3600
"""Seconds an entry stays: housekeeping for keys nobody asks for any more, never correctness."""

_TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')

View = Callable[..., HttpResponse]


@dataclass(frozen=True)
class Keyed:
    """A page's key in two parts: ``parts``, everything the page shows (the key, and the ETag's parts as
    before), and ``shown``, the part of it that a stale page may never cross: it must change whenever
    anything but a results version does (see the module's docstring)."""

    parts: tuple[Any, ...]
    shown: tuple[Any, ...]


KeyParts = Callable[..., "Sequence[Any] | Keyed | None"]


def stale_seconds() -> float:
    """How long a page may be served behind its results version while one request renders it."""
    return max(0.0, float(getattr(settings, "TENBOU_STALE_SECONDS", 5)))


def anonymous_and_plain(request: HttpRequest) -> bool:
    """A GET from a visitor with no session (so not logged in, and no message kept for them), not htmx."""
    if request.method not in ("GET", "HEAD") or request.headers.get("HX-Request"):
        return False
    if "If-None-Match" in request.headers:  # the view's ETag answers that with a 304
        return False
    if settings.SESSION_COOKIE_NAME in request.COOKIES:
        return False
    messages_cookie = getattr(settings, "MESSAGE_COOKIE_NAME", "messages")
    return messages_cookie not in request.COOKIES


def page_key(request: HttpRequest, parts: Sequence[Any]) -> str:
    raw = repr((build_id(), translation.get_language(), request.get_full_path(), *parts))
    return "tenbou:page:" + hashlib.sha256(raw.encode()).hexdigest()


def whole_page(
    key_parts: KeyParts, *, etag: Callable[[HttpRequest, Sequence[Any]], str | None] | None = None
) -> Callable[[View], View]:
    """Serve the view's page whole from the cache to anonymous visitors.

    ``key_parts(request, *args, **kwargs)`` names what the page shows (its versions; None: do not cache
    this one, e.g. no such object: the view answers). It must name everything the page and the view's
    checks depend on besides the path, the language and the visitor being anonymous. ``etag(request,
    parts)``: the ETag the view's own conditional answer gives (the same value), sent with a cached page
    so that the browser's next visit can be a 304."""

    def decorator(view: View) -> View:
        @wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if not anonymous_and_plain(request):
                return view(request, *args, **kwargs)
            parts = key_parts(request, *args, **kwargs)
            if parts is None:
                return view(request, *args, **kwargs)
            shown = parts.shown if isinstance(parts, Keyed) else None
            parts = parts.parts if isinstance(parts, Keyed) else parts
            ident = (view.__module__, view.__qualname__)
            key = page_key(request, (*ident, *parts, shown))
            # The page of this shown part last stored, whatever its results version (stale candidates).
            latest = page_key(request, (*ident, "latest", shown)) if shown is not None else None
            marker = (latest or key) + ":outdated"
            # One render at a time per page (per shown part when it may be served stale meanwhile).
            lock = (latest or key) + ":rendering"
            try:
                if latest is None:
                    kept, previous, outdated_since, rendering = cache.get(key), None, None, False
                else:  # one round trip: the page, the previous one, since when it is behind, a render
                    found = cache.get_many([key, latest, marker, lock])
                    kept, previous, outdated_since = found.get(key), found.get(latest), found.get(marker)
                    rendering = lock in found
            except Exception:  # noqa: BLE001 -- a cache that cannot be reached: render as if not cached
                logger.warning("page cache unreachable; rendering %s", request.path, exc_info=True)
                return view(request, *args, **kwargs)
            if kept is not None:
                return _serve(request, kept, parts, etag)
            outdated = None
            if previous is not None and previous[0] != key:
                outdated = _outdated_for(marker, previous[0], outdated_since)
            if outdated is not None and outdated < stale_seconds():
                # The previous version's page, a few seconds behind, while one request renders the new
                # one — started once it is half the bound behind: under a writer that moves the version
                # twice a second, a page is rendered every few seconds, not at every hand.
                if outdated < stale_seconds() / 2 or rendering or not _add(lock):
                    return _serve(request, previous[1], parts, None)
            elif not _add(lock):
                # Another process renders this page now (a new version, fifty readers at once): wait for
                # its result rather than render it five times side by side on two cores.
                kept = _wait_for(key, lock)
                if kept is not None:
                    return _serve(request, kept, parts, etag)
            try:
                response = view(request, *args, **kwargs)
                if response.status_code == 200 and not response.streaming and not response.cookies:
                    _store(request, key, response, latest)
            finally:
                _delete(lock)
            return response

        return wrapped

    return decorator


RENDER_WAIT = 5
"""Seconds a render keeps others of the same page waiting for it, at most (then they render too)."""


def _add(lock: str) -> bool:
    try:
        return bool(cache.add(lock, 1, RENDER_WAIT))
    except Exception:  # noqa: BLE001 -- no cache: every process renders, as without the lock
        return True


def _delete(lock: str) -> None:
    with contextlib.suppress(Exception):
        cache.delete(lock)


def _outdated_for(marker: str, kept_key: str, found: Any) -> float | None:
    """Seconds since the first request found the page stored under ``kept_key`` outdated (its results
    moved on). ``marker`` keeps (that key, that moment) in the cache, so that every process counts from
    the same moment; ``found`` is what it held. None when no page may be served behind its version
    (:func:`stale_seconds` is 0, or the cache cannot be reached)."""
    bound = stale_seconds()
    if not bound:
        return None
    now = time.time()
    if isinstance(found, tuple) and len(found) == 2 and found[0] == kept_key:
        return max(0.0, now - float(found[1]))
    try:
        # Once per version: the first request that finds this page behind starts its window. Two
        # processes meeting it at once write moments a few milliseconds apart.
        cache.set(marker, (kept_key, now), TIMEOUT)
    except Exception:  # noqa: BLE001 -- no cache, no stale page
        return None
    return 0.0


def _wait_for(key: str, lock: str) -> Any:
    """The page another process is rendering, once it is stored; None once it gave up (its answer was
    not a page to keep: a redirect, a 404) or after :data:`RENDER_WAIT`."""
    deadline = time.monotonic() + RENDER_WAIT
    while time.monotonic() < deadline:
        time.sleep(0.01)
        try:
            kept = cache.get(key)
            if kept is not None or cache.get(lock) is None:
                return kept
        except Exception:  # noqa: BLE001
            return None
    return None


def _store(request: HttpRequest, key: str, response: HttpResponse, latest: str | None = None) -> None:
    """Keep the page with its CSRF token cut out (one render uses one token; none without a form), and
    under ``latest`` too (with its key) as the page a newer results version may be answered with."""
    html = response.content.decode(response.charset)
    tokens = set(_TOKEN.findall(html))
    if len(tokens) > 1:
        return
    pieces = html.split(tokens.pop()) if tokens else [html]
    kept = (response["Content-Type"], pieces)
    try:
        cache.set_many({key: kept, **({latest: (key, kept)} if latest else {})}, TIMEOUT)
    except Exception:  # noqa: BLE001
        logger.warning("page cache unreachable; not storing %s", request.path, exc_info=True)


def _serve(
    request: HttpRequest,
    kept: tuple[str, list[str]],
    parts: Sequence[Any],
    etag: Callable[[HttpRequest, Sequence[Any]], str | None] | None,
) -> HttpResponse:
    """A stored page with this visitor's CSRF token put back, and the view's ETag."""
    content_type, pieces = kept
    response = HttpResponse(get_token(request).join(pieces), content_type=content_type)
    tag = etag(request, parts) if etag is not None else None
    if tag:
        response["ETag"] = tag
        patch_cache_control(response, private=True, no_cache=True)
    return response


def raw_first(model: Any, fields: Sequence[str], where: str, params: Sequence[Any]) -> Any:
    """The first ``model`` row where ``where`` holds, with only ``fields`` loaded (any other attribute
    read later loads itself: correct, only slower), or None: one plain query, no ORM compilation."""
    from django.db import connection

    quote = connection.ops.quote_name
    names = ["id", *(f for f in fields if f != "id")]
    columns = ", ".join(quote(model._meta.get_field(name).column) for name in names)
    sql = f"SELECT {columns} FROM {quote(model._meta.db_table)} WHERE {where}"
    return next(iter(model.objects.raw(sql, list(params))), None)
