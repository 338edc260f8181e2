"""A game as an online log tells it, and its conversion into a game record that replays to the same points.

Both parsers fill the plain types below with what the log states, hand by hand: the table before the hand
(round, honba, sticks, scores), the outcome, the deposits, the log's own score changes. ``to_record``
builds the engine's hands from them and replays them under the lobby's rules, comparing every hand with
the log: the round, honba and sticks the engine derives, the scores, each seat's change, the final scores.
A log the engine reads differently is refused with the hand and the difference, never converted into a
record that would replay to other points than the game that was played.

Some facts are not in every log. tenhou.net/6 JSON does not say who was tenpai at a draw where no points
moved (everyone, or no one?), nor whether a riichi declared on the discard that ended the hand was paid;
the next hand does (the dealer kept the deal, the scores and the sticks on the table), so those facts are
settled from it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import EngineError, Phrase, RuleViolation, gettext_noop, ngettext_lazy
from ..final import final_result
from ..hanchan import TableState, play_hand, round_name
from ..hand import ABORT, DRAW, RON, TSUMO, Hand, Win
from ..record import GameRecord, LogInfo, record_from_dict
from ..ruleset import Ruleset, ruleset_from_spec
from .errors import LogError

ALL_OR_NONE = "all_or_none"
"""Tenpai unknown at a draw that moved no points: all four were tenpai, or none."""
DEALER_ONLY = "dealer_only"
"""Tenpai unknown at a nagashi mangan (it replaces the tenpai payments): only the dealer's matters."""


@dataclass
class LogHand:
    """One hand as the log states it. ``deltas`` are the log's score changes *without* the riichi
    deposits made in the hand (both formats show deposits apart), sticks received included."""

    number: int
    kyoku: int
    honba: int
    sticks: int
    start: tuple[int, int, int, int]
    result: str
    wins: list[Win] = field(default_factory=list)
    loser: int | None = None
    riichi: set[int] = field(default_factory=set)
    riichi_known: bool = True
    """False when the deposits were read from the riichi marks of the discards (tenhou.net/6)."""
    tenpai: tuple[int, ...] | None = ()
    tenpai_unknown: str | None = None
    nagashi: tuple[int, ...] = ()
    reason: str | None = None
    deltas: tuple[int, int, int, int] | None = None

    @property
    def dealer(self) -> int:
        return self.kyoku % 4

    def to_hand(self) -> Hand:
        riichi = tuple(sorted(self.riichi))
        if self.result == RON:
            return Hand(RON, wins=tuple(self.wins), loser=self.loser, riichi=riichi)
        if self.result == TSUMO:
            return Hand(TSUMO, wins=tuple(self.wins), riichi=riichi)
        if self.result == DRAW:
            return Hand(DRAW, tenpai=tuple(sorted(self.tenpai or ())), nagashi=self.nagashi, riichi=riichi)
        return Hand(ABORT, riichi=riichi, reason=self.reason)


@dataclass
class LogGame:
    """One game of a log: where it comes from, the rules its lobby played, names, hands, final scores."""

    source: str
    rules: dict[str, Any]
    names: tuple[str, str, str, str]
    hands: list[LogHand]
    log_id: str | None = None
    lobby: str | None = None
    final_scores: tuple[int, int, int, int] | None = None


def to_record(game: LogGame, *, check: bool = True) -> GameRecord:
    """The game record of ``game``; with ``check``, verified hand by hand against the log.

    Raises :class:`LogError` naming the hand when the log is inconsistent, or when the engine's rules
    give other points than the log shows (a rule the engine cannot express).
    """
    if not game.hands:
        raise LogError(gettext_noop("the log holds no hand"))
    _settle(game.hands)
    last = game.hands[-1]
    readings = _last_hand_readings(last)
    candidates = [dict(game.rules)]
    error: LogError | None = None
    verified: GameRecord | None = None
    for rules in candidates:  # grows by one when the log needs the rules without agari-yame
        for tenpai in readings:
            last.tenpai = tenpai
            try:
                record = _build(game, rules)
                if not check or _verify(game, record.rules):
                    return record
                verified = verified or record  # valid, but the engine would play on: try the other reading
            except _EndedEarly as ended:
                if ended.by_agari_yame and len(candidates) == 1:
                    # The lobby played on where the engine's agari-yame ends the game (the dealer kept
                    # the deal, say by tenpai: whether Tenhou ends a game there is unverified). The same
                    # rules without agari-yame express it: hands, deltas and final scores stay the log's.
                    candidates.append({**rules, "agari_yame": False})
                error = error or ended.error
            except LogError as exc:
                error = error or exc
        if verified is not None:
            return verified
    assert error is not None
    raise error


def _settle(hands: list[LogHand]) -> None:
    """Settle what a hand's log leaves open from the hand after it (see the module's docstring)."""
    for hand, after in zip(hands, hands[1:], strict=False):
        if hand.tenpai_unknown is not None:
            kept = after.kyoku == hand.kyoku
            hand.tenpai = _tenpai_reading(hand, kept)
            hand.tenpai_unknown = None
        if not hand.riichi_known and hand.deltas is not None:
            paid = [hand.start[s] + hand.deltas[s] - after.start[s] for s in range(4)]
            if all(p in (0, 1000) for p in paid):
                seats = {s for s in range(4) if paid[s] == 1000}
                if seats <= hand.riichi:
                    hand.riichi = seats
            hand.riichi_known = True


def _tenpai_reading(hand: LogHand, dealer_kept: bool) -> tuple[int, ...]:
    if hand.tenpai_unknown == ALL_OR_NONE:
        return (0, 1, 2, 3) if dealer_kept else ()
    return (hand.dealer,) if dealer_kept else ()


