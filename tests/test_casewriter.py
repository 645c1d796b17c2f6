"""A game state written as a case file loads back into the same state."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine import Game, GameState, Phase, Player, Tactic, play_random_game
from oracle.casewriter import case_text
from oracle.loader import load_case


def states_to_write(seed: int, variant: str) -> list[GameState]:
    """Every decision point of a random game where a case can start (play or claim step)."""
    game = Game.named(variant, seed=seed, first_player=Player(seed % 2))
    played = play_random_game(game, random.Random(seed))
    state = game.new_initial_state()
    found = []
    for move in played.moves:
        if state.phase in (Phase.PLAY, Phase.CLAIM):
            found.append(state.clone())
        state.apply(move)
    return found


def same(cards: object) -> object:
    """Cards with the two Jokers made one: they are interchangeable, and a case names neither."""
    if isinstance(cards, dict):
        return {key: same(value) for key, value in cards.items()}
    if isinstance(cards, list | tuple):
        return [same(card) for card in cards]
    return Tactic.JOKER if cards == Tactic.SECOND_JOKER else cards


def same_game(a: GameState, b: GameState) -> None:
    """``b`` is ``a`` seen with ``a``'s current player as player A (Jokers alike)."""
    me = a.current_player
    order = (me, me.other)
    assert b.current_player is Player.A and b.phase is a.phase
    for stone_a, stone_b in zip(a.stones, b.stones, strict=True):
        assert same([stone_a.sides[p] for p in order]) == same(list(stone_b.sides))
        assert stone_a.modes == stone_b.modes
        owner = stone_a.claimed_by
        assert stone_b.claimed_by == (None if owner is None else Player(order.index(owner)))
    assert same([a.hands[p] for p in order]) == same(list(b.hands))
    assert same(a.decks) == same(b.decks) and same(a.discards) == same(b.discards)
    assert [a.tactics_played[p] for p in order] == b.tactics_played
    assert {Player(order.index(p)) for p in a.jokers_played} == b.jokers_played
    assert {str(m) for m in a.legal_moves()} == {str(m) for m in b.legal_moves()}


@pytest.mark.parametrize("variant", ["base", "tactics"])
def test_a_written_state_loads_back_the_same(tmp_path: Path, variant: str) -> None:
    for seed in range(4):
        states = states_to_write(seed, variant)
        for index, state in enumerate(random.Random(seed).sample(states, 8)):
            text = case_text(state, case_id=f"state-{index}", draft=True)
            path = tmp_path / f"{variant}-{seed}-{index}.yaml"
            path.write_text(text + "turn:\n  moves: []\n")
            same_game(state, load_case(path).game_state())


def test_a_state_mid_turn_is_refused() -> None:
    state = Game.named("tactics", seed=1).new_initial_state()
    state.apply(state.legal_moves()[0])
    assert state.phase is Phase.DRAW  # both decks hold cards: the deck is a choice
    with pytest.raises(ValueError, match="draw step"):
        case_text(state, case_id="x")
