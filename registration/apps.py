from django.apps import AppConfig


class RegistrationConfig(AppConfig):
    """Players' own registration for an event (public form, waiting list, approval) and check-in; the
    messages of their tournament's day (``registration.notify``)."""

    name = "registration"
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = "Registration"

    def ready(self) -> None:
        from league import event_links

        from . import links, notify

        notify.connect()
        event_links.register("register", links.register_link)
