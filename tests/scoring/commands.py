"""Running a management command in a test the way a script sees it: exit status, stdout, stderr."""

from __future__ import annotations

from io import StringIO

from django.core.management import call_command


def run(*args: str) -> tuple[int, str, str]:
    """(exit status, stdout, stderr) of a management command."""
    out, err = StringIO(), StringIO()
    try:
        call_command(*args, stdout=out, stderr=err)
    except SystemExit as exc:
        return int(exc.code or 0), out.getvalue(), err.getvalue()
    return 0, out.getvalue(), err.getvalue()
