"""English pages write points without digit groups (25000, +7700).

The display filters group points by the language's own convention (scoring/templatetags/tenbou.py):
French and Polish write ``1 234,5`` with a non-breaking space, as their typography asks, and keep Django's
formats for that. English riichi score sheets, the printed slips and the organisers' guide write points
plainly, so grouping is switched off here for English only; the decimal point is Django's.
"""

NUMBER_GROUPING = 0

# Dates as the English pages have always written them (7 Mar 2025, day first as in Europe); French and
# Polish keep Django's ("7 mars 2025", "7 marca 2025"). Templates write ``|date`` (DATE_FORMAT) or
# ``|date:"DATETIME_FORMAT"`` rather than a fixed pattern, so each language gets its own.
DATE_FORMAT = "j M Y"
DATETIME_FORMAT = "j M Y H:i"
