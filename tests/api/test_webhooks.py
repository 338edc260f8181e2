"""Webhooks: announced from the lower layers' signals in the change's own transaction, delivered by the
worker, signed (checked here with an independent HMAC), retried with backoff, logged; never sent to a
private, loopback or link-local address — refused at registration and again at delivery after DNS."""

from __future__ import annotations

import hashlib
import hmac
import http.server
import json
import threading
from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.db import transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from api import webhooks
from api.models import Delivery, Webhook
from api.tasks import WEBHOOKS
from background.models import Pending
from league.models import HistoryEntry
from scoring import services
from tests.tournaments.test_tournament import make_tournament
from tournaments import rounds
from tournaments import services as tournament

pytestmark = pytest.mark.django_db

DNS = {
    "hooks.example.org": ["93.184.216.34"],
    "loopback.example.org": ["127.0.0.1"],
    "private.example.org": ["10.1.2.3"],
    "metadata.example.org": ["169.254.169.254"],
    "v6.example.org": ["::1"],
    "mapped.example.org": ["::ffff:127.0.0.1"],
    "mixed.example.org": ["93.184.216.34", "192.168.1.10"],
    "shared.example.org": ["100.64.0.1"],
}


@pytest.fixture(autouse=True)
def fake_dns(monkeypatch):
    monkeypatch.setattr(webhooks, "resolve", lambda host, port: DNS.get(host, []))


@pytest.fixture
def sent(monkeypatch):
    """What would have gone over the network (and the status the receiver answers)."""
    calls: list[dict] = []
    answer = {"status": 204}

    def post(scheme, host, address, port, path, body, headers):  # type: ignore[no-untyped-def]
        calls.append({"host": host, "address": address, "path": path, "body": body, "headers": headers})
        if isinstance(answer["status"], Exception):
            raise answer["status"]
        return answer["status"]

    monkeypatch.setattr(webhooks, "post", post)
    return calls, answer


def verify(secret: str, headers: dict, body: bytes) -> dict:
    """A receiver's check, written independently of Tenbou's code: t and v1 from the header, the HMAC of
    "t.body" recomputed with the shared secret, compared in constant time."""
    fields = dict(part.split("=", 1) for part in headers["Tenbou-Signature"].split(","))
    expected = hmac.new(secret.encode(), fields["t"].encode() + b"." + body, hashlib.sha256).hexdigest()
    assert hmac.compare_digest(expected, fields["v1"])
    assert abs(int(fields["t"]) - timezone.now().timestamp()) < 60
    return json.loads(body)


@pytest.mark.parametrize(
    "host", ["loopback", "private", "metadata", "v6", "mapped", "mixed", "shared", "nowhere"]
)
def test_private_addresses_are_refused_at_registration(event, organiser, host):
    with pytest.raises(ValidationError) as refused:
        webhooks.register(
            event=event, url=f"https://{host}.example.org/hook", kinds=["results.changed"], user=organiser
        )
    assert "url" in refused.value.message_dict
    assert not Webhook.objects.exists()


@pytest.mark.parametrize(
    "url", ["ftp://hooks.example.org/", "https://user:pw@hooks.example.org/", "https://"]
)
def test_other_urls_are_refused(event, organiser, url):
    with pytest.raises(ValidationError):
        webhooks.register(event=event, url=url, kinds=["results.changed"], user=organiser)


