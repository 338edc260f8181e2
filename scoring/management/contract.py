"""Conventions shared by the public commands of game-record.md.

JSON or CSV on standard output, and on failure: nothing on standard output, exactly one line on standard
error, exit status 2. Django's ``CommandError`` would prefix the line with ``CommandError:``, which scripts
comparing our messages would trip over, so these commands fail through :meth:`ContractCommand.fail`.
"""

from __future__ import annotations

import sys
from typing import NoReturn

from django.core.management.base import BaseCommand


class CommandFailed(Exception):
    """Raised inside a contract command's work to stop it with one error line."""


class ContractCommand(BaseCommand):
    """A management command that follows the game-record.md conventions."""

    requires_system_checks: list[str] = []
    exit_status = 2

    def execute(self, *args, **options):  # type: ignore[no-untyped-def]
        try:
            return super().execute(*args, **options)
        except CommandFailed as exc:
            self.fail(str(exc))

    def fail(self, message: str) -> NoReturn:
        line = " ".join(str(message).split())  # one line, whatever the message held
        self.stderr.write(line, ending="\n")
        self.stderr.flush()
        sys.exit(self.exit_status)


def read_source(path: str) -> str:
    """The text of ``path``, or of standard input for ``-``."""
    try:
        if path == "-":
            return sys.stdin.read()
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise CommandFailed(f"{path}: cannot read the file: {reason}") from None
