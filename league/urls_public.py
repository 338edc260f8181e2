"""Public URLs of the league app: events and players."""

from django.urls import path

from .views import public

app_name = "league"

urlpatterns = [
    path("events/", public.event_list, name="events"),
    path("events/<slug:slug>/", public.event_detail, name="event"),
    path("players/<int:pk>/", public.player_detail, name="player"),
]
