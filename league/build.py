"""The build digest: which code, templates and translations this process serves.

Every cached page's key holds it (``scoring/cache.py``, ``league/wholepage.py``), so a deployment that
changes how a page looks never serves HTML rendered by the previous code from a shared Redis. It lives
in league, the lowest layer that caches pages, so that both apps can key by it."""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

from django.conf import settings

# What the build digest covers: the Python packages that render pages, the templates and translations.
# (static: a page links its files by their hashed names, which change with their content.)
_BUILD_SOURCES = ("background", "config", "league", "scoring", "tournaments", "templates", "locale", "static")
_BUILD_SUFFIXES = {".py", ".html", ".txt", ".mo", ".svg", ".css", ".js"}


@functools.cache
def build_id() -> str:
    """A digest of the code and templates this process serves (computed once per process, ~10 ms)."""
    root = Path(settings.BASE_DIR)
    digest = hashlib.sha256()
    for top in _BUILD_SOURCES:
        base = root / top
        if not base.exists():
            continue
        for path in sorted(base.rglob("*")):
            if path.suffix in _BUILD_SUFFIXES and path.is_file() and "__pycache__" not in path.parts:
                digest.update(str(path.relative_to(root)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]
