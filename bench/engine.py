"""Engine throughput: how many hands per second the replay handles, against the goal of 50 000 hands/s.

Standings, statistics and ratings are all re-derived by replaying stored hands, so replay speed bounds
how fast a large event's pages can be recomputed. This script generates random legal hanchans with the
engine's generator, then times (best of 3, ``time.perf_counter``):

1. replaying the games already in memory (``GameRecord.replay``), and
2. reading them from JSON-ready dicts and producing the command's output
   (``record_from_dict`` + ``replay_output``), which is what ``manage.py replay`` and imports do.

Note that ``record_from_dict`` already replays once to validate, so figure 2 replays every game twice.

    python bench/engine.py [--games N] [--preset P | --all-presets] [--seed S]
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

from scoring.engine import PRESETS, GameRecord, make_ruleset, record_from_dict, replay_output  # noqa: E402
from scoring.engine.generator import random_game  # noqa: E402

GOAL = 50_000  # hands per second
ROUNDS = 3


def generate(preset: str, games: int, seed: int) -> list[GameRecord]:
    """``games`` hanchans played to their end, reproducible from ``seed``."""
    rules = make_ruleset(preset)
    rng = random.Random(seed)
    return [random_game(rules, rng) for _ in range(games)]


def best_of(work: Callable[[], Any], rounds: int = ROUNDS) -> float:
    """The fastest of ``rounds`` runs, in seconds (the least disturbed by the rest of the machine)."""
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def replay_all(records: list[GameRecord]) -> None:
    for record in records:
        record.replay()


def parse_and_replay_all(dicts: list[dict[str, Any]]) -> None:
    for data in dicts:
        replay_output(record_from_dict(data))


def report(label: str, hands: int, seconds: float) -> None:
    rate = hands / seconds if seconds else float("inf")
    print(
        f"  {label:<26} {hands:>8} hands  {seconds:8.4f} s  {rate:>11,.0f} hands/s  "
        f"{rate / GOAL:6.2f}× goal ({GOAL:,}/s)"
    )


def bench(presets: list[str], games: int, seed: int) -> None:
    total_hands = 0
    total_replay = 0.0
    total_parse = 0.0
    for preset in presets:
        records = generate(preset, games, seed)
        dicts = [record.to_dict() for record in records]
        hands = sum(len(record.hands) for record in records)
        print(f"{preset}: {games} games, {hands} hands ({hands / games:.1f} per game), seed {seed}")
        replay_seconds = best_of(lambda records=records: replay_all(records))
        parse_seconds = best_of(lambda dicts=dicts: parse_and_replay_all(dicts))
        report("replay", hands, replay_seconds)
        report("record_from_dict + output", hands, parse_seconds)
        total_hands += hands
        total_replay += replay_seconds
        total_parse += parse_seconds
    if len(presets) > 1:
        print(f"all presets: {len(presets) * games} games")
        report("replay", total_hands, total_replay)
        report("record_from_dict + output", total_hands, total_parse)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="hanchans per preset (default 2000)")
    parser.add_argument("--preset", default="ema2016", choices=sorted(PRESETS), help="default ema2016")
    parser.add_argument("--all-presets", action="store_true", help="run every preset in turn")
    parser.add_argument("--seed", type=int, default=2016, help="generator seed (default 2016)")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    presets = list(PRESETS) if args.all_presets else [args.preset]
    print(f"Python {sys.version.split()[0]}, best of {ROUNDS}")
    bench(presets, args.games, args.seed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
