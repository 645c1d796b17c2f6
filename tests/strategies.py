"""Hypothesis strategies for the property tests: claim positions, completions and whole games.

Everything is drawn with hypothesis's own primitives (bounded integers: each card picked from
those left, each choice among several listed simplest first), never through ``st.randoms()``: a
failure then shrinks to a small board, with few cards, low card and stone numbers, unclaimed
stones, no combat mode and no elite troop, or to a short game. ``bench/sampling.py`` draws the
same kinds of positions from a seeded ``random.Random`` for the benchmarks, which want the same
positions run after run and no shrinking.

Drawing with hypothesis costs far more than with ``random`` (some 20 microseconds a choice), so
the strategies make few choices: only the cards dealt are drawn, and the table's cards are spread
over the sides with one draw a side, not one a card.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Collection, Sequence
from math import comb
from typing import TypeVar

from hypothesis import strategies as st

from engine import (
    CARDS,
    Card,
    Claim,
    CombatMode,
    Game,
    GameState,
    Move,
    Phase,
    Player,
    Position,
    StoneState,
    Tactic,
    side_capacity,
    strength,
)
from engine.cards.card import cards_repr, mask_of
from engine.cards.tactics import JOKERS
from engine.proof.pieces import STONES
from engine.proof.variants import variant_named

T = TypeVar("T")

PLAYERS = (Player.A, Player.B)
MODE_SETS: tuple[tuple[CombatMode, ...], ...] = (
    (),
    (CombatMode.MUD_FIGHT,),
    (CombatMode.BLIND_MANS_BLUFF,),
    (CombatMode.MUD_FIGHT, CombatMode.BLIND_MANS_BLUFF),
)
"""Every combination of combat modes a stone can carry, none first."""
_MODE_SET = st.sampled_from(MODE_SETS)
_TROOP_KINDS: st.SearchStrategy[list[Card]] = st.permutations(
    [Tactic.JOKER, Tactic.SPY, Tactic.SHIELD_BEARER]
)
_STONE = st.sampled_from(STONES)
_PLAYER = st.sampled_from(PLAYERS)


Draw = Callable[[st.SearchStrategy[int]], int]
"""What draws: a composite strategy's ``draw`` or an ``st.data()`` object's ``draw``."""


@functools.cache
def integers(low: int, high: int) -> st.SearchStrategy[int]:
    """``st.integers(low, high)``, built once: the strategies draw thousands of them."""
    return st.integers(low, high)


def weighted(draw: Draw, *choices: tuple[T, int]) -> T:
    """One of ``choices``, each a ``(value, weight)``, in proportion to the weights.

    Drawn as one bounded integer, so that it shrinks to the first choice: list the simplest (or
    the most common) first. Keep the weights' total to a few hundred at most: hypothesis draws
    the integers of a wider range ever more often from the low end.
    """
    if len(choices) == 1:
        return choices[0][0]
    roll = draw(integers(0, sum(weight for _, weight in choices) - 1))
    for value, weight in choices:
        if roll < weight:
            return value
        roll -= weight
    raise AssertionError("unreachable: the roll is below the total weight")


def chance(draw: Draw, percent: int) -> bool:
    """True ``percent`` times in 100, drawn so that it shrinks to False."""
    return draw(integers(0, 99)) >= 100 - percent


@functools.cache
def _binomial(trials: int, ways: int) -> tuple[tuple[int, int], ...]:
    """How many of ``trials`` come out one way of ``ways``, 0 first, each count with its chance
    in percent (rounded: a count less likely than one in 200 is left out). Percent, since
    hypothesis draws integers evenly only in a small range, and ever more often small ones in a
    wider one."""
    p = 1 / ways
    weights = [
        (count, round(comb(trials, count) * p**count * (1 - p) ** (trials - count) * 100))
        for count in range(trials + 1)
    ]
    return tuple((count, weight) for count, weight in weights if weight)


def spread(draw: Draw, trials: int, ways: int) -> list[int]:
    """How many of ``trials``, each going one of ``ways`` at random, go each way.

    Drawn way by way, each count from the binomial of the trials left (which makes the whole a
    multinomial), so it takes a draw a way rather than one a trial; shrinks to every trial
    going the last way.
    """
    counts = []
    for way in range(ways):
        count = trials if way == ways - 1 else weighted(draw, *_binomial(trials, ways - way))
        counts.append(count)
        trials -= count
    return counts


class _Deck:
    """Cards dealt one at a time, each drawn from those left in order: it shrinks to the lowest.

    Only the cards dealt are drawn (a permutation of the whole deck would take 53 draws where a
    board uses about 30, and draws are most of what the examples cost).
    """

    def __init__(self, draw: Draw, cards: Sequence[Card] = CARDS) -> None:
        self._draw = draw
        self.cards = sorted(cards)
        """The cards not dealt yet, lowest first."""

    def deal(self, count: int) -> tuple[Card, ...]:
        """``count`` cards (as many as are left, at most)."""
        count = min(count, len(self.cards))
        return tuple(
            self.cards.pop(self._draw(integers(0, len(self.cards) - 1))) for _ in range(count)
        )

    @property
    def left(self) -> int:
        """How many cards are left."""
        return len(self.cards)


# ------------------------------------------------------------------------- claim positions


@st.composite
def claim_positions(
    draw: st.DrawFn,
    *,
    modes: Collection[CombatMode] | None = None,
    table_cards: tuple[int, int] = (0, 40),
    tactics: bool = False,
) -> tuple[Position, int]:
    """A position in which the viewer (player A) may claim the returned stone.

    As ``bench/sampling.random_claim_position``: the claimed stone carries ``modes`` (None or
    empty for none; any mode makes it a tactics position, as does ``tactics``); the viewer's side
    of it is complete 85 times in 100, the opponent's anything from empty to full, and who
    completed first is drawn when both are full. Between ``table_cards`` times a card is dealt to
    a side of another stone, unless that side is already full; about two stones in five are
    already claimed, and who completed first is drawn for every tie. The viewer holds a hand of
    fewer cards than the variant's hand size.

    Shrinks to the claimed stone 1, a complete side of the lowest cards against an empty one,
    the fewest table cards on the lowest stones, nothing claimed and an empty hand.
    """
    modes = frozenset(modes or ())
    capacity = side_capacity(modes)
    deck = _Deck(draw)
    stone = draw(_STONE)
    complete = not chance(draw, 15)  # shrinks to a complete side, the case to prove
    mine = deck.deal(capacity if complete else draw(integers(0, capacity - 1)))
    theirs = deck.deal(draw(integers(0, capacity)))
    completed_first = None
    if len(mine) == len(theirs) == capacity:
        completed_first = draw(_PLAYER)
    stones = {stone: StoneState(sides=(mine, theirs), completed_first=completed_first, modes=modes)}
    others = [number for number in STONES if number != stone]
    sides: dict[int, tuple[list[Card], list[Card]]] = {number: ([], []) for number in others}
    # Each of the table's cards goes to a side of another stone at random, and is left out if
    # that side is full: the lowest stone's last, so that a board shrinks towards it.
    slots = [sides[number][player] for number in reversed(others) for player in (1, 0)]
    counts = spread(draw, draw(integers(*table_cards)), len(slots))
    for side, count in zip(slots, counts, strict=True):
        side.extend(deck.deal(min(count, 3)))
    for number, (side_a, side_b) in sides.items():
        claimed_by = weighted(draw, (None, 3), (Player.A, 1), (Player.B, 1))
        tie = len(side_a) == len(side_b) == 3 and strength(side_a) == strength(side_b)
        stones[number] = StoneState(
            sides=(tuple(side_a), tuple(side_b)),
            completed_first=draw(_PLAYER) if tie else None,
            claimed_by=claimed_by,
        )
    variant = variant_named("tactics" if modes or tactics else "base")
    hand = deck.deal(draw(integers(0, variant.hand_size - 1)))
    return Position.from_stones(stones, hand=hand, variant=variant), stone


def _laid_on_a_side(
    draw: st.DrawFn, stones: list[StoneState], stone: int, troop: Card, joker_holders: set[Player]
) -> None:
    """Lay ``troop`` on a side, of the claimed ``stone`` three times in five, unless that side
    is full, its stone claimed, or its player already holds a Joker on the board."""
    on_claimed = not chance(draw, 40)
    number = stone if on_claimed else draw(_STONE)
    player = draw(_PLAYER)
    state = stones[number - 1]
    if troop in JOKERS and player in joker_holders:
        return
    if state.claimed_by is not None or len(state.sides[player]) >= state.capacity:
        return
    sides = list(state.sides)
    sides[player] = (*sides[player], troop)
    complete = all(len(side) == state.capacity for side in sides)
    tie = complete and strength(sides[0], state.modes) == strength(sides[1], state.modes)
    stones[number - 1] = StoneState(
        sides=(sides[0], sides[1]),
        completed_first=draw(_PLAYER) if tie else None,
        modes=state.modes,
        claimed_by=state.claimed_by,
    )
    if troop in JOKERS:
        joker_holders.add(player)


@st.composite
def tactics_claim_positions(
    draw: st.DrawFn, *, table_cards: tuple[int, int] = (30, 46)
) -> tuple[Position, int]:
    """A tactics-variant position for a claim, with combat modes and elite troops.

    As ``bench/sampling.random_tactics_claim_position``: each combat mode lies on the claimed
    stone two times in five; each elite troop (both Jokers, the Spy, the Shield Bearer) lies on a
    side (of the claimed stone three times in five; never a claimed stone or a full side, and at
    most one Joker a player), in the discards, in the viewer's hand or unseen; as many players
    as the discards hold Jokers may have played theirs.

    Shrinks to no combat mode and every elite troop unseen, on top of what
    :func:`claim_positions` shrinks to.
    """
    modes = [mode for mode in CombatMode if chance(draw, 40)]
    position, stone = draw(claim_positions(modes=modes, table_cards=table_cards, tactics=True))
    stones = list(position.stones)
    hand = list(position.hand)
    discards: list[Card] = []
    joker_holders: set[Player] = set()
    for troop in (*JOKERS, Tactic.SPY, Tactic.SHIELD_BEARER):
        place = weighted(draw, ("unseen", 2), ("side", 2), ("discards", 1), ("hand", 1))
        if place == "discards":
            discards.append(troop)
        elif place == "hand" and len(hand) < position.variant.hand_size:
            hand.append(troop)
        elif place == "side":
            _laid_on_a_side(draw, stones, stone, troop, joker_holders)
    played = draw(integers(0, min(2, sum(card in JOKERS for card in discards))))
    jokers_played: tuple[Player, ...] = PLAYERS if played == 2 else ()
    if played == 1:
        jokers_played = (draw(_PLAYER),)
    return (
        Position(
            stones=tuple(stones),
            discards=tuple(discards),
            hand=tuple(hand),
            variant=position.variant,
            jokers_played=frozenset(jokers_played),
        ),
        stone,
    )


# ----------------------------------------------------------------------------- completions


@dataclasses.dataclass(frozen=True)
class CompletionProblem:
    """A side to complete, what it may be completed from, and two bars the best must clear."""

    placed: tuple[Card, ...]
    """The cards already on the side (one may be an elite troop)."""
    pool_cards: tuple[Card, ...]
    """The Clan cards the side may be completed from."""
    modes: tuple[CombatMode, ...]
    troops: tuple[Card, ...]
    """Elite troops the side's owner may add too."""
    threshold: int
    """A strength, in the engine's numbers, for ``beating``."""
    bar: tuple[Card, ...]
    """A full side, whose strength is given as ``beating``."""

    @property
    def pool(self) -> int:
        """The pool as the bitmask :func:`engine.strongest_completion` takes."""
        return mask_of(self.pool_cards)

    def __repr__(self) -> str:
        modes = ", ".join(f"CombatMode.{mode.name}" for mode in self.modes)
        return (
            f"CompletionProblem(placed={cards_repr(self.placed)},"
            f" pool_cards={cards_repr(self.pool_cards)}, modes=({modes}{',' if modes else ''}),"
            f" troops={cards_repr(self.troops)}, threshold={self.threshold},"
            f" bar={cards_repr(self.bar)})"
        )


