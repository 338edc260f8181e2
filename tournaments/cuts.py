"""The cut between two stages and the points carried over: pure arithmetic, no Django.

A stage after the first starts with the best ``size`` players of the stage before. Who they are is
decided here, from a list already in standings order where each player carries the *key* the event's
tie-breaks compare (equal keys: a tie the tie-breaks cannot break):

- players who drop out before the cut are taken out first, and the next in line steps in: each
  drop-out who would have gone through is matched with the player who now goes through in their place;
- the line falls between places ``size`` and ``size + 1``; when players with the same key sit on both
  sides of it, the tie-breaks cannot say who goes through: the cut reports them (``tied``) with the
  number of places left for them (``places``), and the organiser decides (``decided``), which the
  service records in the history.

The carry-over turns a player's points and place in the stage before into the points they start the
next stage with: all of them, half (rounded towards zero, so a loss halves like a gain), none, or a
fixed bonus by place (places past the list get nothing).

Pure Python, so the property tests (tests/tournaments/test_cuts.py) run without a database; an
import-linter contract keeps it that way.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

ALL = "all"
HALF = "half"
NONE = "none"
BONUS = "bonus"
RULES = (NONE, ALL, HALF, BONUS)


@dataclass(frozen=True)
class Candidate:
    """A player of the stage before, in standings order: ``key`` is what the tie-breaks compare
    (smaller is better); two candidates with equal keys are tied. ``ranked`` is False for a player the
    standings list without a rank (too few games): listed, never placed."""

    player: Hashable
    key: tuple[Any, ...]
    ranked: bool = True


@dataclass(frozen=True)
class Placed:
    """A player's line in the final ranking: the index of the last stage they reached, their rank."""

    player: Hashable
    stage: int
    rank: int | None


@dataclass
class Cut:
    """Who goes through: ``through`` in seed order (best first), with ``tied`` (those the tie-breaks
    cannot separate at the line, in standings order) still to be decided for ``places`` places;
    ``out`` the others; ``stepped_in`` maps each player who goes through only because someone dropped
    out to that drop-out."""

    through: list[Hashable] = field(default_factory=list)
    tied: list[Hashable] = field(default_factory=list)
    places: int = 0
    out: list[Hashable] = field(default_factory=list)
    dropped: list[Hashable] = field(default_factory=list)
    stepped_in: dict[Hashable, Hashable] = field(default_factory=dict)
    chosen: list[Hashable] = field(default_factory=list)
    """The organiser's choice among the tied, when there was a tie to decide (else empty)."""

    @property
    def decided(self) -> bool:
        """Whether the cut needs nothing more from the organiser."""
        return not self.tied


def _line(
    candidates: Sequence[Candidate], size: int
) -> tuple[list[Hashable], list[Hashable], int, list[Hashable]]:
    """Split ``candidates`` at ``size``: (surely through, tied at the line, places left for them, out)."""
    if size >= len(candidates):
        return [c.player for c in candidates], [], 0, []
    if size <= 0:
        return [], [], 0, [c.player for c in candidates]
    at_line = candidates[size - 1].key
    if candidates[size].key != at_line:
        return [c.player for c in candidates[:size]], [], 0, [c.player for c in candidates[size:]]
    first = next(i for i, c in enumerate(candidates) if c.key == at_line)
    last = max(i for i, c in enumerate(candidates) if c.key == at_line)
    return (
        [c.player for c in candidates[:first]],
        [c.player for c in candidates[first : last + 1]],
        size - first,
        [c.player for c in candidates[last + 1 :]],
    )


def cut(
    candidates: Sequence[Candidate],
    size: int,
    *,
    dropped: Iterable[Hashable] = (),
    decided: Sequence[Hashable] | None = None,
) -> Cut:
    """The cut of ``candidates`` (standings order, best first) to ``size`` players.

    ``dropped`` players are taken out before the cut and replaced by the next in line. ``decided`` is
    the organiser's answer to a tie at the line: the tied players who go through, in the order they
    are seeded; it must name exactly ``places`` of the tied players, else ValueError (a stale form).
    Raises ValueError for a negative size or a player listed twice.
    """
    if size < 0:
        raise ValueError("the cut size cannot be negative")
    players = [c.player for c in candidates]
    if len(set(players)) != len(players):
        raise ValueError("a player appears twice in the standings")
    gone = set(dropped)
    staying = [c for c in candidates if c.player not in gone]
    through, tied, places, out = _line(staying, size)
    result = Cut(through=through, tied=tied, places=places, out=out)
    result.dropped = [p for p in players if p in gone]
    if decided is not None and tied:
        chosen = list(decided)
        if len(chosen) != places or len(set(chosen)) != len(chosen) or not set(chosen) <= set(tied):
            raise ValueError(f"choose {places} of the tied players")
        result.through = through + chosen
        result.chosen = chosen
        result.out = [p for p in tied if p not in set(chosen)] + out
        result.tied, result.places = [], 0
    # Who steps in: those through now who would not be without the drop-outs (the line without them).
    if result.dropped:
        before, before_tied, _places, _out = _line(list(candidates), size)
        would = set(before) | set(before_tied)
        missing = [p for p in players if p in gone and p in would]
        newcomers = [p for p in result.through + result.tied if p not in would]
        result.stepped_in = dict(zip(newcomers, missing, strict=False))
    return result


def final_order(stages: Sequence[Sequence[Candidate]]) -> list[Placed]:
    """The event's final ranking from each stage's standings (in stage order, each best first): the
    players of the last stage first, in its order; then those of the stage before who went no further,
    in that stage's order; and so on. Each player appears once, at the last stage they reached. Ranks
    run on from one group to the next; players of one group with equal keys share the better rank;
    unranked players come last, without a rank."""
    placed: set[Hashable] = set()
    ranked: list[Placed] = []
    unranked: list[Placed] = []
    for index in reversed(range(len(stages))):
        group = [c for c in stages[index] if c.player not in placed]
        offset = len(ranked)
        for candidate in group:
            placed.add(candidate.player)
            if not candidate.ranked:
                unranked.append(Placed(candidate.player, index, None))
                continue
            better = sum(1 for other in group if other.ranked and other.key < candidate.key)
            ranked.append(Placed(candidate.player, index, offset + 1 + better))
    return ranked + unranked


def parse_bonus(text: str) -> list[int]:
    """A bonus list as typed ("15000, 10000, 5000, 0") to integers; ValueError naming the bad item."""
    values = []
    for item in text.split(","):
        item = item.strip()
        if not item:
            continue
        try:
            values.append(int(item))
        except ValueError:
            raise ValueError(f"{item!r} is not a whole number of points") from None
    return values


def carried(rule: str, points: int, place: int, bonus: Sequence[int] = ()) -> int:
    """The points a player starts the next stage with, from their ``points`` and ``place`` (1 = best)
    in the stage before, under ``rule`` (:data:`RULES`)."""
    if rule == ALL:
        return points
    if rule == HALF:
        half = abs(points) // 2
        return half if points >= 0 else -half
    if rule == NONE:
        return 0
    if rule == BONUS:
        return bonus[place - 1] if 1 <= place <= len(bonus) else 0
    raise ValueError(f"unknown carry-over rule {rule!r}")
