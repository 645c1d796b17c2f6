"""The claim step of a game judges each stone as the claim proof does, under every ruling.

The game judges its stones by its own short path (:mod:`engine.game.provable`: the strengths
compared, the opponent's best completion searched only as far as it must beat), so it is held
to :func:`engine.claim_verdict` on the position at every step of whole games, by the rulings as
they are and with each ruling a claim reads flipped.
"""

from __future__ import annotations

import random

import pytest
from conftest import stones_granted_afresh

from engine import RULINGS, Game, Player, random_move
from engine.proof.rulings import Rulings

RULINGS_OF_A_CLAIM = {
    "as they are": RULINGS,
    "open-side tie refused": RULINGS.flipped("open_side_tie"),
    "tie to the side completed last": RULINGS.flipped("tie_break"),
    "both flipped": RULINGS.flipped("tie_break").flipped("open_side_tie"),
}


@pytest.mark.parametrize("variant", ["base", "tactics"])
@pytest.mark.parametrize("name", list(RULINGS_OF_A_CLAIM))
def test_the_provable_stones_are_the_ones_the_claim_proof_grants(variant: str, name: str) -> None:
    rulings: Rulings = RULINGS_OF_A_CLAIM[name]
    compared = granted = 0
    for seed in range(6):
        state = Game.named(variant, seed=seed, rulings=rulings).new_initial_state()
        rng = random.Random(seed)
        while not state.is_over:
            for player in Player:
                position = state.position(player)
                afresh = stones_granted_afresh(position, rulings)
                assert state.provable_stones(player) == afresh, position
                compared += 1
                granted += len(afresh)
            state.apply(random_move(state, rng))
    assert compared > 300 and granted > 30
