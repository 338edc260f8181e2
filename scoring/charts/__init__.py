"""SVG charts (pygal) for the public pages. Presentation only: the figures come from selectors."""
