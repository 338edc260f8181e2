"""Hand-written logs of both formats, converted and replayed: the replay must give the log's own points.

The fixtures (``fixtures/``, see its README) are written from the formats' documentation with values
computed by hand from the rules. Each test reads the log's numbers straight from the file — each hand's
starting scores, its result arrays and the final scores — without the converter, and compares them with
what ``replay`` of the converted record prints, hand by hand; then checks what the record says the hands
were (winners, discarder, value, yaku, deposits, pao, draws and aborts).
"""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path
from typing import Any

import pytest

from scoring.engine import ABORT, DRAW, RON, TSUMO, GameRecord, ScoredYaku, replay_output
from scoring.engine.logs import read_log

FIXTURES = Path(__file__).resolve().parent / "fixtures"
JSON_LOGS = sorted(p.name for p in FIXTURES.glob("*.json"))
XML_LOGS = sorted(p.name for p in FIXTURES.glob("*.xml"))
MJLOG_NAME = "2023080212gm-00e1-0000-5e6f7a8b.mjlog"


def convert(name: str, *, gz: bool = False) -> GameRecord:
    data = (FIXTURES / name).read_bytes()
    if gz:
        data = gzip.compress(data)
    records = read_log(data, name=MJLOG_NAME if name.endswith(".xml") else name)
    assert len(records) == 1
    return records[0]


def log_numbers(
    name: str,
) -> tuple[list[list[int]], list[int], list[list[int]] | None, list[set[int]] | None]:
    """(each hand's starting scores, the final scores, each hand's result deltas, each hand's riichi marks),
    read from the file itself. Deltas and marks only for tenhou.net/6 JSON (mjlog's are checked by scores)."""
    text = (FIXTURES / name).read_text(encoding="utf-8")
    if name.endswith(".json"):
        data = json.loads(text)
        starts = [hand[1] for hand in data["log"]]
        final = data["sc"][0::2]
        deltas = []
        marks = []
        for hand in data["log"]:
            result = hand[16]
            total = [0, 0, 0, 0]
            arrays = result[1::2] if result[0] == "和了" else result[1:2]
            for array in arrays:
                total = [total[s] + array[s] for s in range(4)]
            deltas.append(total)
            marks.append(
                {s for s in range(4) if any(isinstance(d, str) and d[0] == "r" for d in hand[6 + 3 * s])}
            )
        return starts, final, deltas, marks
    starts = [[100 * int(v) for v in m.split(",")] for m in re.findall(r'<INIT [^>]*?ten="([^"]+)"', text)]
    owari = re.search(r'owari="([^"]+)"', text)
    assert owari is not None
    final = [100 * int(v) for v in owari.group(1).split(",")[0::2]]
    return starts, final, None, None


@pytest.mark.parametrize("name", JSON_LOGS + XML_LOGS)
def test_replay_gives_the_logs_scores_hand_by_hand(name: str) -> None:
    """Every hand's scores after the replay are the next hand's starting scores in the log; the last
    hand ends at the log's final scores; deltas are the log's deltas, deposits (−1000) included."""
    starts, final, _, _ = log_numbers(name)
    printed = replay_output(convert(name))
    hands = printed["hands"]
    assert len(hands) == len(starts)
    for number, hand in enumerate(hands):
        if number + 1 < len(starts):
            assert hand["scores"] == starts[number + 1], f"hand {number + 1}"
            assert hand["deltas"] == [starts[number + 1][s] - starts[number][s] for s in range(4)]
    assert printed["final"]["scores"] == final
    assert printed["finished"] is True


@pytest.mark.parametrize("name", JSON_LOGS)
def test_replay_gives_the_result_arrays_of_tenhou6(name: str) -> None:
    """tenhou.net/6 result arrays leave the hand's deposits out: replayed deltas are those arrays minus
    1000 for each deposit the record says was paid, and every paid deposit was marked with an ``r``."""
    _, _, deltas, marks = log_numbers(name)
    assert deltas is not None and marks is not None
    record = convert(name)
    played = record.replay()
    for number, (hand, outcome) in enumerate(zip(record.hands, played.hands, strict=True)):
        assert set(hand.riichi) <= marks[number]
        logged = [deltas[number][s] - (1000 if s in hand.riichi else 0) for s in range(4)]
        assert list(outcome.deltas) == logged, f"hand {number + 1}"


