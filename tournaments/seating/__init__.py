"""Tournament seating: who plays whom, and in which seat, in every round of an EMA riichi tournament.

Pure Python (standard library only) so that it can be used and tested without Django, and re-run offline
by anyone who wants to check a published seating. An import-linter contract keeps it that way.

Model
-----
A tournament of ``n`` players (a multiple of 4) plays ``R`` rounds, all tables at once. A round is a tuple
of tables; a table is a tuple of four *player indices* in seat order East, South, West, North (seat
``s`` is wind ``s``). The caller maps indices to people, in any order: every round, the first included,
is a seeded random draw.

Two things make a seating fair, and they are handled separately because they are independent:

* **Opponents.** Nobody should meet the same opponent twice while there are still people they have not played
  (the "social golfer" problem). Each round a player meets three new people, so at most ``floor((n - 1) / 3)``
  rounds can be free of repeats; :func:`generate` reaches that for every size with a recorded cyclic starter
  (:mod:`.starters`: one base round shifted ``m`` times — resolvable designs rebuilt from a difference
  family), with rounds fixed by a group of translations (:mod:`.orbits`: each round the orbit of a few base
  tables under Z_2^3, 32 players) or a finite geometry (:mod:`.construction`: AG(2, 4), AG(3, 4), transversal
  designs over GF(q)). Past that maximum, repeats are unavoidable and are spread as evenly as possible
  (:mod:`.search`: greedy draw + tabu search on ``sum over pairs of C(times_met, 2)``, so two pairs meeting
  twice beat one pair meeting three times).
* **Shared opponents.** Two players who never meet are compared through the opponents they share, so
  among schedules without repeats the one whose unmet pairs share the most opponents (the fewest over
  all unmet pairs, :attr:`Quality.min_shared_opponents`) is fairer: :mod:`.shared` chooses the
  construction's rounds and then moves players locally for it, keeping zero repeats, up to the
  counting bound :func:`shared_opponents_bound`.
* **Teams.** ``groups=`` (:mod:`.teams`): sets of players who never share a table — a hard constraint
  kept by :func:`generate`, :func:`reseat_remaining` and :func:`swiss_round` wherever the tables allow
  it; :func:`quality` with the same groups counts ``teammates_together``.
* **Winds.** Everyone should sit each wind ``R/4`` times. :func:`balance_winds` (:mod:`.winds`) solves
  this exactly as a bipartite edge colouring (König's theorem); it only reorders seats within a table,
  so it never changes who meets whom.

Also here: :func:`quality` (:mod:`.quality`, with the lower bounds), manual :func:`swap`
(:mod:`.schedule`), Swiss rounds drawn from the standings (:mod:`.swiss`), and :func:`reseat_remaining`
(:mod:`.reseat`) for late changes: late arrivals, drop-outs, one table fewer from round N, with the
ways out the day allows and who sits out when the tables cannot seat everyone (:mod:`.late`).

Players not divisible by 4
--------------------------
:func:`generate` needs a multiple of 4. Pad with substitute seats: ask for :func:`padded_count` players;
indices ``0 .. n_players - 1`` are the real players and ``n_players .. padded_count(n_players) - 1`` are
the substitute seats (filled on the day by a substitute or played as a "ghost" seat). :func:`quality`
with the real ``n_players`` ignores meetings with and winds of substitute seats.

Everything here is deterministic for a given seed: randomness comes only from ``random.Random(seed)``,
and iteration budgets are counted in search steps, never in wall-clock time.
"""

from __future__ import annotations

from .generator import generate
from .late import MAX_BYES, WayOut, sit_outs, ways_out
from .quality import (
    Quality,
    max_rounds_without_repeats,
    pair_cost_lower_bound,
    quality,
    repeated_pairs_lower_bound,
    shared_opponents_bound,
)
from .reseat import Reseating, event_quality, reseat_remaining
from .schedule import TABLE_SIZE, WINDS, Round, Rounds, Schedule, Table, padded_count, swap
from .search import DEFAULT_ITERATIONS
from .swiss import swiss_round
from .winds import balance_winds

__all__ = [
    "DEFAULT_ITERATIONS",
    "MAX_BYES",
    "TABLE_SIZE",
    "WINDS",
    "Quality",
    "Reseating",
    "Round",
    "Rounds",
    "Schedule",
    "Table",
    "WayOut",
    "balance_winds",
    "event_quality",
    "generate",
    "max_rounds_without_repeats",
    "padded_count",
    "pair_cost_lower_bound",
    "quality",
    "repeated_pairs_lower_bound",
    "reseat_remaining",
    "shared_opponents_bound",
    "sit_outs",
    "swap",
    "swiss_round",
    "ways_out",
]
