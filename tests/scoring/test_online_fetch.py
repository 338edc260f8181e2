"""Tenhou replay links: which are accepted, and fetching their logs from a local fake Tenhou.

No test reaches the internet: ``settings.TENBOU_TENHOU_URL`` points at :mod:`tests.scoring.online_server`
(a thread on 127.0.0.1). The request always goes to that base address with the log id taken from the link,
so a link to any other host is refused before anything is fetched (no SSRF), and a redirect is never
followed.
"""

from __future__ import annotations

import threading
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.engine.logs import read_log
from scoring.online import OnlineError, fetch_tenhou_log, log_id_from_url
from tests.scoring.online_server import (
    BROKEN_ID,
    HUGE_ID,
    MISSING_ID,
    MJLOG,
    MJLOG_ID,
    REDIRECT_ID,
    SLOW_ID,
    TRICKLE_CHUNKED_ID,
    TRICKLE_HEADERS_ID,
    TRICKLE_ID,
    closed_port_url,
    fake_tenhou,
)

ID = "2023061523gm-0089-0000-1a2b3c4d"


@pytest.mark.parametrize(
    "url",
    [
        f"https://tenhou.net/0/?log={ID}",
        f"https://tenhou.net/0/?log={ID}&tw=2",
        f"https://tenhou.net/6/?log={ID}&tw=0&ts=3",
        f"http://tenhou.net/0/?log={ID}",
        f"  https://www.tenhou.net/0/?log={ID}  ",
        f"https://TENHOU.NET/6/?log={ID}",
    ],
)
def test_replay_links_give_their_log_id(url):
    assert log_id_from_url(url) == ID


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("", "is not a link"),
        ("tenhou.net/0/?log=" + ID, "is not a link"),
        ("ftp://tenhou.net/0/?log=" + ID, "is not a link"),
        ("https://evil.example/0/?log=" + ID, "only tenhou.net replay links"),
        ("https://tenhou.net.evil.example/0/?log=" + ID, "only tenhou.net replay links"),
        ("https://tenhou.net@127.0.0.1/0/?log=" + ID, "only tenhou.net replay links"),
        ("http://127.0.0.1:8000/0/?log=" + ID, "only tenhou.net replay links"),
        ("https://game.mahjongsoul.com/?paipu=240301-0f1e2d3c", "Mahjong Soul"),
        ("https://tenhou.net/3/?log=" + ID, "not a Tenhou replay link"),
        ("https://tenhou.net/0/", "not a Tenhou replay link"),
        (f"https://tenhou.net/0/?log={ID}&log={ID}", "not a Tenhou replay link"),
        ("https://tenhou.net/0/?log=../../etc/passwd", "not a Tenhou log id"),
        ("https://tenhou.net/0/?log=2023061523gm-0089-0000-x1a2b3c4d5e6", "is encoded"),
        ("https://tenhou.net/0/?log=" + ID + "%0AHost:evil", "not a Tenhou log id"),
        ("https://[::1/0/?log=" + ID, "is not a link"),
        ("https://tenhou.net/0/?log=" + "a" * 600, "longer than"),
    ],
)
def test_other_links_are_refused_with_the_reason(url, says):
    with pytest.raises(OnlineError) as info:
        log_id_from_url(url)
    assert says in info.value.message


@given(st.text(max_size=300))
def test_any_text_is_a_log_id_or_one_clear_error(text):
    try:
        log_id = log_id_from_url(text)
    except OnlineError as exc:
        assert exc.message and "\n" not in exc.message
    else:
        assert len(log_id) == len(ID) and "/" not in log_id


def test_a_log_is_fetched_from_the_configured_address(settings):
    with fake_tenhou() as tenhou:
        settings.TENBOU_TENHOU_URL = tenhou.url
        data = fetch_tenhou_log(MJLOG_ID)
    assert data == MJLOG
    assert tenhou.requests == [f"/0/log/?{MJLOG_ID}"]
    (record,) = read_log(data, name=MJLOG_ID)
    assert record.log.id == MJLOG_ID and record.players[1] == "Bob"


