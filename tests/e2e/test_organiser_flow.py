"""An organiser's evening: create a league, register players, play a game hand by hand, correct a hand,
finish the game and read the results — in a phone-sized Chromium.

Expected figures, worked by hand under EMA 2016 (start 30 000, uma +15/+5/−5/−15, chombo −20 000):
1. E1: Ann (dealer, riichi) rons Cho, 3 han 40 fu = 7700; her deposit comes back.   37700 30000 22300 30000
2. E1-1: exhaustive draw, Bob and Dan tenpai (±1500); Ann noten, the deal passes.    36200 31500 20800 31500
3. E2-2: double ron on Cho: Dan 2-30 (2000+600), Ann 1-30 (1000+600).                 37800 31500 16600 34100
   corrected afterwards to Ann 2-30 (2000+600):                                     38800 31500 15600 34100
4. E3: chombo by Bob: nothing moves at the table, the hand is replayed.
5. E3: Dan tsumo 2-30: dealer Cho pays 1000, Ann and Bob 500.                       37300 31000 15600 36100
   after the correction of hand 3:                                                   38300 31000 14600 36100
Finished early (time limit): Ann +23300, Bob 31000−30000−5000−20000 = −24000, Cho −30400, Dan +11100.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from league.models import Club
from tests.e2e.conftest import ARTIFACTS, login

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def pick(page, name: str, value: int | str) -> None:
    page.locator(f"#hand-form input[name={name}][value='{value}']").check()


def save_hand(page) -> None:
    page.click("#hand-form button[type=submit]")
    page.wait_for_load_state()
    expect_no_errors(page)


def expect_no_errors(page) -> None:
    errors = page.locator(".errorlist")
    assert errors.count() == 0, errors.all_inner_texts()


def scoreboard(page) -> list[str]:
    return [s.strip() for s in page.locator("#scoreboard .score").all_inner_texts()]


def test_organiser_runs_a_game(page):
    user = get_user_model().objects.create_user("olga", password="organiser-pass-123")
    club = Club.objects.create(name="Riichi Lyon", slug="riichi-lyon")
    club.organisers.add(user)

    login(page, "olga", "organiser-pass-123")
    page.goto("/manage/")
    page.click(f"a[href='/manage/clubs/{club.slug}/events/new/']")
    page.fill("#id_name", "Spring League")
    page.fill("#id_slug", "spring-league")
    page.click("#event-form button[type=submit]")
    page.wait_for_url("**/manage/events/spring-league/")

    page.fill(
        "#id_csv",
        "Ann, Ann, Arnaud, 04010001, FR\nBob, Bob, Brown, , GB\nCho, Cho, Chen, , \n"
        "Dan, Dan, Dupont, 04010002, FR",
    )
    page.click("#csv-form button[type=submit]")
    page.wait_for_url("**/manage/events/spring-league/")
    for name in ("Ann", "Bob", "Cho", "Dan"):
        assert page.get_by_role("cell", name=name, exact=True).count() >= 1

    page.goto("/manage/events/spring-league/games/new/")
    for seat, name in zip(("east", "south", "west", "north"), ("Ann", "Bob", "Cho", "Dan"), strict=True):
        page.select_option(f"#id_{seat}", label=name)
    page.click("#game-new-form button[type=submit]")
    page.wait_for_url(re.compile(r".*/manage/games/\d+/$"))
    game_url = page.url

    # 1. Ron with riichi: the preview shows the payments before saving.
    pick(page, "winner", 0)
    pick(page, "loser", 2)
    page.select_option("#hand-form select[name=han]", "3")
    page.select_option("#hand-form select[name=fu]", "40")
    pick(page, "riichi", 0)
    page.wait_for_selector("#preview table")
    assert "+7700" in page.inner_text("#preview")
    page.screenshot(path=str(ARTIFACTS / "entry-ron-preview.png"), full_page=True)
    save_hand(page)
    assert scoreboard(page) == ["37700", "30000", "22300", "30000"]

    # 2. Exhaustive draw, two tenpai.
    pick(page, "result", "draw")
    pick(page, "tenpai", 1)
    pick(page, "tenpai", 3)
    save_hand(page)
    assert scoreboard(page) == ["36200", "31500", "20800", "31500"]

    # 3. Double ron on Cho's discard.
    pick(page, "winner", 3)
    pick(page, "loser", 2)
    page.select_option("#hand-form select[name=han]", "2")
    page.select_option("#hand-form select[name=fu]", "30")
    page.click("#hand-form details.more-winners summary")
    page.select_option("#hand-form select[name=winner_2]", "0")
    page.select_option("#hand-form select[name=han_2]", "1")
    page.select_option("#hand-form select[name=fu_2]", "30")
    save_hand(page)
    assert scoreboard(page) == ["37800", "31500", "16600", "34100"]

    # 4. Chombo by Bob.
    pick(page, "result", "chombo")
    pick(page, "seat", 1)
    save_hand(page)
    assert scoreboard(page) == ["37800", "31500", "16600", "34100"]

    # 5. Tsumo by Dan.
    pick(page, "result", "tsumo")
    pick(page, "winner", 3)
    page.select_option("#hand-form select[name=han]", "2")
    page.select_option("#hand-form select[name=fu]", "30")
    save_hand(page)
    assert scoreboard(page) == ["37300", "31000", "15600", "36100"]
    page.screenshot(path=str(ARTIFACTS / "entry-after-five-hands.png"), full_page=True)

    # Correct hand 3: Ann's hand was 2 han, not 1.
    page.click("a[href$='/hands/3/']")
    page.select_option("#hand-form select[name=han_2]", "2")
    page.fill("#id_correction_reason", "Ann had a second han")
    page.click("#save-correction")
    page.wait_for_url(game_url)
    expect_no_errors(page)
    assert scoreboard(page) == ["38300", "31000", "14600", "36100"]

    # Finish early (time limit) and read the results.
    page.fill("form[action$='/finish/'] input[name=reason]", "time limit")
    page.click("#finish")
    page.wait_for_url(game_url)
    rows = page.locator(".final-table tbody tr")
    results = [rows.nth(i).locator("td.result").inner_text().strip() for i in range(4)]
    scores = [rows.nth(i).locator("td").nth(1).inner_text().strip() for i in range(4)]
    assert scores == ["38300", "31000", "14600", "36100"]
    assert results == ["+23300", "−24000", "−30400", "+11100"]
    page.screenshot(path=str(ARTIFACTS / "game-finished.png"), full_page=True)
