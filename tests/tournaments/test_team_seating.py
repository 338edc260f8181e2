"""Team-aware seating on the database: teammates never share a table where the schedule is drawn (every
round at once, Swiss rounds, late changes), swaps and replacements that would seat them together are
refused and change nothing, and the organiser's quality line shows an unavoidable case.

The property test at the end runs random sequences of swaps, replacements, Swiss reseatings and results
on a team event: no step ever seats more teammates together than before it.
"""

from __future__ import annotations

import itertools

import pytest
from django.core.exceptions import ValidationError
from django.db import transaction
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from league.models import Event, HistoryEntry, Player, Registration
from tests.tournaments.test_seating_invariants import assert_invariant, snapshot
from tests.tournaments.test_tournament import finish_round, make_tournament, tables_of
from tournaments import reseating, teams
from tournaments import services as tournament

pytestmark = pytest.mark.django_db


def make_team_event(club, organiser, n_teams: int, size: int, n_substitutes: int = 0, **fields) -> Event:
    """``n_teams`` teams of ``size`` registered players (team of player i: i mod n_teams), plus
    substitutes in no team."""
    event = make_tournament(club, n_teams * size, n_substitutes=n_substitutes, **fields)
    people = Player.objects.filter(registrations__event=event, registrations__is_substitute=False).order_by(
        "pk"
    )
    text = "\n".join(f"Team {i % n_teams:02d}; {player.display_name}" for i, player in enumerate(people))
    teams.register_teams(event=event, text=text, user=organiser)
    return event


def teammates_at_tables(event, rounds) -> int:
    """Teammate pairs sharing a table, counted from the seats themselves."""
    team_of = teams.team_of_players(event)
    count = 0
    for number in rounds:
        for table in tables_of(event, number):
            for a, b in itertools.combinations(table, 2):
                count += a in team_of and team_of.get(b) == team_of[a]
    return count


def repeated_pairs(event, rounds) -> int:
    met: dict[tuple[int, int], int] = {}
    for number in rounds:
        for table in tables_of(event, number):
            for pair in itertools.combinations(sorted(table), 2):
                met[pair] = met.get(pair, 0) + 1
    return sum(n - 1 for n in met.values())


def test_sixteen_teams_of_four_over_eight_rounds_never_sit_together_nor_meet_twice(club, organiser):
    event = make_team_event(club, organiser, 16, 4)
    tournament.seat_tournament(event=event, rounds=8, user=organiser)
    assert teammates_at_tables(event, range(1, 9)) == 0
    assert repeated_pairs(event, range(1, 9)) == 0
    assert teams.teammates_together(event) == []
    summary = HistoryEntry.objects.get(event=event, action="seating generated").summary
    assert "0 repeated pairs" in summary and "teammates together 0 times" in summary


def test_eight_teams_of_four_and_the_quality_line_says_teammates_never_meet(club, organiser):
    event = make_team_event(club, organiser, 8, 4)
    tournament.seat_tournament(event=event, rounds=8, user=organiser)
    assert teammates_at_tables(event, range(1, 9)) == 0
    client = Client()
    client.force_login(organiser)
    page = client.get(reverse("tournaments_manage:tournament", args=[event.slug]))
    assert page.context["quality"].teammates_together == 0
    assert "teammates <strong>never</strong> share a table" in page.content.decode()


def test_a_team_larger_than_the_tables_is_the_unavoidable_case_the_quality_line_shows(club, organiser):
    """Three teammates among 8 players (2 tables): each round two of them must share a table."""
    event = make_tournament(club, 8)
    people = list(Player.objects.filter(registrations__event=event).order_by("pk"))
    teams.register_teams(
        event=event, text="\n".join(f"Big; {p.display_name}" for p in people[:3]), user=organiser
    )
    tournament.seat_tournament(event=event, rounds=3, user=organiser)
    assert teammates_at_tables(event, [1, 2, 3]) == 3  # one pair per round: the fewest possible
    client = Client()
    client.force_login(organiser)
    page = client.get(reverse("tournaments_manage:tournament", args=[event.slug]))
    assert page.context["quality"].teammates_together == 3
    assert 'teammates share a table <strong class="bad">3</strong> times' in page.content.decode()
    listed = client.get(reverse("tournaments_manage:teams", args=[event.slug]))
    assert len(listed.context["together"]) == 3
    assert 'id="teammates-together"' in listed.content.decode()


def test_a_swap_that_would_seat_teammates_together_is_refused_and_changes_nothing(club, organiser):
    event = make_team_event(club, organiser, 4, 4)
    tournament.seat_tournament(event=event, rounds=2, user=organiser)
    team_of = teams.team_of_players(event)
    first, second = tables_of(event, 1)[:2]
    a = first[0]
    b = next(p for p in second if team_of[p] != team_of[a])  # b's teammate sits at a's table
    before = snapshot(event)
    with pytest.raises(ValidationError, match="Refused, nothing was changed: teammates never share a table"):
        tournament.swap_players(
            event=event,
            round_number=1,
            first=Player.objects.get(pk=a),
            second=Player.objects.get(pk=b),
            user=organiser,
        )
    assert snapshot(event) == before
    # Swapping two teammates keeps every team apart: allowed.
    mate = next(p for p in second if team_of[p] == team_of[a])
    tournament.swap_players(
        event=event,
        round_number=1,
        first=Player.objects.get(pk=a),
        second=Player.objects.get(pk=mate),
        user=organiser,
    )
    assert a in tables_of(event, 1)[1] and mate in tables_of(event, 1)[0]
    assert teammates_at_tables(event, [1, 2]) == 0


