"""The standings filters (django-filter): a date range on when games were played (``played_on``) and the
games needed to be ranked. The page, its CSV download and ``manage.py standings`` all read their options
through :class:`StandingsFilter`, so the same input is accepted, refused or defaulted the same way
everywhere."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

import django_filters
from django import forms
from django.db.models import QuerySet
from django.utils.translation import gettext, gettext_lazy, pgettext_lazy

from league.models import Event

from .models import SeatResult
from .standings import finished_results


class StandingsForm(forms.Form):
    """Cross-field check: a range that ends before it starts is a mistake, not an empty table."""

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        start, end = data.get("date_from"), data.get("date_to")
        if start and end and end < start:
            self.add_error("date_to", gettext("The end date is before the start date."))
        return data


class CountFilter(django_filters.NumberFilter):
    """A whole number of games (NumberFilter would accept 2.5)."""

    field_class = forms.IntegerField


class StandingsFilter(django_filters.FilterSet):
    """Filters over the event's finished seat results.

    The dates filter the rows (``.qs`` is what the standings sum); ``min_games`` filters nothing — it
    decides who is ranked — so its method leaves the queryset alone. Missing ``min_games`` means the
    event's own setting, filled in up front so that the form shows it and the CSV link repeats it.
    """

    date_from = django_filters.DateFilter(
        field_name="hanchan__played_on",
        lookup_expr="gte",
        label=pgettext_lazy("date range", "From"),
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),  # ISO whatever the language
    )
    date_to = django_filters.DateFilter(
        field_name="hanchan__played_on",
        lookup_expr="lte",
        label=pgettext_lazy("date range", "To"),
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),  # ISO whatever the language
    )
    min_games = CountFilter(
        label=gettext_lazy("Minimum games"),
        method="rank_only",
        min_value=0,
        max_value=100_000,
        widget=forms.NumberInput(attrs={"min": 0, "inputmode": "numeric"}),
    )

    up_to_round = CountFilter(
        field_name="hanchan__round_number",
        lookup_expr="lte",
        label=gettext_lazy("After round"),
        min_value=1,
        max_value=99,
        widget=forms.NumberInput(attrs={"min": 1, "inputmode": "numeric"}),
    )

    class Meta:
        model = SeatResult
        fields: list[str] = []
        form = StandingsForm

    def __init__(self, data: Mapping[str, Any] | None, *, event: Event, **kwargs: Any) -> None:
        keys = ("date_from", "date_to", "min_games", "up_to_round")
        values = {key: data.get(key) for key in keys} if data else {}
        values = {key: value for key, value in values.items() if value not in (None, "")}
        values.setdefault("min_games", str(event.min_games))
        self.event = event
        super().__init__(values, queryset=finished_results(event), **kwargs)
        if event.kind != Event.Kind.TOURNAMENT:
            self.filters.pop("up_to_round")  # rounds are a tournament notion

    def rank_only(self, queryset: QuerySet[SeatResult], name: str, value: int) -> QuerySet[SeatResult]:
        return queryset

    def options(self) -> dict[str, date | int | None]:
        """Keyword arguments for :func:`scoring.standings.standings`; the defaults if the input is invalid."""
        if not self.is_valid():
            return {
                "date_from": None,
                "date_to": None,
                "min_games": self.event.min_games,
                "up_to_round": None,
            }
        data = self.form.cleaned_data
        return {
            "date_from": data.get("date_from"),
            "date_to": data.get("date_to"),
            "min_games": data["min_games"] if data.get("min_games") is not None else self.event.min_games,
            "up_to_round": data.get("up_to_round"),
        }

    def first_error(self) -> str | None:
        """The first problem as one line naming the field (for the command's standard error)."""
        if self.is_valid():
            return None
        for field, errors in self.form.errors.items():
            label = field.replace("_", "-") if field != "__all__" else "filters"
            return f"{label}: {errors[0]}"
        return None
