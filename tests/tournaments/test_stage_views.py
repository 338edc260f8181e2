"""The stages' pages through the client: adding a stage (an error names the field), the cut preview with
drop-outs and a tie, accepting it, seating the next stage, a stage's standings page and CSV, the final
ranking, the wall showing each stage; a stage that does not exist is a 404, never a 500."""

from __future__ import annotations

import pytest
from django.urls import reverse

from league.models import Hanchan, HistoryEntry
from tests.tournaments.test_stages import finish, qualifying
from tournaments import stages
from tournaments.models import Stage, StageEntrant

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(club, organiser, client):
    client.force_login(organiser)
    return qualifying(club, organiser, players=16, rounds=2)


def add(client, event, **fields):
    data = {
        "name": "Semifinals",
        "rounds": 1,
        "entrants": "top",
        "cut_size": 8,
        "carry_over": "all",
        "seating": "rank",
        "winds": "drawn",
        **fields,
    }
    return client.post(reverse("tournaments_manage:stage_add", args=[event.slug]), data)


def test_adding_a_stage_and_an_error_naming_the_field(client, event):
    bad = add(client, event, cut_size=6)
    assert bad.status_code == 422 and "a multiple of 4" in bad.content.decode()
    assert not Stage.objects.filter(event=event, order=2).exists()
    response = add(client, event)
    assert response.status_code == 302
    page = client.get(reverse("tournaments_manage:stages", args=[event.slug])).content.decode()
    assert "Semifinals" in page and "the top 8 of the previous stage" in page


def test_the_cut_preview_then_accept_closes_and_seats_the_next_stage(client, organiser, event):
    add(client, event)
    url = reverse("tournaments_manage:stage_close", args=[event.slug, 1])
    page = client.get(url)
    assert page.status_code == 200 and "8 players go through to Semifinals." in page.content.decode()
    rows = stages.cut_preview(stages.stages_of(event)[0]).rows
    leaving, ninth = rows[0], rows[8]
    preview = client.post(url, {"dropped": [leaving.player_id], "reason": "ill"})
    text = preview.content.decode()
    assert preview.status_code == 200 and f"{ninth.name} goes through in place of {leaving.name}." in text
    assert Stage.objects.get(event=event, order=1).closed_at is None  # a preview changes nothing
    done = client.post(url, {"dropped": [leaving.player_id], "reason": "ill", "accept": "1"})
    assert done.status_code == 302
    semis = Stage.objects.get(event=event, order=2)
    assert StageEntrant.objects.filter(
        stage=semis, replaces_id=leaving.player_id, player_id=ninth.player_id
    ).exists()
    assert HistoryEntry.objects.filter(event=event, action="stage drop-out", reason="ill").exists()
    again = client.post(url, {"accept": "1"})  # a double submit: told, not a 500
    assert again.status_code == 422 and "already closed" in again.content.decode()

    seated = client.post(reverse("tournaments_manage:stage_seat", args=[event.slug, 2]))
    assert seated.status_code == 302
    assert event.hanchans.filter(round_number=3).count() == 2
    finish(event, 3, organiser)

    page = client.get(reverse("tournaments:stage_standings", args=[event.slug, 2])).content.decode()
    assert "Semifinals" in page and f"(in place of {leaving.name})" in page
    csv = client.get(reverse("tournaments:stage_standings_csv", args=[event.slug, 2])).content.decode(
        "utf-8-sig"
    )
    assert (
        csv.splitlines()[0] == "rank,player,points,carried_over,stage_points,games,seed"
        and len(csv.splitlines()) == 9
    )
    ranking = client.get(reverse("tournaments:final_ranking", args=[event.slug])).content.decode()
    assert ranking.index(ninth.name) < ranking.index(rows[9].name)  # semifinalists before the rest
    ema = client.get(reverse("tournaments_manage:ema", args=[event.slug])).content.decode()
    assert 'id="ema-stages"' in ema and "Semifinals: 2 finished games ✓" in ema  # each stage checked


def test_a_tie_at_the_line_is_decided_on_the_page(client, organiser, club):
    from tournaments import services as tournament

    event = qualifying(club, organiser, players=12, rounds=1)
    Hanchan.objects.filter(event=event).delete()
    tournament.seat_tournament(event=event, rounds=1, user=organiser)
    finish(event, 1, organiser, varied=False)
    client.force_login(organiser)
    add(client, event, cut_size=4)
    url = reverse("tournaments_manage:stage_close", args=[event.slug, 1])
    assert "cannot separate" in client.get(url).content.decode()
    refused = client.post(url, {"accept": "1"})
    assert refused.status_code == 422 and Stage.objects.get(event=event, order=1).closed_at is None
    tied = stages.cut_preview(stages.stages_of(event)[0]).cut.tied
    done = client.post(url, {"accept": "1", "decided": [tied[1]]})
    assert done.status_code == 302
    assert StageEntrant.objects.filter(stage__event=event, stage__order=2, player_id=tied[1]).exists()


