"""The stages through the API: the plan of each stage, a stage's standings and the final ranking — the
same rows as the pages, rounds kept for a reveal left out for the public, and an ETag that moves when a
stage's cut is made (which moves no results version)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from api.keys import create_key
from league.models import Event
from tests.tournaments.test_stages import finish, qualifying
from tournaments import stages
from tournaments.models import Stage

pytestmark = pytest.mark.django_db


def get(client, name, *args, **headers):  # type: ignore[no-untyped-def]
    return client.get(reverse(f"api:{name}", args=args), HTTP_ACCEPT="application/json", **headers)


@pytest.fixture
def cup(club, organiser):  # type: ignore[no-untyped-def]
    event = qualifying(club, organiser, players=16, rounds=2)
    stages.add_stage(
        event=event,
        user=organiser,
        name="Final",
        rounds=1,
        entrants="top",
        cut_size=4,
        carry_over="half",
        seating_method="final",
    )
    return event


def test_an_event_that_never_added_a_stage_is_one_stage(club, organiser):
    event = qualifying(club, organiser, players=8, rounds=1)
    listed = get(APIClient(), "stages", event.slug).json()["results"]
    assert [(s["order"], s["name"], s["first_round"], s["last_round"]) for s in listed] == [
        (1, "Stage 1", 1, None)
    ]
    ranking = get(APIClient(), "final_ranking", event.slug).json()["results"]
    standings = get(APIClient(), "standings", event.slug).json()["results"]
    assert [(r["player_id"], r["rank"], r["total"]) for r in ranking] == [
        (r["player_id"], r["rank"], r["points"]) for r in standings
    ]


def test_the_stages_their_standings_and_the_final_ranking(cup, organiser):
    client = APIClient()
    listed = get(client, "stages", cup.slug).json()["results"]
    assert [(s["order"], s["name"], s["first_round"], s["last_round"]) for s in listed] == [
        (1, "Stage 1", 1, 2),
        (2, "Final", 3, None),
    ]
    assert listed[1]["entrants"] == "top" and listed[1]["cut_size"] == 4 and listed[1]["carry_over"] == "half"
    assert listed[0]["closed_at"] is None

    stages.close_stage(stage=Stage.objects.get(event=cup, order=1), user=organiser)
    stages.seat_stage(stage=Stage.objects.get(event=cup, order=2), user=organiser)
    finish(cup, 3, organiser)
    final = Stage.objects.get(event=cup, order=2)
    expected = stages.stage_standings(cup, final)
    rows = get(client, "stage_standings", cup.slug, 2).json()["results"]
    assert [(r["player_id"], r["rank"], r["carried"], r["total"], r["seed"]) for r in rows] == [
        (line.player_id, line.rank, line.carried, line.total, line.seed) for line in expected
    ]
    assert all(r["total"] == r["points"] + r["carried"] for r in rows) and len(rows) == 4
    assert any(r["carried"] for r in rows)  # half the qualifying points came along

    ranking = get(client, "final_ranking", cup.slug).json()["results"]
    assert [r["player_id"] for r in ranking] == [row.line.player_id for row in stages.final_ranking(cup)]
    assert [r["stage"] for r in ranking] == [2] * 4 + [1] * 12  # the finalists first
    assert get(client, "stage_standings", cup.slug, 3).status_code == 404


def test_closing_a_stage_moves_the_etag(cup, organiser):
    client = APIClient()
    first = get(client, "stages", cup.slug)
    tag = first["ETag"]
    assert get(client, "stages", cup.slug, HTTP_IF_NONE_MATCH=tag).status_code == 304
    stages.close_stage(stage=Stage.objects.get(event=cup, order=1), user=organiser)
    again = get(client, "stages", cup.slug, HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 200 and again.json()["results"][0]["closed_at"] is not None


def test_rounds_kept_for_a_reveal_stay_hidden_from_the_public(cup, organiser):
    stages.close_stage(stage=Stage.objects.get(event=cup, order=1), user=organiser)
    stages.seat_stage(stage=Stage.objects.get(event=cup, order=2), user=organiser)
    finish(cup, 3, organiser)
    Event.objects.filter(pk=cup.pk).update(standings_hidden_after_round=2)
    public = get(APIClient(), "stage_standings", cup.slug, 2).json()["results"]
    assert all(r["games"] == 0 for r in public)  # the final's table is not shown yet
    key = create_key(event=cup, name="desk", scopes=["read_private"], user=organiser).secret
    private = APIClient()
    private.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    shown = get(private, "stage_standings", cup.slug, 2).json()["results"]
    assert all(r["games"] == 1 for r in shown)
    public_ranking = get(APIClient(), "final_ranking", cup.slug).json()["results"]
    private_ranking = get(private, "final_ranking", cup.slug).json()["results"]
    cup.refresh_from_db()
    page = stages.final_ranking(cup, public=True)  # what the public final ranking page shows
    assert [(r["player_id"], r["stage"]) for r in public_ranking] == [
        (row.line.player_id, row.stage.order) for row in page
    ]
    assert not [r for r in public_ranking if r["stage"] == 2 and r["games"]]  # nothing of the final
    assert [(r["stage"], r["games"]) for r in private_ranking[:4]] == [(2, 1)] * 4


def test_query_count_is_bounded(cup, organiser, django_assert_max_num_queries):
    stages.close_stage(stage=Stage.objects.get(event=cup, order=1), user=organiser)
    client = APIClient()
    for name, args in (
        ("stages", [cup.slug]),
        ("stage_standings", [cup.slug, 2]),
        ("final_ranking", [cup.slug]),
    ):
        with django_assert_max_num_queries(16):
            assert get(client, name, *args).status_code == 200


def test_a_bonus_by_place_reads_as_numbers(club, organiser):
    event = qualifying(club, organiser, players=8, rounds=1)
    stages.add_stage(
        event=event,
        user=organiser,
        rounds=1,
        entrants="top",
        cut_size=4,
        carry_over="bonus",
        bonus="15000, 10000,5000, 0",
        seating_method="final",
    )
    listed = get(APIClient(), "stages", event.slug).json()["results"]
    assert [s["bonus"] for s in listed] == [[], [15000, 10000, 5000, 0]]
