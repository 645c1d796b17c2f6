"""The slow reference: exhaustive enumeration over the cards out of sight.

It exists to check :func:`engine.formations.strongest_completion` and the claim proof, in tests
and in the benchmark. It tries every set of cards that could complete the opponent's side.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from functools import cache
from itertools import combinations

from engine.cards import Card, cards_in, mask_of
from engine.formations import CombatMode, side_capacity, strength
from engine.position import Position


def best_strength_by_enumeration(
    placed: Sequence[Card], pool: int, modes: Collection[CombatMode] = ()
) -> int | None:
    """The strongest finished side reachable from ``placed`` with ``pool``; None if none is."""
    missing = side_capacity(modes) - len(placed)
    best: int | None = None
    placed = tuple(placed)
    placed_mask = mask_of(placed)
    mode_key = frozenset(modes)
    for added in combinations(tuple(cards_in(pool)), missing):
        score = _strength_of_set(placed_mask | mask_of(added), mode_key)
        if best is None or score > best:
            best = score
    return best


@cache
def _strength_of_set(cards: int, modes: frozenset[CombatMode]) -> int:
    """:func:`strength` of a set of cards given as a mask, remembered across positions."""
    return strength(tuple(cards_in(cards)), modes)


def claim_granted_by_enumeration(position: Position, stone: int) -> bool:
    """Whether the viewer's claim on ``stone`` holds, by brute force over every completion."""
    state = position.stone(stone)
    me, them = position.viewer, position.viewer.other
    if state.claimed_by is not None or not state.is_complete(me):
        return False
    mine = strength(state.side(me), state.modes)
    if state.is_complete(them):
        theirs = strength(state.side(them), state.modes)
        return mine > theirs or (mine == theirs and state.completed_first is me)
    best = best_strength_by_enumeration(state.side(them), position.out_of_sight_mask(), state.modes)
    return best is None or best <= mine


def clear_strength_cache() -> None:
    """Forget remembered strengths, so that a timing of the enumeration starts cold."""
    _strength_of_set.cache_clear()
