"""The organisers' game pages through the test client: entry, preview, corrections, actions."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from league.models import Hanchan
from scoring import services
from scoring.models import Hand as HandRow
from scoring.models import HistoryEntry, SeatResult

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(event, players, organiser):
    return services.start_game(event=event, players=players[:4], user=organiser)


@pytest.fixture
def client_in(client, organiser):
    client.force_login(organiser)
    return client


def post_hand(client, game, **data):
    data.setdefault("version", Hanchan.objects.get(pk=game.pk).version)
    return client.post(reverse("scoring_manage:hand_add", args=[game.pk]), data)


def test_game_page_shows_table_state(client_in, game):
    page = client_in.get(reverse("scoring_manage:game", args=[game.pk]))
    assert page.status_code == 200
    text = page.content.decode()
    assert "E1" in text and "honba 0" in text and "30000" in text and "Ann" in text


def test_single_ron_in_five_inputs(client_in, game):
    # ron is preselected: winner, loser, han, fu and the save button.
    response = post_hand(client_in, game, result="ron", winner=0, loser=2, han=3, fu=40)
    assert response.status_code == 302
    assert HandRow.objects.get(hanchan=game).deltas == [7700, 0, -7700, 0]  # dealer 3 han 40 fu


def test_bad_han_fu_pair_message_on_the_field(client_in, game):
    response = post_hand(client_in, game, result="ron", winner=0, loser=2, han=1, fu=25)
    assert response.status_code == 422
    assert "fu 25 needs at least 2 han on a ron" in response.context["form"].errors["fu"][0]
    assert not HandRow.objects.exists()


def test_winner_cannot_be_loser(client_in, game):
    response = post_hand(client_in, game, result="ron", winner=1, loser=1, han=2, fu=30)
    assert response.status_code == 422
    assert "cannot win on their own discard" in str(response.context["form"].errors)
    assert not HandRow.objects.exists()


def test_preview_shows_payments_without_saving(client_in, game):
    response = client_in.post(
        reverse("scoring_manage:preview", args=[game.pk]),
        {"result": "tsumo", "winner": 1, "han": 1, "fu": 30, "riichi": [1]},
    )
    text = response.content.decode()
    assert response.status_code == 200
    # 300/500 plus the own deposit back: +1100 net for Bob; the dealer pays 500, the others 300.
    assert "+1100" in text and "−500" in text and "−300" in text
    assert not HandRow.objects.exists()


def test_preview_reports_rule_errors(client_in, game):
    response = client_in.post(
        reverse("scoring_manage:preview", args=[game.pk]),
        {"result": "tsumo", "winner": 1, "han": 1, "fu": 20},
    )
    assert "fu 20 needs at least 2 han" in response.content.decode()


def test_stale_version_answers_409_with_current_state(client_in, game):
    assert post_hand(client_in, game, result="draw", version=0).status_code == 302
    response = post_hand(client_in, game, result="draw", version=0)
    assert response.status_code == 409
    assert "The game changed" in response.content.decode()
    assert HandRow.objects.filter(hanchan=game).count() == 1


def test_double_ron_and_chombo_and_correction(client_in, game):
    post_hand(client_in, game, result="ron", winner=1, loser=0, han=2, fu=30, winner_2=3, han_2=1, fu_2=40)
    assert HandRow.objects.get(number=1).deltas == [-3300, 2000, 0, 1300]
    post_hand(client_in, game, result="chombo", seat=2)
    response = client_in.post(
        reverse("scoring_manage:hand_correct", args=[game.pk, 1]),
        {
            "result": "ron",
            "winner": 1,
            "loser": 0,
            "han": 3,
            "fu": 30,
            "correction_reason": "han miscounted",
            "version": Hanchan.objects.get(pk=game.pk).version,
        },
    )
    assert response.status_code == 302
    assert HandRow.objects.get(number=1).deltas == [-3900, 3900, 0, 0]
    assert HistoryEntry.objects.filter(action="hand corrected", reason="han miscounted").exists()


def test_correction_needs_a_reason(client_in, game):
    post_hand(client_in, game, result="draw")
    response = client_in.post(
        reverse("scoring_manage:hand_correct", args=[game.pk, 1]),
        {
            "result": "draw",
            "tenpai": [0],
            "version": Hanchan.objects.get(pk=game.pk).version,
        },
    )
    assert response.status_code == 422
    assert "Say why" in response.content.decode()


def test_finish_early_then_results(client_in, game):
    post_hand(client_in, game, result="ron", winner=0, loser=2, han=3, fu=40)
    version = Hanchan.objects.get(pk=game.pk).version
    client_in.post(reverse("scoring_manage:finish", args=[game.pk]), {"version": version, "reason": ""})
    assert not SeatResult.objects.exists()  # refused: no reason for an early end
    client_in.post(reverse("scoring_manage:finish", args=[game.pk]), {"version": version, "reason": "time"})
    assert SeatResult.objects.filter(hanchan=game).count() == 4


def test_someone_elses_game_is_404(client, game, db):
    stranger = get_user_model().objects.create_user("stranger", password="x-pass-12345")
    client.force_login(stranger)
    for name in ("game", "undo", "finish", "preview"):
        assert client.get(reverse(f"scoring_manage:{name}", args=[game.pk])).status_code in (404, 405)
    assert (
        client.post(reverse("scoring_manage:hand_add", args=[game.pk]), {"result": "draw"}).status_code == 404
    )
    assert not HandRow.objects.exists()


def test_preview_of_a_correction_replays_from_that_hand(client_in, game):
    post_hand(client_in, game, result="ron", winner=0, loser=2, han=3, fu=40)  # the dealer stays
    post_hand(client_in, game, result="draw")
    url = reverse("scoring_manage:preview", args=[game.pk]) + "?number=1"
    # Hand 1 as a non-dealer win instead: Bob's 1 han 30 fu ron from Cho is 1000.
    text = client_in.post(
        url, {"result": "ron", "winner": 1, "loser": 2, "han": 1, "fu": 30}
    ).content.decode()
    assert "+1000" in text and "−1000" in text
    assert HandRow.objects.get(hanchan=game, number=1).deltas == [7700, 0, -7700, 0]  # nothing saved
    junk = client_in.post(
        reverse("scoring_manage:preview", args=[game.pk]) + "?number=x1", {"result": "draw"}
    )
    assert junk.status_code == 200
    missing = client_in.post(
        reverse("scoring_manage:preview", args=[game.pk]) + "?number=9", {"result": "draw"}
    )
    assert "Hand 9 does not exist" in missing.content.decode()
