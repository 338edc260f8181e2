"""The admin: every changelist and a change page answer for a superuser; what the services own stays
theirs. The admin is not a second write path: hands, wins, seats, cached results, penalties, ratings,
games and the history are read-only there (a POST to a change page is refused and changes nothing),
and each page links to the manage page where the change is made for real."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.urls import reverse

from league.models import Club, Event, Hanchan, Player, Registration, Seat
from scoring import services
from scoring.engine import Hand, Win
from scoring.models import Hand as HandRow
from scoring.models import HandSeat, HistoryEntry, Penalty, RatingChange, SeatResult
from scoring.models import Win as WinRow
from scoring.ratings import rebuild_all_ratings

pytestmark = pytest.mark.django_db

MODELS = [
    Club,
    Player,
    Event,
    Registration,
    Hanchan,
    HandRow,
    HandSeat,
    Penalty,
    SeatResult,
    HistoryEntry,
    RatingChange,
]
# What only the services write: never added, changed or deleted in the admin.
READ_ONLY = [Hanchan, HandRow, HandSeat, Penalty, SeatResult, HistoryEntry, RatingChange]


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
    rebuild_all_ratings()  # scheduled after commit, which a test's transaction never reaches
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


def test_what_the_services_write_cannot_be_added_changed_or_deleted(staff_client, game, rf):
    request = rf.get("/")
    request.user = get_user_model().objects.get(username="root")
    for model in READ_ONLY:
        model_admin = admin.site._registry[model]
        obj = model.objects.first()
        assert obj is not None, model
        assert not model_admin.has_add_permission(request), model
        assert not model_admin.has_change_permission(request, obj), model
        assert not model_admin.has_delete_permission(request, obj), model
        assert "delete_selected" not in model_admin.get_actions(request), model
        for inline in model_admin.get_inline_instances(request, obj):  # wins of a hand, seats of a game
            assert not inline.has_add_permission(request, obj)
            assert not inline.has_change_permission(request, obj)
            assert not inline.has_delete_permission(request, obj)
    assert HistoryEntry._meta.app_label == "league"  # registered by league's admin, where it lives
    for model in (Club, Player, Event, Registration):  # their forms run full_clean: editable
        assert admin.site._registry[model].has_change_permission(request, model.objects.first()), model


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


def test_staff_cannot_change_a_hand_through_the_admin(staff_client, game):
    """The admin re-implemented a correction without the game's lock or version check: now a POST to a
    hand's change page is refused and changes nothing (hand, results, version, history)."""
    hand = HandRow.objects.get(hanchan=game, number=1)
    version = Hanchan.objects.get(pk=game.pk).version
    deltas, score = hand.deltas, SeatResult.objects.get(hanchan=game, seat=0).score
    url = reverse("admin:scoring_hand_change", args=[hand.pk])
    response = staff_client.post(url, _hand_post(hand, **{"wins-0-han": "4"}))
    assert response.status_code == 403
    hand.refresh_from_db()
    assert WinRow.objects.get(hand=hand).han == 3 and hand.deltas == deltas
    assert SeatResult.objects.get(hanchan=game, seat=0).score == score
    assert Hanchan.objects.get(pk=game.pk).version == version
    assert not HistoryEntry.objects.filter(action="hand corrected").exists()


def test_no_penalty_or_game_is_given_or_changed_through_the_admin(staff_client, game, event, players):
    assert staff_client.get(reverse("admin:scoring_penalty_add")).status_code == 403
    data = {
        "event": event.pk,
        "player": players[2].pk,
        "hanchan": game.pk,
        "points": "-2000",
        "kind": "other",
        "reason": "phone at the table",
    }
    assert staff_client.post(reverse("admin:scoring_penalty_add"), data).status_code == 403
    penalty = Penalty.objects.get()
    change = reverse("admin:scoring_penalty_change", args=[penalty.pk])
    response = staff_client.post(change, {"cancelled": "on", "cancelled_reason": "appeal upheld"})
    assert response.status_code == 403
    assert not Penalty.objects.get(pk=penalty.pk).cancelled
    assert Penalty.objects.count() == 1
    assert staff_client.get(reverse("admin:league_hanchan_add")).status_code == 403
    response = staff_client.post(reverse("admin:league_hanchan_delete", args=[game.pk]), {"post": "yes"})
    assert response.status_code == 403
    assert Hanchan.objects.filter(pk=game.pk).exists()


@pytest.mark.parametrize(
    "model", [HandRow, Hanchan, HandSeat, SeatResult, RatingChange], ids=lambda m: m.__name__
)
def test_change_pages_link_to_the_game_page(staff_client, game, model):
    obj = model.objects.order_by("pk").first()
    meta = model._meta
    page = staff_client.get(reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[obj.pk]))
    text = page.content.decode()
    assert f'href="{reverse("scoring_manage:game", args=[game.pk])}"' in text
    assert "Edit on the game page" in text


def test_history_and_penalty_pages_link_to_where_they_are_changed(staff_client, game, event, organiser):
    from league import services as league_services

    entry = HistoryEntry.objects.filter(hanchan=game).first()
    text = staff_client.get(reverse("admin:league_historyentry_change", args=[entry.pk])).content.decode()
    assert f'href="{reverse("scoring_manage:game", args=[game.pk])}"' in text
    league_services.update_event(event=event, user=organiser, data={"name": "Renamed League"})
    entry = HistoryEntry.objects.get(action="event edited")
    text = staff_client.get(reverse("admin:league_historyentry_change", args=[entry.pk])).content.decode()
    assert f'href="{reverse("league_manage:event", args=[event.slug])}"' in text
    assert "Edit on the event page" in text
    penalty = Penalty.objects.get()
    text = staff_client.get(reverse("admin:scoring_penalty_change", args=[penalty.pk])).content.decode()
    assert f'href="{reverse("scoring_manage:penalties", args=[event.slug])}"' in text
