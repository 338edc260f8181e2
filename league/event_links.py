"""Links that apps above league add to an event's public page ("Register"), without the page's app
(scoring) importing them: each app registers a provider at ``AppConfig.ready``; the page reads them
through the ``event_links`` template tag (``league/templatetags/league.py``).

A provider answers ``(label, url)`` or None for one event, in the reader's language. The event page's
body is cached by the event's results version (``scoring/cache.py``): a provider whose answer changes
must bump that version when it does (registration does when an opening is saved, opens and closes).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Provider = Callable[[Any], "tuple[str, str] | None"]

_PROVIDERS: dict[str, Provider] = {}


def register(name: str, provider: Provider) -> None:
    """Add (or replace: ``ready`` may run twice in tests) the provider called ``name``."""
    _PROVIDERS[name] = provider


def links_for(event: Any) -> list[tuple[str, str, str]]:
    """Every provider's link for ``event``: (name, label, url), in the order they registered."""
    found = []
    for name, provider in _PROVIDERS.items():
        link = provider(event)
        if link is not None:
            found.append((name, *link))
    return found
