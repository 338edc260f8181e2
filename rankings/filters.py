"""The ranking pages' filters (django-filter): country, club and year. The ranking is computed (not a
queryset filtered), so the filter set is the form that reads and checks the query string; the selectors
take its cleaned values. A junk value is refused with the form's error (the page shows the whole
ranking and says why, the CSV answers 400), never a 500."""

from __future__ import annotations

from typing import Any

import django_filters
from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django_countries import countries

from league.models import Club, Player

from .models import Tournament

FIRST_YEAR = 2000


def year_choices() -> list[tuple[int, str]]:
    this_year = timezone.localdate().year
    return [(year, str(year)) for year in range(this_year, FIRST_YEAR - 1, -1)]


class CountFilter(django_filters.NumberFilter):
    """A whole number (NumberFilter would accept 2.5)."""

    field_class = forms.IntegerField


class RankingFilter(django_filters.FilterSet):
    """Country (of the player), club (of the player) and year (the ranking on the year's last day)."""

    country = django_filters.ChoiceFilter(
        label=_("Country"), choices=lambda: list(countries), empty_label=_("All")
    )
    club = django_filters.ModelChoiceFilter(
        label=_("Club"), queryset=Club.objects.order_by("name"), empty_label=_("All")
    )
    year = django_filters.ChoiceFilter(
        label=_("Year"), choices=year_choices, empty_label=_("This year (today)")
    )

    class Meta:
        model = Player
        fields: list[str] = []

    def __init__(self, *args: Any, fixed_club: Club | None = None, **kwargs: Any) -> None:
        super().__init__(*args, queryset=Player.objects.none(), **kwargs)
        self.fixed_club = fixed_club
        if fixed_club is not None:
            del self.filters["club"]

    def options(self) -> dict[str, Any]:
        """What the selectors take: ``country``, ``club_id``, ``year`` (empty when not given or invalid)."""
        data = self.form.cleaned_data if self.is_valid() else {}
        club = self.fixed_club or data.get("club")
        year = data.get("year")
        return {
            "country": data.get("country") or "",
            "club_id": club.pk if club else None,
            "year": int(year) if year not in (None, "") else None,
        }

    def first_error(self) -> str:
        for field, errors in self.form.errors.items():
            return f"{field}: {errors[0]}"
        return ""


class LadderFilter(RankingFilter):
    """The rating ladders: the filters of the ranking (no year: ratings are lifetime), the system and the
    minimum number of games."""

    system = django_filters.ChoiceFilter(
        label=_("Rating"),
        choices=[("tenhou", _("Tenhou R")), ("openskill", _("OpenSkill"))],
        empty_label=None,
    )
    min_games = CountFilter(label=_("Minimum games"), min_value=0, max_value=100_000)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        del self.filters["year"]

    def options(self) -> dict[str, Any]:
        data = self.form.cleaned_data if self.is_valid() else {}
        options = super().options()
        options.pop("year")
        options["system"] = data.get("system") or "tenhou"
        games = data.get("min_games")
        options["min_games"] = DEFAULT_MIN_GAMES if games is None else int(games)
        return options


DEFAULT_MIN_GAMES = 10
"""Games a player needs to be on a rating ladder unless the visitor asks for another minimum."""


class TournamentFilter(django_filters.FilterSet):
    """The ranked tournaments by club (that held or imported them), country and year."""

    club = django_filters.ModelChoiceFilter(
        label=_("Club"), queryset=Club.objects.order_by("name"), empty_label=_("All")
    )
    country = django_filters.ChoiceFilter(
        label=_("Country"), choices=lambda: list(countries), empty_label=_("All")
    )
    year = django_filters.ChoiceFilter(
        label=_("Year"), choices=year_choices, empty_label=_("All"), field_name="end_date__year"
    )

    class Meta:
        model = Tournament
        fields: list[str] = []

    def first_error(self) -> str:
        for field, errors in self.form.errors.items():
            return f"{field}: {errors[0]}"
        return ""
