"""The outbox for the administrator: what was queued, sent or not sent, and the unsubscribed addresses."""

from django.contrib import admin

from .models import Message, Unsubscribed


@admin.register(Message)
class MessageAdmin(admin.ModelAdmin):
    list_display = ("created_at", "to", "template", "language", "status", "sent_at")
    list_filter = ("status", "template", "language")
    search_fields = ("to", "key")
    readonly_fields = ("key", "to", "language", "template", "context", "status", "created_at", "sent_at")


@admin.register(Unsubscribed)
class UnsubscribedAdmin(admin.ModelAdmin):
    list_display = ("address", "at")
    search_fields = ("address",)
