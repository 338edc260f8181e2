from django.apps import AppConfig


class ApiConfig(AppConfig):
    """The documented API (docs/api.md): JSON over the same selectors, services and visibility rules as
    the pages, at the top layer, so no lower app knows it exists."""

    name = "api"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import webhooks  # noqa: F401 -- connects the listeners of the lower layers' signals
