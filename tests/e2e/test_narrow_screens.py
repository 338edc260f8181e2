"""Tenbou on a phone (390 × 844) and on a 1366 px laptop: no page scrolls sideways, even with an
80-character player name (without spaces, and with spaces); a table wider than the screen scrolls in
its own box and says so ("Scroll for more →"), so no column is hidden without a cue.

The screenshots land in tests/e2e/artifacts/narrow-*.png and desktop-*.png for a look by eye.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from league.models import Club, Player, Registration
from scoring import services
from scoring.engine import Hand, Win
from tests.conftest import make_event
from tests.e2e.conftest import ARTIFACTS, login

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LONG = "W" * 80
SPACED = ("Maximiliane Wilhelmina Anastasia von Hohenzollern-Sigmaringen und Hohenlohe Zu")[:80]
PASSWORD = "organiser-pass-123"

# Every .table-wrap that is shown and wider than its box must have a visible hint just before it.
UNCUED = """() => {
  const problems = [];
  document.querySelectorAll('.table-wrap').forEach((wrap) => {
    if (!wrap.getClientRects().length) return;  // inside a closed <details>: not on screen
    if (wrap.scrollWidth <= wrap.clientWidth + 1) return;
    const hint = wrap.previousElementSibling;
    const shown = hint && hint.classList.contains('scroll-hint') && !hint.hidden
      && hint.getBoundingClientRect().height > 0 && getComputedStyle(hint).visibility === 'visible';
    if (!shown) problems.push((wrap.querySelector('table') || wrap).className || 'table');
  });
  return problems;
}"""


# The elements sticking out past the right edge of the screen (outside the tables' own scrolling boxes).
WIDE = """() => Array.from(document.querySelectorAll('body *'))
  .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
  .filter((e) => !(e.parentElement && e.parentElement.closest('.table-wrap')))
  .map((e) => `${e.tagName.toLowerCase()}.${e.className}#${e.id}`)
  .slice(0, 10)"""


def no_sideways_scroll(page, width: int) -> None:
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"{page.url}: {scroll} px wide on a {width} px screen: {page.evaluate(WIDE)}"


def check(page, url: str, shot: str, width: int) -> None:
    """Open every folded section, then: no sideways page scroll, and every overflowing table cued."""
    page.goto(url)
    page.wait_for_load_state()
    page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    page.screenshot(path=str(ARTIFACTS / shot), full_page=True)
    no_sideways_scroll(page, width)
    try:
        page.wait_for_function(f"({UNCUED})().length === 0", timeout=3000)
    except Exception:  # noqa: BLE001 - report which tables, not Playwright's timeout
        pytest.fail(f"{url}: tables wider than the screen without a scroll cue: {page.evaluate(UNCUED)}")


@pytest.fixture
def league():
    """A league where the two long names play a game hand by hand and one entered as final scores."""
    user = get_user_model().objects.create_user("olga", password=PASSWORD)
    club = Club.objects.create(name="Riichi Lyon", slug="riichi-lyon")
    club.organisers.add(user)
    event = make_event(club, slug="spring-league")
    event.min_games = 1
    event.save()
    names = [LONG, SPACED, "Léa", "Lukas", "Bob"]
    players = [
        Player.objects.create(display_name=n, club=club, given_name=n[:40], family_name=n[40:]) for n in names
    ]
    for player in players:
        Registration.objects.create(event=event, player=player)
    hands = services.start_game(event=event, players=players[:4], user=user)
    for hand in (
        Hand.ron(2, Win(0, 3, 40), riichi=(0,)),
        Hand.draw((1, 3), riichi=(1,)),
        Hand.tsumo(Win(1, 2, 30)),
        Hand.ron(0, Win(3, 4, 30)),
    ):
        services.record_hand(hanchan=hands, hand=hand, user=user)
    services.finish_game(hanchan=hands, user=user, reason="time limit")
    table = [players[4], *players[:3]]
    final = services.start_game(event=event, players=table, user=user, entry_mode="final_scores")
    services.record_final_scores(hanchan=final, scores=[41000, 33000, 26000, 20000], user=user)
    playing = services.start_game(event=event, players=[players[1], players[0], *players[2:4]], user=user)
    services.record_hand(hanchan=playing, hand=Hand.draw((0,), riichi=(0,)), user=user)
    return {"event": event, "long": players[0], "hands": hands, "final": final, "playing": playing}


def test_pages_fit_a_phone_with_80_character_names(page, league):
    event, hands, final = league["event"], league["hands"], league["final"]

    check(page, event.get_absolute_url(), "narrow-standings.png", 390)
    # The standings have 13 columns: on a phone they overflow, and the cue says so.
    assert page.locator("#standings-ranked .scroll-hint").is_visible()
    assert page.locator("#standings-ranked .scroll-hint").inner_text().startswith("Scroll for more")
    # The columns that matter first (rank, player, points) are on screen without scrolling.
    points = page.locator("#standings-ranked th", has_text="Points").bounding_box()
    assert points is not None and points["x"] + points["width"] <= 390

    check(page, reverse("scoring:game", args=[hands.pk]), "narrow-game-hands.png", 390)
    # The result of a game: name, score, place and result are on screen without scrolling.
    result = page.locator(".final-table th", has_text="Result").bounding_box()
    assert result is not None and result["x"] + result["width"] <= 390
    check(page, reverse("scoring:game", args=[final.pk]), "narrow-game-final.png", 390)
    check(page, league["long"].get_absolute_url(), "narrow-player.png", 390)
    check(page, reverse("scoring:ratings", args=[event.slug]), "narrow-ratings.png", 390)
    check(page, reverse("league:events"), "narrow-events.png", 390)

    login(page, "olga", PASSWORD)
    check(page, reverse("scoring_manage:game", args=[hands.pk]), "narrow-manage-game.png", 390)
    check(page, reverse("scoring_manage:game", args=[final.pk]), "narrow-manage-final.png", 390)
    # A game being played: the scoreboard's four seats and the hand form, long names and all.
    check(page, reverse("scoring_manage:game", args=[league["playing"].pk]), "narrow-manage-playing.png", 390)
    check(page, reverse("league_manage:event", args=[event.slug]), "narrow-manage-event.png", 390)
    check(page, reverse("scoring_manage:game_new", args=[event.slug]), "narrow-manage-new-game.png", 390)


# Where each line of every scoreboard name starts after the first: the two characters around the break.
LINE_BREAKS = """() => Array.from(document.querySelectorAll('.scoreboard .name')).map((name) => {
  const text = name.firstChild;
  const breaks = [];
  let top = null;
  for (let i = 0; i < text.length; i++) {
    const range = document.createRange();
    range.setStart(text, i);
    range.setEnd(text, i + 1);
    const rects = range.getClientRects();
    if (!rects.length) continue;
    const lineTop = Math.round(rects[0].top);
    if (top !== null && lineTop > top + 2) breaks.push(text.data.slice(i - 1, i + 1));
    top = lineTop;
  }
  return {name: text.data, breaks};
})"""


def test_scoreboard_names_break_between_words_on_a_phone(page, league):
    """The scoreboard of a game being played, at 390 px: a long name wraps at its spaces (or after a
    hyphen), never inside a word; a word too long for its quarter of the screen is cut with an ellipsis
    instead; the names stay in their seats and the four scores on one level."""
    login(page, "olga", PASSWORD)
    page.goto(reverse("scoring_manage:game", args=[league["playing"].pk]))
    page.wait_for_load_state()
    page.locator("#scoreboard").screenshot(path=str(ARTIFACTS / "narrow-scoreboard-names.png"))
    names = page.evaluate(LINE_BREAKS)
    assert {SPACED, LONG} <= {n["name"] for n in names}
    for name in names:
        inside = [pair for pair in name["breaks"] if pair[0] not in " -"]
        assert not inside, f"{name['name']!r} breaks inside a word at {inside}"
    spaced = next(n for n in names if n["name"] == SPACED)
    assert spaced["breaks"], "the long spaced name wraps at its spaces"
    line = page.evaluate("parseFloat(getComputedStyle(document.querySelector('.seat .name')).lineHeight)")
    seats = page.locator("#scoreboard .seat")
    for i in range(seats.count()):
        seat, name = seats.nth(i).bounding_box(), seats.nth(i).locator(".name").bounding_box()
        assert seat is not None and name is not None
        assert seat["x"] <= name["x"] and name["x"] + name["width"] <= seat["x"] + seat["width"]
        assert name["height"] <= 3 * line + 1, "a name takes three lines at most"
    scores = [seats.nth(i).locator(".score").bounding_box() for i in range(4)]
    tops = {round(box["y"]) for box in scores if box is not None}
    assert len(tops) == 1, f"the scores are not level: {tops}"
    no_sideways_scroll(page, 390)


def test_no_column_hidden_without_a_cue_on_a_laptop(browser, live_server, league):
    context = browser.new_context(viewport={"width": 1366, "height": 768}, base_url=live_server.url)
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        check(page, league["event"].get_absolute_url(), "desktop-standings.png", 1366)
        # The event page widens on a laptop: all thirteen columns of the standings are in view.
        assert not page.locator("#standings-ranked .scroll-hint").is_visible()
        check(page, reverse("scoring:game", args=[league["hands"].pk]), "desktop-game-hands.png", 1366)
        check(page, league["long"].get_absolute_url(), "desktop-player.png", 1366)
    finally:
        context.close()
