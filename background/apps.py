from django.apps import AppConfig


class BackgroundConfig(AppConfig):
    """Work that requests must not wait for: kept as rows (``Pending``), done by task workers."""

    name = "background"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Kinds of work are declared in each app's ``tasks`` module (scoring/tasks.py...): import them,
        # so that a worker knows every kind it may be asked to drain.
        from django.utils.module_loading import autodiscover_modules

        autodiscover_modules("tasks")
        _without_the_rq_dashboard()


def _without_the_rq_dashboard() -> None:
    """django-rq (installed with ``TASKS_BACKEND=rq``) adds a dashboard to the admin whose pages run
    inline scripts, which the site's Content-Security-Policy blocks: a broken page. The queue is read
    with RQ's own command line (``rq info``), the work itself in the admin's pending work list
    (background/admin.py)."""
    from django.apps import apps
    from django.contrib import admin

    if not apps.is_installed("django_rq"):
        return
    from django_rq.models import Dashboard

    if admin.site.is_registered(Dashboard):
        admin.site.unregister(Dashboard)
