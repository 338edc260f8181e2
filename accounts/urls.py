"""The players' side's addresses: ``/me/`` and its actions, the followed players' fragment, the
calendar feeds, and the organiser's page linking a profile to an account (under ``/manage/``)."""

from django.urls import path

from . import views

app_name = "accounts"

urlpatterns = [
    path("me/", views.me, name="me"),
    path("me/live/", views.me_live, name="me_live"),
    path("me/claim/", views.claim, name="claim"),
    path("me/claim/<str:token>/", views.claim_link, name="claim_link"),
    path("me/visibility/", views.visibility, name="visibility"),
    path("me/privacy/", views.privacy, name="privacy"),
    path("me/games/<int:pk>/confirm/", views.confirm, name="confirm"),
    path("me/data.json", views.data_download, name="data"),
    path("me/close/", views.close, name="close"),
    path("following/", views.followed, name="followed"),
    path("events/<slug:slug>/calendar.ics", views.event_calendar, name="event_calendar"),
    path("calendar/<str:token>.ics", views.my_calendar, name="my_calendar"),
    path("manage/players/<int:pk>/account/", views.player_account, name="player_account"),
    path("manage/players/<int:pk>/account/link/", views.player_account_link, name="player_account_link"),
    path(
        "manage/players/<int:pk>/account/unlink/", views.player_account_unlink, name="player_account_unlink"
    ),
    path("manage/players/<int:pk>/account/code/", views.player_account_code, name="player_account_code"),
]
