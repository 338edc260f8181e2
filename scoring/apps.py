from django.apps import AppConfig


class ScoringConfig(AppConfig):
    """What happened and what it is worth: hands, wins, penalties and cached results."""

    name = "scoring"
    default_auto_field = "django.db.models.BigAutoField"
