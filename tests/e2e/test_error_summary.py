"""A refused save on a phone (390 × 844) shows its error without scrolling: the summary at the top of the
refused form (templates/league/_form_errors.html) is brought into the first screen and focused by
static/js/error-summary.js — on the organiser's game page, where the scoreboard comes first, and on a
table's own page, where the clock, the status and the scoreboard do. Its link leads to the field.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.urls import reverse

from league.models import Club, Player, Registration
from scoring import services
from scoring.engine import Hand, Win
from tests.conftest import make_event
from tests.e2e.conftest import ARTIFACTS, login
from tests.tournaments.test_links import link_of, make_tournament, table_of
from tournaments import rounds

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "organiser-pass-123"
HEIGHT = 844
# Names long enough to wrap on the scoreboard, as real ones do: the form starts lower still.
NAMES = ["Maximiliane Wilhelmina", "Jean-Baptiste Delacroix", "Léa Marchand", "Lukas Schneider"]

IN_VIEW = """(selector) => {
  const box = document.querySelector(selector).getBoundingClientRect();
  return box.height > 0 && box.top >= -1 && box.bottom <= window.innerHeight + 1;  // sub-pixel slack
}"""


@pytest.fixture
def organiser():
    user = get_user_model().objects.create_user("olga", password=PASSWORD)
    club = Club.objects.create(name="Riichi Lyon", slug="riichi-lyon")
    club.organisers.add(user)
    return user, club


def refuse_hand(page) -> None:
    """Save a ron of 1 han 25 fu (no such hand): the engine refuses it, on the fu field."""
    page.check("#hand-form input[name=result][value=ron]")
    page.check("#hand-form input[name=winner][value='0']")
    page.check("#hand-form input[name=loser][value='2']")
    page.select_option("#hand-form select[name=han]", "1")
    page.select_option("#hand-form select[name=fu]", "25")
    with page.expect_navigation():
        page.click("#save-hand")


def check_summary_in_first_screen(page, shot: str) -> None:
    page.wait_for_load_state()
    page.screenshot(path=str(ARTIFACTS / shot))
    summary = "#hand-form [data-error-summary]"
    assert page.locator(summary).count() == 1
    assert page.evaluate(IN_VIEW, summary), page.locator(summary).bounding_box()
    assert page.evaluate("() => document.activeElement.matches('[data-error-summary]')")
    assert "fu 25 needs at least 2 han" in page.locator(summary).inner_text()
    # Its link leads to the field, brought into view too.
    page.click(f"{summary} a[href='#id_fu']")
    assert page.evaluate(IN_VIEW, "#id_fu"), page.locator("#id_fu").bounding_box()


def test_a_refused_hand_shows_its_error_in_the_first_screen_of_a_phone(page, organiser):
    user, club = organiser
    event = make_event(club, slug="spring-league")
    players = [Player.objects.create(display_name=name, club=club) for name in NAMES]
    for player in players:
        Registration.objects.create(event=event, player=player)
    game = services.start_game(event=event, players=players, user=user)
    services.record_hand(hanchan=game, hand=Hand.ron(2, Win(0, 3, 40), riichi=(0,)), user=user)
    login(page, "olga", PASSWORD)
    page.goto(reverse("scoring_manage:game", args=[game.pk]))
    refuse_hand(page)
    check_summary_in_first_screen(page, "refused-hand-organiser.png")
    assert game.hands.count() == 1


def test_a_table_refused_hand_shows_its_error_in_the_first_screen(page, organiser):
    user, club = organiser
    cache.clear()  # the table pages' rate limits
    event = make_tournament(club, user, table_entry=True)
    rounds.open_round(event=event, number=1, user=user)
    game = table_of(event)
    page.goto(reverse("tournaments:table", args=[link_of(game).token]))
    refuse_hand(page)
    check_summary_in_first_screen(page, "refused-hand-table.png")
    assert not game.hands.exists()
