"""Benchmark: the claim proof against exhaustive enumeration. Prints figures; asserts nothing.

    make bench        (or, in the project's virtual environment: python bench/claim_bench.py
                       [--positions 2000] [--seed 7])

Worst case for enumeration: the opponent's side empty and the claim granted, so every completion
from the cards out of sight is tried. The random figures replay the same seeded positions
through both.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from collections.abc import Callable
from functools import partial

from engine import (
    CombatMode,
    Position,
    StoneState,
    claim_verdict,
    make_card,
    parse_card,
    strongest_completion,
)
from engine.enumeration import (
    best_strength_by_enumeration,
    claim_granted_by_enumeration,
    clear_strength_cache,
    enumeration_size,
)
from engine.sampling import random_claim_position, random_tactics_claim_position

TARGET_WORST_US = 50.0
TARGET_ELITE_US = 200.0


def per_call(function: Callable[[], object], *, budget_s: float = 0.2, repeats: int = 5) -> float:
    """Seconds per call: the best of ``repeats`` timed batches, each about ``budget_s`` long."""
    start = time.perf_counter()
    function()
    once = max(time.perf_counter() - start, 1e-7)
    number = max(1, int(budget_s / once))
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(number):
            function()
        best = min(best, (time.perf_counter() - start) / number)
    return best


def enumeration_time(function: Callable[[], object], repeats: int = 3) -> float:
    """Seconds for one enumeration, best of ``repeats``, each from a cold strength cache."""
    best = float("inf")
    for _ in range(repeats):
        clear_strength_cache()
        start = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - start)
    return best


def row(label: str, proof_s: float, enumeration_s: float | None) -> None:
    enumeration = f"{enumeration_s * 1e3:10.2f} ms" if enumeration_s is not None else " " * 13
    ratio = f"{enumeration_s / proof_s:9.0f}x" if enumeration_s else ""
    print(f"{label:<52} {proof_s * 1e6:9.1f} us   {enumeration}   {ratio}")


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card(name) for name in text.split(","))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=2000, help="random positions (2000)")
    parser.add_argument("--seed", type=int, default=7, help="seed of the random positions (7)")
    args = parser.parse_args()

    print(
        f"Python {platform.python_version()} on {platform.machine()}, {platform.processor() or '?'}"
    )
    print(f"{'':<52} {'proof':>12}   {'enumeration':>13}   {'speed-up':>9}")

    # The worst case named in the issue: their side empty, the claim granted, a bare board.
    worst = Position.from_stones({1: StoneState(sides=(cards("red 7, red 8, red 9"), ()))})
    assert claim_verdict(worst, 1).granted and claim_granted_by_enumeration(worst, 1)
    worst_s = per_call(lambda: claim_verdict(worst, 1))
    row(
        "worst case: 7-8-9 colour run vs empty side",
        worst_s,
        enumeration_time(lambda: claim_granted_by_enumeration(worst, 1)),
    )

    # The proof's own worst: the slowest of many empty-side grants on random boards.
    rng = random.Random(args.seed)
    slowest: tuple[float, Position, int] | None = None
    grants = 0
    while grants < 300:
        colour, lowest = rng.randrange(6), rng.randint(1, 7)
        run = [make_card(colour, value) for value in range(lowest, lowest + 3)]
        position, stone = random_claim_position(rng, table_cards=(0, 44), mine=run, theirs_count=0)
        if not claim_verdict(position, stone).granted:
            continue
        grants += 1
        seconds = per_call(partial(claim_verdict, position, stone), budget_s=0.01, repeats=3)
        if slowest is None or seconds > slowest[0]:
            slowest = (seconds, position, stone)
    assert slowest is not None
    _, position, stone = slowest
    slow_s = per_call(lambda: claim_verdict(position, stone))
    row(
        f"slowest of {grants} random empty-side grants",
        slow_s,
        enumeration_time(lambda: claim_granted_by_enumeration(position, stone)),
    )

    # Mud Fight: four missing cards, where enumeration grows to C(n, 4).
    pool = worst.out_of_sight_mask()
    mud = (CombatMode.MUD_FIGHT,)
    row(
        "Mud Fight: best 4-card completion, empty side",
        per_call(lambda: strongest_completion((), pool, mud)),
        enumeration_time(lambda: best_strength_by_enumeration((), pool, mud), repeats=1),
    )

    # Tactics: a Mud Fight stone, their side empty, both Jokers, the Spy and the Shield-Bearer
    # unseen. Enumeration would score millions of sides here, so only its size is printed.
    elite = Position.from_stones(
        {
            5: StoneState(
                sides=(cards("red 6, red 7, red 8, red 9"), ()),
                modes=frozenset({CombatMode.MUD_FIGHT}),
            )
        },
        variant="tactics",
    )
    assert claim_verdict(elite, 5).granted
    elite_s = per_call(lambda: claim_verdict(elite, 5))
    print(
        f"{'elite troops unseen, Mud Fight, empty side':<52} {elite_s * 1e6:9.1f} us"
        f"   (enumeration: about {enumeration_size(elite, 5):,} sides to score)"
    )
    elite_slowest = 0.0
    for _ in range(300):
        position, stone = random_tactics_claim_position(rng, table_cards=(0, 30))
        seconds = per_call(partial(claim_verdict, position, stone), budget_s=0.002, repeats=3)
        elite_slowest = max(elite_slowest, seconds)
    print(f"{'slowest of 300 random tactics claims':<52} {elite_slowest * 1e6:9.1f} us")

    # Random positions: the same seeded ones through both, every verdict compared.
    rng = random.Random(args.seed)
    samples = [random_claim_position(rng) for _ in range(args.positions)]
    proof_times = [
        per_call(partial(claim_verdict, position, stone), budget_s=0.002, repeats=3)
        for position, stone in samples
    ]
    enumeration_times: list[float] = []
    for position, stone in samples:
        clear_strength_cache()
        start = time.perf_counter()
        granted = claim_granted_by_enumeration(position, stone)
        enumeration_times.append(time.perf_counter() - start)
        assert granted == claim_verdict(position, stone).granted, (position, stone)
    row(
        f"mean over {args.positions} random positions",
        statistics.fmean(proof_times),
        statistics.fmean(enumeration_times),
    )
    row(f"max over {args.positions} random positions", max(proof_times), max(enumeration_times))

    worst_us = max(worst_s, slow_s, max(proof_times)) * 1e6
    verdict = "within" if worst_us <= TARGET_WORST_US else "OVER"
    print(f"\nworst-case proof {worst_us:.1f} us: {verdict} the {TARGET_WORST_US:.0f} us target")
    elite_us = max(elite_s, elite_slowest) * 1e6
    verdict = "within" if elite_us <= TARGET_ELITE_US else "OVER"
    print(f"worst tactics proof {elite_us:.1f} us: {verdict} the {TARGET_ELITE_US:.0f} us target")


if __name__ == "__main__":
    main()
