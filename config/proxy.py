"""The client's address as seen through the trusted reverse proxies in front of Tenbou.

Behind a TLS proxy every request arrives from the proxy's own address, so django-axes, which locks a
username+address pair, would lock a username for every visitor at once after a few wrong passwords by
anyone. Each proxy appends the address it received the request from to ``X-Forwarded-For``; the entries
a client wrote itself come first. With ``TRUSTED_PROXY_COUNT`` = N proxies in front of the site, the
N-th entry from the right was written by the outermost trusted proxy and is the real client's address;
anything further left is whatever the client chose to send, and is never trusted. With N = 0 (the
default) the header is ignored entirely and the connecting address is the client's.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest


def _valid_address(value: str) -> str | None:
    """``value`` as a normalised IP address, or None when it is not one (axes stores it in an IP column)."""
    value = value.strip()
    if value.startswith("[") and "]" in value:  # "[2001:db8::1]:443" (some proxies add the port)
        value = value[1 : value.index("]")]
    elif value.count(":") == 1:  # "203.0.113.5:51234"
        value = value.split(":", 1)[0]
    try:
        return str(ipaddress.ip_address(value))
    except ValueError:
        return None


def client_ip(request: HttpRequest) -> str | None:
    """The address of the client that sent ``request`` (``AXES_CLIENT_IP_CALLABLE``).

    The N-th ``X-Forwarded-For`` entry from the right when ``TRUSTED_PROXY_COUNT`` = N > 0 and the header
    holds that many valid entries; otherwise the connecting address (``REMOTE_ADDR``): a request that
    did not pass through every trusted proxy has no forwarded address worth believing.
    """
    remote = request.META.get("REMOTE_ADDR")
    count = int(getattr(settings, "TRUSTED_PROXY_COUNT", 0) or 0)
    if count <= 0:
        return remote
    entries = [item for item in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if item.strip()]
    if len(entries) < count:
        return remote
    return _valid_address(entries[-count]) or remote
