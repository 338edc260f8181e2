"""``manage.py vapid_keys``: make the site's VAPID key pair for Web Push, printed as the environment
lines to set (README's settings table). Run once: a new pair makes every browser subscribe again."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from notifications.push import make_keys


class Command(BaseCommand):
    help = "Make a VAPID key pair for Web Push and print it as environment settings."

    def handle(self, *args: Any, **options: Any) -> None:
        private, public = make_keys()
        self.stdout.write(f"VAPID_PRIVATE_KEY={private}\nVAPID_PUBLIC_KEY={public}\n")
