"""QR codes of the tables' entry links, as inline SVG (segno).

Inline SVG rather than an image URL: the page makes no second request (the slips print at once, the
round page polls nothing for them), the Content-Security-Policy (``img-src 'self'``) has nothing to
allow, and no QR code of a secret link is ever sent to an outside service to be drawn.
"""

from __future__ import annotations

import segno
from django.utils.safestring import SafeString, mark_safe


def qr_svg(text: str, *, title: str = "", scale: int = 3, css_class: str = "qr") -> SafeString:
    """``text`` as an inline ``<svg>`` QR code (medium error correction: a slip gets creased).

    segno escapes the title; the rest of the markup is segno's own, so marking it safe is sound. The
    size attributes are left out so CSS decides how big it prints.
    """
    code = segno.make(text, error="m", micro=False)
    svg = code.svg_inline(scale=scale, title=title or None, svgclass=css_class, omitsize=True)
    return mark_safe(svg)  # noqa: S308 - segno's markup, its one text (the title) escaped by segno
