"""Exact formation odds: what a side becomes when it is filled up with random Clan cards.

Every way of adding the missing cards from the Clan cards not already placed is counted once, so
the figures are exact fractions, not estimates. They describe a side filled from a full shuffled
deck, before anything else is known about where the other cards lie.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations

from engine.cards.card import CARDS, Card
from engine.cards.formations import Formation, formation_of


def formation_counts(placed: Sequence[Card] = (), size: int = 3) -> Counter[Formation]:
    """How many ways of completing ``placed`` to ``size`` cards end in each formation.
    For example:

        >>> from engine import Formation, formation_counts, parse_cards
        >>> counts = formation_counts(parse_cards("red 8, red 9"))  # the third card, of 52
        >>> counts[Formation.COLOUR_RUN], counts[Formation.SAME_VALUE], sum(counts.values())
        (1, 0, 52)
    """
    if size not in (3, 4):
        raise ValueError(f"a side holds 3 cards, or 4 under Mud Fight, not {size}")
    if len(placed) > size or len(set(placed)) != len(placed):
        raise ValueError(f"cannot complete {len(placed)} distinct placed cards to {size}")
    if any(card not in CARDS for card in placed):
        raise ValueError("formation odds are over Clan cards only")
    rest = [card for card in CARDS if card not in placed]
    counts: Counter[Formation] = Counter()
    for added in combinations(rest, size - len(placed)):
        counts[formation_of((*placed, *added))] += 1
    return counts


def formation_odds(placed: Sequence[Card] = (), size: int = 3) -> dict[Formation, Fraction]:
    """The probability of each formation, strongest first, as exact fractions summing to 1."""
    counts = formation_counts(placed, size)
    total = sum(counts.values())
    return {
        formation: Fraction(counts[formation], total)
        for formation in sorted(Formation, reverse=True)
    }
