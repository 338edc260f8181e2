"""How fair a seating is, and how fair any seating of that size could be (the counting lower bounds)."""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass

from .schedule import TABLE_SIZE, Schedule
from .teams import teammate_pairs


@dataclass(frozen=True)
class Quality:
    """How fair a schedule is, for the real players ``0 .. n_players - 1``.

    ``repeated_pairs`` is ``sum over pairs of max(0, times_met - 1)``: the number of games spent facing
    somebody already faced. ``wind_counts[p][w]`` is how often player ``p`` sat wind ``w``.
    ``wind_imbalance`` sums, over players and winds, how far each count lies outside ``[floor(k/4),
    ceil(k/4)]`` (``k`` the rounds that player sat, ``R`` for a complete schedule): the best any schedule
    can do, so 0 means perfect (and equals ``sum |count - R/4|`` when ``R`` is a multiple of 4).

    ``min_shared_opponents``: over the pairs of players who never meet, the fewest opponents they both
    faced (None when every pair meets). Standings rank two players who never sat at the same table only
    through the opponents they have in common; a pair with no or few shared opponents is compared across
    what are in effect separate pools, so a luck-of-the-draw difference in opponent strength goes
    unchecked. Higher is fairer; it also tells apart schedules that all reach zero repeats (a design that
    leaves the unmet pairs spread out scores better than one that keeps groups of players apart).
    :func:`shared_opponents_bound` is the most any schedule of the size can reach.

    ``teammates_together``: with ``groups`` (teams whose members must never share a table), how many
    times two teammates sat at the same table (a pair twice counts twice); 0 without groups.
    """

    repeated_pairs: int
    max_meetings: int
    wind_counts: tuple[tuple[int, int, int, int], ...]
    wind_imbalance: int
    perfect_winds: bool
    min_shared_opponents: int | None = None
    teammates_together: int = 0


def quality(schedule: Schedule, n_players: int, *, groups: Iterable[Iterable[int]] | None = None) -> Quality:
    """Measure ``schedule`` for the real players ``0 .. n_players - 1`` (higher indices are substitutes).

    Substitute seats are left out because their meetings and winds are not a fairness question for the
    tournament's ranking. ``groups`` are teams (sets of player indices) whose members should never share
    a table: their meetings are counted in ``teammates_together`` (they count as meetings for the other
    figures too, since they did play each other).
    """
    meetings: dict[tuple[int, int], int] = {}
    counts = [[0, 0, 0, 0] for _ in range(n_players)]
    for round_ in schedule.rounds:
        for table in round_:
            real = [p for p in table if 0 <= p < n_players]
            for seat, player in enumerate(table):
                if 0 <= player < n_players:
                    counts[player][seat] += 1
            for a, b in itertools.combinations(sorted(real), 2):
                meetings[a, b] = meetings.get((a, b), 0) + 1
    repeated = sum(times - 1 for times in meetings.values())
    imbalance = 0
    for row in counts:
        played = sum(row)
        low, high = played // TABLE_SIZE, -(-played // TABLE_SIZE)
        imbalance += sum(max(0, low - c, c - high) for c in row)
    return Quality(
        repeated_pairs=repeated,
        max_meetings=max(meetings.values(), default=0),
        wind_counts=tuple((r[0], r[1], r[2], r[3]) for r in counts),
        wind_imbalance=imbalance,
        perfect_winds=imbalance == 0,
        min_shared_opponents=min_shared_opponents(meetings, range(n_players)),
        teammates_together=sum(meetings.get(pair, 0) for pair in teammate_pairs(groups or ())),
    )


def min_shared_among(rounds: Iterable[Iterable[Iterable[int]]], among: Iterable[int]) -> int | None:
    """:func:`min_shared_opponents` over the pairs of ``among`` only, their meetings read from ``rounds``
    (tables of any size: a seating being repaired may have a short table). Players outside ``among``
    still count as opponents two players share."""
    meetings: dict[tuple[int, int], int] = {}
    for round_ in rounds:
        for table in round_:
            for a, b in itertools.combinations(sorted(set(table)), 2):
                meetings[a, b] = meetings.get((a, b), 0) + 1
    return min_shared_opponents(meetings, sorted(set(among)))


