"""Finding a log's players by online name (scoring/online.py), and the date a log id says.

The matcher is given plain (unsaved) players: it reads their fields only, so these tests need no
database. What they pin down: the registered players come before the club's; within a tier the log's
site decides which online name is tried first, then the display name; names match whatever their case
or width (full-width letters from a Japanese keyboard); a name two players share is never guessed.
"""

from __future__ import annotations

import unicodedata
from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from league.models import Player
from scoring.online import Match, PlayerMatcher, name_key, played_on_from_log_id


def player(pk: int, display: str, **online: str) -> Player:
    made = Player(display_name=display, **online)
    made.pk = pk
    return made


ANN = player(1, "Ann", tenhou_name="annT", mahjongsoul_name="AnnMS", mahjongsoul_id="11111111")
BOB = player(2, "Bob", tenhou_name="bobby")
CHO = player(3, "Cho", mahjongsoul_name="bobby")  # Bob's Tenhou name is Cho's Mahjong Soul nickname
DAN = player(4, "annT")  # a display name equal to Ann's Tenhou name


def test_each_site_is_matched_by_its_own_online_name_first():
    matcher = PlayerMatcher([[ANN, BOB, CHO, DAN]])
    assert matcher.match("bobby", "tenhou") == Match(player=BOB, field="tenhou_name")
    assert matcher.match("bobby", "mahjongsoul") == Match(player=CHO, field="mahjongsoul_name")
    assert matcher.match("11111111", "mahjongsoul") == Match(player=ANN, field="mahjongsoul_id")
    # The site's online name wins over another player's display name.
    assert matcher.match("annT", "tenhou").player is ANN
    # On Mahjong Soul "annT" is no one's nickname: Dan's display name is the match.
    assert matcher.match("annT", "mahjongsoul") == Match(player=DAN, field="display_name")
    # A Tenhou log never matches by a Mahjong Soul friend ID.
    assert matcher.match("11111111", "tenhou").player is None


def test_case_and_full_width_letters_do_not_matter():
    matcher = PlayerMatcher([[ANN, BOB]])
    assert matcher.match("ＡＮＮＴ", "tenhou").player is ANN  # full-width, upper case
    assert matcher.match("  BOBBY ", "tenhou").player is BOB
    assert matcher.match("ann", "tenhou") == Match(player=ANN, field="display_name")


def test_registered_players_come_before_the_clubs():
    visitor = player(10, "Eve", tenhou_name="TwinName")
    member = player(11, "Eve2", tenhou_name="TwinName")
    matcher = PlayerMatcher([[visitor], [visitor, member]])
    assert matcher.match("TwinName", "tenhou").player is visitor
    # Display name in the registered tier beats an online name of a club player.
    registered = player(12, "Kenta")
    club = player(13, "Someone", tenhou_name="Kenta")
    assert PlayerMatcher([[registered], [club]]).match("Kenta", "tenhou").player is registered


def test_a_name_two_players_share_is_ambiguous_never_guessed():
    one, two = player(20, "Yuki", tenhou_name="yuki"), player(21, "Yuki K", tenhou_name="YUKI")
    match = PlayerMatcher([[one, two]]).match("Yuki", "tenhou")
    assert match.player is None and match.ambiguous
    assert {p.pk for p in match.candidates} == {20, 21}
    assert match.how == "Tenhou name"


def test_unknown_and_empty_names_find_no_one():
    matcher = PlayerMatcher([[ANN]])
    assert matcher.match("Zed", "tenhou") == Match()
    assert matcher.match("   ", "tenhou") == Match()
    assert not Match().ambiguous


names = st.text(
    alphabet=st.characters(codec="utf-8", categories=["Lu", "Ll", "Lo", "Nd"]), min_size=1, max_size=12
)


@given(name=names, upper=st.booleans())
def test_a_players_tenhou_name_always_finds_them(name, upper):
    """Whatever the name, a log writing it (in either case) finds the one player who has it."""
    target = player(30, "Target", tenhou_name=name)
    others = [player(31, "Other"), player(32, "Third", mahjongsoul_name=name)]
    typed = name.upper() if upper else name
    if name_key(typed) != name_key(name):  # upper() is not undone by casefold() for a few letters (ß)
        return
    assert PlayerMatcher([[*others, target]]).match(typed, "tenhou").player is target


@given(name=names)
def test_name_key_is_idempotent_and_width_blind(name):
    assert name_key(name_key(name)) == name_key(name)
    assert name_key(unicodedata.normalize("NFKD", name)) == name_key(name)


@pytest.mark.parametrize(
    ("log_id", "day"),
    [
        ("2023061523gm-0089-0000-1a2b3c4d", date(2023, 6, 15)),
        ("240301-0f1e2d3c-4b5a-4697-8877-665544332211", date(2024, 3, 1)),
        ("2023023023gm-0089-0000-1a2b3c4d", None),  # February 30th
        ("not-an-id", None),
        (None, None),
    ],
)
def test_the_day_a_log_id_says(log_id, day):
    assert played_on_from_log_id(log_id) == day
