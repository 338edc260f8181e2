"""Replay of a game: each hand's payments, renchan, honba, riichi sticks and the end of the game.

This is the one place where a hand's facts become points at the table (docs/rules.md §2–§5). The replay is
deterministic and keeps no hidden state: the same hands under the same ruleset always give the same
scores, which is what lets the Django side store only the facts and re-derive everything else.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from .errors import RecordError, RuleViolation, gettext_noop
from .final import FinalResult, final_result, places
from .hand import ABORT, CHOMBO, DRAW, RON, TSUMO, Hand, nearest_first
from .ruleset import Ruleset
from .value import base_points, check_value, ron_points, tsumo_points

WIND_LETTERS = "ESWN"


def round_name(deal: int) -> str:
    """``E1`` … ``S4`` … ``W4`` from the deal index (0 = East 1)."""
    return f"{WIND_LETTERS[(deal // 4) % 4]}{deal % 4 + 1}"


@dataclass(slots=True)
class TableState:
    """The table between two hands: deal index, honba, riichi sticks on the table and the four scores."""

    scores: list[int]
    deal: int = 0
    honba: int = 0
    sticks: int = 0
    ended: bool = False
    hands_played: int = 0

    @classmethod
    def start(cls, rules: Ruleset) -> TableState:
        return cls(scores=[rules.start_points] * 4)

    @property
    def dealer(self) -> int:
        return self.deal % 4

    @property
    def round(self) -> str:
        return round_name(self.deal)


@dataclass(frozen=True, slots=True)
class HandOutcome:
    """One replayed hand: where it stood before (round, dealer, honba, sticks) and what it moved."""

    number: int
    round: str
    deal: int
    """Index of the deal (0 = East 1): ``round`` as a number, e.g. for the seat winds of this hand."""
    dealer: int
    honba: int
    sticks: int
    result: str
    deltas: tuple[int, int, int, int]
    scores: tuple[int, int, int, int]
    renchan: bool
    penalties: tuple[int, int, int, int] = (0, 0, 0, 0)

    def to_dict(self) -> dict[str, object]:
        return {
            "round": self.round,
            "dealer": self.dealer,
            "honba": self.honba,
            "sticks": self.sticks,
            "result": self.result,
            "deltas": list(self.deltas),
            "scores": list(self.scores),
        }


@dataclass(slots=True)
class Replay:
    """A whole replay: every hand, the table after the last one, and whether the game is over."""

    rules: Ruleset
    hands: list[HandOutcome] = field(default_factory=list)
    state: TableState | None = None
    penalties: list[int] = field(default_factory=lambda: [0, 0, 0, 0])

    @property
    def finished(self) -> bool:
        return bool(self.state and self.state.ended)

    def final(self, extra_penalties: Iterable[int] = (0, 0, 0, 0)) -> FinalResult:
        """The final result from the scores after the last hand (a game may stop early: time limit)."""
        assert self.state is not None
        extra = list(extra_penalties)
        total = [self.penalties[s] + extra[s] for s in range(4)]
        return final_result(self.state.scores, self.state.sticks, total, self.rules)


def _seat(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 3:
        raise RuleViolation(
            gettext_noop("{what} must be a seat from 0 to 3, not {value}"),
            field=what,
            params={"what": what, "value": repr(value)},
        )
    return value


def _seats(values: Iterable[object], what: str) -> tuple[int, ...]:
    seen: list[int] = []
    for value in values:
        seat = _seat(value, what)
        if seat in seen:
            raise RuleViolation(
                gettext_noop("{seat} is listed twice in {what}"),
                field=what,
                code="seat_listed_twice",
                params={"what": what},
                seats={"seat": seat},
            )
        seen.append(seat)
    return tuple(seen)


def _check_hand(hand: Hand, state: TableState, rules: Ruleset) -> None:
    """Everything about a hand that the ruleset or the table forbids, before any point moves."""
    riichi = _seats(hand.riichi, "riichi")
    if not rules.riichi_below_1000:
        for seat in riichi:
            if state.scores[seat] < 1000:
                raise RuleViolation(
                    gettext_noop("{seat} cannot declare riichi with {points} points (fewer than 1000)"),
                    field="riichi",
                    code="riichi_below_1000",
                    params={"points": state.scores[seat]},
                    seats={"seat": seat},
                )
    result = hand.result
    if result in (RON, TSUMO):
        if not hand.wins:
            raise RuleViolation(
                gettext_noop("a ron needs a winner")
                if result == RON
                else gettext_noop("a tsumo needs a winner"),
                field="wins",
            )
        winners = _seats(hand.winners, "winner")
        tsumo = result == TSUMO
        if tsumo:
            if len(winners) != 1:
                raise RuleViolation(gettext_noop("a tsumo has exactly one winner"), field="wins")
        else:
            loser = _seat(hand.loser, "loser")
            if loser in winners:
                raise RuleViolation(
                    gettext_noop("{loser} cannot win on their own discard"),
                    field="loser",
                    code="ron_on_own_discard",
                    seats={"loser": loser},
                )
            if len(winners) > 1 and rules.multiple_ron == "atamahane":
                nearest = nearest_first(loser, winners)[0]
                raise RuleViolation(
                    gettext_noop("only the nearest ron winner wins under atamahane: record {nearest} alone"),
                    field="wins",
                    code="atamahane_nearest_only",
                    seats={"nearest": nearest},
                )
            if len(winners) == 3 and rules.triple_ron == "abort":
                raise RuleViolation(
                    gettext_noop(
                        "a triple ron is an abortive draw under this ruleset: record it as result abort"
                    ),
                    field="wins",
                )
        for win in hand.wins:
            check_value(win.value, tsumo=tsumo, rules=rules)
            if win.pao is not None:
                _seat(win.pao, "pao")
                if not rules.pao_yaku:
                    raise RuleViolation(gettext_noop("this ruleset has no liability (pao)"), field="pao")
                if not win.yakuman:
                    raise RuleViolation(gettext_noop("pao applies only to a yakuman win"), field="pao")
    elif result == DRAW:
        _seats(hand.tenpai, "tenpai")
        if hand.nagashi:
            if not rules.nagashi_mangan:
                raise RuleViolation(
                    gettext_noop("nagashi mangan is not played under this ruleset"), field="nagashi"
                )
            _seats(hand.nagashi, "nagashi")
    elif result == ABORT:
        if not rules.abortive_draws:
            raise RuleViolation(
                gettext_noop("abortive draws are not played under this ruleset"), field="result"
            )
    elif result == CHOMBO:
        if not rules.allows_chombo():
            raise RuleViolation(gettext_noop("a chombo cannot happen under this ruleset"), field="result")
        _seat(hand.seat, "seat")
    else:
        raise RuleViolation(
            gettext_noop("unknown result {result} (ron, tsumo, draw, abort or chombo)"),
            field="result",
            params={"result": repr(result)},
        )


def _pay_ron(hand: Hand, deltas: list[int], honba: int, pot: int, dealer: int, rules: Ruleset) -> None:
    loser = hand.loser
    assert loser is not None
    order = nearest_first(loser, hand.winners)
    nearest = order[0]
    honba_to_each = rules.multiple_ron_honba == "each"
    for win in hand.wins:
        winner = win.winner
        is_dealer = winner == dealer
        points = ron_points(base_points(win.value, rules), dealer=is_dealer)
        bonus = 300 * honba if (honba_to_each or winner == nearest) else 0
        if win.pao is not None and win.pao not in (winner, loser):
            liable = ron_points(8000, dealer=is_dealer) // 2  # half of one yakuman
            deltas[win.pao] -= liable
            deltas[loser] -= points - liable + bonus
        else:
            deltas[loser] -= points + bonus
        deltas[winner] += points + bonus
    if len(order) > 1 and rules.multiple_ron_sticks == "own_back":
        for winner in order[1:]:
            if winner in hand.riichi:
                deltas[winner] += 1000
                pot -= 1000
    deltas[nearest] += pot


def _pay_tsumo(win_hand: Hand, deltas: list[int], honba: int, pot: int, dealer: int, rules: Ruleset) -> None:
    win = win_hand.wins[0]
    winner = win.winner
    is_dealer = winner == dealer
    base = base_points(win.value, rules)
    if win.pao is not None and win.pao != winner:
        # The liable player pays one yakuman as a ron, with the honba; any further yakuman is a tsumo.
        liable = ron_points(8000, dealer=is_dealer) + 300 * honba
        deltas[win.pao] -= liable
        deltas[winner] += liable
        base -= 8000
        honba = 0
    if base > 0:
        dealer_pays, other_pays = tsumo_points(base, dealer=is_dealer)
        for payer in range(4):
            if payer != winner:
                amount = (dealer_pays if payer == dealer else other_pays) + 100 * honba
                deltas[payer] -= amount
                deltas[winner] += amount
    deltas[winner] += pot


def _pay_mangan_tsumo(deltas: list[int], receiver: int, dealer: int, *, sign: int = 1) -> None:
    """A mangan tsumo paid to ``receiver`` (nagashi), or by them when ``sign`` is -1 (reverse mangan)."""
    dealer_pays, other_pays = tsumo_points(2000, dealer=receiver == dealer)
    for other in range(4):
        if other != receiver:
            amount = dealer_pays if other == dealer else other_pays
            deltas[other] -= sign * amount
            deltas[receiver] += sign * amount


def _noten_payments(deltas: list[int], tenpai: tuple[int, ...]) -> None:
    count = len(tenpai)
    if count in (0, 4):
        return
    for seat in range(4):
        deltas[seat] += 3000 // count if seat in tenpai else -(3000 // (4 - count))


def _is_first(seat: int, scores: list[int], rules: Ruleset) -> bool:
    return places(scores, rules.ties)[seat] == 1


def _game_over(state: TableState, deal: int, renchan: bool, kept_by_play: bool, rules: Ruleset) -> bool:
    """docs/rules.md §5: tobi, the last deal, agari-yame and the west extension."""
    scores = state.scores
    if rules.tobi and min(scores) < 0:
        return True
    if deal < rules.last_deal:
        return False
    if renchan:
        dealer = deal % 4
        return (
            rules.agari_yame
            and kept_by_play
            and scores[dealer] >= rules.goal_points
            and _is_first(dealer, scores, rules)
        )
    if not rules.west_extension:
        return True
    return max(scores) >= rules.goal_points or deal >= rules.last_deal + 4


def play_hand(state: TableState, hand: Hand, rules: Ruleset) -> HandOutcome:
    """Apply one hand to the table (mutating ``state``) and return what it did.

    Raises :class:`RuleViolation` if the hand cannot happen; ``state`` is then left unchanged.
    """
    if state.ended:
        raise RuleViolation(
            gettext_noop("the game already ended after hand {number}"),
            field="result",
            params={"number": state.hands_played},
        )
    _check_hand(hand, state, rules)
    dealer = state.deal % 4
    honba = state.honba
    sticks = state.sticks
    deltas = [0, 0, 0, 0]
    for seat in hand.riichi:
        deltas[seat] -= 1000
    deposits = len(hand.riichi)
    pot = (sticks + deposits) * 1000
    penalties = (0, 0, 0, 0)
    result = hand.result

    if result in (RON, TSUMO):
        if result == RON:
            _pay_ron(hand, deltas, honba, pot, dealer, rules)
        else:
            _pay_tsumo(hand, deltas, honba, pot, dealer, rules)
        renchan = dealer in hand.winners
        kept_by_play = renchan
        next_honba = honba + 1 if renchan else 0
        next_sticks = 0
    elif result == DRAW:
        if hand.nagashi:
            for seat in hand.nagashi:
                _pay_mangan_tsumo(deltas, seat, dealer)
        else:
            _noten_payments(deltas, hand.tenpai)
        renchan = kept_by_play = dealer in hand.tenpai
        next_honba = honba + 1
        next_sticks = sticks + deposits
    elif result == ABORT:
        renchan, kept_by_play = True, False
        next_honba = honba + 1 if rules.abortive_draw_honba else honba
        next_sticks = sticks + deposits
    else:  # chombo: the hand is replayed; deposits made this hand come back
        offender = hand.seat
        assert offender is not None
        for seat in hand.riichi:
            deltas[seat] += 1000
        if rules.chombo == "reverse_mangan":
            _pay_mangan_tsumo(deltas, offender, dealer, sign=-1)
        else:
            chombo = [0, 0, 0, 0]
            chombo[offender] = -rules.chombo_points
            penalties = tuple(chombo)  # type: ignore[assignment]
        renchan, kept_by_play = True, False
        next_honba = honba
        next_sticks = sticks

    scores = state.scores
    for seat in range(4):
        scores[seat] += deltas[seat]
    deal = state.deal
    state.hands_played += 1
    outcome = HandOutcome(
        number=state.hands_played,
        round=round_name(deal),
        deal=deal,
        dealer=dealer,
        honba=honba,
        sticks=sticks,
        result=result,
        deltas=tuple(deltas),  # type: ignore[arg-type]
        scores=tuple(scores),  # type: ignore[arg-type]
        renchan=renchan,
        penalties=penalties,  # type: ignore[arg-type]
    )
    state.honba = next_honba
    state.sticks = next_sticks
    if not renchan:
        state.deal = deal + 1
    state.ended = _game_over(state, deal, renchan, kept_by_play, rules)
    return outcome


def replay(hands: Iterable[Hand], rules: Ruleset) -> Replay:
    """Replay hands from the start. Raises :class:`RecordError` naming the 1-based hand that breaks a rule."""
    state = TableState.start(rules)
    out = Replay(rules=rules, state=state)
    penalties = out.penalties
    for number, hand in enumerate(hands, start=1):
        try:
            outcome = play_hand(state, hand, rules)
        except RuleViolation as exc:
            raise RecordError.at_hand(exc, number) from None
        out.hands.append(outcome)
        if outcome.penalties != (0, 0, 0, 0):
            for seat in range(4):
                penalties[seat] += outcome.penalties[seat]
    return out
