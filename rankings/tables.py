"""The ranking pages' tables (django-tables2), and the same tables as CSV: one definition of the columns
for the page and the download. CSV headers are in English whatever the page's language (a machine format,
as the standings' CSV)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

import django_tables2 as tables
from django.urls import reverse
from django.utils import translation
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from scoring.templatetags.tenbou import localized

NUM = {"th": {"class": "num"}, "td": {"class": "num"}}
EXPORT_LANGUAGE = "en"


class DecimalColumn(tables.Column):
    """A figure with ``decimals`` decimals, in the page's language (a plain number in the CSV)."""

    def __init__(self, *args: Any, decimals: int = 1, **kwargs: Any) -> None:
        kwargs.setdefault("attrs", NUM)
        super().__init__(*args, **kwargs)
        self.decimals = decimals

    def rounded(self, value: Any) -> Decimal:
        """Half up, as the EMA publishes, after dropping float noise (375.07499999999993 is 375.075)."""
        exact = Decimal(repr(round(float(value), 9)))
        return exact.quantize(Decimal(1).scaleb(-self.decimals), rounding=ROUND_HALF_UP)

    def render(self, value: Any) -> str:
        return localized(self.rounded(value), self.decimals)

    def value(self, value: Any) -> Any:
        return self.rounded(value)


class PlayerColumn(tables.Column):
    """The player's name, linked to their ranking page (``player_id`` on the record)."""

    def render(self, value: Any, record: Any) -> str:
        return format_html('<a href="{}">{}</a>', reverse("rankings:player", args=[record.player_id]), value)

    def value(self, value: Any) -> str:
        return str(value)


class ClubColumn(tables.Column):
    """The player's club, linked to the club's rankings (``club_slug`` on the record)."""

    def render(self, value: Any, record: Any) -> str:
        if not getattr(record, "club_slug", ""):
            return str(value)
        return format_html('<a href="{}">{}</a>', reverse("rankings:club", args=[record.club_slug]), value)

    def value(self, value: Any) -> str:
        return str(value)


class Base(tables.Table):
    class Meta:
        orderable = False
        attrs = {"class": "table"}  # noqa: RUF012
        template_name = "django_tables2/table.html"


class EmaRankingTable(Base):
    position = tables.Column(verbose_name="#", attrs=NUM)
    name = PlayerColumn(verbose_name=_("Player"))
    club = ClubColumn(verbose_name=_("Club"))
    country = tables.Column(verbose_name=_("Country"))
    ema_number = tables.Column(verbose_name=_("EMA number"))
    ranking = DecimalColumn(verbose_name=_("Ranking"), decimals=2)
    part_a = DecimalColumn(verbose_name=_("Part A"), decimals=2)
    part_b = DecimalColumn(verbose_name=_("Part B"), decimals=2)
    results = tables.Column(verbose_name=_("Tournaments"), attrs=NUM)


class LadderTable(Base):
    position = tables.Column(verbose_name="#", attrs=NUM)
    name = PlayerColumn(verbose_name=_("Player"))
    club = tables.Column(verbose_name=_("Club"))
    country = tables.Column(verbose_name=_("Country"))
    rating = DecimalColumn(verbose_name=_("Rating"), decimals=1)
    games = tables.Column(verbose_name=_("Games"), attrs=NUM)


class SeasonTable(Base):
    position = tables.Column(verbose_name="#", attrs=NUM)
    name = PlayerColumn(verbose_name=_("Player"))
    points = DecimalColumn(verbose_name=_("Points"), decimals=1)
    games = tables.Column(verbose_name=_("Games"), attrs=NUM)
    average_place = DecimalColumn(verbose_name=_("Average place"), decimals=2)


class TournamentTable(Base):
    end_date = tables.DateColumn(verbose_name=_("Date"), format="Y-m-d")
    name = tables.Column(verbose_name=_("Tournament"))
    club = tables.Column(verbose_name=_("Club"), accessor="club__name", default="")
    country = tables.Column(verbose_name=_("Country"))
    days = tables.Column(verbose_name=_("Days"), attrs=NUM)
    players = tables.Column(verbose_name=_("Players"), attrs=NUM)
    countries = tables.Column(verbose_name=_("Countries"), attrs=NUM)
    weight = DecimalColumn(verbose_name=_("MERS weight"), decimals=1)
    mers = tables.BooleanColumn(verbose_name=_("MERS"))
    source = tables.Column(verbose_name=_("Source"), accessor="imported", empty_values=())

    def render_country(self, value: Any) -> str:
        return str(value.code if hasattr(value, "code") else value or "")

    def value_country(self, value: Any) -> str:
        return self.render_country(value)

    def render_source(self, value: bool) -> str:
        return str(_("imported") if value else _("held here"))

    def value_source(self, value: bool) -> str:
        return "imported" if value else "here"


class PlayerTournamentTable(Base):
    """A player's ranked tournaments: what each result weighs in the ranking today."""

    date = tables.DateColumn(verbose_name=_("Date"), accessor="tournament__end_date", format="Y-m-d")
    tournament = tables.Column(verbose_name=_("Tournament"), accessor="tournament__name")
    place = tables.Column(verbose_name=_("Place"), attrs=NUM)
    players = tables.Column(verbose_name=_("Players"), accessor="tournament__players", attrs=NUM)
    base_rank = tables.Column(verbose_name=_("Base rank"), attrs=NUM)
    tournament_weight = DecimalColumn(
        verbose_name=_("MERS weight"), accessor="tournament__weight", decimals=1
    )
    age_factor = DecimalColumn(verbose_name=_("Age factor"), decimals=1)
    weight = DecimalColumn(verbose_name=_("Weight counted"), decimals=2)

    def render_tournament(self, value: Any, record: Any) -> str:
        event = record.tournament.event
        if event is None:
            return str(value)
        return format_html('<a href="{}">{}</a>', event.get_absolute_url(), value)

    def value_tournament(self, value: Any) -> str:
        return str(value)


def csv_rows(table: tables.Table) -> Iterable[Sequence[Any]]:
    """The table's header and rows as CSV cells, the header in English."""
    with translation.override(EXPORT_LANGUAGE):
        rows = list(table.as_values())
    return rows
