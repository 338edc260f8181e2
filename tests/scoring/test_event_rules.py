"""Changing an event's rules once games are recorded: every game replayed, a standings diff to confirm,
all or nothing, recorded in the history (scoring/services/rules.py, scoring/views/rules.py)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from league.models import Event, Hanchan, Player, Registration
from scoring import services
from scoring.engine import Hand, Win, make_ruleset
from scoring.models import Hand as HandRow
from scoring.models import HistoryEntry, SeatResult
from scoring.services import rules as rules_service
from tests.conftest import make_event

pytestmark = pytest.mark.django_db

FLAT_UMA = make_ruleset("ema2016", {"uma": [0, 0, 0, 0]})


def paper_game(event: Event, who: list[Player], scores: list[int], user: Any) -> Hanchan:
    """A game entered as its four final scores (which finishes it)."""
    game = services.start_game(event=event, players=who, user=user, entry_mode=Hanchan.EntryMode.FINAL_SCORES)
    services.record_final_scores(hanchan=game, scores=scores, user=user)
    game.refresh_from_db()
    return game


@pytest.fixture
def season(event, players, organiser) -> dict[str, Any]:
    """Two finished games whose order the uma decides, and a registered player who has not played.

    Under EMA 2016: Eve 36 000, Bob 11 000, Ann 2 000, Cho −11 500, Fay −12 500, Dan −25 000.
    Without uma: Eve 21 000, Ann 2 000, Bob 1 000, Cho −6 500, Fay −7 500, Dan −10 000.
    """
    ann, bob, cho, dan, eve, fay = players
    gus = Player.objects.create(display_name="Gus", club=event.club)
    Registration.objects.create(event=event, player=gus)
    first = paper_game(event, [ann, bob, cho, dan], [46000, 30500, 23500, 20000], organiser)
    second = paper_game(event, [eve, bob, fay, ann], [51000, 30500, 22500, 16000], organiser)
    return {"games": [first, second], "players": players}


def points(event: Event) -> dict[str, int]:
    from scoring.standings import standings

    return {row.name: row.points for row in standings(event) if row.games}


def aborted_game(event: Event, who: list[Player], user: Any, *, finish: bool) -> Hanchan:
    """A game whose second hand is an abortive draw (legal only while the rules allow abortive draws)."""
    game = services.start_game(event=event, players=who, user=user)
    services.record_hand(hanchan=game, hand=Hand.ron(2, Win(0, 3, 40)), user=user)
    services.record_hand(hanchan=game, hand=Hand.abort(), user=user)
    if finish:
        services.finish_game(hanchan=game, user=user, reason="time limit")
    game.refresh_from_db()
    return game


def allow_aborts(event: Event) -> None:
    event.ruleset = make_ruleset("ema2016", {"abortive_draws": True}).to_dict()
    event.save()
    event._rules = None


# -- the preview -------------------------------------------------------------------------------------------


def test_preview_lists_only_the_standings_lines_that_change_and_saves_nothing(event, season):
    results = list(SeatResult.objects.order_by("pk").values_list("result", flat=True))
    preview = rules_service.preview_rules_change(event, FLAT_UMA)
    rows = {c.name: (c.rank_before, c.rank_after, c.points_before, c.points_after) for c in preview.changes}
    assert rows == {
        "Eve": (1, 1, 36000, 21000),
        "Ann": (3, 2, 2000, 2000),
        "Bob": (2, 3, 11000, 1000),
        "Cho": (4, 4, -11500, -6500),
        "Fay": (5, 5, -12500, -7500),
        "Dan": (6, 6, -25000, -10000),
    }  # Gus has not played: his line does not change, so it is not listed
    assert [c.name for c in preview.changes] == ["Eve", "Ann", "Bob", "Cho", "Fay", "Dan"]
    assert (preview.games, preview.finished, preview.needs_reason) == (2, 2, True)
    assert any("Uma" in meaning for meaning, _old, _new in preview.settings)
    event = Event.objects.get(pk=event.pk)  # a fresh instance: ``rules`` is cached on the old one
    assert event.rules.uma == (15000, 5000, -5000, -15000)
    assert list(SeatResult.objects.order_by("pk").values_list("result", flat=True)) == results
    assert not HistoryEntry.objects.filter(action="rules changed").exists()


def test_preview_of_a_change_that_moves_no_result_says_no_standings_change(event, season):
    preview = rules_service.preview_rules_change(
        event, make_ruleset("ema2016", {"time_limit": "end_after_hand"})
    )
    assert preview.changes == []


# -- the change --------------------------------------------------------------------------------------------


def test_change_rules_rewrites_every_result_and_records_the_history(event, season, organiser):
    first, second = season["games"]
    versions = [first.version, second.version]
    rules_service.change_rules(event=event, ruleset=FLAT_UMA, user=organiser, reason="club vote: no uma")
    event = Event.objects.get(pk=event.pk)  # a fresh instance: ``rules`` is cached on the old one
    assert event.rules.uma == (0, 0, 0, 0)
    assert points(event) == {
        "Eve": 21000,
        "Ann": 2000,
        "Bob": 1000,
        "Cho": -6500,
        "Fay": -7500,
        "Dan": -10000,
    }
    assert list(SeatResult.objects.filter(hanchan=first).order_by("seat").values_list("uma", flat=True)) == [
        0,
        0,
        0,
        0,
    ]
    entry = HistoryEntry.objects.get(action="rules changed")
    assert (entry.event, entry.hanchan, entry.user, entry.reason) == (
        event,
        None,
        organiser,
        "club vote: no uma",
    )
    assert entry.before["uma"] == [15000, 5000, -5000, -15000] and entry.after["uma"] == [0, 0, 0, 0]
    assert "uma" in entry.summary
    assert [Hanchan.objects.get(pk=g.pk).version for g in (first, second)] == [v + 1 for v in versions]


def test_change_rules_needs_a_reason_once_a_game_is_finished(event, season, organiser):
    with pytest.raises(Exception) as info:
        rules_service.change_rules(event=event, ruleset=FLAT_UMA, user=organiser, reason="  ")
    assert "say why the rules change" in info.value.message_dict["reason"][0]
    event = Event.objects.get(pk=event.pk)  # a fresh instance: ``rules`` is cached on the old one
    assert event.rules.uma == (15000, 5000, -5000, -15000)


def test_change_rules_refuses_the_same_rules(event, season, organiser):
    with pytest.raises(Exception) as info:
        rules_service.change_rules(event=event, ruleset=event.rules, user=organiser, reason="x")
    assert "already the event's rules" in " ".join(info.value.messages)


def test_one_game_that_fails_under_the_new_rules_refuses_everything(event, players, season, organiser):
    allow_aborts(event)
    bad = aborted_game(event, players[:4], organiser, finish=True)
    results = list(SeatResult.objects.order_by("pk").values_list("pk", "result"))
    hands = list(HandRow.objects.order_by("pk").values_list("pk", "scores"))
    versions = list(Hanchan.objects.order_by("pk").values_list("version", flat=True))
    no_aborts_flat = make_ruleset("ema2016", {"uma": [0, 0, 0, 0]})
    with pytest.raises(Exception) as info:
        rules_service.change_rules(event=event, ruleset=no_aborts_flat, user=organiser, reason="tidy up")
    message = " ".join(info.value.messages)
    assert f"Game #{bad.pk} (Ann, Bob, Cho, Dan) cannot be replayed under the new rules" in message
    assert "hand 2: abortive draws are not played under this ruleset" in message
    with pytest.raises(Exception) as preview_info:
        rules_service.preview_rules_change(event, no_aborts_flat)
    assert preview_info.value.messages == info.value.messages
    event = Event.objects.get(pk=event.pk)  # a fresh instance: ``rules`` is cached on the old one
    assert event.rules.abortive_draws is True and event.rules.uma == (15000, 5000, -5000, -15000)
    assert list(SeatResult.objects.order_by("pk").values_list("pk", "result")) == results
    assert list(HandRow.objects.order_by("pk").values_list("pk", "scores")) == hands
    assert list(Hanchan.objects.order_by("pk").values_list("version", flat=True)) == versions
    assert not HistoryEntry.objects.filter(action="rules changed").exists()


def test_without_finished_games_the_rules_change_freely_if_games_in_progress_replay(
    event, players, organiser
):
    allow_aborts(event)
    game = aborted_game(event, players[:4], organiser, finish=False)
    with pytest.raises(Exception) as info:
        rules_service.change_rules(event=event, ruleset=make_ruleset("ema2016"), user=organiser)
    assert f"Game #{game.pk}" in info.value.messages[0] and "hand 2: abortive draws" in info.value.messages[0]
    kiriage = make_ruleset("ema2016", {"abortive_draws": True, "kiriage": True})
    rules_service.change_rules(event=event, ruleset=kiriage, user=organiser)  # no reason needed
    event = Event.objects.get(pk=event.pk)  # a fresh instance: ``rules`` is cached on the old one
    assert event.rules.kiriage is True
    assert HistoryEntry.objects.get(action="rules changed").reason == ""


def test_final_scores_that_no_longer_sum_refuse_the_change(event, season, organiser):
    more_points = make_ruleset("ema2016", {"start_points": 25000, "return_points": 30000})
    with pytest.raises(Exception) as info:
        rules_service.preview_rules_change(event, more_points)
    first = season["games"][0]
    assert f"Game #{first.pk}" in info.value.messages[0] and "must sum to 100000" in info.value.messages[0]


# -- the page ----------------------------------------------------------------------------------------------


def rules_data(rules) -> dict[str, Any]:
    """The rules form's fields as the browser submits them for ``rules``."""
    data: dict[str, Any] = {"preset": rules.preset}
    for name, value in rules.to_dict().items():
        if name == "preset":
            continue
        if name == "uma":
            data.update({f"uma_{i}": str(v) for i, v in enumerate(value)})
        elif isinstance(value, bool):
            if value:
                data[name] = "on"
        elif isinstance(value, list):
            data[name] = value
        else:
            data[name] = str(value)
    return data


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_rules_page_previews_the_standings_diff_and_confirms_with_a_reason(event, season, organiser):
    url = reverse("scoring_manage:event_rules", args=[event.slug])
    client = client_for(organiser)
    assert client.get(url).status_code == 200
    page = client.get(url, rules_data(FLAT_UMA))
    body = page.content.decode()
    assert (
        page.status_code == 200 and 'id="standings-diff"' in body and "Gus" not in body.split("rules-form")[0]
    )
    assert "3 → 2" in body  # Ann moves up
    missing = client.post(url, {**rules_data(FLAT_UMA), "confirm": "1"})
    assert missing.status_code == 422 and "say why the rules change" in missing.content.decode()
    event = Event.objects.get(pk=event.pk)  # a fresh instance: ``rules`` is cached on the old one
    assert event.rules.uma == (15000, 5000, -5000, -15000)
    done = client.post(url, {**rules_data(FLAT_UMA), "confirm": "1", "reason": "club vote"})
    assert done.status_code == 302 and done.url == reverse("league_manage:event", args=[event.slug])
    event = Event.objects.get(pk=event.pk)  # a fresh instance: ``rules`` is cached on the old one
    assert event.rules.uma == (0, 0, 0, 0)
    assert HistoryEntry.objects.get(action="rules changed").reason == "club vote"


