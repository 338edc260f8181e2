"""When a game was played (``Hanchan.played_on``): set when a game starts, changed on the game page with a
history entry, shown and ordered by in the game lists, and the date the standings' filters go by.

A game is often entered (and finished) days after it was played — a paper slip typed in at home —, so
the date it was created or finished says nothing about when it was played.
"""

from __future__ import annotations

import json
from datetime import date, timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from league.models import Event, Hanchan, Player
from scoring import services
from scoring.engine import GameRecord
from scoring.forms import StartGameForm
from scoring.imports import import_records
from scoring.models import HistoryEntry
from scoring.services.hanchan import default_played_on, set_played_on
from scoring.standings import latest_games, standings
from scoring.statistics import game_results
from tests.conftest import make_event
from tests.scoring.commands import run

pytestmark = pytest.mark.django_db

SCORES = [40000, 30000, 30000, 20000]  # Ann +25000, Bob 0, Cho 0, Dan −25000 under EMA 2016


def paper_game(event: Event, who: list[Player], user: Any, played_on: date | None = None) -> Hanchan:
    game = services.start_game(
        event=event, players=who, user=user, entry_mode=Hanchan.EntryMode.FINAL_SCORES, played_on=played_on
    )
    services.record_final_scores(hanchan=game, scores=SCORES, user=user)
    game.refresh_from_db()
    return game


def last_month() -> date:
    return timezone.localdate().replace(day=1) - timedelta(days=3)


@pytest.fixture
def client(organiser) -> Client:
    client = Client()
    client.force_login(organiser)
    return client


# -- the standings' date filters ------------------------------------------------------------------------


def test_a_game_entered_today_but_played_last_month_is_filtered_by_when_it_was_played(
    event, players, organiser
):
    game = paper_game(event, players[:4], organiser, played_on=last_month())
    assert game.created_at.date() == game.finished_at.date() == timezone.now().date()
    today = timezone.localdate()
    this_month = {"date_from": today.replace(day=1), "date_to": today}
    assert {r.name: r.games for r in standings(event, **this_month)}["Ann"] == 0
    then = {"date_from": last_month(), "date_to": last_month()}
    assert {r.name: r.points for r in standings(event, **then)}["Ann"] == 25000

    # The page and the command read the same filter.
    page = Client().get(event.get_absolute_url() + f"?date_from={today.replace(day=1).isoformat()}")
    assert page.status_code == 200 and "Nobody is ranked yet." in page.content.decode()
    code, out, err = run(
        "standings",
        "--event",
        event.slug,
        "--date-from",
        today.replace(day=1).isoformat(),
        "--min-games",
        "0",
    )
    assert (code, err) == (0, "")
    assert all(row["Games"] == "0" for row in json.loads(out))
    code, out, _ = run("standings", "--event", event.slug, "--date-to", last_month().isoformat())
    assert [row["Player"] for row in json.loads(out) if row["Games"] == "1"][:1] == ["Ann"]


def test_redating_a_game_moves_it_between_periods(event, players, organiser):
    game = paper_game(event, players[:4], organiser)
    today = timezone.localdate()
    assert {r.name: r.games for r in standings(event, date_from=today)}["Ann"] == 1
    set_played_on(hanchan=game, played_on=last_month(), user=organiser, reason="typed in late")
    assert {r.name: r.games for r in standings(event, date_from=today)}["Ann"] == 0
    assert {r.name: r.games for r in standings(event, date_to=last_month())}["Ann"] == 1


# -- starting a game --------------------------------------------------------------------------------------


def test_default_date_is_today_and_a_tournament_game_is_dated_within_the_event(club):
    today = date(2025, 7, 20)
    league = make_event(club, slug="league")
    league.start_date, league.end_date = date(2025, 1, 1), date(2025, 6, 30)
    assert default_played_on(league, today) == today  # a league has no rounds: today
    open_ = make_event(club, slug="open")
    open_.kind = Event.Kind.TOURNAMENT
    open_.start_date, open_.end_date = date(2025, 7, 11), date(2025, 7, 12)
    assert default_played_on(open_, date(2025, 7, 1)) == date(2025, 7, 11)  # seated ahead of play
    assert default_played_on(open_, date(2025, 7, 12)) == date(2025, 7, 12)
    assert default_played_on(open_, today) == date(2025, 7, 12)  # entered after the event
    open_.start_date = open_.end_date = None
    assert default_played_on(open_, today) == today


