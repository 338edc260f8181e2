"""Round trip: a generated game → a log (tenhou.net/6 JSON or mjlog, as ``writers`` writes them) →
``convert_log`` → ``replay`` gives the same hands, deltas and final scores.

The engine's generator draws every outcome its rules allow (wins of every value, double ron, pao,
nagashi, abortive draws, riichi deposits, tobi, west extensions); the writers add what a parser must
settle on its own (a riichi declared on the discard that was ronned, draws that move no points). A
difference anywhere — a misread value, a deposit counted twice, a renchan the log did not play — shows as
a different delta or final score.
"""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.engine import GameRecord, make_ruleset, replay_output
from scoring.engine.generator import random_game
from scoring.engine.logs import read_log
from tests.scoring.commands import run

from .writers import mjlog_xml, tenhou6_log, written_hands

FORMATS = ["tenhou6", "mjlog", "mjlog.gz"]


def generated(seed: int, preset: str, east: bool, stop_early: float) -> GameRecord:
    rules = make_ruleset(preset, {"length": "tonpuusen"} if east else None)
    return random_game(
        rules, random.Random(seed), stop_early=stop_early, players=("Ann", "Bob", "Cho", "Dan")
    )


def log_bytes(game: GameRecord, fmt: str, seed: int) -> bytes:
    rng = random.Random(seed ^ 0x5EED)
    if fmt == "tenhou6":
        return json.dumps(tenhou6_log(game, rng, source=game.rules.preset), ensure_ascii=False).encode(
            "utf-8"
        )
    xml = mjlog_xml(game, rng).encode("utf-8")
    return gzip.compress(xml) if fmt.endswith(".gz") else xml


def same_game(original: GameRecord, converted: GameRecord) -> None:
    before, after = replay_output(original), replay_output(converted)
    table = ("round", "dealer", "honba", "sticks", "result", "deltas", "scores")
    assert [[h[k] for k in table] for h in after["hands"]] == [[h[k] for k in table] for h in before["hands"]]
    assert after["final"]["scores"] == before["final"]["scores"]
    assert after["final"]["results"] == before["final"]["results"]
    if before["finished"]:
        assert after["finished"]
    for hand, twin in zip(original.hands, converted.hands, strict=True):
        assert (twin.result, twin.loser, twin.winners, twin.riichi) == (
            hand.result,
            hand.loser,
            hand.winners,
            hand.riichi,
        )
        for win, copy in zip(hand.wins, twin.wins, strict=True):
            assert (copy.yakuman, copy.pao) == (win.yakuman, win.pao)
            assert copy.han == win.han
            if win.han is not None and win.han <= 4 and copy.fu != win.fu:
                assert copy.fu in (40, 70)  # a 3- or 4-han mangan: tenhou.net/6 gives no fu


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    preset=st.sampled_from(["tenhou", "mahjongsoul"]),
    east=st.booleans(),
    fmt=st.sampled_from(FORMATS),
    stop_early=st.sampled_from([0.0, 0.0, 0.04]),
)
def test_generated_games_survive_a_log_round_trip(
    seed: int, preset: str, east: bool, fmt: str, stop_early: float
) -> None:
    if preset == "mahjongsoul":
        fmt = "tenhou6"  # Mahjong Soul games reach Tenbou through tensoul's tenhou.net/6 JSON only
    game = generated(seed, preset, east, stop_early)
    records = read_log(log_bytes(game, fmt, seed), name="2024010112gm-00a9-0000-0badf00d.mjlog")
    assert len(records) == 1
    converted = records[0]
    same_game(game, converted)
    assert converted.log is not None and converted.log.source == preset
    assert converted.players == game.players
    assert converted.rules.preset == preset and converted.rules.length == game.rules.length


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), fmt=st.sampled_from(FORMATS))
def test_yaku_and_dora_are_read_back(seed: int, fmt: str) -> None:
    """What the log says a win was made of — yaku with their han, dora, red fives, ura — is in the record."""
    game = generated(seed, "tenhou", False, 0.0)
    written = written_hands(game, random.Random(seed ^ 0x5EED))  # the writer's first draws: the same
    converted = read_log(log_bytes(game, fmt, seed), name="x.mjlog")[0]
    for hand, twin in zip(written, converted.hands, strict=True):
        for w, win in zip(hand.wins, twin.wins, strict=True):
            assert win.yaku == w.expected_yaku
            if not w.win.yakuman:
                assert (win.dora, win.aka, win.ura) == (w.counts["dora"], w.counts["aka"], w.counts["ura"])


@pytest.mark.parametrize(
    ("seed", "preset", "fmt"),
    [
        (1, "tenhou", "tenhou6"),
        (2, "tenhou", "mjlog.gz"),
        (3, "mahjongsoul", "tenhou6"),
        (4, "tenhou", "mjlog"),
    ],
)
def test_convert_log_then_replay_commands(tmp_path: Path, seed: int, preset: str, fmt: str) -> None:
    """The whole path as a script runs it: ``convert_log FILE > record.json``, ``replay record.json``."""
    game = generated(seed, preset, seed % 2 == 0, 0.0)
    path = tmp_path / ("log.json" if fmt == "tenhou6" else "2024010112gm-00a9-0000-0badf00d.mjlog")
    path.write_bytes(log_bytes(game, fmt, seed))
    code, out, err = run("convert_log", str(path))
    assert (code, err) == (0, "")
    record_path = tmp_path / "record.json"
    record_path.write_text(out, encoding="utf-8")
    code, out, err = run("replay", str(record_path))
    assert (code, err) == (0, "")
    printed = json.loads(out)
    expected = replay_output(game)
    assert [h["deltas"] for h in printed["hands"]] == [h["deltas"] for h in expected["hands"]]
    assert printed["final"] == expected["final"]


def test_the_generated_logs_hold_every_case_the_round_trip_is_about() -> None:
    """Guard against a vacuous property: over a fixed set of games the writers produce every case."""
    seen: set[str] = set()
    for seed in range(200):
        game = generated(seed, "tenhou" if seed % 3 else "mahjongsoul", seed % 2 == 0, 0.0)
        for w in written_hands(game, random.Random(seed ^ 0x5EED)):
            hand = w.hand
            seen.add(hand.result if hand.result != "abort" else f"abort:{hand.reason}")
            seen |= {"double ron"} if len(hand.wins) > 1 else set()
            seen |= {"pao"} if any(win.pao is not None for win in hand.wins) else set()
            seen |= {"nagashi"} if hand.nagashi else set()
            seen |= {"unpaid riichi"} if w.unpaid_riichi is not None else set()
            seen |= {"paid riichi"} if hand.riichi else set()
            seen |= {"zero draw"} if hand.result == "draw" and not any(w.deltas) else set()
            seen |= {"kazoe"} if any((win.han or 0) >= 13 for win in hand.wins) else set()
            seen |= {"yakuman"} if any(win.yakuman for win in hand.wins) else set()
        played = game.replay()
        seen |= {"tobi"} if min(played.state.scores) < 0 else set()
        seen |= {"extension"} if played.hands[-1].deal > game.rules.last_deal else set()
    expected = {"ron", "tsumo", "draw", "double ron", "pao", "nagashi", "unpaid riichi", "paid riichi"}
    expected |= {"zero draw", "kazoe", "yakuman", "tobi", "extension"}
    expected |= {f"abort:{r}" for r in ("nine_terminals", "four_winds", "four_riichi", "four_kans")}
    assert expected <= seen, expected - seen
