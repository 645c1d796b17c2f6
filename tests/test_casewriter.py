"""A game state written as a case file loads back into the same state."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import FIXTURE, examples

from engine import (
    Game,
    GameState,
    Phase,
    Player,
    Tactic,
    Termination,
    play_random_game,
)
from oracle.casefile.loader import load_case
from oracle.casefile.writer import case_text

CASES = FIXTURE / "cases"


WRITABLE = (Phase.PLAY, Phase.CLAIM, Phase.DRAW)
"""The steps a case can start at: every decision but the middle of a Recruiter."""


def states_to_write(
    seed: int, variant: str, expert: bool = False
) -> list[tuple[GameState, list[str]]]:
    """Every decision point of a random game where a case can start, with the moves after it."""
    game = Game.named(variant, seed=seed, first_player=Player(seed % 2), expert=expert)
    played = play_random_game(game, random.Random(seed))
    moves = [str(move) for move in played.moves]
    state = game.new_initial_state()
    found = []
    for index, move in enumerate(played.moves):
        if state.phase in WRITABLE:
            found.append((state.clone(), moves[index:]))
        state.apply(move)
    return found


def load_back(state: GameState, tmp_path: Path, name: str) -> GameState:
    """``state`` written by :func:`case_text`, read by the loader, and made a game again."""
    path = tmp_path / f"{name}.yaml"
    path.write_text(case_text(state, case_id=name, draft=True) + "turn:\n  moves: []\n")
    return load_case(path).game_state()


def mapped(player: Player | None, me: Player) -> Player | None:
    """``player`` of the original game as the written case names it (``me`` becomes A)."""
    return None if player is None else Player(player is not me)


def play_on_both(original: GameState, loaded: GameState, moves: list[str]) -> None:
    """Apply the same moves to both; at every step they offer the same moves, to the end."""
    me = original.current_player
    for move in moves:
        assert loaded.phase is original.phase, move
        assert loaded.current_player is mapped(original.current_player, me)
        assert [str(m) for m in loaded.legal_moves()] == [str(m) for m in original.legal_moves()]
        original.apply_text(move)
        loaded.apply_text(move)
    assert original.is_over and loaded.is_over
    assert loaded.winner is mapped(original.winner, me)
    assert loaded.outcome is not None and original.outcome is not None
    assert loaded.outcome.termination is original.outcome.termination
    for player in Player:
        assert loaded.stones_held(mapped(player, me) or Player.A) == original.stones_held(player)


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


def round_trips(tmp_path: Path, seeds: range, per_game: int | None) -> int:
    """Write states of seeded random games of every variant and timing, load them back, and
    play the rest of each game on both; return how many states were checked."""
    checked = 0
    for variant in ("base", "tactics"):
        for expert in (False, True):
            for seed in seeds:
                found = states_to_write(seed, variant, expert)
                if per_game is not None:
                    found = random.Random(seed).sample(found, min(per_game, len(found)))
                for index, (state, rest) in enumerate(found):
                    name = f"{variant}-{int(expert)}-{seed}-{index}"
                    loaded = load_back(state, tmp_path, name)
                    same_game(state, loaded)
                    play_on_both(state.clone(), loaded, rest)
                    checked += 1
    return checked


def test_a_written_state_plays_on_exactly_as_the_game(tmp_path: Path) -> None:
    games = examples(3)  # one game of each kind here, three in CI's profile
    assert round_trips(tmp_path, range(games), per_game=6) == 2 * 2 * games * 6


@pytest.mark.slow
def test_thousands_of_written_states_play_on_exactly_as_the_game(tmp_path: Path) -> None:
    assert round_trips(tmp_path, range(100, 118), per_game=None) > 4000


def test_a_state_mid_recruiter_is_refused() -> None:
    game = Game.named("tactics", seed=1)
    for seed in range(200):
        state = play_until_recruiter(game, random.Random(seed))
        if state is not None:
            break
    else:
        pytest.fail("no Recruiter played in 200 games")
    with pytest.raises(ValueError, match="recruiter draw step"):
        case_text(state, case_id="x")


def play_until_recruiter(game: Game, rng: random.Random) -> GameState | None:
    """A random game of ``game`` stopped just after a Recruiter, or None if none is played."""
    state = game.new_initial_state()
    while not state.is_over:
        moves = state.legal_moves()
        recruit = [move for move in moves if str(move) == "recruiter"]
        state.apply(recruit[0] if recruit else rng.choice(moves))
        if state.phase is Phase.RECRUITER_DRAW:
            return state
    return None


def test_a_blocked_game_written_after_a_pass_still_ends_on_the_next_pass(tmp_path: Path) -> None:
    """Issue 12, item 3: a pass is remembered when the state is written and read back."""
    case = load_case(CASES / "end-of-game" / "05-both-pass-by-choice.yaml")
    state = case.game_state()
    state.apply_text("pass")
    assert not state.is_over and state.idle_turns == 1
    loaded = load_back(state, tmp_path, "after-a-pass")
    assert loaded.idle_turns == 1
    play_on_both(state, loaded, ["pass"])
    assert loaded.outcome is not None
    assert loaded.outcome.termination is Termination.STALEMATE_AWARD


def test_the_second_joker_face_up_before_the_first_is_written_as_the_second(
    tmp_path: Path,
) -> None:
    source = tmp_path / "source.yaml"
    source.write_text(
        """\
id: second-joker
situation: S
why: W
variant: tactics
draft: true
position:
  stones:
    - stone: 6
      you: [blue 7, second joker]
      them: [yellow 2]
  hand: [red 1, green 8, purple 4, yellow 9, pink 2, red 3, purple 6]
table:
  their_hand: [joker, red 2, green 2, blue 2, pink 9, yellow 8, purple 8]
  tactics_played: {you: 1, them: 0}
turn:
  moves: []
"""
    )
    state = load_case(source).game_state()
    text = case_text(state, case_id="second-joker", draft=True)
    assert "you: [blue 7, second joker]" in text
    assert "their_hand: [joker," in text
    loaded = load_back(state, tmp_path, "written")
    assert loaded.position(Player.A) == state.position(Player.A)
    assert loaded.hands == state.hands
