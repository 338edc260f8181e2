"""Writes of the league app: create events, register players (one at a time or pasted as CSV lines).

Every service takes keyword arguments, runs in one transaction and validates with ``full_clean`` before
saving, so that a wrong entry saves nothing. Errors are Django ``ValidationError``s keyed by the form
field they belong to, so views can put them next to the field.

Every write also leaves a history entry (``league.history``, the audit trail both apps write): who did
it, when, and what changed as ``before``/``after`` JSON and "field: old → new" in the summary.
"""

from __future__ import annotations

import csv
import logging
import re
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext, gettext_lazy, gettext_noop, ngettext

from scoring.engine import RulesetError, make_ruleset

from . import history, phrases
from .countries import lookup_country
from .engine_text import engine_message, ruleset_or_error
from .models import Club, Event, Hanchan, Player, Registration, Seat, validate_ema_prefix
from .permissions import can_edit_player, new_player_visibility
from .versions import bump_results

logger = logging.getLogger("tenbou.league")

# Upper-case EMA code / English name -> ISO alpha-2, for the lenient country parsing below.

_EMA_NUMBER = re.compile(r"[0-9]{8}")  # not \d: that also matches non-ASCII digits

# Labels used to name a field in a per-line CSV error ("line 3: display name: …"), in the reader's
# language (lazy: ``str()`` them where used).
_LABELS: dict[str, Any] = {
    "display_name": gettext_lazy("display name"),
    "given_name": gettext_lazy("given name"),
    "family_name": gettext_lazy("family name"),
    "ema_number": gettext_lazy("EMA number"),
    "country": gettext_lazy("country"),
    "tenhou_name": gettext_lazy("Tenhou name"),
    "mahjongsoul_name": gettext_lazy("Mahjong Soul nickname"),
    "mahjongsoul_id": gettext_lazy("Mahjong Soul friend ID"),
}

# The pasted columns in order, named for people (the paste itself has no fixed header).
CSV_COLUMNS = gettext_lazy(
    "display name, given name, family name, EMA number, country, Tenhou name, Mahjong Soul nickname, "
    "Mahjong Soul friend ID"
)
CSV_FIELDS = 8
ONLINE_NAMES = ("tenhou_name", "mahjongsoul_name", "mahjongsoul_id")
"""A player's online names: imported Tenhou and Mahjong Soul logs find the player by them."""
_FRIEND_ID = re.compile(r"[0-9]{1,20}")
PASTE_MAX_LINES = 1000
"""The most players one paste registers. Checking and saving ~5 500 lines took longer than a web
worker may run (30 s): a larger list is pasted in parts, each checked and saved all or none."""
PASTE_MAX_CHARS = 200_000  # 200 lines of 1 000 characters, or 1 000 generous lines


# -- small parsers shared by the services and the forms ------------------------------------------------


def parse_country(value: str) -> str:
    """An ISO alpha-2 code from what an organiser types: ``fr``, ``FRA`` (EMA code) or ``France``.

    Organisers copy player lists from EMA pages (three-letter codes) as often as from spreadsheets
    (two-letter codes), so both are accepted; the database stores ISO alpha-2 only.
    """
    text = (value or "").strip()
    if not text:
        return ""
    code = lookup_country(text) if text.isascii() else ""
    if code:
        return code
    raise ValidationError(
        {
            "country": gettext(
                "Country %(value)s is not known: use the two-letter ISO code (FR) or the EMA three-letter "
                "code (FRA)."
            )
            % {"value": repr(text)}
        }
    )


def parse_ema_number(value: str | None) -> str | None:
    """The EMA number as stored (8 ASCII digits) or ``None``; the message names the number and the rule."""
    text = (value or "").strip()
    if not text:
        return None
    if not _EMA_NUMBER.fullmatch(text):
        raise ValidationError(
            {
                "ema_number": gettext(
                    "EMA number %(value)s must be 8 digits, leading zeros included (e.g. 04390002)."
                )
                % {"value": text}
            }
        )
    try:
        validate_ema_prefix(text)
    except ValidationError as exc:
        raise ValidationError({"ema_number": exc.messages}) from None
    return text


def _merge(errors: dict[str, list[str]], exc: ValidationError) -> None:
    """Add a ValidationError's messages to ``errors`` (field -> messages)."""
    for key, messages in (
        exc.message_dict if hasattr(exc, "error_dict") else {NON_FIELD_ERRORS: exc.messages}
    ).items():
        errors.setdefault(key, []).extend(messages)


# -- events ---------------------------------------------------------------------------------------------


def _free_slug(base: str) -> str:
    """``base``, or ``base-2``, ``base-3``… — the first slug no event uses yet."""
    base = base[:72].strip("-") or "event"
    taken = set(Event.objects.filter(slug__startswith=base).values_list("slug", flat=True))
    if base not in taken:
        return base
    n = 2
    while f"{base}-{n}" in taken:
        n += 1
    return f"{base}-{n}"


