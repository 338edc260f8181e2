"""Property tests of the engine over random legal games, under every preset.

Hand-written examples only cover the cases someone thought of; these check the invariants of
docs/rules.md and docs/game-record.md (points are conserved, results add up to the penalties, places follow
the scores, replay is deterministic, records survive a write/read cycle, nothing is played after the end)
on thousands of generated games. Games come from the engine's own generator (seed drawn by hypothesis)
and from a hypothesis strategy that builds hands directly, which reaches the rare cases the generator
seldom draws (triple ron, pao on a double yakuman tsumo, several nagashi, reverse-mangan chombo, …).
"""

from __future__ import annotations

import json
import random
from itertools import combinations
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scoring.engine import (
    ABORT,
    CHOMBO,
    DRAW,
    PRESETS,
    RON,
    SETTINGS,
    TSUMO,
    GameRecord,
    Hand,
    Penalty,
    RecordError,
    Ruleset,
    RuleViolation,
    TableState,
    Win,
    load_record,
    make_ruleset,
    play_hand,
    record_from_dict,
    replay_output,
)
from scoring.engine.final import FinalResult
from scoring.engine.generator import random_game
from scoring.engine.ruleset import PAO_YAKU
from scoring.engine.value import VALID_FU

PRESET_NAMES = sorted(PRESETS)
MAX_HANDS = 200  # the generator's default cap on the length of a game

FEW = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SOME = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])

seeds = st.integers(min_value=0, max_value=2**32 - 1)
stop_chances = st.sampled_from([0.0, 0.0, 0.05, 0.2, 0.5])
penalty_chances = st.sampled_from([0.0, 0.5, 1.0])
seats = st.integers(min_value=0, max_value=3)


# -- strategies -------------------------------------------------------------------------------------


def generated_game(preset: str | Ruleset, seed: int, stop_early: float, penalty_chance: float) -> GameRecord:
    """A game from the engine's generator, reproducible from the hypothesis-drawn seed."""
    rules = preset if isinstance(preset, Ruleset) else make_ruleset(preset)
    return random_game(rules, random.Random(seed), stop_early=stop_early, penalty_chance=penalty_chance)


@st.composite
def overrides(draw: st.DrawFn) -> dict[str, Any]:
    """Any combination of the choice and yes/no settings: rulesets the presets never combine."""
    optional: dict[str, st.SearchStrategy[Any]] = {}
    for name, setting in SETTINGS.items():
        if setting.kind is bool:
            optional[name] = st.booleans()
        elif setting.kind is str:
            optional[name] = st.sampled_from(setting.choices)
    optional["pao_yaku"] = st.lists(st.sampled_from(PAO_YAKU), unique=True)
    return draw(st.fixed_dictionaries({}, optional=optional))


@st.composite
def rulesets(draw: st.DrawFn) -> Ruleset:
    """A preset with random overrides."""
    return make_ruleset(draw(st.sampled_from(PRESET_NAMES)), draw(overrides()))


@st.composite
def wins(draw: st.DrawFn, winner: int) -> Win:
    """A win of any value, legal or not for the kind of win: ``play_hand`` sorts them out."""
    pao = draw(st.none() | seats)
    kind = draw(st.sampled_from(["low", "limit", "yakuman"]))
    if kind == "yakuman":
        return Win(winner, yakuman=draw(st.integers(1, 3)), pao=pao)
    if kind == "limit":
        return Win(winner, han=draw(st.integers(5, 14)), pao=pao)
    return Win(winner, han=draw(st.integers(1, 4)), fu=draw(st.sampled_from(sorted(VALID_FU))), pao=pao)


