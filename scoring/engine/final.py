"""The final result of a game (docs/rules.md §6): leftover sticks, placement, uma, oka, rounding, penalties.

Shares that do not divide evenly (uma or oka split between tied players, sticks between tied leaders)
are dealt in units of 100 points: every tied player gets the same floor share, and the hundreds left
over go one each to the tied players earliest in seat order. Uma and oka therefore always sum exactly to
what the ruleset hands out, and the four results to the penalties. Sticks are the exception the rules
make: each leader's share is rounded down to 100 and the remainder is lost.

**Rounding to thousands** (``round_to_thousands``, Tenhou's points): every seat but first place counts
its score less the return points rounded to the nearest whole thousand, a half upwards (−5 500 → −5 000,
+1 500 → +2 000); first place takes what the others' rounding moved, so the four results sum to exactly
what they would without it. The leftover sticks go to first place before; penalties come after and are
never rounded. ``FinalResult.rounding`` holds what the rounding moved, so that ``results = scores −
return + uma + oka + rounding + penalties`` holds seat by seat whatever the rules.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import RuleViolation, gettext_noop, ngettext_lazy
from .hand import WINDS
from .ruleset import Ruleset


@dataclass(frozen=True, slots=True)
class FinalResult:
    """Per seat: final score, place (1–4), uma, oka, penalties, the result after all of them, and what
    rounding to thousands moved (zero unless the rules round)."""

    scores: tuple[int, ...]
    places: tuple[int, ...]
    uma: tuple[int, ...]
    oka: tuple[int, ...]
    penalties: tuple[int, ...]
    results: tuple[int, ...]
    rounding: tuple[int, ...] = (0, 0, 0, 0)

    def to_dict(self) -> dict[str, list[int]]:
        """The result as ``replay`` prints it. ``rounding`` is an added field, written only when the
        rounding moved a result: the output of every game that was never rounded stays as it was."""
        out = {
            "scores": list(self.scores),
            "places": list(self.places),
            "uma": list(self.uma),
            "oka": list(self.oka),
            "penalties": list(self.penalties),
            "results": list(self.results),
        }
        if any(self.rounding):
            out["rounding"] = list(self.rounding)
        return out


def expected_total(rules: Ruleset, sticks: int) -> int:
    """What four final scores add up to: 4 × start points, less the riichi sticks left on the table."""
    return 4 * rules.start_points - 1000 * sticks


def check_final_scores(scores: list[int] | tuple[int, ...], sticks: int, rules: Ruleset) -> None:
    """Reject final scores (of a game kept on paper) that cannot be: a wrong total, a stray odd amount."""
    if len(scores) != 4 or any(isinstance(s, bool) or not isinstance(s, int) for s in scores):
        raise RuleViolation(
            gettext_noop("enter four final scores, one per seat, as whole numbers"), field="scores"
        )
    if isinstance(sticks, bool) or not isinstance(sticks, int) or sticks < 0:
        raise RuleViolation(
            gettext_noop("the riichi sticks left on the table cannot be negative"), field="sticks"
        )
    expected = expected_total(rules, sticks)
    if sum(scores) != expected:
        raise RuleViolation(
            ngettext_lazy(
                "the four scores sum to {total}, but must sum to {expected} (4 × {start} start points − "
                "{sticks} riichi stick left on the table)",
                "the four scores sum to {total}, but must sum to {expected} (4 × {start} start points − "
                "{sticks} riichi sticks left on the table)",
                "sticks",
            ),
            field="scores",
            code="final_scores_sum",
            params={
                "total": sum(scores),
                "expected": expected,
                "start": rules.start_points,
                "sticks": sticks,
            },
        )
    for seat, score in enumerate(scores):
        if score % 100:
            raise RuleViolation(
                gettext_noop("{seat}'s score {score} is not a multiple of 100"),
                field="scores",
                code="score_not_multiple_of_100",
                params={"score": score},
                seats={"seat": seat},
                default_names=WINDS,
            )


def split(total: int, seats: list[int]) -> dict[int, int]:
    """Share ``total`` between ``seats`` (in seat order) exactly, in units of 100 where the total allows."""
    unit = 100 if total % 100 == 0 else 1
    units, n = total // unit, len(seats)
    floor, extra = divmod(units, n)
    return {seat: (floor + (1 if i < extra else 0)) * unit for i, seat in enumerate(sorted(seats))}


def places(scores: tuple[int, ...] | list[int], ties: str) -> tuple[int, ...]:
    """Place of each seat: ``split`` ties share the better place; ``seat_order``: earlier seat first."""
    if ties == "split":
        return tuple(1 + sum(1 for other in scores if other > s) for s in scores)
    order = sorted(range(4), key=lambda seat: (-scores[seat], seat))
    out = [0] * 4
    for place, seat in enumerate(order, start=1):
        out[seat] = place
    return tuple(out)


def hand_out_sticks(scores: list[int], sticks: int, rules: Ruleset) -> list[int]:
    """Scores after the riichi sticks left on the table go to the leader(s), or are lost."""
    scores = list(scores)
    if sticks <= 0 or rules.leftover_sticks == "lost":
        return scores
    top = max(scores)
    leaders = [seat for seat in range(4) if scores[seat] == top]
    if rules.ties == "seat_order" or len(leaders) == 1:
        scores[leaders[0]] += sticks * 1000
    else:
        share = (sticks * 1000 // len(leaders)) // 100 * 100
        for seat in leaders:
            scores[seat] += share
    return scores


def nearest_thousand(points: int) -> int:
    """``points`` rounded to the nearest whole thousand, a half upwards: −5 500 → −5 000, +1 500 → +2 000,
    −5 600 → −6 000 (as Tenhou counts a game's points)."""
    return (points + 500) // 1000 * 1000


def rounding_to_thousands(final: list[int], placed: tuple[int, ...], rules: Ruleset) -> tuple[int, ...]:
    """What rounding to thousands moves, per seat: each seat but first place its score less the return
    points to the nearest thousand; first place (shared by players tied for it, as uma is) the opposite
    of the others' total, so the rounding sums to 0."""
    if not rules.round_to_thousands:
        return (0, 0, 0, 0)
    moved = [0] * 4
    for seat in range(4):
        if placed[seat] != 1:
            exact = final[seat] - rules.return_points
            moved[seat] = nearest_thousand(exact) - exact
    first = [seat for seat in range(4) if placed[seat] == 1]
    for seat, share in split(-sum(moved), first).items():
        moved[seat] = share
    return tuple(moved)


def final_result(
    scores: list[int] | tuple[int, ...],
    sticks: int,
    penalties: list[int] | tuple[int, ...],
    rules: Ruleset,
) -> FinalResult:
    """Results from the scores after the last hand, the sticks still on the table and the penalties."""
    final = hand_out_sticks(list(scores), sticks, rules)
    placed = places(final, rules.ties)
    uma = [0] * 4
    oka = [0] * 4
    for place in sorted(set(placed)):
        group = [seat for seat in range(4) if placed[seat] == place]
        occupied = range(place - 1, place - 1 + len(group))
        for seat, share in split(sum(rules.uma[i] for i in occupied), group).items():
            uma[seat] = share
        if place == 1 and rules.oka:
            for seat, share in split(rules.oka, group).items():
                oka[seat] = share
    rounding = rounding_to_thousands(final, placed, rules)
    results = tuple(
        final[s] - rules.return_points + uma[s] + oka[s] + rounding[s] + penalties[s] for s in range(4)
    )
    return FinalResult(tuple(final), placed, tuple(uma), tuple(oka), tuple(penalties), results, rounding)