def test_a_finished_game_is_delivered_signed(event, players, organiser, sent):
    calls, _ = sent
    hook, secret = webhooks.register(
        event=event, url="https://hooks.example.org/tenbou?x=1", kinds=["results.changed"], user=organiser
    )
    game = services.start_game(event=event, players=players[:4], user=organiser, entry_mode="final_scores")
    services.record_final_scores(hanchan=game, scores=[40000, 32000, 28000, 20000], user=organiser)
    (delivery,) = Delivery.objects.all()
    assert Pending.objects.filter(kind="webhook", key=str(delivery.pk)).exists()
    assert WEBHOOKS.drain() == 1
    (call,) = calls
    assert call["address"] == "93.184.216.34" and call["host"] == "hooks.example.org"
    assert call["path"] == "/tenbou?x=1"
    payload = verify(secret, call["headers"], call["body"])
    assert payload["kind"] == "results.changed" and payload["data"] == {"games": [game.pk]}
    assert payload["event"] == event.slug and call["headers"]["Tenbou-Delivery"] == str(delivery.pk)
    delivery.refresh_from_db()
    assert delivery.status == "delivered" and delivery.attempts == 1 and delivery.response_status == 204
    assert WEBHOOKS.drain() == 0 and len(calls) == 1  # delivered once
    with pytest.raises(AssertionError):
        verify("another secret", call["headers"], call["body"])


def test_a_rolled_back_change_announces_nothing(event, players, organiser, sent):
    webhooks.register(
        event=event, url="https://hooks.example.org/", kinds=["results.changed"], user=organiser
    )
    game = services.start_game(event=event, players=players[:4], user=organiser, entry_mode="final_scores")
    with pytest.raises(RuntimeError), transaction.atomic():
        services.record_final_scores(hanchan=game, scores=[40000, 32000, 28000, 20000], user=organiser)
        raise RuntimeError("the request failed after the save")
    assert not Delivery.objects.exists() and not Pending.objects.filter(kind="webhook").exists()


def test_the_tournament_day_is_announced(club, organiser, sent):
    calls, _ = sent
    cup = make_tournament(club, 8)
    kinds = ["seating.published", "round.started", "round.ended", "standings.released"]
    webhooks.register(event=cup, url="https://hooks.example.org/", kinds=kinds, user=organiser)
    tournament.seat_tournament(event=cup, rounds=2, user=organiser)
    rounds.open_round(event=cup, number=1, user=organiser)
    rounds.close_round(event=cup, number=1, user=organiser)
    assert [d.kind for d in Delivery.objects.order_by("pk")] == [
        "seating.published",
        "round.started",
        "round.ended",
    ]
    assert Delivery.objects.order_by("pk").first().payload["data"] == {"rounds": [1, 2]}


def test_failures_are_retried_with_backoff_then_given_up(event, players, organiser, sent):
    calls, answer = sent
    answer["status"] = 503
    webhooks.register(
        event=event, url="https://hooks.example.org/", kinds=["results.changed"], user=organiser
    )
    game = services.start_game(event=event, players=players[:4], user=organiser, entry_mode="final_scores")
    services.record_final_scores(hanchan=game, scores=[40000, 32000, 28000, 20000], user=organiser)
    delivery = Delivery.objects.get()
    WEBHOOKS.drain()
    delivery.refresh_from_db()
    row = Pending.objects.get(kind="webhook")
    assert delivery.status == "pending" and delivery.attempts == 1 and delivery.response_status == 503
    assert row.run_after > timezone.now() + timedelta(seconds=20)  # not before the backoff's delay
    assert WEBHOOKS.drain() == 0 and len(calls) == 1
    delays = []
    answer["status"] = OSError("connection refused")
    for _ in range(WEBHOOKS.attempts - 1):
        row = Pending.objects.get(kind="webhook")
        delays.append(row.run_after - timezone.now())
        Pending.objects.filter(pk=row.pk).update(run_after=timezone.now() - timedelta(seconds=1))
        WEBHOOKS.drain()
    assert delays == sorted(delays)  # each wait longer than the one before
    delivery.refresh_from_db()
    assert delivery.status == "failed" and delivery.attempts == WEBHOOKS.attempts
    assert "OSError" in delivery.error and Pending.objects.get(kind="webhook").failed


