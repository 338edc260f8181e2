"""The players' languages (English, French, Polish): the catalogues, the switcher, the page's language and
number formats — and the machine formats (CSV, XLSX, JSON, commands) that never change with them.

The catalogues are checked as scripts/messages.sh makes them: on a copy of the tree, ``makemessages`` must
find no string that locale/*/django.po lack; every entry is translated and none is fuzzy; the committed
.mo files hold exactly the .po files' translations (running Tenbou needs no gettext). Needs GNU gettext
(xgettext, msgmerge, msgfmt), which scripts/test.sh installs.
"""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import sys
import zipfile
from decimal import Decimal
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from scoring.templatetags.tenbou import plain_thousands, points, signed, thousands
from scoring.templatetags.tenbou_stats import decimal, ordinal, percent, signed_decimal
from tests.pages import DEMO_USER, NOT_PAGES, PAGES, build_demo, url_names

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "locale"
TRANSLATED = ("fr", "pl")
NBSP = "\xa0"
# What scripts/messages.sh reads: the code, the templates and the script itself.
SOURCES = (
    "manage.py",
    "accounts",
    "api",
    "background",
    "config",
    "league",
    "rankings",
    "notifications",
    "registration",
    "scoring",
    "tournaments",
    "templates",
    "locale",
    "scripts",
)


def catalog_path(language: str, kind: str = "po") -> Path:
    return LOCALE / language / "LC_MESSAGES" / f"django.{kind}"


def read_catalog(path: Path):  # type: ignore[no-untyped-def]
    with path.open("rb") as handle:
        return read_mo(handle) if path.suffix == ".mo" else read_po(handle)


def message_keys(catalog) -> set[tuple[str | None, str | tuple[str, ...]]]:  # type: ignore[no-untyped-def]
    """(context, msgid or (msgid, msgid_plural)) of every entry but the header."""
    return {(m.context, m.id) for m in catalog if m.id}


# -- the catalogues -----------------------------------------------------------------------------------


def test_settings_offer_english_french_and_polish_without_url_prefixes():
    assert [code for code, _ in settings.LANGUAGES] == ["en", "fr", "pl"]
    assert "django.middleware.locale.LocaleMiddleware" in settings.MIDDLEWARE
    with translation.override("fr"):
        french = reverse("scoring:event", args=["spring"])
    assert french == reverse("scoring:event", args=["spring"]) == "/events/spring/"  # printed on slips


