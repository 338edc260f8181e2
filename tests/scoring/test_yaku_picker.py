"""The yaku picker of the hand form: picked yaku give the han (and fu where they fix it), combinations no
hand can hold are refused with a message naming the field and the rule, typed han/fu still work, and
the picked yaku reach the stored win. The form is checked without the page's script: the server alone
decides."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from league.models import Hanchan, Registration
from scoring import engine, services, yaku_picker
from scoring.engine.logs.yaku import YAKU, YAKU_BY_NAME, needs_closed_hand
from scoring.forms import HandForm
from scoring.models import Win as WinRow
from tests.conftest import make_event

NAMES = ["Ann", "Bob", "Cho", "Dan"]
EMA = engine.make_ruleset("ema2016")
TENHOU = engine.make_ruleset("tenhou")


def form(data: dict[str, Any], *, rules: engine.Ruleset = EMA, deal: int = 0) -> HandForm:
    """The hand form for East ``deal`` (dealer = deal % 4) with ``data`` posted."""
    return HandForm(data, rules=rules, names=NAMES, state=engine.TableState(scores=[30000] * 4, deal=deal))


def ron(*yaku: str, winner: int = 1, loser: int = 2, **extra: Any) -> dict[str, Any]:
    return {"result": "ron", "winner": str(winner), "loser": str(loser), "yaku": list(yaku), **extra}


def tsumo(*yaku: str, winner: int = 1, **extra: Any) -> dict[str, Any]:
    return {"result": "tsumo", "winner": str(winner), "yaku": list(yaku), **extra}


def win_of(f: HandForm) -> engine.Win:
    assert f.is_valid(), f.errors
    assert f.hand is not None
    return f.hand.wins[0]


def errors(f: HandForm) -> dict[str, list[str]]:
    assert not f.is_valid()
    return {field: [str(e) for e in errs] for field, errs in f.errors.items()}


def names_of(win: engine.Win) -> list[str]:
    return [y.name for y in win.yaku or ()]


# -- what the picks are worth ---------------------------------------------------------------------------


def test_picked_yaku_and_dora_give_the_han_and_are_kept_with_the_win():
    win = win_of(
        form(ron("riichi", "tanyao", "iipeikou", riichi=["1"], dora_count="2", ura_count="1", fu="40"))
    )
    assert (win.han, win.fu, win.yakuman) == (6, None, None)  # 3 yaku + 2 dora + 1 ura; fu irrelevant
    assert names_of(win) == ["riichi", "tanyao", "iipeikou"]  # the yaku table's order
    assert [y.han for y in win.yaku] == [1, 1, 1]
    assert (win.dora, win.aka, win.ura) == (2, 0, 1)  # no red fives under EMA: none counted


def test_typed_han_that_matches_the_picks_is_accepted():
    win = win_of(form(ron("riichi", "tanyao", riichi=["1"], han="2", fu="40")))
    assert (win.han, win.fu) == (2, 40)


def test_typed_han_that_does_not_match_the_picks_is_refused_on_han():
    found = errors(form(ron("riichi", "tanyao", riichi=["1"], han="4", fu="40")))
    assert list(found) == ["han"]
    assert "add up to 2 han, not 4" in found["han"][0]


def test_pinfu_fixes_the_fu_20_on_tsumo_and_30_on_ron():
    assert win_of(form(tsumo("menzen_tsumo", "pinfu"))).fu == 20
    assert win_of(form(ron("pinfu", "tanyao"))).fu == 30
    found = errors(form(ron("pinfu", "tanyao", fu="40")))
    assert found == {"fu": ["Fu: pinfu won by ron is always 30 fu, not 40."]}


def test_seven_pairs_fix_the_fu_at_25():
    win = win_of(form(ron("chiitoitsu", "tanyao")))
    assert (win.han, win.fu) == (3, 25)
    assert "seven pairs" in errors(form(ron("chiitoitsu", fu="30")))["fu"][0]


def test_fu_is_dropped_from_mangan_up():
    win = win_of(form(ron("chiitoitsu", "honitsu")))  # 2 + 3 = 5 han: a mangan, fu irrelevant
    assert (win.han, win.fu) == (5, None)


def test_an_open_hand_counts_the_open_han():
    win = win_of(form(ron("honitsu", "ittsu", "haku", open_hand="on", fu="30")))
    assert win.han == 2 + 1 + 1
    assert [y.han for y in win.yaku] == [1, 1, 2]  # haku, ittsu, honitsu in the table's order


def test_a_yakuman_is_counted_as_yakuman_and_doubles_only_where_yakuman_stack():
    win = win_of(form(ron("daisangen")))
    assert (win.han, win.fu, win.yakuman) == (None, None, 1)
    assert win.yaku == (engine.ScoredYaku("daisangen", yakuman=1),)
    assert win_of(form(tsumo("suuankou_tanki"))).yakuman == 1  # EMA: one yakuman
    assert win_of(form(tsumo("suuankou_tanki"), rules=TENHOU)).yakuman == 2
    assert win_of(form(tsumo("daisangen", "tsuuiisou"), rules=TENHOU)).yakuman == 2


def test_a_typed_yakuman_count_wins_over_the_picks_but_needs_a_yakuman_picked():
    assert win_of(form(ron("daisangen", yakuman="2"))).yakuman == 2  # the organiser's call
    assert "none of the picked yaku is a yakuman" in errors(form(ron("tanyao", yakuman="1")))["yakuman"][0]


def test_without_picks_the_form_works_as_before_and_records_no_yaku():
    win = win_of(form({"result": "ron", "winner": "1", "loser": "2", "han": "3", "fu": "40"}))
    assert (win.han, win.fu, win.yaku, win.dora, win.aka, win.ura) == (3, 40, None, None, None, None)


def test_dora_counts_without_yaku_are_kept_but_cannot_be_the_whole_han():
    win = win_of(
        form({"result": "ron", "winner": "1", "loser": "2", "han": "3", "fu": "40", "dora_count": "2"})
    )
    assert (win.yaku, win.dora, win.aka, win.ura) == (None, 2, 0, None)
    found = errors(
        form({"result": "ron", "winner": "1", "loser": "2", "han": "2", "fu": "40", "dora_count": "2"})
    )
    assert "dora alone are not a yaku" in found["dora_count"][0]


def test_red_fives_are_counted_where_the_set_has_them_and_bounded_by_it():
    win = win_of(form(ron("tanyao", open_hand="on", aka_count="2", fu="30"), rules=TENHOU))
    assert (win.han, win.aka) == (3, 2)
    assert "aka_count" not in form({}).fields  # EMA: no red fives
    assert "aka_count" in errors(form(ron("tanyao", aka_count="4"), rules=TENHOU))  # a set of three


# -- combinations no hand can hold ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "field", "words"),
    [
        (ron("pinfu", open_hand="on"), "yaku", "Pinfu needs a closed hand"),
        (ron("riichi", "toitoi", open_hand="on", riichi=["1"]), "open_hand", "declared riichi"),
        (ron("daisangen", "riichi", riichi=["1"]), "yaku", "a yakuman replaces every other yaku"),
        (ron("riichi", "double_riichi", riichi=["1"]), "yaku", "riichi or double riichi, not both"),
        (ron("ippatsu", "tanyao"), "yaku", "ippatsu needs riichi"),
        (ron("riichi", "tanyao"), "riichi", "tick it"),
        (ron("tanyao", riichi=["1"]), "yaku", "paid a riichi deposit"),
        (ron("menzen_tsumo", "tanyao"), "yaku", "won by tsumo, but this win is a ron"),
        (tsumo("menzen_tsumo", "chankan"), "yaku", "won by ron, but this win is a tsumo"),
        (tsumo("tanyao"), "yaku", "always has menzen tsumo"),
        (ron("iipeikou", "ryanpeikou"), "yaku", "Iipeikou and Ryanpeikou cannot both"),
        (ron("chiitoitsu", "toitoi"), "yaku", "Chiitoitsu and Toitoi cannot both"),
        (ron("tanyao", "chun"), "yaku", "Tanyao and Chun cannot both"),
        (ron("pinfu", "haku"), "yaku", "Pinfu and Haku cannot both"),
        (ron("honitsu", "chinitsu"), "yaku", "Honitsu and Chinitsu cannot both"),
        # Bob (seat 1) sits South in East 1; the round is East.
        (ron("jikaze_ton"), "yaku", "Jikaze ton is the seat wind East, but Bob sits South"),
        (ron("bakaze_nan"), "yaku", "is the round wind South, but this hand is in the East round"),
        (tsumo("tenhou"), "yaku", "Bob is not the dealer"),
        (tsumo("chiihou", winner=0), "yaku", "Ann is the dealer"),
        (ron("kokushi_musou", open_hand="on"), "yaku", "Kokushi musou needs a closed hand"),
        (ron("no_such_yaku"), "yaku", "not one of the available choices"),
    ],
)
def test_combinations_no_hand_can_hold_are_refused_naming_field_and_rule(data, field, words):
    found = errors(form(data))
    assert field in found, found
    assert any(words in message for message in found[field]), found


def test_open_tanyao_is_refused_where_the_rules_have_no_kuitan():
    rules = engine.make_ruleset("ema2016", {"open_tanyao": False})
    assert "no open tanyao" in errors(form(ron("tanyao", open_hand="on"), rules=rules))["yaku"][0]
    assert win_of(form(ron("tanyao", open_hand="on", fu="30"))).han == 1  # EMA 2016 allows it


def test_wind_yaku_follow_the_winner_seat_and_the_round():
    # South 2 (deal 5): Bob (seat 1) deals, so he sits East; the round wind is South.
    win = win_of(form(ron("jikaze_ton", "bakaze_nan", fu="40"), deal=5))
    assert win.han == 2
    win = win_of(form(tsumo("tenhou"), deal=5))  # Bob is the dealer now
    assert win.yakuman == 1


def test_every_yaku_of_the_picker_is_in_exactly_one_group():
    grouped = [name for _, names in yaku_picker.GROUPS for name in names]
    assert sorted(grouped) == sorted(yaku_picker.PICKABLE_NAMES)
    assert all(YAKU_BY_NAME[name].kind != "local" for name in grouped)


def test_the_incompatibility_table_is_symmetric_and_names_real_yaku():
    for name, others in yaku_picker.NEVER_TOGETHER.items():
        assert name in YAKU_BY_NAME
        for other in others:
            assert name in yaku_picker.NEVER_TOGETHER[other]


# -- invariants over any pick ---------------------------------------------------------------------------

ORDINARY = [y.name for y in yaku_picker.PICKABLE if not y.is_yakuman]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    picks=st.lists(st.sampled_from(sorted(yaku_picker.PICKABLE_NAMES)), max_size=4, unique=True),
    is_tsumo=st.booleans(),
    opened=st.booleans(),
    riichi=st.booleans(),
    dora=st.integers(0, 6),
    deal=st.integers(0, 7),
    winner=st.integers(0, 3),
)
def test_any_accepted_pick_is_a_valid_win_worth_its_yaku_and_dora(
    picks, is_tsumo, opened, riichi, dora, deal, winner
):
    """Whatever is picked, the form answers (never a crash); when it accepts, the win holds exactly the
    picked yaku, the han is their han plus the dora, and the value passes the engine's own check."""
    data = (tsumo if is_tsumo else ron)(*picks, winner=winner, loser=(winner + 1) % 4)
    data.update({"dora_count": str(dora), "riichi": [str(winner)] if riichi else []})
    if opened:
        data["open_hand"] = "on"
    f = form(data, rules=TENHOU, deal=deal)
    if not f.is_valid():
        assert f.errors  # refused with a message, never an exception
        return
    win = f.hand.wins[0]
    assert sorted(names_of(win)) == sorted(picks)
    if any(YAKU_BY_NAME[p].is_yakuman for p in picks):
        assert win.yakuman >= 1 and win.han is None
        return
    closed = not opened
    expected = sum(yaku_picker.yaku_han(YAKU_BY_NAME[p], closed=closed) for p in picks) + dora
    assert win.han == expected
    assert all(not needs_closed_hand(YAKU_BY_NAME[p]) for p in picks) or closed
    engine.check_value(win.value, tsumo=is_tsumo, rules=TENHOU)  # a value the engine accepts


