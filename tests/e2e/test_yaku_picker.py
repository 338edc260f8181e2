"""The yaku picker's script in Chromium: tapping yaku fills han and fu, the payment preview follows, a
yakuman replaces the other yaku, an open hand greys out the closed-only ones, and the saved win keeps the
picked yaku. (The server's own checks are tested without a browser in tests/scoring/test_yaku_picker.py.)

Under EMA 2016, Ann (seat 0) deals East 1; Bob (seat 1) wins.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from league.models import Club, Player, Registration
from scoring import services
from scoring.models import Win as WinRow
from tests.conftest import make_event
from tests.e2e.conftest import login

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def tap(page, yaku: str) -> None:
    page.locator(f"#yaku-picker input[name=yaku][value='{yaku}']").click()


def value(page, name: str) -> str:
    return page.locator(f"#hand-form select[name={name}]").input_value()


def test_tapping_yaku_fills_han_and_fu_and_saves_them(page):
    from playwright.sync_api import expect

    user = get_user_model().objects.create_user("olga", password="organiser-pass-123")
    club = Club.objects.create(name="Riichi Lyon", slug="riichi-lyon")
    club.organisers.add(user)
    event = make_event(club)
    players = [Player.objects.create(display_name=n, club=club) for n in ("Ann", "Bob", "Cho", "Dan")]
    for player in players:
        Registration.objects.create(event=event, player=player)
    game = services.start_game(event=event, players=players, user=user)

    login(page, "olga", "organiser-pass-123")
    page.goto(f"/manage/games/{game.pk}/")
    page.locator("#hand-form input[name=winner][value='1']").check()
    page.locator("#hand-form input[name=loser][value='2']").check()
    page.locator("#hand-form input[name=riichi][value='1']").check()
    page.click("#yaku-picker summary")

    tap(page, "riichi")
    assert value(page, "han") == "1"
    tap(page, "pinfu")
    tap(page, "tanyao")
    assert (value(page, "han"), value(page, "fu")) == ("3", "30")  # pinfu on a ron: 30 fu
    page.fill("#yaku-picker input[name=dora_count]", "1")
    page.locator("#yaku-picker input[name=dora_count]").dispatch_event("change")
    assert value(page, "han") == "4"
    assert "4 han 30 fu" in page.locator("[data-yaku-total]").inner_text()
    expect(page.locator("#preview")).to_contain_text("+7700")  # htmx refreshed it after the fill

    # Riichi and double riichi exclude each other: tapping one clears the other.
    tap(page, "double_riichi")
    assert not page.locator("#yaku-picker input[value='riichi']").is_checked()
    assert value(page, "han") == "5"
    tap(page, "riichi")
    assert not page.locator("#yaku-picker input[value='double_riichi']").is_checked()

    # A yakuman replaces the rest: the other yaku cannot be tapped, the yakuman count is filled.
    page.click("#yaku-picker .yaku-yakuman summary")  # the yakuman are folded away at first
    tap(page, "daisangen")
    assert page.locator("#yaku-picker input[value='tanyao']").is_disabled()
    assert (value(page, "yakuman"), value(page, "han")) == ("1", "")
    tap(page, "daisangen")
    assert page.locator("#yaku-picker input[value='tanyao']").is_enabled()
    assert value(page, "han") == "4"

    # An open hand has no pinfu and no riichi: they grey out.
    page.locator("#yaku-picker input[name=open_hand]").check()
    assert page.locator("#yaku-picker input[value='pinfu']").is_disabled()
    page.locator("#yaku-picker input[name=open_hand]").uncheck()

    page.click("#hand-form button[type=submit]")
    page.wait_for_load_state()
    assert page.locator(".errorlist").count() == 0, page.locator(".errorlist").all_inner_texts()
    row = WinRow.objects.get(hand__hanchan=game)
    assert (row.han, row.fu, row.dora) == (4, 30, 1)
    assert [y["name"] for y in row.yaku] == ["riichi", "pinfu", "tanyao"]
