"""Writes of the players' side: the link between an account and a profile, a player's own choices,
and closing an account. Each is one transaction, refuses with a message that names the field and the
rule, and leaves an ``AccountEntry``.

Who may do what: an organiser (``league.permissions.can_edit_player``) links, unlinks and issues claim
codes for their club's players; a logged-in user claims a profile with a code and changes only the
profile linked to their own account — nothing here takes a player id from the user's request.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from league import claim_links, phrases
from league.history import clip
from league.models import Event, Player, Registration, Seat
from league.permissions import PRIVATE_FIELDS, can_edit_player
from league.versions import bump_results

from .models import AccountEntry, ClaimCode

CLAIM_DAYS = 30
"""How long a claim code works: long enough for a code handed out at one session to be typed at home,
short enough that an old slip found later claims nothing."""


def _log(player: Player, user: Any, action: str, summary: phrases.Phrase) -> AccountEntry:
    return AccountEntry.objects.create(
        player=player,
        user=user if user is not None and user.is_authenticated else None,
        action=action,
        summary=clip(phrases.english(summary), 300),
        summary_data=summary,
    )


def _refuse_unless_organiser(user: Any, player: Player) -> None:
    if not can_edit_player(user, player):
        raise ValidationError(
            gettext("%(player)s: only the organisers of their club (or staff) may link their account.")
            % {"player": player.display_name}
        )


def _locked_player(player: Player) -> Player:
    locked = Player.objects.select_for_update().filter(pk=player.pk).first()
    if locked is None:
        raise ValidationError(gettext("This player no longer exists."))
    return locked


def player_of(user: Any) -> Player | None:
    """The profile linked to ``user``'s account (None for a visitor or an account not linked yet)."""
    if user is None or not user.is_authenticated:
        return None
    return Player.objects.select_related("club").filter(user=user).first()


@transaction.atomic
def issue_claim_code(*, player: Player, user: Any) -> ClaimCode:
    """A new claim code for ``player`` (the organiser hands it over); their unused codes stop working."""
    _refuse_unless_organiser(user, player)
    locked = _locked_player(player)
    if locked.user_id is not None:
        raise ValidationError(
            gettext("%(player)s's profile is already linked to an account: unlink it first.")
            % {"player": locked.display_name}
        )
    ClaimCode.objects.filter(player=locked, used_at__isnull=True).delete()
    made = ClaimCode.objects.create(player=locked, created_by=user if user.is_authenticated else None)
    _log(locked, user, "claim code issued", phrases.say(gettext_noop("Claim code issued.")))
    return made


def _normalise(code: Any) -> str:
    return "".join(ch for ch in str(code or "").upper() if ch.isalnum())[:16]


@transaction.atomic
def claim_player(*, user: Any, code: str) -> Player:
    """Link ``user``'s account to the profile whose claim code this is."""
    if not user.is_authenticated:
        raise ValidationError(gettext("Log in first: a profile is linked to your account."))
    wanted = _normalise(code)
    if not wanted:
        raise ValidationError({"code": gettext("Code: type the claim code your organiser gave you.")})
    found = ClaimCode.objects.select_for_update().filter(code=wanted).first()
    expired = found is not None and found.created_at < timezone.now() - timedelta(days=CLAIM_DAYS)
    if found is None or found.used_at is not None or expired:
        raise ValidationError(
            {
                "code": gettext(
                    "Code: this claim code is unknown, used or expired. Ask your organiser for a new one."
                )
            }
        )
    if Player.objects.filter(user=user).exists():
        raise ValidationError(gettext("Your account is already linked to a player profile."))
    player = _locked_player(found.player)
    if player.user_id is not None:
        raise ValidationError(gettext("This profile is already linked to another account."))
    player.user = user
    player.save(update_fields=["user"])
    found.used_at = timezone.now()
    found.save(update_fields=["used_at"])
    _log(player, user, "profile claimed", phrases.say(gettext_noop("Profile claimed with a code.")))
    return player


def read_claim_link(token: str) -> claim_links.ClaimLink:
    """The player and address of a registration e-mail's claim link, or a ValidationError saying why not."""
    try:
        return claim_links.read_token(token)
    except claim_links.BadClaimLink as bad:
        if bad.expired:
            raise ValidationError(
                gettext(
                    "This link has expired (it works for %(days)d days). Ask your organiser for a claim code."
                )
                % {"days": claim_links.CLAIM_LINK_DAYS}
            ) from None
        raise ValidationError(
            gettext("This link is not valid: copy the whole link from the e-mail, or ask your organiser.")
        ) from None


@transaction.atomic
def claim_by_email_link(*, user: Any, token: str) -> tuple[Player, bool]:
    """Link ``user``'s account to the player named by a registration e-mail's claim link, when the account
    has confirmed the address the link was sent to. Returns the player and whether it was linked now
    (False: this account held it already — a second tap on the same link)."""
    from allauth.account.models import EmailAddress

    if not user.is_authenticated:
        raise ValidationError(gettext("Log in first: a profile is linked to your account."))
    link = read_claim_link(token)
    player = _locked_player(Player(pk=link.player_id))
    if player.user_id == user.pk:
        return player, False
    if not EmailAddress.objects.filter(user=user, email__iexact=link.email, verified=True).exists():
        raise ValidationError(
            gettext(
                "E-mail: this link was sent to %(email)s, which your account has not confirmed. Log in "
                "with the account of that address, or add and confirm it in your account's e-mail settings."
            )
            % {"email": link.email}
        )
    if player.user_id is not None:
        raise ValidationError(gettext("This profile is already linked to another account."))
    if Player.objects.filter(user=user).exists():
        raise ValidationError(gettext("Your account is already linked to a player profile."))
    player.user = user
    player.save(update_fields=["user"])
    ClaimCode.objects.filter(player=player, used_at__isnull=True).delete()
    _log(
        player,
        user,
        "profile claimed",
        phrases.say(gettext_noop("Profile claimed with the link of a registration e-mail.")),
    )
    return player, True


