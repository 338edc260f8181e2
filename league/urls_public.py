"""Public URLs of the league app: the list of events."""

from django.urls import path

from .views import public

app_name = "league"

urlpatterns = [
    path("events/", public.event_list, name="events"),
]