def test_closed_from_stored_reads_back_what_the_picker_stored():
    for name in ORDINARY:
        yaku = YAKU_BY_NAME[name]
        for closed in (True, False):
            if not closed and needs_closed_hand(yaku):
                continue
            stored = (engine.ScoredYaku(name, han=yaku_picker.yaku_han(yaku, closed=closed)),)
            again = yaku_picker.closed_from_stored(stored)
            assert yaku_picker.yaku_han(yaku, closed=again) == stored[0].han


def test_the_table_gives_every_yaku_an_english_meaning():
    assert all(y.english for y in YAKU)
    assert yaku_picker.label("pinfu") == "Pinfu (All sequences (no-points hand))"
    assert yaku_picker.label("riichi") == "Riichi"


# -- the page -------------------------------------------------------------------------------------------


@pytest.fixture
def client_in(client, organiser):
    client.force_login(organiser)
    return client


@pytest.mark.django_db
def test_the_game_page_offers_the_picker_with_its_script(client_in, event, players, organiser):
    game = services.start_game(event=event, players=players[:4], user=organiser)
    page = client_in.get(reverse("scoring_manage:game", args=[game.pk])).content.decode()
    assert 'id="yaku-picker"' in page and "js/yaku-picker.js" in page
    assert 'value="pinfu"' in page and 'data-han-closed="1"' in page and 'data-closed-only="1"' in page
    pinfu = '<strong>Pinfu</strong> <small>All sequences (no-points hand)</small> <small class="han">'
    assert pinfu + "1 han, closed</small>" in page
    assert 'name="dora_count"' in page and 'name="ura_count"' in page
    assert 'name="aka_count"' not in page  # EMA 2016 plays without red fives
    assert "<script>" not in page  # CSP: no inline script


