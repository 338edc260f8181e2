"""The EMA ranking's method (MERS, docs/rules.md §9.4 and docs/rankings.md), over plain numbers and dates.

Pure Python, no Django: the worked examples of the tests and of the guide are checked by hand against
these functions. The base rank and the tournament weight are the report's (``tournaments.ema.mers``, pure
too); here they are applied to a player's whole record at a given day:

- **base rank** of a place among ``N`` participants: ``1000 × (N − place) / (N − 1)``, rounded half up;
  tied players get the better place (the place the results file gives both);
- **tournament weight**: days (1 to 3) + 0.5 for 41–80 players or 1 for more than 80 + 0.5 for 6–9
  countries or 1 for 10 or more + 1 when a qualification was required;
- **age factor** on the day ``as_of``: 1 until the first anniversary of the tournament's last day, 0.5
  until the second, then 0 (the result no longer counts);
- **the ranking** needs two counted results. Fewer than five are padded with results of 0 and weight 1.
  Part A is the weighted average of the best ``ceil(5 + 0.8 × max(n − 5, 0))`` results, Part B that of the
  best four; the ranking is the mean of the two parts. "Best" is by base rank; the weight of a result is
  its tournament weight × its age factor.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date

# One home for the formulas of one tournament (the report's preview uses them too).
from tournaments.ema.mers import base_rank, tournament_weight

MIN_RESULTS = 2
"""Counted results a player needs to be ranked."""
PADDED_TO = 5
"""Fewer counted results than this are padded with results of base rank 0 and weight 1."""
PART_B_BEST = 4

__all__ = [
    "Counted",
    "Ranking",
    "Result",
    "age_factor",
    "anniversary",
    "base_rank",
    "history",
    "part_a_size",
    "rank",
    "standings",
    "tournament_weight",
    "weighted_average",
]


def anniversary(day: date, years: int) -> date:
    """``day`` moved ``years`` years on; 29 February becomes 1 March in a year without one."""
    try:
        return day.replace(year=day.year + years)
    except ValueError:
        return date(day.year + years, 3, 1)


def age_factor(held_on: date, as_of: date) -> float:
    """1 before the first anniversary of ``held_on``, 0.5 before the second, then 0. A tournament after
    ``as_of`` has not happened yet on that day: 0."""
    if held_on > as_of:
        return 0.0
    if as_of < anniversary(held_on, 1):
        return 1.0
    if as_of < anniversary(held_on, 2):
        return 0.5
    return 0.0


@dataclass(frozen=True)
class Result:
    """One tournament result of a player: when, which base rank, and the tournament's weight."""

    tournament: int
    held_on: date
    base_rank: int
    tournament_weight: float


@dataclass(frozen=True)
class Counted:
    """A result as it counts on a day: its base rank and weight (tournament weight × age factor)."""

    tournament: int | None
    """None for a padding result (base rank 0, weight 1)."""
    base_rank: int
    weight: float
    age_factor: float


@dataclass(frozen=True)
class Ranking:
    """A player's ranking on a day, with the parts the EMA publishes."""

    value: float
    part_a: float
    part_b: float
    results: int
    """Counted results (age factor above 0), padding left out."""
    part_a_results: int
    """How many results (padding included) Part A averages."""
    counted: tuple[Counted, ...]
    """The counted results, best first, padding included: Part A takes the first ``part_a_results``,
    Part B the first four."""


def weighted_average(results: Sequence[Counted]) -> float:
    """Σ base rank × weight / Σ weight (0 when nothing weighs)."""
    total = sum(r.weight for r in results)
    return sum(r.base_rank * r.weight for r in results) / total if total else 0.0


def part_a_size(results: int) -> int:
    """``ceil(5 + 0.8 × max(n − 5, 0))``: how many of the best results Part A averages."""
    # 4 × (n − 5) / 5 in integers: ceil without floating point (0.8 × 15 = 12.000000000000002).
    extra = max(results - PADDED_TO, 0)
    return PADDED_TO + (4 * extra + 4) // 5


def rank(results: Iterable[Result], as_of: date) -> Ranking | None:
    """The ranking of one player's ``results`` on the day ``as_of``, or None with fewer than two that
    count (a result older than two years, or held after ``as_of``, does not count)."""
    counted = [
        Counted(r.tournament, r.base_rank, r.tournament_weight * factor, factor)
        for r in results
        if (factor := age_factor(r.held_on, as_of)) > 0 and r.tournament_weight > 0
    ]
    if len(counted) < MIN_RESULTS:
        return None
    # Best first; among equal base ranks the heavier first (it helps the average most), then by id so
    # that the order never depends on the order results were read in.
    counted.sort(key=lambda c: (-c.base_rank, -c.weight, c.tournament or 0))
    padded = counted + [Counted(None, 0, 1.0, 1.0)] * max(0, PADDED_TO - len(counted))
    size = part_a_size(len(counted))
    part_a = weighted_average(padded[:size])
    part_b = weighted_average(padded[:PART_B_BEST])
    return Ranking(
        value=(part_a + part_b) / 2,
        part_a=part_a,
        part_b=part_b,
        results=len(counted),
        part_a_results=size,
        counted=tuple(padded),
    )


def history(results: Sequence[Result], until: date) -> list[tuple[date, float]]:
    """The player's ranking on each day a result of theirs was added (then on ``until``), where they
    were ranked: the points of the ranking history chart. A result also leaves the ranking (or halves)
    on its anniversaries; those days are points too, so the line drops when it really did."""
    days = {r.held_on for r in results if r.held_on <= until}
    days |= {d for r in results for d in (anniversary(r.held_on, 1), anniversary(r.held_on, 2)) if d <= until}
    days.add(until)
    out = []
    for day in sorted(days):
        ranking = rank(results, day)
        if ranking is not None:
            out.append((day, ranking.value))
    return out


def standings(records: dict[int, Sequence[Result]], as_of: date) -> list[tuple[int, int, Ranking]]:
    """(position, player, ranking) of every ranked player, best first; equal rankings (to 1e-9) share
    the better position (1, 2, 2, 4). Players without a ranking are left out."""
    ranked = [(player, r) for player, results in records.items() if (r := rank(results, as_of))]
    ranked.sort(key=lambda pr: (-pr[1].value, pr[0]))
    out: list[tuple[int, int, Ranking]] = []
    for index, (player, ranking) in enumerate(ranked):
        if out and math.isclose(out[-1][2].value, ranking.value, abs_tol=1e-9):
            position = out[-1][0]
        else:
            position = index + 1
        out.append((position, player, ranking))
    return out
