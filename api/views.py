"""The read API: thin views over the pages' selectors, under the pages' visibility rules (``api.access``).

Every view answers JSON (and the browsable HTML page to a browser); lists are paged (``api.pagination``);
what depends on an event's, a game's or a player's results carries an ETag from the results versions and
answers ``304`` to a client that has it (``api.conditional``).
"""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, QuerySet
from django.http import Http404
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from league.collation import sorted_by_name
from league.models import Club, Event, Hanchan, Registration, Seat
from league.permissions import played_by, shown_fields, visible_events
from scoring.cache import game_key, player_key
from scoring.filters import StandingsFilter
from scoring.models import Hand, SeatResult, Win
from scoring.ratings import current_ratings, ratings_pending
from scoring.standings import public_options, standings
from tournaments import cuts, projector, stages
from tournaments.clock import clock_state
from tournaments.selectors import round_numbers

from . import access
from . import serializers as s
from .conditional import Conditional
from .filters import EventFilter, GameFilter

NOT_FOUND = OpenApiResponse(description="No such object, or not one the requester may see.")
NOT_MODIFIED = OpenApiResponse(description="Unchanged since the ETag sent in If-None-Match.")
BAD_QUERY = OpenApiResponse(OpenApiTypes.OBJECT, description="A query parameter was refused (named).")
UNKNOWN_KEY = OpenApiResponse(description="An unknown or revoked API key (no key at all reads as public).")
TOO_MANY = OpenApiResponse(description="Too many requests (API_RATE): see Retry-After.")


def answers(ok: Any, *, etag: bool = False, bad_query: bool = False) -> dict[int, Any]:
    """The documented answers of a read: 200, 401, 404, 429, and 304 / 400 where they can happen."""
    documented: dict[int, Any] = {200: ok, 401: UNKNOWN_KEY, 404: NOT_FOUND, 429: TOO_MANY}
    if etag:
        documented[304] = NOT_MODIFIED
    if bad_query:
        documented[400] = BAD_QUERY
    return documented


class ReadOnly:
    """Only GET (and HEAD, OPTIONS) on the read views."""

    http_method_names = ["get", "head", "options"]


# -- clubs and events ---------------------------------------------------------------------------------


@extend_schema(tags=["clubs"], responses=answers(s.ClubSerializer(many=True), bad_query=True))
class ClubList(ReadOnly, generics.ListAPIView):
    """Every club."""

    serializer_class = s.ClubSerializer
    queryset = Club.objects.order_by("name")


@extend_schema(tags=["clubs"], responses=answers(s.ClubSerializer))
class ClubDetail(ReadOnly, generics.RetrieveAPIView):
    """One club."""

    serializer_class = s.ClubSerializer
    queryset = Club.objects.all()
    lookup_field = "slug"


class EventContext:
    """The serializer context of events: the hidden-round rule for this requester."""

    def get_serializer_context(self) -> dict[str, Any]:
        request = self.request  # type: ignore[attr-defined]
        return {
            **super().get_serializer_context(),  # type: ignore[misc]
            "hidden_after": lambda event: access.hidden_after(request, event),
        }


@extend_schema(tags=["events"], responses=answers(s.EventSerializer(many=True), bad_query=True))
class EventList(ReadOnly, EventContext, generics.ListAPIView):
    """The events the requester may see (members-only ones need a login), newest first."""

    serializer_class = s.EventSerializer
    filter_backends = [DjangoFilterBackend]
    filterset_class = EventFilter

    def get_queryset(self) -> QuerySet[Event]:
        return access.events(self.request).order_by("-start_date", "-pk")


# ``Conditional.get`` calls the view's own answer through ``super().get``: GenericAPIView has none, so the
# single-object views below answer through this base.
class Answer(generics.GenericAPIView):
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return self.answer()

    def answer(self) -> Response:
        raise NotImplementedError


@extend_schema(tags=["events"], responses=answers(s.EventDetailSerializer, etag=True))
class EventDetail(ReadOnly, Conditional, EventContext, Answer):
    """One event, with its effective ruleset."""

    serializer_class = s.EventDetailSerializer
    queryset = Event.objects.none()

    def etag_parts(self) -> tuple[Any, ...] | None:
        return access.event_tag(self.request, access.event_or_404(self.request, self.kwargs["slug"]))

    def answer(self) -> Response:
        return Response(self.get_serializer(access.event_or_404(self.request, self.kwargs["slug"])).data)


