"""Late changes on a real database: the reseating service and its preview/accept page.

The played rounds must come out untouched, every reseated round must seat the players still in exactly
once at tables of four, the dropped player's registration is marked, and the page answers 404 to another
club's organiser and sends anonymous visitors to the login page.
"""

from __future__ import annotations

import itertools

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from league.models import HistoryEntry, Player, Registration
from tests.tournaments.test_tournament import finish_round, make_tournament, tables_of
from tournaments import reseating
from tournaments import services as tournament

pytestmark = pytest.mark.django_db


def seated_event(club, organiser, n_players=16, rounds=5, n_substitutes=0):
    event = make_tournament(club, n_players, n_substitutes=n_substitutes)
    tournament.seat_tournament(event=event, rounds=rounds, user=organiser)
    return event


def all_tables(event, rounds):
    return {r: tables_of(event, r) for r in rounds}


def repeated_pairs(event, last_round):
    met: dict[tuple[int, int], int] = {}
    for r in range(1, last_round + 1):
        for table in tables_of(event, r):
            for pair in itertools.combinations(sorted(table), 2):
                met[pair] = met.get(pair, 0) + 1
    return sum(n - 1 for n in met.values())


def test_a_drop_out_is_reseated_from_the_next_round_with_played_rounds_kept(club, organiser):
    event = seated_event(club, organiser, n_players=16, rounds=5, n_substitutes=1)
    finish_round(event, 1, organiser)
    played = all_tables(event, [1])
    leaver = Player.objects.get(pk=tables_of(event, 2)[0][0])

    plan = reseating.reseat_remaining(
        event=event, from_round=2, user=organiser, reason="went home", drop=leaver
    )

    assert all_tables(event, [1]) == played
    sub = Registration.objects.get(event=event, is_substitute=True).player
    for r in range(2, 6):
        seated = [p for table in tables_of(event, r) for p in table]
        assert len(seated) == 16 and len(set(seated)) == 16
        assert leaver.pk not in seated and sub.pk in seated
        assert all(len(table) == 4 for table in tables_of(event, r))
    assert Registration.objects.get(event=event, player=leaver).dropped_out
    entry = HistoryEntry.objects.get(event=event, action="rounds reseated")
    assert entry.reason == "went home" and "drops out" in entry.summary
    assert plan.proposed.repeated_pairs <= plan.current.repeated_pairs + 3 * 4  # the substitute's seats


def test_one_table_fewer_removes_a_table_from_every_round_left(club, organiser):
    event = seated_event(club, organiser, n_players=20, rounds=4)
    finish_round(event, 1, organiser)
    for pk in tables_of(event, 2)[0]:  # four players go home: 16 left, four tables
        Registration.objects.filter(event=event, player_id=pk).update(dropped_out=True)

    plan = reseating.reseat_remaining(event=event, from_round=2, user=organiser, reason="four left", tables=4)

    assert plan.tables == 4 and "5 tables become 4" in "; ".join(plan.changes)
    for r in range(2, 5):
        assert len(tables_of(event, r)) == 4
    assert len(tables_of(event, 1)) == 5
    assert event.hanchans.filter(round_number=3, table_number=5).count() == 0


def test_a_late_arrival_is_seated_once_registered(club, organiser):
    event = seated_event(club, organiser, n_players=16, rounds=4, n_substitutes=3)
    newcomer = Player.objects.create(display_name="Late Larry", club=club)
    Registration.objects.create(event=event, player=newcomer)

    plan = reseating.plan_reseat(event=event, from_round=2)
    assert any("Late Larry joins" in change for change in plan.changes)
    assert plan.tables == 5 and len(plan.substitutes) == 3
    reseating.reseat_remaining(event=event, from_round=2, user=organiser, reason="late", digest=plan.digest)
    for r in range(2, 5):
        seated = [p for table in tables_of(event, r) for p in table]
        assert newcomer.pk in seated and len(set(seated)) == 20
    assert newcomer.pk not in [p for table in tables_of(event, 1) for p in table]


