"""Conventions shared by the public commands of docs/game-record.md §7.

JSON or CSV on standard output, and on failure: nothing on standard output, exactly one line on standard
error, exit status 2. Django's ``CommandError`` would prefix the line with ``CommandError:``, which scripts
comparing our messages would trip over, so these commands fail through :meth:`ContractCommand.fail`.

Argument errors (a missing ``--event``, an unknown option) follow the same rule: argparse would print the
usage and then the error (several lines), and Django's parser raises ``CommandError`` when called from
code; :class:`OneLineErrorsCommand` makes both one line on standard error and exit status 2.
"""

from __future__ import annotations

import sys
from typing import Any, NoReturn

from django.core.management.base import BaseCommand, CommandParser
from django.utils import translation

from scoring.engine import EngineError
from scoring.engine.logs.reader import MAX_BYTES
from scoring.engine.record import check_text

EXIT_STATUS = 2
CONTRACT_LANGUAGE = "en"
"""The language of the commands' output and error lines (docs/game-record.md §7): scripts compare them."""


class CommandFailed(Exception):
    """Raised inside a contract command's work to stop it with one error line."""


def printable(text: str) -> str:
    """``text`` with what UTF-8 cannot encode (a lone surrogate: a file name that is not UTF-8) escaped,
    so that writing it to the terminal or the database cannot fail."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def one_line(message: object) -> str:
    """``message`` as one printable line: whitespace runs (newlines too) become one space."""
    return printable(" ".join(str(message).split()))


def text_option(value: str | None, option: str) -> str | None:
    """An option's text, refused (one line) if it holds a control character or a lone surrogate.

    Such text can never name an event or a user, and PostgreSQL cannot even be asked (a NUL in a
    query parameter is an error of the driver, not an empty answer).
    """
    if value is None:
        return None
    try:
        return check_text(value, option)
    except EngineError as exc:
        raise CommandFailed(exc.message) from None


def _parser_error(parser: CommandParser, message: str) -> NoReturn:
    """argparse's error, as one line: ``manage.py import_games: error: … --event`` and exit status 2."""
    prog = " ".join(parser.prog.split())
    sys.stderr.write(one_line(f"{prog}: error: {message}" if prog else f"error: {message}") + "\n")
    sys.stderr.flush()
    sys.exit(EXIT_STATUS)


class OneLineErrorsCommand(BaseCommand):
    """A command whose argument errors are one line on standard error and exit status 2.

    From the command line and from ``call_command`` alike, so scripts and tests see the same thing.
    """

    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> CommandParser:
        parser = super().create_parser(prog_name, subcommand, **kwargs)
        # argparse reports every parsing error through parser.error(); replace it on this instance.
        parser.error = lambda message: _parser_error(parser, message)  # type: ignore[method-assign]
        return parser


class ContractCommand(OneLineErrorsCommand):
    """A management command that follows the conventions of docs/game-record.md §7."""

    requires_system_checks: list[str] = []
    exit_status = EXIT_STATUS

    def execute(self, *args, **options):  # type: ignore[no-untyped-def]
        # The contract is English whatever the site's language (``LANGUAGE_CODE``): the messages the
        # commands share with the pages (an import's errors, a filter's) are translated there, and
        # written here, and in the history entries the command leaves, as the contract words them.
        with translation.override(CONTRACT_LANGUAGE):
            try:
                return super().execute(*args, **options)
            except CommandFailed as exc:
                self.fail(str(exc))

    def fail(self, message: str) -> NoReturn:
        self.stderr.write(one_line(message), ending="\n")
        self.stderr.flush()
        sys.exit(self.exit_status)


MB = 1024 * 1024
MAX_RECORD_BYTES = 8 * MB
"""The most ``replay`` reads of one file (or standard input): one game record, at most 500 hands, is a
few hundred kB even written with indentation and every yaku listed."""
MAX_RECORDS_BYTES = 64 * MB
"""The most ``import_games`` reads of one file of game records: a JSON list of them, such as a whole
event's ``export_games`` (a few kB a game)."""
MAX_LOG_BYTES = MAX_BYTES
"""The most ``convert_log`` and ``import_games --format`` read of one log file: the log reader's own
limit (8 MB; a real hanchan is 30–100 kB, and a gzip file is smaller than what it holds)."""


def read_input(path: str, label: str, limit: int) -> bytes:
    """The bytes of ``path``, or of standard input for ``-``: at most ``limit`` of them, so that a huge
    file, a pipe that never ends or ``/dev/zero`` is one line (``LABEL: the file is larger than 8 MB…``),
    never a :class:`MemoryError`. An unreadable file fails naming ``label``."""
    try:
        if path == "-":
            stream = getattr(sys.stdin, "buffer", None)
            if stream is not None:
                data = stream.read(limit + 1)
            else:  # a text stream (call_command's stdin): characters are at least a byte each
                data = sys.stdin.read(limit + 1).encode("utf-8", "surrogateescape")
        else:
            with open(path, "rb") as handle:
                data = handle.read(limit + 1)
    except (OSError, UnicodeError, ValueError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise CommandFailed(f"{label}: cannot read the file: {reason}") from None
    if len(data) > limit:
        raise CommandFailed(
            f"{label}: the file is larger than {limit // MB} MB, the most this command reads of one file"
        )
    return data


def read_source(path: str, *, limit: int = MAX_RECORD_BYTES) -> str:
    """The text of ``path``, or of standard input for ``-`` (UTF-8), at most ``limit`` bytes."""
    data = read_input(path, path, limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CommandFailed(f"{path}: cannot read the file: {exc}") from None


def read_log_bytes(path: str, label: str) -> bytes:
    """The bytes of a game log at ``path``, or of standard input for ``-`` (a log may be gzip: never
    decoded here), at most :data:`MAX_LOG_BYTES`; an unreadable or empty file fails naming ``label``."""
    data = read_input(path, label, MAX_LOG_BYTES)
    if not data:
        raise CommandFailed(f"{label}: the file is empty")
    return data
