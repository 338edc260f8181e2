"""Writing results through the API, with a key of the game's event that may "enter results" (or "import
game records"): the same services as the pages, with their locks, version checks and idempotency.

- A hand: ``POST /api/v1/games/{id}/hands/`` with the hand in the game record's format
  (docs/game-record.md) and an ``entry_key`` of the client's choosing. The same request sent again (a
  retry after a lost answer) is answered ``200 {"already_saved": true}`` and writes nothing; a first
  save is a ``201``. ``expected_version`` (optional): the game's version the client last read; if the
  game changed since, ``409`` with the current version, nothing saved.
- Final scores: ``POST /api/v1/games/{id}/final-scores/``, the same way (``reason`` for a correction).
- Game records: ``POST /api/v1/events/{slug}/imports/``, whole games, all or nothing.

Every change is in the game's history as made through "API key 'name'" from the client's address.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics, serializers, status
from rest_framework.exceptions import NotAuthenticated, PermissionDenied, ValidationError
from rest_framework.parsers import JSONParser
from rest_framework.request import Request
from rest_framework.response import Response

from league.engine_text import engine_message
from league.models import Event, Hanchan
from scoring import engine, services
from scoring.engine.record import hand_from_dict
from scoring.imports import ImportFailed, import_records
from scoring.services.hands import ENTRY_KEY_LENGTH

from . import access
from .authentication import client_ip
from .keys import acting_as
from .models import ApiKey

MAX_RECORDS = 100
"""Game records in one import call; more are sent in several calls."""


def key_for(request: Request, event_id: int, scope: str) -> ApiKey:
    """The request's key if it may write ``scope`` in event ``event_id``.

    No key: 401. A key of another event: 404, as for an object the key cannot see. A key of the event
    without the scope: 403."""
    key = access.api_key(request)
    if key is None:
        raise NotAuthenticated("Writing needs an API key of the event (Authorization: Bearer …).")
    if key.event_id != event_id:
        raise Http404("No such object for this key.")
    if not key.allows(scope):
        raise PermissionDenied(f"This key may not {scope.replace('_', ' ')}.")
    return key


def _game(pk: int) -> Hanchan:
    game = Hanchan.objects.select_related("event").filter(pk=pk).first()
    if game is None:
        raise Http404("No such game.")
    return game


def _refusal(exc: DjangoValidationError) -> ValidationError:
    if hasattr(exc, "error_dict"):
        return ValidationError({field: [str(m) for m in e.messages] for field, e in exc.error_dict.items()})
    return ValidationError({"non_field_errors": list(exc.messages)})


class Saved(serializers.Serializer):
    already_saved = serializers.BooleanField(
        help_text="True: this entry_key was saved before; nothing written."
    )
    game_version = serializers.IntegerField()
    game_status = serializers.CharField()


class Conflict(serializers.Serializer):
    detail = serializers.CharField()
    game_version = serializers.IntegerField(help_text="The game's version now: read it again.")


WRITE_ANSWERS = {
    200: OpenApiResponse(Saved, description="Already saved by this entry_key: nothing written."),
    201: OpenApiResponse(Saved, description="Saved."),
    400: OpenApiResponse(description="Refused: the message names the field and the rule; nothing saved."),
    401: OpenApiResponse(description="No key, or an unknown or revoked one."),
    403: OpenApiResponse(description="The key may not do this."),
    404: OpenApiResponse(description="No such game for this key."),
    409: OpenApiResponse(Conflict, description="The game changed since expected_version: nothing saved."),
    429: OpenApiResponse(description="Too many requests: see Retry-After."),
}


class HandEntry(serializers.Serializer):
    hand = serializers.JSONField(help_text="One hand in the game record's format (docs/game-record.md).")
    entry_key = serializers.CharField(
        max_length=ENTRY_KEY_LENGTH,
        help_text="Chosen by the client, new for each hand: the same key sent again is 'already saved'.",
    )
    expected_version = serializers.IntegerField(required=False, min_value=0, max_value=2**31 - 1)


class ScoresEntry(serializers.Serializer):
    scores = serializers.ListField(
        child=serializers.IntegerField(min_value=-10**7, max_value=10**7), min_length=4, max_length=4
    )
    sticks = serializers.IntegerField(required=False, default=0, min_value=0, max_value=100)
    entry_key = serializers.CharField(max_length=ENTRY_KEY_LENGTH)
    expected_version = serializers.IntegerField(required=False, min_value=0, max_value=2**31 - 1)
    reason = serializers.CharField(required=False, default="", max_length=200, allow_blank=True)


def _saved(game: Hanchan, already: bool) -> Response:
    game.refresh_from_db(fields=["version", "status"])
    data = {"already_saved": already, "game_version": game.version, "game_status": game.status}
    return Response(data, status=status.HTTP_200_OK if already else status.HTTP_201_CREATED)


def _conflict(game: Hanchan, exc: services.GameChanged) -> Response:
    game.refresh_from_db(fields=["version"])
    return Response({"detail": str(exc), "game_version": game.version}, status=status.HTTP_409_CONFLICT)


class Write(generics.GenericAPIView):
    """A write: JSON bodies only (a game record's hand is JSON; a form would flatten it)."""

    http_method_names = ["post", "options"]
    parser_classes = [JSONParser]

    def entry(self) -> dict[str, Any]:
        serializer = self.get_serializer(data=self.request.data)
        serializer.is_valid(raise_exception=True)
        return serializer.validated_data

    def save(self, game: Hanchan, key: ApiKey, record: Callable[[], Any]) -> Response:
        """Run ``record`` (a service call) as the key, from the client's address: a stale version is a
        409 with the game's version, a refusal a 400 naming the field, a retry "already saved"."""
        try:
            with acting_as(key, client_ip(self.request)):
                saved = record()
        except services.GameChanged as exc:
            return _conflict(game, exc)
        except DjangoValidationError as exc:
            raise _refusal(exc) from None
        return _saved(game, bool(getattr(saved, "already_saved", False)))


@extend_schema(tags=["writing"], request=HandEntry, responses=WRITE_ANSWERS)
class HandCreate(Write):
    """Add the next hand of a game entered hand by hand (scope "enter results")."""

    serializer_class = HandEntry

    def post(self, request: Request, pk: int) -> Response:
        game = _game(pk)
        key = key_for(request, game.event_id, ApiKey.Scope.ENTER_RESULTS)
        data = self.entry()
        try:
            hand = hand_from_dict(data["hand"])
        except engine.EngineError as exc:
            raise ValidationError({"hand": [engine_message(exc)]}) from None
        return self.save(
            game,
            key,
            lambda: services.record_hand(
                hanchan=game,
                hand=hand,
                user=None,
                expected_version=data.get("expected_version"),
                entry_key=data["entry_key"],
            ),
        )


@extend_schema(tags=["writing"], request=ScoresEntry, responses=WRITE_ANSWERS)
class FinalScores(Write):
    """Enter (or correct, with a reason) the four final scores of a game played on paper (scope "enter
    results")."""

    serializer_class = ScoresEntry

    def post(self, request: Request, pk: int) -> Response:
        game = _game(pk)
        key = key_for(request, game.event_id, ApiKey.Scope.ENTER_RESULTS)
        data = self.entry()
        return self.save(
            game,
            key,
            lambda: services.record_final_scores(
                hanchan=game,
                scores=data["scores"],
                sticks=data["sticks"],
                user=None,
                expected_version=data.get("expected_version"),
                entry_key=data["entry_key"],
                reason=data["reason"],
            ),
        )


class ImportEntry(serializers.Serializer):
    records = serializers.ListField(
        child=serializers.JSONField(), min_length=1, max_length=MAX_RECORDS,
        help_text="Game records (docs/game-record.md), imported all or nothing.",
    )
    create_players = serializers.BooleanField(
        required=False, default=False, help_text="Create (and register) players the event does not know."
    )


class Imported(serializers.Serializer):
    games = serializers.ListField(child=serializers.IntegerField(), help_text="The new games' ids, in order.")


@extend_schema(
    tags=["writing"],
    request=ImportEntry,
    responses={201: Imported, **{code: WRITE_ANSWERS[code] for code in (400, 401, 403, 404, 429)}},
)
class Import(Write):
    """Import whole games as game records (scope "import game records"): every record is checked before
    the first is written; a log already imported in the event is refused."""

    serializer_class = ImportEntry

    def post(self, request: Request, slug: str) -> Response:
        event = Event.objects.filter(slug=slug).first()
        if event is None:
            raise Http404("No such event.")
        key = key_for(request, event.pk, ApiKey.Scope.IMPORT_LOGS)
        data = self.entry()
        sources = [(f"record {n}", record) for n, record in enumerate(data["records"], start=1)]
        try:
            with acting_as(key, client_ip(request)):
                games = import_records(event=event, sources=sources, create_players=data["create_players"])
        except ImportFailed as exc:
            raise ValidationError({"records": [str(exc)]}) from None
        except DjangoValidationError as exc:
            raise _refusal(exc) from None
        return Response({"games": [g.pk for g in games]}, status=status.HTTP_201_CREATED)
