"""A team event in a phone-sized Chromium: eight teams of four pasted as "Team; Player" lines (players and
teams registered at once), the seating drawn with teammates kept apart, a few games entered, the team
standings and the wall screen's team slide."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from league.models import Club, Hanchan
from tests.e2e.conftest import ARTIFACTS, login
from tournaments import teams
from tournaments.models import Team

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

TEAMS = ["Aoi", "Beni", "Kuro", "Shiro", "Midori", "Kiiro", "Momo", "Sora"]
SCORES = ["45000", "32000", "25000", "18000"]  # East 1st … North 4th (uma +15/+5/−5/−15)


def test_a_team_event_of_eight_teams_of_four(page):
    user = get_user_model().objects.create_user("tomo", password="organiser-pass-123")
    club = Club.objects.create(name="Mahjong Kyoto", slug="mahjong-kyoto", country="JP")
    club.organisers.add(user)
    login(page, "tomo", "organiser-pass-123")

    page.goto(f"/manage/clubs/{club.slug}/events/new/")
    page.fill("#id_name", "Team Cup")
    page.fill("#id_slug", "team-cup")
    page.select_option("#id_kind", "tournament")
    page.click("#event-form button[type=submit]")
    page.wait_for_url("**/manage/events/team-cup/")

    # Register by paste: the players and their teams at once, a captain for each team.
    page.click("#link-teams")
    page.wait_for_url("**/manage/events/team-cup/teams/")
    lines = ["Team; Player"] + [
        f"{team}; {team} {n}{'; captain' if n == 1 else ''}" for team in TEAMS for n in range(1, 5)
    ]
    page.fill("#id_text", "\n".join(lines))
    page.click("#team-paste-form button[type=submit]")
    page.wait_for_url("**/manage/events/team-cup/teams/")
    assert "8 teams created, 32 players registered, 32 members added" in page.inner_text(".messages")
    assert page.locator("table.teams tbody tr").count() == 8
    page.screenshot(path=str(ARTIFACTS / "team-paste.png"), full_page=True)

    # Seat six rounds: teammates never share a table, and the quality line says so.
    page.goto("/manage/events/team-cup/tournament/")
    page.fill("#id_rounds", "6")
    page.click("#seating-form button[type=submit]")
    page.wait_for_selector("#quality")
    quality = " ".join(page.inner_text("#quality").split())
    assert "teammates never share a table" in quality and "0 repeated opponent pairs" in quality
    team_of = teams.team_of_players(Team.objects.get(name="Aoi").event)
    for table in Hanchan.objects.filter(event__slug="team-cup").prefetch_related("seats"):
        members = [team_of[seat.player_id] for seat in table.seats.all()]
        assert len(set(members)) == 4, table

    # Enter round 1's tables from the slips.
    for table in Hanchan.objects.filter(event__slug="team-cup", round_number=1).order_by("table_number"):
        page.goto(f"/manage/games/{table.pk}/")
        for seat, score in enumerate(SCORES):
            page.fill(f"#id_score_{seat}", score)
        page.click("#final-scores-form button[type=submit]")
        page.wait_for_selector(".final-table")

    # The team standings: each team's four members played once, East +30.0 … North −30.0 per table.
    page.goto("/events/team-cup/")
    page.click("#event-teams a")
    page.wait_for_url("**/events/team-cup/teams/")
    rows = page.locator("#team-standings tbody tr")
    assert rows.count() == 8
    games = page.locator("#team-standings tbody tr td:nth-child(4)").all_inner_texts()
    assert set(games) == {"4"}
    points = [
        float(text.replace("\u2212", "-").replace("+", ""))
        for text in page.locator("#team-standings tbody tr td:nth-child(3)").all_inner_texts()
    ]
    assert points == sorted(points, reverse=True) and abs(sum(points)) < 0.05
    standing = page.locator("#team-standings tbody tr td:nth-child(2)").all_inner_texts()
    page.screenshot(path=str(ARTIFACTS / "team-standings.png"), full_page=True)

    # A team's page: its members' results.
    page.locator("#team-standings tbody tr").first.locator("a").click()
    page.wait_for_selector("#team-members")
    assert page.locator("#team-members tbody tr").count() == 4

    # The wall's team view: the slide loads by itself and lists the teams in standings order.
    page.goto("/events/team-cup/wall/?teams=1&rotate=5")
    # (clock, seating, standings, teams: five seconds each, so the team slide is shown within 20 s)
    page.wait_for_selector("#wall-teams .wall-teams-page.is-current", timeout=30_000)
    shown = page.locator("#wall-teams .wall-name").all_inner_texts()
    assert len(shown) == 8 and set(shown) == set(TEAMS)
    assert re.sub(r"\s+", " ", page.inner_text("#wall-teams h2")).startswith("Team standings")
    assert shown == standing  # the slide's order is the standings'
    page.screenshot(path=str(ARTIFACTS / "team-wall.png"), full_page=True)
