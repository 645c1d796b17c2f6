"""The claim proof agrees with exhaustive enumeration over the cards out of sight.

Hypothesis property tests over positions and sides drawn by ``tests/strategies.py``: thousands
of examples, the same every run (each check is seeded), a failure shrunk to a small board;
``-m slow`` runs a longer soak from other seeds.
"""

from __future__ import annotations

import hypothesis
import pytest
from conftest import THOROUGH, examples
from hypothesis import assume, given, settings
from strategies import (
    CompletionProblem,
    claim_positions,
    completion_problems,
    tactics_claim_positions,
)

from engine import (
    CombatMode,
    Position,
    Reason,
    claim_verdict,
    elite_troops_for,
    strength,
    strongest_completion,
)
from engine.cards.card import mask_of
from engine.cards.formations import identities
from engine.proof.rulings import RULINGS, Rulings
from oracle.judges.enumeration import (
    best_strength_by_enumeration,
    claim_granted_by_enumeration,
    enumeration_size,
    side_strength_by_enumeration,
)
from oracle.judges.reference_rules import TROOP_VALUES


def check_claims(seed: int, count: int, rulings: Rulings = RULINGS) -> int:
    """Compare verdicts on ``count`` base-game positions, both judged by ``rulings``; return
    how many needed a proof."""
    proofs: list[Position] = []

    @hypothesis.seed(seed)
    @settings(max_examples=count)
    @given(claim_positions(table_cards=(10, 40)))
    def check(sample: tuple[Position, int]) -> None:
        position, stone = sample
        verdict = claim_verdict(position, stone, rulings)
        expected = claim_granted_by_enumeration(position, stone, rulings)
        assert verdict.granted == expected, verdict
        if verdict.reason in (Reason.WITNESS, Reason.UNBEATABLE):
            proofs.append(position)
        if verdict.witness:
            state = position.stone(stone)
            mine, theirs = state.side(position.viewer), state.side(position.viewer.other)
            assert mask_of(verdict.witness) & position.on_table_mask() == 0
            assert strength(theirs + verdict.witness, state.modes) >= strength(mine, state.modes)
            witness_side = side_strength_by_enumeration(theirs + verdict.witness, state.modes)
            assert witness_side >= side_strength_by_enumeration(mine, state.modes)
            if rulings.open_side_tie is RULINGS.open_side_tie:  # only a win refutes
                assert witness_side > side_strength_by_enumeration(mine, state.modes)

    check()
    return len(proofs)


def check_tactics_claims(
    seed: int, count: int, budget: int = 300_000, rulings: Rulings = RULINGS
) -> int:
    """Compare verdicts on ``count`` tactics positions (combat modes, elite troops on the
    table, in hand, discarded or unseen); boards too costly to enumerate are rejected. Returns
    how many compared positions had an unseen elite troop in play for the opponent."""
    with_troops: list[Position] = []

    @hypothesis.seed(seed)
    @settings(max_examples=count)
    @given(tactics_claim_positions(table_cards=(40, 48)))
    def check(sample: tuple[Position, int]) -> None:
        position, stone = sample
        assume(enumeration_size(position, stone) <= budget)
        verdict = claim_verdict(position, stone, rulings)
        assert verdict.granted == claim_granted_by_enumeration(position, stone, rulings), verdict
        if elite_troops_for(position, position.viewer.other) and verdict.reason in (
            Reason.WITNESS,
            Reason.UNBEATABLE,
        ):
            with_troops.append(position)

    check()
    return len(with_troops)


