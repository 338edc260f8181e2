"""The lists' filters (django-filter): the query parameters each list takes, in the schema too."""

from __future__ import annotations

import django_filters
from django import forms
from django.db.models import QuerySet
from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema_field

from league.models import Event, Hanchan


class WholeNumber(django_filters.NumberFilter):
    """A whole number (NumberFilter would take 2.5)."""

    field_class = forms.IntegerField


SLUG_PATTERN = r"^[-a-zA-Z0-9_]+$"


@extend_schema_field({"type": "string", "pattern": SLUG_PATTERN})
class SlugFilter(django_filters.CharFilter):
    """A slug, as the schema documents it: anything else (an empty value, a space, a null character) is a
    400 naming the parameter, not a filter that silently matches nothing."""

    field_class = forms.SlugField


class StrictFilterSet(django_filters.FilterSet):
    """A filter set that takes each parameter once and never empty, as the schema documents it: a form
    would read ``?kind=`` as "no filter" and ``?kind=x&kind=league`` as its last value, so a client's
    mistake would pass unnoticed (a 400 names it instead)."""

    def is_valid(self) -> bool:
        valid = super().is_valid()
        getlist = getattr(self.data, "getlist", None)
        for name in self.filters:
            if name not in self.data:
                continue
            values = getlist(name) if getlist is not None else [self.data.get(name)]
            if len(values) > 1:
                message = gettext("%(name)s: give one value, not several.")
            elif values[0] in ("", None) and (
                isinstance(self.filters[name], SlugFilter)
                or not isinstance(self.filters[name], django_filters.CharFilter)
            ):
                # (a free text parameter may be empty: its schema says a string; a slug, a choice or a
                # number may not)
                message = gettext("%(name)s: give a value, or leave the parameter out.")
            else:
                continue
            self.form.add_error(name, message % {"name": name})
        return valid and not self.form.errors


class EventFilter(StrictFilterSet):
    club = SlugFilter(field_name="club__slug", help_text="The club's slug.")
    kind = django_filters.ChoiceFilter(choices=Event.Kind.choices)

    class Meta:
        model = Event
        fields = ["club", "kind"]


class GameFilter(StrictFilterSet):
    round = WholeNumber(field_name="round_number", min_value=1, max_value=999)
    table = WholeNumber(field_name="table_number", min_value=1, max_value=9999)
    status = django_filters.ChoiceFilter(choices=Hanchan.Status.choices)
    player = WholeNumber(method="with_player", min_value=1, help_text="Games in which this player sat.")
    played_from = django_filters.DateFilter(field_name="played_on", lookup_expr="gte")
    played_to = django_filters.DateFilter(field_name="played_on", lookup_expr="lte")

    class Meta:
        model = Hanchan
        fields = ["round", "table", "status", "player", "played_from", "played_to"]

    def with_player(self, queryset: QuerySet[Hanchan], name: str, value: int) -> QuerySet[Hanchan]:
        return queryset.filter(pk__in=queryset.model.objects.filter(seats__player_id=value).values("pk"))
