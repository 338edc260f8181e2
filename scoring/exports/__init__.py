"""File formats every export shares (CSV with a byte-order mark, formula neutralising).

The exports themselves live with the page they belong to (the EMA report in ``tournaments.ema``,
the standings CSV with the standings view), each as a class that yields its rows once, in the manner
of pretix's exporters, so that the page preview, the download and the management command never disagree.
"""
