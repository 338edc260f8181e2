"""The EMA reconciliation warns about missing results: a seated table (a game with a round number) whose
game is not finished is listed per round — "round 2: 3 of 4 tables have no result" — in red, and the
panel then never says the report "adds up", even though the totals of the finished games balance. The
same warning stands by the download buttons.

The tournament: 16 players, two rounds of four tables, entered on paper (every game sums to zero).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from league.models import Event, Hanchan, Player, Registration
from scoring import services
from tests.conftest import make_event
from tournaments.ema.reconciliation import reconcile

pytestmark = pytest.mark.django_db

SCORES = [40000, 30000, 30000, 20000]


@pytest.fixture
def cup(club, organiser) -> Event:
    event = make_event(club, slug="winter-cup")
    event.kind = Event.Kind.TOURNAMENT
    event.save()
    people = [Player.objects.create(display_name=f"Player {n:02d}", club=club) for n in range(16)]
    Registration.objects.bulk_create([Registration(event=event, player=p) for p in people])
    for round_number in (1, 2):
        for table in range(4):
            who = people[table * 4 : table * 4 + 4] if round_number == 1 else people[table::4]
            services.start_game(
                event=event,
                players=who,
                user=organiser,
                entry_mode=Hanchan.EntryMode.FINAL_SCORES,
                round_number=round_number,
                table_number=table + 1,
            )
    return event


def play(event: Event, round_number: int, tables: list[int], user: Any) -> None:
    for table in tables:
        game = Hanchan.objects.get(event=event, round_number=round_number, table_number=table)
        services.record_final_scores(hanchan=game, scores=SCORES, user=user)


def page(event: Event, user: Any) -> str:
    client = Client()
    client.force_login(user)
    response = client.get(reverse("tournaments_manage:ema", args=[event.slug]))
    assert response.status_code == 200
    return response.content.decode()


def test_a_round_with_tables_without_results_is_not_adding_up(cup, organiser):
    play(cup, 1, [1, 2, 3, 4], organiser)
    play(cup, 2, [2], organiser)
    check = reconcile(cup)
    assert check.totals_ok and not check.flagged_tables  # what is finished balances…
    assert [(m.round_number, m.tables, m.missing) for m in check.missing_results] == [(2, 4, 3)]
    assert [m.text for m in check.missing_results] == ["round 2: 3 of 4 tables have no result"]
    assert not check.ok and check.verdict != "adds up"  # …but the report is incomplete

    html = page(cup, organiser)
    assert "adds up" not in html
    assert '<ul class="bad" id="ema-missing-results">' in html  # in red
    assert "<li>round 2: 3 of 4 tables have no result</li>" in html
    warning = html[html.index('id="ema-download-warning"') - 40 : html.index('id="ema-reconciliation"')]
    assert 'class="bad"' in warning and "round 2: 3 of 4 tables have no result" in warning


def test_one_missing_table_is_singular_and_every_round_is_listed(cup, organiser):
    play(cup, 1, [1, 2, 3], organiser)
    play(cup, 2, [1, 2, 3], organiser)
    check = reconcile(cup)
    assert [m.text for m in check.missing_results] == [
        "round 1: 1 of 4 tables has no result",
        "round 2: 1 of 4 tables has no result",
    ]
    html = page(cup, organiser)
    assert "round 1: 1 of 4 tables has no result" in html and "adds up" not in html


def test_a_void_table_is_not_missing_and_a_complete_report_adds_up(cup, organiser):
    play(cup, 1, [1, 2, 3, 4], organiser)
    play(cup, 2, [1, 2, 3], organiser)
    last = Hanchan.objects.get(event=cup, round_number=2, table_number=4)
    services.void_game(hanchan=last, user=organiser, reason="table did not play")
    check = reconcile(cup)
    assert check.missing_results == [] and check.ok and check.verdict == "adds up"
    html = page(cup, organiser)
    assert "— adds up" in html and 'id="ema-download-warning"' not in html


def test_a_round_not_started_at_all_is_missing_too(cup, organiser):
    play(cup, 1, [1, 2, 3, 4], organiser)
    check = reconcile(cup)
    assert [m.text for m in check.missing_results] == ["round 2: 4 of 4 tables have no result"]
    assert not check.ok
