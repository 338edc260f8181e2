"""Organisers' URLs of the scoring app: games, hand entry, corrections, penalties, rules."""

from django.urls import path

from .views import manage, online
from .views.rules import event_rules

app_name = "scoring_manage"

urlpatterns = [
    path("events/<slug:slug>/games/", manage.game_list, name="games"),
    path("events/<slug:slug>/games/new/", manage.game_new, name="game_new"),
    path("events/<slug:slug>/penalties/", manage.penalties, name="penalties"),
    path(
        "events/<slug:slug>/penalties/<int:penalty_id>/cancel/", manage.penalty_cancel, name="penalty_cancel"
    ),
    path("events/<slug:slug>/rules/", event_rules, name="event_rules"),
    path("events/<slug:slug>/online-import/", online.online_import, name="online_import"),
    path(
        "events/<slug:slug>/online-import/<uuid:batch>/",
        online.online_import_batch,
        name="online_import_batch",
    ),
    path(
        "events/<slug:slug>/online-import/<uuid:batch>/progress/",
        online.online_import_progress,
        name="online_import_progress",
    ),
    path(
        "events/<slug:slug>/online-import/<uuid:batch>/confirm/",
        online.online_import_confirm,
        name="online_import_confirm",
    ),
    path("games/<int:pk>/", manage.game, name="game"),
    path("games/<int:pk>/hands/", manage.hand_add, name="hand_add"),
    path("games/<int:pk>/preview/", manage.preview, name="preview"),
    path("games/<int:pk>/hands/<int:number>/", manage.hand_correct, name="hand_correct"),
    path("games/<int:pk>/undo/", manage.undo, name="undo"),
    path("games/<int:pk>/finish/", manage.finish, name="finish"),
    path("games/<int:pk>/void/", manage.void, name="void"),
    path("games/<int:pk>/reopen/", manage.reopen, name="reopen"),
    path("games/<int:pk>/final-scores/", manage.final_scores, name="final_scores"),
    path("games/<int:pk>/entry-mode/", manage.entry_mode, name="entry_mode"),
    path("games/<int:pk>/played-on/", manage.played_on, name="played_on"),
]
