"""The organiser enters any game either way, whatever the event's (or the game's) entry mode: the four
final scores typed from a table's slip on a hand-by-hand game, or hand by hand on a final-scores game.
An empty game switches freely; one holding a result loses it only when the organiser ticks it and says
why, in one transaction, and the history keeps what was removed. A table's link keeps its own mode."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from league.models import Event, Hanchan, HistoryEntry
from scoring import services
from scoring.engine import Hand, Win
from scoring.models import Hand as HandRow
from scoring.models import SeatResult
from tests.tournaments.test_links import link_of, make_tournament, table_of
from tournaments import links, rounds

pytestmark = pytest.mark.django_db

SLIP = [40000, 32000, 28000, 20000]


def scores_post(game: Hanchan, scores: list[int], **extra: object) -> dict[str, object]:
    game.refresh_from_db()
    data: dict[str, object] = {f"score_{i}": s for i, s in enumerate(scores)}
    return data | {"sticks": 0, "version": game.version} | extra


@pytest.fixture
def client_in(client, organiser):
    client.force_login(organiser)
    return client


@pytest.fixture
def hand_game(event, players, organiser):
    return services.start_game(event=event, players=players[:4], user=organiser)


def test_the_dead_end_of_issue_23_a_hand_by_hand_tournament_table_takes_its_slips_scores(
    client_in, club, organiser
):
    """Tables enter hand by hand at this event; one table hands in its paper slip instead. The game
    page offers the final-scores form (it offered only the hand form) and saving it finishes the game."""
    event = make_tournament(club, organiser, table_entry=True, table_entry_mode="hands")
    rounds.open_round(event=event, number=1, user=organiser)  # the links make the tables hand by hand
    game = table_of(event)
    assert game.entry_mode == Hanchan.EntryMode.HANDS
    page = client_in.get(reverse("scoring_manage:game", args=[game.pk])).content.decode()
    action = reverse("scoring_manage:final_scores", args=[game.pk])
    assert 'id="hand-form"' in page and f'action="{action}"' in page and 'id="final-scores-instead"' in page
    assert "final-scores-total.js" in page and 'id="id_fs_score_0"' in page  # own ids beside the hand form

    response = client_in.post(action, scores_post(game, SLIP))
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.entry_mode == Hanchan.EntryMode.FINAL_SCORES and game.status == Hanchan.Status.FINISHED
    assert [s.final_score for s in game.seats.order_by("seat")] == SLIP
    assert SeatResult.objects.filter(hanchan=game).count() == 4
    actions = list(HistoryEntry.objects.filter(hanchan=game).order_by("pk").values_list("action", flat=True))
    assert actions[-2:] == ["entry mode changed", "final scores entered"]
    # The event's tables still enter hand by hand: the other tables of the round are untouched.
    assert table_of(event, 1, 2).entry_mode == Hanchan.EntryMode.HANDS
    assert Event.objects.get(pk=event.pk).table_entry_mode == "hands"


def test_hands_recorded_are_replaced_only_when_ticked_and_explained(client_in, hand_game, organiser):
    services.record_hand(hanchan=hand_game, hand=Hand.ron(2, Win(0, 3, 40)), user=organiser)
    services.record_hand(hanchan=hand_game, hand=Hand.draw(tenpai=(0,)), user=organiser)
    url = reverse("scoring_manage:final_scores", args=[hand_game.pk])
    page = client_in.get(reverse("scoring_manage:game", args=[hand_game.pk])).content.decode()
    assert "This game has 2 hands recorded. Final scores replace them" in page

    refused = client_in.post(url, scores_post(hand_game, SLIP, reason="slip"))
    assert refused.status_code == 422
    assert (
        "This game has 2 hands recorded: entering it as final scores removes them" in refused.content.decode()
    )
    refused = client_in.post(url, scores_post(hand_game, SLIP, replace="on"))
    assert refused.status_code == 422 and "so say why" in refused.content.decode()
    assert HandRow.objects.filter(hanchan=hand_game).count() == 2

    done = client_in.post(url, scores_post(hand_game, SLIP, replace="on", reason="the phone died"))
    assert done.status_code == 302
    hand_game.refresh_from_db()
    assert hand_game.entry_mode == Hanchan.EntryMode.FINAL_SCORES and hand_game.status == "finished"
    assert not HandRow.objects.filter(hanchan=hand_game).exists()
    switch = HistoryEntry.objects.get(hanchan=hand_game, action="entry mode changed")
    assert switch.reason == "the phone died" and "2 hands removed" in switch.summary
    assert [hand["result"] for hand in switch.before["hands"]] == ["ron", "draw"]  # kept, whole
    assert switch.before["entry_mode"] == "hands" and switch.after["entry_mode"] == "final_scores"
    assert sorted(SeatResult.objects.filter(hanchan=hand_game).values_list("score", flat=True)) == sorted(
        SLIP
    )


def test_refused_scores_leave_the_hands_and_the_mode_as_they_were(client_in, hand_game, organiser):
    services.record_hand(hanchan=hand_game, hand=Hand.ron(2, Win(0, 3, 40)), user=organiser)
    version = Hanchan.objects.get(pk=hand_game.pk).version
    url = reverse("scoring_manage:final_scores", args=[hand_game.pk])
    wrong = [40000, 32000, 28000, 10000]  # 10 000 short
    response = client_in.post(url, scores_post(hand_game, wrong, replace="on", reason="slip"))
    assert response.status_code == 422
    hand_game.refresh_from_db()
    assert hand_game.entry_mode == Hanchan.EntryMode.HANDS and hand_game.version == version
    assert HandRow.objects.filter(hanchan=hand_game).count() == 1
    assert not HistoryEntry.objects.filter(hanchan=hand_game, action="entry mode changed").exists()


def test_a_tables_link_keeps_the_events_mode(club, organiser):
    """The switch is the organiser's: final scores sent through a hand-by-hand table's link are
    refused as before, and nothing changes."""
    event = make_tournament(club, organiser, table_entry=True, table_entry_mode="hands")
    rounds.open_round(event=event, number=1, user=organiser)
    game = table_of(event)
    with pytest.raises(ValidationError, match="entered hand by hand"):
        links.enter_final_scores(link=link_of(game), scores=SLIP, sticks=0, ip=None)
    with pytest.raises(ValidationError, match="entered hand by hand"):
        services.record_final_scores(hanchan=game, scores=SLIP, user=organiser)
    game.refresh_from_db()
    assert game.entry_mode == Hanchan.EntryMode.HANDS and game.status == Hanchan.Status.IN_PROGRESS


def test_a_final_scores_game_is_entered_hand_by_hand_instead(client_in, event, players, organiser):
    game = services.start_game(
        event=event, players=players[:4], user=organiser, entry_mode=Hanchan.EntryMode.FINAL_SCORES
    )
    services.record_final_scores(hanchan=game, scores=SLIP, user=organiser)
    url = reverse("scoring_manage:entry_mode", args=[game.pk])
    page = client_in.get(reverse("scoring_manage:game", args=[game.pk])).content.decode()
    assert f'action="{url}"' in page and "Remove the four final scores entered" in page

    game.refresh_from_db()
    client_in.post(url, {"version": game.version, "entry_mode": "hands", "reason": "kept a log"})
    game.refresh_from_db()
    assert game.entry_mode == Hanchan.EntryMode.FINAL_SCORES and game.status == "finished"  # not ticked

    response = client_in.post(
        url, {"version": game.version, "entry_mode": "hands", "replace": "on", "reason": "kept a log"}
    )
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.entry_mode == Hanchan.EntryMode.HANDS and game.status == Hanchan.Status.IN_PROGRESS
    assert game.finished_at is None and all(s.final_score is None for s in game.seats.all())
    assert not SeatResult.objects.filter(hanchan=game).exists()  # out of the standings until entered
    switch = HistoryEntry.objects.get(hanchan=game, action="entry mode changed")
    assert switch.before["scores"] == SLIP and switch.reason == "kept a log"
    services.record_hand(hanchan=game, hand=Hand.ron(2, Win(0, 3, 40)), user=organiser)
    assert client_in.get(reverse("scoring_manage:game", args=[game.pk])).status_code == 200


def test_an_empty_game_switches_freely_and_a_void_one_not_at_all(event, players, organiser):
    game = services.start_game(
        event=event, players=players[:4], user=organiser, entry_mode=Hanchan.EntryMode.FINAL_SCORES
    )
    services.change_entry_mode(hanchan=game, entry_mode=Hanchan.EntryMode.HANDS, user=organiser)
    assert Hanchan.objects.get(pk=game.pk).entry_mode == Hanchan.EntryMode.HANDS
    with pytest.raises(ValidationError, match="already entered that way"):
        services.change_entry_mode(hanchan=game, entry_mode=Hanchan.EntryMode.HANDS, user=organiser)
    services.void_game(hanchan=game, user=organiser, reason="no show")
    with pytest.raises(ValidationError, match="void"):
        services.change_entry_mode(hanchan=game, entry_mode=Hanchan.EntryMode.FINAL_SCORES, user=organiser)
