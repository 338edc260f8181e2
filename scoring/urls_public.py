"""Public URLs of the scoring app: game pages."""

from django.urls import path

from .views import public

app_name = "scoring"

urlpatterns = [
    path("games/<int:pk>/", public.game, name="game"),
]
