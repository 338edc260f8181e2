"""The kinds of message a person can pick (docs/registration.md): each e-mail and push says which it is,
and each person turns kinds off on their personal page or from the unsubscribe link of one e-mail."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

REGISTRATION = "registration"
SEATING = "seating"
ROUND = "round"
RESULT = "result"
STANDINGS = "standings"

KINDS: dict[str, object] = {
    REGISTRATION: _("my registration (confirmed, waiting list, promoted)"),
    SEATING: _("seating published: my table and wind"),
    ROUND: _("a round starts or ends soon: my table and wind"),
    RESULT: _("my result confirmed"),
    STANDINGS: _("standings released"),
}
"""Every kind, with its label on the personal page, in the order it lists them."""


def label(kind: str) -> str:
    return str(KINDS.get(kind, kind))
