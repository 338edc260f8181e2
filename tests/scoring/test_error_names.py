"""Engine errors on the web name the game's players, not seats (the command line keeps ``seat N``)."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from league.engine_text import engine_message
from league.models import Hanchan
from scoring import engine, services
from scoring.models import Hand as HandRow
from scoring.services.errors import as_validation_error

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(event, players, organiser):
    return services.start_game(event=event, players=players[:4], user=organiser)  # Ann, Bob, Cho, Dan


@pytest.fixture
def client_in(client, organiser):
    client.force_login(organiser)
    return client


def own_discard_error() -> engine.RecordError:
    with pytest.raises(engine.RecordError) as info:
        engine.replay([engine.Hand.ron(1, engine.Win(1, 2, 30))], engine.make_ruleset("ema2016"))
    return info.value


def test_render_names_the_player_of_the_seat():
    exc = own_discard_error()
    assert engine_message(exc, ["Ann", "Bob", "Cho", "Dan"]) == "hand 1: Bob cannot win on their own discard"
    assert engine_message(exc) == "hand 1: seat 1 cannot win on their own discard"


def test_as_validation_error_puts_the_named_message_on_the_field():
    error = as_validation_error(own_discard_error(), names=["Ann", "Bob", "Cho", "Dan"])
    assert error.message_dict == {"loser": ["hand 1: Bob cannot win on their own discard"]}


def test_as_validation_error_reads_the_names_of_the_hanchan(game):
    error = as_validation_error(own_discard_error(), hanchan=game)
    assert error.message_dict == {"loser": ["hand 1: Bob cannot win on their own discard"]}


def test_message_without_seats_is_unchanged(game):
    exc = engine.RuleViolation("fu 25 needs at least 2 han on a ron", field="fu")
    assert as_validation_error(exc, hanchan=game).message_dict == {
        "fu": ["fu 25 needs at least 2 han on a ron"]
    }


def test_web_ron_on_own_discard_names_the_player(client_in, game):
    data = {"result": "ron", "winner": 1, "loser": 1, "han": 2, "fu": 30}
    data["version"] = Hanchan.objects.get(pk=game.pk).version
    response = client_in.post(reverse("scoring_manage:hand_add", args=[game.pk]), data)
    assert response.status_code == 422
    errors = str(response.context["form"].errors)
    assert "Bob cannot win on their own discard" in errors
    assert "seat" not in errors
    assert "Bob cannot win on their own discard" in response.content.decode()
    assert not HandRow.objects.exists()


def test_web_preview_names_the_player(client_in, game):
    response = client_in.post(
        reverse("scoring_manage:preview", args=[game.pk]),
        {"result": "ron", "winner": 2, "loser": 2, "han": 2, "fu": 30},
    )
    text = response.content.decode()
    assert "Cho cannot win on their own discard" in text
    assert "seat 2" not in text


def test_final_scores_error_names_the_player(event, players, organiser):
    game = services.start_game(
        event=event, players=players[:4], user=organiser, entry_mode=Hanchan.EntryMode.FINAL_SCORES
    )
    start = event.rules.start_points
    with pytest.raises(ValidationError) as info:
        services.record_final_scores(
            hanchan=game, scores=[start, start, start + 50, start - 50], sticks=0, user=organiser
        )
    assert "Cho's score" in " ".join(info.value.messages)
