"""Per-event API keys: made on the organiser's page and shown once, stored as a digest, revocable;
reading an event's private data and writing its results through the same services as the pages, with
their idempotency, version checks and history ("API key 'name'"); the rate limit."""

from __future__ import annotations

import hashlib

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from api.keys import create_key, revoke_key
from api.models import ApiKey
from league.models import Event, Hanchan, HistoryEntry
from scoring import services
from scoring.engine import GameRecord
from scoring.models import Hand

pytestmark = pytest.mark.django_db

ALL = [ApiKey.Scope.READ_PRIVATE, ApiKey.Scope.ENTER_RESULTS, ApiKey.Scope.IMPORT_LOGS]


def client_with(secret: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    return client


def test_the_page_shows_a_new_key_once_and_keeps_only_its_digest(event, organiser):
    page = Client()
    page.force_login(organiser)
    url = reverse("api_manage:keys", args=[event.slug])
    made = page.post(url, {"name": "Discord bot", "scopes": ["read_private", "enter_results"]})
    assert made.status_code == 201 and made["Cache-Control"] == "no-store"
    secret = made.context["secret"]
    assert secret.startswith("tb_") and secret in made.content.decode()
    key = ApiKey.objects.get()
    assert key.digest == hashlib.sha256(secret.encode()).hexdigest()
    assert secret not in str(ApiKey.objects.values().get())  # not in any column
    again = page.get(url).content.decode()
    assert secret not in again and f"tb_{key.prefix}_" in again and "Discord bot" in again
    entry = HistoryEntry.objects.filter(action="api key created").get()
    assert "Discord bot" in entry.summary_text and secret not in str(entry.summary_data)


def test_the_page_refuses_a_key_without_a_name_or_a_scope(event, organiser):
    page = Client()
    page.force_login(organiser)
    refused = page.post(reverse("api_manage:keys", args=[event.slug]), {"name": "", "scopes": []})
    assert refused.status_code == 422 and not ApiKey.objects.exists()


def test_a_revoked_key_is_refused_from_the_next_request(event, organiser):
    made = create_key(event=event, name="bot", scopes=ALL, user=organiser)
    client = client_with(made.secret)
    assert client.get(reverse("api:event", args=[event.slug])).status_code == 200
    page = Client()
    page.force_login(organiser)
    revoke_url = reverse("api_manage:key_revoke", args=[event.slug, made.key.pk])
    assert page.get(revoke_url).status_code == 303  # a GET goes to the page, nothing revoked
    assert ApiKey.objects.get().revoked_at is None
    assert page.post(revoke_url).status_code == 302
    assert page.post(revoke_url).status_code == 302  # twice: still revoked, one history entry
    assert HistoryEntry.objects.filter(action="api key revoked").count() == 1
    assert client.get(reverse("api:event", args=[event.slug])).status_code == 401
    assert client_with("tb_nonsense").get(reverse("api:events")).status_code == 401


def test_a_key_reads_its_event_as_the_organisers_do(world, organiser):
    members, cup = world["members"], world["tournament"]
    hidden = Hanchan.objects.filter(event=cup, round_number=2).first()
    reader = client_with(create_key(event=members, name="r", scopes=["read_private"], user=organiser).secret)
    assert reader.get(reverse("api:event", args=[members.slug])).status_code == 200
    players = reader.get(reverse("api:event_players", args=[members.slug])).json()["results"]
    assert all(row["details"] is not None for row in players)
    assert reader.get(reverse("api:game", args=[world["members_game"].pk])).status_code == 200
    assert reader.get(reverse("api:game", args=[hidden.pk])).status_code == 404  # another event's
    cup_reader = client_with(create_key(event=cup, name="r", scopes=["read_private"], user=organiser).secret)
    assert cup_reader.get(reverse("api:game", args=[hidden.pk])).status_code == 200
    games = cup_reader.get(reverse("api:event_games", args=[cup.slug])).json()["results"]
    assert {g["round_number"] for g in games} == {1, 2}
    standings = cup_reader.get(reverse("api:standings", args=[cup.slug]))
    assert "ETag" not in standings  # the versions do not move for hidden rounds: no tag to trust
    writer = client_with(create_key(event=members, name="w", scopes=["enter_results"], user=organiser).secret)
    assert writer.get(reverse("api:event", args=[members.slug])).status_code == 404  # not its scope


def test_a_hand_sent_twice_is_saved_once_and_named_in_the_history(world, organiser):
    game = world["hands_game"]
    secret = create_key(event=game.event, name="Table bot", scopes=["enter_results"], user=organiser).secret
    client = client_with(secret)
    url = reverse("api:hands", args=[game.pk])
    body = {"hand": {"result": "tsumo", "winner": 2, "han": 2, "fu": 30}, "entry_key": "hand-2-abc"}
    first = client.post(url, body, format="json")
    assert first.status_code == 201 and first.json()["already_saved"] is False
    again = client.post(url, body, format="json")
    assert again.status_code == 200 and again.json()["already_saved"] is True
    assert Hand.objects.filter(hanchan=game).count() == 2
    entry = HistoryEntry.objects.filter(hanchan=game).order_by("-at", "-pk").first()
    assert entry.via == "API key 'Table bot'" and entry.user is None
    with translation.override("fr"):
        assert entry.via_label == "clé d’API « Table bot »"
    stale = client.post(url, {**body, "entry_key": "other", "expected_version": 1}, format="json")
    assert stale.status_code == 409 and stale.json()["game_version"] == first.json()["game_version"]
    junk = client.post(url, {"hand": {"result": "ron"}, "entry_key": "x"}, format="json")
    assert junk.status_code == 400 and "hand" in junk.json()
    assert Hand.objects.filter(hanchan=game).count() == 2


def test_final_scores_and_imports(world, organiser, players):
    event = world["league"]
    game = services.start_game(event=event, players=players[:4], user=organiser, entry_mode="final_scores")
    scopes = ["enter_results", "import_logs"]
    secret = create_key(event=event, name="bot", scopes=scopes, user=organiser).secret
    client = client_with(secret)
    url = reverse("api:final_scores", args=[game.pk])
    body = {"scores": [40000, 30000, 30000, 20000], "entry_key": "slip-7"}
    assert client.post(url, body, format="json").status_code == 201
    assert client.post(url, body, format="json").json()["already_saved"] is True
    wrong = client.post(url, {**body, "scores": [1, 2, 3, 4], "entry_key": "slip-8"}, format="json")
    assert wrong.status_code == 400
    record = GameRecord(rules=event.rules, players=("Ann", "Bob", "Cho", "Dan")).to_dict()
    record.update(hands=[], final_scores=[20000, 30000, 30000, 40000])
    imported = client.post(reverse("api:imports", args=[event.slug]), {"records": [record]}, format="json")
    assert imported.status_code == 201
    (new,) = imported.json()["games"]
    assert Hanchan.objects.get(pk=new).status == Hanchan.Status.FINISHED
    assert HistoryEntry.objects.filter(hanchan=new, via="API key 'bot'").exists()


def test_the_rate_limit_answers_429(event, organiser, settings):
    settings.API_RATE = "3/m"
    client = client_with(create_key(event=event, name="bot", scopes=ALL, user=organiser).secret)
    url = reverse("api:event", args=[event.slug])
    answers = [client.get(url).status_code for _ in range(4)]
    assert answers == [200, 200, 200, 429]
    assert APIClient().get(url).status_code == 200  # counted per key: the address without a key has its own


def test_keys_never_appear_in_pages_or_the_history(event, organiser):
    made = create_key(event=event, name="bot", scopes=ALL, user=organiser)
    revoke_key(key=made.key, user=organiser)
    for entry in HistoryEntry.objects.all():
        assert made.secret not in repr(entry.__dict__)
    page = Client()
    page.force_login(organiser)
    assert made.secret not in page.get(reverse("api_manage:keys", args=[event.slug])).content.decode()


def test_another_organisers_event_is_a_404(event, organiser, club):
    other = get_user_model().objects.create_user("oscar", password="x-pass-123456")
    page = Client()
    page.force_login(other)
    assert page.get(reverse("api_manage:keys", args=[event.slug])).status_code == 404
    made = page.post(reverse("api_manage:keys", args=[event.slug]), {"name": "x", "scopes": ["read_private"]})
    assert made.status_code == 404
    assert not ApiKey.objects.exists()
    assert Event.objects.count() == 1


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(keys=st.lists(st.sampled_from(["a", "b", "c", "d", "e"]), min_size=1, max_size=12))
def test_any_sequence_of_resends_saves_each_entry_key_once(event, players, organiser, keys):
    """Whatever a client resends, in whatever order: the first request of each entry key saves a hand
    (201), every later one is "already saved" (200), and the game holds one hand per key, in order."""
    game = services.start_game(event=event, players=players[:4], user=organiser)
    secret = create_key(event=event, name=f"bot-{game.pk}", scopes=["enter_results"], user=organiser).secret
    client = client_with(secret)
    url = reverse("api:hands", args=[game.pk])
    seen: list[str] = []
    for key in keys:
        body = {"hand": {"result": "draw", "tenpai": [0, 1, 2, 3]}, "entry_key": key}
        answer = client.post(url, body, format="json")
        assert answer.status_code == (200 if key in seen else 201)
        assert answer.json()["already_saved"] is (key in seen)
        if key not in seen:
            seen.append(key)
    stored = list(Hand.objects.filter(hanchan=game).order_by("number").values_list("entry_key", flat=True))
    assert stored == seen
