"""Value of a winning hand: han/fu validation, base points and the payments of docs/rules.md §1.

Only this module turns han and fu into points. Payments are rounded up to the next 100 one payment at a
time, which is why a non-dealer's 1 han 30 fu tsumo costs 300/500 and not a third of 1000.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import Phrase, RuleViolation, gettext_noop
from .ruleset import Ruleset

MANGAN = 2000
VALID_FU = frozenset({20, 25, *range(30, 140, 10)})
LIMIT_NAMES = {2000: "mangan", 3000: "haneman", 4000: "baiman", 6000: "sanbaiman", 8000: "yakuman"}


@dataclass(frozen=True, slots=True)
class HandValue:
    """What a win is worth before payments: ``han`` and ``fu``, or a ``yakuman`` multiplier."""

    han: int | None = None
    fu: int | None = None
    yakuman: int | None = None

    def describe(self, rules: Ruleset | None = None) -> str:
        """The value in words: ``3 han 40 fu``, ``6 han``, ``yakuman``, ``double yakuman``.

        Given the ``rules``, a yakuman count the ruleset does not stack says what it is paid as:
        ``double yakuman, paid as one yakuman``. In English; :meth:`phrase` is the same, translatable.
        """
        return str(self.phrase(rules))

    def phrase(self, rules: Ruleset | None = None) -> Phrase:
        """:meth:`describe` as translatable text (the Django side renders it in the reader's language)."""
        if self.yakuman:
            words = yakuman_phrase(self.yakuman)
            if rules is not None and paid_as_one_yakuman(self, rules):
                return Phrase(gettext_noop("{value}, paid as one yakuman"), params={"value": words})
            return words
        if self.han is not None and self.han <= 4:
            return Phrase(gettext_noop("{han} han {fu} fu"), params={"han": self.han, "fu": self.fu})
        return Phrase(gettext_noop("{han} han"), params={"han": self.han})


YAKUMAN_WORDS = {
    1: gettext_noop("yakuman"),
    2: gettext_noop("double yakuman"),
    3: gettext_noop("triple yakuman"),
}


def yakuman_phrase(count: int) -> Phrase:
    """:func:`yakuman_words` as translatable text."""
    if count in YAKUMAN_WORDS:
        return Phrase(YAKUMAN_WORDS[count])
    return Phrase(gettext_noop("{count}× yakuman"), params={"count": count})


def yakuman_words(count: int) -> str:
    """``yakuman``, ``double yakuman``, ``triple yakuman``, ``4× yakuman``."""
    return str(yakuman_phrase(count))


def paid_yakuman(value: HandValue, rules: Ruleset) -> int:
    """How many yakuman the win is paid as: the count at the table where yakuman stack, else one.

    The record states what was at the table and the ruleset decides what it is worth, as the kazoe
    setting does for 13+ han: a double yakuman under a ruleset without stacking is paid as one yakuman,
    never rejected (docs/rules.md §1.1).
    """
    if not value.yakuman:
        return 0
    return value.yakuman if rules.yakuman_stacking else 1


def paid_as_one_yakuman(value: HandValue, rules: Ruleset) -> bool:
    """Whether a multiple yakuman at the table is paid as one because the ruleset does not stack them."""
    return bool(value.yakuman) and value.yakuman > 1 and not rules.yakuman_stacking


def round_up(points: int) -> int:
    """Round a payment up to the next 100."""
    return -(-points // 100) * 100


def check_value(value: HandValue, *, tsumo: bool, rules: Ruleset) -> None:
    """Reject a han/fu pair (or yakuman multiplier) that cannot exist, naming the rule it breaks."""
    han, fu, yakuman = value.han, value.fu, value.yakuman
    if yakuman is not None:
        if han is not None:
            raise RuleViolation(
                gettext_noop("give either han (and fu) or yakuman, not both"), field="yakuman"
            )
        if isinstance(yakuman, bool) or not isinstance(yakuman, int) or yakuman < 1:
            raise RuleViolation(
                gettext_noop("yakuman must be a whole number of at least 1, not {value}"),
                field="yakuman",
                params={"value": repr(yakuman)},
            )
        return  # a count above what the ruleset stacks is valued by base_points, not rejected
    if han is None:
        raise RuleViolation(gettext_noop("a win needs han (and fu), or yakuman"), field="han")
    if isinstance(han, bool) or not isinstance(han, int) or han < 1:
        raise RuleViolation(
            gettext_noop("han must be a whole number of at least 1, not {value}"),
            field="han",
            params={"value": repr(han)},
        )
    if fu is not None and (isinstance(fu, bool) or not isinstance(fu, int)):
        raise RuleViolation(
            gettext_noop("fu must be a whole number, not {value}"), field="fu", params={"value": repr(fu)}
        )
    if han >= 5:
        return  # fu is irrelevant at mangan and above, so any given value is ignored
    if fu is None:
        raise RuleViolation(
            gettext_noop("{han} han needs fu (fu may be left out only from 5 han)"),
            field="fu",
            params={"han": han},
        )
    if fu not in VALID_FU:
        raise RuleViolation(
            gettext_noop("fu {fu} does not exist (20, 25, or a multiple of 10 from 30 to 130)"),
            field="fu",
            params={"fu": fu},
        )
    if fu == 20:
        if not tsumo:
            raise RuleViolation(
                gettext_noop("fu 20 exists only on a tsumo (closed pinfu); a ron has at least 30 fu"),
                field="fu",
            )
        if han < 2:
            raise RuleViolation(
                gettext_noop("fu 20 needs at least 2 han (pinfu and menzen tsumo)"), field="fu"
            )
    if fu == 25:
        if tsumo and han < 3:
            raise RuleViolation(gettext_noop("fu 25 needs at least 3 han on a tsumo"), field="fu")
        if not tsumo and han < 2:
            raise RuleViolation(gettext_noop("fu 25 needs at least 2 han on a ron"), field="fu")


def base_points(value: HandValue, rules: Ruleset) -> int:
    """Base points (docs/rules.md §1.1): ``fu × 2^(han+2)`` capped at mangan, then the limits."""
    if value.yakuman:
        return 8000 * paid_yakuman(value, rules)
    han = value.han or 0
    if han >= 13:
        return 8000 if rules.kazoe_limit == "yakuman" else 6000
    if han >= 11:
        return 6000
    if han >= 8:
        return 4000
    if han >= 6:
        return 3000
    if han == 5:
        return MANGAN
    fu = value.fu or 0
    if rules.kiriage and (han, fu) in ((4, 30), (3, 60)):
        return MANGAN
    return min(fu * 2 ** (han + 2), MANGAN)


def ron_points(base: int, *, dealer: bool) -> int:
    """What the discarder pays for a ron, before honba."""
    return round_up(base * (6 if dealer else 4))


def tsumo_points(base: int, *, dealer: bool) -> tuple[int, int]:
    """(what the dealer pays, what each non-dealer pays) on a tsumo, before honba.

    For a dealer's tsumo the first figure is what each of the three others pays (there is no dealer
    among the payers), so both figures are the same.
    """
    if dealer:
        each = round_up(base * 2)
        return each, each
    return round_up(base * 2), round_up(base)


def limit_name(value: HandValue, rules: Ruleset) -> str | None:
    """``mangan``, ``haneman``…, or None under mangan — for hand logs in words."""
    base = base_points(value, rules)
    if value.yakuman:
        return yakuman_words(paid_yakuman(value, rules))
    if base >= MANGAN and (value.han or 0) >= 3:
        if base == 8000:
            return "kazoe yakuman"
        return LIMIT_NAMES.get(base)
    return None


def hand_points(value: HandValue, *, dealer: bool, tsumo: bool, rules: Ruleset) -> int:
    """What a win is worth in total, without honba or sticks: the ron payment, or the tsumo payments."""
    base = base_points(value, rules)
    if not tsumo:
        return ron_points(base, dealer=dealer)
    dealer_pays, other_pays = tsumo_points(base, dealer=dealer)
    return dealer_pays * 3 if dealer else dealer_pays + 2 * other_pays