def test_makemessages_finds_no_string_the_catalogues_lack(tmp_path):
    """scripts/messages.sh on a copy of the tree: every marked string is already in both .po files."""
    assert shutil.which("xgettext") and shutil.which("msgmerge"), (
        "GNU gettext is missing: apt-get install gettext"
    )
    copy = tmp_path / "tree"
    for name in SOURCES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, copy / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            copy.mkdir(exist_ok=True)
            shutil.copy2(source, copy / name)
    env = {**os.environ, "PYTHON": sys.executable, "PYTHONPATH": str(copy)}
    done = subprocess.run(
        ["bash", str(copy / "scripts" / "messages.sh")], cwd=copy, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    for language in TRANSLATED:
        committed = message_keys(read_catalog(catalog_path(language)))
        found = message_keys(read_catalog(copy / "locale" / language / "LC_MESSAGES" / "django.po"))
        new = sorted(str(key) for key in found - committed)
        assert not new, (
            f"{language}: {len(new)} marked strings are not in locale/{language}: run scripts/messages.sh, "
            f"translate them and run scripts/messages.sh compile. First ones: {new[:10]}"
        )


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_entry_is_translated_and_none_is_fuzzy(language):
    catalog = read_catalog(catalog_path(language))
    assert not catalog.fuzzy, "the header is marked fuzzy"
    untranslated = [m.id for m in catalog if m.id and not (all(m.string) if m.pluralizable else m.string)]
    fuzzy = [m.id for m in catalog if m.id and m.fuzzy]
    assert not untranslated, f"{len(untranslated)} untranslated, e.g. {untranslated[:5]}"
    assert not fuzzy, f"{len(fuzzy)} fuzzy, e.g. {fuzzy[:5]}"


@pytest.mark.parametrize("language", TRANSLATED)
def test_placeholders_and_plurals_are_valid(language):
    """msgfmt --check: every %(name)s / {name} of a msgid is in its translation (a missing one would be a
    KeyError, i.e. a server error, in that language only) and the plural forms are well formed."""
    assert shutil.which("msgfmt"), "GNU gettext is missing: apt-get install gettext"
    done = subprocess.run(
        ["msgfmt", "--check", "-o", os.devnull, str(catalog_path(language))], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("language", TRANSLATED)
def test_compiled_catalogues_match_their_sources(language):
    """The committed .mo holds exactly the .po's translations: run scripts/messages.sh compile after any
    change to a .po file."""

    def entries(catalog) -> dict:  # type: ignore[no-untyped-def]
        """(context, id) → translation of the translated, non-fuzzy entries (what msgfmt compiles)."""
        tuples = lambda x: tuple(x) if isinstance(x, list | tuple) else x  # noqa: E731
        return {
            (m.context.decode() if isinstance(m.context, bytes) else m.context, tuples(m.id)): tuples(
                m.string
            )
            for m in catalog
            if m.id and not m.fuzzy and (all(m.string) if isinstance(m.string, list | tuple) else m.string)
        }

    source = entries(read_catalog(catalog_path(language)))
    assert entries(read_catalog(catalog_path(language, "mo"))) == source


@pytest.mark.parametrize(
    ("language", "standings", "dealer", "five_sticks"),
    [("fr", "Classement", "donneur", "5 bâtons"), ("pl", "Klasyfikacja", "oya", "5 patyczków")],
)
def test_translations_are_used(language, standings, dealer, five_sticks):
    """Django finds the project's catalogues (LOCALE_PATHS), with each community's riichi terms."""
    with translation.override(language):
        assert translation.gettext("Standings") == standings
        assert translation.gettext("dealer") == dealer
        sticks = translation.ngettext("%(counter)s stick", "%(counter)s sticks", 5) % {"counter": 5}
        assert sticks == five_sticks


# -- the switcher and the page's language --------------------------------------------------------------


@pytest.mark.django_db
def test_switcher_sets_the_language_and_it_is_remembered():
    client = Client()
    page = client.get("/events/?page=1").content.decode()
    assert '<html lang="en">' in page
    # The switcher: a form posting to set_language, its select labelled, each language named in itself,
    # the current page as where to come back.
    assert f'action="{reverse("set_language")}"' in page
    assert re.search(r'<label for="language-select"[^>]*>Language</label>', page)
    for code, name in (("en", "English"), ("fr", "Français"), ("pl", "Polski")):
        assert re.search(rf'<option value="{code}" lang="{code}"[^>]*>{name}</option>', page)
    assert 'name="next" value="/events/?page=1"' in page

    response = client.post(reverse("set_language"), {"language": "fr", "next": "/events/?page=1"})
    assert response.status_code == 302 and response["Location"] == "/events/?page=1"
    cookie = response.cookies[settings.LANGUAGE_COOKIE_NAME]
    assert cookie.value == "fr" and int(cookie["max-age"]) >= 365 * 24 * 3600  # kept after the browser closes

    french = client.get("/events/")  # the cookie: every later page is French
    text = french.content.decode()
    assert french["Content-Language"] == "fr"
    assert '<html lang="fr">' in text and "Événements" in text and "Changer de langue" in text
    assert re.search(r'<option value="fr" lang="fr" selected>Français</option>', text)


@pytest.mark.django_db
def test_switcher_refuses_other_languages_and_other_sites():
    client = Client()
    client.post(reverse("set_language"), {"language": "de", "next": "/events/"})
    assert '<html lang="en">' in client.get("/events/").content.decode()  # German is not offered
    response = client.post(reverse("set_language"), {"language": "pl", "next": "https://evil.example/"})
    assert response.status_code == 302 and response["Location"] == "/"


@pytest.mark.django_db
def test_the_browsers_language_is_the_default():
    page = Client(headers={"accept-language": "pl-PL,pl;q=0.9,en;q=0.5"}).get("/")
    assert '<html lang="pl">' in page.content.decode()
    page = Client(headers={"accept-language": "de-DE,de;q=0.9"}).get("/")
    assert '<html lang="en">' in page.content.decode()


def test_a_page_in_one_language_is_never_served_for_another(event, players):
    """Cached pages and their ETags follow the language: after an English visit, a French reader (even one
    whose browser sends the English page's ETag back) gets the French page, never a 304 or a stale copy."""
    url = reverse("scoring:event", args=[event.slug])
    english = Client(headers={"accept-language": "en"}).get(url)
    assert english.status_code == 200 and '<html lang="en">' in english.content.decode()
    revalidate = {"if-none-match": english["ETag"]} if english.has_header("ETag") else {}
    french = Client(headers={"accept-language": "fr", **revalidate}).get(url)
    assert french.status_code == 200
    assert '<html lang="fr">' in french.content.decode() and "Classement" in french.content.decode()


def test_every_base_template_sets_lang_from_the_active_language():
    """Any template that opens an <html> element (the site's base, a print or wall-screen base) sets
    ``lang`` from the active language."""
    templates = [p for p in (ROOT / "templates").rglob("*.html") if "<html" in p.read_text(encoding="utf-8")]
    assert templates
    for path in templates:
        html_tags = re.findall(r"<html[^>]*>", path.read_text(encoding="utf-8"))
        assert all('lang="{{ LANGUAGE_CODE' in tag for tag in html_tags), path


def test_every_url_is_a_page_or_excused():
    """tests/pages.py lists every page (checked by axe and by the language tests below) or says why a URL
    is none: a new page must join the list."""
    pages = {page.name for page in PAGES}
    assert not pages & set(NOT_PAGES), "a URL is both a page and excused"
    missing = url_names() - pages - set(NOT_PAGES)
    assert not missing, f"add these to PAGES in tests/pages.py (or to NOT_PAGES, with the reason): {missing}"
    gone = (pages | set(NOT_PAGES)) - url_names()
    assert not gone, f"tests/pages.py names URLs that are gone: {sorted(gone)}"


class Attributes(HTMLParser):
    """The values scripts and forms read: data-* attributes and input values, in document order."""

    def __init__(self) -> None:
        super().__init__()
        self.values: list[tuple[str, str, str]] = []
        self.lang: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if tag == "html" and name == "lang":
                self.lang = value
                continue
            read_by_scripts = name.startswith("data-") and not name.startswith(("data-text", "data-scroll"))
            if read_by_scripts or (tag in ("input", "option") and name == "value"):
                self.values.append((tag, name, value or ""))


def parse(html: str) -> Attributes:
    parser = Attributes()
    parser.feed(html)
    return parser


WITHOUT_SWITCHER = {"tournaments:wall"}


@pytest.mark.django_db
def test_pages_speak_the_language_but_keep_machine_values():
    """Every page in French and Polish: ``lang`` says so, and the values scripts and forms read (data-*
    attributes, input and option values) are exactly the English page's — never 1 234 nor 1,5."""
    demo = build_demo()
    organiser = get_user_model().objects.get(username=DEMO_USER)
    for page in PAGES:
        url = reverse(page.name, args=page.args(demo))
        responses = {}
        for language in ("en", *TRANSLATED):
            visitor = Client(headers={"accept-language": language})
            if page.organiser:
                visitor.force_login(organiser)
            response = visitor.get(url)
            assert response.status_code == 200, (url, language, response.status_code)
            html = response.content.decode()
            responses[language] = parse(html)
            assert responses[language].lang == language, url
            # Every page a person works on offers the switcher (the projector's wall screen has no one at it).
            assert page.name in WITHOUT_SWITCHER or 'id="language-select"' in html, (url, "no switcher")
        numeric = re.compile(r"^[+\-]?\d[\d.]*$")
        english = [v for v in responses["en"].values if numeric.match(v[2])]
        for language in TRANSLATED:
            translated = [v for v in responses[language].values if numeric.match(v[2])]
            assert translated == english, (url, language)


# -- numbers on pages, and in machine formats -----------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "signed_text", "thousands_text", "points_text", "percent_text", "ordinals"),
    [
        ("en", "+7700", "−1234.5", "25000", "41.7 %", ["1st", "2nd", "4th"]),
        ("fr", f"+7{NBSP}700", f"−1{NBSP}234,5", f"25{NBSP}000", "41,7 %", ["1er", "2e", "4e"]),
        ("pl", f"+7{NBSP}700", f"−1{NBSP}234,5", f"25{NBSP}000", "41,7 %", ["1.", "2.", "4."]),
    ],
)
def test_display_filters_follow_the_language(
    language, signed_text, thousands_text, points_text, percent_text, ordinals
):
    with translation.override(language):
        assert signed(7700) == signed_text
        assert thousands(-1_234_500) == thousands_text
        assert points(25000) == points_text
        assert percent(0.4167) == percent_text
        assert [ordinal(1), ordinal(2), ordinal(4)] == ordinals
        assert plain_thousands(-1_234_500) == "−1234.5"  # the machine form never changes


@given(value=st.integers(-(10**9), 10**9), language=st.sampled_from(("en", "fr", "pl")))
def test_display_is_the_machine_figure_written_in_the_language(value, language):
    """Whatever the points, the page's figure is the export's figure with the language's decimal
    separator and digit groups — nothing else (same rounding, same sign)."""
    with translation.override(language):
        shown = thousands(value)
        assert shown.replace(NBSP, "").replace(",", ".") == plain_thousands(value)
        assert signed(value).replace(NBSP, "").replace("−", "-").lstrip("+") == str(value)
        assert decimal(value / 7).replace(",", ".").replace("−", "-") == f"{value / 7:.2f}"
        assert signed_decimal(value / 7).replace(",", ".").replace("−", "-").lstrip("+") == (
            f"{abs(value / 7):.2f}" if f"{abs(value / 7):.2f}" == "0.00" else f"{value / 7:.2f}"
        )
        if language == "en":
            assert shown == plain_thousands(value)
        else:
            decimals = shown.rsplit(",", 1)
            assert len(decimals) == 2 and len(decimals[1]) == 1  # the decimal comma


def xlsx_parts(data: bytes) -> dict[str, bytes]:
    """An XLSX's parts, but for the workbook's creation time (docProps/core.xml), which openpyxl stamps."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name) for name in archive.namelist() if name != "docProps/core.xml"}


@pytest.mark.django_db
def test_exports_are_the_same_bytes_in_every_language():
    """The standings CSV, the EMA report (CSV and XLSX) and the commands' CSV and JSON are machine formats:
    a French or Polish visitor or a server set to those languages gets the very bytes an English one
    does (decimal points, no digit groups, English headers)."""
    demo = build_demo()
    organiser = get_user_model().objects.get(username=DEMO_USER)
    league, tournament = demo.league.slug, demo.tournament.slug
    downloads = {
        "standings csv": reverse("scoring:standings_csv", args=[league]),
        "standings csv sorted": reverse("scoring:standings_csv", args=[league]) + "?sort=-average_place",
        "tournament standings csv": reverse("scoring:standings_csv", args=[tournament]),
        "ema csv": reverse("tournaments_manage:ema_download", args=[tournament, "csv"]),
        "ema xlsx": reverse("tournaments_manage:ema_download", args=[tournament, "xlsx"]),
        "team standings csv": reverse("tournaments:team_standings_csv", args=[tournament]),
        "stage standings csv": reverse("tournaments:stage_standings_csv", args=[tournament, 1]),
    }
    commands = {
        "command standings json": ("standings", "--event", league),
        "command standings csv": ("standings", "--event", league, "--format", "csv"),
        "command export_games": ("export_games", "--event", league),
        "command export_ema": ("export_ema", "--event", tournament),
    }

    def outputs(language: str) -> dict[str, object]:
        got: dict[str, object] = {}
        client = Client(headers={"accept-language": language})
        client.force_login(organiser)
        for name, url in downloads.items():
            response = client.get(url)
            assert response.status_code == 200, name
            got[name] = xlsx_parts(response.content) if name.endswith("xlsx") else response.content
        with translation.override(language):
            for name, args in commands.items():
                out = io.StringIO()
                call_command(*args, stdout=out)
                got[name] = out.getvalue()
        return got

    english = outputs("en")
    # The exports hold decimals (average places, points in thousands): a decimal comma would show.
    assert re.search(rb"\d\.\d", english["standings csv"])  # type: ignore[arg-type]
    for language in TRANSLATED:
        assert outputs(language) == english, language


@pytest.mark.django_db
def test_standings_page_writes_figures_in_the_language():
    build_demo()
    english = Client(headers={"accept-language": "en"}).get("/events/demo-league/").content.decode()
    french = Client(headers={"accept-language": "fr"}).get("/events/demo-league/").content.decode()
    assert re.search(r">[+−]\d+\.\d<", english) and not re.search(r">[+−]\d+,\d<", english)
    assert re.search(r">[+−][\d\xa0]+,\d<", french) and not re.search(r">[+−]\d+\.\d<", french)


def test_localized_rounding_matches_pythons():
    """Django's number_format cuts a float's digits; the filters round like f"{x:.2f}" (2.345 → 2.35)."""
    from scoring.templatetags.tenbou import localized

    with translation.override("fr"):
        assert localized(2.345, 2) == "2,35" and localized(2.999, 2) == "3,00"
        assert localized(Decimal("1234.5"), 1) == "1234,5"  # no digit groups: counts and means


# -- no English word on a French or Polish page ---------------------------------------------------------

WORD = re.compile(r"[^\W\d_]+")
PLACEHOLDER = re.compile(r"%\(\w+\)[sdif]|\{\w+\}|%[sd]")
# English words a page could show untranslated without their being in any msgid: function words that
# an unmarked sentence cannot do without. Each is checked only where the language's catalogue never uses
# the same word itself (Polish "to", "no" and French "a" are words of those languages).
FUNCTION_WORDS = {
    "the", "and", "of", "with", "for", "from", "this", "that", "is", "are", "was", "to", "your", "you",
    "by", "at", "or", "not", "no", "yes", "all", "none", "its", "their", "has", "have", "be", "been",
    "will", "can", "cannot", "there", "here", "when", "which", "who", "what", "than", "then", "only",
}  # fmt: skip
# Japanese terms that the English interface uses and a translation may keep as they are without its
# catalogue happening to use them (the others — riichi, ron, tsumo, uma … — are in the translations).
JAPANESE_TERMS = {"sanbaiman", "haneman", "baiman", "kazoe", "atamahane", "tonpuusen", "hanchan", "kiriage"}
# Machine text a page shows verbatim in every language: command names and values in <code>, <kbd>, <samp>.
VERBATIM_TAGS = {"code", "kbd", "samp", "script", "style"}
SHOWN_ATTRIBUTES = {"title", "placeholder", "aria-label", "alt"}


class VisibleText(HTMLParser):
    """The words a reader meets: text outside scripts and machine text, and the attributes read aloud or
    shown (titles, placeholders, labels, alternative texts, the values of buttons)."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in VERBATIM_TAGS:
            self.skipping += 1
        values = dict(attrs)
        for name in SHOWN_ATTRIBUTES & values.keys():
            self.parts.append(values[name] or "")
        if tag == "input" and values.get("type") in ("submit", "button"):
            self.parts.append(values.get("value") or "")

    def handle_endtag(self, tag: str) -> None:
        if tag in VERBATIM_TAGS and self.skipping:
            self.skipping -= 1

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.parts.append(data)


def words_of(text: str) -> set[str]:
    return {word.lower() for word in WORD.findall(PLACEHOLDER.sub(" ", text)) if len(word) > 1}


def english_only_words(language: str) -> set[str]:
    """Words of the English interface (the msgids, and the function words) that the language's own
    translations never use: meeting one on a page of that language means an English string."""
    english: set[str] = set(FUNCTION_WORDS)
    used: set[str] = set()
    for message in read_catalog(catalog_path(language)):
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in ids:
            english |= words_of(text)
        for text in strings:
            used |= words_of(text)
    return english - used - JAPANESE_TERMS


def data_words(language: str) -> set[str]:
    """Words of what people typed (names of players, clubs and events, reasons …) and the names of the
    countries (django-countries translates them): data, not the interface's words."""
    from django.apps import apps
    from django.db import models
    from django_countries import countries

    words: set[str] = set()
    with translation.override(language):  # the country list, as the page names the countries
        for country in countries:
            words |= words_of(str(country.name))
    for model in apps.get_models():
        if model._meta.app_label not in ("league", "scoring", "tournaments"):
            continue
        text = (models.CharField, models.TextField)
        fields = [f.name for f in model._meta.concrete_fields if isinstance(f, text)]
        for row in model.objects.values_list(*fields) if fields else ():
            for value in row:
                words |= words_of(value or "")
    return words


@pytest.mark.django_db
@pytest.mark.parametrize("language", TRANSLATED)
def test_translated_pages_show_no_english_word(language):
    """Every page in French and in Polish: no word of the English interface that the translation does not
    use itself — an unmarked string, or a marked one shown without its translation, fails here with its
    page and its words."""
    demo = build_demo()
    organiser = get_user_model().objects.get(username=DEMO_USER)
    english = english_only_words(language) - data_words(language)
    found: dict[str, list[str]] = {}
    for page in PAGES:
        url = reverse(page.name, args=page.args(demo))
        visitor = Client(headers={"accept-language": language})
        if page.organiser:
            visitor.force_login(organiser)
        response = visitor.get(url)
        assert response.status_code == 200, (url, response.status_code)
        parser = VisibleText()
        parser.feed(response.content.decode())
        lines = [" ".join(part.split()) for part in parser.parts if words_of(part) & english]
        if lines:
            found[url] = [f"{sorted(words_of(line) & english)}: {line[:120]}" for line in lines]
    assert not found, (
        "English on the "
        + language
        + " pages:\n"
        + "\n".join(f"{url}\n    " + "\n    ".join(lines) for url, lines in found.items())
    )
