"""Random legal games, for property tests, demo data and benchmarks.

Every hand is drawn from the outcomes the ruleset allows and checked by :func:`play_hand` as it is made,
so a generated record is legal by construction and replays to the same end. Pass a seeded
``random.Random`` for reproducible games.
"""

from __future__ import annotations

import random

from .errors import RuleViolation
from .hanchan import TableState, play_hand
from .hand import ABORT_REASONS, Hand, Win
from .record import GameRecord, Penalty
from .ruleset import Ruleset
from .value import VALID_FU, HandValue, check_value

_HAN_WEIGHTS = {1: 22, 2: 24, 3: 20, 4: 12, 5: 8, 6: 5, 7: 3, 8: 2, 9: 1, 10: 1, 11: 1, 12: 1, 13: 1}
_FU_WEIGHTS = {20: 6, 25: 4, 30: 30, 40: 25, 50: 12, 60: 8, 70: 5, 80: 3, 90: 2, 100: 2, 110: 2}


def random_value(rng: random.Random, rules: Ruleset, *, tsumo: bool) -> HandValue:
    """A han/fu pair (or yakuman) that exists for this kind of win."""
    if rng.random() < 0.015:
        multiple = 2 if rules.yakuman_stacking and rng.random() < 0.1 else 1
        return HandValue(yakuman=multiple)
    han = rng.choices(list(_HAN_WEIGHTS), weights=list(_HAN_WEIGHTS.values()))[0]
    if han >= 5:
        return HandValue(han=han)
    while True:
        fu = rng.choices(list(_FU_WEIGHTS), weights=list(_FU_WEIGHTS.values()))[0]
        value = HandValue(han=han, fu=fu)
        try:
            check_value(value, tsumo=tsumo, rules=rules)
        except RuleViolation:
            continue
        assert fu in VALID_FU
        return value


def _win(rng: random.Random, rules: Ruleset, winner: int, *, tsumo: bool) -> Win:
    value = random_value(rng, rules, tsumo=tsumo)
    pao = None
    if value.yakuman and rules.pao_yaku and rng.random() < 0.3:
        pao = rng.choice([s for s in range(4) if s != winner])
    return Win(winner, value.han, value.fu, value.yakuman, pao)


def random_hand(rng: random.Random, state: TableState, rules: Ruleset) -> Hand:
    """One legal hand for the table as it stands."""
    can_riichi = [s for s in range(4) if rules.riichi_below_1000 or state.scores[s] >= 1000]
    riichi = tuple(s for s in can_riichi if rng.random() < 0.18)
    roll = rng.random()
    if rules.abortive_draws and roll < 0.02:
        return Hand.abort(riichi=riichi, reason=rng.choice(ABORT_REASONS[:4]))
    if rules.allows_chombo() and roll < 0.035:
        return Hand.chombo(rng.randrange(4), riichi=riichi)
    if roll < 0.22:
        tenpai = tuple(s for s in range(4) if rng.random() < 0.45)
        nagashi: tuple[int, ...] = ()
        if rules.nagashi_mangan and rng.random() < 0.03:
            nagashi = (rng.randrange(4),)
        return Hand.draw(tenpai, riichi=riichi, nagashi=nagashi)
    if roll < 0.5:
        winner = rng.randrange(4)
        return Hand.tsumo(_win(rng, rules, winner, tsumo=True), riichi=riichi)
    loser = rng.randrange(4)
    others = [s for s in range(4) if s != loser]
    count = 1
    if rules.multiple_ron == "each":
        extra = rng.random()
        if extra < 0.006 and rules.triple_ron == "win":
            count = 3
        elif extra < 0.05:
            count = 2
    winners = rng.sample(others, count)
    return Hand.ron(loser, *(_win(rng, rules, w, tsumo=False) for w in winners), riichi=riichi)


def random_game(
    rules: Ruleset,
    rng: random.Random | None = None,
    *,
    stop_early: float = 0.0,
    penalty_chance: float = 0.0,
    max_hands: int = 200,
    players: tuple[str, ...] | None = None,
) -> GameRecord:
    """A random legal game played to its end, or stopped early (time limit) with probability ``stop_early``
    after any hand; with probability ``penalty_chance`` an extra referee penalty is added."""
    rng = rng or random.Random()
    state = TableState.start(rules)
    hands: list[Hand] = []
    while not state.ended and len(hands) < max_hands:
        hand = random_hand(rng, state, rules)
        play_hand(state, hand, rules)
        hands.append(hand)
        if rng.random() < stop_early:
            break
    penalties: tuple[Penalty, ...] = ()
    if rng.random() < penalty_chance:
        penalties = (
            Penalty(
                seat=rng.randrange(4), points=-rng.choice([1000, 2000, 5000, 10000]), reason="referee penalty"
            ),
        )
    return GameRecord(rules=rules, hands=tuple(hands), players=players, penalties=penalties)
