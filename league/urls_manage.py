"""Organisers' URLs of the league app (mounted under /manage/): clubs, events, registrations."""

from django.urls import path

from .views import manage

app_name = "league_manage"

urlpatterns = [
    path("", manage.dashboard, name="dashboard"),
    path("clubs/<slug:club_slug>/events/new/", manage.event_create, name="event_create"),
    path("events/<slug:slug>/", manage.event_detail, name="event"),
    path("events/<slug:slug>/edit/", manage.event_edit, name="event_edit"),
    path(
        "events/<slug:slug>/registrations/<int:pk>/withdraw/",
        manage.registration_withdraw,
        name="registration_withdraw",
    ),
    path(
        "events/<slug:slug>/registrations/<int:pk>/restore/",
        manage.registration_restore,
        name="registration_restore",
    ),
    path("players/<int:pk>/edit/", manage.player_edit, name="player_edit"),
    path("events/<slug:slug>/players/add/", manage.register_player, name="register_player"),
    path("events/<slug:slug>/players/paste/", manage.register_players_csv, name="register_players_csv"),
]
