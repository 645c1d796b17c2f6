"""The claim proof agrees with exhaustive enumeration over the cards out of sight.

Thousands of seeded random positions by default; ``-m slow`` runs a longer soak.
"""

from __future__ import annotations

import random

import pytest

from engine import (
    CombatMode,
    Reason,
    claim_verdict,
    elite_troops_for,
    strength,
    strongest_completion,
)
from engine.cards import CARDS, mask_of
from engine.enumeration import (
    best_strength_by_enumeration,
    claim_granted_by_enumeration,
    enumeration_size,
    side_strength_by_enumeration,
)
from engine.formations import identities
from engine.reference_rules import TROOP_VALUES
from engine.sampling import random_claim_position, random_tactics_claim_position
from engine.tactics import Tactic

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
            witness_side = side_strength_by_enumeration(theirs + verdict.witness, state.modes)
            assert witness_side > side_strength_by_enumeration(mine, state.modes)
    return proofs


def check_tactics_claims(seed: int, count: int, budget: int = 300_000) -> int:
    """Compare verdicts on random tactics positions (combat modes, elite troops on the table, in
    hand, discarded or unseen); boards too costly to enumerate are drawn again. Returns how many
    compared positions had an unseen elite troop in play for the opponent."""
    rng = random.Random(seed)
    compared = with_troops = 0
    while compared < count:
        position, stone = random_tactics_claim_position(rng, table_cards=(40, 48))
        if enumeration_size(position, stone) > budget:
            continue
        compared += 1
        verdict = claim_verdict(position, stone)
        assert verdict.granted == claim_granted_by_enumeration(position, stone), (
            seed,
            compared,
            position,
            stone,
            verdict,
        )
        if elite_troops_for(position, position.viewer.other) and verdict.reason in (
            Reason.WITNESS,
            Reason.UNBEATABLE,
        ):
            with_troops += 1
    return with_troops


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
        troops: list[int] = []
        if rng.random() < 0.4:
            # Elite troops: one may already lie on the side, others may still be added.
            # Two kinds usually, three now and then on a tiny pool: a Joker alone has 54
            # identities for the enumeration to try.
            every_kind = rng.random() < 0.1
            kinds = rng.sample(
                [Tactic.JOKER, Tactic.SPY, Tactic.SHIELD_BEARER], 3 if every_kind else 2
            )
            if placed and rng.random() < 0.5:
                placed[-1] = kinds.pop()
            troops = [kind for kind in kinds if rng.random() < 0.6]
            rest = rest[: 4 if every_kind else 8]
        pool = mask_of(rest)
        # The enumeration ranks sides by the reference rules, not by the engine's numbers: the
        # engine's completion must be one the reference finds best.
        expected = best_strength_by_enumeration(placed, pool, modes, troops)
        found = strongest_completion(placed, pool, modes, wilds=troops)
        assert (found is None) == (expected is None), (seed, index, placed, modes)
        if found is None or expected is None:
            never = strongest_completion(placed, pool, modes, beating=-1, wilds=troops)
            assert never is None, (seed, index, placed, modes)
            continue
        side = (*placed, *found.added)
        assert side_strength_by_enumeration(side, modes) == expected, (seed, index, placed, modes)
        assert strength(side, modes) == found.strength
        assert all(card in troops or pool >> card & 1 for card in found.added)
        for troop, clan_card in identities(side, modes).items():
            assert clan_card % 9 + 1 in TROOP_VALUES[troop], (placed, found, troop, clan_card)
        # ``beating``, against the engine's own numbers and against a real side (whose engine
        # strength and reference standing must then agree on whether the best beats it).
        threshold = rng.randint(0, 300)
        beating = strongest_completion(placed, pool, modes, beating=threshold, wilds=troops)
        assert (beating is not None) == (found.strength > threshold)
        bar = rng.sample(CARDS, capacity)
        beating = strongest_completion(
            placed, pool, modes, beating=strength(bar, modes), wilds=troops
        )
        assert (beating is not None) == (expected > side_strength_by_enumeration(bar, modes))
        assert (
            strongest_completion(placed, pool, modes, beating=found.strength, wilds=troops) is None
        )


def test_claim_verdicts_match_enumeration() -> None:
    proofs = check_claims(seed=2026, count=1500)
    assert proofs > 500, "too few positions needed a proof to test it"


def test_strongest_completion_matches_enumeration_in_both_modes() -> None:
    check_completions(seed=11, count=800)


def test_tactics_claims_with_elite_troops_match_enumeration() -> None:
    proofs_with_troops = check_tactics_claims(seed=5, count=400)
    assert proofs_with_troops > 120, "too few proofs had elite troops to reckon with"


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
def test_soak_tactics_claims(seed: int) -> None:
    check_tactics_claims(seed=3000 + seed, count=3_000, budget=1_000_000)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(5))
def test_soak_completions(seed: int) -> None:
    check_completions(seed=2000 + seed, count=20_000)
