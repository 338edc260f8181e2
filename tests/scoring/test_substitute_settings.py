"""How a substitute's game counts is a setting that decides cached results: once an event has games it
changes only through the rules page's service (scoring/services/rules.py), which replays every game and
moves the results versions on in the same transaction — never around it, from the edit page or the admin.

The game: Sam, a substitute, plays East on behalf of Ann and finishes first with 50 000 (35 000 after
uma under EMA 2016). Credited as played, Ann has 35 000; under a fixed credit of −7 000, she has −7 000.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.urls import reverse

from league import services as league_services
from league.models import Event, Hanchan, Player, Registration
from scoring import services
from scoring.models import HistoryEntry, SeatResult
from scoring.services import rules as rules_service
from scoring.standings import standings
from tests.conftest import make_event
from tests.league.test_views import event_post

pytestmark = pytest.mark.django_db

SCORES = [50000, 30000, 25000, 15000]


@pytest.fixture
def substituted(event, players, organiser) -> Hanchan:
    """A finished game in which the substitute Sam sat East on behalf of Ann."""
    ann, bob, cho, dan = players[:4]
    sam = Player.objects.create(display_name="Sam", club=event.club)
    Registration.objects.create(event=event, player=sam, is_substitute=True)
    game = services.start_game(
        event=event,
        players=[sam, bob, cho, dan],
        on_behalf_of={0: ann},
        user=organiser,
        entry_mode=Hanchan.EntryMode.FINAL_SCORES,
    )
    services.record_final_scores(hanchan=game, scores=SCORES, user=organiser)
    return game


def points_of(event: Event, name: str) -> int:
    fresh = Event.objects.get(pk=event.pk)
    return next(row.points for row in standings(fresh) if row.name == name)


def client_for(user):  # type: ignore[no-untyped-def]
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client


def test_the_rules_service_recomputes_the_credit_and_the_results_versions(event, substituted, organiser):
    assert points_of(event, "Ann") == 35000
    version = Event.objects.get(pk=event.pk).results_version
    fixed = {"substitute_credit": "fixed", "substitute_fixed_result": -7000}
    preview = rules_service.preview_rules_change(event, event.rules, fixed)
    lines = {c.name: (c.points_before, c.points_after) for c in preview.changes}
    assert lines["Ann"] == (35000, -7000) and lines["Bob"] == (5000, 5000)  # Bob moves up a rank
    assert points_of(event, "Ann") == 35000  # a preview saves nothing
    rules_service.change_rules(
        event=event, ruleset=event.rules, substitutes=fixed, user=organiser, reason="EMA ruling"
    )
    assert points_of(event, "Ann") == -7000
    assert SeatResult.objects.get(hanchan=substituted, seat=0).result == -7000
    fresh = Event.objects.get(pk=event.pk)
    assert (fresh.substitute_credit, fresh.substitute_fixed_result) == ("fixed", -7000)
    assert fresh.results_version > version  # the cached pages are keyed anew
    entry = HistoryEntry.objects.get(action="rules changed")
    assert (entry.before["substitute_credit"], entry.after["substitute_credit"]) == ("registered", "fixed")
    assert entry.after["substitute_fixed_result"] == -7000 and entry.reason == "EMA ruling"


def test_update_event_refuses_the_substitute_settings_once_the_event_has_games(event, substituted, organiser):
    with pytest.raises(ValidationError) as info:
        league_services.update_event(
            event=event,
            user=organiser,
            data={"name": "Renamed", "substitute_credit": "fixed", "substitute_fixed_result": -7000},
        )
    assert "rules page" in info.value.message_dict["substitute_credit"][0]
    fresh = Event.objects.get(pk=event.pk)
    assert (fresh.name, fresh.substitute_credit) == ("Autumn League", "registered")  # nothing half-saved
    assert points_of(event, "Ann") == 35000


def test_the_edit_page_hands_the_substitute_settings_to_the_rules_page(event, substituted, organiser):
    client = client_for(organiser)
    edit = reverse("league_manage:event_edit", args=[event.slug])
    data = event_post(name="Autumn League", substitute_credit="fixed", substitute_fixed_result="-7000")
    data["min_games"] = "0"
    response = client.post(edit, data)
    rules_url = reverse("scoring_manage:event_rules", args=[event.slug])
    assert response.status_code == 302 and response.url.startswith(rules_url + "?")
    assert "substitute_credit=fixed" in response.url
    assert points_of(event, "Ann") == 35000  # not applied before the confirmation
    page = client.get(response.url)
    body = page.content.decode()
    assert page.status_code == 200 and 'id="standings-diff"' in body
    assert {c.name: c.points_after for c in page.context["preview"].changes}["Ann"] == -7000
    confirm = dict(page.context["form"].rules_items())
    confirm.update({"pao_yaku": ["daisangen", "daisuushii"], "confirm": "1", "reason": "EMA ruling"})
    done = client.post(rules_url, confirm)
    assert done.status_code == 302, done.content.decode()[:2000]
    assert points_of(event, "Ann") == -7000


@pytest.fixture
def staff_client(client):
    user = get_user_model().objects.create_superuser("root", "root@example.org", "root-pass-123")
    client.force_login(user)
    return client


def admin_data(event: Event, **changes: object) -> dict[str, object]:
    """The admin's event form as the browser posts it (the fields it shows as inputs)."""
    data: dict[str, object] = {
        "kind": event.kind,
        "club": event.club_id,
        "name": event.name,
        "slug": event.slug,
        "city": event.city,
        "country": "",
        "visibility": event.visibility,
        "min_games": event.min_games,
        "tie_break": event.tie_break,
        "substitute_credit": event.substitute_credit,
        "substitute_fixed_result": event.substitute_fixed_result,
        "seating_seed": event.seating_seed,
        "ema_days": event.ema_days,
        "round_minutes": event.round_minutes,
        "table_entry": "on",
        "table_entry_mode": event.table_entry_mode,
        "confirmation": event.confirmation,
        "online": "",
        "online_lobby": "",
    }
    data.update(changes)
    return data