@extend_schema(tags=["events"], responses=answers(s.RegistrationSerializer(many=True), etag=True))
class EventPlayers(ReadOnly, Conditional, generics.ListAPIView):
    """The players registered in an event, by name. A members-only player's details are shown to a
    logged-in requester only (their display name otherwise), as on the event page."""

    serializer_class = s.RegistrationSerializer
    queryset = Registration.objects.none()

    def etag_parts(self) -> tuple[Any, ...] | None:
        event = access.event_or_404(self.request, self.kwargs["slug"])
        tag = access.event_tag(self.request, event)
        everything = access.sees_everything_in(self.request, event)
        return None if tag is None else (*tag, self.request.user.is_authenticated, everything)

    def get_queryset(self) -> list[Registration]:  # type: ignore[override]
        event = access.event_or_404(self.request, self.kwargs["slug"])
        rows = Registration.objects.filter(event=event).select_related("player", "player__club")
        return sorted_by_name(rows, lambda r: r.player.display_name)

    def get_serializer_context(self) -> dict[str, Any]:
        request = self.request
        return {
            **super().get_serializer_context(),
            "shows_details": lambda player: access.shows_details(
                request, player, access.event_or_404(request, self.kwargs["slug"])
            ),
            "shown": lambda player: access.shown_in_event(
                request, player, access.event_or_404(request, self.kwargs["slug"])
            ),
        }


# -- games ----------------------------------------------------------------------------------------------


def with_seats(games: QuerySet[Hanchan]) -> QuerySet[Hanchan]:
    """Games with their event, seats (and players) and seat results: three queries for any number."""
    return games.select_related("event").prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("seat")),
        Prefetch("results", queryset=SeatResult.objects.order_by("seat")),
    )


@extend_schema(tags=["games"], responses=answers(s.GameSerializer(many=True), etag=True, bad_query=True))
class EventGames(ReadOnly, Conditional, generics.ListAPIView):
    """An event's games (not those of rounds kept for a final reveal), in the order they were played."""

    serializer_class = s.GameSerializer
    filter_backends = [DjangoFilterBackend]
    filterset_class = GameFilter

    def etag_parts(self) -> tuple[Any, ...] | None:
        return access.event_tag(self.request, access.event_or_404(self.request, self.kwargs["slug"]))

    def get_queryset(self) -> QuerySet[Hanchan]:
        if getattr(self, "swagger_fake_view", False):
            return Hanchan.objects.none()
        event = access.event_or_404(self.request, self.kwargs["slug"])
        return with_seats(access.visible_games(self.request, event)).order_by("played_on", "pk")


@extend_schema(tags=["games"], responses=answers(s.GameDetailSerializer, etag=True))
class GameDetail(ReadOnly, Conditional, Answer):
    """One game with its hands (the facts and each hand's score changes) and its results."""

    serializer_class = s.GameDetailSerializer
    queryset = Hanchan.objects.none()

    def etag_parts(self) -> tuple[Any, ...] | None:
        game = access.game_or_404(self.request, self.kwargs["pk"])
        return (*game_key(game), access.private(self.request, game.event_id))

    def answer(self) -> Response:
        access.game_or_404(self.request, self.kwargs["pk"])
        game = with_seats(Hanchan.objects.filter(pk=self.kwargs["pk"])).prefetch_related(
            Prefetch(
                "hands",
                queryset=Hand.objects.order_by("number").prefetch_related(
                    Prefetch("wins", queryset=Win.objects.order_by("winner"))
                ),
            )
        )
        return Response(self.get_serializer(game.get()).data)


# -- standings and ratings ------------------------------------------------------------------------------

STANDINGS_PARAMETERS = [
    OpenApiParameter("date_from", OpenApiTypes.DATE, description="Games played on or after this day."),
    OpenApiParameter("date_to", OpenApiTypes.DATE, description="Games played on or before this day."),
    OpenApiParameter(
        "min_games", OpenApiTypes.INT, description="Games needed to be ranked (default: the event's)."
    ),
    OpenApiParameter("up_to_round", OpenApiTypes.INT, description="A tournament's standings after round N."),
]


@extend_schema(
    tags=["standings"],
    parameters=STANDINGS_PARAMETERS,
    responses=answers(s.StandingSerializer(many=True), etag=True, bad_query=True),
)
class Standings(ReadOnly, Conditional, generics.ListAPIView):
    """The standings as the event page shows them: ranked players by rank, then those not yet ranked.
    Rounds kept for a final reveal are left out (``up_to_round`` stops at the last one shown)."""

    serializer_class = s.StandingSerializer

    def etag_parts(self) -> tuple[Any, ...] | None:
        return access.event_tag(self.request, access.event_or_404(self.request, self.kwargs["slug"]))

    def get_queryset(self) -> list[Any]:  # type: ignore[override]
        event = access.event_or_404(self.request, self.kwargs["slug"])
        filters = StandingsFilter(self.request.query_params, event=event)
        if not filters.is_valid():
            raise ValidationError({field: list(errors) for field, errors in filters.form.errors.items()})
        options = filters.options()
        if access.hidden_after(self.request, event) is not None:
            options = public_options(event, options)
        return standings(event, **options)


