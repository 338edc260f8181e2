from django.contrib import admin

from .models import AccountEntry, ClaimCode


@admin.register(ClaimCode)
class ClaimCodeAdmin(admin.ModelAdmin):
    list_display = ("player", "code", "created_at", "used_at")
    raw_id_fields = ("player", "created_by")
    search_fields = ("player__display_name", "code")


@admin.register(AccountEntry)
class AccountEntryAdmin(admin.ModelAdmin):
    list_display = ("player", "action", "summary", "at", "user")
    raw_id_fields = ("player", "user")
    readonly_fields = ("summary_data",)
