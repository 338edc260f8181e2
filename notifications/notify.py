"""Tell one person something, in every way they accepted: an e-mail (the outbox) and a push to each of
their browsers (``notifications.push``), both queued in the caller's transaction, both idempotent by
``key``, both in the person's language, neither if they turned ``kind`` off."""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string
from django.utils import translation

from . import push
from .outbox import queue_email, wants


def notify(
    *,
    key: str,
    kind: str,
    to: str,
    language: str,
    template: str,
    context: dict[str, Any],
    url: str = "",
    scope: str = "",
) -> None:
    """E-mail ``<template>`` (``_subject.txt``, ``.txt``) to ``to``; push ``<template>_subject.txt``
    and ``<template>_push.txt`` to their browsers, opening ``url``."""
    if not to or not wants(to, kind):
        return
    queue_email(key=key, to=to, template=template, context=context, language=language, scope=scope, kind=kind)
    if push.enabled():
        with translation.override(language):
            title = " ".join(render_to_string(f"{template}_subject.txt", context).split())
            body = render_to_string(f"{template}_push.txt", context).strip()
        push.queue_push(key=key, address=to, kind=kind, title=title, body=body, url=url, scope=scope)