@transaction.atomic
def create_event(
    *,
    club: Club,
    name: str,
    slug: str,
    kind: str,
    preset: str,
    overrides: dict[str, Any],
    visibility: str,
    min_games: int,
    start_date: date | None,
    end_date: date | None,
    city: str,
    country: str,
    user: Any,
    tie_break: str = Event.TieBreak.POINTS_PLACEMENT_GAMES,
    substitute_credit: str = Event.SubstituteCredit.REGISTERED,
    substitute_fixed_result: int = 0,
    ema_days: int = 1,
    ema_qualification: bool = False,
) -> Event:
    """A new event of ``club``, storing the *effective* ruleset (the preset with ``overrides`` applied).

    Storing every setting rather than a preset name means a later correction to a preset never changes
    the results of an event already played. A blank ``slug`` is made from the name (and made unique);
    a slug the organiser typed that is taken is an error on the slug field instead, since they chose it.
    """
    try:
        rules = make_ruleset(preset, overrides)
    except RulesetError as exc:
        raise ValidationError({exc.field or NON_FIELD_ERRORS: engine_message(exc)}) from None
    slug = (slug or "").strip() or _free_slug(slugify(name or ""))
    event = Event(
        club=club,
        name=(name or "").strip(),
        slug=slug,
        kind=kind,
        ruleset=rules.to_dict(),
        visibility=visibility,
        min_games=min_games,
        start_date=start_date,
        end_date=end_date,
        city=(city or "").strip(),
        country=parse_country(country),
        tie_break=tie_break,
        substitute_credit=substitute_credit,
        substitute_fixed_result=substitute_fixed_result,
        ema_days=ema_days,
        ema_qualification=ema_qualification,
    )
    event.full_clean()
    try:
        with transaction.atomic():
            event.save()
    except IntegrityError:  # another organiser took the slug between the check and the save
        raise ValidationError({"slug": gettext("An event with this slug already exists.")}) from None
    logger.info("event %s created in club %s by %s", event.slug, club.slug, user)
    history.log(
        event=event,
        user=user,
        action="event created",
        summary=phrases.say(
            gettext_noop("%(event)s created in %(club)s (%(kind)s, %(visibility)s)"),
            event=event.name,
            club=club.name,
            kind=phrases.say(KIND_WORDS.get(event.kind, event.kind)),
            visibility=phrases.say(VISIBILITY_WORDS.get(event.visibility, event.visibility)),
        ),
        after=_event_snapshot(event),
    )
    return event


# The words of an event's kind and visibility in a history summary: the message ids of the models' labels.
KIND_WORDS = {
    Event.Kind.LEAGUE: gettext_noop("Club league"),
    Event.Kind.TOURNAMENT: gettext_noop("Tournament"),
}
VISIBILITY_WORDS = {
    Event.Visibility.PUBLIC: gettext_noop("Public"),
    Event.Visibility.MEMBERS: gettext_noop("Members only (login needed)"),
}


def _event_snapshot(event: Event) -> dict[str, Any]:
    """What the history records of an event: its slug, kind, details and rules."""
    return {
        "slug": event.slug,
        "kind": event.kind,
        **{name: _event_value(event, name) for name in EVENT_DETAILS},
        "ruleset": event.ruleset,
    }


# -- registrations --------------------------------------------------------------------------------------


@dataclass
class _Plan:
    """What registering one player will do: reuse ``player`` (saved) or create it (unsaved)."""

    player: Player
    is_new: bool
    changed: list[str] = field(default_factory=list)  # blank fields of a reused player to fill in
    notices: list[str] = field(default_factory=list)  # what the organiser should know (registered as is)
    is_substitute: bool = False


def _clean_player_data(
    *,
    display_name: str,
    given_name: str,
    family_name: str,
    ema_number: str | None,
    country: str,
    tenhou_name: str | None = None,
    mahjongsoul_name: str | None = None,
    mahjongsoul_id: str | None = None,
) -> tuple[dict[str, Any], dict[str, list[str]]]:
    """Normalised values and the errors of the fields that can be checked without the database.

    The online names are in the result only when given (``None`` leaves a player's names as they are).
    """
    errors: dict[str, list[str]] = {}
    data: dict[str, Any] = {
        "display_name": (display_name or "").strip(),
        "given_name": (given_name or "").strip(),
        "family_name": (family_name or "").strip(),
        "ema_number": None,
        "country": "",
    }
    if not data["display_name"]:
        errors["display_name"] = [gettext("A display name is needed (the name shown in standings).")]
    try:
        data["ema_number"] = parse_ema_number(ema_number)
    except ValidationError as exc:
        _merge(errors, exc)
    try:
        data["country"] = parse_country(country)
    except ValidationError as exc:
        _merge(errors, exc)
    online = {
        "tenhou_name": tenhou_name,
        "mahjongsoul_name": mahjongsoul_name,
        "mahjongsoul_id": mahjongsoul_id,
    }
    for key, value in online.items():
        if value is None:
            continue
        text = value.strip()
        limit = Player._meta.get_field(key).max_length or 40
        if len(text) > limit:
            errors.setdefault(key, []).append(
                ngettext(
                    "%(label)s %(value)s is longer than %(max)d character.",
                    "%(label)s %(value)s is longer than %(max)d characters.",
                    limit,
                )
                % {"label": _LABELS[key], "value": text[:20] + "…", "max": limit}
            )
        elif any(not ch.isprintable() for ch in text):
            errors.setdefault(key, []).append(
                gettext("%(label)s must not hold control characters.") % {"label": _LABELS[key]}
            )
        elif key == "mahjongsoul_id" and text and not _FRIEND_ID.fullmatch(text):
            errors.setdefault(key, []).append(
                gettext("Mahjong Soul friend ID %(value)s must be digits only (as the friend list shows it).")
                % {"value": text}
            )
        data[key] = text
    return data, errors


