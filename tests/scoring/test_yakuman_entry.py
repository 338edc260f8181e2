"""A double yakuman entered under EMA rules is saved as entered and paid as one yakuman; the payment
preview says why. Under a ruleset where yakuman stack it is paid as two, without the note."""

from __future__ import annotations

import pytest
from django.urls import reverse

from league.models import Hanchan, Registration
from scoring import services
from scoring.models import Hand as HandRow
from tests.conftest import make_event

pytestmark = pytest.mark.django_db

NOTE = "Paid as one yakuman for Bob: this ruleset does not count double yakuman."
DOUBLE_TSUMO = {"result": "tsumo", "winner": 1, "yakuman": 2}


@pytest.fixture
def client_in(client, organiser):
    client.force_login(organiser)
    return client


def start(event, players, organiser):
    return services.start_game(event=event, players=players[:4], user=organiser)


def test_double_yakuman_under_ema_previews_as_one_and_says_why(client_in, event, players, organiser):
    game = start(event, players, organiser)
    text = client_in.post(reverse("scoring_manage:preview", args=[game.pk]), DOUBLE_TSUMO).content.decode()
    assert NOTE in text
    assert "+32000" in text and "−16000" in text and "−8000" in text
    assert not HandRow.objects.exists()


def test_double_yakuman_under_ema_is_saved_and_paid_as_one(client_in, event, players, organiser):
    game = start(event, players, organiser)
    data = {**DOUBLE_TSUMO, "version": Hanchan.objects.get(pk=game.pk).version}
    response = client_in.post(reverse("scoring_manage:hand_add", args=[game.pk]), data)
    assert response.status_code == 302
    row = HandRow.objects.get(hanchan=game)
    assert row.deltas == [-16000, 32000, -8000, -8000]
    assert row.wins.get().yakuman == 2  # the record keeps what was at the table
    page = client_in.get(reverse("scoring_manage:game", args=[game.pk])).content.decode()
    assert "double yakuman, paid as one yakuman" in page  # the hand log says so too


def test_double_yakuman_under_tenhou_stacks_without_a_note(client_in, club, players, organiser):
    event = make_event(club, "tenhou", slug="tenhou-league")
    for player in players[:4]:
        Registration.objects.create(event=event, player=player)
    game = start(event, players, organiser)
    text = client_in.post(reverse("scoring_manage:preview", args=[game.pk]), DOUBLE_TSUMO).content.decode()
    assert "Paid as one yakuman" not in text
    assert "+64000" in text
