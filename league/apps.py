from django.apps import AppConfig


class LeagueConfig(AppConfig):
    """Who and when: clubs, players, events, registrations, rounds, seating and hanchans."""

    name = "league"
    default_auto_field = "django.db.models.BigAutoField"
