"""A refused form says so at its top: a summary of its errors (templates/league/_form_errors.html), each
field's error linking to the field, which static/js/error-summary.js brings into view on a phone
(tests/e2e/test_error_summary.py checks that in Chromium). Here, through the test client: the forms the
organisers and the tables fill in at speed — the hand, the final scores, a table's undo, a registration —
show one summary, before the form's fields, whose every link leads to an input of the page."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from league.models import Hanchan
from scoring import services
from tests.test_i18n import VisibleText, english_only_words, words_of
from tests.tournaments.test_links import link_of, make_tournament, table_of
from tournaments import rounds

pytestmark = pytest.mark.django_db

SUMMARY = re.compile(r"<div [^>]*data-error-summary[^>]*>(.*?)</div>", re.S)


def summary_of(html: str) -> tuple[list[str], list[str]]:
    """The page's one error summary: its links' anchors and its items' text."""
    found = SUMMARY.findall(html)
    assert len(found) == 1, f"{len(found)} error summaries"
    items = re.findall(r"<li>(.*?)</li>", found[0], re.S)
    anchors = re.findall(r'<a href="#([^"]+)">', found[0])
    return anchors, [" ".join(re.sub(r"<[^>]+>", " ", item).split()) for item in items]


def check_links(html: str, anchors: list[str]) -> None:
    """Every link of the summary leads to an input (or select, or textarea) of the page."""
    for anchor in anchors:
        assert re.search(rf'<(input|select|textarea)[^>]* id="{re.escape(anchor)}"', html), anchor


def before(html: str, first: str, then: str) -> bool:
    return html.index(first) < html.index(then)


@pytest.fixture
def game(event, players, organiser):
    return services.start_game(event=event, players=players[:4], user=organiser)


@pytest.fixture
def organiser_client(organiser) -> Client:
    client = Client()
    client.force_login(organiser)
    return client


def test_a_refused_hand_is_summed_up_above_the_hand_form(organiser_client, game):
    """A ron without its winner: the refusal at the top, linking to the winner's first radio button."""
    url = reverse("scoring_manage:hand_add", args=[game.pk])
    response = organiser_client.post(url, {"version": game.version, "result": "ron", "han": "2", "fu": "30"})
    assert response.status_code == 422
    html = response.content.decode()
    anchors, texts = summary_of(html)
    assert texts == ["Winner: Pick the winner."]
    assert anchors == ["id_winner_0"]
    check_links(html, anchors)
    form = html[html.index('id="hand-form"') :]
    assert before(form, "data-error-summary", 'name="result"')  # at the form's top, above its fields


def test_an_engine_refusal_names_its_field(organiser_client, game):
    url = reverse("scoring_manage:hand_add", args=[game.pk])
    data = {"version": game.version, "result": "ron", "winner": "0", "loser": "2", "han": "1", "fu": "25"}
    html = organiser_client.post(url, data).content.decode()
    anchors, texts = summary_of(html)
    assert anchors == ["id_fu"]
    assert texts[0].startswith("fu 25 needs at least 2 han")  # names its field already: not "Fu: fu 25 …"
    check_links(html, anchors)


def test_refused_final_scores_are_summed_up_above_the_scores(organiser_client, event, players, organiser):
    game = services.start_game(event=event, players=players[:4], user=organiser, entry_mode="final_scores")
    url = reverse("scoring_manage:final_scores", args=[game.pk])
    data = {"version": game.version, "score_0": "40000", "score_1": "30000", "score_2": "20000"}
    html = organiser_client.post(url, data).content.decode()
    anchors, texts = summary_of(html)
    assert anchors == ["id_score_3", "id_sticks"]
    assert texts == [
        f"{players[3].display_name} (North): This field is required.",
        "Riichi sticks left on the table: This field is required.",
    ]
    check_links(html, anchors)
    assert before(html, "data-error-summary", 'name="score_0"')


def test_a_table_refused_undo_links_to_its_own_reason_field(club, organiser):
    event = make_tournament(club, organiser)
    rounds.open_round(event=event, number=1, user=organiser)
    game = table_of(event)
    link = link_of(game)
    client = Client(REMOTE_ADDR="198.51.100.4")
    nothing = client.post(reverse("tournaments:table_finish", args=[link.token]), {"version": game.version})
    assert summary_of(nothing.content.decode()) == ([], ["A game needs at least one hand to be finished."])
    ron = {"result": "ron", "winner": "0", "loser": "2", "han": "3", "fu": "40", "version": game.version}
    client.post(reverse("tournaments:table_hand", args=[link.token]), ron)
    game.refresh_from_db()
    response = client.post(reverse("tournaments:table_undo", args=[link.token]), {"version": game.version})
    assert response.status_code == 422
    html = response.content.decode()
    anchors, texts = summary_of(html)
    assert anchors == ["id_undo_reason"]  # the page's own id for the undo form's reason
    check_links(html, anchors)


def test_a_refused_registration_links_to_the_field(organiser_client, event):
    url = reverse("league_manage:register_player", args=[event.slug])
    html = organiser_client.post(url, {"display_name": "Ann", "ema_number": "1234"}).content.decode()
    anchors, texts = summary_of(html)
    # The message names its field already: it is not named twice.
    assert texts == ["EMA number 1234 must be 8 digits, leading zeros included (e.g. 04390002)."]
    assert anchors == ["id_ema_number"]
    check_links(html, anchors)


@pytest.mark.parametrize("language", ["fr", "pl"])
def test_the_summary_speaks_the_page_language(organiser, game, language):
    client = Client(headers={"accept-language": language})
    client.force_login(organiser)
    url = reverse("scoring_manage:hand_add", args=[game.pk])
    html = client.post(url, {"version": game.version, "result": "ron"}).content.decode()
    parser = VisibleText()
    parser.feed(SUMMARY.findall(html)[0])
    assert not words_of(" ".join(parser.parts)) & english_only_words(language)


def test_a_page_without_errors_has_no_summary(organiser_client, game):
    html = organiser_client.get(reverse("scoring_manage:game", args=[game.pk])).content.decode()
    assert "data-error-summary" not in html
    assert Hanchan.objects.get(pk=game.pk).hands.count() == 0
