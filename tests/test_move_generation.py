"""Move generation seen from both sides: perft counts, and every accepted move is a listed one.

The other tests check that each move ``legal_moves()`` lists is accepted. These also catch a
legal move that goes missing from the list (a Recruiter, a Strategist to the discards, a claim of
nothing, the Spy after a Joker): perft counts the move tree to a fixed depth from seeded
positions, and the property test offers every syntactically possible move and checks that the
engine accepts exactly the listed ones, and that ``why_illegal`` (the explanation of a refusal,
written apart from the list) objects to exactly the others.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import cache
from itertools import combinations
from pathlib import Path

import pytest
from conftest import FIXTURE

from engine.cards.card import card_name, parse_cards
from engine.cards.tactics import Tactic
from engine.game.interface import (
    Game,
    GameState,
)
from engine.game.moves import (
    RUSE_OF_MOVE,
    Banshee,
    Claim,
    Deck,
    Draw,
    IllegalMove,
    Move,
    Pass,
    Play,
    Recruit,
    Return,
    Strategist,
    Traitor,
    stones_named,
)
from engine.game.values import Phase
from engine.match.records import (
    random_move,
)
from engine.proof.pieces import StoneState
from engine.proof.position import Position
from oracle.casefile.rules import load_rules_index

ROOT = Path(__file__).resolve().parent.parent
STONE_NUMBERS = range(0, 11)
"""The stones 1 to 9, and one number off each end."""
EVERY_CARD = range(0, 65)
"""The 64 cards (54 Clan, 10 Tactic), and one number that is no card."""


def seeded_position(variant: str, expert: bool, seed: int, moves: int) -> GameState:
    """The state after ``moves`` random moves (:func:`random_move`, ``Random(seed)``) from the
    deal of ``Game.named(variant, expert=expert, seed=seed)``."""
    state = Game.named(variant, expert=expert, seed=seed).new_initial_state()
    rng = random.Random(seed)
    for _ in range(moves):
        state.apply(random_move(state, rng))
    return state


# ---------------------------------------------------------------------------------------- perft


def perft(state: GameState, depth: int) -> int:
    """The number of move sequences of length ``depth`` from ``state`` (a finished game ends a
    sequence early and counts as one leaf)."""
    if depth == 0 or state.is_over:
        return 1
    total = 0
    for move in state.legal_moves():
        child = state.clone()
        child.apply(move)
        total += perft(child, depth - 1)
    return total


PERFT: list[tuple[str, bool, int, int, str, tuple[int, ...], int]] = [
    # variant, expert, seed, moves, step, perft(1), perft(2)..., depth checked by default.
    # The counts were printed by perft() on the engine of commit 85b174f (run it from
    # seeded_position(...)) and hard-coded; a change is a change in legal_moves() somewhere in
    # the tree. Each position was picked for what its first step offers.
    ("base", False, 0, 0, "play", (54, 2916, 157464), 2),  # the deal
    ("base", False, 0, 33, "claim", (2, 84, 2296, 45120), 2),  # claim 1 stone or nothing
    ("base", False, 5, 20, "play", (54, 2760, 143286), 2),
    ("tactics", False, 0, 12, "play", (57, 114, 6642, 13284), 2),  # a Banshee in hand
    ("tactics", False, 0, 14, "play", (81, 162, 9378, 18756), 2),  # a Traitor
    ("tactics", False, 0, 24, "play", (52, 104, 5206, 10412), 2),  # a Recruiter
    ("tactics", False, 0, 36, "play", (109, 218, 10903), 2),  # a Strategist (to the discards)
    ("tactics", False, 0, 39, "claim", (2, 48, 2424, 35358), 2),
    ("tactics", False, 1, 84, "recruiter return", (6, 30, 360, 3120), 3),
    ("tactics", False, 12, 85, "play", (2, 4, 5, 9), 4),  # pass, or a Tactic card
    ("tactics", False, 25, 15, "recruiter draw", (2, 4, 8, 72), 4),
    ("tactics", True, 0, 12, "play", (57, 114, 6642, 13284), 2),
    ("tactics", True, 0, 24, "play", (52, 104, 5206, 10412), 2),
    ("tactics", True, 0, 36, "play", (109, 218, 10413), 2),
    ("tactics", True, 0, 38, "claim", (2, 101, 2842, 73109), 2),
    ("tactics", True, 3, 69, "recruiter return", (9, 72, 2520, 41976), 2),
    ("tactics", True, 7, 92, "play", (24, 54, 177, 333), 3),
    ("tactics", True, 25, 15, "recruiter draw", (2, 4, 8, 72), 4),
]


def _perft_params(slow: bool) -> list[object]:
    return [
        pytest.param(
            variant,
            expert,
            seed,
            moves,
            step,
            counts if slow else counts[:depth],
            id=f"{variant}{'-expert' if expert else ''}-{seed}-{moves}",
            marks=[pytest.mark.slow] if slow else [],
        )
        for variant, expert, seed, moves, step, counts, depth in PERFT
    ]


def _check_perft(
    variant: str, expert: bool, seed: int, moves: int, step: str, counts: tuple[int, ...]
) -> None:
    state = seeded_position(variant, expert, seed, moves)
    assert state.phase.value == step
    found = tuple(perft(state, depth) for depth in range(1, len(counts) + 1))
    assert found == counts, f"perft 1..{len(counts)} of {state!r}"


@pytest.mark.parametrize("variant, expert, seed, moves, step, counts", _perft_params(False))
def test_perft(
    variant: str, expert: bool, seed: int, moves: int, step: str, counts: tuple[int, ...]
) -> None:
    _check_perft(variant, expert, seed, moves, step, counts)


@pytest.mark.parametrize("variant, expert, seed, moves, step, counts", _perft_params(True))
def test_perft_deep(
    variant: str, expert: bool, seed: int, moves: int, step: str, counts: tuple[int, ...]
) -> None:
    _check_perft(variant, expert, seed, moves, step, counts)


# ------------------------------------------------------------- any accepted move was listed


def candidate_moves(state: GameState, *, broad: bool) -> Iterator[Move]:
    """Every move the Move classes can write, within bounds: each card (64, and one that is no
    card) played on each stone 0 to 10, passing, the Recruiter, drawing from either deck,
    returning each card, claims, and the Strategist, Banshee and Traitor over cards and stones.

    Claims: every subset of the provable stones with up to two other stones, each stone alone,
    a stone named twice; ``broad``, every subset of the nine stones. The Strategist and
    Traitor take every card on the border (and one that is not) from its own stone, a stone
    next to it, 0 and 10, to every stone and the discards; ``broad``, from every stone.
    """
    yield Pass()
    yield Recruit()
    for deck in Deck:
        yield Draw(deck)
    for card in EVERY_CARD:
        yield Return(card)
        for stone in STONE_NUMBERS:
            yield Play(card, stone)
            yield Banshee(card, stone)
    yield from _claims(state, broad)
    places: dict[int, set[int]] = {}
    for number, held in enumerate(state.stones, 1):
        for card in (*held.sides[0], *held.sides[1]):
            places.setdefault(card, set()).add(number)
    elsewhere = next(card for card in EVERY_CARD if card not in places)
    places[elsewhere] = {5}
    for card, stones in sorted(places.items()):
        sources = set(STONE_NUMBERS) if broad else {0, 10, *stones, *(n % 9 + 1 for n in stones)}
        for source in sorted(sources):
            for to in STONE_NUMBERS:
                yield Strategist(card, source, to)
                yield Traitor(card, source, to)
            yield Strategist(card, source, None)


def _claims(state: GameState, broad: bool) -> Iterator[Claim]:
    yield Claim()
    for stone in STONE_NUMBERS:
        yield Claim((stone,))
        yield Claim((stone, stone))
    if broad:
        pool: list[int] = list(range(1, 10))
    else:
        provable = list(state.provable_stones())
        others = [n for n in range(1, 10) if n not in provable]
        pool = provable + random.Random(len(state.moves)).sample(others, min(2, len(others)))
    for size in range(2, len(pool) + 1):
        for stones in combinations(sorted(pool), size):
            yield Claim(stones)


def _fingerprint(state: GameState) -> object:
    """Everything a refused move must leave as it was."""
    return (
        state.phase,
        state.current_player,
        state.turn,
        repr(state),
        [list(hand) for hand in state.hands],
        [
            (list(s.sides[0]), list(s.sides[1]), sorted(s.modes, key=str), s.claimed_by)
            for s in state.stones
        ],
        list(state.discards),
        {deck: list(cards) for deck, cards in state.decks.items()},
        list(state.tactics_played),
    )


@cache
def _rule_ids() -> frozenset[str]:
    return frozenset(load_rules_index(FIXTURE / "rules" / "index.yaml").ids())


def check_accepted_iff_listed(state: GameState, *, broad: bool) -> int:
    """Offer every candidate move to a copy of ``state``: the ones accepted are exactly the
    listed ones (by their text: both Jokers write ``joker``), and a refused one names a rule of
    the index and changes nothing. Returns how many candidates were offered."""
    listed = {str(move) for move in state.legal_moves()}
    accepted: set[str] = set()
    trial = state.clone()
    before = _fingerprint(trial)
    offered = 0
    for move in candidate_moves(state, broad=broad):
        offered += 1
        text = str(move)  # written once (three times was about 5% of this check's CPU)
        # The explanation of a refusal is written apart from the list: the two must agree.
        objection = state.why_illegal(move)
        assert (objection is None) == (text in listed), (
            f"{move}: listed {text in listed}, but why_illegal says {objection}, in {state!r}"
        )
        try:
            trial.apply(move)
        except IllegalMove as error:
            assert error.rule in _rule_ids(), f"{move}: rule {error.rule!r} is not in the index"
            continue
        accepted.add(text)
        assert text in listed, f"{move} is accepted but not listed, in {state!r}"
        trial = state.clone()
    assert _fingerprint(trial) == before, f"a refused move changed the state {state!r}"
    assert listed <= accepted, f"listed but never offered or refused: {listed - accepted}"
    check_unplayable_iff_unlisted(state)
    return offered


def _card_played(move: Move) -> str | None:
    """The name of the hand card a move plays, if it plays one."""
    if isinstance(move, Play):
        return card_name(move.card)
    return card_name(RUSE_OF_MOVE[type(move)]) if type(move) in RUSE_OF_MOVE else None


def check_unplayable_iff_unlisted(state: GameState) -> None:
    """A card in hand gets a reason it cannot be played (the Play page shows it) exactly when no
    listed move plays it; the reason names a rule of the index."""
    played = {_card_played(move) for move in state.legal_moves()}
    for card in set(state.hands[state.current_player]):
        refused = state.why_unplayable(card)
        assert (refused is None) == (card_name(card) in played), (
            f"{card_name(card)}: listed {card_name(card) in played}, why_unplayable {refused}"
        )
        if refused is not None:
            assert refused.rule in _rule_ids(), f"{refused}: not a rule of the index"


def _kinds(state: GameState) -> set[str]:
    """What a state offers to test: its step, the kinds of move listed, an elite troop or a
    ruse in hand (listed or not), a player who has played a Joker."""
    me = state.current_player
    kinds = {state.phase.value, *(type(move).__name__ for move in state.legal_moves())}
    kinds |= {f"holds {card}" for card in state.hands[me] if card >= 54}
    if me in state.jokers_played:
        kinds |= {f"{kind} after a joker" for kind in kinds}
    return kinds


def _states(variant: str, expert: bool, seeds: range, share: float) -> Iterator[GameState]:
    """Copies of states of random games: each state with chance ``share``, and each one that
    offers a kind of thing (:func:`_kinds`) not offered before in its game; each game's end."""
    for seed in seeds:
        rng = random.Random(seed)
        state = Game.named(variant, expert=expert, seed=seed).new_initial_state()
        seen: set[str] = set()
        while not state.is_over:
            kinds = _kinds(state)
            if rng.random() < share or not kinds <= seen:
                seen |= kinds
                yield state.clone()
            state.apply(random_move(state, rng))
        yield state  # a finished game accepts nothing


