"""The API's rows in the admin: readable by staff, never changed there, and no secret on the pages."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from api.keys import create_key
from api.models import ApiKey, Delivery, Webhook

pytestmark = pytest.mark.django_db


def test_staff_read_keys_webhooks_and_deliveries_without_their_secrets(event, organiser):
    made = create_key(event=event, name="bot", scopes=["read_private"], user=organiser)
    hook = Webhook.objects.create(
        event=event, url="https://hooks.example.org/", kinds=["round.started"], secret="w-s3cret-9"
    )
    Delivery.objects.create(webhook=hook, kind="round.started", payload={})
    staff = Client()
    staff.force_login(
        get_user_model().objects.create_user(
            "sam", password="x-pass-123456", is_staff=True, is_superuser=True
        )
    )
    for model in (ApiKey, Webhook, Delivery):
        meta = model._meta
        listing = staff.get(reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist"))
        page = staff.get(
            reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[model.objects.get().pk])
        )
        for answer in (listing, page):
            assert answer.status_code == 200
            text = answer.content.decode()
            assert made.secret not in text and made.key.digest not in text and "w-s3cret-9" not in text
        assert staff.get(reverse(f"admin:{meta.app_label}_{meta.model_name}_add")).status_code == 403
