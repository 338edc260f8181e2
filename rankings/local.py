"""The tournaments held here, as rows of the ranking: one :class:`~rankings.models.Tournament` per public
tournament with at least two ranked players, its results being the places of its EMA results report
(``tournaments.ema.EmaResultsExport``: the same places, base ranks and weight the organiser sends).

A tournament counts once its results are public: one that keeps rounds hidden for a final reveal is left
out until the organiser releases the standings, and a members-only tournament is never counted (the
ranking is a public page). The day it counts from is its end date, else its start date, else the day its
last game was played.

Nothing here runs in a request: results change (a game finished, corrected, voided, a penalty), the
ranking page notices that the tournaments' results versions moved (:func:`stale`) and marks the
``rankings`` work; a worker runs :func:`refresh_tournaments`.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.db.models import Count, Max
from django.utils import timezone

from league.hidden_rounds import hidden_after_round
from league.models import Event, Hanchan
from tournaments.ema.report import EmaResultsExport

from .models import RankingState, Tournament, TournamentResult
from .tasks import RANKINGS, SITE

logger = logging.getLogger(__name__)


def counted_events():
    """The events whose results may count: public tournaments."""
    return Event.objects.filter(kind=Event.Kind.TOURNAMENT, visibility=Event.Visibility.PUBLIC)


def signature() -> str:
    """What the stored rows depend on, in one aggregate: the tournaments' number and their largest results
    version (a results version only ever grows, past every earlier one: league/versions.py)."""
    found = counted_events().aggregate(n=Count("id"), top=Max("results_version"))
    return f"{found['n']}:{found['top'] or 0}"


def state() -> RankingState:
    """The one state row (created on first use)."""
    row = RankingState.objects.order_by("pk").first()
    return row if row is not None else RankingState.objects.create()


def stale() -> bool:
    """Whether the tournaments' results moved since the rows were computed; if so (and no recomputation
    waits yet) mark the work. Three small queries at most; what the ranking pages call."""
    current = signature()
    if state().signature == current:
        return False
    if not RANKINGS.pending():
        RANKINGS.mark(SITE, scope=SITE)
    return True


def bump_version(row: RankingState | None = None) -> None:
    """Move the rankings' version (the cache key of every ranking page) forward."""
    row = row or state()
    RankingState.objects.filter(pk=row.pk).update(
        version=max(row.version + 1, int(timezone.now().timestamp() * 1_000_000))
    )


def held_on(event: Event):
    """The day a tournament's results count from."""
    if event.end_date or event.start_date:
        return event.end_date or event.start_date
    return Hanchan.objects.filter(event=event, status=Hanchan.Status.FINISHED).aggregate(
        last=Max("played_on")
    )["last"]


def _snapshot(event: Event) -> tuple[Any, ...] | None:
    """What the pages show of a tournament's stored rows, to tell whether a recomputation changed them."""
    tournament = Tournament.objects.filter(event=event).first()
    if tournament is None:
        return None
    fields = ("name", "end_date", "weight", "players", "countries", "days", "club_id", "mers")
    rows = TournamentResult.objects.filter(tournament=tournament).order_by("player_id")
    return (
        tuple(getattr(tournament, f) for f in fields),
        tuple(rows.values_list("player_id", "place", "score", "base_rank")),
    )


def refresh_event(event: Event) -> Tournament | None:
    """Recompute one tournament's rows from its EMA report (the caller holds the transaction). Returns the
    row, or None (and no row) when the tournament does not count."""
    hidden = hidden_after_round(event) is not None  # the event's or a stage's hide, not released yet
    export = EmaResultsExport(event)
    rows = [] if hidden or event.visibility != Event.Visibility.PUBLIC else export.rows
    day = held_on(event) if len(rows) >= 2 else None
    if day is None:
        Tournament.objects.filter(event=event).delete()
        return None
    header = export.header
    tournament, _ = Tournament.objects.update_or_create(
        event=event,
        defaults={
            "name": event.name,
            "city": header.city,
            "country": event.country or event.club.country,
            "club": event.club,
            "start_date": event.start_date or day,
            "end_date": day,
            "days": header.days,
            "players": header.players,
            "countries": header.countries,
            "qualification": event.ema_qualification,
            "mers": True,
            "weight": header.weight,
            "results_version": event.results_version,
        },
    )
    TournamentResult.objects.filter(tournament=tournament).delete()
    TournamentResult.objects.bulk_create(
        TournamentResult(
            tournament=tournament,
            player_id=row.player_id,
            place=row.place,
            score=row.score,
            base_rank=row.base_rank or 0,
        )
        for row in rows
    )
    return tournament


def refresh_tournaments(*, everything: bool = False) -> int:
    """Recompute the rows of every tournament whose results version moved (``everything``: all of them),
    drop the rows of events that no longer count, record the signature and move the version. Returns how
    many tournaments were recomputed. Runs in the caller's transaction (the drain's), or its own."""
    with transaction.atomic():
        row = state()
        current = signature()
        stored = dict(
            Tournament.objects.filter(event__isnull=False).values_list("event_id", "results_version")
        )
        events = list(counted_events().select_related("club"))
        done = 0
        changed = everything
        for event in events:
            if everything or stored.get(event.pk) != event.results_version:
                before = _snapshot(event)
                refresh_event(event)
                changed = changed or _snapshot(event) != before
                done += 1
        # Events that were tournaments and are no longer counted (made a league, made members-only).
        gone, _ = (
            Tournament.objects.filter(event__isnull=False).exclude(event__in=[e.pk for e in events]).delete()
        )
        RankingState.objects.filter(pk=row.pk).update(signature=current, computed_at=timezone.now())
        # A version moved by something the rows do not show (a ratings rebuild moves the events' versions
        # too) recomputes the tournament and finds the same rows: the pages' cache stays.
        if changed or gone:
            bump_version(row)
        logger.info("rankings: %d tournament(s) recomputed", done)
        return done