def log_points(name: str) -> list[int]:
    """The site's own result of each seat, as the log states it in thousands (``sc``'s or ``owari``'s
    second numbers: Tenhou's −66, Mahjong Soul's −7.3), in points."""
    text = (FIXTURES / name).read_text(encoding="utf-8")
    if name.endswith(".json"):
        points = json.loads(text)["sc"][1::2]
    else:
        owari = re.search(r'owari="([^"]+)"', text)
        assert owari is not None
        points = [float(v) for v in owari.group(1).split(",")[1::2]]
    return [round(p * 1000) for p in points]


@pytest.mark.parametrize("name", JSON_LOGS + XML_LOGS)
def test_replay_gives_the_sites_own_results(name: str) -> None:
    """The converted record's results are the ones the site showed: Tenhou's in whole thousands (its
    score less 30 000 rounded, first place taking the rest: −45.8 − 20 is −66 there), Mahjong Soul's
    exact to one decimal."""
    record = convert(name)
    printed = replay_output(record)["final"]
    assert printed["results"] == log_points(name)
    assert record.rules.round_to_thousands is (record.log.source == "tenhou")
    assert printed["results"] == [
        printed["scores"][s]
        - record.rules.return_points
        + printed["uma"][s]
        + printed["oka"][s]
        + printed.get("rounding", [0] * 4)[s]
        + printed["penalties"][s]
        for s in range(4)
    ]


def test_mjlog_plain_and_gzip_are_the_same_game() -> None:
    assert convert("tenhou-tonpuu-pao.xml", gz=True) == convert("tenhou-tonpuu-pao.xml")


def wins_of(record: GameRecord, hand: int) -> list[dict[str, Any]]:
    return record.to_dict()["hands"][hand - 1].get("wins") or [record.to_dict()["hands"][hand - 1]]


# -- what each fixture holds ------------------------------------------------------------------------------


def test_tenhou_hanchan_every_kind_of_hand_and_tobi() -> None:
    record = convert("tenhou-hanchan-tobi.json")
    data = record.to_dict()
    assert data["rules"] == "tenhou"
    assert data["log"] == {"source": "tenhou", "id": "2023061523gm-0089-0000-1a2b3c4d", "lobby": "0"}
    assert data["players"] == ["Aoi", "ばんび", "Kenta", "雀士X"]
    assert [h.result for h in record.hands] == [DRAW, RON, TSUMO, DRAW, ABORT, RON]
    draw, double, tsumo, nagashi, abort, haneman = record.hands
    assert draw.tenpai == (1, 3) and draw.riichi == (3,)
    # Double ron on seat 0's riichi declaration: seat 0's deposit is not paid, seat 2's is.
    assert double.loser == 0 and double.winners == (2, 3) and double.riichi == (2,)
    first, second = double.wins
    assert (first.han, first.fu, first.dora, first.aka, first.ura) == (3, 40, 1, 0, 0)
    assert first.yaku == (ScoredYaku("riichi", han=1), ScoredYaku("tanyao", han=1))
    assert (second.han, second.fu, second.dora) == (5, None, 2)
    assert second.yaku == (ScoredYaku("honitsu", han=2), ScoredYaku("chun", han=1))
    assert tsumo.winners == (2,) and (tsumo.wins[0].han, tsumo.wins[0].fu, tsumo.wins[0].aka) == (4, 30, 2)
    assert nagashi.nagashi == (1,) and nagashi.tenpai == ()
    assert abort.reason == "nine_terminals"
    assert haneman.loser == 0 and haneman.riichi == (0,) and haneman.wins[0].han == 6
    played = record.replay()
    assert played.finished and min(played.state.scores) < 0  # tobi
    assert [h.round for h in played.hands] == ["E1", "E2", "E3", "E3", "E4", "E4"]


