"""Benchmark: random full games per second, for each variant. Prints figures; asserts nothing.

    make bench        (or, in the project's virtual environment: python bench/game_bench.py
                       [--games 300] [--seed 1] [--passes 3])

Each game is dealt from its own seed and played to the end by the random-play driver (a legal
move at random, every provable stone claimed), which is also what the test-suite soak runs.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time

from engine import Game, play_random_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games per variant (300)")
    parser.add_argument("--seed", type=int, default=1, help="first seed (1)")
    parser.add_argument("--passes", type=int, default=3, help="passes, the fastest shown (3)")
    args = parser.parse_args()
    print(
        f"Python {platform.python_version()} on {platform.machine()}, {platform.processor() or '?'}"
    )
    print(f"CPU time of the fastest of {args.passes} passes over {args.games} games a variant")
    print(f"{'':<28} {'games/s':>9} {'moves/game':>11} {'ms/game':>9} {'slowest ms':>11}")
    for variant, expert in (("base", False), ("tactics", False), ("base", True), ("tactics", True)):
        passes = [_one_pass(variant, expert, args.seed, args.games) for _ in range(args.passes)]
        times, moves = min(passes, key=lambda found: sum(found[0]))
        label = variant + (", expert" if expert else "")
        print(
            f"{label:<28} {len(times) / sum(times):9.0f} {moves / len(times):11.1f}"
            f" {statistics.fmean(times) * 1e3:9.2f} {max(times) * 1e3:11.2f}"
        )
    print(
        f"goals of issue 47: {GOALS['base']} base and {GOALS['tactics']} tactics games/s"
        " (on its quiet 2-core machine)"
    )


GOALS = {"base": 1500, "tactics": 1000}
"""Random games a second of one core, the goals of issue 47 ("Fast by structure", 2026-12-05),
measured on a quiet 2-core machine where the engine then played 632 base and 431 tactics games a
second: a figure from another machine compares only with one taken beside it."""


def _one_pass(variant: str, expert: bool, first: int, games: int) -> tuple[list[float], int]:
    """The CPU seconds of each game of one pass, and the moves they made in all."""
    times: list[float] = []
    moves = 0
    for seed in range(first, first + games):
        game = Game.named(variant, expert=expert, seed=seed)
        start = time.process_time()
        state = play_random_game(game, random.Random(seed))
        times.append(time.process_time() - start)
        moves += len(state.moves)
    return times, moves


if __name__ == "__main__":
    main()
