"""The admin: every changelist and a change page answer for a superuser; what the services own stays
theirs (no deleting penalties or history, hand corrections replayed and logged)."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.urls import reverse

from league.models import Club, Event, Hanchan, Player, Registration, Seat
from scoring import services
from scoring.engine import Hand, Win
from scoring.models import Hand as HandRow
from scoring.models import HandSeat, HistoryEntry, Penalty, SeatResult
from scoring.models import Win as WinRow

pytestmark = pytest.mark.django_db

MODELS = [Club, Player, Event, Registration, Hanchan, HandRow, HandSeat, Penalty, SeatResult, HistoryEntry]


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    """The default hasher takes ~0.5 s a password, once per user the fixtures create."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def staff_client(client):
    user = get_user_model().objects.create_superuser("root", "root@example.org", "root-pass-123")
    client.force_login(user)
    return client


@pytest.fixture
def game(event, players, organiser):
    game = services.start_game(event=event, players=players[:4], user=organiser)
    services.record_hand(hanchan=game, hand=Hand.ron(2, Win(0, 3, 40), riichi=(0,)), user=organiser)
    services.record_hand(hanchan=game, hand=Hand.tsumo(Win(1, 2, 30)), user=organiser)
    services.finish_game(hanchan=game, user=organiser, reason="time limit")
    services.add_penalty(
        event=event, player=players[1], points=-5000, reason="slow play", user=organiser, hanchan=game
    )
    return game


def test_every_model_is_registered():
    for model in [*MODELS, Seat, WinRow]:
        if model in (Seat, WinRow):
            continue  # inlines of Hanchan and Hand
        assert admin.site.is_registered(model), model


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
def test_changelist_and_change_page_answer(staff_client, game, model):
    meta = model._meta
    changelist = reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist")
    assert staff_client.get(changelist).status_code == 200
    assert staff_client.get(changelist, {"q": "Ann"}).status_code == 200
    obj = model.objects.order_by("pk").first()
    assert obj is not None
    change = reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[obj.pk])
    assert staff_client.get(change).status_code == 200


def test_cached_rows_and_history_cannot_be_added_changed_or_deleted(staff_client, game, rf):
    request = rf.get("/")
    request.user = get_user_model().objects.get(username="root")
    for model in (HandSeat, SeatResult, HistoryEntry):
        model_admin = admin.site._registry[model]
        obj = model.objects.first()
        assert not model_admin.has_add_permission(request)
        assert not model_admin.has_change_permission(request, obj)
        assert not model_admin.has_delete_permission(request, obj)
    penalty_admin = admin.site._registry[Penalty]
    assert not penalty_admin.has_delete_permission(request, Penalty.objects.first())
    assert not admin.site._registry[Hanchan].has_delete_permission(request, game)


def _hand_post(hand: HandRow, **changes) -> dict[str, str]:
    wins = list(hand.wins.order_by("pk"))
    data = {
        "result": hand.result,
        "loser": "" if hand.loser is None else str(hand.loser),
        "riichi": str(hand.riichi),
        "tenpai": str(hand.tenpai),
        "nagashi": str(hand.nagashi),
        "chombo_seat": "",
        "abort_reason": "",
        "reason": "wrong value",
        "wins-TOTAL_FORMS": str(len(wins)),
        "wins-INITIAL_FORMS": str(len(wins)),
        "wins-MIN_NUM_FORMS": "0",
        "wins-MAX_NUM_FORMS": "3",
        "_save": "Save",
    }
    for i, win in enumerate(wins):
        for name in ("winner", "han", "fu", "yakuman", "pao"):
            value = getattr(win, name)
            data[f"wins-{i}-{name}"] = "" if value is None else str(value)
        data[f"wins-{i}-id"] = str(win.pk)
        data[f"wins-{i}-hand"] = str(hand.pk)
    data.update(changes)
    return data


def test_hand_correction_is_replayed_and_logged(staff_client, game):
    hand = HandRow.objects.get(hanchan=game, number=1)
    url = reverse("admin:scoring_hand_change", args=[hand.pk])
    response = staff_client.post(url, _hand_post(hand, **{"wins-0-han": "4"}))
    assert response.status_code == 302, response.content.decode()[:2000]
    hand.refresh_from_db()
    assert hand.deltas == [12000, 0, -12000, 0]  # 4 han 40 fu dealer ron: 12000 (the deposit returns)
    assert (
        SeatResult.objects.get(hanchan=game, seat=0).score
        == hand.scores[0] + HandRow.objects.get(hanchan=game, number=2).deltas[0]
    )
    entry = HistoryEntry.objects.get(hanchan=game, action="hand corrected")
    assert entry.reason == "wrong value" and entry.before["wins"][0]["han"] == 3


def test_illegal_hand_correction_is_a_form_error_and_nothing_is_saved(staff_client, game):
    hand = HandRow.objects.get(hanchan=game, number=1)
    url = reverse("admin:scoring_hand_change", args=[hand.pk])
    response = staff_client.post(url, _hand_post(hand, **{"wins-0-han": "1", "wins-0-fu": "25"}))
    assert response.status_code == 200
    assert "hand 1: fu 25 needs at least 2 han on a ron" in response.content.decode()
    assert WinRow.objects.get(hand=hand).han == 3
    assert not HistoryEntry.objects.filter(action="hand corrected").exists()


def test_penalty_added_and_cancelled_through_the_services(staff_client, game, event, players):
    add = reverse("admin:scoring_penalty_add")
    data = {
        "event": event.pk,
        "player": players[2].pk,
        "hanchan": game.pk,
        "points": "-2000",
        "kind": "other",
        "reason": "phone at the table",
    }
    assert staff_client.post(add, data | {"player": players[5].pk}).status_code == 200  # not in the game
    response = staff_client.post(add, data)
    assert response.status_code == 302
    penalty = Penalty.objects.get(reason="phone at the table")
    assert penalty.given_by.username == "root"
    assert SeatResult.objects.get(hanchan=game, seat=2).penalties == -2000
    change = reverse("admin:scoring_penalty_change", args=[penalty.pk])
    assert staff_client.post(change, {"cancelled": "on", "cancelled_reason": ""}).status_code == 200
    response = staff_client.post(change, {"cancelled": "on", "cancelled_reason": "appeal upheld"})
    assert response.status_code == 302
    penalty.refresh_from_db()
    assert penalty.cancelled and penalty.cancelled_by.username == "root"
    assert SeatResult.objects.get(hanchan=game, seat=2).penalties == 0
    assert HistoryEntry.objects.filter(action="penalty cancelled").exists()
