"""One person, one player: merge two player records of the same person, once both clubs agree.

An organiser of one record's club asks (:func:`request_merge`); an organiser of the other record's club
accepts (:func:`accept_merge`) or declines. When every club concerned is the requester's own (both records
of their club, or the other without a club), the request is the agreement and the merge runs at once.

The **EMA number is the identity**: two records with two different EMA numbers are two people and are
never merged; the number of either record is kept. Two records that played in the same event (or the
same imported tournament) were two people at that event, and are not merged either.

The merge (:func:`merge_players`) re-points **every foreign key to Player, in every app**, found from
Django's model registry (``Player._meta.related_objects``: registrations, seats, substitutes' seats,
hand seats, seat results, penalties, ratings, ranking results, team members' registrations…), so a model
added later is moved too. All in one transaction: then the fields the kept record lacks are taken from
the merged one, the merged record is deleted, the events' and the player's results versions move (every
page showing them), every game of the person is marked for the ratings rebuild and the ranking's rows
are recomputed by the worker. Every game is kept, under the kept record; the request keeps who the
merged record was and how many rows of each kind moved.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from league import history, phrases
from league.models import Event, Hanchan, Player, Registration, Seat
from league.permissions import managed_clubs
from league.versions import bump_results
from scoring.ratings import schedule_rebuild

from .local import bump_version
from .models import MergeRequest, TournamentResult
from .tasks import RANKINGS, SITE

COPIED_FIELDS = (
    "given_name",
    "family_name",
    "ema_number",
    "country",
    "club",
    "user",
    "tenhou_name",
    "mahjongsoul_name",
    "mahjongsoul_id",
)
"""Fields the kept record takes from the merged one when its own is blank."""


def clubs_of(*players: Player) -> set[int]:
    return {p.club_id for p in players if p.club_id is not None}


def organises(user: Any, club_ids: set[int]) -> set[int]:
    """The clubs among ``club_ids`` that ``user`` organises (all of them for staff)."""
    return set(managed_clubs(user).filter(pk__in=club_ids).values_list("pk", flat=True))


def check_mergeable(kept: Player, merged: Player) -> None:
    """ValidationError naming the rule when the two records cannot be one person."""
    if kept.pk == merged.pk:
        raise ValidationError({"merged": _("A player cannot be merged with themselves.")})
    if kept.ema_number and merged.ema_number and kept.ema_number != merged.ema_number:
        raise ValidationError(
            {
                "merged": _("The two players have different EMA numbers (%(a)s, %(b)s): they are two people.")
                % {"a": kept.ema_number, "b": merged.ema_number}
            }
        )
    if kept.user_id and merged.user_id and kept.user_id != merged.user_id:
        raise ValidationError({"merged": _("Both players have their own account: they are two people.")})
    shared = Registration.objects.filter(player=kept, event__registrations__player=merged).values_list(
        "event__name", flat=True
    )
    played = Seat.objects.filter(player=kept, hanchan__event__hanchans__seats__player=merged).values_list(
        "hanchan__event__name", flat=True
    )
    events = sorted(set(shared) | set(played))
    if events:
        raise ValidationError(
            {"merged": _("Both players took part in %(event)s: they are two people.") % {"event": events[0]}}
        )
    tournaments = TournamentResult.objects.filter(
        player=kept, tournament__results__player=merged
    ).values_list("tournament__name", flat=True)
    if tournaments:
        raise ValidationError(
            {
                "merged": _("Both players are in the results of %(event)s: they are two people.")
                % {"event": tournaments[0]}
            }
        )


def request_merge(*, kept: Player, merged: Player, user: Any, reason: str = "") -> MergeRequest:
    """Ask to merge ``merged`` into ``kept``. The requester organises the club of one of them; when they
    organise every club concerned, the merge runs now."""
    with transaction.atomic():
        kept = Player.objects.select_for_update().get(pk=kept.pk)
        merged = Player.objects.select_for_update().get(pk=merged.pk)
        check_mergeable(kept, merged)
        involved = clubs_of(kept, merged)
        mine = organises(user, involved)
        if not mine and not getattr(user, "is_staff", False):
            raise ValidationError({"kept": _("You organise neither player's club.")})
        if MergeRequest.objects.filter(
            status=MergeRequest.Status.PENDING, kept__in=[kept, merged], merged__in=[kept, merged]
        ).exists():
            raise ValidationError({"merged": _("A merge of these two players already waits for an answer.")})
        request = MergeRequest.objects.create(
            kept=kept, merged=merged, requested_by=user, reason=reason[:300], merged_snapshot=snapshot(merged)
        )
        if mine == involved or getattr(user, "is_staff", False):
            _run(request, user)
        return request


def snapshot(player: Player) -> dict[str, Any]:
    """Who a record was, for the request to keep once the record is gone."""
    return {
        "id": player.pk,
        "display_name": player.display_name,
        "given_name": player.given_name,
        "family_name": player.family_name,
        "ema_number": player.ema_number or "",
        "country": str(player.country.code or ""),
        "club": player.club.name if player.club else "",
    }


def may_answer(request: MergeRequest, user: Any) -> bool:
    """An organiser of a club concerned who did not ask (staff may always)."""
    if getattr(user, "is_staff", False):
        return True
    if request.merged is None:
        return False
    involved = clubs_of(request.kept, request.merged)
    asked = organises(request.requested_by, involved) if request.requested_by else set()
    return bool(organises(user, involved - asked))


def accept_merge(*, request: MergeRequest, user: Any) -> MergeRequest:
    """The other club agrees: merge now."""
    with transaction.atomic():
        request = MergeRequest.objects.select_for_update().get(pk=request.pk)
        if request.status != MergeRequest.Status.PENDING or request.merged is None:
            raise ValidationError({"status": _("This request has already been answered.")})
        if not may_answer(request, user):
            raise ValidationError({"status": _("Only an organiser of the other player's club may accept.")})
        check_mergeable(request.kept, request.merged)
        _run(request, user)
        return request


def decline_merge(*, request: MergeRequest, user: Any, cancel: bool = False) -> MergeRequest:
    """The other club declines, or (``cancel``) the requester withdraws the request."""
    with transaction.atomic():
        request = MergeRequest.objects.select_for_update().get(pk=request.pk)
        if request.status != MergeRequest.Status.PENDING:
            raise ValidationError({"status": _("This request has already been answered.")})
        allowed = request.requested_by_id == user.pk if cancel else may_answer(request, user)
        if not allowed and not getattr(user, "is_staff", False):
            raise ValidationError({"status": _("You may not answer this request.")})
        request.status = MergeRequest.Status.CANCELLED if cancel else MergeRequest.Status.DECLINED
        request.decided_by = user
        request.decided_at = timezone.now()
        request.save(update_fields=["status", "decided_by", "decided_at"])
        return request


def _run(request: MergeRequest, user: Any) -> None:
    moved = merge_players(kept=request.kept, merged=request.merged, user=user, reason=request.reason)
    request.merged = None  # deleted (the row's column is already empty: SET_NULL)
    request.status = MergeRequest.Status.DONE
    request.decided_by = user
    request.decided_at = timezone.now()
    request.moved = moved
    request.save(update_fields=["merged", "status", "decided_by", "decided_at", "moved"])


def _relations() -> list[tuple[type[models.Model], str]]:
    """(model, field name) of every foreign key and one-to-one field pointing at Player, in every app —
    hidden ones (``related_name="+"``) included, which ``_meta.related_objects`` leaves out."""
    out = []
    for relation in Player._meta.get_fields(include_hidden=True):
        if not relation.is_relation or not relation.auto_created or relation.concrete:
            continue  # Player's own fields
        if relation.many_to_many:
            continue  # its through table's foreign key is listed on its own
        if relation.related_model is MergeRequest and relation.field.name == "merged":
            continue  # a request keeps naming the record it merged (emptied when that record goes)
        out.append((relation.related_model, relation.field.name))
    return out


MERGED = phrases.gettext_noop("%(merged)s merged into %(kept)s (one person, two records)")
MERGED_ACTION = "players merged"


def merge_players(*, kept: Player, merged: Player, user: Any = None, reason: str = "") -> dict[str, int]:
    """Re-point every row of ``merged`` to ``kept``, complete ``kept``, delete ``merged``, and say so in
    the history of every event the merged record took part in. The caller holds the transaction. Returns
    the rows moved per model ("league.Seat.player": 12)."""
    events = set(Registration.objects.filter(player=merged).values_list("event_id", flat=True))
    events |= set(Seat.objects.filter(player=merged).values_list("hanchan__event_id", flat=True))
    events |= set(Seat.objects.filter(on_behalf_of=merged).values_list("hanchan__event_id", flat=True))
    moved: dict[str, int] = {}
    for model, field in _relations():
        count = model._default_manager.filter(**{field: merged}).update(**{field: kept})
        if count:
            moved[f"{model._meta.label}.{field}"] = count
    updates = [name for name in COPIED_FIELDS if not getattr(kept, name) and getattr(merged, name)]
    values = {name: getattr(merged, name) for name in updates}
    history.log_many(
        history.entry(
            event=event,
            user=user,
            action=MERGED_ACTION,
            summary=phrases.say(MERGED, merged=merged.display_name, kept=kept.display_name),
            reason=reason,
            before={"player": merged.pk, "ema_number": merged.ema_number or ""},
            after={"player": kept.pk},
        )
        for event in Event.objects.filter(pk__in=events)
    )
    merged.delete()  # first: its EMA number, account and name in its club are then free for ``kept``
    if "club" in values and (
        Player.objects.filter(club=values["club"], display_name=kept.display_name)
        .exclude(pk=kept.pk)
        .exists()
    ):
        del values["club"]  # a namesake in that club: the kept record stays without a club
        updates.remove("club")
    if values:
        for name, value in values.items():
            setattr(kept, name, value)
        kept.save(update_fields=updates)
    games = list(
        Hanchan.objects.filter(
            event__in=events, status=Hanchan.Status.FINISHED, seats__player=kept
        ).distinct()
    )
    if games:
        schedule_rebuild(*games)
    bump_results(event_ids=events, player_ids=[kept.pk])
    bump_version()
    RANKINGS.mark(SITE, scope=SITE)
    return moved


def pending_for(user: Any) -> list[MergeRequest]:
    """The requests waiting for this user's answer, or asked by them."""
    clubs = set(managed_clubs(user).values_list("pk", flat=True))
    found = MergeRequest.objects.filter(
        models.Q(kept__club__in=clubs) | models.Q(merged__club__in=clubs) | models.Q(requested_by=user)
    ).select_related("kept", "merged", "requested_by", "kept__club", "merged__club")
    return list(found.distinct()[:200])
