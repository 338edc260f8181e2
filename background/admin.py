"""The work still to do, for the administrator: what waits, what is retried, what failed and why."""

from django.contrib import admin

from .models import Pending


@admin.register(Pending)
class PendingAdmin(admin.ModelAdmin):
    list_display = ("kind", "key", "scope", "created_at", "attempts", "run_after", "failed")
    list_filter = ("kind", "failed")
    search_fields = ("key", "scope", "last_error")
    readonly_fields = ("kind", "key", "scope", "created_at", "lease_until", "attempts", "last_error")
    fields = (*readonly_fields, "run_after", "failed")
