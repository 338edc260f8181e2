"""Hidden standings and the reveal per stage: each stage can hide its rounds after a round of its own
(the qualifiers their last round until the cut is announced, the final its table until the
prize-giving) and each is released on its own, recorded in the history and announced by the same
signal as the event-wide reveal. Everything public — stage page, CSV, final ranking, wall, API,
player and game pages — hides the same rounds (``league.hidden_rounds``), and shows them after."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from league.hidden_rounds import hidden_after_round
from league.models import Event, Hanchan, HistoryEntry
from tests.tournaments.test_stages import finish, qualifying
from tournaments import reveal, signals, stages
from tournaments.models import Stage

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()


@pytest.fixture
def released_signals():
    seen = []

    def listen(sender, **kwargs):
        seen.append(kwargs)

    signals.standings_released.connect(listen, dispatch_uid="test-stage-reveal")
    yield seen
    signals.standings_released.disconnect(dispatch_uid="test-stage-reveal")


def two_stages(club, organiser, *, final_hidden=True):
    """Eight players, qualifiers of two rounds (all played), a final table of the top four in round 3
    (played) that hides its whole stage from the public (after round 2) until its release."""
    event = qualifying(club, organiser, players=8, rounds=2)
    stages.add_stage(
        event=event,
        user=organiser,
        name="Grand final",
        cut_size=4,
        carry_over="all",
        seating_method="final",
        hidden_after_round=2 if final_hidden else None,
    )
    stages.close_stage(stage=stages.stages_of(event)[0], user=organiser)
    final = Stage.objects.get(event=event, order=2)
    stages.seat_stage(stage=final, user=organiser)
    finish(event, 3, organiser)
    event.refresh_from_db()
    return event


def get_api(client, name, *args):
    return client.get(reverse(f"api:{name}", args=args), HTTP_ACCEPT="application/json")


def public_view(event):
    """What a visitor sees of the final: its stage page, CSV, the final ranking, the wall's slide, the
    API's games and standings, and the finalists' player and game pages."""
    visitor = Client()
    table = Hanchan.objects.get(event=event, round_number=3)
    finalists = [seat.player for seat in table.seats.order_by("seat")]
    csv = visitor.get(reverse("tournaments:stage_standings_csv", args=[event.slug, 2]))
    return {
        "stage": visitor.get(reverse("tournaments:stage_standings", args=[event.slug, 2])).content.decode(),
        "csv": csv.content.decode("utf-8-sig").strip().splitlines(),
        "ranking": visitor.get(reverse("tournaments:final_ranking", args=[event.slug])).content.decode(),
        "wall": visitor.get(reverse("tournaments:wall_stage", args=[event.slug, 2])).content.decode(),
        "api_games": {
            g["round_number"] for g in get_api(visitor, "event_games", event.slug).json()["results"]
        },
        "api_event": get_api(visitor, "event", event.slug).json()["hidden_after_round"],
        "players": [visitor.get(reverse("scoring:player", args=[p.pk])).content.decode() for p in finalists],
        "game_url": reverse("scoring:game", args=[table.pk]),
        "game": visitor.get(reverse("scoring:game", args=[table.pk])).status_code,
        "finalists": [p.display_name for p in finalists],
    }


def test_a_hidden_final_shows_no_hand_before_its_release_and_all_of_it_after(
    club, organiser, released_signals
):
    event = two_stages(club, organiser)
    assert hidden_after_round(event) == 2 and event.standings_hidden_after_round is None
    before = public_view(event)
    assert 'id="stage-standings"' not in before["stage"]  # not a line of the final
    assert "Standings after round 2" in before["stage"]
    assert before["csv"] == ["rank,player,points,carried_over,stage_points,games,seed"]
    assert "Grand final" not in before["ranking"].split('id="final-ranking"')[1]  # nobody reached it
    assert not any(name in before["wall"] for name in before["finalists"])
    assert before["api_games"] == {1, 2} and before["api_event"] == 2
    assert all(before["game_url"] not in page for page in before["players"])
    assert before["game"] == 404
    # The organiser sees everything meanwhile.
    assert len(stages.stage_standings(event, Stage.objects.get(event=event, order=2))) == 4

    final = Stage.objects.get(event=event, order=2)
    final_row, done = reveal.release_stage_standings(stage=final, user=organiser)
    assert done and final_row.standings_released_at is not None
    event.refresh_from_db()
    assert hidden_after_round(event) is None and event.stage_hidden_after_round is None
    after = public_view(event)
    assert 'id="stage-standings"' in after["stage"] and "Standings after round" not in after["stage"]
    assert len(after["csv"]) == 5
    assert after["ranking"].split('id="final-ranking"')[1].count("Grand final") == 4
    assert all(name in after["wall"] for name in after["finalists"])
    assert after["api_games"] == {1, 2, 3} and after["api_event"] is None
    assert all(after["game_url"] in page for page in after["players"])
    assert after["game"] == 200
    entry = HistoryEntry.objects.filter(event=event, action="stage standings released").get()
    assert "Grand final" in str(entry.summary)
    assert [s["stage"].pk for s in released_signals] == [final.pk]


def test_a_second_release_says_already_released_and_changes_nothing(club, organiser, released_signals):
    event = two_stages(club, organiser)
    client = Client()
    client.force_login(organiser)
    url = reverse("tournaments_manage:stage_release", args=[event.slug, 2])
    first = client.post(url, follow=True)
    assert first.status_code == 200 and "The Grand final standings are released." in first.content.decode()
    again = client.post(url, follow=True)
    assert again.status_code == 200 and "already released" in again.content.decode()
    assert HistoryEntry.objects.filter(event=event, action="stage standings released").count() == 1
    assert len(released_signals) == 1
    # A GET on the action goes to the stages page, never a 405 nor a release.
    assert client.get(url).status_code == 303


def test_the_qualifiers_hide_is_released_independently_of_the_finals(club, organiser, released_signals):
    event = two_stages(club, organiser)
    qualifiers = Stage.objects.get(event=event, order=1)
    reveal.set_stage_hiding(stage=qualifiers, user=organiser, hidden_after_round=1)
    event.refresh_from_db()
    assert hidden_after_round(event) == 1
    visitor = Client()
    games = {g["round_number"] for g in get_api(visitor, "event_games", event.slug).json()["results"]}
    assert games == {1}
    reveal.release_stage_standings(stage=qualifiers, user=organiser)
    event.refresh_from_db()
    assert hidden_after_round(event) == 2  # the final still hides its round
    games = {g["round_number"] for g in get_api(visitor, "event_games", event.slug).json()["results"]}
    assert games == {1, 2}
    final = Stage.objects.get(event=event, order=2)
    assert final.standings_released_at is None
    reveal.release_stage_standings(stage=final, user=organiser)
    event.refresh_from_db()
    assert hidden_after_round(event) is None
    assert [s["stage"].order for s in released_signals] == [1, 2]


def test_a_stage_hide_must_lie_within_the_stage_naming_the_field(club, organiser):
    event = two_stages(club, organiser, final_hidden=False)
    qualifiers = Stage.objects.get(event=event, order=1)
    with pytest.raises(ValidationError) as error:
        reveal.set_stage_hiding(stage=qualifiers, user=organiser, hidden_after_round=2)
    assert "standings_hidden_after_round" in error.value.message_dict
    assert "a round from 0" in error.value.message_dict["standings_hidden_after_round"][0]
    event.refresh_from_db()
    assert hidden_after_round(event) is None  # nothing half-saved
    client = Client()
    client.force_login(organiser)
    url = reverse("tournaments_manage:stage_hide", args=[event.slug, 1])
    for junk in ("x", "-1", "2", "1000"):
        response = client.post(url, {"standings_hidden_after_round": junk}, follow=True)
        assert response.status_code == 200 and "Hide standings after round" in response.content.decode()
    assert Stage.objects.get(pk=qualifiers.pk).standings_hidden_after_round is None
    # Releasing a stage that hides nothing: told, nothing recorded.
    refused = client.post(reverse("tournaments_manage:stage_release", args=[event.slug, 1]), follow=True)
    assert "nothing to release" in refused.content.decode()
    assert not HistoryEntry.objects.filter(event=event, action="stage standings released").exists()


def test_the_stages_page_sets_the_hide_and_offers_the_release(club, organiser):
    event = two_stages(club, organiser, final_hidden=False)
    client = Client()
    client.force_login(organiser)
    page = reverse("tournaments_manage:stages", args=[event.slug])
    assert "release-stage-2" not in client.get(page).content.decode()
    done = client.post(
        reverse("tournaments_manage:stage_hide", args=[event.slug, 2]), {"standings_hidden_after_round": "2"}
    )
    assert done.status_code == 302
    assert HistoryEntry.objects.filter(event=event, action="stage standings hidden").count() == 1
    text = client.get(page).content.decode()
    assert 'id="release-stage-2"' in text and "Release the Grand final standings" in text
    event.refresh_from_db()
    assert hidden_after_round(event) == 2
    client.post(reverse("tournaments_manage:stage_release", args=[event.slug, 2]))
    assert "Released on" in client.get(page).content.decode()
    same = client.post(
        reverse("tournaments_manage:stage_hide", args=[event.slug, 2]),
        {"standings_hidden_after_round": "2"},
        follow=True,
    )
    assert "stays released" in same.content.decode()
    event.refresh_from_db()
    assert hidden_after_round(event) is None
    # A new round hides again, until the next release.
    client.post(
        reverse("tournaments_manage:stage_hide", args=[event.slug, 2]), {"standings_hidden_after_round": ""}
    )
    event.refresh_from_db()
    assert hidden_after_round(event) is None


def test_an_open_stage_page_polls_while_rounds_are_hidden_and_stops_after_the_release(club, organiser):
    event = two_stages(club, organiser)
    visitor = Client()
    urls = [
        reverse("tournaments:stage_standings", args=[event.slug, 2]),
        reverse("tournaments:final_ranking", args=[event.slug]),
    ]
    assert all('hx-trigger="every 60s"' in visitor.get(url).content.decode() for url in urls)
    reveal.release_stage_standings(stage=Stage.objects.get(event=event, order=2), user=organiser)
    assert all("hx-trigger" not in visitor.get(url).content.decode() for url in urls)


def test_a_stage_release_moves_the_results_version_so_open_pages_and_caches_learn_of_it(club, organiser):
    event = two_stages(club, organiser)
    before = Event.objects.get(pk=event.pk).results_version
    reveal.release_stage_standings(stage=Stage.objects.get(event=event, order=2), user=organiser)
    assert Event.objects.get(pk=event.pk).results_version > before


def test_the_implicit_single_stage_of_an_old_event_can_hide_and_the_event_wide_setting_is_unchanged(
    club, organiser
):
    event = qualifying(club, organiser, players=8, rounds=2)
    assert not Stage.objects.filter(event=event).exists()
    event.standings_hidden_after_round = 1
    event.save()
    assert hidden_after_round(event) == 1 and event.stage_hidden_after_round is None
    stage = stages.stages_of(event)[0]  # the implicit stage, not saved
    reveal.set_stage_hiding(stage=stage, user=organiser, hidden_after_round=0)
    event.refresh_from_db()
    assert hidden_after_round(event) == 0
    reveal.release_stage_standings(stage=stage, user=organiser)
    event.refresh_from_db()
    assert hidden_after_round(event) == 1  # the event-wide hide stays until its own release
    reveal.release_standings(event=event, user=organiser)
    event.refresh_from_db()
    assert hidden_after_round(event) is None


def test_the_event_wide_release_releases_only_the_event_wide_hide(club, organiser):
    event = two_stages(club, organiser)
    with pytest.raises(ValidationError, match="nothing to release"):
        reveal.release_standings(event=event, user=organiser)  # only the final hides: its own release
    event.standings_hidden_after_round = 1
    event.save()
    reveal.release_standings(event=event, user=organiser)
    event.refresh_from_db()
    assert hidden_after_round(event) == 2  # the final's hide stays


def test_a_stage_release_sends_the_standings_released_webhook_naming_the_stage(club, organiser, monkeypatch):
    from api import webhooks
    from api.models import Delivery

    monkeypatch.setattr(webhooks, "resolve", lambda host, port: ["93.184.216.34"])
    event = two_stages(club, organiser)
    webhooks.register(
        event=event, url="https://hooks.example.org/", kinds=["standings.released"], user=organiser
    )
    reveal.release_stage_standings(stage=Stage.objects.get(event=event, order=2), user=organiser)
    reveal.release_stage_standings(stage=Stage.objects.get(event=event, order=2), user=organiser)  # twice
    assert [d.payload["data"] for d in Delivery.objects.filter(kind="standings.released")] == [{"stage": 2}]


def test_adding_a_stage_with_its_hide_and_a_wrong_round_is_refused_naming_the_field(club, organiser):
    event = qualifying(club, organiser, players=8, rounds=2)
    client = Client()
    client.force_login(organiser)
    data = {
        "name": "Grand final",
        "rounds": 1,
        "entrants": "top",
        "cut_size": 4,
        "carry_over": "all",
        "seating": "final",
        "winds": "drawn",
    }
    url = reverse("tournaments_manage:stage_add", args=[event.slug])
    bad = client.post(url, {**data, "standings_hidden_after_round": 7})
    assert bad.status_code == 422 and "a round from 2 (the whole stage hidden) to 2" in bad.content.decode()
    assert not Stage.objects.filter(event=event, order=2).exists()  # nothing half-saved
    assert client.post(url, {**data, "standings_hidden_after_round": 2}).status_code == 302
    assert Stage.objects.get(event=event, order=2).standings_hidden_after_round == 2
    event.refresh_from_db()
    assert hidden_after_round(event) == 2


def test_the_hidden_round_is_read_from_the_event_row_without_a_query(
    club, organiser, django_assert_num_queries
):
    event = two_stages(club, organiser)
    with django_assert_num_queries(0):
        assert hidden_after_round(event) == 2
