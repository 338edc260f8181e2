"""Public URLs of the tournament day: what players and the room see without an account."""

from django.urls import path

from .views import stages, table, teams, wall

app_name = "tournaments"

urlpatterns = [
    # The wall screen (projector) and the fragments it and every round clock poll.
    path("events/<slug:slug>/wall/", wall.wall, name="wall"),
    path("events/<slug:slug>/wall/seating/", wall.wall_seating, name="wall_seating"),
    path("events/<slug:slug>/wall/standings/", wall.wall_standings, name="wall_standings"),
    path("events/<slug:slug>/clock/", wall.clock, name="clock"),
    # Teams: the team standings (and as CSV), a team's page, the wall's team slide.
    path("events/<slug:slug>/teams/", teams.standings, name="team_standings"),
    path("events/<slug:slug>/teams.csv", teams.standings_csv, name="team_standings_csv"),
    path("events/<slug:slug>/teams/<int:pk>/", teams.team_public, name="team"),
    path("events/<slug:slug>/wall/teams/", teams.wall_teams, name="wall_teams"),
    # Stages: each stage's standings (and as CSV), the final ranking, the wall's slide of a stage.
    path("events/<slug:slug>/stages/<int:order>/", stages.standings, name="stage_standings"),
    path("events/<slug:slug>/stages/<int:order>.csv", stages.standings_csv, name="stage_standings_csv"),
    path("events/<slug:slug>/ranking/", stages.ranking, name="final_ranking"),
    path("events/<slug:slug>/wall/stages/<int:order>/", stages.wall_stage, name="wall_stage"),
    # A table's entry link: the token is the key (tournaments/links.py); /t/ takes the short code.
    path("t/", table.code, name="table_code"),
    path("t/<str:token>/", table.table, name="table"),
    path("t/<str:token>/hand/", table.hand, name="table_hand"),
    path("t/<str:token>/preview/", table.preview, name="table_preview"),
    path("t/<str:token>/undo/", table.undo, name="table_undo"),
    path("t/<str:token>/finish/", table.finish, name="table_finish"),
    path("t/<str:token>/scores/", table.scores, name="table_scores"),
    path("t/<str:token>/referee/", table.referee, name="table_referee"),
    path("t/<str:token>/confirm/", table.confirm, name="table_confirm"),
]
