"""The claim proof agrees with exhaustive enumeration over the cards out of sight.

Thousands of seeded random positions by default; ``-m slow`` runs a longer soak.
"""

from __future__ import annotations

import random

import pytest

from engine import CombatMode, Reason, claim_verdict, strength, strongest_completion
from engine.cards import CARDS, mask_of
from engine.enumeration import best_strength_by_enumeration, claim_granted_by_enumeration
from engine.sampling import random_claim_position

MODE_SETS = [
    (),
    (CombatMode.MUD_FIGHT,),
    (CombatMode.BLIND_MANS_BLUFF,),
    (CombatMode.MUD_FIGHT, CombatMode.BLIND_MANS_BLUFF),
]


def check_claims(seed: int, count: int) -> int:
    """Compare verdicts on ``count`` random base-game positions; return how many needed a proof."""
    rng = random.Random(seed)
    proofs = 0
    for index in range(count):
        position, stone = random_claim_position(rng, table_cards=(10, 40))
        verdict = claim_verdict(position, stone)
        expected = claim_granted_by_enumeration(position, stone)
        assert verdict.granted == expected, (seed, index, position, stone, verdict)
        if verdict.reason in (Reason.WITNESS, Reason.UNBEATABLE):
            proofs += 1
        if verdict.witness:
            state = position.stone(stone)
            mine, theirs = state.side(position.viewer), state.side(position.viewer.other)
            assert mask_of(verdict.witness) & position.on_table_mask() == 0
            assert strength(theirs + verdict.witness, state.modes) > strength(mine, state.modes)
    return proofs


def check_completions(seed: int, count: int) -> None:
    """Compare the strongest completion with enumeration, in every combination of combat modes."""
    rng = random.Random(seed)
    for index in range(count):
        modes = rng.choice(MODE_SETS)
        capacity = 4 if CombatMode.MUD_FIGHT in modes else 3
        deck = list(CARDS)
        rng.shuffle(deck)
        placed = deck[: rng.randint(1 if capacity == 4 else 0, capacity - 1)]
        rest = deck[len(placed) :]
        if rng.random() < 0.5:
            # A pool of a few neighbouring values and colours, where weak formations decide.
            low, colours = rng.randint(1, 6), rng.sample(range(6), rng.randint(2, 6))
            keep = rng.uniform(0.3, 1.0)
            rest = [
                card
                for card in rest
                if low <= card % 9 + 1 <= low + 4 and card // 9 in colours and rng.random() < keep
            ]
        else:
            rest = rest[rng.randint(16, 46) :]
        pool = mask_of(rest)
        expected = best_strength_by_enumeration(placed, pool, modes)
        found = strongest_completion(placed, pool, modes)
        assert (found and found.strength) == expected, (seed, index, placed, modes)
        if found is not None:
            assert strength(tuple(placed) + found.added, modes) == found.strength
            assert mask_of(found.added) & ~pool == 0
        threshold = rng.randint(0, 300)
        beating = strongest_completion(placed, pool, modes, beating=threshold)
        assert (beating is not None) == (expected is not None and expected > threshold)


def test_claim_verdicts_match_enumeration() -> None:
    proofs = check_claims(seed=2026, count=3000)
    assert proofs > 1000, "too few positions needed a proof to test it"


def test_strongest_completion_matches_enumeration_in_both_modes() -> None:
    check_completions(seed=11, count=2000)


def test_worst_case_granted_against_an_empty_side() -> None:
    # Nothing on their side and nothing else on the table: every three-card completion is tried.
    from engine import Position, StoneState, parse_card

    mine = tuple(parse_card(name) for name in ("red 7", "red 8", "red 9"))
    position = Position.from_stones({1: StoneState(sides=(mine, ()))})
    assert claim_verdict(position, 1).granted is claim_granted_by_enumeration(position, 1) is True


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(5))
def test_soak_claims(seed: int) -> None:
    check_claims(seed=1000 + seed, count=10_000)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(5))
def test_soak_completions(seed: int) -> None:
    check_completions(seed=2000 + seed, count=20_000)