def test_mjlog_tonpuusen_pao_aborts_kazoe() -> None:
    record = convert("tenhou-tonpuu-pao.xml")
    data = record.to_dict()
    assert data["rules"] == {"preset": "tenhou", "length": "tonpuusen"}
    assert data["log"] == {"source": "tenhou", "id": "2023080212gm-00e1-0000-5e6f7a8b", "lobby": "0"}
    assert data["players"] == ["あおい", "Bob", "Cho Li", "Dan"]  # URL-encoded in the log
    pao_ron, four_riichi, triple_ron, four_kans, four_winds, pao_tsumo, kazoe = record.hands
    assert pao_ron.loser == 1 and pao_ron.wins[0].pao == 3 and pao_ron.wins[0].yakuman == 1
    assert pao_ron.wins[0].yaku == (ScoredYaku("daisangen", yakuman=1),)
    assert (four_riichi.reason, four_riichi.riichi) == ("four_riichi", (0, 1, 2, 3))
    assert (triple_ron.reason, triple_ron.riichi) == ("triple_ron", ())  # declared (step 1), never paid
    assert (four_kans.reason, four_winds.reason) == ("four_kans", "four_winds")
    assert pao_tsumo.result == TSUMO and pao_tsumo.wins[0].pao == 2
    win = kazoe.wins[0]
    assert (win.han, win.yakuman, win.dora, win.ura, kazoe.riichi) == (13, None, 3, 1, (3,))
    assert [y.name for y in win.yaku or ()] == ["riichi", "chinitsu", "ittsu"]
    deltas = [h["deltas"] for h in replay_output(record)["hands"]]
    assert deltas[0] == [0, -16000, 32000, -16000]  # pao ron: half each
    assert deltas[5] == [37200, 0, -33200, 0]  # pao tsumo: the liable seat pays all, with 4 honba
    assert deltas[6] == [0, -32000, 0, 32000]  # kazoe yakuman, the winner's own deposit back


def test_mahjongsoul_friendly_room() -> None:
    record = convert("mahjongsoul-friendly-east.json")
    data = record.to_dict()
    assert data["rules"] == {"preset": "mahjongsoul", "length": "tonpuusen"}
    assert data["log"] == {
        "source": "mahjongsoul",
        "id": "240301-0f1e2d3c-4b5a-4697-8877-665544332211",
        "lobby": "512345",
    }
    assert record.hands[1].result == DRAW and record.hands[1].tenpai == ()  # no points moved, dealer passed
    double = record.hands[2]
    assert double.winners == (0, 2) and double.loser == 3
    assert replay_output(record)["hands"][2]["deltas"] == [2900, 0, 12300, -15200]  # honba to each winner
    assert record.hands[4].wins[0].yaku == (ScoredYaku("bakaze_ton", han=1),)  # 役牌:場風牌 in East
    printed = replay_output(record)
    # Mahjong Soul's own results (sc) are return 25 000 and uma +15/+5/-5/-15, in thousands.
    sc = json.loads((FIXTURES / "mahjongsoul-friendly-east.json").read_text(encoding="utf-8"))["sc"]
    assert printed["final"]["results"] == [round(points * 1000) for points in sc[1::2]]


def test_mahjongsoul_double_yakuman_counts_from_the_points() -> None:
    record = convert("mahjongsoul-double-yakuman.json")
    win = record.hands[0].wins[0]
    assert win.yakuman == 2
    assert win.yaku == (ScoredYaku("kokushi_musou_13", yakuman=2),)
    assert record.rules.preset == "mahjongsoul" and record.rules.length == "hanchan"
    assert replay_output(record)["final"]["results"] == [-79000, 79000, 5000, -5000]


def test_tenhou_west_extension() -> None:
    played = convert("tenhou-hanchan-west.json").replay()
    assert [h.round for h in played.hands][-2:] == ["S4", "W1"]
    assert played.finished