@st.composite
def hands(draw: st.DrawFn) -> Hand:
    """One hand of any kind; some are illegal under a given ruleset or table and get skipped."""
    riichi = tuple(draw(st.lists(seats, unique=True, max_size=4)))
    kind = draw(st.sampled_from([RON, RON, RON, TSUMO, TSUMO, DRAW, DRAW, ABORT, CHOMBO]))
    if kind == RON:
        loser = draw(seats)
        winners = draw(st.lists(seats.filter(lambda s: s != loser), min_size=1, max_size=3, unique=True))
        return Hand.ron(loser, *(draw(wins(w)) for w in winners), riichi=riichi)
    if kind == TSUMO:
        return Hand.tsumo(draw(wins(draw(seats))), riichi=riichi)
    if kind == DRAW:
        tenpai = tuple(draw(st.lists(seats, unique=True, max_size=4)))
        nagashi = tuple(draw(st.lists(seats, unique=True, max_size=2))) if draw(st.booleans()) else ()
        return Hand.draw(tenpai, riichi=riichi, nagashi=nagashi)
    if kind == ABORT:
        return Hand.abort(riichi=riichi)
    return Hand.chombo(draw(seats), riichi=riichi)


def legal_prefix(rules: Ruleset, candidates: list[Hand]) -> tuple[Hand, ...]:
    """The candidates the table accepts, in order, until the game ends (a rejected hand moves nothing)."""
    state = TableState.start(rules)
    kept: list[Hand] = []
    for hand in candidates:
        if state.ended:
            break
        try:
            play_hand(state, hand, rules)
        except RuleViolation:
            continue
        kept.append(hand)
    return tuple(kept)


@st.composite
def built_games(draw: st.DrawFn) -> GameRecord:
    """A legal game assembled hand by hand from the ``hands`` strategy, under a random ruleset."""
    rules = draw(rulesets())
    kept = legal_prefix(rules, draw(st.lists(hands(), max_size=40)))
    penalties: tuple[Penalty, ...] = ()
    if draw(st.booleans()):
        seat, points = draw(seats), draw(st.integers(1, 100).map(lambda k: -100 * k))
        penalties = (Penalty(seat=seat, points=points, reason="referee penalty"),)
    return GameRecord(rules=rules, hands=kept, penalties=penalties)


# -- invariants -------------------------------------------------------------------------------------


def expected_lost(rules: Ruleset, scores: tuple[int, ...] | list[int], sticks: int) -> int:
    """Points of leftover sticks nobody receives (docs/rules.md §6.1): all of them where sticks are lost;
    otherwise only the remainder of a split between tied leaders (shares rounded down to 100)."""
    pot = 1000 * sticks
    if pot == 0:
        return 0
    if rules.leftover_sticks == "lost":
        return pot
    leaders = [s for s in range(4) if scores[s] == max(scores)]
    if rules.ties == "seat_order" or len(leaders) == 1:
        return 0
    share = pot // len(leaders) // 100 * 100
    return pot - share * len(leaders)


def expected_penalties(record: GameRecord) -> list[int]:
    """Chombo deductions derived from the chombo hands plus the record's penalties (docs/game-record.md)."""
    total = list(record.penalty_points())
    if record.rules.chombo == "deduction":
        for hand in record.hands:
            if hand.result == CHOMBO:
                assert hand.seat is not None
                total[hand.seat] -= record.rules.chombo_points
    return total


def check_table(record: GameRecord) -> None:
    """Per hand: deltas add up to the scores; scores + sticks on the table = 4 × start; round/dealer agree."""
    rules = record.rules
    played = record.replay()
    assert played.state is not None
    outcomes = played.hands
    assert len(outcomes) == len(record.hands)
    previous = (rules.start_points,) * 4
    for index, out in enumerate(outcomes):
        sticks_after = outcomes[index + 1].sticks if index + 1 < len(outcomes) else played.state.sticks
        assert sum(out.scores) + 1000 * sticks_after == 4 * rules.start_points, (index, out)
        assert tuple(p + d for p, d in zip(previous, out.deltas, strict=True)) == out.scores
        assert out.round[0] in "ESW" and out.dealer == int(out.round[1]) - 1
        assert out.honba >= 0 and out.sticks >= 0
        previous = out.scores
    if outcomes:
        first = outcomes[0]
        assert (first.round, first.dealer, first.honba, first.sticks) == ("E1", 0, 0, 0)
        assert played.state.scores == list(outcomes[-1].scores)


