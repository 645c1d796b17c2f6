"""The game state has one writer (issue 46): a clone and a replay of the same moves are the same
state as the game itself at every step, and whatever the state keeps worked out (the legal
moves, the stones with room, the provable stones) is what working it out afresh gives."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import pytest

from engine.cards.tactics import Tactic
from engine.game.interface import Game, GameState
from engine.game.legality import LegalMoves, as_listed, refusal
from engine.game.move_rules import ROOM_FOR_A_CARD, stones_with_room
from engine.game.moves import (
    PLAYS,
    Banshee,
    Claim,
    Deck,
    Draw,
    IllegalMove,
    Move,
    Pass,
    Play,
    Strategist,
    Traitor,
)
from engine.game.tactic_cards import _banshee, _ruses
from engine.game.values import Event
from engine.match.records import random_move
from engine.proof.pieces import STONES, Player

DERIVED_SLOTS = {"_derived", "_derived_at", "_refuted"}
"""The state's memos of what is worked out from it (and the claims refuted so far): what they
hold depends on what was asked, not only on the moves."""


def _slots(state: GameState) -> Iterator[str]:
    for kind in type(state).__mro__:
        yield from vars(kind).get("__slots__", ())


def snapshot(state: GameState) -> dict[str, object]:
    """Every field of ``state``, whatever its name, but the memo of what is worked out from it."""
    return {name: getattr(state, name) for name in _slots(state) if name not in DERIVED_SLOTS}


def afresh(state: GameState) -> GameState:
    """A copy of ``state`` that has worked nothing out yet."""
    fresh = state.clone()
    fresh.changed()
    return fresh


def _assert_kept_is_afresh(state: GameState) -> None:
    """What the state keeps worked out equals what a copy that kept nothing works out."""
    fresh = afresh(state)
    kept = state.legal_moves()
    assert kept == fresh.legal_moves() == list(LegalMoves(fresh))
    view = LegalMoves(state)
    assert bool(view) == bool(kept) and view.count() == len(kept)
    assert all(move in view for move in kept)
    for player in Player:
        assert state.provable_stones(player) == fresh.provable_stones(player)
        assert stones_with_room(state, player) == stones_with_room(fresh, player)
        assert stones_with_room(state, player, ROOM_FOR_A_CARD) == tuple(
            number
            for number, stone in enumerate(state.stones, 1)
            if stone.claimed_by is None and len(stone.sides[player]) < stone.capacity
        )


def _moves_not_listed(state: GameState, rng: random.Random) -> list[Move]:
    """A few moves of the kinds a step may offer, which the listing leaves out (a Joker
    named as the one the list does not name is the same move)."""
    hand = state.hands[state.current_player]
    candidates: list[Move] = [Pass(), Claim(), Claim((rng.randint(1, 9),)), Draw(Deck.TACTICS)]
    candidates += [Play(rng.choice(hand), rng.randint(1, 9)) for _ in range(3) if hand]
    listed = state.legal_moves()
    return [move for move in candidates if as_listed(state, move) not in listed]


@pytest.mark.parametrize(
    "variant, expert, seed",
    [("base", False, 3), ("tactics", False, 5), ("base", True, 7), ("tactics", True, 9)],
)
def test_a_clone_and_a_replay_are_the_same_state_at_every_step(
    variant: str, expert: bool, seed: int
) -> None:
    game = Game.named(variant, expert=expert, seed=seed)
    state = game.new_initial_state()
    replayed = game.new_initial_state()
    rng = random.Random(seed)
    clones: list[GameState] = []
    steps = 0
    while not state.is_over:
        _assert_kept_is_afresh(state)
        for move in _moves_not_listed(state, rng):
            assert move not in LegalMoves(state)
            assert refusal(state, move) is not None
        if steps % 7 == 0:
            clones.append(state.clone())
        move = random_move(state, rng)
        for other in (state, replayed, *clones):
            other.apply(move)
        for other in (replayed, *clones):
            assert snapshot(other) == snapshot(state)
        steps += 1
    assert steps > 30 and len(clones) > 4
    assert repr(replayed) == repr(state)


def test_a_clone_shares_nothing_it_could_change() -> None:
    """Every list, dict and set of a clone, all the way down, is its own."""
    state = Game.named("tactics", seed=5).new_initial_state()
    rng = random.Random(5)
    for _ in range(40):
        state.apply(random_move(state, rng))
    other = state.clone()

    def mutables(value: object) -> Iterator[object]:
        if isinstance(value, list | dict | set):
            yield value
        if isinstance(value, list | tuple | set):
            for item in value:
                yield from mutables(item)
        elif isinstance(value, dict):
            for item in value.values():
                yield from mutables(item)
        elif hasattr(value, "__dataclass_fields__") and not hasattr(value, "__hash__"):
            yield from mutables(vars(value))

    for name in _slots(state):
        if name in DERIVED_SLOTS:
            continue
        mine = {id(found) for found in mutables(getattr(state, name))}
        theirs = {id(found) for found in mutables(getattr(other, name))}
        assert not mine & theirs, name
    for stone, copy in zip(state.stones, other.stones, strict=True):
        assert stone == copy and stone is not copy
        assert stone.sides[0] is not copy.sides[0] and stone.modes is not copy.modes


@pytest.mark.parametrize(
    "variant, expert, seed",
    [("base", False, 11), ("tactics", False, 12), ("base", True, 13), ("tactics", True, 14)],
)
def test_a_search_on_a_clone_leaves_the_state_as_it_was(
    variant: str, expert: bool, seed: int
) -> None:
    """The cheap copy a search plays on (perft, the soaks): at every step of a game, a clone is
    the state, field for field (its memos too); playing every legal move on clones of it, and a
    few moves further on one, changes nothing of the state, and each clone keeps the invariants
    (the kept masks checked against the table among them)."""
    state = Game.named(variant, expert=expert, seed=seed).new_initial_state()
    rng = random.Random(seed)
    every = set(_slots(state))
    while not state.is_over:
        before = repr(snapshot(state))
        copy = state.clone()
        assert {name: getattr(copy, name) for name in every} == {
            name: getattr(state, name) for name in every
        }
        for move in state.legal_moves():
            state.clone().apply(move)
        for _ in range(3):
            if not copy.is_over:
                copy.apply(random_move(copy, rng))
        assert not copy.check_invariants()
        assert repr(snapshot(state)) == before
        assert not state.check_invariants()
        state.apply(random_move(state, rng))


def test_an_event_logged_is_the_event_its_constructor_makes() -> None:
    """The log's quick constructor makes the very value ``Event(...)`` does: equal, hashed
    alike, written alike, frozen, and a dataclass still."""
    for forced in (False, True):
        made, logged = (
            Event(4, Player.B, "red 5 on 3", forced),
            Event.logged(4, Player.B, "red 5 on 3", forced),
        )
        assert made == logged and hash(made) == hash(logged) and repr(made) == repr(logged)
        assert dataclasses.replace(logged, turn=5) == Event(5, Player.B, "red 5 on 3", forced)
        with pytest.raises(dataclasses.FrozenInstanceError):
            logged.turn = 5  # type: ignore[misc]


def test_the_ruses_listed_are_made_once_and_hold_the_card_listed() -> None:
    """The Strategist's, Banshee's and Traitor's moves are made once for a card that is a plain
    number, and equal to the moves made afresh; a card given as a :class:`Tactic` member gets
    moves of its own that hold that very member."""
    for card in (4, Tactic.SPY):
        plain = type(card) is int
        strategist, traitor = _ruses(Strategist, card, 3), _ruses(Traitor, card, 3)
        assert list(strategist) == [
            *(Strategist(card, 3, to) for to in STONES),
            Strategist(card, 3, None),
        ]
        assert list(traitor) == [Traitor(card, 3, to) for to in STONES]
        assert _banshee(card, 3) == Banshee(card, 3)
        assert (_ruses(Traitor, card, 3) is traitor) is plain
        assert (_banshee(card, 3) is _banshee(card, 3)) is plain
        assert all(
            type(move.card) is type(card) for move in (*strategist, *traitor, _banshee(card, 3))
        )


@pytest.mark.parametrize("variant", ["base", "tactics"])
def test_a_clan_play_is_accepted_exactly_when_it_is_listed(variant: str) -> None:
    """``apply`` finds a Clan card's play (as ``PLAYS`` holds it) without a pass over the list:
    at every step of whole games, each such play of each Clan card in either hand, to each
    stone, is accepted by a clone exactly when the legal moves list it. A refused play leaves
    its clone as it was (test_move_generation checks it), so a clone serves until one is
    accepted."""
    tried = accepted = 0
    for seed in range(3):
        state = Game.named(variant, seed=seed).new_initial_state()
        rng = random.Random(seed)
        while not state.is_over:
            listed = set(map(id, state.legal_moves()))
            cards = [card for hand in state.hands for card in hand if card < 54]
            trial = state.clone()
            for card in cards:
                for stone in STONES:
                    play = PLAYS[card][stone]
                    try:
                        trial.apply(play)
                    except IllegalMove:
                        assert id(play) not in listed, play
                    else:
                        assert id(play) in listed, play
                        accepted += 1
                        trial = state.clone()
                    tried += 1
            state.apply(random_move(state, rng))
    assert accepted > 500 and tried > 2 * accepted
