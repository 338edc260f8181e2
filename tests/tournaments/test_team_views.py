"""The team pages: organisers' forms (paste, new team, members, captain, settings) with errors naming
the field and the rule and double taps harmless; someone else's event or team answering 404; the public
team standings, team page, CSV and the wall's team slide respecting hidden rounds, in a bounded number of
queries whatever the number of teams and games."""

from __future__ import annotations

import csv
import io
from decimal import Decimal

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from league.models import Event, Player, Registration
from tests.tournaments.test_team_seating import make_team_event
from tests.tournaments.test_tournament import finish_round
from tournaments import services as tournament
from tournaments import teams
from tournaments.models import Team, TeamMember, TeamSettings

pytestmark = pytest.mark.django_db

BOM = b"\xef\xbb\xbf"


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()


@pytest.fixture
def logged_in(organiser):
    client = Client(raise_request_exception=False)
    client.force_login(organiser)
    return client


@pytest.fixture
def played(club, organiser):
    """Four teams of four, seated over three rounds, round 1 played."""
    event = make_team_event(club, organiser, 4, 4)
    tournament.seat_tournament(event=event, rounds=3, user=organiser)
    finish_round(event, 1, organiser)
    return event


def test_the_paste_page_registers_teams_and_a_second_tap_changes_nothing(logged_in, club, organiser):
    event = make_team_event(club, organiser, 1, 1)  # any event
    url = reverse("tournaments_manage:teams_paste", args=[event.slug])
    text = "Red; Ann; captain\nRed; Bob\nBlue; Cho"
    response = logged_in.post(url, {"text": text}, follow=True)
    assert response.status_code == 200
    assert (
        "Teams pasted: 2 teams created, 3 players registered, 3 members added." in response.content.decode()
    )
    again = logged_in.post(url, {"text": text}, follow=True)
    assert "Nothing new: every player was already in that team." in again.content.decode()
    assert Team.objects.filter(event=event).count() == 3  # Team 00 of the fixture, Red and Blue
    assert TeamMember.objects.filter(team__event=event).count() == 4


def test_a_wrong_paste_is_shown_under_the_text_line_by_line_with_422(logged_in, club, organiser):
    event = make_team_event(club, organiser, 1, 1)
    response = logged_in.post(
        reverse("tournaments_manage:teams_paste", args=[event.slug]), {"text": "Red Ann\nBlue; Bob; boss"}
    )
    assert response.status_code == 422
    page = response.content.decode()
    assert "line 1: write the team, a semicolon, then the player (Red; Ann)." in page
    assert "line 2: after the player, only captain or substitute may follow" in page
    assert Team.objects.filter(event=event).count() == 1


def test_creating_renaming_and_a_team_twice(logged_in, club, organiser):
    event = make_team_event(club, organiser, 1, 1)
    create = reverse("tournaments_manage:team_create", args=[event.slug])
    response = logged_in.post(create, {"name": "Dragons"})
    team = Team.objects.get(event=event, name="Dragons")
    assert response.status_code == 302 and response.url == reverse(
        "tournaments_manage:team", args=[event.slug, team.pk]
    )
    twice = logged_in.post(create, {"name": "dragons"})
    assert twice.status_code == 422
    assert "Team name dragons: the event already has that team." not in twice.content.decode()
    assert "Team name Dragons: the event already has that team." in twice.content.decode()
    empty = logged_in.post(create, {"name": ""})
    assert empty.status_code == 422 and "This field is required." in empty.content.decode()
    renamed = logged_in.post(
        reverse("tournaments_manage:team_rename", args=[event.slug, team.pk]), {"name": "Tigers"}
    )
    assert renamed.status_code == 302
    assert Team.objects.get(pk=team.pk).name == "Tigers"


