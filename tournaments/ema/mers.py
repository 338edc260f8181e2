"""MERS, the EMA ranking (rules since 2018), for preview pages: base rank, tournament weight, ranking.

Pure functions over plain numbers, so the preview can be checked by hand. Rounding is half up, as the
EMA publishes whole base ranks (Python's ``round`` rounds halves to even, which would differ at .5).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass


def base_rank(place: int, participants: int) -> int:
    """``round(1000 × (N − place) / (N − 1))``, half up; tied players are given the better place."""
    if participants < 2:
        raise ValueError("a ranked tournament needs at least 2 participants")
    if not 1 <= place <= participants:
        raise ValueError(f"place {place} is outside 1..{participants}")
    numerator, denominator = 1000 * (participants - place), participants - 1
    return (2 * numerator + denominator) // (2 * denominator)


def tournament_weight(*, days: int, players: int, countries: int, qualification: bool = False) -> float:
    """Days (1–3) + players (41–80: +0.5, over 80: +1) + countries (6–9: +0.5, 10+: +1) + 1 with a
    qualification."""
    weight = float(min(max(days, 1), 3))
    if players > 80:
        weight += 1
    elif players >= 41:
        weight += 0.5
    if countries >= 10:
        weight += 1
    elif countries >= 6:
        weight += 0.5
    if qualification:
        weight += 1
    return weight


def age_factor(years_ago: int) -> float:
    """1.0 in the first year after the tournament, 0.5 in the second, then 0."""
    return 1.0 if years_ago < 1 else 0.5 if years_ago < 2 else 0.0


@dataclass(frozen=True)
class Result:
    """One tournament result of a player: its base rank and its weight (tournament weight × age factor)."""

    base_rank: int
    weight: float


def _weighted_average(results: Sequence[Result]) -> float:
    total = sum(r.weight for r in results)
    return sum(r.base_rank * r.weight for r in results) / total if total else 0.0


def ranking(results: Sequence[Result]) -> float | None:
    """A player's MERS ranking, or None with fewer than 2 results.

    Fewer than 5 results are padded with zero results of weight 1. Part A is the weighted average of the
    best ``ceil(5 + 0.8 × max(n − 5, 0))`` results, Part B that of the best 4; the ranking is their mean.
    """
    counted = [r for r in results if r.weight > 0]
    if len(counted) < 2:
        return None
    padded = sorted(counted, key=lambda r: r.base_rank, reverse=True)
    padded += [Result(0, 1.0)] * max(0, 5 - len(padded))
    best_a = math.ceil(5 + 0.8 * max(len(counted) - 5, 0))
    part_a = _weighted_average(padded[:best_a])
    part_b = _weighted_average(padded[:4])
    return (part_a + part_b) / 2
