"""The EMA side of a tournament: the results report (``report``), its zero-sum reconciliation
(``reconciliation``) and the MERS formulas (``mers``).

The package imports none of them itself: ``mers`` is pure Python, and the rankings' method
(``rankings.method``) uses its formulas without loading Django through the report.
"""
