"""Yaku and dora counts are stored with each win and come back out: record → import_games → Win rows →
export_games gives the same yaku, dora, red fives and ura dora; an online log converted by convert_log
keeps them through the import; a hand entered as tiles stores what the ``mahjong`` package counted; a
hand entered in the web keeps them through a correction, a resubmission and the history."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

from league.models import Hanchan, Registration
from scoring import engine, services
from scoring.engine.logs.yaku import YAKU_BY_NAME
from scoring.models import HistoryEntry
from scoring.models import Win as WinRow
from scoring.records import engine_hands, stored_yaku, yaku_column
from tests.conftest import make_event
from tests.scoring.commands import run

pytestmark = pytest.mark.django_db

LOGS = Path(__file__).resolve().parent / "logs" / "fixtures"

RECORD: dict[str, Any] = {
    "format": 1,
    "rules": "tenhou",
    "players": ["Ann", "Bob", "Cho", "Dan"],
    "hands": [
        {
            "result": "ron",
            "loser": 2,
            "wins": [
                {
                    "winner": 0,
                    "han": 4,
                    "fu": 30,
                    "yaku": [{"name": "riichi", "han": 1}, {"name": "pinfu", "han": 1}],
                    "dora": 1,
                    "aka": 0,
                    "ura": 1,
                }
            ],
            "riichi": [0],
        },
        {
            "result": "tsumo",
            "winner": 1,
            "han": 3,
            "fu": 30,
            "yaku": [{"name": "tanyao", "han": 1}],
            "dora": 0,
            "aka": 2,
            "ura": 0,
        },
        # Known value, yaku not recorded: stays without them.
        {"result": "ron", "loser": 3, "wins": [{"winner": 2, "han": 2, "fu": 30}]},
        {
            "result": "ron",
            "loser": 1,
            "wins": [{"winner": 3, "yakuman": 2, "yaku": [{"name": "suuankou_tanki", "yakuman": 2}]}],
        },
    ],
}


@pytest.fixture
def tenhou_event(club, players):
    event = make_event(club, "tenhou", slug="online-league")
    for player in players[:4]:
        Registration.objects.create(event=event, player=player)
    return event


def write(tmp_path: Path, name: str, data: Any) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def win_facts(hand: dict[str, Any]) -> list[dict[str, Any]]:
    """The wins of a record's hand with only what the hand was made of (and who won)."""
    wins = hand.get("wins") or ([hand] if hand["result"] == "tsumo" else [])
    keys = ("winner", "yaku", "dora", "aka", "ura")
    return [{k: w[k] for k in keys if k in w} for w in wins]


def test_a_record_round_trips_its_yaku_through_import_and_export(tmp_path, tenhou_event):
    code, _, err = run("import_games", "--event", tenhou_event.slug, write(tmp_path, "game.json", RECORD))
    assert code == 0, err
    rows = list(WinRow.objects.order_by("hand__number", "pk"))
    assert rows[0].yaku == [{"name": "riichi", "han": 1}, {"name": "pinfu", "han": 1}]
    assert (rows[0].dora, rows[0].aka, rows[0].ura) == (1, 0, 1)
    assert (rows[1].yaku, rows[1].aka) == ([{"name": "tanyao", "han": 1}], 2)
    assert (rows[2].yaku, rows[2].dora, rows[2].aka, rows[2].ura) == ([], None, None, None)  # not recorded
    assert rows[3].yaku == [{"name": "suuankou_tanki", "yakuman": 2}]

    code, out, err = run("export_games", "--event", tenhou_event.slug)
    assert code == 0, err
    [exported] = json.loads(out)
    assert [win_facts(h) for h in exported["hands"]] == [win_facts(h) for h in RECORD["hands"]]

    # Importing the export again into an empty event gives the same rows.
    again = make_event(tenhou_event.club, "tenhou", slug="online-league-copy")
    code, _, err = run("import_games", "--event", again.slug, write(tmp_path, "again.json", exported))
    assert code == 0, err
    copied = WinRow.objects.filter(hand__hanchan__event=again).order_by("hand__number", "pk")
    assert [(w.yaku, w.dora, w.aka, w.ura) for w in copied] == [(w.yaku, w.dora, w.aka, w.ura) for w in rows]


def test_an_online_log_keeps_its_yaku_through_convert_log_and_import(tmp_path, club):
    event = make_event(club, "tenhou", slug="tenhou-lobby")
    code, out, err = run("convert_log", str(LOGS / "tenhou-hanchan-tobi.json"))
    assert code == 0, err
    record = json.loads(out)
    listed = [w for hand in record["hands"] for w in win_facts(hand)]
    assert listed and all("yaku" in w for w in listed)
    code, _, err = run(
        "import_games", "--event", event.slug, "--create-players", write(tmp_path, "log.json", record)
    )
    assert code == 0, err
    stored = list(WinRow.objects.filter(hand__hanchan__event=event).order_by("hand__number", "pk"))
    assert [w.yaku for w in stored] == [w["yaku"] for w in listed]
    assert [(w.dora, w.aka, w.ura) for w in stored] == [
        (w.get("dora"), w.get("aka"), w.get("ura")) for w in listed
    ]
    assert all(item["name"] in YAKU_BY_NAME for w in stored for item in w.yaku)


