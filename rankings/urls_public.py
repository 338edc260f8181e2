"""Public URLs of the rankings."""

from django.urls import path

from . import views

app_name = "rankings"

urlpatterns = [
    path("rankings/", views.ranking, name="ranking"),
    path("rankings/ranking.csv", views.ranking_csv, name="ranking_csv"),
    path("rankings/ladder/", views.ladder, name="ladder"),
    path("rankings/ladder.csv", views.ladder_csv, name="ladder_csv"),
    path("rankings/tournaments/", views.tournaments, name="tournaments"),
    path("rankings/tournaments.csv", views.tournaments_csv, name="tournaments_csv"),
    path("rankings/clubs/<slug:slug>/", views.club_ranking, name="club"),
    path("rankings/clubs/<slug:slug>/ranking.csv", views.club_csv, name="club_csv"),
    path("rankings/clubs/<slug:slug>/season.csv", views.season_csv, name="season_csv"),
    path("rankings/players/<int:pk>/", views.player, name="player"),
    path("rankings/players/<int:pk>/ranking.csv", views.player_csv, name="player_csv"),
]
