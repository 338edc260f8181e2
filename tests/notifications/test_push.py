"""Web Push: a push message is encrypted for the browser's key pair (RFC 8291, aes128gcm) and signed
with the site's VAPID key; the test is the browser (it decrypts with its private key) and the push service
(mocked at the HTTP level: a requests transport adapter). Sent by the worker, never in the request; a
subscription the push service says is gone (404, 410) is removed."""

from __future__ import annotations

import base64
import json

import http_ece
import pytest
import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core.management import call_command
from django.test import Client

from background.worker import run_ready
from notifications import push
from notifications.models import Push, PushSubscription
from notifications.notify import notify
from notifications.preferences import mute
from tests.registration.conftest import opening, tournament  # noqa: F401 -- the personal page's event

pytestmark = pytest.mark.django_db

ENDPOINT = "https://push.example.net/send/abc123"


class PushService(requests.adapters.BaseAdapter):
    """A push service at the HTTP level: records each request, answers ``status``."""

    def __init__(self, status: int = 201) -> None:
        super().__init__()
        self.status = status
        self.requests: list[requests.PreparedRequest] = []

    def send(self, request, **_kwargs):  # noqa: ANN001, ANN201 -- requests' adapter interface
        self.requests.append(request)
        response = requests.Response()
        response.status_code = self.status
        response.reason = "Gone" if self.status == 410 else "Created"
        response.request = request
        response.url = request.url
        response._content = b""
        return response

    def close(self) -> None:
        pass


@pytest.fixture
def vapid(settings):
    settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY = push.make_keys()
    settings.VAPID_SUBJECT = "mailto:admin@example.org"
    return settings


@pytest.fixture
def service(monkeypatch):
    service = PushService()

    def session() -> requests.Session:
        made = requests.Session()
        made.mount("https://", service)
        return made

    monkeypatch.setattr(push, "session", session)
    return service


@pytest.fixture
def browser():
    """The browser's side of a subscription: its P-256 key pair and its 16-byte auth secret."""
    key = ec.generate_private_key(ec.SECP256R1())
    auth = b"0123456789abcdef"
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return {"key": key, "auth": auth, "p256dh": push.b64url(public), "auth_b64": push.b64url(auth)}


def _subscribe(browser, address="ann@example.org"):
    return push.subscribe(
        address=address, endpoint=ENDPOINT, p256dh=browser["p256dh"], auth=browser["auth_b64"], language="en"
    )


def _notify(key="round:1:1"):
    notify(
        key=key,
        kind="round",
        to="ann@example.org",
        language="fr",
        template="registration/email/round_started",
        context={"name": "Ann", "event": "Lyon Open", "round": 2, "table": 3, "seat": 1, "personal_url": "x"},
        url="https://tenbou.example/registration/t/",
    )


def test_a_push_is_encrypted_for_the_browser_and_signed_by_the_site(vapid, service, browser):
    _subscribe(browser)
    _notify()
    assert service.requests == []  # queued: the worker sends it
    run_ready()
    (sent,) = service.requests
    assert sent.url == ENDPOINT and sent.method == "POST"
    assert sent.headers["Content-Encoding"] == "aes128gcm"
    assert int(sent.headers["TTL"]) == push.TTL
    scheme, _, params = sent.headers["Authorization"].partition(" ")
    assert scheme == "vapid" and f"k={vapid.VAPID_PUBLIC_KEY}" in params
    # The browser decrypts with its private key and auth secret (RFC 8291).
    clear = http_ece.decrypt(
        sent.body, private_key=browser["key"], auth_secret=browser["auth"], version="aes128gcm"
    )
    message = json.loads(clear)
    assert message["title"] == "La manche 2 commence : table 3"  # in the recipient's language
    assert "Sud" in message["body"]
    assert message["url"] == "https://tenbou.example/registration/t/"
    assert Push.objects.get().sent_at is not None
    run_ready()
    _notify()  # the same key again: nothing more
    run_ready()
    assert len(service.requests) == 1


def test_a_subscription_the_push_service_says_is_gone_is_removed(vapid, service, browser):
    _subscribe(browser)
    service.status = 410
    _notify()
    run_ready()
    assert len(service.requests) == 1
    assert not PushSubscription.objects.exists() and not Push.objects.exists()


def test_a_muted_kind_is_not_pushed_and_no_keys_no_push(settings, vapid, service, browser):
    _subscribe(browser)
    mute("ann@example.org", "round")
    _notify()
    assert not Push.objects.exists()
    settings.VAPID_PRIVATE_KEY = ""
    _notify("round:1:2")
    run_ready()
    assert service.requests == []


def test_the_vapid_keys_command_makes_a_usable_pair(capsys):
    call_command("vapid_keys")
    lines = dict(line.split("=", 1) for line in capsys.readouterr().out.split())
    private = base64.urlsafe_b64decode(lines["VAPID_PRIVATE_KEY"] + "==")
    public = base64.urlsafe_b64decode(lines["VAPID_PUBLIC_KEY"] + "=")
    key = ec.derive_private_key(int.from_bytes(private, "big"), ec.SECP256R1())
    assert (
        key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        == public
    )


def test_the_service_worker_is_served_from_the_root():
    response = Client().get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert b"showNotification" in response.content


def test_the_personal_page_subscribes_its_browser(vapid, tournament, opening, browser):  # noqa: F811
    from registration import services

    signup = services.sign_up(event=tournament, name="Ann", email="Ann@Example.org")
    client = Client()
    page = client.get(signup.get_absolute_url())
    assert b'id="push-form"' in page.content and vapid.VAPID_PUBLIC_KEY.encode() in page.content
    assert b"notifications/push.js" in page.content and b"<script>" not in page.content
    url = f"{signup.get_absolute_url()}push/"
    junk = client.post(url, {"endpoint": "http://evil/", "p256dh": "x", "auth": "y"})
    assert junk.status_code == 422 and not PushSubscription.objects.exists()
    done = client.post(url, {"endpoint": ENDPOINT, "p256dh": browser["p256dh"], "auth": browser["auth_b64"]})
    assert done.status_code == 201
    again = client.post(url, {"endpoint": ENDPOINT, "p256dh": browser["p256dh"], "auth": browser["auth_b64"]})
    assert again.status_code == 201
    assert list(PushSubscription.objects.values_list("address", flat=True)) == ["ann@example.org"]
    assert client.get(url).status_code == 303
    assert Client().post("/registration/nope/push/", {"endpoint": ENDPOINT}).status_code == 404
