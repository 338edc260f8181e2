"""Writes of registration: open it, sign up, approve, reject, wait, withdraw, make the confirmed sign-ups
the event's players, check in, and seat the players who checked in.

Each service runs in one transaction, validates with errors naming the field and the rule, writes a
history entry (``league.history``, a phrase) and queues its e-mails through the outbox
(``notifications.outbox``): they leave after the commit, sent by a worker, in the person's language.

Places are counted under a lock of the event's :class:`Opening` row, so two people sending the form at
the same moment for the last place do not both get it: one is confirmed, the other waits (or is told the
event is full).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.core.validators import EmailValidator
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext, gettext_noop

from league import claim_links, history, phrases
from league import services as league_services
from league.countries import EMA_PREFIXES, country_name
from league.models import Event, Player, Registration
from league.versions import bump_results
from notifications import kinds
from notifications.outbox import queue_email, site_url
from tournaments.services import seat_tournament

from .models import ACTIVE, Opening, SignUp
from .tasks import schedule_window

logger = logging.getLogger("tenbou.registration")

ASKED = ("ema_number", "country", "club", "email")
"""The fields an organiser may ask for besides the name (``Opening.ask_<field>``)."""


# -- opening registration -----------------------------------------------------------------------------


@transaction.atomic
def save_opening(
    *,
    event: Event,
    user: Any,
    opens_at: datetime,
    closes_at: datetime,
    capacity: int,
    waiting_list: bool,
    approval: bool,
    asks: dict[str, str],
) -> Opening:
    """Open (or change) the event's registration. Fewer places than confirmed sign-ups is refused: a
    confirmed place is never taken back by a settings change."""
    if closes_at <= opens_at:
        raise ValidationError({"closes_at": gettext("Registration must close after it opens.")})
    if capacity < 1:
        raise ValidationError({"capacity": gettext("Places: at least 1.")})
    opening = Opening.objects.select_for_update().filter(event=event).first()
    before = _opening_snapshot(opening) if opening else None
    confirmed = SignUp.objects.filter(event=event, status=SignUp.Status.CONFIRMED).count()
    if capacity < confirmed:
        raise ValidationError(
            {
                "capacity": gettext(
                    "Places: %(confirmed)d registrations are confirmed already; reject some first or keep at "
                    "least %(confirmed)d places."
                )
                % {"confirmed": confirmed}
            }
        )
    opening = opening or Opening(event=event)
    opening.opens_at, opening.closes_at, opening.capacity = opens_at, closes_at, capacity
    opening.waiting_list, opening.approval = waiting_list, approval
    for name in ASKED:
        setattr(opening, f"ask_{name}", asks.get(name, Opening.Ask.NO))
    opening.updated_at = timezone.now()
    opening.full_clean()
    opening.save()
    after = _opening_snapshot(opening)
    history.log(
        event=event,
        user=user,
        action="registration opened" if before is None else "registration changed",
        summary=phrases.say(
            gettext_noop("registration: %(places)s places, from %(opens)s to %(closes)s"),
            places=capacity,
            opens=timezone.localtime(opens_at).strftime("%Y-%m-%d %H:%M"),
            closes=timezone.localtime(closes_at).strftime("%Y-%m-%d %H:%M"),
        ),
        before=before,
        after=after,
    )
    if not approval:
        _fill_places(opening, user)
    # The event page's "Register" link (registration.links): shown now or not, and again when the clock
    # opens or closes registration.
    bump_results(event_ids=[event.pk])
    schedule_window(event.pk, opens_at, closes_at)
    return opening


def _opening_snapshot(opening: Opening) -> dict[str, Any]:
    return {
        "opens_at": opening.opens_at,
        "closes_at": opening.closes_at,
        "capacity": opening.capacity,
        "waiting_list": opening.waiting_list,
        "approval": opening.approval,
        **{f"ask_{name}": getattr(opening, f"ask_{name}") for name in ASKED},
    }


def _locked_opening(event: Event) -> Opening:
    opening = Opening.objects.select_for_update().filter(event=event).first()
    if opening is None:
        raise ValidationError(gettext("Registration is not open for %(event)s.") % {"event": event.name})
    return opening


def _confirmed_count(event: Event) -> int:
    return SignUp.objects.filter(event=event, status=SignUp.Status.CONFIRMED).count()


# -- the public form ------------------------------------------------------------------------------------


def _check_fields(
    opening: Opening, *, name: str, ema_number: str, country: str, club: str, email: str
) -> tuple[dict[str, Any], dict[str, list[str]]]:
    """Normalised values and what is wrong with them (nothing looked up yet)."""
    errors: dict[str, list[str]] = {}
    data: dict[str, Any] = {
        "name": " ".join((name or "").split()),
        "ema_number": None,
        "country": "",
        "club": " ".join((club or "").split()),
        "email": (email or "").strip(),
    }
    if not data["name"]:
        errors["name"] = [gettext("Name: needed (the name shown in the standings).")]
    elif len(data["name"]) > 80 or not data["name"].isprintable():
        errors["name"] = [gettext("Name: at most 80 characters, no control characters.")]
    values = {"ema_number": ema_number, "country": country, "club": club, "email": email}
    for key in ASKED:
        ask = getattr(opening, f"ask_{key}")
        if ask == Opening.Ask.NO:
            values[key] = ""
            data[key] = None if key == "ema_number" else ""
        elif ask == Opening.Ask.REQUIRED and not (values[key] or "").strip():
            errors[key] = [gettext("%(field)s: needed for this event.") % {"field": _label(key)}]
    if errors.get("ema_number") is None and (values["ema_number"] or "").strip():
        try:
            data["ema_number"] = league_services.parse_ema_number(values["ema_number"])
        except ValidationError as exc:
            errors["ema_number"] = exc.message_dict["ema_number"]
    if errors.get("country") is None and (values["country"] or "").strip():
        try:
            data["country"] = league_services.parse_country(values["country"])
        except ValidationError as exc:
            errors["country"] = exc.message_dict["country"]
    if data["ema_number"] and "country" not in errors:
        prefix_country = EMA_PREFIXES.get(data["ema_number"][:2], "")
        if data["country"] and prefix_country and data["country"] != prefix_country:
            errors["ema_number"] = [
                gettext(
                    "EMA number %(number)s is a number of %(prefix_country)s (its first two digits), not of "
                    "%(country)s: check the number or the country."
                )
                % {
                    "number": data["ema_number"],
                    "prefix_country": country_name(prefix_country),
                    "country": country_name(data["country"]),
                }
            ]
        elif not data["country"] and opening.ask_country != Opening.Ask.NO:
            data["country"] = prefix_country
    if len(data["club"]) > 120 or not data["club"].isprintable():
        errors["club"] = [gettext("Club: at most 120 characters, no control characters.")]
    if data["email"]:
        try:
            EmailValidator()(data["email"])
        except ValidationError:
            errors["email"] = [
                gettext("E-mail %(value)s is not an e-mail address.") % {"value": data["email"][:80]}
            ]
        if len(data["email"]) > 254:
            errors["email"] = [gettext("E-mail: at most 254 characters.")]
    return data, errors


def _label(key: str) -> str:
    return {
        "name": gettext("Name"),
        "ema_number": gettext("EMA number"),
        "country": gettext("Country"),
        "club": gettext("Club"),
        "email": gettext("E-mail"),
    }[key]


@transaction.atomic
def sign_up(
    *,
    event: Event,
    name: str,
    ema_number: str = "",
    country: str = "",
    club: str = "",
    email: str = "",
    language: str = "",
    form_key: str = "",
    now: datetime | None = None,
) -> SignUp:
    """One person's registration through the public form: confirmed while places remain (or awaiting the
    organiser's approval), else on the waiting list, else refused. The form sent twice (same
    ``form_key``) is the first sign-up, unchanged.

    An EMA number is checked (8 digits, a member country's prefix, the country chosen) and is in one
    active sign-up of the event at most; the player it belongs to is linked and never changed."""
    form_key = (form_key or "").strip()[:64]
    if form_key:
        again = SignUp.objects.filter(form_key=form_key, event=event).first()
        if again is not None:
            return again
    opening = _locked_opening(event)
    now = now or timezone.now()
    if now < opening.opens_at:
        raise ValidationError(
            gettext("Registration for %(event)s opens on %(date)s.")
            % {"event": event.name, "date": timezone.localtime(opening.opens_at).strftime("%Y-%m-%d %H:%M")}
        )
    if now >= opening.closes_at:
        raise ValidationError(gettext("Registration for %(event)s is closed.") % {"event": event.name})
    data, errors = _check_fields(
        opening, name=name, ema_number=ema_number, country=country, club=club, email=email
    )
    player = None
    if data["ema_number"] and not errors:
        number = data["ema_number"]
        if SignUp.objects.filter(event=event, ema_number=number, status__in=ACTIVE).exists():
            errors["ema_number"] = [
                gettext("EMA number %(number)s is already registered for %(event)s.")
                % {"number": number, "event": event.name}
            ]
        player = Player.objects.filter(ema_number=number).first()
        if player is not None and Registration.objects.filter(event=event, player=player).exists():
            errors["ema_number"] = [
                gettext("EMA number %(number)s is already registered for %(event)s.")
                % {"number": number, "event": event.name}
            ]
    if errors:
        raise ValidationError(errors)
    if opening.approval:
        status = SignUp.Status.PENDING
    elif _confirmed_count(event) < opening.capacity:
        status = SignUp.Status.CONFIRMED
    elif opening.waiting_list:
        status = SignUp.Status.WAITING
    else:
        raise ValidationError(
            gettext("%(event)s is full: all %(places)d places are taken.")
            % {"event": event.name, "places": opening.capacity}
        )
    signup = SignUp(
        event=event,
        player=player,
        status=status,
        language=language or translation.get_language() or "en",
        form_key=form_key or None,
        waiting_since=now if status == SignUp.Status.WAITING else None,
        **data,
    )
    try:
        with transaction.atomic():
            signup.save()
    except IntegrityError:
        # The same EMA number (or form) sent at the same moment by another request: that one won.
        raise ValidationError(
            {
                "ema_number": gettext("EMA number %(number)s is already registered for %(event)s.")
                % {"number": data["ema_number"], "event": event.name}
            }
            if data["ema_number"]
            else {NON_FIELD_ERRORS: gettext("This form was sent already.")}
        ) from None
    history.log(
        event=event,
        user=None,
        action="signed up",
        summary=phrases.say(
            gettext_noop("%(name)s signed up: %(status)s"), name=signup.name, status=_status_phrase(status)
        ),
        after={"signup": signup.pk, "status": status, "player": player.pk if player else None},
    )
    _tell(signup, status, first=True)
    logger.info("%s signed up for %s (%s)", signup.name, event.slug, status)
    return signup


_STATUS_WORDS = {
    SignUp.Status.PENDING: gettext_noop("awaiting approval"),
    SignUp.Status.CONFIRMED: gettext_noop("confirmed"),
    SignUp.Status.WAITING: gettext_noop("waiting list"),
    SignUp.Status.REJECTED: gettext_noop("rejected"),
    SignUp.Status.WITHDRAWN: gettext_noop("withdrawn"),
}


def _status_phrase(status: str) -> phrases.Phrase:
    return phrases.say(_STATUS_WORDS[SignUp.Status(status)])


def _claim_url(signup: SignUp, player: Player | None) -> str:
    """The "claim your player page" link for the address ``signup`` registered with (docs/players.md):
    only for a player not linked to an account yet."""
    if player is None or player.user_id is not None or not signup.email:
        return ""
    return site_url(reverse("accounts:claim_link", args=[claim_links.make_token(player.pk, signup.email)]))


def _tell_player_page(signup: SignUp, player: Player) -> None:
    """Queue the e-mail that gives a sign-up made one of the event's players the link that claims their
    player page (once per sign-up), unless its confirmation carried that link already."""
    claim_url = _claim_url(signup, player)
    if not claim_url or signup.player_id == player.pk:
        return
    event = signup.event
    queue_email(
        key=f"signup:{signup.pk}:player_page",
        to=signup.email,
        template="registration/email/player_page",
        context={
            "name": signup.name,
            "event": event.name,
            "personal_url": site_url(signup.get_absolute_url()),
            "player_url": site_url(reverse("scoring:player", args=[player.pk])),
            "claim_url": claim_url,
        },
        language=signup.language,
        scope=f"event:{event.pk}",
        kind=kinds.REGISTRATION,
    )


def _tell(signup: SignUp, what: str, *, first: bool = False) -> None:
    """Queue the e-mail that tells ``signup`` its new state (``what``: a status, or ``promoted``)."""
    if not signup.email:
        return
    event = signup.event
    context = {
        "name": signup.name,
        "event": event.name,
        "event_url": site_url(reverse("scoring:event", args=[event.slug])),
        "personal_url": site_url(signup.get_absolute_url()),
        "start_date": event.start_date.isoformat() if event.start_date else "",
    }
    if what in (SignUp.Status.CONFIRMED, "promoted"):
        context["qr_code"] = context["personal_url"]  # the check-in code, attached to the e-mail
        claim_url = _claim_url(signup, signup.player)
        if claim_url:
            context["claim_url"] = claim_url
    # The first message of a sign-up is keyed by the sign-up; each later change of state by its moment (a
    # rolled-back change queues nothing, so one change is one message).
    key = f"signup:{signup.pk}:{what}" if first else f"signup:{signup.pk}:{what}:{timezone.now().isoformat()}"
    queue_email(
        key=key,
        to=signup.email,
        template=f"registration/email/{what}",
        context=context,
        language=signup.language,
        scope=f"event:{event.pk}",
        kind=kinds.REGISTRATION,
    )


# -- the organiser's decisions, and the player's withdrawal ------------------------------------------


def _locked(signup: SignUp) -> tuple[Opening, SignUp]:
    opening = _locked_opening(signup.event)
    locked = SignUp.objects.select_related("event", "registration").get(pk=signup.pk)
    return opening, locked


def _change(signup: SignUp, status: str, user: Any, *, action: str) -> None:
    before = signup.status
    signup.status = status
    signup.waiting_since = timezone.now() if status == SignUp.Status.WAITING else None
    signup.save(update_fields=["status", "waiting_since"])
    history.log(
        event=signup.event,
        user=user,
        action=action,
        summary=phrases.say(
            gettext_noop("%(name)s: %(before)s → %(after)s"),
            name=signup.name,
            before=_status_phrase(before),
            after=_status_phrase(status),
        ),
        before={"signup": signup.pk, "status": before},
        after={"signup": signup.pk, "status": status},
    )


def _fill_places(opening: Opening, user: Any) -> list[SignUp]:
    """Give the free places to the first of the waiting list, in order; each is told by e-mail."""
    free = opening.capacity - _confirmed_count(opening.event)
    if free <= 0:
        return []
    promoted = list(
        SignUp.objects.filter(event=opening.event, status=SignUp.Status.WAITING)
        .select_related("event")
        .order_by("waiting_since", "pk")[:free]
    )
    for signup in promoted:
        _change(signup, SignUp.Status.CONFIRMED, user, action="signup promoted")
        _tell(signup, "promoted")
    return promoted


@transaction.atomic
def approve(*, signup: SignUp, user: Any) -> SignUp:
    """Confirm a sign-up (awaiting approval, waiting or rejected): it takes a free place."""
    opening, signup = _locked(signup)
    if signup.status == SignUp.Status.CONFIRMED:
        raise ValidationError(gettext("%(name)s is confirmed already.") % {"name": signup.name})
    if signup.status == SignUp.Status.WITHDRAWN:
        raise ValidationError(gettext("%(name)s has withdrawn.") % {"name": signup.name})
    if _confirmed_count(signup.event) >= opening.capacity:
        raise ValidationError(
            gettext(
                "All %(places)d places are taken: move %(name)s to the waiting list, or add places in the "
                "registration settings."
            )
            % {"places": opening.capacity, "name": signup.name}
        )
    _change(signup, SignUp.Status.CONFIRMED, user, action="signup approved")
    _tell(signup, SignUp.Status.CONFIRMED)
    return signup


@transaction.atomic
def reject(*, signup: SignUp, user: Any) -> SignUp:
    """Turn a sign-up down; a place it held goes to the first of the waiting list."""
    opening, signup = _locked(signup)
    if signup.status in (SignUp.Status.REJECTED, SignUp.Status.WITHDRAWN):
        raise ValidationError(
            gettext("%(name)s is %(status)s already.")
            % {"name": signup.name, "status": signup.get_status_display()}
        )
    if signup.registration_id is not None:
        raise ValidationError(
            gettext("%(name)s is one of the event's players already: withdraw them from the event's page.")
            % {"name": signup.name}
        )
    was_confirmed = signup.status == SignUp.Status.CONFIRMED
    _change(signup, SignUp.Status.REJECTED, user, action="signup rejected")
    _tell(signup, SignUp.Status.REJECTED)
    if was_confirmed:
        _fill_places(opening, user)
    return signup


@transaction.atomic
def move_to_waiting_list(*, signup: SignUp, user: Any) -> SignUp:
    """Put a sign-up at the end of the waiting list (its place, if it held one, stays free for the
    organiser to give: the waiting list is not promoted by this)."""
    _opening, signup = _locked(signup)
    if signup.status == SignUp.Status.WAITING:
        raise ValidationError(gettext("%(name)s is on the waiting list already.") % {"name": signup.name})
    if signup.status == SignUp.Status.WITHDRAWN:
        raise ValidationError(gettext("%(name)s has withdrawn.") % {"name": signup.name})
    if signup.registration_id is not None:
        raise ValidationError(
            gettext("%(name)s is one of the event's players already: withdraw them from the event's page.")
            % {"name": signup.name}
        )
    _change(signup, SignUp.Status.WAITING, user, action="signup moved to waiting list")
    _tell(signup, SignUp.Status.WAITING)
    return signup


@transaction.atomic
def withdraw(*, signup: SignUp, user: Any = None) -> SignUp:
    """The person withdraws (through their personal link): a confirmed place goes to the first of the
    waiting list, who is told by e-mail. A sign-up already made one of the event's players leaves the
    event too (``league.services.withdraw_registration``)."""
    opening, signup = _locked(signup)
    if signup.status in (SignUp.Status.WITHDRAWN, SignUp.Status.REJECTED):
        return signup  # a second tap, a stale page: nothing more to do
    was_confirmed = signup.status == SignUp.Status.CONFIRMED
    if signup.registration is not None and signup.registration.withdrawn_at is None:
        league_services.withdraw_registration(
            registration=signup.registration,
            user=user,
            reason=gettext("withdrew through their registration link"),
        )
    _change(signup, SignUp.Status.WITHDRAWN, user, action="signup withdrawn")
    if was_confirmed:
        _fill_places(opening, user)
    return signup


# -- the confirmed list becomes the event's players ---------------------------------------------------


@transaction.atomic
def add_confirmed_players(
    *, event: Event, user: Any, signups: Iterable[SignUp] | None = None
) -> list[Registration]:
    """Register the confirmed sign-ups not yet registered as the event's players (all or none), through
    league's registration services. A sign-up linked to a known player (by EMA number) registers that
    player as they are: their own details are passed, so nothing of theirs is filled in or changed."""
    _locked_opening(event)
    if signups is None:
        signups = SignUp.objects.filter(event=event).select_related("player").order_by("pk")
    todo = [s for s in signups if s.status == SignUp.Status.CONFIRMED and s.registration_id is None]
    if not todo:
        return []
    messages: list[str] = []
    plans: list[tuple[SignUp, league_services.PlayerPlan | None, Registration | None]] = []
    for signup in todo:
        player = signup.player
        if player is not None:
            fields = [
                player.display_name,
                player.given_name,
                player.family_name,
                player.ema_number or "",
                str(player.country or ""),
            ]
        else:
            fields = [signup.name, "", "", signup.ema_number or "", str(signup.country or "")]
        existing, plan, errors = league_services.plan_pasted_player(event, fields, user=user)
        if errors:
            for texts in errors.values():
                messages.extend(f"{signup.name}: {text}" for text in texts)
            continue
        plans.append((signup, plan, existing))
    if messages:
        raise ValidationError(messages)
    new_plans = [plan for _s, plan, existing in plans if plan is not None and existing is None]
    made = iter(league_services.register_planned(event=event, plans=new_plans, user=user))
    registrations: list[Registration] = []
    for signup, _plan, existing in plans:
        registration = existing if existing is not None else next(made)
        if SignUp.objects.filter(registration=registration).exclude(pk=signup.pk).exists():
            raise ValidationError(
                gettext("%(name)s: the player %(player)s is registered from another sign-up already.")
                % {"name": signup.name, "player": registration.player.display_name}
            )
        signup.registration = registration
        signup.save(update_fields=["registration"])
        registrations.append(registration)
        _tell_player_page(signup, registration.player)
    return registrations


# -- check-in on the day ----------------------------------------------------------------------------------


def check_in_opens(event: Event) -> datetime | None:
    """When check-in opens: the event's first day (any time when it has no dates)."""
    if event.start_date is None:
        return None
    return timezone.make_aware(datetime.combine(event.start_date, datetime.min.time()))


@transaction.atomic
def check_in(*, signup: SignUp, user: Any = None, now: datetime | None = None) -> SignUp:
    """Check a confirmed sign-up in (its personal link's QR code, or the organiser's tap). Twice is once."""
    signup = SignUp.objects.select_for_update().select_related("event").get(pk=signup.pk)
    if signup.status != SignUp.Status.CONFIRMED:
        raise ValidationError(
            gettext("%(name)s is not confirmed (%(status)s): only confirmed players check in.")
            % {"name": signup.name, "status": signup.get_status_display()}
        )
    now = now or timezone.now()
    opens = check_in_opens(signup.event)
    if opens is not None and now < opens:
        raise ValidationError(
            gettext("Check-in opens on %(date)s, the event's first day.")
            % {"date": signup.event.start_date.isoformat()}
        )
    if signup.checked_in_at is not None:
        return signup
    signup.checked_in_at = now
    signup.save(update_fields=["checked_in_at"])
    history.log(
        event=signup.event,
        user=user,
        action="checked in",
        summary=phrases.say(gettext_noop("%(name)s checked in"), name=signup.name),
        after={"signup": signup.pk, "checked_in_at": now},
    )
    return signup


@transaction.atomic
def undo_check_in(*, signup: SignUp, user: Any) -> SignUp:
    """The organiser's undo of a tap on the wrong name."""
    signup = SignUp.objects.select_for_update().select_related("event").get(pk=signup.pk)
    if signup.checked_in_at is None:
        return signup
    before = signup.checked_in_at
    signup.checked_in_at = None
    signup.save(update_fields=["checked_in_at"])
    history.log(
        event=signup.event,
        user=user,
        action="check-in undone",
        summary=phrases.say(gettext_noop("%(name)s: check-in undone"), name=signup.name),
        before={"signup": signup.pk, "checked_in_at": before},
        after={"signup": signup.pk, "checked_in_at": None},
    )
    return signup


@transaction.atomic
def seat_checked_in(*, event: Event, rounds: int, user: Any) -> list[Any]:
    """Seat the tournament with the players who checked in: the confirmed sign-ups who did not (the
    no-shows) leave the event's players, the ones who did and are not players yet become players, and the
    seating (``tournaments.services.seat_tournament``) fills the tables the no-shows leave short with the
    event's substitutes. All or nothing."""
    confirmed = list(
        SignUp.objects.filter(event=event, status=SignUp.Status.CONFIRMED).select_related(
            "registration", "player"
        )
    )
    arrived = [s for s in confirmed if s.checked_in_at is not None]
    if not arrived:
        raise ValidationError(gettext("Nobody has checked in yet."))
    add_confirmed_players(event=event, user=user, signups=[s for s in arrived if s.registration_id is None])
    for signup in confirmed:
        registration = signup.registration
        if signup.checked_in_at is None and registration is not None and registration.withdrawn_at is None:
            league_services.withdraw_registration(
                registration=signup.registration, user=user, reason=gettext("did not check in")
            )
    return seat_tournament(event=event, rounds=rounds, user=user)
