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

from league import phrases
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
        event=event, from_round=2, user=organiser, reason="went home", drops=[leaver]
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

    assert plan.tables == 4 and "5 tables become 4" in "; ".join(map(phrases.render, plan.changes))
    for r in range(2, 5):
        assert len(tables_of(event, r)) == 4
    assert len(tables_of(event, 1)) == 5
    assert event.hanchans.filter(round_number=3, table_number=5).count() == 0


def test_a_late_arrival_is_seated_once_registered(club, organiser):
    event = seated_event(club, organiser, n_players=16, rounds=4, n_substitutes=3)
    newcomer = Player.objects.create(display_name="Late Larry", club=club)
    Registration.objects.create(event=event, player=newcomer)

    plan = reseating.plan_reseat(event=event, from_round=2)
    assert any("Late Larry joins" in phrases.render(change) for change in plan.changes)
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
    with pytest.raises(ValidationError, match="At 5 tables, 4 seats stay empty: register 4 more substitutes"):
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
    preview = client.post(url, {"from_round": 2, "drops": [leaver], "preview": "1"})
    html = preview.content.decode()
    assert preview.status_code == 200 and 'id="reseat-preview"' in html and 'id="new-repeats-4"' in html
    plan, fewer = preview.context["options"]  # the substitute in, or 3 tables with 3 sitting out
    assert plan.title == "Substitutes in: keep the 4 tables" and plan.byes_per_round == 0
    assert fewer.title == "Fewer tables: 3 tables instead of 4" and fewer.byes_per_round == 3
    assert tables_of(event, 2)[1][2] == leaver  # a preview writes nothing

    chosen = {"from_round": 2, "drops": [leaver], "choice": plan.choice, "accept": "1"}
    missing_reason = client.post(url, chosen)
    assert missing_reason.status_code == 422 and "Say why" in missing_reason.content.decode()
    not_chosen = client.post(url, {**chosen, "choice": "", "reason": "ill"})
    assert "Choose one of the ways out below." in not_chosen.content.decode()

    done = client.post(url, {**chosen, "reason": "ill"}, follow=True)
    assert "Rounds 2 to 4 reseated" in done.content.decode()
    assert all(leaver not in table for r in (2, 3, 4) for table in tables_of(event, r))


def test_bad_input_is_a_message_not_a_server_error(club, organiser):
    event = seated_event(club, organiser, n_players=16, rounds=3)
    client = Client()
    client.force_login(organiser)
    url = reverse("tournaments_manage:tournament_reseat", args=[event.slug])
    for data in (
        {"from_round": 2, "drops": ["nobody"]},
        {"from_round": "x"},
        {"from_round": 99},
        {"from_round": 2, "drops": list(Player.objects.values_list("pk", flat=True))},  # nobody left
        {"from_round": 2, "choice": "3:not-a-digest", "accept": "1", "reason": "x"},
        {"from_round": 2, "choice": "9:0123456789abcdef", "accept": "1", "reason": "x"},
    ):
        response = client.post(url, {**data, "preview": "1"})
        assert response.status_code == 422, data
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
        other.post(
            url, {"from_round": 2, "choice": "4:0123456789abcdef", "accept": "1", "reason": "x"}
        ).status_code
        == 404
    )
    assert tables_of(event, 2)  # untouched


# ------------------------------------------------------------------- issue 23: the dead end of drop-outs


def twenty_with_two_substitutes(club, organiser):
    """20 players and 2 substitutes seated for 6 rounds at 5 tables, rounds 1 and 2 played."""
    event = seated_event(club, organiser, n_players=20, rounds=6, n_substitutes=2)
    finish_round(event, 1, organiser)
    finish_round(event, 2, organiser)
    return event


def seated_players(event, number):
    return [p for table in tables_of(event, number) for p in table]