CONFIGS = [("base", False), ("base", True), ("tactics", False), ("tactics", True)]


@pytest.mark.parametrize("variant, expert", CONFIGS, ids=lambda v: str(v))
def test_accepted_moves_are_exactly_the_listed_ones(variant: str, expert: bool) -> None:
    # Two base games, one tactics game (whose states offer more to try); -m slow tries eight.
    games = range(1) if variant == "tactics" else range(2)
    states = list(_states(variant, expert, games, 0.03))
    assert len(states) > 5
    for state in states:
        check_accepted_iff_listed(state, broad=False)


def test_an_unplayable_tactic_card_says_why_in_the_rules_words() -> None:
    """On an empty border a ruse has nothing to take, and after a Tactic card more than the
    opponent none may follow: each refused in its rule's own words (the Play page shows them)."""
    hand = [*parse_cards("red 1, red 2, green 3, green 4, pink 5"), Tactic.BANSHEE, Tactic.SPY]
    position = Position.from_stones({}, hand=hand, variant="tactics")
    theirs = parse_cards("blue 1, blue 2, blue 3, blue 4, blue 6, blue 7, blue 8")
    placed = {*theirs, *hand}
    state = GameState.from_table(
        Game.named("tactics"),
        position,
        their_hand=theirs,
        clan_deck=[card for card in range(54) if card not in placed],
        tactic_deck=[card for card in Tactic if card not in placed],
    )
    refused = state.why_unplayable(Tactic.BANSHEE)
    assert refused is not None and refused.rule == "tactics.banshee"
    assert refused.problem == "no open stone has a card on their side"
    assert state.why_unplayable(Tactic.SPY) is None
    check_unplayable_iff_unlisted(state)
    ahead = GameState.from_table(
        Game.named("tactics"),
        Position.from_stones(
            {1: StoneState(sides=((Tactic.SHIELD_BEARER,), ()))}, hand=hand, variant="tactics"
        ),
        their_hand=theirs,
        clan_deck=[card for card in range(54) if card not in placed],
        tactic_deck=[card for card in Tactic if card not in {*placed, Tactic.SHIELD_BEARER}],
        tactics_played=(1, 0),
    )
    limit = ahead.why_unplayable(Tactic.SPY)
    assert limit is not None and limit.rule == "tactics.limit"
    assert limit.problem == "you have played 1 Tactic cards and your opponent 0"