# -- stages ---------------------------------------------------------------------------------------------


def _bonus(stage: Any) -> list[int]:
    """The bonus by place as the cut reads it (saved normalised by ``tournaments.stages``)."""
    return cuts.parse_bonus(stage.bonus)


class StageContext:
    """The event of the URL, its stages, and what an answer about them depends on: the event's results
    (as the standings), and each stage's plan and cut — closing a stage fixes who plays the next one
    without moving a results version, so the stages are in the ETag too."""

    request: Request
    kwargs: dict[str, Any]

    def found(self) -> tuple[Event, list[Any]]:
        if not hasattr(self, "_found"):
            event = access.event_or_404(self.request, self.kwargs["slug"])
            found = stages.stages_of(event)
            for stage in found:
                stage.event = event  # the labels read the event's kind: no query each
            self._found = (event, found)
        return self._found

    def etag_parts(self) -> tuple[Any, ...] | None:
        event, found = self.found()
        tag = access.event_tag(self.request, event)
        if tag is None:
            return None
        plan = tuple(
            (
                st.pk,
                st.first_round,
                st.rounds,
                st.entrants,
                st.cut_size,
                st.carry_over,
                st.bonus,
                st.closed_at,
            )
            for st in found
        )
        return (*tag, plan)

    def public(self, event: Event) -> bool:
        return not access.private(self.request, event.pk)

    def stage(self) -> tuple[Event, list[Any], Any]:
        event, found = self.found()
        for stage in found:
            if stage.order == self.kwargs["order"]:
                return event, found, stage
        raise Http404("No such stage.")


@extend_schema(tags=["stages"], responses=answers(s.StageSerializer(many=True), etag=True, bad_query=True))
class Stages(ReadOnly, StageContext, Conditional, generics.ListAPIView):
    """The event's stages in order (an event that never added one is one stage holding every round):
    who plays each, what they carry over, how it is seated, and whether its cut is made."""

    serializer_class = s.StageSerializer

    def get_queryset(self) -> list[dict[str, Any]]:  # type: ignore[override]
        _, found = self.found()
        rows = []
        for stage in found:
            _, end = stages.round_range(found, stage)
            rows.append(
                {
                    "order": stage.order,
                    "label": stage.label,
                    "first_round": stage.first_round,
                    "last_round": end,
                    "entrants": stage.entrants,
                    "cut_size": stage.cut_size,
                    "carry_over": stage.carry_over,
                    "bonus": _bonus(stage),
                    "seating": stage.seating,
                    "winds": stage.winds,
                    "closed_at": stage.closed_at,
                }
            )
        return rows


@extend_schema(
    tags=["stages"], responses=answers(s.StageStandingSerializer(many=True), etag=True, bad_query=True)
)
class StageStandings(ReadOnly, StageContext, Conditional, generics.ListAPIView):
    """One stage's standings as its page shows them: by its ranking points (its games plus the carry-over),
    ranked players first. Rounds kept for a final reveal are left out, as on the page."""

    serializer_class = s.StageStandingSerializer

    def get_queryset(self) -> list[dict[str, Any]]:  # type: ignore[override]
        event, found, stage = self.stage()
        rows = stages.stage_standings(event, stage, stages=found, public=self.public(event))
        return [
            {
                **{name: getattr(line.row, name) for name in s.StandingSerializer().fields if name != "rank"},
                "rank": line.rank,
                "ranked": line.ranked,
                "carried": line.carried,
                "total": line.total,
                "seed": line.seed,
                "replaces": line.replaces,
            }
            for line in rows
        ]


@extend_schema(
    tags=["stages"], responses=answers(s.FinalRankingSerializer(many=True), etag=True, bad_query=True)
)
class FinalRanking(ReadOnly, StageContext, Conditional, generics.ListAPIView):
    """The event's final ranking: the players of the last stage first by its points (with the
    carry-over), then everyone else by the stage they reached. One stage: the standings' order."""

    serializer_class = s.FinalRankingSerializer

    def get_queryset(self) -> list[dict[str, Any]]:  # type: ignore[override]
        event, _ = self.found()
        return [
            {
                "rank": row.rank,
                "player_id": row.line.player_id,
                "name": row.line.name,
                "stage": row.stage.order,
                "games": row.line.row.games,
                "total": row.line.total,
            }
            for row in stages.final_ranking(event, public=self.public(event))
        ]