def test_the_admin_shows_the_substitute_settings_read_only_and_points_to_the_rules_page(
    staff_client, club, event, substituted
):
    # An event without games keeps them editable: there is nothing to recompute.
    other = make_event(club, slug="winter-league")
    url = reverse("admin:league_event_change", args=[other.pk])
    data = admin_data(other, substitute_credit="fixed", substitute_fixed_result=-7000, ruleset='"ema2016"')
    assert staff_client.post(url, data).status_code == 302
    assert Event.objects.get(pk=other.pk).substitute_credit == "fixed"
    url = reverse("admin:league_event_change", args=[event.pk])
    text = staff_client.get(url).content.decode()
    assert 'name="substitute_credit"' not in text and 'name="substitute_fixed_result"' not in text
    assert f'href="{reverse("scoring_manage:event_rules", args=[event.slug])}"' in text
    data = admin_data(event, substitute_credit="fixed", substitute_fixed_result=-7000)
    response = staff_client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:3000]
    fresh = Event.objects.get(pk=event.pk)
    assert (fresh.substitute_credit, fresh.substitute_fixed_result) == ("registered", 0)
    assert points_of(event, "Ann") == 35000  # the standings and the setting still agree


def test_an_admin_save_moves_the_results_versions_and_is_in_the_history(staff_client, event, substituted):
    """A minimum of games changes the standings' reading, not a cached row: the pages' cache keys must
    move on all the same, as they do when the manage page saves it."""
    event_version = Event.objects.get(pk=event.pk).results_version
    ann = Player.objects.get(display_name="Ann")
    url = reverse("admin:league_event_change", args=[event.pk])
    response = staff_client.post(url, admin_data(event, min_games=3))
    assert response.status_code == 302, response.content.decode()[:3000]
    assert Event.objects.get(pk=event.pk).results_version > event_version
    assert Player.objects.get(pk=ann.pk).results_version > ann.results_version
    entry = HistoryEntry.objects.get(action="event edited")
    assert (entry.before, entry.after) == ({"min_games": 0}, {"min_games": 3})
    assert entry.user.username == "root"
