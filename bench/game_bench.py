"""Benchmark: random full games per second, for each variant. Prints figures; asserts nothing.

    make bench        (or, in the project's virtual environment: python bench/game_bench.py
                       [--games 300] [--seed 1])

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
    args = parser.parse_args()
    print(
        f"Python {platform.python_version()} on {platform.machine()}, {platform.processor() or '?'}"
    )
    print(f"{'':<28} {'games/s':>9} {'moves/game':>11} {'ms/game':>9} {'slowest ms':>11}")
    for variant, expert in (("base", False), ("tactics", False), ("base", True), ("tactics", True)):
        times: list[float] = []
        moves = 0
        for seed in range(args.seed, args.seed + args.games):
            game = Game.named(variant, expert=expert, seed=seed)
            start = time.perf_counter()
            state = play_random_game(game, random.Random(seed))
            times.append(time.perf_counter() - start)
            moves += len(state.moves)
        label = variant + (", expert" if expert else "")
        print(
            f"{label:<28} {len(times) / sum(times):9.0f} {moves / len(times):11.1f}"
            f" {statistics.fmean(times) * 1e3:9.2f} {max(times) * 1e3:11.2f}"
        )


if __name__ == "__main__":
    main()
