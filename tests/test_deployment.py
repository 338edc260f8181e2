"""Deployment hardening: the client address behind a proxy, the security headers, gunicorn's banner.

- django-axes locks a username+address pair: behind a TLS proxy every request comes from the proxy, so
  the address must be read from X-Forwarded-For, but only as far as ``TRUSTED_PROXY_COUNT`` proxies vouch
  for it (a client can write any X-Forwarded-For it likes).
- Every page carries a Content-Security-Policy allowing only the site's own scripts, and a
  Permissions-Policy; no rendered page has an inline script, event handler or ``javascript:`` URL that
  the policy would block.
- gunicorn, started with config/gunicorn.conf.py, does not announce itself as ``Server: gunicorn``.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.urls import Resolver404, resolve, reverse

from tests.scoring.commands import run

ROOT = Path(__file__).resolve().parent.parent
LOGIN = "/accounts/login/"


# -- the client address behind a proxy -----------------------------------------------------------------


def fail_login(client, username: str, **meta: str) -> None:
    response = client.post(LOGIN, {"username": username, "password": "wrong-password"}, **meta)
    assert response.status_code != 302


def settings_in_subprocess(env: dict[str, str], expression: str) -> str:
    """``expression`` evaluated in config.settings loaded fresh with ``env`` (it reads the environment
    once, at import)."""
    full_env = {k: v for k, v in os.environ.items() if k not in {"TRUSTED_PROXY_COUNT", "DEBUG"}}
    full_env.update(env)
    code = f"import config.settings as s; print(repr({expression}))"
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=full_env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_no_proxy_is_trusted_by_default_even_in_production():
    """Without TRUSTED_PROXY_COUNT, X-Forwarded-Proto is ignored too: anyone could claim HTTPS."""
    env = {"DEBUG": "false", "SECRET_KEY": "x" * 50, "ALLOWED_HOSTS": "tenbou.example.org"}
    assert settings_in_subprocess(env, "s.TRUSTED_PROXY_COUNT") == "0"
    assert settings_in_subprocess(env, "getattr(s, 'SECURE_PROXY_SSL_HEADER', None)") == "None"


def test_one_trusted_proxy_enables_the_forwarded_headers():
    env = {"DEBUG": "false", "SECRET_KEY": "x" * 50, "TRUSTED_PROXY_COUNT": "1"}
    assert settings_in_subprocess(env, "s.TRUSTED_PROXY_COUNT") == "1"
    assert settings_in_subprocess(env, "s.SECURE_PROXY_SSL_HEADER") == repr(
        ("HTTP_X_FORWARDED_PROTO", "https")
    )
    assert settings_in_subprocess(env, "s.AXES_CLIENT_IP_CALLABLE") == repr("config.proxy.client_ip")


def test_without_a_trusted_proxy_a_forged_forwarded_for_does_not_change_the_locked_address(
    client, organiser, settings
):
    """A client rotating forged X-Forwarded-For values is still locked by its real address."""
    settings.TRUSTED_PROXY_COUNT = 0
    for n in range(settings.AXES_FAILURE_LIMIT):
        fail_login(client, "olga", REMOTE_ADDR="192.0.2.10", HTTP_X_FORWARDED_FOR=f"198.51.100.{n + 1}")
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"192.0.2.10"}
    # Right password, yet another forged header: still locked.
    response = client.post(
        LOGIN,
        {"username": "olga", "password": "organiser-pass-123"},
        REMOTE_ADDR="192.0.2.10",
        HTTP_X_FORWARDED_FOR="203.0.113.99",
    )
    assert response.status_code != 302
    assert "_auth_user_id" not in client.session


def test_behind_one_proxy_two_clients_are_locked_separately(client, organiser, settings):
    """Behind the proxy (every request from 127.0.0.1), one client's wrong passwords lock only that client.

    The proxy appends the address it saw; the left entries are whatever the client sent and are ignored.
    """
    settings.TRUSTED_PROXY_COUNT = 1
    proxy = {"REMOTE_ADDR": "127.0.0.1"}
    for _ in range(settings.AXES_FAILURE_LIMIT):
        fail_login(client, "olga", HTTP_X_FORWARDED_FOR="10.9.9.9, 203.0.113.5", **proxy)
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"203.0.113.5"}

    locked = client.post(
        LOGIN,
        {"username": "olga", "password": "organiser-pass-123"},
        HTTP_X_FORWARDED_FOR="203.0.113.5",
        **proxy,
    )
    assert locked.status_code != 302

    other = client.post(
        LOGIN,
        {"username": "olga", "password": "organiser-pass-123"},
        HTTP_X_FORWARDED_FOR="198.51.100.7",
        **proxy,
    )
    assert other.status_code == 302, "a second client behind the proxy must not share the lockout"


@pytest.mark.parametrize(
    ("count", "forwarded", "expected"),
    [
        (0, "198.51.100.1", "192.0.2.10"),
        (1, "", "192.0.2.10"),  # did not pass through the proxy: the connecting address
        (1, "198.51.100.1", "198.51.100.1"),
        (1, "6.6.6.6, 198.51.100.1", "198.51.100.1"),
        (2, "6.6.6.6, 198.51.100.1, 10.0.0.2", "198.51.100.1"),
        (2, "10.0.0.2", "192.0.2.10"),  # fewer entries than proxies
        (1, "not-an-address", "192.0.2.10"),  # never a value the IP column cannot hold
        (1, "198.51.100.1:51234", "198.51.100.1"),
        (1, "[2001:db8::1]:443", "2001:db8::1"),
        (1, "2001:db8::2", "2001:db8::2"),
    ],
)
def test_client_address_is_the_nth_forwarded_entry_from_the_right(rf, settings, count, forwarded, expected):
    from config.proxy import client_ip

    settings.TRUSTED_PROXY_COUNT = count
    request = rf.get("/", REMOTE_ADDR="192.0.2.10", HTTP_X_FORWARDED_FOR=forwarded)
    assert client_ip(request) == expected


# -- Content-Security-Policy, Permissions-Policy, no inline script --------------------------------------


class InlineCode(HTMLParser):
    """Collects what a ``script-src 'self'`` policy would block: inline scripts, on* handlers, js: URLs."""

    NON_SCRIPT_TYPES = {"application/json", "application/ld+json"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.problems: list[str] = []
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        script_type = (values.get("type") or "").lower()
        if tag == "script" and not values.get("src") and script_type not in self.NON_SCRIPT_TYPES:
            self.problems.append(f"inline <script> {attrs}")
        for name, value in attrs:
            if name.startswith("on"):
                self.problems.append(f"<{tag} {name}={value!r}>")
            if name in {"href", "src", "action", "formaction"} and (value or "").strip().lower().startswith(
                "javascript:"
            ):
                self.problems.append(f"<{tag} {name}={value!r}>")
        if tag == "a" and values.get("href"):
            self.links.append(values["href"])

    handle_startendtag = handle_starttag


def crawl(client, start: list[str], limit: int = 400) -> dict[str, tuple[int, list[str]]]:
    """GET every page linked from ``start`` (one URL per route), checking each response's headers and
    HTML. Returns {url: (status, problems)}."""
    seen_routes: set[str] = set()
    queue = list(start)
    results: dict[str, tuple[int, list[str]]] = {}
    while queue and len(results) < limit:
        url = queue.pop(0)
        parts = urlsplit(url)
        if parts.scheme or parts.netloc or not parts.path.startswith("/"):
            continue
        try:
            match = resolve(parts.path)
        except Resolver404:
            continue
        route = f"{match.view_name}|{match.route}"
        if route in seen_routes or match.view_name in {"logout", "admin:logout"}:
            continue
        seen_routes.add(route)
        response = client.get(url)
        problems: list[str] = []
        if "Content-Security-Policy" not in response:
            problems.append("no Content-Security-Policy header")
        elif "script-src 'self'" not in response["Content-Security-Policy"]:
            problems.append(f"weak policy {response['Content-Security-Policy']}")
        if "Permissions-Policy" not in response:
            problems.append("no Permissions-Policy header")
        if response.status_code >= 500:
            problems.append("server error")
        if response.get("Content-Type", "").startswith("text/html") and not response.streaming:
            parser = InlineCode()
            parser.feed(response.content.decode())
            problems.extend(parser.problems)
            queue.extend(parser.links)
        results[url] = (response.status_code, problems)
    return results


@pytest.fixture
def demo(db):
    code, _, err = run("seed_demo")
    assert code == 0, err


def assert_clean(results: dict[str, tuple[int, list[str]]], at_least: int) -> None:
    assert len(results) >= at_least, sorted(results)
    bad = {url: problems for url, (_, problems) in results.items() if problems}
    assert not bad


def test_every_public_page_carries_the_policies_and_no_inline_script(client, demo):
    results = crawl(client, ["/", LOGIN, reverse("league:events")])
    assert_clean(results, at_least=8)
    assert any("/players/" in url for url in results)  # the player page with its inline SVG charts


def test_every_organiser_page_carries_the_policies_and_no_inline_script(client, demo):
    client.force_login(get_user_model().objects.get(username="demo"))
    results = crawl(client, ["/", reverse("league_manage:dashboard")])
    assert_clean(results, at_least=15)
    # The printed seating and score slips, whose Print button was an inline onclick handler.
    assert any(url.endswith("/seating/") for url in results), sorted(results)
    assert any(url.endswith("/slips/") for url in results), sorted(results)


def test_the_admin_carries_the_policies_and_no_inline_script(client, demo):
    client.force_login(get_user_model().objects.create_superuser("root", password="root-pass-123"))
    results = crawl(client, [reverse("admin:index")], limit=120)
    assert_clean(results, at_least=10)


def test_static_files_carry_the_policies_too(client):
    """Whitenoise answers static files before the view middleware: the header middleware runs first."""
    response = client.get("/favicon.ico")
    assert "Content-Security-Policy" in response and "Permissions-Policy" in response


def test_policy_blocks_inline_scripts_and_foreign_origins(client, db):
    policy = client.get("/")["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert directives["script-src"] == "'self'"
    assert directives["default-src"] == "'self'"
    assert "'unsafe-inline'" not in directives["script-src"] and "'unsafe-eval'" not in policy
    assert directives["object-src"] == "'none'" and directives["frame-ancestors"] == "'none'"
    permissions = client.get("/")["Permissions-Policy"]
    assert "camera=()" in permissions and "geolocation=()" in permissions


# -- gunicorn -------------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_gunicorn_with_the_project_config_hides_its_name_and_listens_on_loopback(tmp_path):
    """Started as docs/deployment.md says, gunicorn answers without ``Server: gunicorn``."""
    port = free_port()
    env = {
        **os.environ,
        "GUNICORN_BIND": f"127.0.0.1:{port}",
        "GUNICORN_WORKERS": "1",
        # gunicorn 23+ opens a control socket under $HOME or $XDG_RUNTIME_DIR: keep it private to the test.
        "HOME": str(tmp_path),
        "XDG_RUNTIME_DIR": str(tmp_path),
    }
    env.pop("DJANGO_SETTINGS_MODULE", None)
    gunicorn = Path(sys.executable).with_name("gunicorn")
    process = subprocess.Popen(
        [str(gunicorn), "-c", "config/gunicorn.conf.py", "config.wsgi"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        headers = None
        deadline = time.monotonic() + 30
        while headers is None and time.monotonic() < deadline:
            try:
                # A path no view answers: Django's 404, without touching the database.
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/no-such-page/", timeout=5) as answer:
                    headers = answer.headers
            except urllib.error.HTTPError as error:
                headers = error.headers
            except OSError:
                assert process.poll() is None, "gunicorn did not start"
                time.sleep(0.3)
        assert headers is not None, "gunicorn did not answer"
        assert "gunicorn" not in (headers.get("Server") or "").lower()
        assert headers.get("Server") == "tenbou"
        assert "Content-Security-Policy" in headers and "Permissions-Policy" in headers
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_gunicorn_binds_loopback_by_default():
    namespace: dict[str, object] = {}
    env_backup = os.environ.pop("GUNICORN_BIND", None)
    try:
        exec(compile((ROOT / "config/gunicorn.conf.py").read_text(), "gunicorn.conf.py", "exec"), namespace)
    finally:
        if env_backup is not None:
            os.environ["GUNICORN_BIND"] = env_backup
    assert str(namespace["bind"]).startswith("127.0.0.1:")