def test_a_replacement_by_a_teammate_of_someone_at_the_table_is_refused(club, organiser):
    event = make_team_event(club, organiser, 4, 4, n_substitutes=2)
    spare, other = (
        r.player for r in Registration.objects.filter(event=event, is_substitute=True).order_by("pk")
    )
    tournament.seat_tournament(event=event, rounds=2, user=organiser)
    team_of = teams.team_of_players(event)
    table = tables_of(event, 2)[0]
    leaver = Player.objects.get(pk=table[0])
    mate_team = Player.objects.get(pk=table[1])
    team = teams.Team.objects.get(pk=team_of[mate_team.pk])
    teams.add_member(team=team, player=spare, user=organiser)  # the substitute of table[1]'s team
    before = snapshot(event)
    with pytest.raises(ValidationError, match=f"team {team.name}"):
        tournament.replace_player(
            event=event, player=leaver, substitute=spare, from_round=2, user=organiser, reason="ill"
        )
    assert snapshot(event) == before
    # A substitute in the leaver's own team, or in none, may take the seat.
    tournament.replace_player(
        event=event, player=leaver, substitute=other, from_round=2, user=organiser, reason="ill"
    )
    assert teammates_at_tables(event, [1, 2]) == 0


def test_swiss_rounds_keep_teammates_apart(club, organiser):
    event = make_team_event(club, organiser, 4, 4)
    tournament.seat_tournament(event=event, rounds=3, user=organiser)
    finish_round(event, 1, organiser)
    tournament.reseat_swiss(event=event, round_number=2, user=organiser)
    finish_round(event, 2, organiser, scores=(45000, 30000, 25000, 20000))
    tournament.reseat_swiss(event=event, round_number=3, user=organiser)
    assert teammates_at_tables(event, [1, 2, 3]) == 0
    assert_invariant(event)


def test_late_changes_keep_teammates_apart(club, organiser):
    event = make_team_event(club, organiser, 5, 4, n_substitutes=1)
    tournament.seat_tournament(event=event, rounds=4, user=organiser)
    finish_round(event, 1, organiser)
    leaver = Player.objects.get(pk=tables_of(event, 2)[0][0])
    plan = reseating.plan_reseat(event=event, from_round=2, drops=[leaver])
    assert plan.proposed.teammates_together == 0 and plan.current.teammates_together == 0
    reseating.reseat_remaining(event=event, from_round=2, drops=[leaver], user=organiser, reason="went home")
    assert teammates_at_tables(event, [1, 2, 3, 4]) == 0
    assert_invariant(event)


# --------------------------------------------------------------------------------------------------------
# Property: random seating changes on a team event never seat more teammates together.

N_TEAMS, SIZE, N_SUBSTITUTES, N_ROUNDS = 4, 3, 2, 3
PEOPLE = N_TEAMS * SIZE + N_SUBSTITUTES

person = st.integers(0, PEOPLE - 1)
round_number = st.integers(1, N_ROUNDS)
actions = st.one_of(
    st.tuples(st.just("swap"), round_number, person, person),
    st.tuples(st.just("replace"), person, person, round_number, st.none() | st.integers(1, 3)),
    st.tuples(st.just("swiss"), round_number),
    st.tuples(st.just("finish"), round_number),
)


@pytest.fixture
def team_event(club, organiser):
    event = make_team_event(club, organiser, N_TEAMS, SIZE, n_substitutes=N_SUBSTITUTES)
    subs = list(
        Player.objects.filter(registrations__event=event, registrations__is_substitute=True).order_by("pk")
    )
    teams.add_member(team=teams.Team.objects.get(event=event, name="Team 00"), player=subs[0], user=organiser)
    tournament.seat_tournament(event=event, rounds=N_ROUNDS, user=organiser, seed=5)
    people = list(Player.objects.filter(registrations__event=event).order_by("pk"))
    return event, people


@settings(
    max_examples=20,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=st.lists(actions, min_size=1, max_size=6))
def test_random_seating_changes_never_seat_teammates_together(team_event, organiser, steps):
    from tests.tournaments.test_seating_invariants import run

    event, people = team_event
    assert teammates_at_tables(event, range(1, N_ROUNDS + 1)) == 0
    with transaction.atomic():  # every example starts from the same seating: rolled back at the end
        for step in steps:
            before = snapshot(event)
            try:
                run(event, people, step, organiser)
            except ValidationError:
                assert snapshot(event) == before, f"refused {step} changed something"
            assert teammates_at_tables(event, range(1, N_ROUNDS + 1)) == 0, step
            assert_invariant(event)
        transaction.set_rollback(True)
