"""How a program presents an API key: ``Authorization: Bearer tb_…``, and the rate limit every API
request goes through (per key, or per address without one), as the table links have theirs."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.utils.module_loading import import_string
from django_ratelimit.core import get_usage
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.exceptions import AuthenticationFailed, Throttled
from rest_framework.request import Request
from rest_framework.throttling import BaseThrottle

from .keys import find_key
from .models import ApiKey

DEFAULT_RATE = "600/m"


def client_ip(request: Any) -> str | None:
    """The client's address as the site's trusted proxies report it (the setting django-axes reads)."""
    path = getattr(settings, "AXES_CLIENT_IP_CALLABLE", None)
    if path:
        return import_string(path)(request)
    return request.META.get("REMOTE_ADDR")


class KeyAuthentication(BaseAuthentication):
    """``Authorization: Bearer <key>``: the request acts as the key (``request.auth``), with no user. A
    key that is unknown, malformed or revoked is refused (401), never taken for no key at all."""

    keyword = b"bearer"

    def authenticate(self, request: Request) -> tuple[AnonymousUser, ApiKey] | None:
        header = get_authorization_header(request).split()
        if not header or header[0].lower() != self.keyword:
            return None
        if len(header) != 2:
            raise AuthenticationFailed("Authorization: Bearer followed by the key.")
        try:
            presented = header[1].decode()
        except UnicodeDecodeError:
            raise AuthenticationFailed("Unknown or revoked API key.") from None
        key = find_key(presented)
        if key is None:
            raise AuthenticationFailed("Unknown or revoked API key.")
        return AnonymousUser(), key

    def authenticate_header(self, request: Request) -> str:
        return 'Bearer realm="api"'


class KeyScheme(OpenApiAuthenticationExtension):
    target_class = "api.authentication.KeyAuthentication"
    name = "apiKey"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return {"type": "http", "scheme": "bearer", "description": "A per-event API key (tb_…)."}


def _rate(group: str, request: Any) -> str:
    return getattr(settings, "API_RATE", DEFAULT_RATE)


def _who(group: str, request: Any) -> str:
    key = getattr(request, "auth", None)
    if isinstance(key, ApiKey):
        return f"key:{key.pk}"
    return f"ip:{client_ip(request) or 'unknown'}"


class RateLimit(BaseThrottle):
    """``API_RATE`` requests per key (or per address without a key), django-ratelimit's counter as the
    table links use it; past it, 429 with ``Retry-After``."""

    def allow_request(self, request: Request, view: Any) -> bool:
        usage = get_usage(request, group="api", key=_who, rate=_rate, increment=True)
        if usage is not None and usage["should_limit"]:
            raise Throttled(wait=max(1, int(usage.get("time_left", 60))))
        return True
