"""Public URLs of the tournament day: what players and the room see without an account."""

from django.urls import path

from .views import table, wall

app_name = "tournaments"

urlpatterns = [
    # The wall screen (projector) and the fragments it and every round clock poll.
    path("events/<slug:slug>/wall/", wall.wall, name="wall"),
    path("events/<slug:slug>/wall/seating/", wall.wall_seating, name="wall_seating"),
    path("events/<slug:slug>/wall/standings/", wall.wall_standings, name="wall_standings"),
    path("events/<slug:slug>/clock/", wall.clock, name="clock"),
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
