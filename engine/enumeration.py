"""The slow reference: exhaustive enumeration over the cards out of sight.

It exists to check :func:`engine.formations.strongest_completion` and the claim proof, in tests
and in the benchmark. It tries every set of unseen cards that could complete the opponent's side
and, for every elite troop on it, every identity the troop may take; it shares no shortcut with
the proof, only the strength of a side made of Clan cards.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from functools import cache
from itertools import combinations, product
from math import comb

from engine.cards import ALL_CARDS_MASK, Card, cards_in, make_card, mask_of
from engine.formations import CombatMode, side_capacity, strength
from engine.position import Position
from engine.tactics import JOKERS, WILD_VALUES, Tactic


def best_strength_by_enumeration(
    placed: Sequence[Card],
    pool: int,
    modes: Collection[CombatMode] = (),
    wilds: Sequence[Card] = (),
) -> int | None:
    """The strongest finished side reachable from ``placed`` with Clan cards of ``pool`` and any
    of the elite troops ``wilds`` (at most one Joker among them); None if no completion exists.
    """
    missing = side_capacity(modes) - len(placed)
    mode_key = frozenset(modes)
    best: int | None = None
    pool_cards = tuple(cards_in(pool))
    if not wilds and all(card < Tactic.JOKER for card in placed):
        placed_mask = mask_of(placed)
        for added in combinations(pool_cards, missing):
            score = _strength_of_set(placed_mask | mask_of(added), mode_key)
            if best is None or score > best:
                best = score
        return best
    for used in range(min(len(wilds), missing) + 1):
        for extra in combinations(wilds, used):
            if sum(card in JOKERS for card in extra) > 1:
                continue
            for added in combinations(pool_cards, missing - used):
                score = side_strength_by_enumeration((*placed, *extra, *added), mode_key)
                if best is None or score > best:
                    best = score
    return best


def side_strength_by_enumeration(side: Sequence[Card], modes: frozenset[CombatMode]) -> int:
    """A complete side's strength, trying every identity of every elite troop on it."""
    clan = tuple(card for card in side if card < Tactic.JOKER)
    troops = [card for card in side if card >= Tactic.JOKER]
    if not troops:
        return _strength_of_set(mask_of(clan), modes)
    return max(
        strength(clan + chosen, modes) for chosen in product(*(_identities(t) for t in troops))
    )


@cache
def _identities(troop: Card) -> tuple[Card, ...]:
    return tuple(make_card(colour, value) for colour in range(6) for value in WILD_VALUES[troop])


@cache
def _strength_of_set(cards: int, modes: frozenset[CombatMode]) -> int:
    """:func:`strength` of a set of Clan cards given as a mask, remembered across positions."""
    return strength(tuple(cards_in(cards)), modes)


def claim_granted_by_enumeration(position: Position, stone: int) -> bool:
    """Whether the viewer's claim on ``stone`` holds, by brute force over every completion."""
    state = position.stone(stone)
    me, them = position.viewer, position.viewer.other
    if state.claimed_by is not None or not state.is_complete(me):
        return False
    mine = side_strength_by_enumeration(state.side(me), state.modes)
    if state.is_complete(them):
        theirs = side_strength_by_enumeration(state.side(them), state.modes)
        return mine > theirs or (mine == theirs and state.completed_first is me)
    unseen = position.out_of_sight_mask()
    troops = _unseen_troops(unseen)
    their_jokers = sum(card in JOKERS for other in position.stones for card in other.side(them))
    if their_jokers or them in position.jokers_played:
        troops = [card for card in troops if card not in JOKERS]
    best = best_strength_by_enumeration(
        state.side(them), unseen & ALL_CARDS_MASK, state.modes, troops
    )
    return best is None or best <= mine


def enumeration_size(position: Position, stone: int) -> int:
    """Roughly how many sides :func:`claim_granted_by_enumeration` would score: tests use it to
    keep their random boards within a time budget."""
    state = position.stone(stone)
    them = position.viewer.other
    theirs = state.side(them)
    missing = state.capacity - len(theirs)
    unseen = position.out_of_sight_mask()
    pool = (unseen & ALL_CARDS_MASK).bit_count()
    troops = _unseen_troops(unseen)
    identities = 1
    for card in (*theirs, *troops):
        if card >= Tactic.JOKER:
            identities *= len(_identities(card))
    return comb(pool + len(troops), max(missing, 0)) * identities


def _unseen_troops(unseen: int) -> list[Card]:
    return [card for card in (*JOKERS, Tactic.SPY, Tactic.SHIELD_BEARER) if unseen >> card & 1]


def clear_strength_cache() -> None:
    """Forget remembered strengths, so that a timing of the enumeration starts cold."""
    _strength_of_set.cache_clear()
