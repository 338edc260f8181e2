"""ETags from the results versions, and ``304 Not Modified`` for a client that already has the answer.

The tag is the pages' (``scoring.cache.etag``) over the same key parts the cached pages use
(``results_key``, ``game_key``, ``player_key``), plus the format the answer is rendered in: a bot polling
the standings every few seconds costs one or two queries while nothing changed, and the tag moves with
every change the public may see (``league.versions``), never with one it may not.
"""

from __future__ import annotations

from typing import Any

from django.utils.cache import parse_etags, patch_cache_control
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.cache import etag


class Conditional:
    """A view mixin: ``etag_parts()`` names what the answer depends on (None: no ETag)."""

    def etag_parts(self) -> tuple[Any, ...] | None:
        return None

    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        parts = self.etag_parts()
        tag = None
        if parts is not None:
            renderer = getattr(request, "accepted_renderer", None)
            key = getattr(request, "auth", None)  # a key's answers are its own (api.access.private)
            tag = etag(request, "api", getattr(renderer, "format", ""), getattr(key, "pk", None), *parts)
        if tag is not None and tag in parse_etags(request.headers.get("If-None-Match", "")):
            response = Response(status=304)
            response["ETag"] = tag
            return response
        response = super().get(request, *args, **kwargs)  # type: ignore[misc]
        if tag is not None and response.status_code == 200:
            response["ETag"] = tag
            patch_cache_control(response, private=True, no_cache=True)
        return response
