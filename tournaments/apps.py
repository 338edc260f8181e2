"""The event day: seating, rounds, substitutes, table links, the clock, the wall screen, the EMA report."""

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