def _online_name_clashes(
    club_id: int | None, data: dict[str, Any], exclude: int | None
) -> dict[str, list[str]]:
    """The online names in ``data`` another player of the club already has: an import must find one
    player by a name (case does not matter there, so it does not here)."""
    errors: dict[str, list[str]] = {}
    if club_id is None:
        return errors
    for key in ONLINE_NAMES:
        value = data.get(key)
        if not value:
            continue
        other = Player.objects.filter(club=club_id, **{f"{key}__iexact": value}).exclude(pk=exclude).first()
        if other is not None:
            errors[key] = [
                gettext(
                    "%(label)s %(value)s already belongs to %(player)s of this club: an online name must "
                    "find one player."
                )
                % {"label": _LABELS[key], "value": value, "player": other.display_name}
            ]
    return errors


def _plan_registration(
    event: Event, data: dict[str, Any], errors: dict[str, list[str]], user: Any
) -> _Plan | None:
    """Find the player to register (by EMA number anywhere, else by display name in the event's club)
    or prepare a new one; add what is wrong to ``errors``.

    A known player's blank details are filled in from the entry only where ``user`` may change the
    player for this event (``league.permissions.can_edit_player``): a player of the event's own club.

    An EMA number identifies a person across clubs (a tournament registers players from everywhere), so
    it wins over the display name; a family name that disagrees with the stored one is reported, because
    it most likely means a mistyped EMA number.
    """
    if errors:
        return None
    ema, name = data["ema_number"], data["display_name"]
    player: Player | None = None
    if ema:
        player = Player.objects.select_related("club").filter(ema_number=ema).first()
        if player is not None:
            for key in ("given_name", "family_name"):
                if data[key] and getattr(player, key) and data[key].lower() != getattr(player, key).lower():
                    known = " ".join(filter(None, [player.given_name, player.family_name]))
                    typed = " ".join(filter(None, [data["given_name"], data["family_name"]]))
                    errors["ema_number"] = [
                        gettext("EMA number %(number)s belongs to %(known)s, not %(typed)s.")
                        % {"number": ema, "known": known, "typed": typed}
                    ]
                    return None
    if player is None:
        same_name = list(Player.objects.filter(club=event.club_id, display_name__iexact=name))
        exact = [p for p in same_name if p.display_name == name]
        player = (exact or same_name or [None])[0]
        if player is not None and ema and player.ema_number and player.ema_number != ema:
            errors["ema_number"] = [
                gettext("%(player)s of %(club)s already has EMA number %(number)s, not %(typed)s.")
                % {
                    "player": player.display_name,
                    "club": event.club,
                    "number": player.ema_number,
                    "typed": ema,
                }
            ]
            return None
    if player is None:
        # A new player's page is as public as the event that brings them: their club changes it later.
        new = Player(club=event.club, visibility=new_player_visibility(event), **data)
        try:
            new.full_clean()
        except ValidationError as exc:
            _merge(errors, exc)
            return None
        clashes = _online_name_clashes(event.club_id, data, None)
        if clashes:
            errors.update(clashes)
            return None
        return _Plan(player=new, is_new=True)
    by_ema = bool(ema) and player.ema_number == ema  # found by the number typed, whatever the name typed
    if Registration.objects.filter(event=event, player=player).exists():
        if by_ema:
            # The line may name someone else (a mistyped number): say whose number it is, on its field.
            errors["ema_number"] = [
                gettext("EMA number %(number)s belongs to %(player)s, already registered in %(event)s.")
                % {"number": ema, "player": player.display_name, "event": event.name}
            ]
        else:
            errors[NON_FIELD_ERRORS] = [
                gettext("%(player)s is already registered in %(event)s.")
                % {"player": player.display_name, "event": event.name}
            ]
        return None
    if not can_edit_player(user, player, event=event):
        # A visiting player, found by their EMA number: register them as they are. Their details belong
        # to their own club (they are in that club's EMA reports); another club's entry never changes them.
        notice = gettext(
            "EMA number %(ema)s belongs to %(name)s (%(club)s): registered as is; their details are "
            "changed by their club."
        ) % {
            "ema": player.ema_number,
            "name": player.display_name,
            "club": player.club.name if player.club else gettext("no club"),
        }
        return _Plan(player=player, is_new=False, notices=[notice, *_members_only_notice(event, player)])
    changed = [
        key
        for key in ("given_name", "family_name", "ema_number", "country", *ONLINE_NAMES)
        if data.get(key) and not getattr(player, key)
    ]
    clashes = _online_name_clashes(player.club_id, {k: data[k] for k in changed}, player.pk)
    if clashes:
        errors.update(clashes)
        return None
    for key in changed:
        setattr(player, key, data[key])
    if changed:
        try:
            player.full_clean()
        except ValidationError as exc:
            _merge(errors, exc)
            return None
    notices = _members_only_notice(event, player)
    if by_ema and name.casefold() != player.display_name.casefold():
        # The line named someone else: the number decides, and the organiser learns whose it is.
        notices.append(
            gettext("EMA number %(ema)s belongs to %(name)s: registered under that name.")
            % {"ema": ema, "name": player.display_name}
        )
    return _Plan(player=player, is_new=False, changed=changed, notices=notices)