def _last_hand_readings(last: LogHand) -> list[tuple[int, ...] | None]:
    """The readings of the last hand's tenpai to try: the log's own, or both when it is unknown (no next
    hand tells whether the dealer kept the deal)."""
    if last.tenpai_unknown is None:
        return [last.tenpai]
    readings: list[tuple[int, ...] | None] = [_tenpai_reading(last, kept) for kept in (False, True)]
    last.tenpai_unknown = None
    return readings


def _build(game: LogGame, rules: dict[str, Any]) -> GameRecord:
    """The record, through the record reader, so that it holds to every limit of the format."""
    try:
        ruleset = ruleset_from_spec(rules)
        record = GameRecord(
            rules=ruleset,
            hands=tuple(hand.to_hand() for hand in game.hands),
            players=game.names,
            log=LogInfo(source=game.source, id=game.log_id, lobby=game.lobby),
        )
        data = record.to_dict()
    except EngineError as exc:
        raise LogError.from_error(exc) from None
    try:
        return record_from_dict(data)
    except EngineError as exc:
        hand = getattr(exc, "hand", None)
        if hand is not None and hand > 1 and _ended_before(game, ruleset, hand):
            raise _EndedEarly(game, ruleset, hand) from None
        raise LogError.from_error(exc) from None


class _EndedEarly(Exception):
    """The log goes on after the hand where the engine's rules end the game."""

    def __init__(self, game: LogGame, rules: Ruleset, number: int) -> None:
        super().__init__(number)
        previous = game.hands[number - 2]
        self.by_agari_yame = rules.agari_yame and previous.kyoku >= rules.last_deal and _dealer_kept(previous)
        self.error = LogError(
            gettext_noop(
                "the log goes on after hand {number}, where the game ends under the rules ({preset}) by "
                "agari-yame (the dealer kept the deal in the last round, first with the goal points): the "
                "engine cannot express this game"
            )
            if self.by_agari_yame
            else gettext_noop(
                "the log goes on after hand {number}, where the game ends under the rules ({preset}) by "
                "the rules' end of the game (tobi, the last round or the extension): the engine cannot "
                "express this game"
            ),
            hand=number,
            params={"number": number - 1, "preset": rules.preset},
        )


def _dealer_kept(hand: LogHand) -> bool:
    if hand.result in (RON, TSUMO):
        return any(w.winner == hand.dealer for w in hand.wins)
    if hand.result == DRAW:
        return hand.dealer in (hand.tenpai or ())
    return False


def _ended_before(game: LogGame, rules: Ruleset, number: int) -> bool:
    """Whether the engine ends the game before hand ``number`` (so that replaying it is refused)."""
    state = TableState.start(rules)
    for hand in game.hands[: number - 1]:
        try:
            play_hand(state, hand.to_hand(), rules)
        except RuleViolation:
            return False
    return state.ended


def _verify(game: LogGame, rules: Ruleset) -> bool:
    """Replay the log's hands and compare each with the log; whether the engine ends the game."""
    state = TableState.start(rules)
    for log_hand in game.hands:
        n = log_hand.number
        expected = (log_hand.kyoku, log_hand.honba, log_hand.sticks)
        if (state.deal, state.honba, state.sticks) != expected:
            raise LogError(
                gettext_noop("the log plays {logged}, but under the rules ({preset}) the hand is {replayed}"),
                hand=n,
                params={
                    "logged": _where(*expected),
                    "preset": rules.preset,
                    "replayed": _where(state.deal, state.honba, state.sticks),
                },
            )
        if tuple(state.scores) != log_hand.start:
            raise LogError(
                gettext_noop(
                    "the log starts the hand at {logged}, but under the rules ({preset}) the scores are "
                    "{replayed}"
                ),
                hand=n,
                params={
                    "logged": str(list(log_hand.start)),
                    "preset": rules.preset,
                    "replayed": str(state.scores),
                },
            )
        outcome = play_hand(state, log_hand.to_hand(), rules)  # legal: the record reader replayed it
        if log_hand.deltas is not None:
            logged = [log_hand.deltas[s] - (1000 if s in log_hand.riichi else 0) for s in range(4)]
            if list(outcome.deltas) != logged:
                raise LogError(
                    gettext_noop(
                        "the log's score changes are {logged} (riichi deposits included), but under the "
                        "rules ({preset}) they are {replayed}"
                    ),
                    hand=n,
                    params={
                        "logged": str(logged),
                        "preset": rules.preset,
                        "replayed": str(list(outcome.deltas)),
                    },
                )
    if game.final_scores is not None:
        final = final_result(state.scores, state.sticks, (0, 0, 0, 0), rules).scores
        if tuple(final) != game.final_scores:
            raise LogError(
                gettext_noop(
                    "the log's final scores are {logged}, but under the rules ({preset}) they are {replayed}"
                ),
                params={
                    "logged": str(list(game.final_scores)),
                    "preset": rules.preset,
                    "replayed": str(list(final)),
                },
            )
    return state.ended


def _where(deal: int, honba: int, sticks: int) -> Phrase:
    """Where a hand stands, in words: ``E2 with 1 honba and 0 riichi sticks``."""
    if 0 <= deal < 16:
        name: str | Phrase = round_name(deal)
    else:
        name = Phrase(gettext_noop("round {number}"), params={"number": deal})
    return Phrase(
        ngettext_lazy(
            "{round} with {honba} honba and {sticks} riichi stick",
            "{round} with {honba} honba and {sticks} riichi sticks",
            "sticks",
        ),
        params={"round": name, "honba": honba, "sticks": sticks},
    )
