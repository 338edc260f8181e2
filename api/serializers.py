"""What the API answers, field by field. Read-only views of rows and of what the selectors compute;
nothing here decides who may see what (``api.access``) or computes a point (the engine, the selectors).
The OpenAPI schema is generated from these classes (drf-spectacular)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from league.models import Club, Event, Hanchan, Registration
from scoring.models import Hand, SeatResult, Win
from tournaments.models import Round


class CountryCode(serializers.CharField):
    """An ISO 3166 country code ("FR"), empty when none was given."""

    def to_representation(self, value: Any) -> str:
        return str(getattr(value, "code", value) or "")


class ClubSerializer(serializers.ModelSerializer):
    country = CountryCode()

    class Meta:
        model = Club
        fields = ["slug", "name", "city", "country"]


class EventSerializer(serializers.ModelSerializer):
    club = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    country = CountryCode()
    hidden_after_round = serializers.SerializerMethodField(
        help_text="The last round whose results the public may see; null when every round is shown."
    )
    results_version = serializers.IntegerField(
        read_only=True, help_text="Moves forward with every change of what the event's results show."
    )

    class Meta:
        model = Event
        fields = [
            "slug",
            "name",
            "kind",
            "club",
            "visibility",
            "start_date",
            "end_date",
            "city",
            "country",
            "min_games",
            "tie_break",
            "hidden_after_round",
            "results_version",
        ]

    def get_hidden_after_round(self, event: Event) -> int | None:
        return self.context["hidden_after"](event)


class EventDetailSerializer(EventSerializer):
    ruleset = serializers.JSONField(read_only=True, help_text="The event's effective ruleset.")

    class Meta(EventSerializer.Meta):
        fields = [*EventSerializer.Meta.fields, "ruleset"]


def without_private(data: dict[str, Any], shown: Any) -> dict[str, Any]:
    """``data`` with the fields the player keeps private (``league.permissions.Shown``) set to null."""
    if shown is None:
        return data
    hidden = {
        "given_name": not shown.full_name,
        "family_name": not shown.full_name,
        "ema_number": not shown.ema_number,
        "country": not shown.country,
        "club": not shown.club,
    }
    return {name: (None if hidden.get(name) else value) for name, value in data.items()}


PRIVATE_NOTE = " Null when the player keeps it private (the player and their organisers still read it)."


class PlayerDetails(serializers.Serializer):
    """A player's details, as the pages show them to this requester (null when only the display name
    may be shown: a members-only player to an anonymous requester). Each field is null when the player
    keeps it private."""

    given_name = serializers.CharField(allow_null=True, help_text=PRIVATE_NOTE.strip())
    family_name = serializers.CharField(allow_null=True, help_text=PRIVATE_NOTE.strip())
    ema_number = serializers.CharField(allow_null=True, help_text=PRIVATE_NOTE.strip())
    country = CountryCode(allow_null=True, help_text=PRIVATE_NOTE.strip())
    club = serializers.CharField(
        source="club.slug", allow_null=True, default=None, help_text=PRIVATE_NOTE.strip()
    )

    def to_representation(self, instance: Any) -> dict[str, Any]:
        return without_private(super().to_representation(instance), self.context.get("shown"))


class RegistrationSerializer(serializers.ModelSerializer):
    id = serializers.IntegerField(source="player_id")
    display_name = serializers.CharField(source="player.display_name")
    details = serializers.SerializerMethodField()

    class Meta:
        model = Registration
        fields = ["id", "display_name", "is_substitute", "dropped_out", "details"]

    @extend_schema_field(PlayerDetails(allow_null=True))
    def get_details(self, registration: Registration) -> dict[str, Any] | None:
        player = registration.player
        if not self.context["shows_details"](player):
            return None
        return PlayerDetails(player, context={"shown": self.context["shown"](player)}).data


class PlayerSerializer(PlayerDetails):
    """A player's page: their details (each null when kept private, as in :class:`PlayerDetails`) and the
    events they play in."""

    id = serializers.IntegerField()
    display_name = serializers.CharField()
    events = serializers.ListField(
        child=serializers.SlugField(), help_text="The events the requester may see that the player plays in."
    )


class SeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField(help_text="0 East, 1 South, 2 West, 3 North.")
    player_id = serializers.IntegerField()
    player_name = serializers.CharField(source="player.display_name")
    on_behalf_of_id = serializers.IntegerField(allow_null=True, help_text="The player a substitute sits for.")
    final_score = serializers.IntegerField(allow_null=True, help_text="A game entered as final scores.")


class SeatResultSerializer(serializers.ModelSerializer):
    class Meta:
        model = SeatResult
        fields = ["seat", "player_id", "score", "place", "uma", "oka", "penalties", "result", "chombos"]

    player_id = serializers.IntegerField()


class GameSerializer(serializers.ModelSerializer):
    event = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    seats = SeatSerializer(many=True, read_only=True)
    results = SeatResultSerializer(many=True, read_only=True, help_text="Seat by seat, once finished.")

    class Meta:
        model = Hanchan
        fields = [
            "id",
            "event",
            "round_number",
            "table_number",
            "status",
            "entry_mode",
            "version",
            "played_on",
            "finished_at",
            "seats",
            "results",
        ]


class WinSerializer(serializers.ModelSerializer):
    class Meta:
        model = Win
        fields = ["winner", "han", "fu", "yakuman", "pao", "points", "yaku", "dora", "aka", "ura"]


class HandSerializer(serializers.ModelSerializer):
    round = serializers.CharField(source="round_name")
    wins = WinSerializer(many=True, read_only=True)
    deltas = serializers.ListField(child=serializers.IntegerField())
    scores = serializers.ListField(child=serializers.IntegerField())
    riichi = serializers.ListField(child=serializers.IntegerField())
    tenpai = serializers.ListField(child=serializers.IntegerField())
    nagashi = serializers.ListField(child=serializers.IntegerField())

    class Meta:
        model = Hand
        fields = [
            "number",
            "round",
            "dealer",
            "honba",
            "sticks",
            "result",
            "loser",
            "riichi",
            "tenpai",
            "nagashi",
            "chombo_seat",
            "abort_reason",
            "wins",
            "deltas",
            "scores",
        ]


class GameDetailSerializer(GameSerializer):
    hands = HandSerializer(many=True, read_only=True)

    class Meta(GameSerializer.Meta):
        fields = [*GameSerializer.Meta.fields, "hands"]


class StandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField(allow_null=True, help_text="Shared by exact ties; null when not ranked.")
    ranked = serializers.BooleanField()
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    games = serializers.IntegerField()
    points = serializers.IntegerField()
    average_place = serializers.DecimalField(max_digits=4, decimal_places=2, allow_null=True)
    firsts = serializers.IntegerField()
    seconds = serializers.IntegerField()
    thirds = serializers.IntegerField()
    fourths = serializers.IntegerField()
    average_score = serializers.IntegerField(allow_null=True)
    best = serializers.IntegerField(allow_null=True)
    chombos = serializers.IntegerField()
    penalties = serializers.IntegerField()


class StageSerializer(serializers.Serializer):
    order = serializers.IntegerField(help_text="1 for the first stage (a league's season), then 2, …")
    name = serializers.CharField(
        source="label",
        help_text="Its name, or “Stage N” (a league's “Season”, “Play-off”) in the reader's language.",
    )
    first_round = serializers.IntegerField()
    last_round = serializers.IntegerField(
        allow_null=True,
        help_text="The last round it plays; null for the last stage (every round from its first).",
    )
    entrants = serializers.ChoiceField(choices=["everyone", "top", "list"])
    cut_size = serializers.IntegerField(
        allow_null=True, help_text="With entrants “top”: how many go through."
    )
    carry_over = serializers.ChoiceField(choices=["none", "all", "half", "bonus"])
    bonus = serializers.ListField(
        child=serializers.IntegerField(), help_text="With carry_over “bonus”: the points of the 1st, 2nd, …"
    )
    seating = serializers.ChoiceField(choices=["schedule", "swiss", "rank", "final"])
    winds = serializers.ChoiceField(choices=["drawn", "rank"])
    closed_at = serializers.DateTimeField(
        allow_null=True, help_text="When its cut was made; null while open."
    )


class StageStandingSerializer(StandingSerializer):
    carried = serializers.IntegerField(help_text="Points brought from the stage before (the carry-over).")
    total = serializers.IntegerField(help_text="The stage's ranking points: its games' points plus carried.")
    seed = serializers.IntegerField(allow_null=True, help_text="Place going in (stages after the first).")
    replaces = serializers.CharField(
        help_text="The player who dropped out before the cut, whose place this is."
    )


class FinalRankingSerializer(serializers.Serializer):
    rank = serializers.IntegerField(allow_null=True, help_text="Shared by exact ties; null when not ranked.")
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    stage = serializers.IntegerField(help_text="The order of the last stage the player reached.")
    games = serializers.IntegerField(help_text="Games in that stage.")
    total = serializers.IntegerField(help_text="That stage's ranking points (with the carry-over).")


class RatingSerializer(serializers.Serializer):
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    rating = serializers.FloatField()
    games = serializers.IntegerField()
    mu = serializers.FloatField(allow_null=True)
    sigma = serializers.FloatField(allow_null=True)


class RatingsSerializer(serializers.Serializer):
    updating = serializers.BooleanField(help_text="A change of the event's games waits for the rebuild.")
    tenhou = RatingSerializer(many=True)
    openskill = RatingSerializer(many=True)


class RoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Round.Status.choices)


class SeatingLineSerializer(serializers.Serializer):
    name = serializers.CharField()
    table = serializers.IntegerField(allow_null=True)
    seat = serializers.IntegerField()
    wind = serializers.CharField()


class ClockSerializer(serializers.Serializer):
    round_number = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Round.Status.choices)
    running = serializers.BooleanField()
    length_seconds = serializers.IntegerField()
    elapsed_seconds = serializers.IntegerField()
    remaining_seconds = serializers.IntegerField()
    expired = serializers.BooleanField(help_text="Time is up: the tables play their last hand.")
    time_limit = serializers.CharField(help_text="What the tables do once time is up (the ruleset's rule).")
