"""A full seating plan: the most perfect rounds a construction gives, then search for the rest."""

from __future__ import annotations

import random

from .construction import affine_rounds, transversal_rounds
from .orbits import FAMILIES
from .orbits import develop as develop_family
from .quality import pair_cost_lower_bound
from .schedule import TABLE_SIZE, Schedule, padded_count, tidy
from .search import DEFAULT_ITERATIONS, TabuSearch, greedy, step_budget
from .starters import STARTERS, develop
from .winds import balance_winds

Rounds = list[list[list[int]]]


def constructions(n: int, wanted: int, rng: random.Random) -> list[tuple[Rounds, bool]]:
    """The known constructions for ``n`` players, each as ``(rounds, complete)`` — rounds with no
    repeated pair, and whether every pair meets exactly once over them — the most rounds first.

    A cyclic starter (:mod:`.starters`, up to ``floor((n - 1) / 3)`` rounds) or rounds fixed by a group
    of translations (:mod:`.orbits`: 32 players, 10 rounds); the affine geometry AG(d, 4) for 16 and 64
    players (complete, 5 and 21 rounds); a resolvable transversal design TD(4, n/4) (up to ``wanted``
    and ``n/4`` rounds, its columns built on demand), listed when it gives more rounds than the others
    or when none gives ``wanted`` rounds nor is complete: then each is a different starting point for the
    search past them (see :func:`generate`).
    """
    found: list[tuple[Rounds, bool]] = []
    dimension = {16: 2, 64: 3}.get(n)
    if dimension is not None:
        found.append((affine_rounds(dimension), True))
    recorded = [develop(STARTERS[n])] if n in STARTERS else []
    recorded += [develop_family(FAMILIES[n])] if n in FAMILIES else []
    found += [(rounds, n * (n - 1) // 2 == len(rounds) * (n // TABLE_SIZE) * 6) for rounds in recorded]
    found.sort(key=lambda c: -len(c[0]))
    q = n // TABLE_SIZE
    longest, complete = (len(found[0][0]), found[0][1]) if found else (0, False)
    if longest < min(wanted, q) or (longest < wanted and not complete):
        transversal = transversal_rounds(q, wanted, rng)
        if transversal:
            found.append((transversal, False))
            found.sort(key=lambda c: -len(c[0]))
    return found


def perfect_rounds(n: int, wanted: int, rng: random.Random) -> tuple[Rounds, bool]:
    """As many rounds with no repeated pair as a known construction gives for ``n`` players (at most
    ``wanted`` for the transversal designs, whose columns are built on demand), and whether they are
    *complete*: every pair meets exactly once over them. The longest of :func:`constructions`."""
    found = constructions(n, wanted, rng)
    return found[0] if found else ([], False)


def _relabelled(rounds: Rounds, n: int, rng: random.Random) -> Rounds:
    """``rounds`` with players renamed by a seeded random permutation: every seed is a fresh draw, and
    the structure of the construction (who are the fixed points, the levels) is hidden from the names."""
    labels = list(range(n))
    rng.shuffle(labels)
    return [[[labels[p] for p in table] for table in round_] for round_ in rounds]


def generate(
    n_players: int,
    n_rounds: int,
    *,
    seed: int = 1,
    time_budget_iterations: int = DEFAULT_ITERATIONS,
) -> Schedule:
    """A full seating for ``n_players`` (a multiple of 4) over ``n_rounds``.

    Opponents: no pair meets twice up to the most rounds the constructions give — the maximum
    ``floor((n - 1) / 3)`` for the sizes in :data:`~tournaments.seating.starters.STARTERS` and
    :data:`~tournaments.seating.orbits.FAMILIES` (see
    :func:`~tournaments.seating.max_rounds_without_repeats`), ``n/4`` rounds when ``n/4`` is a prime
    power. Beyond that, a complete design (every pair met once: 16, 28, 40, 52, 64, … players) is
    repeated in turn, so no pair meets k+1 times before every pair has met k times; otherwise the extra
    rounds are drawn greedily and a seeded tabu search spreads the repeats as evenly as it can
    (``sum over pairs of C(times_met, 2)`` as low as it finds), once from each construction of
    :func:`constructions` (a starter's rounds, a transversal design's), keeping the best.

    Winds: exactly balanced by :func:`~tournaments.seating.balance_winds`. Every round, the first
    included, is a seeded random draw (players are relabelled at random), so indices may be assigned in
    any order, e.g. alphabetically; tables are listed by their lowest player index.

    ``time_budget_iterations`` caps the tabu-search steps (not seconds, so results never depend on the
    machine's speed), and so does :func:`~tournaments.seating.search.step_budget` for large sizes;
    the search stops earlier once it reaches the counting lower bound.

    Raises ValueError unless ``n_players`` is a positive multiple of 4 (pad with substitute seats: see
    :func:`~tournaments.seating.padded_count`) and ``n_rounds`` is positive.
    """
    if n_players < 1:
        raise ValueError(f"{n_players} players cannot be seated at tables of {TABLE_SIZE}")
    if n_players % TABLE_SIZE:
        raise ValueError(
            f"{n_players} players cannot be seated at tables of {TABLE_SIZE}: generate a schedule for "
            f"padded_count({n_players}) = {padded_count(n_players)} seats and give indices {n_players} "
            "and up to substitutes"
        )
    if n_rounds < 1:
        raise ValueError(f"need at least one round, got {n_rounds}")
    if time_budget_iterations < 0:
        raise ValueError("time_budget_iterations must not be negative")
    rng = random.Random(seed)
    found = constructions(n_players, n_rounds, rng) or [([], False)]
    perfect, complete = found[0]
    if n_rounds <= len(perfect) or complete:
        rng.shuffle(perfect)
        perfect = _relabelled(perfect, n_players, rng)
        if n_rounds <= len(perfect):
            rounds = perfect[:n_rounds]
        else:
            rounds = [perfect[r % len(perfect)] for r in range(n_rounds)]
        return Schedule(tidy(balance_winds(rounds)))
    # Past every construction: a search from each (the longest is not always the best start — 68 players
    # over 22 rounds end with 20 repeated pairs from TD(4, 17)'s 17 rounds, 39 from a starter's 21),
    # keeping the fewest repeats; the first found wins a tie.
    bound = pair_cost_lower_bound(n_players, n_rounds)
    steps = step_budget(n_players, n_rounds, time_budget_iterations)
    best: tuple[int, Rounds] | None = None
    for start_rounds, _ in found:
        rng.shuffle(start_rounds)
        start = greedy(n_players, n_rounds, rng, _relabelled(start_rounds, n_players, rng))
        search = TabuSearch(start, n_players, rng)
        rounds = search.run(steps, bound)
        if best is None or search.best_cost < best[0]:
            best = (search.best_cost, rounds)
        if best[0] <= bound:
            break
    assert best is not None
    return Schedule(tidy(balance_winds(best[1])))
