"""django-allauth's adapter: where a player lands after logging in, and allauth's own e-mails (confirm
an address, reset a password) queued in the outbox and sent by the worker, never inside the request."""

from __future__ import annotations

import uuid
from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from notifications.outbox import queue_rendered


class AccountAdapter(DefaultAccountAdapter):
    def get_login_redirect_url(self, request: Any) -> str:
        """A player logging in with their e-mail address goes to their own page (organisers log in on
        their own page, which goes to the home page as before)."""
        return reverse("accounts:me")

    def is_open_for_signup(self, request: Any) -> bool:
        """``TENBOU_PLAYER_SIGNUP`` (on by default): off, the sign-up page says sign-up is closed."""
        return bool(getattr(settings, "TENBOU_PLAYER_SIGNUP", True))

    def send_mail(self, template_prefix: str, email: str, context: dict[str, Any]) -> None:
        """Render allauth's message as allauth does (subject, text, HTML, in the request's language: the
        one of whoever asked for it), then queue it in the outbox in the request's transaction: the
        worker sends it once the transaction commits (a rolled-back request sends nothing, and a slow or
        unreachable mail server never holds up the page)."""
        from allauth.core import context as allauth_context
        from django.contrib.sites.shortcuts import get_current_site

        request = allauth_context.request
        full = {"request": request, "email": email, "current_site": get_current_site(request)}
        full.update(context)
        message = self.render_mail(template_prefix, email, full)
        html = ""
        for content, mimetype in getattr(message, "alternatives", None) or []:
            if mimetype == "text/html":
                html = str(content)
        text = str(message.body)
        if message.content_subtype == "html":  # an HTML-only message (no text template)
            html, text = text, ""
        for to in message.to:
            queue_rendered(
                key=f"allauth:{template_prefix.rsplit('/', 1)[-1]}:{uuid.uuid4().hex}",
                to=to,
                subject=str(message.subject),
                text=text,
                html=html,
                language=translation.get_language() or settings.LANGUAGE_CODE,
            )