def test_rules_page_says_no_standings_change(event, season, organiser):
    url = reverse("scoring_manage:event_rules", args=[event.slug])
    page = client_for(organiser).get(
        url, rules_data(make_ruleset("ema2016", {"time_limit": "end_after_hand"}))
    )
    assert "No standings change." in page.content.decode()


def test_rules_page_shows_the_refusal_and_no_confirm_button(event, players, season, organiser):
    allow_aborts(event)
    bad = aborted_game(event, players[:4], organiser, finish=True)
    url = reverse("scoring_manage:event_rules", args=[event.slug])
    client = client_for(organiser)
    page = client.get(url, rules_data(make_ruleset("ema2016")))
    body = page.content.decode()
    assert page.status_code == 422 and f"Game #{bad.pk}" in body and "abortive draws are not played" in body
    assert 'id="rules-confirm-form"' not in body
    forced = client.post(url, {**rules_data(make_ruleset("ema2016")), "confirm": "1", "reason": "x"})
    assert forced.status_code == 422 and f"Game #{bad.pk}" in forced.content.decode()
    event = Event.objects.get(pk=event.pk)  # a fresh instance: ``rules`` is cached on the old one
    assert event.rules.abortive_draws is True


def test_rules_page_of_another_clubs_event_is_404_and_changes_nothing(event, season, other_organiser):
    url = reverse("scoring_manage:event_rules", args=[event.slug])
    client = client_for(other_organiser)
    assert client.get(url, rules_data(FLAT_UMA)).status_code == 404
    assert client.post(url, {**rules_data(FLAT_UMA), "confirm": "1", "reason": "mine now"}).status_code == 404
    event = Event.objects.get(pk=event.pk)  # a fresh instance: ``rules`` is cached on the old one
    assert event.rules.uma == (15000, 5000, -5000, -15000)