@pytest.mark.parametrize(
    ("log_id", "says"),
    [
        (MISSING_ID, "has no log"),
        (BROKEN_ID, "answered HTTP 500"),
        (REDIRECT_ID, "answered HTTP 302"),  # never followed
        (HUGE_ID, "more than 8 MB"),
    ],
)
def test_a_server_that_misbehaves_is_one_clear_error(settings, log_id, says):
    with fake_tenhou() as tenhou:
        settings.TENBOU_TENHOU_URL = tenhou.url
        with pytest.raises(OnlineError) as info:
            fetch_tenhou_log(log_id)
    assert says in info.value.message
    assert tenhou.requests == [f"/0/log/?{log_id}"]  # the redirect's target was not asked for


def test_a_slow_server_times_out(settings):
    with fake_tenhou(delay=3) as tenhou:
        settings.TENBOU_TENHOU_URL = tenhou.url
        settings.TENBOU_TENHOU_TIMEOUT = 0.3
        started = time.monotonic()
        with pytest.raises(OnlineError) as info:
            fetch_tenhou_log(SLOW_ID)
        waited = time.monotonic() - started
    assert "did not answer within 0.3 seconds" in info.value.message
    assert waited < 2.5  # the timeout, not the server's delay


@pytest.mark.parametrize("log_id", [TRICKLE_ID, TRICKLE_CHUNKED_ID, TRICKLE_HEADERS_ID])
def test_a_server_that_trickles_is_cut_off_at_the_deadline(settings, log_id):
    """Issue 23's probe: one byte every 0.1 s never reaches the 0.5 s timeout of a read, and the whole
    log would take minutes. The whole answer — body (with a length, or chunked) or headers — gets twice
    the timeout: 1 s, not the minutes the server would take nor the gunicorn worker's life."""
    with fake_tenhou(trickle=0.1) as tenhou:
        settings.TENBOU_TENHOU_URL = tenhou.url
        settings.TENBOU_TENHOU_TIMEOUT = 0.5
        started = time.monotonic()
        with pytest.raises(OnlineError) as info:
            fetch_tenhou_log(log_id)
        waited = time.monotonic() - started
    assert info.value.message == (
        f"tenhou.net did not send log {log_id} within 1 seconds: try again later, or download the log and "
        "upload the file."
    )
    assert 0.9 < waited < 1.8


def test_the_deadline_does_not_slow_a_normal_fetch(settings):
    """The watch on the deadline ends with the answer: a log served at once comes back at once, and the
    same fetch repeated leaves no timer running behind it."""
    with fake_tenhou() as tenhou:
        settings.TENBOU_TENHOU_URL = tenhou.url
        settings.TENBOU_TENHOU_TIMEOUT = 10
        started = time.monotonic()
        for _ in range(5):
            assert fetch_tenhou_log(MJLOG_ID) == MJLOG
        waited = time.monotonic() - started
    assert waited < 2
    assert not [t for t in threading.enumerate() if isinstance(t, threading.Timer) and t.is_alive()]


def test_an_unreachable_server_is_one_clear_error(settings):
    settings.TENBOU_TENHOU_URL = closed_port_url()
    with pytest.raises(OnlineError) as info:
        fetch_tenhou_log(MJLOG_ID)
    assert "tenhou.net could not be reached" in info.value.message
    assert "upload the file" in info.value.message


def test_only_a_log_id_can_be_fetched(settings):
    with fake_tenhou() as tenhou:
        settings.TENBOU_TENHOU_URL = tenhou.url
        for bad in ("../admin", f"{MJLOG_ID}&x=1", ""):
            with pytest.raises(OnlineError):
                fetch_tenhou_log(bad)
    assert tenhou.requests == []