def check_final(record: GameRecord) -> None:
    """Final scores, places, uma, oka, penalties and results as docs/rules.md §6 defines them."""
    rules = record.rules
    played = record.replay()
    assert played.state is not None
    final = played.final(record.penalty_points())
    before, sticks = played.state.scores, played.state.sticks
    lost = expected_lost(rules, before, sticks)
    penalties = expected_penalties(record)

    assert list(final.penalties) == penalties
    assert sum(final.scores) == 4 * rules.start_points - lost
    assert sum(final.results) == sum(penalties) - lost
    if lost == 0:
        assert sum(final.results) == sum(penalties)
    # the sticks go to the leader(s) before placement, and nowhere else
    gained = [f - b for f, b in zip(final.scores, before, strict=True)]
    assert all(g >= 0 for g in gained)
    assert sum(gained) == 1000 * sticks - lost
    assert all(g == 0 or before[s] == max(before) for s, g in enumerate(gained))

    pl = final.places
    assert all(1 <= p <= 4 for p in pl)
    assert min(pl) == 1
    for a, b in combinations(range(4), 2):
        if final.scores[a] > final.scores[b]:
            assert pl[a] < pl[b]
        elif final.scores[a] < final.scores[b]:
            assert pl[a] > pl[b]
        elif rules.ties == "split":
            assert pl[a] == pl[b]
        else:
            assert pl[a] < pl[b]  # seat order: the earlier seat places higher
    if rules.ties == "split":
        assert list(pl) == [1 + sum(o > s for o in final.scores) for s in final.scores]
    else:
        assert sorted(pl) == [1, 2, 3, 4]

    assert sum(final.uma) == sum(rules.uma) == 0
    assert sum(final.oka) == rules.oka
    for seat in range(4):
        tied = [s for s in range(4) if pl[s] == pl[seat]]
        occupied = sum(rules.uma[pl[seat] - 1 + i] for i in range(len(tied)))
        assert abs(final.uma[seat] * len(tied) - occupied) < 100 * len(tied)  # the average, to 100
        if pl[seat] != 1:
            assert final.oka[seat] == 0
        expected = final.scores[seat] - rules.return_points + final.uma[seat] + final.oka[seat]
        assert final.results[seat] == expected + final.rounding[seat] + penalties[seat]
    check_rounding(final, rules)


def check_rounding(final: FinalResult, rules: Ruleset) -> None:
    """Rounding to thousands (Tenhou's points): every seat but first place rounded to the nearest
    thousand, halves upwards; first place takes the rest, so the rounding sums to 0. Off, it moves
    nothing and ``replay`` does not write it."""
    assert sum(final.rounding) == 0
    if not rules.round_to_thousands:
        assert final.rounding == (0, 0, 0, 0)
        assert "rounding" not in final.to_dict()
        return
    for seat in range(4):
        if final.places[seat] != 1:
            before = final.scores[seat] - rules.return_points
            after = before + final.rounding[seat]
            assert after % 1000 == 0
            assert -500 < final.rounding[seat] <= 500  # the nearest thousand, a half upwards
            assert final.results[seat] - final.penalties[seat] == after + final.uma[seat]


def check_round_trip(record: GameRecord) -> None:
    """Written as JSON and read back, a record is identical and replays identically."""
    written = record.to_dict()
    data = json.loads(json.dumps(written))
    back = record_from_dict(data)
    assert back == record
    assert back.to_dict() == written
    assert load_record(json.dumps(written)) == record
    assert json.dumps(replay_output(back)) == json.dumps(replay_output(record))


# -- properties over generated games ------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESET_NAMES)
@FEW
@given(seed=seeds, stop_early=stop_chances, penalty_chance=penalty_chances)
def test_points_are_conserved_after_every_hand(
    preset: str, seed: int, stop_early: float, penalty_chance: float
) -> None:
    """Nothing is created or lost at the table: scores plus the sticks on it always make 4 × start."""
    check_table(generated_game(preset, seed, stop_early, penalty_chance))