def test_league_edit_hands_a_rules_change_with_games_to_the_rules_page(event, season, organiser):
    from tests.league.test_views import event_post

    client = client_for(organiser)
    url = reverse("league_manage:event_edit", args=[event.slug])
    rules_url = reverse("scoring_manage:event_rules", args=[event.slug])
    assert f'href="{rules_url}"' in client.get(url).content.decode()  # the page says where the change goes
    data = event_post(name="Autumn League 2025", uma_0="0", uma_1="0", uma_2="0", uma_3="0", min_games="0")
    response = client.post(url, data)
    rules_url = reverse("scoring_manage:event_rules", args=[event.slug])
    assert response.status_code == 302 and response.url.startswith(rules_url + "?")
    event = Event.objects.get(pk=event.pk)  # a fresh instance: ``rules`` is cached on the old one
    assert event.name == "Autumn League 2025"  # the details are saved at once
    assert event.rules.uma == (15000, 5000, -5000, -15000)  # the rules wait for the confirmation
    page = client.get(response.url)
    assert page.status_code == 200 and 'id="standings-diff"' in page.content.decode()


def test_htmx_preset_change_on_the_rules_page_swaps_the_settings(event, organiser):
    url = reverse("scoring_manage:event_rules", args=[event.slug])
    response = client_for(organiser).get(url, {"preset": "mleague"}, headers={"HX-Request": "true"})
    body = response.content.decode()
    assert 'id="rules-settings"' in body and "<html" not in body and 'value="25000"' in body


