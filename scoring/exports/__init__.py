"""Reports an organiser downloads, one class per export (in the manner of pretix's exporters).

Each export class takes the event, yields its rows once through ``iterate_list`` and renders them to every
format it offers, so that the page preview, the download and the management command can never disagree.
"""

from .ema import EmaResultsExport, ExportFile

EXPORTS = {EmaResultsExport.identifier: EmaResultsExport}

__all__ = ["EXPORTS", "EmaResultsExport", "ExportFile"]
