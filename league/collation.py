"""Sorting people's names the way a reader expects: "Léa" between "Lea" and "Lukas", not after "Zoé".

The database sorts by code point (or by whatever collation the server happens to have), which puts every
accented capital after "Z". Lists of players are bounded (one event's or one club's players), so they are
sorted in Python with one key, the same on SQLite and PostgreSQL and in every page and form.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from django.db.models import Case, IntegerField, QuerySet, Value, When

T = TypeVar("T")


def name_key(text: str) -> str:
    """The sort key of a name: accents and case ignored ("Émile" sorts with "emile").

    NFKD splits "é" into "e" and a combining accent, which is dropped; casefold then folds case
    (and "ß" to "ss"). Names that differ only by accent get the same key: sort by
    :func:`name_sort_key` to keep them in a stable, reproducible order.
    """
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return stripped.casefold()


def name_sort_key(text: str) -> tuple[str, str]:
    """``name_key`` then the casefolded name itself, so "Emile" and "Émile" always come in one order."""
    return name_key(text), text.casefold()


def sorted_by_name(items: Iterable[T], name: Callable[[T], str] = str) -> list[T]:
    """``items`` sorted by the name ``name(item)`` gives (by default ``str(item)``)."""
    return sorted(items, key=lambda item: name_sort_key(name(item)))


def order_by_name(queryset: QuerySet[Any], field: str = "display_name") -> QuerySet[Any]:
    """The same queryset, ordered by ``name_key`` of ``field`` (still a queryset, for form choices).

    The names are read once (a bounded list: one event's players), sorted in Python, and the order is
    given back to the database as ``CASE pk WHEN … THEN position``, so a ``ModelChoiceField`` lists its
    options in that order and still validates against the queryset.
    """
    rows = list(queryset.order_by().values_list("pk", field))
    ordered = sorted(rows, key=lambda row: (name_sort_key(row[1] or ""), row[0]))
    if not ordered:
        return queryset
    position = Case(
        *[When(pk=pk, then=Value(index)) for index, (pk, _) in enumerate(ordered)],
        default=Value(len(ordered)),
        output_field=IntegerField(),
    )
    return queryset.order_by(position, "pk")
