"""Organisers' URLs of the league app (mounted under /manage/): clubs, events, registrations."""

from django.urls import path

from .views import manage

app_name = "league_manage"

urlpatterns = [
    path("", manage.dashboard, name="dashboard"),
    path("clubs/<slug:club_slug>/events/new/", manage.event_create, name="event_create"),
    path("events/<slug:slug>/", manage.event_detail, name="event"),
    path("events/<slug:slug>/players/add/", manage.register_player, name="register_player"),
    path("events/<slug:slug>/players/paste/", manage.register_players_csv, name="register_players_csv"),
]
