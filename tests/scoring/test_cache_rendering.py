"""Rendering less without dropping features: the standings' lean table body is django-tables2's body,
and the static files carry far-future caching (whitenoise's manifest storage)."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from django.templatetags.static import static
from django.test import Client, RequestFactory

from scoring.standings import StandingRow, rank_rows
from scoring.tables import configured_tables

pytestmark = pytest.mark.django_db


def _rows(count: int) -> list[StandingRow]:
    rows = [
        StandingRow(
            player_id=n,
            name=f"Player <{n}> & co" if n % 7 == 0 else f"Player {n}",
            games=n % 5,
            points=(n * 7919) % 60000 - 30000 if n % 5 else 0,
            place_sum=(n % 5) * 2,
            firsts=n % 2,
            seconds=n % 3 % 2,
            score_sum=(n % 5) * 25000,
            best=(n * 31) % 40000 - 20000 if n % 5 else None,
            chombos=n % 2,
            penalties=-(n % 3) * 1000,
        )
        for n in range(1, count + 1)
    ]
    return rank_rows(rows, ["points", "placement", "games"], 1)


def _tbody(html: str) -> list[str]:
    bodies = re.findall(r"<tbody[^>]*>(.*?)</tbody>", html, re.S)
    return [re.sub(r">\s+<", "><", body).strip() for body in bodies]


@pytest.mark.parametrize("query", ["", "?sort=-games", "?sort=name&page=2", "?nr-sort=-points"])
def test_the_lean_body_is_django_tables2s_body(query):
    """Same rows, cells, escaping, attributes and order as the library's own template renders them."""
    request = RequestFactory().get("/events/x/" + query)
    tables = configured_tables(request, _rows(130), paginate=True)
    for table in tables:
        lean = table.as_html(request)
        table.template_name = "django_tables2/table.html"
        library = table.as_html(request)
        assert _tbody(lean) == _tbody(library)
        assert _tbody(lean)[0].count("<tr") == len(table.page.object_list) > 0
        assert "Player <" not in lean  # names escaped, as the library escapes them


def test_an_empty_table_says_so():
    request = RequestFactory().get("/events/x/")
    ranked, _ = configured_tables(request, [], paginate=True)
    assert "No players." in ranked.as_html(request)


def test_static_files_are_served_with_far_future_caching(settings, tmp_path):
    """Production's manifest storage names each file by its content (tenbou.<hash>.css), so whitenoise
    lets browsers keep it for ten years: a page's reload asks for none of its CSS and JS again."""
    settings.DEBUG = False
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }
    call_command("collectstatic", interactive=False, verbosity=0)
    url = static("css/tenbou.css")
    assert re.fullmatch(r"/static/css/tenbou\.[0-9a-f]{12}\.css", url), url
    response = Client().get(url)
    assert response.status_code == 200
    assert "max-age=315360000" in response["Cache-Control"] and "immutable" in response["Cache-Control"]
    plain = Client().get("/static/css/tenbou.css")  # the unhashed name: a short lifetime, not forever
    assert plain.status_code == 200 and "immutable" not in plain["Cache-Control"]
