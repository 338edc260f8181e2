"""A local stand-in for tenhou.net, so that no test reaches the internet.

It answers ``GET /0/log/?<log id>`` (Tenhou's mjlog download) in a thread, on a free port of 127.0.0.1:
the logs it was given, and a few ids that misbehave on purpose — slower than any timeout, a redirect to
another address, an answer far too large, an error status, and answers that trickle in one byte at a
time (the body, chunked or not, or the headers), each byte well within the timeout but the whole never
ending. ``requests`` records every path asked for, so
a test can check what was (and was not) fetched.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

FIXTURES = Path(__file__).resolve().parent / "logs" / "fixtures"
MJLOG = (FIXTURES / "tenhou-tonpuu-pao.xml").read_bytes()
MJLOG_ID = "2023080212gm-00e1-0000-5e6f7a8b"
SLOW_ID = "2023080212gm-00e1-0000-51075105"
REDIRECT_ID = "2023080212gm-00e1-0000-2ed12ec7"
HUGE_ID = "2023080212gm-00e1-0000-b16b16b1"
BROKEN_ID = "2023080212gm-00e1-0000-5e55e500"
NOT_A_LOG_ID = "2023080212gm-00e1-0000-00000bad"
MISSING_ID = "2023080212gm-00e1-0000-00000404"
TRICKLE_ID = "2023080212gm-00e1-0000-7c1c7c1c"
TRICKLE_HEADERS_ID = "2023080212gm-00e1-0000-7c1c4ead"
TRICKLE_CHUNKED_ID = "2023080212gm-00e1-0000-7c1cc4ed"


class FakeTenhou(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, logs: dict[str, bytes], delay: float, trickle: float) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.logs = logs
        self.delay = delay
        self.trickle = trickle
        self.requests: list[str] = []

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


class _Handler(BaseHTTPRequestHandler):
    server: FakeTenhou

    def log_message(self, format, *args):  # noqa: A002 - the base class's signature
        pass  # quiet test output

    def do_GET(self) -> None:  # noqa: N802 - the base class's name
        self.server.requests.append(self.path)
        path, _, log_id = self.path.partition("?")
        if path != "/0/log/":
            return self._answer(404, b"not found")
        if log_id == SLOW_ID:
            time.sleep(self.server.delay)
            return self._answer(200, MJLOG)
        if log_id == REDIRECT_ID:
            self.send_response(302)
            self.send_header(
                "Location", f"http://127.0.0.1:{self.server.server_address[1]}/0/log/?{MJLOG_ID}"
            )
            self.end_headers()
            return None
        if log_id == HUGE_ID:
            return self._answer(200, b"<" + b" " * (9 * 1024 * 1024))
        if log_id == BROKEN_ID:
            return self._answer(500, b"oops")
        if log_id in (TRICKLE_ID, TRICKLE_HEADERS_ID, TRICKLE_CHUNKED_ID):
            return self._trickle(log_id)
        if log_id == NOT_A_LOG_ID:
            return self._answer(200, b"<html><body>no such log</body></html>")
        if log_id in self.server.logs:
            return self._answer(200, self.server.logs[log_id])
        return self._answer(404, b"no such log")

    def _trickle(self, log_id: str) -> None:
        """The log one byte every ``server.trickle`` seconds — after headers announcing its length, or
        chunked one byte a chunk — or the headers themselves byte by byte, until the client leaves."""
        if log_id == TRICKLE_HEADERS_ID:
            head, body, chunked = b"HTTP/1.1 200 OK\r\nX-Slow: ", b"a" * len(MJLOG), False
        elif log_id == TRICKLE_CHUNKED_ID:
            head, body, chunked = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", MJLOG, True
        else:
            head, body, chunked = b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(MJLOG), MJLOG, False
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            self.wfile.write(head)
            for byte in body:
                piece = bytes([byte])
                self.wfile.write(b"1\r\n" + piece + b"\r\n" if chunked else piece)
                self.wfile.flush()
                time.sleep(self.server.trickle)
        self.close_connection = True

    def _answer(self, status: int, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "text/xml")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        # The client may give up (the size limit, the timeout): as Tenhou would see it.
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            self.wfile.write(body)


@contextmanager
def fake_tenhou(
    logs: dict[str, bytes] | None = None, *, delay: float = 2.0, trickle: float = 0.1
) -> Iterator[FakeTenhou]:
    """A running fake Tenhou serving ``logs`` (log id → body; the pao mjlog under :data:`MJLOG_ID`)."""
    server = FakeTenhou({MJLOG_ID: MJLOG, **(logs or {})}, delay, trickle)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def closed_port_url() -> str:
    """An address nothing listens on (a port just released): a connection there is refused."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), BaseHTTPRequestHandler)
    port = server.server_address[1]
    server.server_close()
    return f"http://127.0.0.1:{port}"
