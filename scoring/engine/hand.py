"""The facts of one hand as recorded at the table — never what they are worth (see ``hanchan``).

A hand is what an organiser saw: who won off whom with what value, who was tenpai at a draw, whose riichi
deposit was actually paid. Dealer, round, honba and sticks are not facts of the hand: they are derived by
replaying the hands before it.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import gettext_noop
from .value import HandValue

RON = "ron"
TSUMO = "tsumo"
DRAW = "draw"
ABORT = "abort"
CHOMBO = "chombo"
RESULTS = (RON, TSUMO, DRAW, ABORT, CHOMBO)

WINDS = (gettext_noop("East"), gettext_noop("South"), gettext_noop("West"), gettext_noop("North"))
"""Seat names: the winds of the first hand, seat 0 being East (marked for the catalogues: the Django side
shows them with ``pgettext("seat wind", …)``, see ``league/engine_text.py``)."""

ABORT_REASONS = ("nine_terminals", "four_winds", "four_riichi", "four_kans", "triple_ron")


@dataclass(frozen=True, slots=True)
class ScoredYaku:
    """One yaku of a win as it was counted: ``han`` for an ordinary yaku, ``yakuman`` (1, or 2 for a
    double) for a yakuman. ``name`` is a romaji name of the yaku table (``logs/yaku.py``)."""

    name: str
    han: int | None = None
    yakuman: int | None = None


@dataclass(frozen=True, slots=True)
class Win:
    """One winner's claim: the value of the hand, and the liable seat (pao) if any.

    ``yaku``, ``dora``, ``aka`` and ``ura`` say what the hand was made of, when it is known (online logs,
    hands entered as tiles). They are facts for statistics only: payments read ``han``, ``fu`` and
    ``yakuman`` alone, so a win without them is worth exactly the same.
    """

    winner: int
    han: int | None = None
    fu: int | None = None
    yakuman: int | None = None
    pao: int | None = None
    yaku: tuple[ScoredYaku, ...] | None = None
    dora: int | None = None
    aka: int | None = None
    ura: int | None = None

    @property
    def value(self) -> HandValue:
        return HandValue(self.han, self.fu, self.yakuman)


@dataclass(frozen=True, slots=True)
class Hand:
    """One hand. ``wins`` holds one win for a tsumo and one to three for a ron (``loser`` discarded)."""

    result: str
    wins: tuple[Win, ...] = ()
    loser: int | None = None
    riichi: tuple[int, ...] = ()
    tenpai: tuple[int, ...] = ()
    nagashi: tuple[int, ...] = ()
    seat: int | None = None
    reason: str | None = None

    @classmethod
    def ron(cls, loser: int, *wins: Win, riichi: tuple[int, ...] = ()) -> Hand:
        return cls(RON, wins=tuple(wins), loser=loser, riichi=tuple(riichi))

    @classmethod
    def tsumo(cls, win: Win, *, riichi: tuple[int, ...] = ()) -> Hand:
        return cls(TSUMO, wins=(win,), riichi=tuple(riichi))

    @classmethod
    def draw(
        cls, tenpai: tuple[int, ...] = (), *, riichi: tuple[int, ...] = (), nagashi: tuple[int, ...] = ()
    ) -> Hand:
        return cls(DRAW, tenpai=tuple(tenpai), riichi=tuple(riichi), nagashi=tuple(nagashi))

    @classmethod
    def abort(cls, *, riichi: tuple[int, ...] = (), reason: str | None = None) -> Hand:
        return cls(ABORT, riichi=tuple(riichi), reason=reason)

    @classmethod
    def chombo(cls, seat: int, *, riichi: tuple[int, ...] = ()) -> Hand:
        return cls(CHOMBO, seat=seat, riichi=tuple(riichi))

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(w.winner for w in self.wins)


def nearest_first(discarder: int, seats: tuple[int, ...] | list[int]) -> list[int]:
    """Seats in turn order after the discarder (``discarder+1``, ``+2``, ``+3``): the nearest comes first."""
    return sorted(seats, key=lambda s: (s - discarder) % 4)