@pytest.mark.parametrize("preset", PRESET_NAMES)
@FEW
@given(seed=seeds, stop_early=stop_chances, penalty_chance=penalty_chances)
def test_final_result_adds_up(preset: str, seed: int, stop_early: float, penalty_chance: float) -> None:
    """Results sum to the penalties (less lost sticks); places, uma and oka follow docs/rules.md §6."""
    check_final(generated_game(preset, seed, stop_early, penalty_chance))


@pytest.mark.parametrize("preset", [p for p in PRESET_NAMES if PRESETS[p]["leftover_sticks"] == "first"])
@FEW
@given(seed=seeds, stop_early=stop_chances, penalty_chance=penalty_chances)
def test_results_sum_exactly_to_penalties_when_sticks_go_to_a_single_leader(
    preset: str, seed: int, stop_early: float, penalty_chance: float
) -> None:
    """With one leader taking the leftover sticks, final scores are exactly 4 × start and results sum
    exactly to chombo deductions plus record penalties (the EMA reconciliation of docs/rules.md §9.3)."""
    record = generated_game(preset, seed, stop_early, penalty_chance)
    played = record.replay()
    assert played.state is not None
    scores = played.state.scores
    assume(record.rules.ties == "seat_order" or scores.count(max(scores)) == 1)
    final = played.final(record.penalty_points())
    assert sum(final.scores) == 4 * record.rules.start_points
    assert sum(final.results) == sum(expected_penalties(record))


@pytest.mark.parametrize("preset", PRESET_NAMES)
@FEW
@given(seed=seeds, stop_early=stop_chances, penalty_chance=penalty_chances)
def test_rounding_to_thousands_moves_results_only_where_it_is_on(
    preset: str, seed: int, stop_early: float, penalty_chance: float
) -> None:
    """The same game under the preset with rounding off and on: off, the results are the exact points
    (scores − return + uma + oka + penalties, as every preset but tenhou plays); on, each result moves
    by less than a thousand except first place's, and the four still sum to exactly the same total."""
    record = generated_game(preset, seed, stop_early, penalty_chance)
    penalties = record.penalty_points()
    played = {
        on: GameRecord(
            rules=make_ruleset(preset, {"round_to_thousands": on}),
            hands=record.hands,
            penalties=record.penalties,
        )
        .replay()
        .final(penalties)
        for on in (False, True)
    }
    exact, rounded = played[False], played[True]
    rules = make_ruleset(preset, {"round_to_thousands": False})
    assert exact.results == tuple(
        exact.scores[s] - rules.return_points + exact.uma[s] + exact.oka[s] + exact.penalties[s]
        for s in range(4)
    )
    assert (exact.scores, exact.places, exact.uma, exact.oka, exact.penalties) == (
        rounded.scores,
        rounded.places,
        rounded.uma,
        rounded.oka,
        rounded.penalties,
    )
    assert sum(rounded.results) == sum(exact.results)
    for seat in range(4):
        if rounded.places[seat] != 1:
            assert abs(rounded.results[seat] - exact.results[seat]) <= 500
    check_rounding(rounded, make_ruleset(preset, {"round_to_thousands": True}))
    if PRESETS[preset]["round_to_thousands"] is False:
        assert record.replay().final(penalties) == exact  # the preset itself keeps exact points


@FEW
@given(seed=seeds, stop_early=stop_chances, penalty_chance=penalty_chances)
def test_wrc_leftover_sticks_are_lost(seed: int, stop_early: float, penalty_chance: float) -> None:
    """Under wrc2022 the sticks left on the table leave the game: scores and results are short by them."""
    record = generated_game("wrc2022", seed, stop_early, penalty_chance)
    played = record.replay()
    assert played.state is not None
    final = played.final(record.penalty_points())
    lost = 1000 * played.state.sticks
    assert list(final.scores) == played.state.scores
    assert sum(final.scores) == 4 * record.rules.start_points - lost
    assert sum(final.results) == sum(expected_penalties(record)) - lost


