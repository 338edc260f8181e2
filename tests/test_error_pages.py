"""The error pages (404, 500, 403, 400 and a refused CSRF check) are Tenbou pages in the visitor's
language with a way back — not Django's bare English text — with ``DEBUG`` off, as in production.

The 500 page is rendered by Django without a request or context processors (``server_error``), so it is
checked to need neither the database nor a request; its language is the one the locale middleware chose
before the error. The pages that fail on purpose live in tests/error_urls.py.
"""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import translation
from django.views.defaults import server_error

from tests.test_i18n import VisibleText, english_only_words, words_of

pytestmark = pytest.mark.urls("tests.error_urls")

TITLES = {
    # status: (English title, French title, Polish title)
    404: ("Page not found", "Page introuvable", "Nie znaleziono strony"),
    500: ("Something went wrong", "Une erreur est survenue", "Coś poszło nie tak"),
    403: ("Access refused", "Accès refusé", "Odmowa dostępu"),
    400: ("Bad request", "Requête invalide", "Nieprawidłowe żądanie"),
}
LANGUAGES = ("en", "fr", "pl")


def visitor(language: str, *, by: str) -> Client:
    """A visitor whose language comes from their browser (Accept-Language) or the language cookie."""
    client = Client(headers={"accept-language": language} if by == "browser" else {})
    client.raise_request_exception = False  # answer as production does: with the 500 page
    if by == "cookie":
        client.cookies["django_language"] = language
    return client


def english_words(html: str, language: str) -> set[str]:
    """Words of the English interface shown on a French or Polish page (none expected)."""
    parser = VisibleText()
    parser.feed(html)
    return words_of(" ".join(parser.parts)) & english_only_words(language)


def check_tenbou_page(response, status: int, language: str) -> str:
    assert settings.DEBUG is False  # as in production: Django's error pages, not its debug pages
    assert response.status_code == status
    html = response.content.decode()
    assert f'<html lang="{language}">' in html
    assert TITLES[status][LANGUAGES.index(language)] in html
    assert f'href="{reverse("home")}"' in html and 'id="error-home"' in html  # the way back
    assert 'class="site-header"' in html and "css/tenbou.css" in html
    assert "<script>" not in html  # the site's Content-Security-Policy allows no inline script
    assert "Content-Security-Policy" in response.headers
    if language != "en":
        assert not english_words(html, language), english_words(html, language)
    return html


@pytest.mark.django_db
@pytest.mark.parametrize("by", ["browser", "cookie"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_missing_page_is_a_tenbou_page_in_the_visitors_language(language, by):
    response = visitor(language, by=by).get("/no-such-page/")
    html = check_tenbou_page(response, 404, language)
    assert 'id="language-select"' in html  # rendered with its request: the whole site header


@pytest.mark.django_db
def test_a_missing_event_answers_the_same_page():
    response = visitor("fr", by="browser").get(reverse("scoring:event", args=["no-such-event"]))
    check_tenbou_page(response, 404, "fr")


@pytest.mark.django_db
@pytest.mark.parametrize("by", ["browser", "cookie"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_server_error_is_a_tenbou_page_in_the_visitors_language(language, by):
    response = visitor(language, by=by).get("/test-errors/fails/")
    check_tenbou_page(response, 500, language)


def test_the_500_page_needs_neither_the_database_nor_a_request():
    """Rendered as Django renders it (no request, no context processors), with the database out of reach
    (this test has no database access: a query would fail it)."""
    request = RequestFactory().get("/")
    with translation.override("pl"):
        response = server_error(request)
    html = response.content.decode()
    assert response.status_code == 500
    assert '<html lang="pl">' in html and TITLES[500][2] in html and 'id="error-home"' in html


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_refused_and_bad_requests_are_tenbou_pages(language):
    client = visitor(language, by="browser")
    check_tenbou_page(client.get("/test-errors/refuses/"), 403, language)
    check_tenbou_page(client.get("/test-errors/suspicious/"), 400, language)


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_form_sent_without_its_csrf_token_is_refused_on_a_tenbou_page(language):
    client = Client(enforce_csrf_checks=True, headers={"accept-language": language})
    response = client.post("/test-errors/form/", {"name": "x"})
    assert response.status_code == 403
    html = response.content.decode()
    assert f'<html lang="{language}">' in html and 'id="error-home"' in html
    title = {"en": "The form could not be sent", "fr": "Le formulaire n'a pas pu être envoyé"}
    if language in title:
        assert title[language] in html
    assert "cookie" in html.lower()  # says what to check (cookies blocked)
    if language != "en":
        assert not english_words(html, language), english_words(html, language)