def test_the_engine_hands_read_back_what_was_stored(tenhou_event, players, organiser):
    game = services.start_game(event=tenhou_event, players=players[:4], user=organiser)
    hand = engine.Hand.tsumo(
        engine.Win(
            1,
            2,
            20,
            yaku=(engine.ScoredYaku("menzen_tsumo", han=1), engine.ScoredYaku("pinfu", han=1)),
            dora=0,
            aka=0,
            ura=0,
        )
    )
    services.record_hand(hanchan=game, hand=hand, user=organiser)
    assert engine_hands(game) == [hand]
    entry = HistoryEntry.objects.filter(hanchan=game, action="hand recorded").get()
    assert entry.after["yaku"] == [{"name": "menzen_tsumo", "han": 1}, {"name": "pinfu", "han": 1}]


def test_yaku_column_and_stored_yaku_are_inverse():
    yaku = (engine.ScoredYaku("riichi", han=1), engine.ScoredYaku("daisangen", yakuman=1))
    assert stored_yaku(yaku_column(yaku)) == yaku
    assert yaku_column(None) == [] and stored_yaku([]) is None  # empty: not recorded


@pytest.fixture
def client_in(client, organiser):
    client.force_login(organiser)
    return client


def test_a_hand_entered_as_tiles_stores_the_yaku_and_dora_the_library_counted(
    client_in, tenhou_event, players, organiser
):
    game = services.start_game(event=tenhou_event, players=players[:4], user=organiser)
    data = {
        "result": "tsumo",
        "winner": "1",  # Bob, South in East 1
        "riichi": ["1"],
        "tiles": "234m0p67p234s55s345p",  # pinfu tanyao with a red 5p, waiting 5p-8p... won on 4s
        "win_tile": "4s",
        "dora": "1m",  # dora 2m: one
        "ura_dora": "4s",  # ura 5s: two
        "version": Hanchan.objects.get(pk=game.pk).version,
    }
    response = client_in.post(reverse("scoring_manage:hand_add", args=[game.pk]), data)
    assert response.status_code == 302, response.content.decode()[:3000]
    row = WinRow.objects.get(hand__hanchan=game)
    assert row.yaku == [
        {"name": "menzen_tsumo", "han": 1},
        {"name": "riichi", "han": 1},
        {"name": "pinfu", "han": 1},
        {"name": "tanyao", "han": 1},
    ]
    assert (row.dora, row.aka, row.ura) == (1, 1, 2)
    assert row.han == 8  # 4 yaku + 4 dora: baiman
    assert row.tiles == data["tiles"]


def test_a_yakuman_entered_as_tiles_stores_its_yakuman(client_in, tenhou_event, players, organiser):
    game = services.start_game(event=tenhou_event, players=players[:4], user=organiser)
    data = {
        "result": "tsumo",
        "winner": "2",
        "tiles": "111222333m44455p",
        "win_tile": "5p",
        "version": Hanchan.objects.get(pk=game.pk).version,
    }
    response = client_in.post(reverse("scoring_manage:hand_add", args=[game.pk]), data)
    assert response.status_code == 302, response.content.decode()[:3000]
    row = WinRow.objects.get(hand__hanchan=game)
    assert row.yakuman == 2 and row.yaku == [{"name": "suuankou_tanki", "yakuman": 2}]


def test_situational_yaku_picked_with_tiles_reach_the_calculator(client_in, tenhou_event, players, organiser):
    """Ippatsu cannot be seen in the tiles: picked beside them, it is counted by the library."""
    game = services.start_game(event=tenhou_event, players=players[:4], user=organiser)
    data = {
        "result": "ron",
        "winner": "1",
        "loser": "3",
        "riichi": ["1"],
        "yaku": ["riichi", "ippatsu"],
        "tiles": "234m567p234s55s678p",
        "win_tile": "8p",
        "version": Hanchan.objects.get(pk=game.pk).version,
    }
    response = client_in.post(reverse("scoring_manage:hand_add", args=[game.pk]), data)
    assert response.status_code == 302, response.content.decode()[:3000]
    row = WinRow.objects.get(hand__hanchan=game)
    assert [y["name"] for y in row.yaku] == ["riichi", "ippatsu", "pinfu", "tanyao"]
    assert (row.han, row.fu) == (4, 30)


def test_a_resubmitted_hand_with_yaku_is_recognised_as_already_saved(client_in, event, players, organiser):
    game = services.start_game(event=event, players=players[:4], user=organiser)
    data = {
        "result": "ron",
        "winner": "1",
        "loser": "2",
        "yaku": ["tanyao", "sanshoku_doujun"],
        "open_hand": "on",
        "fu": "30",
        "version": Hanchan.objects.get(pk=game.pk).version,
        "entry_key": "form-key-0001",  # one rendered form, sent twice
    }
    url = reverse("scoring_manage:hand_add", args=[game.pk])
    assert client_in.post(url, data).status_code == 302
    again = client_in.post(url, data, follow=True)
    assert "This hand was already saved (hand 1)." in again.content.decode()
    assert WinRow.objects.filter(hand__hanchan=game).count() == 1
