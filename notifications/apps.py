from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    """The e-mail outbox every feature sends through: rows written in the change's transaction, sent by a
    background worker after the commit, in the recipient's language, each with an unsubscribe link."""

    name = "notifications"
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = "Notifications"