@pytest.mark.parametrize("preset", PRESET_NAMES)
@FEW
@given(seed=seeds, stop_early=stop_chances, penalty_chance=penalty_chances)
def test_replay_is_deterministic(preset: str, seed: int, stop_early: float, penalty_chance: float) -> None:
    """The Django side stores only facts and re-derives scores, so two replays must be equal."""
    record = generated_game(preset, seed, stop_early, penalty_chance)
    assert record.replay() == record.replay()
    assert replay_output(record) == replay_output(record)
    assert generated_game(preset, seed, stop_early, penalty_chance) == record  # the generator too


@pytest.mark.parametrize("preset", PRESET_NAMES)
@FEW
@given(seed=seeds, stop_early=stop_chances, penalty_chance=penalty_chances)
def test_record_round_trips_through_json(
    preset: str, seed: int, stop_early: float, penalty_chance: float
) -> None:
    """Import/export must not change a game: to_dict → JSON → record_from_dict gives the same record."""
    check_round_trip(generated_game(preset, seed, stop_early, penalty_chance))


def further_hand(kind: str, seat: int) -> dict[str, Any]:
    """A hand that any ruleset accepts at any table, as record JSON (no riichi: a seat may be below 1000)."""
    other = (seat + 1) % 4
    if kind == "draw":
        return {"result": "draw", "tenpai": [seat]}
    if kind == "tsumo":
        return {"result": "tsumo", "winner": seat, "han": 3, "fu": 30}
    return {"result": "ron", "loser": other, "wins": [{"winner": seat, "han": 2, "fu": 30}]}


@pytest.mark.parametrize("preset", PRESET_NAMES)
@FEW
@given(seed=seeds, kind=st.sampled_from(["draw", "tsumo", "ron"]), seat=seats)
def test_game_played_to_its_end_is_finished_and_closed(preset: str, seed: int, kind: str, seat: int) -> None:
    """A finished game accepts no further hand (docs/game-record.md §2: such a record is invalid)."""
    record = generated_game(preset, seed, 0.0, 0.0)
    assume(len(record.hands) < MAX_HANDS)  # the generator's cap, not the end of the game
    assert record.replay().finished
    assert replay_output(record)["finished"] is True
    # no proper prefix is finished, or the generator would have stopped there
    assert not GameRecord(rules=record.rules, hands=record.hands[:-1]).replay().finished

    data = record.to_dict()
    data["hands"].append(further_hand(kind, seat))
    with pytest.raises(RecordError) as caught:
        record_from_dict(data)
    assert caught.value.hand == len(record.hands) + 1
    assert str(caught.value).startswith(f"hand {len(record.hands) + 1}: ")
    assert "ended" in str(caught.value)


@pytest.mark.parametrize("preset", PRESET_NAMES)
@FEW
@given(seed=seeds, kind=st.sampled_from(["draw", "tsumo", "ron"]), seat=seats)
def test_game_stopped_early_accepts_another_hand(preset: str, seed: int, kind: str, seat: int) -> None:
    """A record may stop before the end (time limit); it is then not finished and could go on."""
    record = generated_game(preset, seed, 0.3, 0.0)
    assume(not record.replay().finished)
    data = record.to_dict()
    data["hands"].append(further_hand(kind, seat))
    longer = record_from_dict(data)
    assert len(longer.replay().hands) == len(record.hands) + 1


# -- properties over games built hand by hand ----------------------------------------------------------


@SOME
@given(record=built_games())
def test_built_games_keep_every_invariant(record: GameRecord) -> None:
    """Rare outcomes under unusual rule combinations keep the same invariants as generated games."""
    check_table(record)
    check_final(record)
    assert record.replay() == record.replay()
    check_round_trip(record)


@SOME
@given(rules=rulesets(), candidates=st.lists(hands(), min_size=1, max_size=30))
def test_rejected_hand_changes_nothing(rules: Ruleset, candidates: list[Hand]) -> None:
    """A hand the rules reject leaves the table as it was, so an entry form can show the error and retry."""
    state = TableState.start(rules)
    for hand in candidates:
        if state.ended:
            break
        before = (list(state.scores), state.deal, state.honba, state.sticks, state.hands_played)
        try:
            play_hand(state, hand, rules)
        except RuleViolation:
            assert (state.scores, state.deal, state.honba, state.sticks, state.hands_played) == before