def test_tenhou_dealer_tenpai_at_the_top_plays_on() -> None:
    """The East-only game goes on after E4 where the dealer, first with 36 000, was tenpai: the engine's
    agari-yame would end it there, so the record carries the same rules without agari-yame."""
    record = convert("tenhou-tonpuu-tenpai-top.json")
    assert record.to_dict()["rules"] == {"preset": "tenhou", "length": "tonpuusen", "agari_yame": False}
    played = record.replay()
    assert [h.round for h in played.hands] == ["E1", "E2", "E3", "E4", "E4", "E4"]
    assert played.finished and list(played.state.scores) == [27100, 15500, 19900, 37500]


def test_tenhou_agari_yame_ends_an_east_only_game_with_red_fives() -> None:
    """East 4: the dealer's tsumo makes them first with 38 000, and the game ends there."""
    record = convert("tenhou-tonpuu-agari-yame.json")
    assert record.to_dict()["rules"] == {"preset": "tenhou", "length": "tonpuusen"}
    last = record.hands[-1]
    assert last.result == TSUMO and last.winners == (3,) and last.wins[0].aka == 2
    played = record.replay()
    assert played.finished and played.hands[-1].renchan  # ended on a kept deal: agari-yame


def one_hand_log(result: list[Any]) -> bytes:
    """A tenhou.net/6 log of a single hand (East 1, all at 25 000) with ``result``."""
    seat = [[11, 12, 13, 21, 22, 23, 31, 32, 33, 41, 42, 43, 44], [45], [60]]
    hand = [[0, 0, 0], [25000] * 4, [12], [], *seat, *seat, *seat, *seat, result]
    return json.dumps({"name": ["A", "B", "C", "D"], "rule": {"disp": "般南喰赤"}, "log": [hand]}).encode()


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("九種九牌", "nine_terminals"),
        ("四風連打", "four_winds"),
        ("四家立直", "four_riichi"),
        ("四槓散了", "four_kans"),
        ("四開槓", "four_kans"),  # tensoul
        ("三家和了", "triple_ron"),
        ("三家和", "triple_ron"),  # tensoul
    ],
)
def test_every_abortive_draw_of_tenhou6(name: str, reason: str) -> None:
    (record,) = read_log(one_hand_log([name]), name="x.json")
    assert (record.hands[0].result, record.hands[0].reason) == (ABORT, reason)
    assert record.replay().hands[0].deltas == (0, 0, 0, 0)


@pytest.mark.parametrize(("name", "tenpai"), [("全員聴牌", (0, 1, 2, 3)), ("全員不聴", ())])
def test_draws_where_no_points_move_say_who_was_tenpai(name: str, tenpai: tuple[int, ...]) -> None:
    (record,) = read_log(one_hand_log([name]), name="x.json")
    assert (record.hands[0].result, record.hands[0].tenpai) == (DRAW, tenpai)


def test_mjlog_nagashi_with_the_tenpai_hands_shown() -> None:
    """``RYUUKYOKU type="nm"``: the nagashi seats are those paid; the tenpai seats show their hands."""
    xml = (
        '<mjloggm ver="2.3"><GO type="169" lobby="0"/><UN n0="A" n1="B" n2="C" n3="D"/><TAIKYOKU oya="0"/>'
        '<INIT seed="0,0,0,1,1,5" ten="250,250,250,250" oya="0" hai0="1" hai1="2" hai2="3" hai3="4"/>'
        '<RYUUKYOKU type="nm" ba="0,0" sc="250,-40,250,80,250,-20,250,-20" hai0="1,2,3" hai2="4,5,6"/>'
        "</mjloggm>"
    )
    (record,) = read_log(xml.encode(), name="x.mjlog")
    hand = record.hands[0]
    assert (hand.result, hand.nagashi, hand.tenpai) == (DRAW, (1,), (0, 2))
    played = record.replay()
    assert played.hands[0].deltas == (-4000, 8000, -2000, -2000) and played.hands[0].renchan