def test_the_wall_shows_each_stage(client, organiser, event):
    add(client, event)
    wall = reverse("tournaments:wall", args=[event.slug])
    assert 'id="wall-stage-1"' in client.get(wall).content.decode()  # the stage being played
    client.post(reverse("tournaments_manage:stage_close", args=[event.slug, 1]), {"accept": "1"})
    assert 'id="wall-stage-2"' in client.get(wall).content.decode()
    first = client.get(f"{wall}?stage=1").content.decode()
    assert 'id="wall-stage-1"' in first
    slide = client.get(reverse("tournaments:wall_stage", args=[event.slug, 2])).content.decode()
    assert "Semifinals" in slide


def test_a_missing_stage_is_a_404(client, event):
    assert client.get(reverse("tournaments:stage_standings", args=[event.slug, 9])).status_code == 404
    assert client.get(reverse("tournaments_manage:stage_close", args=[event.slug, 9])).status_code == 404
    assert client.post(reverse("tournaments_manage:stage_seat", args=[event.slug, 9])).status_code == 404


def test_stage_pages_cost_a_bounded_number_of_queries(
    client, organiser, event, django_assert_max_num_queries
):
    add(client, event)
    client.post(reverse("tournaments_manage:stage_close", args=[event.slug, 1]), {"accept": "1"})
    client.post(reverse("tournaments_manage:stage_seat", args=[event.slug, 2]))
    finish(event, 3, organiser)
    client.logout()
    # Three queries for the first stage's standings, four for each later one, and the event and stages.
    for name, args, most in [
        ("tournaments:stage_standings", [event.slug, 2], 12),
        ("tournaments:stage_standings_csv", [event.slug, 2], 12),
        ("tournaments:final_ranking", [event.slug], 12),
    ]:
        with django_assert_max_num_queries(most):
            assert client.get(reverse(name, args=args)).status_code == 200
    slide = reverse("tournaments:wall_stage", args=[event.slug, 2])
    client.get(slide)
    with django_assert_max_num_queries(2):  # the event and its stages: the slide is in the page cache
        assert "Semifinals" in client.get(slide).content.decode()


def test_the_event_page_links_each_stage_and_the_final_ranking_once_there_are_several(client, event):
    page = client.get(event.get_absolute_url()).content.decode()
    assert 'id="event-stages"' not in page  # one stage: the event page is its standings
    add(client, event)
    page = client.get(event.get_absolute_url()).content.decode()
    assert reverse("tournaments:stage_standings", args=[event.slug, 2]) in page
    assert reverse("tournaments:final_ranking", args=[event.slug]) in page


def test_a_stage_page_refreshes_itself_while_a_round_is_open(client, organiser, event):
    from tournaments import rounds

    url = reverse("tournaments:stage_standings", args=[event.slug, 1])
    assert "hx-trigger" not in client.get(url).content.decode()
    rounds.open_round(event=event, number=2, user=organiser)
    assert 'hx-select="#stage-live"' in client.get(url).content.decode()


@pytest.mark.parametrize(
    "data",
    [
        {"accept": "1", "decided": ["x"]},
        {"accept": "1", "dropped": ["999999"], "reason": "gone"},
        {"decided": ["1"], "accept": "1"},  # a player who is not tied at the line
        {"accept": "1", "reason": "x" * 500},
    ],
)
def test_junk_on_the_close_form_is_refused_never_a_500(client, event, data):
    add(client, event)
    response = client.post(reverse("tournaments_manage:stage_close", args=[event.slug, 1]), data)
    assert response.status_code in (302, 422)
    if response.status_code == 302:  # a stray "decided" with nothing tied changes nothing of the cut
        second = Stage.objects.get(event=event, order=2)
        assert StageEntrant.objects.filter(stage=second).count() == 8
        assert not HistoryEntry.objects.filter(event=event, action="stage tie decided").exists()


def test_a_stray_tie_choice_without_a_tie_is_no_decision(client, event):
    add(client, event)
    first = stages.stages_of(event)[0]
    preview = stages.cut_preview(first)
    assert preview.cut.decided  # no tie at the line
    outsider = preview.cut.out[0]
    url = reverse("tournaments_manage:stage_close", args=[event.slug, 1])
    assert client.post(url, {"accept": "1", "decided": [outsider]}).status_code == 302
    entrants = StageEntrant.objects.filter(stage__event=event, stage__order=2).values_list(
        "player_id", flat=True
    )
    assert sorted(entrants) == sorted(preview.cut.through) and outsider not in entrants
    assert not HistoryEntry.objects.filter(event=event, action="stage tie decided").exists()