def test_a_second_event_is_untouched(club, event, season, organiser):
    other = make_event(club, slug="winter-league")
    before = other.ruleset
    rules_service.change_rules(event=event, ruleset=FLAT_UMA, user=organiser, reason="vote")
    other.refresh_from_db()
    assert other.ruleset == before


# -- Tenhou's points (issue 23): a new setting never changes a stored event by itself ---------------------

TENHOU_GAME = [20100, 35800, 5200, 38900]  # Tenhou showed −20, +16, −45, +49


def results(game: Hanchan) -> list[int]:
    return [r.result for r in SeatResult.objects.filter(hanchan=game).order_by("seat")]


def test_a_stored_tenhou_event_keeps_exact_points_until_its_rules_change(club, players, organiser):
    """An event created with the tenhou preset before ``round_to_thousands`` existed stored every other
    setting: its games keep the exact points they had (−19 900 …), and turning the setting on through the
    rules page replays them into Tenhou's (−20 000 …). A new tenhou event rounds from the start."""
    stored = make_ruleset("tenhou").to_dict()
    del stored["round_to_thousands"]
    old = make_event(club, "tenhou", slug="old-tenhou")
    Event.objects.filter(pk=old.pk).update(ruleset=stored)  # as the database holds it, never re-saved
    old.refresh_from_db()
    for player in players[:4]:
        Registration.objects.create(event=old, player=player)
    game = paper_game(old, players[:4], TENHOU_GAME, organiser)
    assert results(game) == [-19900, 15800, -44800, 48900]

    rules_service.change_rules(
        event=old, ruleset=make_ruleset("tenhou"), user=organiser, reason="Tenhou's own points"
    )
    assert results(game) == [-20000, 16000, -45000, 49000]

    new = make_event(club, "tenhou", slug="new-tenhou")
    for player in players[:4]:
        Registration.objects.create(event=new, player=player)
    assert results(paper_game(new, players[:4], TENHOU_GAME, organiser)) == [-20000, 16000, -45000, 49000]
