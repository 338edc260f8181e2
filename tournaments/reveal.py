"""The reveals: a tournament can keep its public standings at "after round N" (the event setting
``standings_hidden_after_round``) and show the rest at the prize-giving, with one action; and each
stage can do the same on its own (``Stage.standings_hidden_after_round``: the qualifiers keep their
last round until the cut is announced, the final its table until the prize-giving), each released on
its own (:func:`release_stage_standings`).

What is hidden is decided in one place, :func:`league.hidden_rounds.hidden_after_round` (re-exported by
``scoring.standings``), from the event row: this module records the organiser's settings and releases
and keeps the event's summary of its stages (``Event.stage_hidden_after_round``, :func:`_sync_stages`)
— the only writer of it. The organiser's pages and ``manage.py standings`` always show everything.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from league import phrases
from league.models import Event
from scoring.cache import bump_results
from scoring.models import RatingChange
from scoring.services import history
from scoring.standings import hidden_after_round
from tournaments import signals
from tournaments.models import Stage


@transaction.atomic
def release_standings(*, event: Event, user: Any) -> Event:
    """Show the whole standings to the public from now on. Releasing twice changes nothing; an event
    that hides nothing is refused (there is nothing to release).

    The results versions of the event and of its players are bumped with the release: cached public
    pages (standings, games, players' pages) are keyed by them, and the release changes what they show
    without changing any result."""
    locked = Event.objects.select_for_update(of=("self",), no_key=True).get(pk=event.pk)
    if locked.standings_released_at is not None:
        event.standings_released_at = locked.standings_released_at
        return event
    # The event-wide hide alone: a stage's own hide has its own release (release_stage_standings).
    hidden = locked.standings_hidden_after_round if locked.kind == Event.Kind.TOURNAMENT else None
    if hidden is None:
        raise ValidationError(
            {
                "standings_hidden_after_round": gettext(
                    "%(event)s does not hide its standings: there is nothing to release."
                )
                % {"event": locked.name}
            }
        )
    locked.standings_released_at = timezone.now()
    locked.save(update_fields=["standings_released_at"])
    _bump(locked, hidden)
    history.log(
        event=locked,
        user=user,
        action="standings released",
        summary=phrases.say(
            gettext_noop("Standings released: the public sees every round, not only rounds 1 to %(n)s."),
            n=hidden,
        ),
        before={"standings_released_at": None},
        after={"standings_released_at": locked.standings_released_at},
    )
    signals.standings_released.send(sender=Event, event=locked)
    event.standings_released_at = locked.standings_released_at
    event.refresh_from_db(fields=["results_version"])
    return event


def _bump(event: Event, lowest: int) -> None:
    """The public pages of ``event`` show another set of rounds from round ``lowest + 1`` on: bump the
    results versions of the event and of its players (cached public pages — standings, games,
    players' pages — are keyed by them, and the change changes what they show without changing any
    result); and of everyone rated after the first game from there (an opponent's rating carried it
    into theirs, and the public ratings leave the hidden games out)."""
    first = (
        RatingChange.objects.filter(
            event__isnull=True, hanchan__event=event, hanchan__round_number__gt=lowest
        )
        .order_by("at")
        .values_list("at", flat=True)
        .first()
    )
    later = RatingChange.objects.filter(event__isnull=True, at__gte=first) if first is not None else None
    rated_after = later.values_list("player_id", flat=True).distinct() if later is not None else []
    bump_results(event_ids=[event.pk], event_players=True, player_ids=list(rated_after))


def _sync_stages(locked: Event) -> int | None:
    """Write the event's summary of its stages' hides (the lowest round after which a stage not released
    hides its rounds) and bump what the public sees when the hidden rounds change. ``locked``: the
    event row, locked by the caller. Returns the public round limit before the change."""
    before = hidden_after_round(locked)
    summary = min(
        Stage.objects.filter(
            event=locked, standings_hidden_after_round__isnull=False, standings_released_at__isnull=True
        ).values_list("standings_hidden_after_round", flat=True),
        default=None,
    )
    if summary != locked.stage_hidden_after_round:
        locked.stage_hidden_after_round = summary
        locked.save(update_fields=["stage_hidden_after_round"])
    after = hidden_after_round(locked)
    if before != after:
        _bump(locked, min(r for r in (before, after) if r is not None))
    return before


def _stage_phrase(stage: Stage) -> phrases.Phrase | str:
    """As ``tournaments.stages.stage_phrase`` (which imports this module): the name, or "Stage N"."""
    return stage.name or phrases.say(gettext_noop("Stage %(order)s"), order=stage.order)


def _locked_stage(stage: Stage) -> tuple[Event, Stage]:
    """The event and the stage, locked; the implicit first stage of an event that never added one is
    saved first (``tournaments.stages.ensure_stages``, imported here: it imports this module)."""
    locked = Event.objects.select_for_update(of=("self",), no_key=True).get(pk=stage.event_id)
    if stage.pk is None:
        from tournaments.stages import ensure_stages

        ensure_stages(locked)
    row = Stage.objects.select_for_update().get(event=locked, order=stage.order)
    row.event = locked
    return locked, row


def stage_round_bounds(stage: Stage) -> tuple[int, int]:
    """The rounds a stage's hide may stop after: from the round before its first (the whole stage
    hidden) to the round before its last (its last round hidden)."""
    following = (
        Stage.objects.filter(event_id=stage.event_id, order__gt=stage.order)
        .order_by("order")
        .values_list("first_round", flat=True)
        .first()
    )
    last = following - 1 if following is not None else stage.last_round
    return stage.first_round - 1, max(last - 1, stage.first_round - 1)


@transaction.atomic
def set_stage_hiding(*, stage: Stage, user: Any, hidden_after_round: int | None) -> Stage:
    """Hide a stage's rounds after ``hidden_after_round`` from the public until the stage's release
    (None: hide nothing). A new round takes back an earlier release; the same round changes nothing."""
    locked, row = _locked_stage(stage)
    if row.standings_hidden_after_round == hidden_after_round:
        return row
    if hidden_after_round is not None and locked.kind != Event.Kind.TOURNAMENT:
        # (league/hidden_rounds.py hides a tournament's rounds only: a league's play-off shows as played)
        raise ValidationError(
            {
                "standings_hidden_after_round": gettext(
                    "Hide standings after round: a league's play-off is shown as it is played; hidden "
                    "standings are a tournament's."
                )
            }
        )
    if hidden_after_round is not None:
        low, high = stage_round_bounds(row)
        if not low <= hidden_after_round <= high:
            raise ValidationError(
                {
                    "standings_hidden_after_round": gettext(
                        "Hide standings after round: a round from %(low)s (the whole stage hidden) to "
                        "%(high)s (its last round hidden): %(stage)s plays rounds %(first)s to %(last)s."
                    )
                    % {
                        "low": low,
                        "high": high,
                        "stage": row.label,
                        "first": row.first_round,
                        "last": high + 1,
                    }
                }
            )
    before = {
        "standings_hidden_after_round": row.standings_hidden_after_round,
        "standings_released_at": row.standings_released_at,
    }
    row.standings_hidden_after_round = hidden_after_round
    row.standings_released_at = None  # hidden (again), until the stage's release
    row.save(update_fields=["standings_hidden_after_round", "standings_released_at"])
    _sync_stages(locked)
    history.log(
        event=locked,
        user=user,
        action="stage standings hidden",
        summary=(
            phrases.say(
                gettext_noop("%(stage)s: the public standings stop after round %(n)s until its release."),
                stage=_stage_phrase(row),
                n=hidden_after_round,
            )
            if hidden_after_round is not None
            else phrases.say(gettext_noop("%(stage)s hides no round any more."), stage=_stage_phrase(row))
        ),
        before=before,
        after={"standings_hidden_after_round": hidden_after_round, "standings_released_at": None},
    )
    stage.standings_hidden_after_round = row.standings_hidden_after_round
    stage.standings_released_at = None
    return row


@transaction.atomic
def release_stage_standings(*, stage: Stage, user: Any) -> tuple[Stage, bool]:
    """Show the rounds the stage hides to the public from now on (as far as no other hide keeps them:
    see ``league.hidden_rounds``). Returns the stage and whether this call released it: releasing
    twice changes nothing (False); a stage that hides nothing is refused. Announced by
    ``standings_released`` with the stage."""
    locked, row = _locked_stage(stage)
    if row.standings_released_at is not None:
        stage.standings_released_at = row.standings_released_at
        return row, False
    if row.standings_hidden_after_round is None:
        raise ValidationError(
            {
                "standings_hidden_after_round": gettext(
                    "%(stage)s does not hide its standings: there is nothing to release."
                )
                % {"stage": row.label}
            }
        )
    row.standings_released_at = timezone.now()
    row.save(update_fields=["standings_released_at"])
    _sync_stages(locked)
    history.log(
        event=locked,
        user=user,
        action="stage standings released",
        summary=phrases.say(
            gettext_noop("%(stage)s standings released: the public sees its rounds after round %(n)s."),
            stage=_stage_phrase(row),
            n=row.standings_hidden_after_round,
        ),
        before={"standings_released_at": None},
        after={"standings_released_at": row.standings_released_at},
    )
    signals.standings_released.send(sender=Event, event=locked, stage=row)
    stage.standings_released_at = row.standings_released_at
    return row, True