def test_a_third_drop_out_was_a_dead_end_and_now_has_a_way_out(club, organiser):
    """Two drop-outs from round 3 are covered by the two substitutes; a third used to be refused both
    ways ("5 tables leave 3 seat empty: register 1 more substitute", "18 players need at least 5
    tables"). It now has a way out: one table fewer, one player sitting out each round in turn."""
    event = twenty_with_two_substitutes(club, organiser)
    first_two = [Player.objects.get(pk=pk) for pk in tables_of(event, 3)[0][:2]]
    (subs_in,) = [
        plan
        for plan in reseating.late_change_options(event=event, from_round=3, drops=first_two)
        if plan.substitutes
    ]
    reseating.reseat_remaining(
        event=event, from_round=3, user=organiser, reason="two left", drops=first_two,
        tables=subs_in.tables, digest=subs_in.digest,
    )  # fmt: skip
    third = Player.objects.get(pk=next(p for p in seated_players(event, 3) if p not in subs_pks(event)))

    with pytest.raises(ValidationError) as refused:  # the substitutes are all playing already
        reseating.plan_reseat(event=event, from_round=3, drops=[third], tables=5)
    assert "At 5 tables, 3 seats stay empty: register 1 more substitute" in refused.value.messages[0]
    (way,) = reseating.late_change_options(event=event, from_round=3, drops=[third])
    assert (way.tables, way.byes_per_round, way.substitutes) == (4, 1, [])
    assert way.title == "Fewer tables: 4 tables instead of 5"
    assert "Table 5 of each of these rounds is removed." in way.effects
    assert any("1 player sits out each round left, in turn" in effect for effect in way.effects)

    reseating.reseat_remaining(
        event=event, from_round=3, user=organiser, reason="third one left", drops=[third],
        tables=way.tables, digest=way.digest,
    )  # fmt: skip
    still_in = set(
        Registration.objects.filter(event=event, is_substitute=False, dropped_out=False).values_list(
            "player_id", flat=True
        )
    )
    assert len(still_in) == 17
    out = []
    for number in range(3, 7):
        seated = seated_players(event, number)
        assert len(tables_of(event, number)) == 4 and all(len(t) == 4 for t in tables_of(event, number))
        assert len(seated) == len(set(seated)) == 16 and set(seated) <= still_in
        (sitting_out,) = still_in - set(seated)
        out.append(sitting_out)
    assert len(set(out)) == 4  # a different player sits out each round
    assert [len(tables_of(event, n)) for n in (1, 2)] == [5, 5]  # the played rounds are as they were
    entry = HistoryEntry.objects.filter(event=event, action="rounds reseated").latest("pk")
    assert entry.reason == "third one left" and "1 player sits out each round" in entry.summary
    assert entry.after["byes"] == {str(n): [pk] for n, pk in zip(range(3, 7), out, strict=True)}


def subs_pks(event):
    return set(
        Registration.objects.filter(event=event, is_substitute=True).values_list("player_id", flat=True)
    )


def test_several_drop_outs_at_once_through_the_page(club, organiser):
    """The page takes the three drop-outs together, offers the ways out with what each does, and
    applies the one picked in one go."""
    event = twenty_with_two_substitutes(club, organiser)
    leaving = tables_of(event, 3)[1][:3]
    client = Client()
    client.force_login(organiser)
    url = reverse("tournaments_manage:tournament_reseat", args=[event.slug])
    assert 'name="drops"' in client.get(url).content.decode()
    preview = client.post(url, {"from_round": 3, "drops": leaving, "preview": "1"})
    assert preview.status_code == 200
    html = preview.content.decode()
    (way,) = preview.context["options"]  # 17 players, 2 substitutes: 5 tables cannot be filled
    assert 'id="way-4"' in html and 'id="byes-4"' in html and "Sitting out:" in html
    assert "1 player sits out each round left, in turn" in html
    done = client.post(
        url,
        {"from_round": 3, "drops": leaving, "choice": way.choice, "reason": "a train", "accept": "1"},
        follow=True,
    )
    assert "Rounds 3 to 6 reseated" in done.content.decode()
    assert Registration.objects.filter(event=event, player_id__in=leaving, dropped_out=True).count() == 3
    for number in range(3, 7):
        assert len(tables_of(event, number)) == 4
        assert not set(leaving) & set(seated_players(event, number))
    assert HistoryEntry.objects.filter(event=event, action="rounds reseated").count() == 1
    sheet = client.get(reverse("tournaments_manage:seating_print", args=[event.slug, 3])).content.decode()
    still_in = Registration.objects.filter(event=event, is_substitute=False, dropped_out=False)
    (out,) = set(still_in.values_list("player__display_name", flat=True)) - {
        Player.objects.get(pk=pk).display_name for pk in seated_players(event, 3)
    }
    assert f'<p id="sitting-out">{out} ' in sheet  # the sheet pinned up says who sits out
