"""``{% cachedpage page_cache %}…{% endcachedpage %}``: a page's body, rendered once per results version.

The view passes a :class:`scoring.cache.PageCache` (the key's parts and a callable giving the body's
context); the tag serves the body from the cache, or renders it with that context and stores it
(:func:`scoring.cache.cached_fragment`). The page around it — the header with who is logged in, the CSRF
token, the messages — is rendered on every request. What the body shows must depend only on the key and
that context: anything taken from the request (the visitor, the query string) belongs in the key.
Without a ``page_cache`` (``None``) the body is rendered as a plain block.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.template.base import FilterExpression, NodeList, Parser, Token

from scoring.cache import PageCache, cached_fragment

register = template.Library()


class CachedPageNode(template.Node):
    def __init__(self, nodelist: NodeList, page: FilterExpression) -> None:
        self.nodelist = nodelist
        self.page = page

    def render(self, context: Any) -> str:
        page = self.page.resolve(context)
        if not isinstance(page, PageCache):
            return self.nodelist.render(context)

        def render_body() -> str:
            with context.push(page.context()):
                return self.nodelist.render(context)

        return cached_fragment(page.key_parts, render_body)


@register.tag("cachedpage")
def cachedpage(parser: Parser, token: Token) -> CachedPageNode:
    bits = token.split_contents()
    if len(bits) != 2:
        raise template.TemplateSyntaxError("{% cachedpage %} takes one argument: the page's PageCache")
    nodelist = parser.parse(("endcachedpage",))
    parser.delete_first_token()
    return CachedPageNode(nodelist, parser.compile_filter(bits[1]))
