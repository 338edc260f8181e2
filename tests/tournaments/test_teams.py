"""Teams on the database: a player in at most one team per event (the database's rule), the pasted
``Team; Player`` lines (all or none, every wrong line named, the same paste twice changes nothing), the
captain, and the team standings (sum, best K per round, after round N, hidden rounds) against sums
worked out by hand and against the individual standings."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from league.models import Event, HistoryEntry, Player, Registration
from scoring import services
from scoring.standings import standings
from tests.conftest import make_event
from tests.tournaments.test_tournament import finish_round, make_tournament
from tournaments import services as tournament
from tournaments import teams
from tournaments.models import Team, TeamMember, TeamSettings

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup(club):
    event = make_event(club, slug="team-cup")
    event.kind = Event.Kind.TOURNAMENT
    event.save()
    return event


PASTE = """Team; Player
Red; Ann; captain
Red; Bob
Red; Cho
Red; Dan
Blue; Eve
Blue; Fay; captain
Blue; Gus
Blue; Hal
Green; Ida
Green; Jo
Green; Kim
Green; Lea
Gold; Max
Gold; Ned
Gold; Oli
Gold; Pia
"""


def roster(event) -> dict[str, list[str]]:
    return {
        team.name: sorted(m.registration.player.display_name for m in team.roster)
        for team in teams.teams_of(event)
    }


# -- the paste -------------------------------------------------------------------------------------------


def test_pasting_team_lines_registers_players_and_teams_with_captains(cup, organiser):
    done = teams.register_teams(event=cup, text=PASTE, user=organiser)
    assert (done.teams, done.registered, done.members, done.captains) == (4, 16, 16, 2)
    assert roster(cup) == {
        "Blue": ["Eve", "Fay", "Gus", "Hal"],
        "Gold": ["Max", "Ned", "Oli", "Pia"],
        "Green": ["Ida", "Jo", "Kim", "Lea"],
        "Red": ["Ann", "Bob", "Cho", "Dan"],
    }
    captains = dict(
        TeamMember.objects.filter(is_captain=True).values_list(
            "team__name", "registration__player__display_name"
        )
    )
    assert captains == {"Red": "Ann", "Blue": "Fay"}
    assert Registration.objects.filter(event=cup).count() == 16
    entry = HistoryEntry.objects.get(event=cup, action="teams registered")
    assert "4 teams created" in entry.summary and "16 players registered" in entry.summary


def test_the_same_paste_twice_changes_nothing(cup, organiser):
    teams.register_teams(event=cup, text=PASTE, user=organiser)
    entries = HistoryEntry.objects.count()
    done = teams.register_teams(event=cup, text=PASTE, user=organiser)
    assert not done.changed
    assert Team.objects.filter(event=cup).count() == 4 and TeamMember.objects.count() == 16
    assert HistoryEntry.objects.count() == entries  # nothing happened, nothing recorded


def test_a_paste_reuses_registered_players_and_existing_teams_whatever_their_case(cup, club, organiser):
    ann = Player.objects.create(display_name="Ann", club=club, ema_number="04390002")
    Registration.objects.create(event=cup, player=ann)
    red = teams.create_team(event=cup, name="Red", user=organiser)
    done = teams.register_teams(event=cup, text="red; ann\nRED; Cho, , , , FR; substitute", user=organiser)
    assert (done.teams, done.registered, done.members) == (0, 1, 2)
    assert set(
        TeamMember.objects.filter(team=red).values_list("registration__player__display_name", flat=True)
    ) == {
        "Ann",
        "Cho",
    }
    assert Registration.objects.get(event=cup, player__display_name="Cho").is_substitute


def test_every_wrong_line_is_named_and_nothing_is_saved(cup, club, organiser):
    teams.register_teams(event=cup, text="Red; Ann", user=organiser)
    Registration.objects.create(event=cup, player=Player.objects.create(display_name="Zed", club=club))
    text = "\n".join(
        [
            "Blue; Ann",  # line 1: Ann is in Red
            "Blue Bob",  # line 2: no semicolon
            "; Cho",  # line 3: no team name
            "Blue; Dan; boss",  # line 4: neither captain nor substitute
            "Blue; Eve, , , 123",  # line 5: a wrong EMA number
            "Blue; Fay; captain",
            "Blue; Gus; captain",  # line 7: a second captain
            "Green; Fay",  # line 8: Fay twice
            "Green; Zed; substitute",  # line 9: Zed is registered as a player
        ]
    )
    with pytest.raises(ValidationError) as caught:
        teams.register_teams(event=cup, text=text, user=organiser)
    messages = caught.value.messages
    joined = "\n".join(messages)
    for expected in (
        "line 1: Ann is already in team Red",
        "line 2: write the team, a semicolon, then the player",
        "line 3: Team name: give the team a name.",
        "line 4: after the player, only captain or substitute may follow",
        "line 5: EMA number 123 must be 8 digits",
        "line 7: team Blue already has its captain on line 6",
        "line 8: same player as line 6 (Fay)",
        "line 9: Zed is registered as a player, not as a substitute",
    ):
        assert expected in joined, (expected, messages)
    numbers = [int(m.split(":")[0].removeprefix("line ")) for m in messages]
    assert numbers == sorted(numbers)  # in the order of the paste
    assert Team.objects.filter(event=cup).count() == 1
    assert Registration.objects.filter(event=cup).count() == 2


def test_an_empty_or_huge_paste_is_refused_with_the_rule(cup, organiser):
    with pytest.raises(ValidationError, match="Paste at least one line"):
        teams.register_teams(event=cup, text="Team; Player\n\n", user=organiser)
    with pytest.raises(ValidationError, match="at most 1000 at a time"):
        teams.register_teams(event=cup, text="\n".join(f"T; P{i}" for i in range(1001)), user=organiser)


# -- one team per player: the database's rule ------------------------------------------------------------


def test_a_player_is_in_one_team_per_event_even_past_the_services(cup, club, organiser):
    red = teams.create_team(event=cup, name="Red", user=organiser)
    blue = teams.create_team(event=cup, name="Blue", user=organiser)
    ann = Player.objects.create(display_name="Ann", club=club)
    registration = Registration.objects.create(event=cup, player=ann)
    teams.add_member(team=red, player=ann, user=organiser)
    teams.add_member(team=red, player=ann, user=organiser)  # sent twice: nothing more
    assert TeamMember.objects.count() == 1
    with pytest.raises(ValidationError, match="already in team Red: a player is in one team at most"):
        teams.add_member(team=blue, player=ann, user=organiser)
    with pytest.raises(IntegrityError), transaction.atomic():
        TeamMember.objects.create(team=blue, registration=registration)
    # In another event the same player may be in another team.
    other = make_event(club, slug="other-cup")
    Registration.objects.create(event=other, player=ann)
    teams.add_member(
        team=teams.create_team(event=other, name="Red", user=organiser), player=ann, user=organiser
    )


def test_team_names_are_unique_per_event_case_aside_and_checked(cup, organiser):
    teams.create_team(event=cup, name="Red", user=organiser)
    with pytest.raises(ValidationError, match="the event already has that team"):
        teams.create_team(event=cup, name=" red ", user=organiser)
    with pytest.raises(IntegrityError), transaction.atomic():
        Team.objects.create(event=cup, name="RED")
    with pytest.raises(ValidationError, match="give the team a name"):
        teams.create_team(event=cup, name="   ", user=organiser)
    with pytest.raises(ValidationError, match="at most 80 characters"):
        teams.create_team(event=cup, name="x" * 81, user=organiser)


def test_one_captain_per_team_who_is_always_a_member(cup, club, organiser):
    teams.register_teams(event=cup, text="Red; Ann; captain\nRed; Bob\nBlue; Cho", user=organiser)
    red = Team.objects.get(name="Red")
    bob, cho = Player.objects.get(display_name="Bob"), Player.objects.get(display_name="Cho")
    teams.set_captain(team=red, player=bob, user=organiser)
    assert list(
        TeamMember.objects.filter(team=red, is_captain=True).values_list("registration__player", flat=True)
    ) == [bob.pk]
    with pytest.raises(ValidationError, match="Cho is not in team Red"):
        teams.set_captain(team=red, player=cho, user=organiser)
    with pytest.raises(IntegrityError), transaction.atomic():
        TeamMember.objects.filter(team=red).update(is_captain=True)
    teams.set_captain(team=red, player=None, user=organiser)
    assert not TeamMember.objects.filter(team=red, is_captain=True).exists()


def test_removing_a_member_and_deleting_a_team_keep_the_registrations(cup, organiser):
    teams.register_teams(event=cup, text="Red; Ann\nRed; Bob", user=organiser)
    red = Team.objects.get(name="Red")
    ann = Player.objects.get(display_name="Ann")
    teams.remove_member(team=red, player=ann, user=organiser)
    with pytest.raises(ValidationError, match="Ann is not in team Red"):
        teams.remove_member(team=red, player=ann, user=organiser)
    teams.delete_team(team=red, user=organiser)
    assert not Team.objects.exists() and not TeamMember.objects.exists()
    assert Registration.objects.filter(event=cup).count() == 2
    assert list(HistoryEntry.objects.filter(action="team deleted").values_list("before", flat=True)) == [
        {"name": "Red", "members": ["Bob"]}
    ]


# -- team standings ------------------------------------------------------------------------------------


@pytest.fixture
def played(club, organiser):
    """16 players in 4 teams of 4, seated over 3 rounds, rounds 1 and 2 played (final scores)."""
    event = make_tournament(club, 16)
    names = list(Player.objects.filter(registrations__event=event).order_by("pk"))
    text = "\n".join(f"{'ABCD'[i % 4]}; {player.display_name}" for i, player in enumerate(names))
    teams.register_teams(event=event, text=text, user=organiser)
    tournament.seat_tournament(event=event, rounds=3, user=organiser)
    finish_round(event, 1, organiser)
    finish_round(event, 2, organiser, scores=(45000, 30000, 25000, 20000))
    return event


def by_hand(event, counting: str, best: int = 0, up_to_round: int | None = None) -> dict[str, int]:
    """Team points worked out the long way: each seat result, grouped by team and round."""
    from scoring.models import SeatResult

    team_of = teams.team_of_players(event)
    names = dict(Team.objects.filter(event=event).values_list("pk", "name"))
    rounds: dict[tuple[str, int], list[int]] = {}
    results = SeatResult.objects.filter(event=event)
    if up_to_round is not None:
        results = results.filter(hanchan__round_number__lte=up_to_round)
    for player, number, result in results.values_list("player_id", "hanchan__round_number", "result"):
        rounds.setdefault((names[team_of[player]], number), []).append(result)
    totals = dict.fromkeys(names.values(), 0)
    for (name, _number), results_ in rounds.items():
        kept = sorted(results_, reverse=True)[:best] if counting == "best" else results_
        totals[name] += sum(kept)
    return totals


def test_sum_of_the_members_points_is_the_sum_of_their_standings(played):
    found = teams.team_standings(played)
    points = {row.name: row.points for row in found.rows}
    assert points == by_hand(played, "sum")
    individual = {row.player_id: row.points for row in standings(played)}
    team_of = teams.team_of_players(played)
    for row in found.rows:
        assert row.points == sum(p for player, p in individual.items() if team_of[player] == row.team)
    assert sum(points.values()) == 0  # every seat of every table is a member: results sum to zero
    assert [row.rank for row in found.rows] == sorted(row.rank for row in found.rows)
    assert all(row.games == 8 for row in found.rows)  # 4 members x 2 rounds


def test_best_members_per_round_and_after_round_n(played, organiser):
    teams.update_settings(event=played, counting=TeamSettings.Counting.BEST, best=2, user=organiser)
    found = teams.team_standings(played)
    assert {row.name: row.points for row in found.rows} == by_hand(played, "best", 2)
    after_one = teams.team_standings(played, up_to_round=1)
    assert {row.name: row.points for row in after_one.rows} == by_hand(played, "best", 2, up_to_round=1)
    assert all(row.games == 4 for row in after_one.rows)
    # Per round, the members who counted are the two best of that round.
    row = found.rows[0]
    assert sum(m.counted for m in row.members.values()) == row.points
    assert sum(row.rounds.values()) == row.points


def test_event_level_penalties_count_in_full_and_rounds_after_n_do_not(played, organiser):
    player = Player.objects.filter(registrations__event=played).order_by("pk").first()
    team = teams.team_of_players(played)[player.pk]
    before = {row.team: row.points for row in teams.team_standings(played).rows}
    before_one = {row.team: row.points for row in teams.team_standings(played, up_to_round=1).rows}
    services.add_penalty(
        event=played, player=player, points=-8000, reason="late", user=organiser, round_number=2
    )
    after = {row.team: row.points for row in teams.team_standings(played).rows}
    assert after[team] == before[team] - 8000
    assert after == {t: p - 8000 if t == team else p for t, p in before.items()}
    # Given in round 2, the penalty is not in the standings after round 1.
    after_one = {row.team: row.points for row in teams.team_standings(played, up_to_round=1).rows}
    assert after_one == before_one
    assert after_one[team] == by_hand(played, "sum", up_to_round=1)[Team.objects.get(pk=team).name]


def test_hidden_rounds_stay_hidden_from_the_public_team_standings(played, organiser):
    played.standings_hidden_after_round = 1
    played.save()
    public = teams.team_standings(played)
    assert public.up_to_round == 1 and public.rounds == [1]
    assert {row.name: row.points for row in public.rows} == by_hand(played, "sum", up_to_round=1)
    asked = teams.team_standings(played, up_to_round=2)  # a visitor asking for later gets round 1
    assert asked.up_to_round == 1
    everything = teams.team_standings(played, public=False)
    assert {row.name: row.points for row in everything.rows} == by_hand(played, "sum")


def test_a_team_without_games_is_listed_not_ranked(cup, organiser):
    teams.register_teams(event=cup, text="Red; Ann\nBlue; Bob", user=organiser)
    rows = teams.team_standings(cup).rows
    assert [(r.name, r.ranked, r.rank, r.points) for r in rows] == [
        ("Blue", False, None, 0),
        ("Red", False, None, 0),
    ]


def test_the_team_page_shows_each_members_share_and_statistics(
    played, organiser, django_assert_max_num_queries
):
    team = Team.objects.get(event=played, name="A")
    with django_assert_max_num_queries(12):
        page = teams.team_page(team)
    assert page.total.points == sum(m.counted for m in page.members)
    assert {m.player.display_name for m in page.members} == set(
        TeamMember.objects.filter(team=team).values_list("registration__player__display_name", flat=True)
    )
    assert sum(m.standing.games for m in page.members) == 8
    assert [kind for kind, _n, _p in page.rounds] == ["round", "round"]
    assert page.hands is None  # final scores only: no hand statistics


def test_settings_are_checked(cup, organiser):
    with pytest.raises(ValidationError, match="a whole number from 1 to 50"):
        teams.update_settings(event=cup, counting="best", best=0, user=organiser)
    with pytest.raises(ValidationError, match="choose the sum or the best"):
        teams.update_settings(event=cup, counting="median", best=2, user=organiser)
    teams.update_settings(event=cup, counting="best", best=3, user=organiser)
    teams.update_settings(event=cup, counting="best", best=3, user=organiser)  # again: nothing to record
    assert HistoryEntry.objects.filter(action="team settings changed").count() == 1


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    sizes=st.lists(st.integers(1, 5), min_size=1, max_size=4),
    results=st.lists(st.tuples(st.integers(0, 19), st.integers(1, 3), st.integers(-60, 60)), max_size=40),
    best=st.integers(1, 5),
)
def test_sum_mode_matches_the_individual_standings_and_best_k_never_counts_more_members(sizes, results, best):
    """team_points against a plain recomputation: the sum is every member's points; best K takes, per
    round, the K best members' totals."""
    from tournaments import team_points

    members, player = {}, 0
    for team, size in enumerate(sizes):
        members[team] = list(range(player, player + size))
        player += size
    rows = [team_points.Result(p, r, points * 100) for p, r, points in results]
    names = {team: f"T{team}" for team in members}
    summed = {t.team: t.points for t in team_points.team_totals(names, members, rows)}
    bested = {t.team: t for t in team_points.team_totals(names, members, rows, counting="best", best=best)}
    for team, players in members.items():
        assert summed[team] == sum(r.points for r in rows if r.player in players)
        expected = 0
        for round_ in {r.round for r in rows}:
            per_member = {}
            for r in rows:
                if r.player in players and r.round == round_:
                    per_member[r.player] = per_member.get(r.player, 0) + r.points
            expected += sum(sorted(per_member.values(), reverse=True)[:best])
        assert bested[team].points == expected
        if best >= len(players):
            assert bested[team].points == summed[team]


def test_team_points_imports_without_django():
    """The counting rule is pure Python (an import-linter contract too): it imports in a fresh
    interpreter where Django and the project's other packages cannot be imported at all."""
    import subprocess
    import sys
    from pathlib import Path

    code = (
        "import sys\n"
        "for name in ('django', 'league', 'scoring', 'config'):\n"
        "    sys.modules[name] = None\n"
        "from tournaments import team_points\n"
        "rows = team_points.team_totals({1: 'Red'}, {1: [7, 8]}, [team_points.Result(7, 1, 500)])\n"
        "assert rows[0].points == 500 and rows[0].rank == 1\n"
    )
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