def test_a_traitor_with_no_room_on_your_side_says_why() -> None:
    """The Traitor moves the card it takes to your side: with a Clan card of theirs to take but
    no open stone with room on yours, it is refused in the Traitor rule's own words (dropping
    that check passed every other test: the Play page would offer a Traitor with nowhere to go)."""
    mine = [card for card in range(54) if card // 9 in (0, 2, 3)]  # three colours, 27 cards
    stones = {
        number: StoneState(sides=(tuple(mine[3 * number - 3 : 3 * number]), ()))
        for number in range(1, 10)
    }
    stones[1] = StoneState(sides=(stones[1].sides[0], parse_cards("blue 2")))
    free = [card for card in range(54) if card not in {*mine, *parse_cards("blue 2")}]
    hand = [*free[:5], Tactic.BANSHEE, Tactic.TRAITOR]  # the Banshee keeps the play step open
    position = Position.from_stones(stones, hand=hand, variant="tactics")
    state = GameState.from_table(
        Game.named("tactics"),
        position,
        their_hand=free[5:12],
        clan_deck=free[12:],
        tactic_deck=[card for card in Tactic if card not in hand],
        phase=Phase.PLAY,
    )
    refused = state.why_unplayable(Tactic.TRAITOR)
    assert refused is not None and refused.rule == "tactics.traitor"
    assert refused.problem == "no stone has room on your side"
    check_unplayable_iff_unlisted(state)


@pytest.mark.slow
@pytest.mark.parametrize("variant, expert", CONFIGS, ids=lambda v: str(v))
def test_accepted_moves_are_exactly_the_listed_ones_broadly(variant: str, expert: bool) -> None:
    for state in _states(variant, expert, range(100, 108), 0.2):
        check_accepted_iff_listed(state, broad=True)


def test_a_move_names_the_stones_its_notation_names() -> None:
    """``stones_named`` is the one answer to "which stones does this move touch" (the Play
    page outlines them): every stone number its notation writes, and no other."""
    cases: list[tuple[Move, tuple[int, ...]]] = [
        (Play(3, 4), (4,)),
        (Banshee(3, 7), (7,)),
        (Traitor(3, 2, 5), (2, 5)),
        (Strategist(3, 2, 5), (2, 5)),
        (Strategist(3, 2, None), (2,)),
        (Claim((1, 6, 9)), (1, 6, 9)),
        (Claim(()), ()),
        (Pass(), ()),
        (Draw(Deck.CLAN), ()),
    ]
    for move, stones in cases:
        assert stones_named(move) == stones, move
        written = {int(word) for word in str(move).replace(",", " ").split() if word.isdigit()}
        assert set(stones) <= written, move
