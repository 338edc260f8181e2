"""The EMA side of a tournament: the results report, its zero-sum reconciliation and the MERS weight."""

from .report import EmaResultsExport, ExportFile

EXPORTS = {EmaResultsExport.identifier: EmaResultsExport}

__all__ = ["EXPORTS", "EmaResultsExport", "ExportFile"]