def test_the_start_form_defaults_to_today_and_stores_the_date_given(event, players, organiser, client):
    form = StartGameForm(players=Player.objects.all(), event=event)
    assert form.fields["played_on"].initial == timezone.localdate()
    html = client.get(reverse("scoring_manage:game_new", args=[event.slug])).content.decode()
    assert f'value="{timezone.localdate().isoformat()}"' in html and 'name="played_on"' in html

    data = {
        "east": players[0].pk,
        "south": players[1].pk,
        "west": players[2].pk,
        "north": players[3].pk,
        "entry_mode": "hands",
        "played_on": "2025-03-14",
    }
    response = client.post(reverse("scoring_manage:game_new", args=[event.slug]), data)
    assert response.status_code == 302
    assert Hanchan.objects.get(event=event).played_on == date(2025, 3, 14)

    bad = client.post(reverse("scoring_manage:game_new", args=[event.slug]), {**data, "played_on": "14/03"})
    assert bad.status_code == 200 and "Enter a valid date." in bad.content.decode()
    assert Hanchan.objects.filter(event=event).count() == 1


def test_the_start_form_of_a_tournament_defaults_to_a_day_of_the_event(club, players, organiser, client):
    open_ = make_event(club, slug="open")
    open_.kind = Event.Kind.TOURNAMENT
    open_.start_date, open_.end_date = date(2025, 7, 11), date(2025, 7, 12)
    open_.save()
    html = client.get(reverse("scoring_manage:game_new", args=[open_.slug])).content.decode()
    assert 'value="2025-07-12"' in html  # today is after the event: its last day


# -- changing it -----------------------------------------------------------------------------------------


