"""A full seating plan: the most perfect rounds a construction gives, then search for the rest."""

from __future__ import annotations

import random
from collections.abc import Iterable

from .construction import affine_rounds, transversal_rounds
from .fields import field
from .orbits import FAMILIES
from .orbits import develop as develop_family
from .quality import pair_cost_lower_bound, shared_opponents_bound
from .schedule import TABLE_SIZE, Schedule, padded_count, tidy
from .search import DEFAULT_ITERATIONS, TabuSearch, greedy, step_budget
from .shared import SHARED_WORK, SharedSearch, choose_rounds
from .starters import STARTERS, develop
from .teams import TEAMMATE_WEIGHT, normalise, place, team_masks, teammate_pairs, weighted_base
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
    groups: Iterable[Iterable[int]] | None = None,
    shared_work: int = SHARED_WORK,
) -> Schedule:
    """A full seating for ``n_players`` (a multiple of 4) over ``n_rounds``.

    Opponents: no pair meets twice up to the most rounds the constructions give — the maximum
    ``floor((n - 1) / 3)`` for the sizes in :data:`~tournaments.seating.starters.STARTERS` and
    :data:`~tournaments.seating.orbits.FAMILIES` (see
    :func:`~tournaments.seating.max_rounds_without_repeats`), ``n/4`` rounds when ``n/4`` is a prime
    power, and at least 15 rounds from 64 players up. Beyond that, a complete design (every pair met
    once: 16, 28, 40, 52, 64, … players) is repeated in turn, so no pair meets k+1 times before every
    pair has met k times; otherwise the extra rounds are drawn greedily and a seeded tabu search spreads
    the repeats as evenly as it can (``sum over pairs of C(times_met, 2)`` as low as it finds), once from
    each construction of :func:`constructions` (a starter's rounds, a transversal design's), keeping
    the best.

    Shared opponents (when there are no repeats): of the constructions with enough rounds (a transversal
    design TD(4, n/4) too when n/4 is a prime power), the rounds are chosen and then changed locally for
    the most opponents shared by the two players of every unmet pair (:mod:`.shared`), up to
    :func:`~tournaments.seating.quality.shared_opponents_bound`; ``shared_work`` bounds that search
    (in pair recounts, :data:`~tournaments.seating.shared.SHARED_WORK`; 0 turns it off).

    Teams: ``groups`` are sets of player indices who must never share a table (teammates). It is a hard
    constraint wherever it can be kept: the construction's points are assigned so that teammates never
    meet (:func:`~tournaments.seating.teams.place`), and where no assignment does it the tabu search
    counts a teammate meeting as :data:`~tournaments.seating.teams.TEAMMATE_WEIGHT` repeats, so it
    takes repeated opponents before teammates together. A team larger than the number of tables cannot
    be kept apart: :func:`~tournaments.seating.quality` with the same ``groups`` reports
    ``teammates_together``.

    Winds: exactly balanced by :func:`~tournaments.seating.balance_winds`. Every round, the first
    included, is a seeded random draw (players are relabelled at random), so indices may be assigned in
    any order, e.g. alphabetically; tables are listed by their lowest player index.

    ``time_budget_iterations`` caps the tabu-search steps (not seconds, so results never depend on the
    machine's speed), and so does :func:`~tournaments.seating.search.step_budget` for large sizes;
    the search stops earlier once it reaches the counting lower bound.

    Raises ValueError unless ``n_players`` is a positive multiple of 4 (pad with substitute seats: see
    :func:`~tournaments.seating.padded_count`) and ``n_rounds`` is positive, or when a group names a
    player twice or one who is not ``0 .. n_players - 1``.
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
    if shared_work < 0:
        raise ValueError("shared_work must not be negative")
    teams = normalise(groups, n_players)
    rng = random.Random(seed)
    found = constructions(n_players, n_rounds, rng) or [([], False)]
    perfect, complete = found[0]
    if n_rounds <= len(perfect):
        rounds = _without_repeats(n_players, n_rounds, found, teams, rng, shared_work)
        if rounds is not None:
            return Schedule(tidy(balance_winds(rounds)))
    elif complete and not teams:
        rng.shuffle(perfect)
        perfect = _relabelled(perfect, n_players, rng)
        rounds = [perfect[r % len(perfect)] for r in range(n_rounds)]
        return Schedule(tidy(balance_winds(rounds)))
    rounds = _searched(n_players, n_rounds, found, teams, rng, time_budget_iterations)
    return Schedule(tidy(balance_winds(rounds)))


def _without_repeats(
    n: int,
    n_rounds: int,
    found: list[tuple[Rounds, bool]],
    teams: list[list[int]],
    rng: random.Random,
    shared_work: int,
) -> Rounds | None:
    """``n_rounds`` rounds with no repeated pair and teammates apart, the most shared opponents found;
    None when teammates cannot be placed apart on any construction (then the search takes over).

    Candidates: every construction with enough rounds, and the transversal design TD(4, n/4) when n/4
    is a prime power with enough columns (its groups never meet, so it is the best at some sizes: 32 ×
    8 reaches 24, every opponent shared). Each gets its best ``n_rounds`` (:func:`choose_rounds`); with
    teams, the fewest teammate meetings come first.
    """
    q = n // TABLE_SIZE
    candidates = [rounds for rounds, _ in found if len(rounds) >= n_rounds]
    if q >= max(n_rounds, 4) and field(q) is not None:
        candidates.append(transversal_rounds(q, q, rng))
    best: tuple[tuple[int, tuple[int, int]], Rounds, list[int]] | None = None
    for rounds in candidates:
        rng.shuffle(rounds)
        chosen, unused, score = choose_rounds(rounds, n_rounds, n, rng)
        if teams:
            point_of, conflicts = place(chosen, n, teams, rng, slots=unused[0] if unused else None)
            labels = [0] * n
            for player, point in enumerate(point_of):
                labels[point] = player
        else:
            conflicts = 0
            labels = list(range(n))
            rng.shuffle(labels)
        key = (-conflicts, score)
        if best is None or key > best[0]:
            best = (key, chosen, labels)
    assert best is not None
    (conflicts, _), chosen, labels = best
    if conflicts:
        return None
    rounds = [[[labels[p] for p in table] for table in round_] for round_ in chosen]
    bound = shared_opponents_bound(n, n_rounds)
    steps = shared_work // (16 * n)
    if bound is None or not steps:
        return rounds
    forbid = team_masks(teams, n)
    return SharedSearch(rounds, n, rng, forbid).run(steps, bound)


def _searched(
    n: int,
    n_rounds: int,
    found: list[tuple[Rounds, bool]],
    teams: list[list[int]],
    rng: random.Random,
    iterations: int,
) -> Rounds:
    """Past every construction (or where teammates cannot be kept apart without repeats): a search from
    each construction — the longest is not always the best start: 68 players over 22 rounds end with 20
    repeated pairs from TD(4, 17)'s 17 rounds, 39 from a starter's 21 — keeping the lowest cost; the
    first found wins a tie. Teammate pairs count as already met :data:`TEAMMATE_WEIGHT` times."""
    base = weighted_base(n, teams) if teams else None
    offset = len(teammate_pairs(teams)) * (TEAMMATE_WEIGHT * (TEAMMATE_WEIGHT - 1) // 2)
    bound = pair_cost_lower_bound(n, n_rounds) + offset
    steps = step_budget(n, n_rounds, iterations)
    best: tuple[int, Rounds] | None = None
    for start_rounds, _ in found:
        rng.shuffle(start_rounds)
        start_rounds = start_rounds[:n_rounds]
        if teams:
            point_of, _ = place(start_rounds, n, teams, rng)
            labels = [0] * n
            for player, point in enumerate(point_of):
                labels[point] = player
            relabelled = [[[labels[p] for p in table] for table in round_] for round_ in start_rounds]
        else:
            relabelled = _relabelled(start_rounds, n, rng)
        start = greedy(n, n_rounds, rng, relabelled, base)
        search = TabuSearch(start, n, rng, base=base)
        rounds = search.run(steps, bound)
        if best is None or search.best_cost < best[0]:
            best = (search.best_cost, rounds)
        if best[0] <= bound:
            break
    assert best is not None
    return best[1]
