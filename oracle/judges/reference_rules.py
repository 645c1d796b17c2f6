"""The rules of formations and elite troops, written out plainly and apart from the engine.

This module is the yardstick the slow references (:mod:`oracle.judges.enumeration`, the misreadings'
judge in :mod:`oracle.judges.misreadings`) measure the engine against. It shares no code and no
table with :mod:`engine.cards.formations`, :mod:`engine.cards.tactics` or
:mod:`engine.proof.claims`: if one of the engine's tables were wrong, the references would disagree
with it instead of repeating the mistake. Everything here is read straight from the rules (RULES.md,
rules/index.yaml) and favours being obviously right over being fast.

A card is the engine's card number, decoded here on its own: a Clan card is
``colour * 9 + (value - 1)`` (0 to 53), and the elite troops are the Tactic cards 54 to 57.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from enum import IntEnum
from functools import cache
from itertools import product
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:  # only for type hints: the reference reads a position, it runs no engine code
    from engine import Player, Position

CLAN_CARD_COUNT = 54
"""Six colours of nine values; card numbers from here on are Tactic cards."""

CLAN_CARDS_MASK = (1 << CLAN_CARD_COUNT) - 1
"""The 54 Clan cards as a bitmask (bit ``card`` set for each)."""

COLOURS = range(6)
VALUES = range(1, 10)

JOKER = 54
SECOND_JOKER = 55
SPY = 56
SHIELD_BEARER = 57
JOKERS = frozenset({JOKER, SECOND_JOKER})
ELITE_TROOPS = (JOKER, SECOND_JOKER, SPY, SHIELD_BEARER)

TROOP_VALUES: dict[int, tuple[int, ...]] = {
    JOKER: (1, 2, 3, 4, 5, 6, 7, 8, 9),  # any colour, any value
    SECOND_JOKER: (1, 2, 3, 4, 5, 6, 7, 8, 9),
    SPY: (7,),  # a 7 of any colour
    SHIELD_BEARER: (1, 2, 3),  # a 1, 2 or 3 of any colour
}
"""The values each elite troop may stand for; its colour is always free."""


def is_clan_card(card: int) -> bool:
    """Whether ``card`` is one of the 54 Clan cards (not a Tactic card)."""
    return 0 <= card < CLAN_CARD_COUNT


def mask_of(cards: Iterable[int]) -> int:
    """The bitmask of some cards (a card given twice counts once)."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_in(mask: int) -> Iterator[int]:
    """The cards of a bitmask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def value_of(card: int) -> int:
    """A Clan card's value, 1 to 9."""
    return card % 9 + 1


def colour_of(card: int) -> int:
    """A Clan card's colour, 0 to 5."""
    return card // 9


def clan_card(colour: int, value: int) -> int:
    """The Clan card of this colour and value."""
    return colour * 9 + value - 1


CARD_VALUES = tuple(value_of(card) for card in range(CLAN_CARD_COUNT))
CARD_COLOURS = tuple(colour_of(card) for card in range(CLAN_CARD_COUNT))
"""Each Clan card's value and colour, by card number: :func:`value_of` and :func:`colour_of`
as tables, for the judges' inner loops."""


class Formation(IntEnum):
    """The five formations; a stronger formation has a larger rank."""

    SUM = 1
    RUN = 2
    COLOUR = 3
    SAME_VALUE = 4
    COLOUR_RUN = 5


class Standing(NamedTuple):
    """How strong a complete side is: compare two with ``<``; rank first, then total.

    Under Blind-Man's Bluff every side gets the same rank (0), so only the total decides. Equal
    standings are decided by who completed first, which is not a property of the cards.
    """

    rank: int
    total: int


def side_size(*, mud_fight: bool) -> int:
    """How many cards complete a side: 3, or 4 under Mud Fight."""
    return 4 if mud_fight else 3


def are_consecutive(values: Sequence[int]) -> bool:
    """Whether the values, in any order, are all different and follow one another without a gap.

    Nothing comes after 9 or before 1, so 8-9-1 is not consecutive.
    """
    ordered = sorted(values)
    return all(ordered[index + 1] == ordered[index] + 1 for index in range(len(ordered) - 1))


def formation_of(cards: Sequence[int]) -> Formation:
    """The formation made by a complete side of Clan cards, whatever the order of play."""
    values = [value_of(card) for card in cards]
    one_colour = len({colour_of(card) for card in cards}) == 1
    run = are_consecutive(values)
    if one_colour and run:
        return Formation.COLOUR_RUN
    if len(set(values)) == 1:
        return Formation.SAME_VALUE
    if one_colour:
        return Formation.COLOUR
    if run:
        return Formation.RUN
    return Formation.SUM


def total_of(cards: Sequence[int]) -> int:
    """The sum of the Clan cards' values."""
    return sum(value_of(card) for card in cards)


def standing_of(cards: Sequence[int], *, blind_mans_bluff: bool) -> Standing:
    """The standing of a complete side made only of Clan cards."""
    if blind_mans_bluff:
        return Standing(0, total_of(cards))
    return Standing(int(formation_of(cards)), total_of(cards))


@cache
def troop_identities(troop: int) -> tuple[int, ...]:
    """Every Clan card an elite troop may stand for (it may copy a card already on the table)."""
    return tuple(clan_card(colour, value) for colour in COLOURS for value in TROOP_VALUES[troop])


def best_standing(side: Sequence[int], *, blind_mans_bluff: bool) -> Standing:
    """A complete side's standing, each elite troop on it taking the identity best for its
    owner: every choice of identities is tried."""
    clan = [card for card in side if is_clan_card(card)]
    troops = [card for card in side if not is_clan_card(card)]
    return max(
        standing_of([*clan, *chosen], blind_mans_bluff=blind_mans_bluff)
        for chosen in product(*(troop_identities(troop) for troop in troops))
    )


def troops_a_player_could_add(unseen: int, *, has_played_joker: bool) -> tuple[int, ...]:
    """The elite troops among the cards ``unseen`` (a bitmask) that a player may still add.

    Every unseen Spy and Shield-Bearer, and one unseen Joker unless the player has played one
    already: a player gets at most one Joker in the whole game.
    """
    troops: list[int] = []
    unseen_jokers = sorted(joker for joker in JOKERS if unseen >> joker & 1)
    if unseen_jokers and not has_played_joker:
        troops.append(unseen_jokers[0])
    troops += [troop for troop in (SPY, SHIELD_BEARER) if unseen >> troop & 1]
    return tuple(troops)


def has_played_joker(position: Position, player: Player) -> bool:
    """Whether ``player`` has played a Joker: one lies on their side of the border, or the
    position records that one they played has left it (the other then stays in their hand)."""
    on_border = any(card in JOKERS for stone in position.stones for card in stone.side(player))
    return on_border or player in position.jokers_played
