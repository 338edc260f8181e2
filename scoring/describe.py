"""Hands in words, for hand logs: "Bob ron from Cho, 3 han 40 fu, 5200".

Values come from the engine (``hand_points``); this module only phrases them.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import engine

ABORT_WORDS = {
    "nine_terminals": "nine terminals",
    "four_winds": "four winds",
    "four_riichi": "four riichi",
    "four_kans": "four kans",
    "triple_ron": "triple ron",
}


def _names(names: Sequence[str], seats: Sequence[int]) -> str:
    listed = [names[s] for s in seats]
    if len(listed) <= 1:
        return "".join(listed)
    return ", ".join(listed[:-1]) + " and " + listed[-1]


def describe_hand(hand: engine.Hand, names: Sequence[str], dealer: int, rules: engine.Ruleset) -> str:
    """One sentence for a hand; ``names`` are the players in seat order."""
    if hand.result in (engine.RON, engine.TSUMO):
        tsumo = hand.result == engine.TSUMO
        parts = []
        for win in hand.wins:
            points = engine.hand_points(win.value, dealer=win.winner == dealer, tsumo=tsumo, rules=rules)
            how = "tsumo" if tsumo else f"ron from {names[hand.loser]}"  # type: ignore[index]
            text = f"{names[win.winner]} {how}, {win.value.describe(rules)}, {points}"
            if win.pao is not None:
                text += f" (pao: {names[win.pao]})"
            parts.append(text)
        text = "; ".join(parts)
    elif hand.result == engine.DRAW:
        if hand.nagashi:
            text = f"Exhaustive draw, nagashi mangan for {_names(names, hand.nagashi)}"
        elif hand.tenpai:
            text = f"Exhaustive draw, tenpai: {_names(names, hand.tenpai)}"
        else:
            text = "Exhaustive draw, all noten"
    elif hand.result == engine.ABORT:
        reason = ABORT_WORDS.get(hand.reason or "", "")
        text = "Abortive draw" + (f" ({reason})" if reason else "")
    else:
        text = f"Chombo by {names[hand.seat]}"  # type: ignore[index]
    if hand.riichi:
        text += f" — riichi: {_names(names, hand.riichi)}"
    return text
