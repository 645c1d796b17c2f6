"""The formations, the combat modes, and what a side's size and total are.

The vocabulary of :mod:`engine.cards.formations`, which compares sides by strength and finds the
strongest completion: :class:`Formation` (weakest first), :class:`CombatMode`,
:func:`side_capacity`, :func:`formation_of` and :func:`total_of`.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from enum import IntEnum

from engine.cards.card import Card
from engine.cards.tactics import JOKERS, Tactic
from engine.frozen import IdentityEnum

ELITE_BASE = int(Tactic.JOKER)
"""Card numbers from here on are Tactic cards; on a side, only elite troops appear."""
_JOKERS = frozenset(JOKERS)

RANK_WEIGHT = 64
"""Larger than any total (four 9s make 36, :data:`HIGHEST_TOTAL`), so the formation always
outweighs the total."""

HIGHEST_TOTAL = 36
"""The highest total a side can reach: four 9s, under Mud Fight."""


class CombatMode(IdentityEnum):
    """The two Tactic cards that change how a single stone is fought.
    For example:

        >>> from engine import CombatMode
        >>> CombatMode.MUD_FIGHT, CombatMode.MUD_FIGHT.value
        (<CombatMode.MUD_FIGHT: 'mud fight'>, 'mud fight')
    """

    MUD_FIGHT = "mud fight"
    BLIND_MANS_BLUFF = "blind-man's bluff"

    @property
    def label(self) -> str:
        """The name as an editor writes it."""
        return self.value


class Formation(IntEnum):
    """The five formations, weakest first so that a stronger formation is a larger int.
    For example:

        >>> from engine import Formation
        >>> Formation.SAME_VALUE, Formation.SAME_VALUE.label(4), Formation.RUN < Formation.COLOUR
        (<Formation.SAME_VALUE: 3>, 'four of a kind', True)
    """

    SUM = 0
    RUN = 1
    COLOUR = 2
    SAME_VALUE = 3
    COLOUR_RUN = 4

    def label(self, size: int = 3) -> str:
        """The formation's name for a side of ``size`` cards: ``three of a kind``."""
        if self is Formation.SAME_VALUE:
            return "four of a kind" if size == 4 else "three of a kind"
        return self.name.lower().replace("_", " ")


_SUM, _RUN, _COLOUR, _SAME_VALUE, _COLOUR_RUN = Formation
_MUD_FIGHT = CombatMode.MUD_FIGHT
"""Members as module names: reading one off its Enum class costs about 0.1 us (Python 3.11)."""


def side_capacity(modes: Collection[CombatMode]) -> int:
    """How many cards complete a side: 3, or 4 under Mud Fight.
    For example:

        >>> from engine import CombatMode, side_capacity
        >>> side_capacity(()), side_capacity({CombatMode.MUD_FIGHT})
        (3, 4)
    """
    return 4 if modes and _MUD_FIGHT in modes else 3


def formation_of(cards: Sequence[Card]) -> Formation:
    """The formation a complete side makes. The order of play does not matter; runs never wrap.
    For example:

        >>> from engine import formation_of, parse_cards
        >>> formation_of(parse_cards("red 9, red 7, red 8"))
        <Formation.COLOUR_RUN: 4>

    """

    facts = 0  # bit 9 + colour and bit value - 1 of each card, from one table
    for card in cards:
        facts |= CARD_FACTS[card]
    return _formation_of_facts(facts, len(cards))


def _formation_of_facts(facts: int, count: int) -> Formation:
    """The formation of ``count`` cards whose :data:`CARD_FACTS` folded by ``|`` are ``facts``."""
    values = facts & 0x1FF
    colours = facts >> 9
    same_colour = colours & (colours - 1) == 0
    # Consecutive: as many values in a row as cards, from the lowest (so no value twice).
    consecutive = values == (values & -values) * ((1 << count) - 1)
    if consecutive and same_colour:
        return _COLOUR_RUN
    if values & (values - 1) == 0:  # one value
        return _SAME_VALUE
    if same_colour:
        return _COLOUR
    if consecutive:
        return _RUN
    return _SUM


CARD_FACTS = tuple(1 << 9 + card // 9 | 1 << card % 9 for card in range(64))
"""For each card, its colour's bit (``9 + colour``, 9 to 14 for a Clan card) and its value's
(``value - 1``, 0 to 8): a side's colours and values are these folded by ``|``. A Tactic
card's "colour" bit is 15 or 16, so facts of :data:`TROOP_FACTS` or more hold an elite troop."""

TROOP_FACTS = 1 << 15
"""The lowest facts (:data:`CARD_FACTS` folded by ``|``) a side holding a Tactic card has."""


def total_of(cards: Sequence[Card]) -> int:
    """The sum of the cards' values."""
    total = len(cards)  # a card's value less one is card % 9
    for card in cards:
        total += card % 9
    return total
