"""Seating generation time and quality, against the goal of well under 10 s per schedule.

Times ``tournaments.seating.generate`` (best of 3, ``time.perf_counter``) for the usual EMA sizes — 32, 48 and
64 players over 8 rounds by default — and prints each schedule's quality: repeated pairs (goal 0), the
most times any pair met, and the wind imbalance (goal 0: everyone sits each wind R/4 times). "MISSED"
means over time, unbalanced winds, or repeats above the counting lower bound, which not every size can
reach (e.g. 20 players over 6 rounds).

With ``--search-only`` it also times the tabu search alone from a greedy start, without the finite-geometry
constructions, to show how much they are worth.

    python bench/seating.py [--players 32 48 64] [--rounds 8] [--seed S] [--search-only]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from tournaments import seating  # noqa: E402

GOAL = 10.0  # seconds per schedule
ROUNDS = 3


def best_of(work: Callable[[], Any], rounds: int = ROUNDS) -> tuple[float, Any]:
    """The fastest of ``rounds`` runs in seconds (the least disturbed by the rest of the machine), and
    the last result."""
    best, result = float("inf"), None
    for _ in range(rounds):
        start = time.perf_counter()
        result = work()
        best = min(best, time.perf_counter() - start)
    return best, result


def search_only(n: int, rounds: int, seed: int) -> seating.Schedule:
    """Greedy start and tabu search, no construction: what local search alone achieves."""
    rng = random.Random(seed)
    search = seating._TabuSearch(seating._greedy(n, rounds, rng), n, rng)
    best = search.run(seating.DEFAULT_ITERATIONS, seating.pair_cost_lower_bound(n, rounds))
    return seating.Schedule(seating.balance_winds(best))


def report(label: str, seconds: float, schedule: seating.Schedule, n: int) -> bool:
    q = seating.quality(schedule, n)
    bound = seating.repeated_pairs_lower_bound(n, schedule.n_rounds)
    ok = seconds < GOAL and q.repeated_pairs == bound
    ok = ok and q.perfect_winds
    print(
        f"{label:<28} {seconds:7.3f} s   repeated pairs {q.repeated_pairs:3d} (bound {bound:3d})   "
        f"max meetings {q.max_meetings}   wind imbalance {q.wind_imbalance:3d}   {'ok' if ok else 'MISSED'}"
    )
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[32, 48, 64])
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--search-only", action="store_true", help="also time the search without constructions"
    )
    args = parser.parse_args(argv)

    print(f"goal: under {GOAL:.0f} s, repeated pairs at the counting lower bound, every wind R/4 times")
    all_ok = True
    for n in args.players:
        seconds, schedule = best_of(lambda n=n: seating.generate(n, args.rounds, seed=args.seed))
        all_ok &= report(f"generate({n}, {args.rounds})", seconds, schedule, n)
        if args.search_only:
            seconds, schedule = best_of(lambda n=n: search_only(n, args.rounds, args.seed), rounds=1)
            report(f"  search only ({n}, {args.rounds})", seconds, schedule, n)
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
