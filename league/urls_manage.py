"""Organisers' URLs of the league app: clubs, events, registrations."""

from django.urls import path

from .views import manage

app_name = "league_manage"

urlpatterns = [
    path("", manage.dashboard, name="dashboard"),
    path("events/<slug:slug>/", manage.event_detail, name="event"),
]
