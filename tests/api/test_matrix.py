"""Every API operation × every kind of requester: anonymous, a logged-in user, the event's organiser
(a browser session), a key of the event with each scope, a key of another event, a revoked key.

The event is a members-only tournament, the strictest case: what the public may not see answers 404
(never revealing that it exists), a write without a key 401, a key without the scope 403, another
event's key 404, a revoked key 401. Refused writes write nothing.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from api import urls as api_urls
from api.keys import create_key, revoke_key
from league.models import Event, Hanchan
from scoring import services
from scoring.engine import GameRecord
from scoring.models import Hand
from tests.api.conftest import member_user
from tests.conftest import make_event
from tests.tournaments.test_tournament import finish_round, make_tournament
from tournaments import services as tournament

pytestmark = pytest.mark.django_db

ROLES = [
    "anonymous",
    "member",
    "organiser",
    "read_private",
    "enter_results",
    "import_logs",
    "other_event",
    "revoked",
]
READS = [
    "clubs",
    "club",
    "events",
    "event",
    "event_players",
    "event_games",
    "standings",
    "stages",
    "stage_standings",
    "final_ranking",
    "ratings",
    "rounds",
    "seating",
    "round_clock",
    "clock",
    "game",
    "player",
]
WRITES = {"hands": "enter_results", "final_scores": "enter_results", "imports": "import_logs"}
DOCS = {"schema", "docs", "redoc"}


def test_the_matrix_covers_every_api_url():
    names = {p.name for p in api_urls.urlpatterns} - DOCS
    assert names == set(READS) | set(WRITES)


def expected_read(name: str, role: str) -> int:
    if role == "revoked":
        return 401
    if name in ("clubs", "club", "events"):
        return 200
    if role in ("member", "organiser"):
        return 200
    if role == "read_private" and name != "player":  # a key reads its event, not players' own pages
        return 200
    return 404


def expected_write(name: str, role: str) -> int:
    if role in ("anonymous", "member", "organiser", "revoked"):
        return 401
    if role == "other_event":
        return 404
    return 201 if WRITES[name] == role else 403


@pytest.fixture
def day(club, organiser):  # type: ignore[no-untyped-def]
    cup = make_tournament(club, 8, visibility=Event.Visibility.MEMBERS)
    tournament.seat_tournament(event=cup, rounds=2, user=organiser)
    finish_round(cup, 1, organiser)
    players = [r.player for r in cup.registrations.select_related("player").order_by("pk")[:4]]
    hands = services.start_game(event=cup, players=players, user=organiser)
    paper = services.start_game(event=cup, players=players, user=organiser, entry_mode="final_scores")
    other = make_event(club, slug="elsewhere")
    secrets = {
        scope: create_key(event=cup, name=scope, scopes=[scope], user=organiser).secret
        for scope in ("read_private", "enter_results", "import_logs")
    }
    secrets["other_event"] = create_key(
        event=other, name="other", scopes=["read_private", "enter_results", "import_logs"], user=organiser
    ).secret
    revoked = create_key(
        event=cup, name="old", scopes=["read_private", "enter_results", "import_logs"], user=organiser
    )
    revoke_key(key=revoked.key, user=organiser)
    secrets["revoked"] = revoked.secret
    return {
        "cup": cup,
        "game": Hanchan.objects.filter(event=cup, round_number=1).first(),
        "player": players[0],
        "hands": hands,
        "paper": paper,
        "secrets": secrets,
    }


def client_for(role: str, day, organiser) -> APIClient:  # type: ignore[no-untyped-def]
    client = APIClient()
    if role == "member":
        client.force_login(member_user())
    elif role == "organiser":
        client.force_login(organiser)
    elif role in day["secrets"]:
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {day['secrets'][role]}")
    return client


def read_args(name: str, day) -> list:  # type: ignore[no-untyped-def]
    slug = day["cup"].slug
    return {
        "clubs": [],
        "club": [day["cup"].club.slug],
        "events": [],
        "game": [day["game"].pk],
        "player": [day["player"].pk],
        "seating": [slug, 1],
        "stage_standings": [slug, 1],
        "round_clock": [slug, 1],
    }.get(name, [slug])


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("name", READS)
def test_reads(day, organiser, settings, name, role):  # type: ignore[no-untyped-def]
    settings.API_RATE = "100000/m"
    client = client_for(role, day, organiser)
    response = client.get(reverse(f"api:{name}", args=read_args(name, day)), HTTP_ACCEPT="application/json")
    assert response.status_code == expected_read(name, role)
    if name == "events" and role != "revoked":
        listed = day["cup"].slug in {e["slug"] for e in response.json()["results"]}
        assert listed == (role in ("member", "organiser", "read_private"))


def write_call(name: str, day) -> tuple[str, dict]:  # type: ignore[no-untyped-def]
    cup = day["cup"]
    if name == "hands":
        body = {"hand": {"result": "tsumo", "winner": 1, "han": 3, "fu": 30}, "entry_key": "k1"}
        return reverse("api:hands", args=[day["hands"].pk]), body
    if name == "final_scores":
        body = {"scores": [40000, 32000, 28000, 20000], "entry_key": "k2"}
        return reverse("api:final_scores", args=[day["paper"].pk]), body
    names = [p.display_name for p in (r.player for r in cup.registrations.select_related("player")[:4])]
    record = GameRecord(rules=cup.rules, players=tuple(names)).to_dict()
    record.update(hands=[], final_scores=[40000, 32000, 28000, 20000])
    return reverse("api:imports", args=[cup.slug]), {"records": [record]}


def written(day) -> tuple:  # type: ignore[no-untyped-def]
    paper = Hanchan.objects.get(pk=day["paper"].pk)
    return Hand.objects.filter(hanchan=day["hands"]).count(), paper.version, Hanchan.objects.count()


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("name", list(WRITES))
def test_writes(day, organiser, settings, name, role):  # type: ignore[no-untyped-def]
    settings.API_RATE = "100000/m"
    client = client_for(role, day, organiser)
    url, body = write_call(name, day)
    before = written(day)
    response = client.post(url, body, format="json")
    assert response.status_code == expected_write(name, role), response.content
    if response.status_code != 201:
        assert written(day) == before
