"""The "Register" link of an event's public page (``league.event_links``): shown while its registration
is open. The page is cached by the event's results version, which ``save_opening`` bumps and
``registration.tasks`` bumps again when the clock opens or closes registration."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import pgettext

from .models import Opening


def register_link(event: Any) -> tuple[str, str] | None:
    opening = Opening.objects.filter(event=event).only("opens_at", "closes_at").first()
    if opening is None or not opening.is_open():
        return None
    return pgettext("event page link", "Register"), reverse("registration:register", args=[event.slug])
