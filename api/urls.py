"""The API's URLs, under ``/api/v1/`` (config/urls.py): the schema and its docs, then the resources."""

from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerSplitView

from . import views, writes

app_name = "api"

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api:schema"), name="docs"),
    path("redoc/", SpectacularRedocView.as_view(url_name="api:schema"), name="redoc"),
    path("clubs/", views.ClubList.as_view(), name="clubs"),
    path("clubs/<slug:slug>/", views.ClubDetail.as_view(), name="club"),
    path("events/", views.EventList.as_view(), name="events"),
    path("events/<slug:slug>/", views.EventDetail.as_view(), name="event"),
    path("events/<slug:slug>/players/", views.EventPlayers.as_view(), name="event_players"),
    path("events/<slug:slug>/games/", views.EventGames.as_view(), name="event_games"),
    path("events/<slug:slug>/standings/", views.Standings.as_view(), name="standings"),
    path("events/<slug:slug>/stages/", views.Stages.as_view(), name="stages"),
    path(
        "events/<slug:slug>/stages/<int:order>/standings/",
        views.StageStandings.as_view(),
        name="stage_standings",
    ),
    path("events/<slug:slug>/final-ranking/", views.FinalRanking.as_view(), name="final_ranking"),
    path("events/<slug:slug>/ratings/", views.Ratings.as_view(), name="ratings"),
    path("events/<slug:slug>/rounds/", views.Rounds.as_view(), name="rounds"),
    path("events/<slug:slug>/rounds/<int:number>/seating/", views.Seating.as_view(), name="seating"),
    path("events/<slug:slug>/rounds/<int:number>/clock/", views.RoundClock.as_view(), name="round_clock"),
    path("events/<slug:slug>/clock/", views.Clock.as_view(), name="clock"),
    path("events/<slug:slug>/imports/", writes.Import.as_view(), name="imports"),
    path("games/<int:pk>/", views.GameDetail.as_view(), name="game"),
    path("games/<int:pk>/hands/", writes.HandCreate.as_view(), name="hands"),
    path("games/<int:pk>/final-scores/", writes.FinalScores.as_view(), name="final_scores"),
    path("players/<int:pk>/", views.PlayerDetail.as_view(), name="player"),
]
