"""The error of a log that cannot be read or converted: one line that says what is wrong.

A :class:`~scoring.engine.errors.RecordError`, so that callers that handle invalid game records
(commands, imports) handle unreadable logs the same way; ``hand`` is the log's 1-based hand, if any.
"""

from __future__ import annotations

from ..errors import RecordError


class LogError(RecordError):
    """An online log that is not one, is damaged, or holds something a game record cannot express."""