def test_no_change_keeps_the_current_plan(club, organiser):
    """The current plan, adapted to no change at all, is a candidate: nothing gets worse."""
    event = seated_event(club, organiser, n_players=32, rounds=8)
    before = repeated_pairs(event, 8)
    plan = reseating.plan_reseat(event=event, from_round=3)
    assert plan.proposed.repeated_pairs == plan.current.repeated_pairs == before == 0
    assert plan.proposed.wind_imbalance == 0


def test_refusals_name_the_rule(club, organiser):
    event = seated_event(club, organiser, n_players=16, rounds=3)
    finish_round(event, 1, organiser)
    with pytest.raises(ValidationError, match="already has results"):
        reseating.plan_reseat(event=event, from_round=1)
    with pytest.raises(ValidationError, match="from 1 to 3"):
        reseating.plan_reseat(event=event, from_round=9)
    with pytest.raises(ValidationError, match="need at least 4 tables"):
        reseating.plan_reseat(event=event, from_round=2, tables=3)
    with pytest.raises(ValidationError, match="register 4 more substitutes"):
        reseating.plan_reseat(event=event, from_round=2, tables=5)
    with pytest.raises(ValidationError, match="Say why"):
        reseating.reseat_remaining(event=event, from_round=2, user=organiser, reason=" ")
    with pytest.raises(ValidationError, match="changed since the preview"):
        reseating.reseat_remaining(event=event, from_round=2, user=organiser, reason="x", digest="nope")
    assert not HistoryEntry.objects.filter(event=event, action="rounds reseated").exists()


# ----------------------------------------------------------------------------------------- the page


def test_preview_then_accept(club, organiser):
    event = seated_event(club, organiser, n_players=16, rounds=4, n_substitutes=1)
    client = Client()
    client.force_login(organiser)
    url = reverse("tournaments_manage:tournament_reseat", args=[event.slug])
    page = client.get(url)
    assert page.status_code == 200 and 'id="reseat-form"' in page.content.decode()
    overview = client.get(reverse("tournaments_manage:tournament", args=[event.slug])).content.decode()
    assert url in overview

    leaver = tables_of(event, 2)[1][2]
    preview = client.post(url, {"change": "drop", "from_round": 2, "player": leaver, "preview": "1"})
    html = preview.content.decode()
    assert preview.status_code == 200 and 'id="reseat-preview"' in html and 'id="new-repeats"' in html
    digest = preview.context["plan"].digest
    assert tables_of(event, 2)[1][2] == leaver  # a preview writes nothing

    missing_reason = client.post(
        url, {"change": "drop", "from_round": 2, "player": leaver, "digest": digest, "accept": "1"}
    )
    assert "Say why" in missing_reason.content.decode()

    done = client.post(
        url,
        {
            "change": "drop",
            "from_round": 2,
            "player": leaver,
            "digest": digest,
            "reason": "ill",
            "accept": "1",
        },
        follow=True,
    )
    assert "Rounds 2 to 4 reseated" in done.content.decode()
    assert all(leaver not in table for r in (2, 3, 4) for table in tables_of(event, r))


def test_bad_input_is_a_message_not_a_server_error(club, organiser):
    event = seated_event(club, organiser, n_players=16, rounds=3)
    client = Client()
    client.force_login(organiser)
    url = reverse("tournaments_manage:tournament_reseat", args=[event.slug])
    for data in (
        {"change": "drop", "from_round": 2},  # no player
        {"change": "nonsense", "from_round": 2},
        {"change": "table", "from_round": "x"},
        {"change": "table", "from_round": 2},  # 16 players do not fit at 3 tables
        {"change": "arrival", "from_round": 99},
    ):
        response = client.post(url, {**data, "preview": "1"})
        assert response.status_code == 200
        assert 'class="bad"' in response.content.decode()


def test_permissions(client, club, organiser, other_organiser):
    event = seated_event(club, organiser, n_players=16, rounds=2)
    url = reverse("tournaments_manage:tournament_reseat", args=[event.slug])
    anonymous = client.get(url)
    assert anonymous.status_code == 302 and "login" in anonymous["Location"]
    other = Client()
    other.force_login(other_organiser)
    assert other.get(url).status_code == 404
    assert (
        other.post(url, {"change": "arrival", "from_round": 2, "accept": "1", "reason": "x"}).status_code
        == 404
    )
    assert tables_of(event, 2)  # untouched