@transaction.atomic
def link_account(*, player: Player, email: str, user: Any) -> Player:
    """The organiser links ``player`` to the account with this (confirmed) e-mail address."""
    from allauth.account.models import EmailAddress

    _refuse_unless_organiser(user, player)
    address = (email or "").strip()
    found = (
        EmailAddress.objects.filter(email__iexact=address, verified=True).select_related("user").first()
        if address and len(address) <= 254 and "\x00" not in address
        else None
    )
    if found is None:
        raise ValidationError(
            {"email": gettext("E-mail: no account has confirmed this address. The player signs up first.")}
        )
    account = found.user
    locked = _locked_player(player)
    if locked.user_id == account.pk:
        return locked
    if locked.user_id is not None:
        raise ValidationError(gettext("This profile is already linked to another account: unlink it first."))
    if Player.objects.filter(user=account).exists():
        raise ValidationError(
            {"email": gettext("E-mail: this account is already linked to another profile.")}
        )
    locked.user = account
    locked.save(update_fields=["user"])
    ClaimCode.objects.filter(player=locked, used_at__isnull=True).delete()
    _log(locked, user, "account linked", phrases.say(gettext_noop("Account linked by an organiser.")))
    return locked


@transaction.atomic
def unlink_account(*, player: Player, user: Any) -> Player:
    """The organiser removes the link (a wrong link, an account the player lost)."""
    _refuse_unless_organiser(user, player)
    locked = _locked_player(player)
    if locked.user_id is None:
        raise ValidationError(gettext("This profile is not linked to an account."))
    locked.user = None
    locked.save(update_fields=["user"])
    _log(locked, user, "account unlinked", phrases.say(gettext_noop("Account unlinked by an organiser.")))
    return locked


def _played_events(player: Player) -> list[int]:
    seated = Seat.objects.filter(Q(player=player) | Q(on_behalf_of=player)).values("hanchan__event")
    registered = Registration.objects.filter(player=player).values("event_id")
    return list(Event.objects.filter(Q(pk__in=seated) | Q(pk__in=registered)).values_list("pk", flat=True))


@transaction.atomic
def set_visibility(*, user: Any, visibility: str) -> Player:
    """The player chooses who sees their page beyond their name and results in standings: everyone,
    or logged-in members only (``Player.visibility``, which every public page already obeys)."""
    player = player_of(user)
    if player is None:
        raise ValidationError(gettext("Your account is not linked to a player profile yet."))
    if visibility not in Player.Visibility.values:
        raise ValidationError({"visibility": gettext("Visibility: choose public or members only.")})
    locked = _locked_player(player)
    if locked.visibility == visibility:
        return locked
    before = locked.visibility
    locked.visibility = visibility
    locked.save(update_fields=["visibility"])
    _log(
        locked,
        user,
        "visibility changed",
        phrases.say(
            gettext_noop("Page visibility changed by the player: %(before)s → %(after)s."),
            before=before,
            after=visibility,
        ),
    )
    # The pages that show the player are cached by their results version: move it on.
    bump_results(player_ids=[locked.pk], event_ids=_played_events(locked), event_players=True)
    return locked


@transaction.atomic
def set_privacy(*, user: Any, public: dict[str, bool]) -> Player:
    """The player chooses, field by field, what their page shows beyond their display name and results
    (``Player.public_<field>``; ``public`` maps each of ``PRIVATE_FIELDS`` to whether it is public, a
    field left out keeping its value). Their organisers and they themselves still read every field."""
    player = player_of(user)
    if player is None:
        raise ValidationError(gettext("Your account is not linked to a player profile yet."))
    unknown = sorted(set(public) - set(PRIVATE_FIELDS))
    if unknown:
        raise ValidationError(gettext("Privacy: unknown field %(field)s.") % {"field": unknown[0]})
    locked = _locked_player(player)
    changed = {
        name: bool(value)
        for name, value in public.items()
        if bool(value) != getattr(locked, f"public_{name}")
    }
    if not changed:
        return locked
    for name, value in changed.items():
        setattr(locked, f"public_{name}", value)
    locked.save(update_fields=[f"public_{name}" for name in changed])
    shown = [name for name in PRIVATE_FIELDS if getattr(locked, f"public_{name}")]
    _log(
        locked,
        user,
        "privacy changed",
        phrases.say(
            gettext_noop("Public fields chosen by the player: %(fields)s."),
            fields=", ".join(shown) or "-",
        ),
    )
    # The pages that show the player are cached by their results version: move it on.
    bump_results(player_ids=[locked.pk], event_ids=_played_events(locked), event_players=True)
    return locked


@transaction.atomic
def close_account(*, user: Any) -> None:
    """Delete the account. The player profile and its results stay (an event's standings, its EMA
    report and the other players' games need them); the profile simply has no account any more."""
    if not user.is_authenticated:
        raise ValidationError(gettext("Log in first."))
    account = get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    if account is None:
        return
    if account.is_staff or account.organised_clubs.exists():
        raise ValidationError(
            gettext("Organisers' and staff accounts are closed by an administrator, not here.")
        )
    player = Player.objects.select_for_update().filter(user=account).first()
    if player is not None:
        player.user = None
        player.save(update_fields=["user"])
        _log(player, None, "account closed", phrases.say(gettext_noop("Account closed by the player.")))
    account.delete()