@extend_schema(tags=["standings"], responses=answers(s.RatingsSerializer, etag=True))
class Ratings(ReadOnly, Conditional, Answer):
    """The event's ratings (its games only), best first, in both systems; ``updating`` while a change
    waits for the worker's rebuild."""

    serializer_class = s.RatingsSerializer

    def _updating(self) -> bool:
        event = access.event_or_404(self.request, self.kwargs["slug"])
        if not hasattr(self, "_pending"):
            self._pending = ratings_pending(event)
        return self._pending

    def etag_parts(self) -> tuple[Any, ...] | None:
        tag = access.event_tag(self.request, access.event_or_404(self.request, self.kwargs["slug"]))
        return None if tag is None else (*tag, self._updating())

    def answer(self) -> Response:
        event = access.event_or_404(self.request, self.kwargs["slug"])
        table = current_ratings(event, hidden_after=access.hidden_after(self.request, event))
        return Response(self.get_serializer({"updating": self._updating(), **table}).data)


# -- the tournament day ---------------------------------------------------------------------------------


@extend_schema(tags=["tournament day"], responses=answers(s.RoundSerializer(many=True), bad_query=True))
class Rounds(ReadOnly, generics.ListAPIView):
    """A tournament's seated rounds and whether each is open."""

    serializer_class = s.RoundSerializer

    def get_queryset(self) -> list[dict[str, Any]]:  # type: ignore[override]
        event = access.tournament_or_404(self.request, self.kwargs["slug"])
        return [{"number": number, "status": status} for number, status in round_numbers(event)]


@extend_schema(tags=["tournament day"], responses=answers(s.SeatingLineSerializer(many=True), bad_query=True))
class Seating(ReadOnly, generics.ListAPIView):
    """Where each player sits in a round, by name (the wall screen's seating list)."""

    serializer_class = s.SeatingLineSerializer

    def get_queryset(self) -> list[Any]:  # type: ignore[override]
        event = access.tournament_or_404(self.request, self.kwargs["slug"])
        return projector.seating(event, self.kwargs["number"])


def clock_answer(view: generics.GenericAPIView, event: Event, found: Any) -> Response:
    if found is None:
        raise Http404("No such round.")
    state = clock_state(found, time_limit=event.rules.time_limit)
    names = [name for name in s.ClockSerializer().fields if name != "expired"]
    data = {**{name: getattr(state, name) for name in names}, "expired": state.expired}
    return Response(view.get_serializer(data).data)


@extend_schema(tags=["tournament day"], responses=answers(s.ClockSerializer))
class RoundClock(ReadOnly, Answer):
    """A round's clock now (no ETag: it moves by itself)."""

    serializer_class = s.ClockSerializer

    def answer(self) -> Response:
        event = access.tournament_or_404(self.request, self.kwargs["slug"])
        return clock_answer(self, event, projector.round_by_number(event, self.kwargs["number"]))


@extend_schema(tags=["tournament day"], responses=answers(s.ClockSerializer))
class Clock(ReadOnly, Answer):
    """The clock of the round the room plays: the open round, else the next one to open; 404 once
    every round is closed."""

    serializer_class = s.ClockSerializer

    def answer(self) -> Response:
        event = access.tournament_or_404(self.request, self.kwargs["slug"])
        return clock_answer(self, event, projector.shown_round(event))


# -- players --------------------------------------------------------------------------------------------


@extend_schema(tags=["players"], responses=answers(s.PlayerSerializer, etag=True))
class PlayerDetail(ReadOnly, Conditional, Answer):
    """A player whose page the requester may see: who they are and the events they play in."""

    serializer_class = s.PlayerSerializer

    def etag_parts(self) -> tuple[Any, ...] | None:
        player = access.player_or_404(self.request, self.kwargs["pk"])
        shown = shown_fields(self.request.user, player)
        return (*player_key(player), self.request.user.is_authenticated, *shown.key)

    def answer(self) -> Response:
        player = access.player_or_404(self.request, self.kwargs["pk"])
        events = list(
            visible_events(self.request.user)
            .filter(played_by(player))
            .order_by("-start_date", "-pk")
            .values_list("slug", flat=True)
            .distinct()
        )
        player.events = events  # type: ignore[attr-defined]
        serializer = self.get_serializer_class()(
            player,
            context={**self.get_serializer_context(), "shown": shown_fields(self.request.user, player)},
        )
        return Response(serializer.data)