def test_the_date_is_changed_on_the_game_page_with_a_history_entry(event, players, organiser, client):
    game = services.start_game(event=event, players=players[:4], user=organiser)
    page = client.get(reverse("scoring_manage:game", args=[game.pk])).content.decode()
    assert 'id="played-on-form"' in page and 'id="game-played-on"' in page
    url = reverse("scoring_manage:played_on", args=[game.pk])
    response = client.post(url, {"played_on": "2025-02-07", "version": game.version, "reason": "club night"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.played_on == date(2025, 2, 7)
    entry = HistoryEntry.objects.filter(hanchan=game, action="date changed").get()
    assert entry.reason == "club night" and entry.after == {"played_on": "2025-02-07"}
    assert entry.before == {"played_on": timezone.localdate().isoformat()}

    # Bad input changes nothing and never errors; a stale version is refused (409).
    for junk in ("", "2025-02-30", "yesterday"):
        assert client.post(url, {"played_on": junk}).status_code == 302
    game.refresh_from_db()
    assert game.played_on == date(2025, 2, 7)
    assert client.post(url, {"played_on": "2025-02-08", "version": game.version - 1}).status_code == 409
    game.refresh_from_db()
    assert game.played_on == date(2025, 2, 7)


def test_someone_elses_game_cannot_be_redated(event, players, organiser, other_organiser):
    game = services.start_game(event=event, players=players[:4], user=organiser)
    outsider = Client()
    outsider.force_login(other_organiser)
    response = outsider.post(reverse("scoring_manage:played_on", args=[game.pk]), {"played_on": "2025-01-01"})
    assert response.status_code == 404
    game.refresh_from_db()
    assert game.played_on == timezone.localdate()


def test_the_final_scores_form_sets_the_date_too(event, players, organiser, client):
    game = services.start_game(
        event=event, players=players[:4], user=organiser, entry_mode=Hanchan.EntryMode.FINAL_SCORES
    )
    data = {f"score_{i}": s for i, s in enumerate(SCORES)} | {"sticks": 0, "version": game.version}
    response = client.post(
        reverse("scoring_manage:final_scores", args=[game.pk]), {**data, "played_on": "2025-05-02"}
    )
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.played_on == date(2025, 5, 2) and game.status == Hanchan.Status.FINISHED
    entry = HistoryEntry.objects.get(hanchan=game, action="final scores entered")
    assert entry.after["played_on"] == "2025-05-02" and entry.before == {
        "played_on": str(timezone.localdate())
    }


# -- the lists -------------------------------------------------------------------------------------------


def test_game_lists_are_in_the_order_the_games_were_played(event, players, organiser, client):
    early = paper_game(event, players[:4], organiser, played_on=date(2025, 1, 3))
    late = paper_game(event, players[:4], organiser, played_on=date(2025, 3, 7))
    middle = paper_game(event, players[:4], organiser, played_on=date(2025, 2, 7))  # entered last

    response = client.get(reverse("scoring_manage:games", args=[event.slug]))
    assert [g.pk for g in response.context["games"]] == [late.pk, middle.pk, early.pk]
    html = response.content.decode()
    assert html.index("2025-03-07") < html.index("2025-02-07") < html.index("2025-01-03")

    assert [g.pk for g in latest_games(event)] == [late.pk, middle.pk, early.pk]
    public = Client().get(event.get_absolute_url()).content.decode()
    assert public.index("7 Mar 2025") < public.index("7 Feb 2025") < public.index("3 Jan 2025")

    ann = players[0]
    assert [g.hanchan_id for g in game_results(ann, Event.objects.all())] == [early.pk, middle.pk, late.pk]
    player_page = Client().get(reverse("scoring:player", args=[ann.pk])).content.decode()
    assert player_page.index("2025-03-07") < player_page.index("2025-02-07") < player_page.index("2025-01-03")


# -- import and export ----------------------------------------------------------------------------------


def _record(event: Event, **extra: Any) -> dict[str, Any]:
    data = GameRecord(rules=event.rules, players=("Ann", "Bob", "Cho", "Dan")).to_dict()
    data.update(hands=[], final_scores=SCORES, **extra)
    return data


def test_import_dates_a_game_by_its_finished_at_or_its_played_on(event, players, organiser):
    finished, explicit, undated = import_records(
        event=event,
        sources=[
            # 23:30 UTC on 31 January is 1 February in Lyon: the site's time zone decides the day.
            ("a", _record(event, finished_at="2025-01-31T23:30:00+00:00")),
            ("b", _record(event, finished_at="2025-01-31T23:30:00+00:00", played_on="2025-01-30")),
            ("c", _record(event)),
        ],
        user=organiser,
    )
    assert finished.played_on == date(2025, 2, 1)
    assert explicit.played_on == date(2025, 1, 30)
    assert undated.played_on == timezone.localdate()


def test_a_bad_played_on_is_refused_by_import_games(tmp_path, event, players):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(_record(event, played_on="2025-02-30")), encoding="utf-8")
    code, out, err = run("import_games", "--event", event.slug, str(path))
    assert (code, out) == (2, "")
    assert "played_on" in err and err.count("\n") == 1
    assert not Hanchan.objects.filter(event=event).exists()


def test_export_writes_the_date_and_import_reads_it_back(tmp_path, event, players, organiser, club):
    paper_game(event, players[:4], organiser, played_on=date(2025, 4, 4))
    code, out, _ = run("export_games", "--event", event.slug)
    assert code == 0
    [record] = json.loads(out)
    assert record["played_on"] == "2025-04-04"
    copy = make_event(club, slug="copy")
    path = tmp_path / "export.json"
    path.write_text(out, encoding="utf-8")
    code, _, err = run("import_games", "--event", copy.slug, str(path))
    assert code == 0, err
    assert Hanchan.objects.get(event=copy).played_on == date(2025, 4, 4)