def test_members_captain_and_delete_through_the_pages(logged_in, club, organiser):
    event = make_team_event(club, organiser, 2, 2)
    ann = Player.objects.create(display_name="Ann", club=club)
    Registration.objects.create(event=event, player=ann)
    team = Team.objects.get(event=event, name="Team 00")
    other = Team.objects.get(event=event, name="Team 01")
    page = logged_in.get(reverse("tournaments_manage:team", args=[event.slug, team.pk]))
    assert list(page.context["member_form"].fields["player"].queryset) == [ann]  # only players in no team
    add = reverse("tournaments_manage:team_member_add", args=[event.slug, team.pk])
    assert logged_in.post(add, {"player": ann.pk, "captain": "on"}).status_code == 302
    assert logged_in.post(add, {"player": ann.pk}).status_code == 302  # a double tap
    assert TeamMember.objects.get(registration__player=ann).is_captain
    refused = logged_in.post(
        reverse("tournaments_manage:team_member_add", args=[event.slug, other.pk]), {"player": ann.pk}
    )
    assert refused.status_code == 422
    assert "Ann is already in team Team 00: a player is in one team at most." in refused.content.decode()
    mate = TeamMember.objects.filter(team=other).first().registration.player
    wrong = logged_in.post(
        reverse("tournaments_manage:team_captain", args=[event.slug, team.pk]), {"captain": mate.pk}
    )
    assert (
        wrong.status_code == 422
        and f"Captain: {mate} is not in team Team 00; add them first." in wrong.content.decode()
    )
    remove = reverse("tournaments_manage:team_member_remove", args=[event.slug, team.pk])
    assert logged_in.post(remove, {"player": ann.pk}).status_code == 302
    again = logged_in.post(remove, {"player": ann.pk}, follow=True)
    assert "Ann is not in team Team 00." in again.content.decode()
    delete = reverse("tournaments_manage:team_delete", args=[event.slug, team.pk])
    assert logged_in.post(delete).url == reverse("tournaments_manage:teams", args=[event.slug])
    assert logged_in.post(delete).status_code == 302  # deleted already: no error
    assert not Team.objects.filter(pk=team.pk).exists()


def test_settings_form_names_the_field(logged_in, club, organiser):
    event = make_team_event(club, organiser, 1, 1)
    url = reverse("tournaments_manage:team_settings", args=[event.slug])
    bad = logged_in.post(url, {"counting": "best", "best": "0"})
    assert bad.status_code == 422
    assert "Ensure this value is greater than or equal to 1." in bad.content.decode()
    assert logged_in.post(url, {"counting": "best", "best": "2"}).status_code == 302
    assert TeamSettings.objects.get(event=event).best == 2


def test_someone_elses_teams_answer_404_and_anonymous_visitors_log_in(club, organiser, other_organiser):
    event = make_team_event(club, organiser, 2, 2)
    team = Team.objects.get(event=event, name="Team 00")
    client = Client()
    client.force_login(other_organiser)
    for name, args in (
        ("tournaments_manage:teams", [event.slug]),
        ("tournaments_manage:team", [event.slug, team.pk]),
    ):
        assert client.get(reverse(name, args=args)).status_code == 404
    assert (
        client.post(reverse("tournaments_manage:team_delete", args=[event.slug, team.pk])).status_code == 404
    )
    assert Team.objects.filter(pk=team.pk).exists()
    anonymous = Client().get(reverse("tournaments_manage:teams", args=[event.slug]))
    assert anonymous.status_code == 302 and anonymous.url.startswith(reverse("login"))


def test_public_team_standings_page_and_csv_agree(played):
    found = teams.team_standings(played)
    page = Client().get(reverse("tournaments:team_standings", args=[played.slug]))
    assert page.status_code == 200
    html = page.content.decode()
    for row in found.rows:
        assert row.name in html
    response = Client().get(reverse("tournaments:team_standings_csv", args=[played.slug]))
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response.content.startswith(BOM)
    rows = list(csv.reader(io.StringIO(response.content[len(BOM) :].decode())))
    assert rows[0] == ["rank", "team", "points", "games", "members"]
    assert [(r[1], Decimal(r[2]), int(r[3])) for r in rows[1:]] == [
        (row.name, Decimal(row.points) / 1000, row.games) for row in found.rows
    ]
    assert all(not r[2].startswith("+") and "\u2212" not in r[2] for r in rows[1:])  # plain numbers
    assert (
        Client().get(reverse("tournaments:team_standings_csv", args=[played.slug]) + "?round=x").status_code
        == 400
    )