def test_a_name_that_moves_to_a_private_address_is_refused_at_delivery(event, players, organiser, sent):
    calls, _ = sent
    webhooks.register(
        event=event, url="https://hooks.example.org/", kinds=["results.changed"], user=organiser
    )
    DNS["hooks.example.org"], before = ["169.254.169.254"], DNS["hooks.example.org"]
    try:
        game = services.start_game(
            event=event, players=players[:4], user=organiser, entry_mode="final_scores"
        )
        services.record_final_scores(hanchan=game, scores=[40000, 32000, 28000, 20000], user=organiser)
        WEBHOOKS.drain()
    finally:
        DNS["hooks.example.org"] = before
    assert calls == []
    delivery = Delivery.objects.get()
    assert delivery.status == "failed" and "169.254.169.254" in delivery.error


def test_the_request_goes_to_the_checked_address_with_the_host_named(event):
    """``post`` itself, against a real server on this machine: the connection goes to the address given
    (whatever the name resolves to), the Host header names the host, and the body is what was signed."""
    received: dict = {}

    class Receiver(http.server.BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802
            received["host"] = self.headers["Host"]
            received["body"] = self.rfile.read(int(self.headers["Content-Length"]))
            received["signature"] = self.headers["Tenbou-Signature"]
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args):  # type: ignore[no-untyped-def]
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Receiver)
    thread = threading.Thread(target=server.handle_request, daemon=True)
    thread.start()
    body = b'{"kind":"round.started"}'
    headers = {
        "Content-Type": "application/json",
        "Tenbou-Signature": webhooks.signature("s3cret", 1700000000, body),
    }
    status = webhooks.post("http", "hooks.example.org", "127.0.0.1", server.server_port, "/in", body, headers)
    thread.join(5)
    server.server_close()
    assert status == 200 and received["body"] == body
    assert received["host"].startswith("hooks.example.org")
    expected = hmac.new(b"s3cret", b"1700000000." + body, hashlib.sha256).hexdigest()
    assert received["signature"] == f"t=1700000000,v1={expected}"


def test_the_page_registers_shows_the_secret_once_and_revokes(event, organiser, sent):
    page = Client()
    page.force_login(organiser)
    url = reverse("api_manage:webhooks", args=[event.slug])
    made = page.post(url, {"url": "https://hooks.example.org/in", "kinds": ["results.changed"]})
    assert made.status_code == 201
    hook = Webhook.objects.get()
    assert hook.secret in made.content.decode()
    assert hook.secret not in page.get(url).content.decode()
    assert HistoryEntry.objects.filter(action="webhook registered").exists()
    refused = page.post(url, {"url": "https://loopback.example.org/", "kinds": ["results.changed"]})
    assert refused.status_code == 422 and "127.0.0.1" in refused.content.decode()
    revoke = reverse("api_manage:webhook_revoke", args=[event.slug, hook.pk])
    assert page.get(revoke).status_code == 303
    assert page.post(revoke).status_code == 302
    hook.refresh_from_db()
    assert hook.revoked_at is not None
    assert webhooks.announce(event.pk, "results.changed", {}) == []  # nothing more for a revoked one


def test_results_of_hidden_rounds_are_not_announced_until_the_release(club, organiser, sent):
    from league.models import Hanchan
    from tests.tournaments.test_tournament import finish_round
    from tournaments import reveal

    cup = make_tournament(club, 8, standings_hidden_after_round=1)
    tournament.seat_tournament(event=cup, rounds=2, user=organiser)
    kinds = ["results.changed", "standings.released"]
    webhooks.register(event=cup, url="https://hooks.example.org/", kinds=kinds, user=organiser)
    finish_round(cup, 1, organiser)
    shown = sorted(Hanchan.objects.filter(event=cup, round_number=1).values_list("pk", flat=True))
    assert sorted(g for d in Delivery.objects.all() for g in d.payload["data"]["games"]) == shown
    finish_round(cup, 2, organiser)
    assert Delivery.objects.filter(kind="results.changed").count() == len(shown)  # nothing of round 2
    reveal.release_standings(event=cup, user=organiser)
    assert Delivery.objects.filter(kind="standings.released").count() == 1
