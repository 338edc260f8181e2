"""The signed token of a "claim your player page" link (docs/players.md).

Registration writes it into the e-mail it sends to the address a player registered with; the players'
side (accounts) reads it when the link is opened and links the account that confirmed that address to
the player. Both apps use it, and neither may import the other, so it lives here, beside ``Player.user``.
The token names the player and the address, is signed with the site's secret (a forged or altered token
is refused) and expires after ``CLAIM_LINK_DAYS`` days.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core import signing

SALT = "league.claim_link"
CLAIM_LINK_DAYS = 30
"""How long a claim link works: as long as an organiser's claim code."""
MAX_TOKEN = 400


@dataclass(frozen=True)
class ClaimLink:
    player_id: int
    email: str


class BadClaimLink(Exception):
    """The token is not one this site made, or it expired (``expired``)."""

    def __init__(self, *, expired: bool = False) -> None:
        super().__init__("expired" if expired else "bad signature")
        self.expired = expired


def make_token(player_id: int, email: str) -> str:
    return signing.dumps({"p": int(player_id), "e": email.strip().lower()}, salt=SALT, compress=True)


def read_token(token: str, *, max_age_days: int = CLAIM_LINK_DAYS) -> ClaimLink:
    """The player and address a token names; :class:`BadClaimLink` for a forged, altered or stale one."""
    token = str(token or "")
    if not token or len(token) > MAX_TOKEN:
        raise BadClaimLink()
    try:
        data = signing.loads(token, salt=SALT, max_age=max_age_days * 24 * 3600)
    except signing.SignatureExpired:
        raise BadClaimLink(expired=True) from None
    except signing.BadSignature:
        raise BadClaimLink() from None
    try:
        return ClaimLink(player_id=int(data["p"]), email=str(data["e"]))
    except (KeyError, TypeError, ValueError):
        raise BadClaimLink() from None
