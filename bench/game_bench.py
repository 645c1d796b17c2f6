"""Benchmark: random full games per second, for each variant. Prints figures; asserts nothing.

    make bench        (or, in the project's virtual environment: python bench/game_bench.py
                       [--games 300] [--seed 1] [--passes 3])

Each game is dealt from its own seed and played to the end by the random-play driver (a legal
move at random, every provable stone claimed), which is also what the test-suite soak runs.

``--instructions`` counts instructions instead of seconds, for an A/B run on a busy machine
(valgrind needed): each variant's games are played once under callgrind, and once more with no
game played (the start-up, the imports and a first game that makes the tables the engine makes
once), and the difference divided by the games is printed per
game. The hash seed is fixed, so two runs of one engine count alike; run the bench of each copy
of the engine from its own tree (or with PYTHONPATH) and compare.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time

from counting import callgrind_instructions, engine_home  # bench/counting.py

from engine import CARDS, CardSet, CombatMode, Game, play_random_game, strongest_completion

VARIANTS = (("base", False), ("tactics", False), ("base", True), ("tactics", True))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games per variant (300)")
    parser.add_argument("--seed", type=int, default=1, help="first seed (1)")
    parser.add_argument("--passes", type=int, default=3, help="passes, the fastest shown (3)")
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="count instructions a game under callgrind instead of timing (--games 100 is plenty)",
    )
    parser.add_argument("--play", nargs=2, metavar=("VARIANT", "EXPERT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.play:
        _play(args.play[0], args.play[1] == "expert", args.seed, args.games)
        return
    if args.instructions:
        instructions(args.seed, args.games)
        return
    print(
        f"Python {platform.python_version()} on {platform.machine()}, {platform.processor() or '?'}"
    )
    print(f"CPU time of the fastest of {args.passes} passes over {args.games} games a variant")
    print(f"{'':<28} {'games/s':>9} {'moves/game':>11} {'ms/game':>9} {'slowest ms':>11}")
    for variant, expert in VARIANTS:
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


def _play(variant: str, expert: bool, first: int, games: int) -> None:
    """Play ``games`` games, untimed: what callgrind counts (none, for the baseline). A game of
    seed 0 and the best completion of an empty side of each size come first in both runs, so that
    the tables the engine makes once (the Mud Fight's among them) are not counted."""
    play_random_game(Game.named(variant, expert=expert, seed=0), random.Random(0))
    for modes in ((), (CombatMode.MUD_FIGHT,)):
        strongest_completion((), CardSet(CARDS).mask, modes)
    for seed in range(first, first + games):
        play_random_game(Game.named(variant, expert=expert, seed=seed), random.Random(seed))


def instructions(first: int, games: int) -> None:
    """Each variant's instructions a game, counted by callgrind (see the module's words)."""
    print(f"instructions a game, callgrind, {games} games a variant (engine: {engine_home()})")
    for variant, expert in VARIANTS:
        mode = "expert" if expert else "plain"
        counts = [_callgrind_total(variant, mode, first, played) for played in (games, 0)]
        label = variant + (", expert" if expert else "")
        print(f"  {label:<26} {(counts[0] - counts[1]) / games / 1e6:9.2f}M")


def _callgrind_total(variant: str, mode: str, first: int, games: int) -> int:
    arguments = ["--play", variant, mode, "--seed", str(first), "--games", str(games)]
    return callgrind_instructions(__file__, arguments)


if __name__ == "__main__":
    main()
