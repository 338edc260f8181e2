"""Public URLs of the scoring app: event (standings), player and game pages."""

from django.urls import path

from .views import public
from .views import yaku as yaku_views

app_name = "scoring"

urlpatterns = [
    path("events/<slug:slug>/", public.event, name="event"),
    path("events/<slug:slug>/standings.csv", public.standings_csv, name="standings_csv"),
    path("events/<slug:slug>/standings/live/", public.standings_live, name="standings_live"),
    path("players/<int:pk>/", public.player, name="player"),
    path("players/<int:pk>/charts/<slug:chart>.svg", public.player_chart, name="player_chart"),
    path("games/<int:pk>/", public.game, name="game"),
    path("games/<int:pk>/chart.svg", public.game_chart, name="game_chart"),
    path("events/<slug:slug>/ratings/", public.ratings, name="ratings"),
    path("events/<slug:slug>/yaku/", yaku_views.event_yaku_table, name="yaku"),
]
