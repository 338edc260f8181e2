"""What every chart shares: a small, phone-friendly pygal style, and rendering to inline SVG.

Charts are drawn on the server and put straight into the page as ``<svg>``: no JavaScript and no
third-party asset is loaded. pygal always embeds a ``<script>`` with its configuration (for its optional
tooltips); it is dropped, as are pygal's comments, to keep the page small.
"""

from __future__ import annotations

import re
from typing import Any

import pygal
from django.utils.formats import get_format
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext
from pygal.style import Style

# The site's palette (static/css/tenbou.css), then distinct colours for the other series.
STYLE = Style(
    background="transparent",
    plot_background="transparent",
    foreground="#1d2433",
    foreground_strong="#1d2433",
    foreground_subtle="#dcd8cf",
    font_family="system-ui, -apple-system, 'Segoe UI', sans-serif",
    label_font_size=12,
    major_label_font_size=12,
    legend_font_size=13,
    title_font_size=14,
    value_font_size=12,
    tooltip_font_size=12,
    colors=("#0b6e4f", "#b3261e", "#2f5da8", "#c98a0b", "#6b3fa0", "#5b6478"),
    opacity=".85",
    opacity_hover="1",
)

# Drawn at this size, then scaled to the page's width by CSS (the SVG keeps its viewBox): about a
# phone's width, so that the labels stay readable there.
WIDTH, HEIGHT = 440, 260
# Above this many points a line is drawn without dots, so that a long history stays light.
MAX_DOTS = 40

_SCRIPT = re.compile(r"<script\b[^>]*>.*?</script>", re.S)
_COMMENT = re.compile(r"<!--.*?-->", re.S)


def config(**options: Any) -> dict[str, Any]:
    """pygal options for every chart, overridden by ``options``."""
    base: dict[str, Any] = {
        "style": STYLE,
        "width": WIDTH,
        "height": HEIGHT,
        "disable_xml_declaration": True,
        "js": [],
        "legend_at_bottom": True,
        "legend_at_bottom_columns": 2,
        "truncate_legend": 16,  # a long name is cut ("…") to fit its column, not drawn over the next one
        "truncate_label": -1,
        "show_x_guides": False,
        "margin": 8,
        "spacing": 8,
        "no_data_text": gettext("No games yet"),
    }
    base.update(options)
    return base


def number(value: float, decimals: int = 0, *, signed: bool = False, grouped: bool = False) -> str:
    """``value`` as a chart writes it, with the page's language's decimal separator (and digit groups
    when ``grouped``): ``45,700`` and ``+35.0`` in English, ``45 700`` and ``+35,0`` in French."""
    text = f"{value:{'+' if signed else ''}{',' if grouped else ''}.{decimals}f}"
    separators = {ord(","): get_format("THOUSAND_SEPARATOR"), ord("."): get_format("DECIMAL_SEPARATOR")}
    return text.translate(separators)


def line(**options: Any) -> pygal.Line:
    return pygal.Line(**config(**options))


def bar(**options: Any) -> pygal.Bar:
    return pygal.Bar(**config(**options))


def render(chart: pygal.graph.graph.Graph) -> SafeString:
    """The chart as inline SVG, safe to put in a template: pygal escapes every text it draws."""
    svg = chart.render(is_unicode=True)
    return mark_safe(_COMMENT.sub("", _SCRIPT.sub("", svg)))


def sparse_labels(count: int) -> dict[str, Any]:
    """Options for ``count`` x labels: all of them when few, about eight evenly spaced when many."""
    if count <= 12:
        return {"show_dots": True, "dots_size": 3}
    return {
        "show_minor_x_labels": False,
        "x_labels_major_count": 8,
        "show_dots": count <= MAX_DOTS,
        "dots_size": 2,
    }