def check_completions(seed: int, count: int) -> None:
    """Compare the strongest completion with enumeration, in every combination of combat modes."""

    @hypothesis.seed(seed)
    @settings(max_examples=count)
    @given(completion_problems())
    def check(problem: CompletionProblem) -> None:
        placed, pool, modes, troops = problem.placed, problem.pool, problem.modes, problem.troops
        # The enumeration ranks sides by the reference rules, not by the engine's numbers: the
        # engine's completion must be one the reference finds best.
        expected = best_strength_by_enumeration(placed, pool, modes, troops)
        found = strongest_completion(placed, pool, modes, wilds=troops)
        assert (found is None) == (expected is None)
        if found is None or expected is None:
            never = strongest_completion(placed, pool, modes, beating=-1, wilds=troops)
            assert never is None
            return
        side = (*placed, *found.added)
        assert side_strength_by_enumeration(side, modes) == expected, found
        assert strength(side, modes) == found.strength
        assert all(card in troops or pool >> card & 1 for card in found.added)
        for troop, clan_card in identities(side, modes).items():
            assert clan_card % 9 + 1 in TROOP_VALUES[troop], (found, troop, clan_card)
        # ``beating``, against the engine's own numbers and against a real side (whose engine
        # strength and reference standing must then agree on whether the best beats it).
        beating = strongest_completion(placed, pool, modes, beating=problem.threshold, wilds=troops)
        assert (beating is not None) == (found.strength > problem.threshold)
        bar = problem.bar
        beating = strongest_completion(
            placed, pool, modes, beating=strength(bar, modes), wilds=troops
        )
        assert (beating is not None) == (expected > side_strength_by_enumeration(bar, modes))
        assert (
            strongest_completion(placed, pool, modes, beating=found.strength, wilds=troops) is None
        )

    check()


def test_claim_verdicts_match_enumeration() -> None:
    # Drawing an example with hypothesis costs about what judging and enumerating it does, and
    # two in three need a proof; the soaks (-m slow, run by CI) compare 50,000 more. The quick
    # profile draws 31 boards, 27 of which need a proof.
    proofs = check_claims(seed=2026, count=examples(250))
    assert proofs > (120 if THOROUGH else 15), "too few positions needed a proof to test it"


CLAIM_RULINGS = ("tie_break", "open_side_tie")
"""The rulings a claim's verdict depends on: the proof must stay exact under each flipped."""


@pytest.mark.parametrize("field", CLAIM_RULINGS)
def test_claim_verdicts_match_enumeration_under_a_flipped_ruling(field: str) -> None:
    # A modest sample by default (the quick profile's 7 boards hold 6 proofs); the soaks run the
    # rules as they are, at length.
    flipped = RULINGS.flipped(field)
    assert check_claims(seed=2027, count=examples(60), rulings=flipped) > (20 if THOROUGH else 4)
    check_tactics_claims(seed=6, count=examples(30), rulings=flipped)


def test_strongest_completion_matches_enumeration_in_both_modes() -> None:
    check_completions(seed=11, count=examples(200))


def test_tactics_claims_with_elite_troops_match_enumeration() -> None:
    # About a quarter of the boards compared need a proof with the opponent's elite troops in
    # play; the floor leaves room for hypothesis to draw other boards as the code changes.
    # The quick profile draws half as many boards here, not a quarter: a quarter held 2 such
    # proofs, too few to count on.
    proofs_with_troops = check_tactics_claims(seed=5, count=120 if THOROUGH else 60)
    floor = 18 if THOROUGH else 4
    assert proofs_with_troops > floor, "too few proofs had elite troops to reckon with"


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


def test_the_enumeration_scores_a_side_with_elite_troops_alike_in_any_order_and_again() -> None:
    """Its remembered standings are keyed by the set of cards: a side scores as the reference
    rules score it, in every order of play, the first time and from memory."""
    import random
    from itertools import permutations

    from engine.cards.card import CARDS
    from oracle.judges import reference_rules as rules

    rng = random.Random(7)
    for _ in range(200):
        side = (*rng.sample(CARDS, rng.choice((1, 2))), *rng.sample(rules.ELITE_TROOPS, 1))
        for bluff in (False, True):
            modes = (CombatMode.BLIND_MANS_BLUFF,) if bluff else ()
            expected = rules.best_standing(side, blind_mans_bluff=bluff)
            for order in permutations(side):
                assert side_strength_by_enumeration(order, modes) == expected
    twice = (CARDS[0], CARDS[0], CARDS[9])  # no set stands for it: scored as given
    assert side_strength_by_enumeration(twice, ()) == rules.best_standing(
        twice, blind_mans_bluff=False
    )
