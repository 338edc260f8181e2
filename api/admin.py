"""The API's rows in the admin, to look at only: keys are made and revoked on the organiser's page (with
a history entry), webhooks likewise, deliveries by the worker. Neither a key's digest nor a webhook's
secret is shown."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db import models
from django.http import HttpRequest

from .models import ApiKey, Delivery, Webhook


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(ApiKey)
class ApiKeyAdmin(ReadOnly):
    list_display = ["name", "prefix", "event", "scopes", "created_at", "last_used_at", "revoked_at"]
    list_filter = ["event"]
    search_fields = ["name", "prefix", "event__name"]
    exclude = ["digest"]


@admin.register(Webhook)
class WebhookAdmin(ReadOnly):
    list_display = ["url", "event", "kinds", "created_at", "revoked_at"]
    list_filter = ["event"]
    search_fields = ["url", "event__name"]
    exclude = ["secret"]
    formfield_overrides = {models.URLField: {"assume_scheme": "https"}}


@admin.register(Delivery)
class DeliveryAdmin(ReadOnly):
    list_display = ["created_at", "kind", "webhook", "status", "attempts", "response_status"]
    list_filter = ["status", "kind"]
    search_fields = ["webhook__url"]
