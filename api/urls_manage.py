"""The organisers' pages of the API: an event's keys."""

from django.urls import path

from . import keys_page, webhooks_page

app_name = "api_manage"

urlpatterns = [
    path("events/<slug:slug>/api-keys/", keys_page.keys, name="keys"),
    path("events/<slug:slug>/api-keys/<int:pk>/revoke/", keys_page.revoke, name="key_revoke"),
    path("events/<slug:slug>/webhooks/", webhooks_page.hooks, name="webhooks"),
    path("events/<slug:slug>/webhooks/<int:pk>/revoke/", webhooks_page.revoke, name="webhook_revoke"),
]
