"""Benchmark aid: print the proof's answers on many seeded boards, to diff two trees' outputs.

Prints one line per answer and asserts nothing. Run it from two trees (``PYTHONPATH`` naming the
tree whose ``engine`` is to answer) and diff the outputs: a change of the proof's code that keeps
every verdict and every witness prints the same bytes.

    PYTHONPATH=. python bench/proof_compare.py [--count 2000] [--seed 1] > new.txt
    PYTHONPATH=../main python bench/proof_compare.py [--count 2000] [--seed 1] > old.txt
    diff old.txt new.txt

Each line is a claim verdict (its repr, the opponent's best completion and the explanation, which
names every elite troop's identity), or one call of ``strongest_completion`` (the completion's
repr) or of ``strength``/``describe`` on a complete side. The boards: random base and tactics
claim positions (``bench/sampling.py``), the starting boards of every family of
``bench/claim_bench.py`` moved a few random steps, and sides drawn directly (any combination of
combat modes, elite troops placed and addable in any order, pools dense, sparse or of a few
neighbouring values, bars to beat).
"""

from __future__ import annotations

import argparse
import random

from claim_bench import CLAIMED, FAMILIES, changed  # bench/claim_bench.py
from sampling import random_claim_position, random_tactics_claim_position

from engine import (
    CARDS,
    CardSet,
    CombatMode,
    Position,
    Tactic,
    claim_verdict,
    describe,
    side_capacity,
    strength,
    strongest_completion,
)

MODE_SETS = (
    (),
    (CombatMode.MUD_FIGHT,),
    (CombatMode.BLIND_MANS_BLUFF,),
    (CombatMode.MUD_FIGHT, CombatMode.BLIND_MANS_BLUFF),
)
TROOPS = (Tactic.JOKER, Tactic.SECOND_JOKER, Tactic.SPY, Tactic.SHIELD_BEARER)


def verdict_line(position: Position, stone: int) -> str:
    verdict = claim_verdict(position, stone)
    return f"{verdict!r} | {verdict.best_reply!r} | {verdict.explanation}"


def claim_lines(rng: random.Random, count: int) -> None:
    for index in range(count):
        kind = index % 4
        if kind == 0:
            position, stone = random_claim_position(rng, table_cards=(0, 46))
        elif kind == 1:
            modes = [mode for mode in CombatMode if rng.random() < 0.5]
            position, stone = random_claim_position(rng, modes=modes, table_cards=(0, 46))
        elif kind == 2:
            position, stone = random_tactics_claim_position(rng, table_cards=(0, 46))
        else:
            position, stone = random_tactics_claim_position(rng)
        print(f"claim {index}: {verdict_line(position, stone)}")


def family_lines(rng: random.Random, count: int) -> None:
    for family in FAMILIES:
        shown = 0
        recipe = family.start(rng)
        while shown < count:
            candidate = recipe
            for _ in range(rng.choice((1, 2, 4))):
                candidate = changed(candidate, rng)
            if not family.holds(candidate):
                recipe = family.start(rng) if rng.random() < 0.05 else recipe
                continue
            position = candidate.build()
            if position is None:
                continue
            recipe = candidate
            shown += 1
            print(f"{family.name} {shown}: {verdict_line(position, CLAIMED)}")


def completion_lines(rng: random.Random, count: int) -> None:
    for index in range(count):
        modes = rng.choice(MODE_SETS)
        size = side_capacity(modes)
        deck = list(CARDS)
        rng.shuffle(deck)
        placed = [deck.pop() for _ in range(rng.randint(0, size - 1))]
        kind = rng.randrange(4)
        if kind == 0:  # a few neighbouring values in a few colours
            low = rng.randint(1, 6)
            colours = rng.sample(range(6), rng.randint(1, 6))
            keep = rng.random()
            pool = [
                card
                for card in deck
                if low <= card % 9 + 1 <= low + 4 and card // 9 in colours and rng.random() < keep
            ]
        elif kind == 1:
            pool = deck[: rng.randint(0, 12)]
        else:
            pool = deck[: rng.randint(8, len(deck))]
        wilds: list[int] = []
        if rng.random() < 0.6:
            kinds = [rng.choice(TROOPS[:2]), Tactic.SPY, Tactic.SHIELD_BEARER]
            rng.shuffle(kinds)
            if placed and rng.random() < 0.5:
                placed[rng.randrange(len(placed))] = kinds.pop()
            if len(placed) > 1 and rng.random() < 0.2 and kinds:
                placed[0] = kinds.pop()
            wilds = [troop for troop in kinds if rng.random() < 0.7]
        beating = rng.choice((-1, -1, rng.randint(0, 300)))
        mask = CardSet(pool).mask
        found = strongest_completion(placed, mask, modes, beating=beating, wilds=wilds)
        print(f"completion {index}: {found!r}")
        if found is not None:
            side = (*placed, *found.added)
            print(f"  side {index}: {strength(side, modes)} {describe(side, modes)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=2000, help="boards of each kind (2000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the boards (1)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    claim_lines(rng, args.count * 4)
    family_lines(rng, max(1, args.count // 4))
    completion_lines(rng, args.count * 4)


if __name__ == "__main__":
    main()
