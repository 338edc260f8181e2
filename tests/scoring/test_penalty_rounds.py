"""A tournament penalty belongs to a round (``Penalty.round_number``): "standings after round 3" leave out
a penalty given in round 4 — on the page, in its CSV and in ``manage.py standings --after-round``.

The tournament here has four players at one table per round, entered on paper: each round Ann wins
(+25000 under EMA 2016), Dan is last (−25000), Bob and Cho share 2nd (0).
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from league.models import Event, Hanchan, Player
from scoring import services
from scoring.forms import PenaltyForm
from scoring.models import Penalty
from scoring.selectors import current_round
from scoring.standings import standings
from tests.conftest import make_event
from tests.scoring.commands import run

pytestmark = pytest.mark.django_db

SCORES = [40000, 30000, 30000, 20000]


@pytest.fixture
def cup(club, players) -> Event:
    event = make_event(club, slug="spring-cup")
    event.kind = Event.Kind.TOURNAMENT
    event.save()
    for player in players[:4]:
        event.registrations.create(player=player)
    return event


def seat(event: Event, who: list[Player], round_number: int, user: Any, table: int = 1) -> Hanchan:
    return services.start_game(
        event=event,
        players=who,
        user=user,
        entry_mode=Hanchan.EntryMode.FINAL_SCORES,
        round_number=round_number,
        table_number=table,
    )


def play(game: Hanchan, user: Any) -> None:
    services.record_final_scores(hanchan=game, scores=SCORES, user=user)


@pytest.fixture
def four_rounds(cup, players, organiser) -> Event:
    """Rounds 1–3 played, round 4 seated and being played (one table)."""
    for number in (1, 2, 3):
        play(seat(cup, players[:4], number, organiser), organiser)
    seat(cup, players[:4], 4, organiser)
    return cup


def points(rows: Any) -> dict[str, int]:
    return {r.name: r.points for r in rows}


# -- the service ----------------------------------------------------------------------------------------


def test_a_penalty_is_given_in_a_round(four_rounds, players, organiser):
    penalty = services.add_penalty(
        event=four_rounds, player=players[1], points=-5000, reason="slow play", user=organiser, round_number=4
    )
    assert Penalty.objects.get(pk=penalty.pk).round_number == 4


def test_a_penalty_given_with_a_game_takes_its_round(four_rounds, players, organiser):
    game = Hanchan.objects.get(event=four_rounds, round_number=2)
    penalty = services.add_penalty(
        event=four_rounds,
        player=players[3],
        points=-20000,
        reason="false ron",
        kind=Penalty.Kind.CHOMBO,
        hanchan=game,
        round_number=4,  # the game says round 2
        user=organiser,
    )
    assert Penalty.objects.get(pk=penalty.pk).round_number == 2

    # Chombos entered with the final scores belong to the table's round too.
    table = Hanchan.objects.get(event=four_rounds, round_number=4)
    services.record_final_scores(hanchan=table, scores=SCORES, chombos=[0, 1, 0, 0], user=organiser)
    assert Penalty.objects.get(hanchan=table).round_number == 4


def test_a_league_penalty_has_no_round(event, players, organiser):
    with pytest.raises(Exception) as refused:
        services.add_penalty(
            event=event, player=players[0], points=-1000, reason="late", user=organiser, round_number=1
        )
    assert "round_number" in refused.value.error_dict  # type: ignore[attr-defined]
    assert not Penalty.objects.exists()
    game = services.start_game(event=event, players=players[:4], user=organiser, round_number=3)
    penalty = services.add_penalty(
        event=event, player=players[0], points=-1000, reason="late", user=organiser, hanchan=game
    )
    assert Penalty.objects.get(pk=penalty.pk).round_number is None


@pytest.mark.parametrize("bad", [0, 1000, True, "2"])
def test_a_bad_round_is_refused_and_nothing_saved(four_rounds, players, organiser, bad):
    with pytest.raises(Exception) as refused:
        services.add_penalty(
            event=four_rounds, player=players[0], points=-1000, reason="x", user=organiser, round_number=bad
        )
    assert "round_number" in refused.value.error_dict  # type: ignore[attr-defined]
    assert not Penalty.objects.exists()


# -- the standings after a round ------------------------------------------------------------------------


def test_standings_after_round_3_leave_out_a_penalty_of_round_4(four_rounds, players, organiser):
    bob, cho = players[1], players[2]
    services.add_penalty(
        event=four_rounds, player=bob, points=-5000, reason="slow play", user=organiser, round_number=4
    )
    services.add_penalty(
        event=four_rounds, player=cho, points=-1000, reason="phone", user=organiser, round_number=2
    )
    services.add_penalty(event=four_rounds, player=cho, points=-300, reason="no round", user=organiser)
    after_3 = points(standings(four_rounds, up_to_round=3))
    assert (after_3["Bob"], after_3["Cho"]) == (0, -1300)
    after_1 = points(standings(four_rounds, up_to_round=1))
    assert (after_1["Bob"], after_1["Cho"]) == (0, -300)
    final = points(standings(four_rounds))
    assert (final["Bob"], final["Cho"]) == (-5000, -1300)

    # The page, its CSV and the command say the same.
    client = Client()
    page = client.get(four_rounds.get_absolute_url() + "?up_to_round=3").content.decode()
    assert "−5.0" not in page and "−1.3" in page
    response = client.get(reverse("scoring:standings_csv", args=[four_rounds.slug]) + "?up_to_round=3")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    header = [h.lstrip("\ufeff") for h in rows[0]]
    by_name = {row[header.index("Player")]: row[header.index("Penalties")] for row in rows[1:]}
    assert by_name["Bob"].strip("+") in ("0.0", "0") and by_name["Cho"] in ("−1.3", "-1.3")
    code, out, err = run("standings", "--event", four_rounds.slug, "--after-round", "3")
    assert (code, err) == (0, "")
    penalties = {row["Player"]: row["Penalties"] for row in json.loads(out)}
    assert penalties["Bob"].strip("+") in ("0.0", "0") and penalties["Cho"] in ("−1.3", "-1.3")
    code, out, _ = run("standings", "--event", four_rounds.slug)
    assert {row["Player"]: row["Penalties"] for row in json.loads(out)}["Bob"] in ("−5.0", "-5.0")


# -- the form -------------------------------------------------------------------------------------------


def test_current_round(cup, players, organiser):
    assert current_round(cup) is None
    first = seat(cup, players[:4], 1, organiser)
    second = seat(cup, players[:4], 2, organiser)
    assert current_round(cup) == 1  # seated ahead, nothing played: the first round
    play(first, organiser)
    assert current_round(cup) == 2
    play(second, organiser)
    assert current_round(cup) == 2  # every result in: the last round


def test_the_penalty_form_offers_the_rounds_and_defaults_to_the_current_one(four_rounds, players, organiser):
    client = Client()
    client.force_login(organiser)
    url = reverse("scoring_manage:penalties", args=[four_rounds.slug])
    response = client.get(url)
    form = response.context["form"]
    assert form.fields["round_number"].initial == 4
    assert [value for value, _ in form.fields["round_number"].choices] == ["", "1", "2", "3", "4"]
    assert 'name="round_number"' in response.content.decode()

    data = {
        "player": players[1].pk,
        "points": -2000,
        "kind": "other",
        "reason": "slow play",
        "round_number": 3,
    }
    assert client.post(url, data).status_code == 302
    assert Penalty.objects.get(reason="slow play").round_number == 3
    assert client.post(url, {**data, "reason": "bad", "round_number": 9}).status_code == 422
    assert not Penalty.objects.filter(reason="bad").exists()


def test_a_league_penalty_form_has_no_round(event, players, organiser):
    form = PenaltyForm(players=Player.objects.all(), games=event.hanchans.all(), rounds=[])
    assert "round_number" not in form.fields
    client = Client()
    client.force_login(organiser)
    html = client.get(reverse("scoring_manage:penalties", args=[event.slug])).content.decode()
    assert 'name="round_number"' not in html