def test_public_pages_keep_hidden_rounds_hidden(played, organiser):
    finish_round(played, 2, organiser, scores=(45000, 30000, 25000, 20000))
    played.standings_hidden_after_round = 1
    played.save()
    after_one = {
        row.name: row.points for row in teams.team_standings(played, up_to_round=1, public=False).rows
    }
    response = Client().get(reverse("tournaments:team_standings", args=[played.slug]) + "?round=2")
    assert response.context["standings"].up_to_round == 1
    assert {row.name: row.points for row in response.context["standings"].rows} == after_one
    csv_text = (
        Client().get(reverse("tournaments:team_standings_csv", args=[played.slug]) + "?round=2").content
    )
    assert b"rank,team,points,games,members" in csv_text
    team = Team.objects.get(event=played, name="Team 00")
    page = Client().get(reverse("tournaments:team", args=[played.slug, team.pk]))
    assert page.context["page"].total.points == after_one["Team 00"]
    assert [kind_value[:2] for kind_value in page.context["page"].rounds] == [("round", 1)]


@pytest.mark.parametrize("n_teams", [4, 12])
def test_team_pages_cost_the_same_few_queries_for_4_or_12_teams(
    club, organiser, n_teams, django_assert_max_num_queries
):
    event = make_team_event(club, organiser, n_teams, 4)
    tournament.seat_tournament(event=event, rounds=2, user=organiser)
    finish_round(event, 1, organiser)
    team = Team.objects.filter(event=event).first()
    client = Client()
    urls = {
        reverse("tournaments:team_standings", args=[event.slug]): 7,
        reverse("tournaments:team_standings_csv", args=[event.slug]): 7,
        reverse("tournaments:team", args=[event.slug, team.pk]): 13,
        reverse("tournaments:wall_teams", args=[event.slug]): 7,
    }
    for url, most in urls.items():
        with django_assert_max_num_queries(most):
            assert client.get(url).status_code == 200
    manager = Client()
    manager.force_login(organiser)
    for url, most in {
        reverse("tournaments_manage:teams", args=[event.slug]): 9,
        reverse("tournaments_manage:team", args=[event.slug, team.pk]): 9,
    }.items():
        with django_assert_max_num_queries(most):
            assert manager.get(url).status_code == 200


def test_the_wall_shows_the_team_slide_on_request_and_follows_changes(played, organiser):
    plain = Client().get(reverse("tournaments:wall", args=[played.slug])).content.decode()
    assert 'id="wall-teams"' not in plain
    html = Client().get(reverse("tournaments:wall", args=[played.slug]) + "?teams=1").content.decode()
    slide_url = reverse("tournaments:wall_teams", args=[played.slug])
    assert f'hx-get="{slide_url}?' in html
    slide = Client().get(slide_url).content.decode()
    leader = teams.team_standings(played).rows[0]
    assert "Team standings" in slide and leader.name in slide
    team = Team.objects.get(pk=leader.team)
    teams.rename_team(team=team, name="Renamed leaders", user=organiser)  # a change the slide must show
    assert "Renamed leaders" in Client().get(slide_url).content.decode()


def test_a_league_has_no_wall_but_has_team_standings(club, organiser):
    event = make_team_event(club, organiser, 2, 2)
    Event.objects.filter(pk=event.pk).update(kind=Event.Kind.LEAGUE)
    assert Client().get(reverse("tournaments:wall_teams", args=[event.slug])).status_code == 404
    page = Client().get(reverse("tournaments:team_standings", args=[event.slug]) + "?round=3")
    assert page.status_code == 200 and page.context["standings"].rounds == []


def test_members_only_team_pages_ask_for_a_login(played, player_user):
    played.visibility = Event.Visibility.MEMBERS
    played.save()
    team = Team.objects.filter(event=played).first()
    for url in (
        reverse("tournaments:team_standings", args=[played.slug]),
        reverse("tournaments:team_standings_csv", args=[played.slug]),
        reverse("tournaments:team", args=[played.slug, team.pk]),
    ):
        response = Client().get(url)
        assert response.status_code == 302 and response.url.startswith(reverse("login"))
        member = Client()
        member.force_login(player_user)
        assert member.get(url).status_code == 200


def test_a_team_of_another_event_is_not_found_under_this_one(played, club, organiser):
    other = make_team_event(club, organiser, 1, 1)
    team = Team.objects.get(event=other)
    assert Client().get(reverse("tournaments:team", args=[played.slug, team.pk])).status_code == 404
    manager = Client()
    manager.force_login(organiser)
    assert manager.get(reverse("tournaments_manage:team", args=[played.slug, team.pk])).status_code == 404


def test_the_event_page_links_the_team_standings(played):
    html = Client().get(played.get_absolute_url()).content.decode()
    assert reverse("tournaments:team_standings", args=[played.slug]) in html
