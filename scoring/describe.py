"""Hands in words, for hand logs: "Bob ron from Cho, 3 han 40 fu, 5200".

Values come from the engine (``hand_points``); this module only phrases them, in the reader's language:
each sentence is one message with named placeholders, so that a translation can put its words in its
own order. It also holds the words the scoring pages share for the engine's codes: the winds, the
results of a hand and the reasons of an abortive draw.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy, pgettext, pgettext_lazy

from league import phrases

from . import engine
from .templatetags.tenbou import points as points_text

ABORT_WORDS: dict[str, Promise] = {
    "nine_terminals": gettext_lazy("nine terminals"),
    "four_winds": gettext_lazy("four winds"),
    "four_riichi": gettext_lazy("four riichi"),
    "four_kans": gettext_lazy("four kans"),
    "triple_ron": gettext_lazy("triple ron"),
}
"""The reasons of an abortive draw (the record's ``reason`` codes), in words."""

RESULT_WORDS: dict[str, Promise] = {
    "ron": pgettext_lazy("hand outcome", "Ron"),
    "tsumo": pgettext_lazy("hand outcome", "Tsumo"),
    "draw": pgettext_lazy("hand outcome", "Exhaustive draw"),
    "abort": pgettext_lazy("hand outcome", "Abortive draw"),
    "chombo": pgettext_lazy("hand outcome", "Chombo"),
}
"""The results of a hand (the engine's ``result`` codes), in words."""

RESULT_MESSAGES: dict[str, phrases.Message] = {
    "ron": phrases.pgettext_lazy("hand outcome", "Ron"),
    "tsumo": phrases.pgettext_lazy("hand outcome", "Tsumo"),
    "draw": phrases.pgettext_lazy("hand outcome", "Exhaustive draw"),
    "abort": phrases.pgettext_lazy("hand outcome", "Abortive draw"),
    "chombo": phrases.pgettext_lazy("hand outcome", "Chombo"),
}
"""The same words as message ids, for what is stored as a phrase (a history summary, league/phrases.py)."""


def result_name(result: str) -> str:
    """A hand's result code (``ron``, ``draw`` …) in the reader's language; an unknown code as it is."""
    word = RESULT_WORDS.get(result)
    return str(word) if word is not None else result


def names_list(names: Sequence[str], seats: Sequence[int]) -> str:
    """The players of ``seats``: "Ann", "Ann and Bob", "Ann, Bob and Cho"."""
    listed = [names[s] for s in seats]
    if len(listed) <= 1:
        return "".join(listed)
    return gettext("%(names)s and %(last)s") % {"names": ", ".join(listed[:-1]), "last": listed[-1]}


def yakuman_words(count: int) -> str:
    """``yakuman``, ``double yakuman``, ``triple yakuman``, ``4× yakuman``."""
    if count == 1:
        return gettext("yakuman")
    if count == 2:
        return gettext("double yakuman")
    if count == 3:
        return gettext("triple yakuman")
    return gettext("%(count)s× yakuman") % {"count": count}


def value_words(value: engine.HandValue, rules: engine.Ruleset | None = None) -> str:
    """A win's value in words: ``3 han 40 fu``, ``6 han``, ``yakuman``; a yakuman count the ruleset does
    not stack says what it is paid as (``double yakuman, paid as one yakuman``). The words of the
    engine's ``HandValue.describe``, in the reader's language."""
    if value.yakuman:
        words = yakuman_words(value.yakuman)
        if rules is not None and engine.paid_as_one_yakuman(value, rules):
            return gettext("%(value)s, paid as one yakuman") % {"value": words}
        return words
    if value.han is not None and value.han <= 4:
        return gettext("%(han)s han %(fu)s fu") % {"han": value.han, "fu": value.fu}
    return gettext("%(han)s han") % {"han": value.han}


def _win_text(
    hand: engine.Hand, win: engine.Win, names: Sequence[str], dealer: int, rules: engine.Ruleset
) -> str:
    tsumo = hand.result == engine.TSUMO
    points = engine.hand_points(win.value, dealer=win.winner == dealer, tsumo=tsumo, rules=rules)
    values = {
        "winner": names[win.winner],
        "value": value_words(win.value, rules),
        "points": points_text(points),
        "pao": names[win.pao] if win.pao is not None else "",
        "loser": names[hand.loser] if hand.loser is not None else "",
    }
    if tsumo:
        if win.pao is not None:
            return gettext("%(winner)s tsumo, %(value)s, %(points)s (pao: %(pao)s)") % values
        return gettext("%(winner)s tsumo, %(value)s, %(points)s") % values
    if win.pao is not None:
        return gettext("%(winner)s ron from %(loser)s, %(value)s, %(points)s (pao: %(pao)s)") % values
    return gettext("%(winner)s ron from %(loser)s, %(value)s, %(points)s") % values


def describe_hand(hand: engine.Hand, names: Sequence[str], dealer: int, rules: engine.Ruleset) -> str:
    """One sentence for a hand; ``names`` are the players in seat order."""
    if hand.result in (engine.RON, engine.TSUMO):
        text = "; ".join(_win_text(hand, win, names, dealer, rules) for win in hand.wins)
    elif hand.result == engine.DRAW:
        if hand.nagashi:
            text = gettext("Exhaustive draw, nagashi mangan for %(names)s") % {
                "names": names_list(names, hand.nagashi)
            }
        elif hand.tenpai:
            text = gettext("Exhaustive draw, tenpai: %(names)s") % {"names": names_list(names, hand.tenpai)}
        else:
            text = gettext("Exhaustive draw, all noten")
    elif hand.result == engine.ABORT:
        reason = ABORT_WORDS.get(hand.reason or "")
        if reason:
            text = gettext("Abortive draw (%(reason)s)") % {"reason": reason}
        else:
            text = pgettext("hand outcome", "Abortive draw")
    else:
        text = gettext("Chombo by %(name)s") % {"name": names[hand.seat]}  # type: ignore[index]
    if hand.riichi:
        text = gettext("%(hand)s — riichi: %(names)s") % {
            "hand": text,
            "names": names_list(names, hand.riichi),
        }
    return text
