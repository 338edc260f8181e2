"""The registered players hear of their tournament's day: the signals of the layers below
(``tournaments.signals``, ``scoring.signals``) are turned into messages (``notifications.notify``) to the
people concerned — the sign-ups turned into the event's players, at their registration e-mail, in the
language they registered in, as they chose (``notifications.kinds``).

The listeners live here, not in ``notifications``: only registration knows who signed up with which
address (and notifications stays below it). Each message's key names what it tells (the seating's
seats, the round, the game, the release), so a signal sent twice queues one message, and a new seating
a new one.
"""

from __future__ import annotations

import hashlib
import logging
from collections import defaultdict
from typing import Any

from django.db import transaction
from django.urls import reverse

from league.models import Event, Hanchan, Seat
from notifications import kinds
from notifications.notify import notify
from notifications.outbox import site_url
from scoring import signals as scoring_signals
from tournaments import signals as tournament_signals

from .models import SignUp

logger = logging.getLogger(__name__)


def _players(event_id: int, player_ids: list[int] | None = None) -> list[SignUp]:
    """The sign-ups that became players of the event and gave an address (one query)."""
    rows = SignUp.objects.filter(event_id=event_id, registration__isnull=False).exclude(email="")
    if player_ids is not None:
        rows = rows.filter(registration__player_id__in=player_ids)
    return list(rows.select_related("event", "registration"))


def _base(signup: SignUp) -> dict[str, Any]:
    event = signup.event
    return {
        "name": signup.name,
        "event": event.name,
        "event_url": site_url(reverse("scoring:event", args=[event.slug])),
        "personal_url": site_url(signup.get_absolute_url()),
    }


def _seats(event_id: int, rounds: list[int] | None = None) -> dict[int, list[list[int]]]:
    """Each player's [round, table, seat] in the event's seated rounds (one query)."""
    rows = Seat.objects.filter(hanchan__event_id=event_id, hanchan__round_number__isnull=False)
    if rounds is not None:
        rows = rows.filter(hanchan__round_number__in=rounds)
    found: dict[int, list[list[int]]] = defaultdict(list)
    for player, number, table, seat in rows.order_by("hanchan__round_number").values_list(
        "player_id", "hanchan__round_number", "hanchan__table_number", "seat"
    ):
        found[player].append([number, table, seat])
    return found


def _send(signup: SignUp, *, key: str, kind: str, template: str, context: dict[str, Any], url: str) -> None:
    notify(
        key=key,
        kind=kind,
        to=signup.email,
        language=signup.language,
        template=f"registration/email/{template}",
        context={**_base(signup), **context},
        url=url,
        scope=f"event:{signup.event_id}",
    )


def seating_published(*, event_id: int, **_kwargs: Any) -> None:
    """Each player's table and wind in every round."""
    seats = _seats(event_id)
    with transaction.atomic():
        for signup in _players(event_id):
            mine = seats.get(signup.registration.player_id)  # type: ignore[union-attr]
            if not mine:
                continue
            digest = hashlib.sha256(repr(mine).encode()).hexdigest()[:16]
            _send(
                signup,
                key=f"seating:{event_id}:{signup.pk}:{digest}",
                kind=kinds.SEATING,
                template="seating",
                context={"seats": mine},
                url=site_url(signup.get_absolute_url()),
            )


def _each_at_their_table(
    event_id: int, number: int, *, key: str, template: str, context: dict[str, Any]
) -> None:
    """Each player seated in round ``number``, told at which table and in which wind (``key``: the
    message's kind for its once-only key, with the event, round and sign-up added)."""
    seats = _seats(event_id, [number])
    with transaction.atomic():
        for signup in _players(event_id):
            mine = seats.get(signup.registration.player_id)  # type: ignore[union-attr]
            if not mine:
                continue
            _round, table, seat = mine[0]
            _send(
                signup,
                key=f"{key}:{event_id}:{number}:{signup.pk}",
                kind=kinds.ROUND,
                template=template,
                context={"round": number, "table": table, "seat": seat, **context},
                url=site_url(signup.get_absolute_url()),
            )


def round_started(*, event_id: int, number: int, **_kwargs: Any) -> None:
    """Each player of the round: it starts, at this table, in this wind."""
    _each_at_their_table(event_id, number, key="round", template="round_started", context={})


def round_ending_soon(*, event_id: int, number: int, minutes: int, **_kwargs: Any) -> None:
    """Each player of the round: its time is nearly up (once per round, whatever the clock's changes)."""
    _each_at_their_table(
        event_id, number, key="round-ending", template="round_ending", context={"minutes": minutes}
    )


def result_confirmed(*, hanchan_id: int, **_kwargs: Any) -> None:
    """The four players of a game that counts now: its result, their score."""
    game = Hanchan.objects.filter(pk=hanchan_id).first()
    if game is None or game.status != Hanchan.Status.FINISHED:
        return  # reopened or voided since: nothing to tell
    seats = {s.player_id: s for s in Seat.objects.filter(hanchan=game)}
    url = site_url(reverse("scoring:game", args=[game.pk]))
    with transaction.atomic():
        for signup in _players(game.event_id, list(seats)):
            seat = seats[signup.registration.player_id]  # type: ignore[union-attr]
            _send(
                signup,
                key=f"result:{game.pk}:{signup.pk}",
                kind=kinds.RESULT,
                template="result_confirmed",
                context={
                    "round": game.round_number,
                    "table": game.table_number,
                    "seat": seat.seat,
                    "score": seat.final_score,
                    "game_url": url,
                },
                url=url,
            )


def standings_released(*, event_id: int, stage: Any = None, **_kwargs: Any) -> None:
    """Everyone registered: the standings are public (the event's, or a stage's: each stage's release
    is its own message, hence the stage in the key)."""
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        return
    part = f"stage{stage.order}:" if stage is not None else ""
    with transaction.atomic():
        for signup in _players(event_id):
            _send(
                signup,
                key=f"standings:{event_id}:{part}{signup.pk}",
                kind=kinds.STANDINGS,
                template="standings_released",
                context={},
                url=site_url(reverse("scoring:event", args=[event.slug])),
            )


def _after_commit(handler: Any) -> Any:
    """A receiver of the tournament day's signals, which are sent inside the change's transaction (the
    API's webhooks record their deliveries in it): the messages are queued once it commits — a
    rolled-back change tells nobody — and a failure is logged, never raised into the service."""

    def receiver(sender: Any, **kwargs: Any) -> None:
        event = kwargs.pop("event", None)
        if event is not None:
            kwargs.setdefault("event_id", event.pk)

        def run() -> None:
            try:
                handler(**kwargs)
            except Exception:  # noqa: BLE001 -- a message is never worth undoing the change
                logger.exception("registration: %s failed", handler.__name__)

        transaction.on_commit(run)

    return receiver


_RECEIVERS = {
    "seating": _after_commit(seating_published),
    "round": _after_commit(round_started),
    "standings": _after_commit(standings_released),
}


def connect() -> None:
    """Listen (``RegistrationConfig.ready``); dispatch_uid: connected once however often it runs."""
    day = tournament_signals
    day.seating_published.connect(_RECEIVERS["seating"], dispatch_uid="registration.seating")
    day.round_started.connect(_RECEIVERS["round"], dispatch_uid="registration.round")
    day.round_ending_soon.connect(round_ending_soon, dispatch_uid="registration.round_ending")
    day.standings_released.connect(_RECEIVERS["standings"], dispatch_uid="registration.standings")
    scoring_signals.result_confirmed.connect(result_confirmed, dispatch_uid="registration.result")
