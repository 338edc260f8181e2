from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RankingsConfig(AppConfig):
    """Rankings across events: the EMA-style ranking, the lifetime rating ladders, the club season ladder,
    results imported from tournaments held elsewhere, and merging two records of one person."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "rankings"
    verbose_name = _("Rankings")

    def ready(self) -> None:
        from rankings import listeners  # noqa: F401 -- connects the signal receivers