@st.composite
def completion_problems(draw: st.DrawFn) -> CompletionProblem:
    """A side to complete, as the completion test has always drawn them.

    In any combination of combat modes, a side holds up to one card short of full (at least one
    under Mud Fight). Half the pools are a few neighbouring values in a few colours, each card
    kept or not, where weak formations decide; the others are a slice of the cards left, 8 to 38
    of them. Two times in five elite troops join: two kinds (all three now and then, on a tiny
    pool, since a Joker alone has 54 identities to enumerate), one perhaps already on the side,
    the others each addable three times in five. Then a strength and a full side to beat.

    Shrinks to no combat mode, an empty side, the smallest pool, no elite troop, a threshold of
    0 and the lowest cards as the bar.
    """
    modes = draw(_MODE_SET)
    capacity = side_capacity(modes)
    deck = _Deck(draw)
    placed = list(deck.deal(draw(integers(1 if capacity == 4 else 0, capacity - 1))))
    pool: Sequence[Card]
    if not chance(draw, 50):
        # A pool of a few neighbouring values and colours, where weak formations decide.
        low = draw(integers(1, 6))
        colours = draw(st.permutations(range(6)))[: draw(integers(2, 6))]
        keep = draw(integers(3, 10))  # in tenths; each card kept or not, dropped first
        pool = [
            card
            for card in deck.cards
            if low <= card % 9 + 1 <= low + 4
            and card // 9 in colours
            and draw(integers(0, 9)) >= 10 - keep
        ]
    else:
        pool = deck.deal(draw(integers(deck.left - 46, deck.left - 16)))
    troops: list[Card] = []
    if chance(draw, 40):
        # Elite troops: one may already lie on the side, others may still be added. Two kinds
        # usually, three now and then on a tiny pool: a Joker alone has 54 identities for the
        # enumeration to try.
        every_kind = chance(draw, 10)
        kinds: list[Card] = draw(_TROOP_KINDS)[: 3 if every_kind else 2]
        if placed and chance(draw, 50):
            placed[-1] = kinds.pop()
        troops = [kind for kind in kinds if chance(draw, 60)]
        pool = _Deck(draw, pool).deal(4 if every_kind else 8)
    return CompletionProblem(
        placed=tuple(placed),
        pool_cards=tuple(pool),
        modes=modes,
        troops=tuple(troops),
        threshold=draw(integers(0, 300)),
        bar=_Deck(draw).deal(capacity),
    )


# -------------------------------------------------------------------------------- games


def dealt_games(game: Game) -> st.SearchStrategy[Game]:
    """``game`` with a drawn seed for the shuffle (shrinking to seed 0)."""
    return st.integers(0, 2**32 - 1).map(lambda seed: dataclasses.replace(game, seed=seed))


def choose_move(data: st.DataObject, state: GameState) -> Move:
    """The current player's next move, chosen by hypothesis.

    At a claim step, each provable stone is claimed nine times in ten (shrinking to claiming
    it, which ends games sooner); otherwise an index into :meth:`GameState.legal_moves` is drawn,
    shrinking to the first move listed.
    """
    if state.phase is Phase.CLAIM:
        provable = state.provable_stones()
        return Claim(tuple(n for n in provable if not chance(data.draw, 10)))
    moves = state.legal_moves()
    return moves[data.draw(integers(0, len(moves) - 1))]