@pytest.mark.django_db
def test_a_hand_saved_with_picked_yaku_stores_them_and_pays_their_value(client_in, event, players, organiser):
    game = services.start_game(event=event, players=players[:4], user=organiser)
    data = {
        **ron("riichi", "pinfu", "tanyao", riichi=["1"], dora_count="1"),
        "version": Hanchan.objects.get(pk=game.pk).version,
    }
    response = client_in.post(reverse("scoring_manage:hand_add", args=[game.pk]), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    row = WinRow.objects.get(hand__hanchan=game)
    assert (row.han, row.fu) == (4, 30)
    assert row.yaku == [
        {"name": "riichi", "han": 1},
        {"name": "pinfu", "han": 1},
        {"name": "tanyao", "han": 1},
    ]
    assert (row.dora, row.aka, row.ura) == (1, 0, 0)
    assert row.hand.deltas == [0, 7700 + 1000 - 1000, -7700, 0]  # 4 han 30 fu: 7700; Bob's stick back


@pytest.mark.django_db
def test_a_refused_pick_saves_nothing_and_the_page_says_why(client_in, event, players, organiser):
    game = services.start_game(event=event, players=players[:4], user=organiser)
    data = {**ron("pinfu", "toitoi"), "version": Hanchan.objects.get(pk=game.pk).version}
    response = client_in.post(reverse("scoring_manage:hand_add", args=[game.pk]), data)
    assert response.status_code == 422
    assert "Pinfu and Toitoi cannot both be in one hand." in response.content.decode()
    assert not WinRow.objects.exists()
    preview = client_in.post(reverse("scoring_manage:preview", args=[game.pk]), ron("pinfu", "toitoi"))
    assert "Pinfu and Toitoi cannot both be in one hand." in preview.content.decode()


@pytest.mark.django_db
def test_the_preview_pays_the_picked_value(client_in, event, players, organiser):
    game = services.start_game(event=event, players=players[:4], user=organiser)
    text = client_in.post(
        reverse("scoring_manage:preview", args=[game.pk]), ron("chiitoitsu", "tanyao")
    ).content
    assert "+3200" in text.decode()  # 3 han 25 fu ron by a non-dealer: 25 × 2⁵ × 4


@pytest.mark.django_db
def test_a_correction_shows_the_stored_yaku_and_keeps_them(client_in, club, players, organiser):
    event = make_event(club, "tenhou", slug="online-league")
    for player in players[:4]:
        Registration.objects.create(event=event, player=player)
    game = services.start_game(event=event, players=players[:4], user=organiser)
    hand = engine.Hand.ron(
        2,
        engine.Win(
            1,
            3,
            30,
            yaku=(engine.ScoredYaku("tanyao", han=1), engine.ScoredYaku("sanshoku_doujun", han=1)),
            dora=0,
            aka=1,
            ura=0,
        ),
    )
    services.record_hand(hanchan=game, hand=hand, user=organiser)
    url = reverse("scoring_manage:hand_correct", args=[game.pk, 1])
    page = client_in.get(url).content.decode()
    assert re.search(r'<input type="checkbox" name="yaku" value="tanyao"[^>]* checked', page)
    initial = HandForm.initial_for(hand)
    assert initial["yaku"] == ["tanyao", "sanshoku_doujun"] and initial["aka_count"] == 1
    assert initial["open_hand"] is True  # sanshoku counted 1 han: the hand was open
    assert re.search(r'name="open_hand"[^>]* checked', page)
    data = {
        **{k: v for k, v in initial.items() if v is not None},
        "winner": "1",
        "loser": "2",
        "han": "",
        "fu": "40",  # the correction: 40 fu; the picks give the han
        "open_hand": "on",  # as the page shows it
        "correction_reason": "fu was 40",
        "version": Hanchan.objects.get(pk=game.pk).version,
    }
    response = client_in.post(url, data)
    assert response.status_code == 302, response.content.decode()[:3000]
    row = WinRow.objects.get(hand__hanchan=game)
    assert (row.han, row.fu, row.aka) == (3, 40, 1)
    assert row.yaku == [{"name": "tanyao", "han": 1}, {"name": "sanshoku_doujun", "han": 1}]