def min_shared_opponents(meetings: dict[tuple[int, int], int], players: range | list[int]) -> int | None:
    """The fewest common opponents of two ``players`` who never met (``meetings`` keyed ``(a, b)``, a < b).

    Opponents are sets of bits, so each pair costs one AND and a popcount: 128 players take ~8 000 pairs.
    None when every pair of ``players`` met (or there are fewer than two).
    """
    bits: dict[int, int] = {p: 0 for p in players}
    for (a, b), times in meetings.items():
        if times and a in bits and b in bits:
            bits[a] |= 1 << b
            bits[b] |= 1 << a
    best: int | None = None
    order = sorted(bits)
    for i, a in enumerate(order):
        row = bits[a]
        for b in order[i + 1 :]:
            if not row >> b & 1:
                shared = (row & bits[b]).bit_count()
                if best is None or shared < best:
                    best = shared
    return best


def pair_cost_lower_bound(n_players: int, n_rounds: int) -> int:
    """The least ``sum over pairs of C(times_met, 2)`` any schedule can have (by counting alone).

    There are ``n * 3R / 2`` pair meetings to share among ``C(n, 2)`` pairs and the sum is smallest when
    they are shared out evenly. The search stops as soon as it reaches this bound. It is not always
    attainable: 8 players fit 24 meetings in 2 rounds among 28 pairs, but the second round must seat two
    players of each first-round table together.
    """
    pairs = n_players * (n_players - 1) // 2
    meetings = n_players * (TABLE_SIZE - 1) * n_rounds // 2
    if pairs == 0:
        return 0
    q, r = divmod(meetings, pairs)
    return r * (q + 1) * q // 2 + (pairs - r) * q * (q - 1) // 2


def repeated_pairs_lower_bound(n_players: int, n_rounds: int) -> int:
    """The least ``repeated_pairs`` by counting: meetings beyond one per pair, ``max(0, n*3R/2 - C(n,2))``."""
    return max(0, n_players * (TABLE_SIZE - 1) * n_rounds // 2 - n_players * (n_players - 1) // 2)


def max_rounds_without_repeats(n_players: int) -> int:
    """Rounds a schedule of ``n_players`` (a multiple of 4) can have before some pair must meet twice.

    Each round a player meets three new opponents, so at most ``floor((n - 1) / 3)``. With 8 or 12
    players it is 1: a second round always seats two first-round tablemates together, since one of its
    tables takes four players from at most three first-round tables. With 20 players it is 5: six rounds
    would be a resolvable 4-GDD of type 2^10, which does not exist. For the other sizes design theory has
    schedules that reach the bound (resolvable BIBD(n, 4, 1) for ``n ≡ 4 mod 12``, resolvable 4-GDDs of
    type 3^(n/3) or 2^(n/2) otherwise); :func:`~tournaments.seating.generate` reaches it where
    :mod:`tournaments.seating.starters` records a starter of that many rounds.
    """
    if n_players < 16:
        return 1
    if n_players == 20:
        return 5
    return (n_players - 1) // (TABLE_SIZE - 1)


def shared_opponents_bound(n_players: int, n_rounds: int) -> int | None:
    """The most :attr:`Quality.min_shared_opponents` any schedule without a repeated pair can reach, by
    counting (None when every pair meets, or ``n_rounds`` is past the zero-repeat maximum).

    Without repeats a player ``a`` meets ``3R`` opponents and misses ``k = n - 1 - 3R`` players. Two
    bounds, the smaller wins:

    * *Groups.* Two unmet players share at most all ``3R`` opponents, and every unmet pair shares them
      all only when "not meeting" splits the players into groups of ``n - 3R`` (``a`` and ``b`` unmet
      and ``b`` meeting somebody ``a`` does not meet costs a shared opponent): a resolvable design with
      ``n / (n - 3R)`` groups, which needs ``n - 3R`` to divide ``n`` and at least four groups (a table
      seats four groups). Otherwise ``3R - 1``.
    * *Averaging.* Summed over the ``k`` players ``b`` that ``a`` misses, the shared opponents count, for
      each opponent ``c`` of ``a``, the opponents of ``c`` that ``a`` misses: at most ``3R - 3``, since
      ``c`` met ``a`` and, at that table, two of ``a``'s opponents. So the fewest is at most
      ``3R (3R - 3) / k``. This is the binding one for few rounds: 68 players over 8 rounds, 11.

    32 players over 8 rounds reach 24 (a transversal design TD(4, 8): four groups of eight who never
    meet); 68 over 8 at most 11.
    """
    if n_rounds > max_rounds_without_repeats(n_players):
        return None
    met = (TABLE_SIZE - 1) * n_rounds
    missed = n_players - 1 - met
    if missed <= 0:
        return None
    group = n_players - met
    grouped = met if n_players % group == 0 and n_players // group >= TABLE_SIZE else met - 1
    return max(0, min(grouped, met * (met - 3) // missed))