def _members_only_notice(event: Event, player: Player) -> list[str]:
    """What an organiser should know when registering a members-only player in a public event: the
    public sees their display name there, nothing more (only their club makes them public)."""
    if player.visibility != Player.Visibility.MEMBERS or event.visibility != Event.Visibility.PUBLIC:
        return []
    return [
        gettext(
            "%(name)s's page is for members only: the public pages of %(event)s show their display name "
            "and results, but not their page, club, country or EMA number (their club decides)."
        )
        % {"name": player.display_name, "event": event.name}
    ]


def _carry_out(event: Event, plan: _Plan) -> Registration:
    """Save what a plan says; the caller holds the transaction."""
    if plan.is_new:
        plan.player.save()
    elif plan.changed:
        plan.player.save(update_fields=plan.changed)
    registration = Registration(event=event, player=plan.player, is_substitute=plan.is_substitute)
    registration.full_clean()
    registration.save()
    registration.notices = plan.notices  # type: ignore[attr-defined]  # for the view's messages
    return registration


def _saved(event: Event, plans: list[_Plan]) -> list[Registration]:
    """Carry out all plans, turning a clash with a concurrent registration into a ValidationError."""
    try:
        with transaction.atomic():
            return [_carry_out(event, plan) for plan in plans]
    except IntegrityError:
        raise ValidationError(
            gettext("Someone registered one of these players at the same time: nothing was saved, try again.")
        ) from None


@transaction.atomic
def register_player(
    *,
    event: Event,
    display_name: str,
    given_name: str,
    family_name: str,
    ema_number: str | None,
    country: str,
    user: Any,
    is_substitute: bool = False,
    tenhou_name: str | None = None,
    mahjongsoul_name: str | None = None,
    mahjongsoul_id: str | None = None,
) -> Registration:
    """Register one player in ``event``, creating the player in the event's club if they are new.

    A substitute (``is_substitute``) fills tables in a tournament and replaces players who drop out; the
    standings and the EMA report list only the players.

    A player already known (same EMA number, or same display name in the club) is reused, and blank
    details (names, EMA number, country) of a player of the event's club are filled in from this entry —
    the EMA export needs them. A player of another club (found by EMA number: a visitor) is registered
    unchanged, and ``registration.notices`` says whose number it is: only their own club edits them.
    Online names (Tenhou name, Mahjong Soul nickname and friend ID) are details like the others.
    """
    data, errors = _clean_player_data(
        display_name=display_name,
        given_name=given_name,
        family_name=family_name,
        ema_number=ema_number,
        country=country,
        tenhou_name=tenhou_name,
        mahjongsoul_name=mahjongsoul_name,
        mahjongsoul_id=mahjongsoul_id,
    )
    plan = _plan_registration(event, data, errors, user)
    if errors or plan is None:
        raise ValidationError(errors)
    (registration,) = _saved(event, [plan])
    if is_substitute and not registration.is_substitute:
        registration.is_substitute = True
        registration.save(update_fields=["is_substitute"])
    logger.info("%s registered in %s by %s", registration.player, event.slug, user)
    history.log_many([_registration_entry(event, plan, registration, user)])
    bump_results(player_ids=[registration.player_id])  # the player page lists the player's events
    return registration


def _registration_entry(
    event: Event, plan: _Plan, registration: Registration, user: Any
) -> history.HistoryEntry:
    """The history entry of one registration: who was registered, whether the player is new, and any
    blank detail of a known player filled in from the entry (old → new)."""
    player = registration.player
    after: dict[str, Any] = {
        "player": player.pk,
        "display_name": player.display_name,
        "new_player": plan.is_new,
        "substitute": registration.is_substitute,
    }
    before: dict[str, Any] | None = None
    if plan.is_new:
        registered = phrases.say(
            gettext_noop("%(player)s registered (new player)"), player=player.display_name
        )
    else:
        registered = phrases.say(gettext_noop("%(player)s registered"), player=player.display_name)
    summary = phrases.joined(registered)
    if plan.changed:
        old = {key: None if key == "ema_number" else "" for key in plan.changed}
        new = {key: _player_value(player, key) for key in plan.changed}
        old, new, filled = history.changes(old, new, plan.changed)
        before = {"player_details": old}
        after["player_details"] = new
        summary = phrases.joined(
            registered, phrases.say(gettext_noop("details filled in: %(changes)s"), changes=filled)
        )
    return history.entry(
        event=event, user=user, action="player registered", summary=summary, before=before, after=after
    )


