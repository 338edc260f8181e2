"""Security headers Django 5.2 does not send by itself: Content-Security-Policy and Permissions-Policy.

The policy allows only the site's own scripts (its static files and htmx, served from django-htmx's
static file) and no inline script, event handler or ``javascript:`` URL, so an injected ``<script>``
would not run even if escaping ever failed. Styles allow ``'unsafe-inline'`` as well: the wall screen
sizes its grids with ``style`` attributes (CSS variables) and htmx adds its indicator style. Scripts
never get that exception. (The pygal charts are SVG documents of their own, linked as ``<img>``, with a
stricter policy still: ``scoring.views.public.svg_response``.) Django 6.0 has its own CSP support; until
then this small middleware is all it takes.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

DEFAULT_CONTENT_SECURITY_POLICY: dict[str, str] = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self' 'unsafe-inline'",
    "img-src": "'self'",
    "font-src": "'self'",
    "connect-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'self'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}

# Powerful browser features the site never uses, switched off for it and anything it could embed.
DEFAULT_PERMISSIONS_POLICY: dict[str, str] = {
    "accelerometer": "()",
    "autoplay": "()",
    "camera": "()",
    "display-capture": "()",
    "geolocation": "()",
    "gyroscope": "()",
    "magnetometer": "()",
    "microphone": "()",
    "midi": "()",
    "payment": "()",
    "usb": "()",
}


def _header(policy: dict[str, str], pair: str, separator: str) -> str:
    return separator.join(pair.format(name=name, value=value) for name, value in policy.items())


class SecurityHeadersMiddleware:
    """Adds ``Content-Security-Policy`` and ``Permissions-Policy`` to every response that lacks them.

    The policies can be replaced in the settings (``CONTENT_SECURITY_POLICY``, ``PERMISSIONS_POLICY``,
    dicts of directive → value); a view that needs another policy sets the header itself.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        csp = getattr(settings, "CONTENT_SECURITY_POLICY", DEFAULT_CONTENT_SECURITY_POLICY)
        permissions = getattr(settings, "PERMISSIONS_POLICY", DEFAULT_PERMISSIONS_POLICY)
        self.csp = _header(csp, "{name} {value}", "; ")
        self.permissions = _header(permissions, "{name}={value}", ", ")

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = self.csp
        if "Permissions-Policy" not in response:
            response["Permissions-Policy"] = self.permissions
        return response