def _csv_rows(text: str) -> list[tuple[int, list[str]]]:
    """(line number, fields) of the lines that hold a player: blank lines and a header are skipped."""
    rows: list[tuple[int, list[str]]] = []
    for number, line in enumerate((text or "").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            fields = next(csv.reader([line], skipinitialspace=True), [])
        except csv.Error:
            fields = line.split(",")
        fields = [f.strip() for f in fields]
        if not rows and fields and fields[0].lower().startswith("display"):
            rows.append((number, []))  # the header: a placeholder so only the first line can be one
            continue
        rows.append((number, fields))
    return [(n, f) for n, f in rows if f]


def _line_messages(number: int, errors: dict[str, list[str]]) -> list[str]:
    """``line 3: …`` messages, naming the column unless the message already does."""
    out = []
    for key, messages in errors.items():
        label = str(_LABELS.get(key, ""))
        for message in messages:
            if label and not message.lower().startswith(label.lower()):
                message = gettext("%(field)s: %(message)s") % {"field": label, "message": message}
            out.append(gettext("line %(number)s: %(message)s") % {"number": number, "message": message})
    return out


def _clean_csv_fields(fields: list[str]) -> tuple[dict[str, Any], dict[str, list[str]]]:
    """A pasted line's values in the order of :data:`CSV_COLUMNS` (missing ones empty), checked as the
    player form checks them."""
    fields = [*fields, *[""] * (CSV_FIELDS - len(fields))]
    return _clean_player_data(
        display_name=fields[0],
        given_name=fields[1],
        family_name=fields[2],
        ema_number=fields[3],
        country=fields[4],
        tenhou_name=fields[5],
        mahjongsoul_name=fields[6],
        mahjongsoul_id=fields[7],
    )


@transaction.atomic
def register_players_csv(*, event: Event, text: str, user: Any) -> list[Registration]:
    """Register the players pasted as CSV lines ``display name[, given name[, family name[, EMA number
    [, country[, Tenhou name[, Mahjong Soul nickname[, Mahjong Soul friend ID]]]]]]]``; all of them or
    none.

    A line with only a display name is enough (organisers paste a column of names from a sign-up
    sheet); the other columns stay positional, so a blank one is written as two commas.

    Every line is checked before anything is written, and the error lists every wrong line, so an
    organiser fixes the paste once instead of discovering errors one save at a time. Two lines naming
    the same player (same EMA number, display name or known player) are an error too.
    """
    if len(text or "") > PASTE_MAX_CHARS:
        raise ValidationError(
            ngettext(
                "The paste holds %(count)d character: at most %(max)d at a time; paste it in parts.",
                "The paste holds %(count)d characters: at most %(max)d at a time; paste it in parts.",
                len(text),
            )
            % {"count": len(text), "max": PASTE_MAX_CHARS}
        )
    lines = sum(1 for line in (text or "").splitlines() if line.strip())
    if lines > PASTE_MAX_LINES:
        raise ValidationError(
            ngettext(
                "The paste holds %(count)d line: at most %(max)d at a time; paste it in parts.",
                "The paste holds %(count)d lines: at most %(max)d at a time; paste it in parts.",
                lines,
            )
            % {"count": lines, "max": PASTE_MAX_LINES}
        )
    messages: list[str] = []
    plans: list[_Plan] = []
    seen: dict[tuple[str, Any], int] = {}
    rows = _csv_rows(text)
    if not rows:
        raise ValidationError(gettext("Paste at least one line: %(columns)s.") % {"columns": CSV_COLUMNS})
    for number, fields in rows:
        if len(fields) > CSV_FIELDS:
            messages.append(
                gettext(
                    "line %(number)s: expected 1 to %(max)s values separated by commas (%(columns)s; only "
                    "the display name is needed), found %(count)s"
                )
                % {"number": number, "columns": CSV_COLUMNS, "count": len(fields), "max": CSV_FIELDS}
            )
            continue
        data, errors = _clean_csv_fields(fields)
        plan = _plan_registration(event, data, errors, user)
        if errors or plan is None:
            messages.extend(_line_messages(number, errors))
            continue
        keys = [("name", data["display_name"].lower())]
        if data["ema_number"]:
            keys.append(("ema", data["ema_number"]))
        if not plan.is_new:
            keys.append(("player", plan.player.pk))
        keys += [(key, data[key].casefold()) for key in ONLINE_NAMES if data.get(key)]
        clash = next((seen[k] for k in keys if k in seen), None)
        if clash is not None:
            messages.append(
                gettext("line %(number)s: same player as line %(other)s (%(player)s)")
                % {"number": number, "other": clash, "player": data["display_name"]}
            )
            continue
        for key in keys:
            seen[key] = number
        plans.append(plan)
    if messages:
        raise ValidationError(messages)
    return register_planned(event=event, plans=plans, user=user)


# -- another app's paste (tournaments' "Team; Player" lines) reuses the lookup above -----------------------

PlayerPlan = _Plan
line_messages = _line_messages


def plan_pasted_player(
    event: Event, fields: list[str], *, user: Any
) -> tuple[Registration | None, PlayerPlan | None, dict[str, list[str]]]:
    """One pasted player in the columns of :func:`register_players_csv` (at most :data:`CSV_FIELDS`):
    ``(registration, None, {})`` when the player is already registered in ``event`` (found among its
    registrations by EMA number, else by display name), else ``(None, plan, {})`` to register them as
    :func:`register_players_csv` would, or ``(None, None, errors)`` keyed by column."""
    data, errors = _clean_csv_fields(fields)
    if errors:
        return None, None, errors
    registered = Registration.objects.filter(event=event).select_related("player")
    if data["ema_number"]:
        registered = registered.filter(player__ema_number=data["ema_number"])
    else:
        registered = registered.filter(player__display_name__iexact=data["display_name"])
    found = sorted(registered, key=lambda r: r.player.display_name != data["display_name"])
    if found:
        return found[0], None, {}
    plan = _plan_registration(event, data, errors, user)
    return None, plan, errors


def register_planned(*, event: Event, plans: list[PlayerPlan], user: Any) -> list[Registration]:
    """Register the players of checked ``plans`` (the caller holds the transaction), all or none: each
    with its history entry, their pages' versions bumped."""
    registrations = _saved(event, plans)
    logger.info("%d players registered in %s from a paste by %s", len(registrations), event.slug, user)
    history.log_many(
        _registration_entry(event, plan, registration, user)
        for plan, registration in zip(plans, registrations, strict=True)
    )
    bump_results(player_ids=[r.player_id for r in registrations])
    return registrations


# -- editing events, players and registrations ----------------------------------------------------------

# The event fields an organiser may change after creation. The slug (the event's address, in links
# already shared) and the kind (tournament seating and EMA reports depend on it) stay as created.
EVENT_DETAILS = (
    "name",
    "start_date",
    "end_date",
    "city",
    "country",
    "visibility",
    "min_games",
    "tie_break",
    "substitute_credit",
    "substitute_fixed_result",
    "ema_days",
    "ema_qualification",
    # the tournament day: the round clock's length, and how tables enter their own games
    "round_minutes",
    "table_entry",
    "table_entry_mode",
    "confirmation",
    "standings_hidden_after_round",  # the final reveal: the public standings stop after this round
    # an online event: the site and its Tenhou lobby or Mahjong Soul contest id
    "online",
    "online_lobby",
)


# The details that change what a finished game counts for (a substitute's seat is credited by them): once
# the event has games they change only through scoring's rules page with the rules
# (``scoring.services.rules.change_rules``), which recomputes every game's results in the same transaction.
RESULTS_SETTINGS = ("substitute_credit", "substitute_fixed_result")


def _event_value(event: Event, name: str) -> Any:
    """A field's current value, comparable with what a form gives (the country as its code)."""
    if name == "country":
        return event.country.code if event.country else ""
    return getattr(event, name)


@transaction.atomic
def update_event(*, event: Event, user: Any, data: dict[str, Any]) -> Event:
    """Change an event's details (``EVENT_DETAILS``) and, while it has no game, its rules.

    ``data`` holds the fields to change; a ``ruleset`` key (a Ruleset or a spec) changes the effective
    rules. Once the event has a game, its rules and its ``RESULTS_SETTINGS`` (how a substitute's game
    counts) can change only through scoring's rules page (``scoring.services.rules.change_rules``),
    which replays every game under them and records the change in the history: league cannot read the
    hands, so it refuses rather than leave cached results computed under other settings. Nothing is
    saved when any field is wrong.

    A ``hide_standings_again`` key (true) takes back the release of hidden standings (the final
    reveal): the public standings stop again after ``standings_hidden_after_round``, as a new round
    there does by itself. Without it, setting the same round again leaves the release as it is.
    """
    unknown = set(data) - set(EVENT_DETAILS) - {"ruleset", "hide_standings_again"}
    if unknown:
        raise TypeError(f"update_event cannot change {', '.join(sorted(unknown))}")
    rows = Event.objects.select_for_update(of=("self",), no_key=True)  # the event only, not its club
    locked = rows.select_related("club").get(pk=event.pk)
    old_values = {**_event_snapshot(locked), "standings_released_at": locked.standings_released_at}
    changed: list[str] = []
    for name in EVENT_DETAILS:
        if name not in data:
            continue
        value = data[name]
        if name in ("name", "city", "online_lobby"):
            value = (value or "").strip()
        elif name == "country":
            value = parse_country(value)
        if value != _event_value(locked, name):
            setattr(locked, name, value)
            changed.append(name)
    moved = [name for name in RESULTS_SETTINGS if name in changed]
    if moved and Hanchan.objects.filter(event=locked).exists():
        raise ValidationError(
            {
                moved[0]: gettext(
                    "%(event)s already has games: change how a substitute's games count on the rules page, "
                    "which recomputes every game's results before saving it."
                )
                % {"event": locked.name}
            }
        )
    hide_again = bool(data.get("hide_standings_again"))
    if hide_again and locked.standings_hidden_after_round is None:
        raise ValidationError(
            {
                "standings_hidden_after_round": gettext(
                    "Hide standings after round: give the round the public standings stop at, to hide "
                    "the rounds after it again."
                )
            }
        )
    released = locked.standings_released_at is not None
    if released and ("standings_hidden_after_round" in changed or hide_again):
        locked.standings_released_at = None  # hidden again, until the next release
        changed.append("standings_released_at")
    if data.get("ruleset") is not None:
        rules = ruleset_or_error(data["ruleset"]).to_dict()
        if rules != locked.ruleset:
            if Hanchan.objects.filter(event=locked).exists():
                raise ValidationError(
                    {
                        "ruleset": gettext(
                            "%(event)s already has games: change its rules on the rules page, which "
                            "replays every game under the new rules before saving them."
                        )
                        % {"event": locked.name}
                    }
                )
            locked.ruleset = rules
            changed.append("ruleset")
    locked.full_clean()
    if changed:
        locked.save(update_fields=changed)
        logger.info("event %s edited by %s: %s", locked.slug, user, ", ".join(changed))
        new_values = {**_event_snapshot(locked), "standings_released_at": locked.standings_released_at}
        before, after, summary = history.changes(old_values, new_values, changed)
        history.log(
            event=locked, user=user, action="event edited", summary=summary, before=before, after=after
        )
        # Its name, dates or visibility show on every player page of the event, not only on its own.
        bump_results(event_ids=[locked.pk], event_players=True)
    for name in changed:
        setattr(event, name, getattr(locked, name))
    event._rules = None  # the cached engine ruleset follows the stored one
    return event


@transaction.atomic
def update_player(
    *,
    player: Player,
    user: Any,
    display_name: str,
    given_name: str,
    family_name: str,
    ema_number: str | None,
    country: str,
    tenhou_name: str | None = None,
    mahjongsoul_name: str | None = None,
    mahjongsoul_id: str | None = None,
    visibility: str | None = None,
) -> Player:
    """Correct a player's names, EMA number, country, online names and page visibility (``None``: left as
    they are); every error names the field and the rule.

    The EMA number identifies a person across clubs, so it must be unique over all players; the display
    name is what standings show, so it must be unique within the player's club. Both are checked here
    with messages saying so, and again by the database (a concurrent edit ends as the same error). An
    online name must find one player of the club when a log is imported, so it is unique in the club.

    Only staff and the organisers of the player's club may change them
    (``league.permissions.can_edit_player``); the edit page answers 404 to anyone else before this.
    """
    if not can_edit_player(user, player):
        if player.club is None:
            refusal = gettext("%(player)s belongs to no club: only staff may change their details.")
        else:
            refusal = gettext(
                "%(player)s is a player of %(club)s: only its organisers (or staff) may change their details."
            )
        raise ValidationError(refusal % {"player": player.display_name, "club": player.club})
    data, errors = _clean_player_data(
        display_name=display_name,
        given_name=given_name,
        family_name=family_name,
        ema_number=ema_number,
        country=country,
        tenhou_name=tenhou_name,
        mahjongsoul_name=mahjongsoul_name,
        mahjongsoul_id=mahjongsoul_id,
    )
    if visibility is not None:
        if visibility in Player.Visibility.values:
            data["visibility"] = visibility
        else:
            errors["visibility"] = [
                gettext("Page visibility: choose public or members only, not %(value)s.")
                % {"value": visibility}
            ]
    if errors:
        raise ValidationError(errors)
    rows = Player.objects.select_for_update(of=("self",)).select_related("club")
    locked = rows.filter(pk=player.pk).first()
    if locked is None:  # deleted meanwhile (in the admin)
        raise ValidationError(gettext("This player no longer exists."))
    if data["ema_number"]:
        owner = Player.objects.filter(ema_number=data["ema_number"]).exclude(pk=locked.pk).first()
        if owner is not None:
            errors["ema_number"] = [
                gettext("EMA number %(number)s already belongs to %(player)s: an EMA number is unique.")
                % {"number": data["ema_number"], "player": owner.display_name}
            ]
    if locked.club_id is not None:
        twin = (
            Player.objects.filter(club=locked.club_id, display_name=data["display_name"])
            .exclude(pk=locked.pk)
            .exists()
        )
        if twin:
            errors["display_name"] = [
                gettext(
                    "Display name %(name)s: another player of %(club)s already has it (a display name is "
                    "unique within a club)."
                )
                % {"name": data["display_name"], "club": locked.club}
            ]
    errors.update(_online_name_clashes(locked.club_id, data, locked.pk))
    if errors:
        raise ValidationError(errors)
    before = {key: _player_value(locked, key) for key in data}
    for key, value in data.items():
        setattr(locked, key, value)
    locked.full_clean()
    changed = [key for key in data if _player_value(locked, key) != before[key]]
    if changed:
        try:
            with transaction.atomic():
                locked.save(update_fields=changed)
        except IntegrityError:
            raise ValidationError(
                gettext("Someone changed these players at the same time: nothing was saved, try again.")
            ) from None
        logger.info("player %s edited by %s: %s", locked.pk, user, ", ".join(changed))
        _log_player_edit(locked, user, before, changed)
        # The name shows in the standings of every event the player is in and on opponents' pages.
        seated = Seat.objects.filter(Q(player=locked) | Q(on_behalf_of=locked)).values("hanchan__event")
        registered = Registration.objects.filter(player=locked).values("event_id")
        played = Event.objects.filter(Q(pk__in=seated) | Q(pk__in=registered)).values_list("pk", flat=True)
        bump_results(player_ids=[locked.pk], event_ids=list(played), event_players=True)
    for key in data:
        setattr(player, key, getattr(locked, key))
    return player


def _log_player_edit(player: Player, user: Any, before: dict[str, Any], changed: list[str]) -> None:
    """One history entry per event the player is registered in: a player belongs to no single event,
    and each event's organisers see the change in the standings and EMA report they are responsible
    for. A player registered nowhere has no event history to write to."""
    after = {key: _player_value(player, key) for key in changed}
    old, new, what = history.changes(before, after, changed)
    summary = phrases.say(
        gettext_noop("Player %(player)s edited: %(changes)s"), player=player.display_name, changes=what
    )
    events = Event.objects.filter(registrations__player=player).distinct()
    history.log_many(
        history.entry(
            event=event,
            user=user,
            action="player edited",
            summary=summary,
            before={"player": player.pk, **old},
            after={"player": player.pk, **new},
        )
        for event in events
    )


def _player_value(player: Player, name: str) -> Any:
    if name == "country":
        return player.country.code if player.country else ""
    return getattr(player, name)


def _locked_registration(registration: Registration) -> Registration:
    """The registration row, locked for this transaction, with its player and event."""
    rows = Registration.objects.select_for_update(of=("self",), no_key=True).select_related("player", "event")
    found = rows.filter(pk=registration.pk).first()
    if found is None:  # removed by someone else meanwhile
        raise ValidationError(gettext("This registration no longer exists: someone removed it meanwhile."))
    return found


def has_games(registration: Registration) -> bool:
    """Whether the registered player sat at a table of the event (for themselves or as a substitute's
    registered player): such a registration is kept, withdrawn, never deleted."""
    player = registration.player_id
    return (
        Seat.objects.filter(hanchan__event=registration.event_id)
        .filter(Q(player=player) | Q(on_behalf_of=player))
        .exists()
    )


def games_played(registration: Registration) -> int:
    """How many finished games of the event the player sat (for themselves, or replaced by a
    substitute): what the confirmation of a withdrawal tells the organiser. One query."""
    player = registration.player_id
    return (
        Seat.objects.filter(hanchan__event=registration.event_id, hanchan__status=Hanchan.Status.FINISHED)
        .filter(Q(player=player) | Q(on_behalf_of=player))
        .count()
    )


def seated_without_result(registration: Registration) -> list[tuple[int, int]]:
    """The (round, table) of every tournament table the player is seated at that has no result yet:
    withdrawing does not take them off those tables (the seating is changed on its own page, with
    substitutes or fewer tables), so the confirmation names them. One query."""
    seats = (
        Seat.objects.filter(
            player_id=registration.player_id,
            hanchan__event=registration.event_id,
            hanchan__round_number__isnull=False,
            hanchan__status=Hanchan.Status.IN_PROGRESS,
            hanchan__hands__isnull=True,
        )
        .exclude(hanchan__seats__final_score__isnull=False)
        .order_by("hanchan__round_number", "hanchan__table_number")
        .values_list("hanchan__round_number", "hanchan__table_number")
        .distinct()
    )
    return [(number, table or 0) for number, table in seats]


@transaction.atomic
def withdraw_registration(*, registration: Registration, user: Any, reason: str = "") -> Registration | None:
    """Withdraw a player from an event: no new game or seating will include them.

    A player who has not played is simply unregistered (``None`` is returned: the registration is
    gone); one who has played keeps the registration, marked withdrawn, so their games stay in the
    standings and the history — a game is never deleted to remove a player. Withdrawing someone who
    has played changes the event for good (they leave its seatings and new games), so it takes a
    ``reason``, which the history keeps; for someone who has not, the reason is optional.
    """
    reason = (reason or "").strip()
    locked = _locked_registration(registration)
    if locked.withdrawn_at is not None:
        raise ValidationError(
            gettext("%(player)s is already withdrawn from %(event)s.")
            % {"player": locked.player.display_name, "event": locked.event.name}
        )
    if not has_games(locked):
        locked.delete()
        logger.info("%s unregistered from %s by %s", locked.player, locked.event.slug, user)
        history.log(
            event=locked.event,
            user=user,
            action="player unregistered",
            summary=phrases.say(
                gettext_noop("%(player)s unregistered (no game played): registered: yes → no"),
                player=locked.player.display_name,
            ),
            reason=reason,
            before={"player": locked.player_id, "registered": True},
            after={"player": locked.player_id, "registered": False},
        )
        bump_results(player_ids=[locked.player_id])
        return None
    if not reason:
        raise ValidationError(
            {
                "reason": gettext(
                    "Reason: %(player)s has played in %(event)s, so withdrawing them is kept in the "
                    "history with its reason: say why."
                )
                % {"player": locked.player.display_name, "event": locked.event.name}
            }
        )
    locked.withdrawn_at = timezone.now()
    locked.save(update_fields=["withdrawn_at"])
    registration.withdrawn_at = locked.withdrawn_at
    logger.info("%s withdrawn from %s by %s", locked.player, locked.event.slug, user)
    history.log(
        event=locked.event,
        user=user,
        action="player withdrawn",
        summary=phrases.say(
            gettext_noop("%(player)s withdrawn: withdrawn: no → yes"), player=locked.player.display_name
        ),
        reason=reason,
        before={"player": locked.player_id, "withdrawn_at": None},
        after={"player": locked.player_id, "withdrawn_at": locked.withdrawn_at},
    )
    bump_results(player_ids=[locked.player_id])
    return registration


@transaction.atomic
def restore_registration(*, registration: Registration, user: Any) -> Registration:
    """Undo a withdrawal: the player can be seated and start games again."""
    locked = _locked_registration(registration)
    if locked.withdrawn_at is None:
        raise ValidationError(
            gettext("%(player)s is not withdrawn from %(event)s.")
            % {"player": locked.player.display_name, "event": locked.event.name}
        )
    withdrawn_at = locked.withdrawn_at
    locked.withdrawn_at = None
    locked.save(update_fields=["withdrawn_at"])
    registration.withdrawn_at = None
    logger.info("%s restored in %s by %s", locked.player, locked.event.slug, user)
    history.log(
        event=locked.event,
        user=user,
        action="player restored",
        summary=phrases.say(
            gettext_noop("%(player)s restored: withdrawn: yes → no"), player=locked.player.display_name
        ),
        before={"player": locked.player_id, "withdrawn_at": withdrawn_at},
        after={"player": locked.player_id, "withdrawn_at": None},
    )
    bump_results(player_ids=[locked.player_id])
    return registration
