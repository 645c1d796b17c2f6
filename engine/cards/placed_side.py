"""The best completion of a side holding Clan cards only, without elite troops to add and outside
Blind-Man's Bluff: the commonest claim proof (the opponent has played one or two cards), and the
searches of a run the general search makes when no elite troop takes part.

:func:`strongest_of_placed` is :func:`engine.cards.search._strongest`'s search, formation by
formation from the strongest down, with the same answer and the same cards taken, in a few calls:
the placed cards are read once into bits (their values, colours and cards), and each formation is
worked out from those and the pool, where the general search builds a side and makes a call a
formation. The two runs' searches by bit (:func:`_colour_run_without_troops`,
:func:`_best_run_without_troops`) have their one home here, and the general search calls them.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import tables
from engine.cards.card import COLOUR_MASKS, VALUE_CARDS, VALUE_MASKS, Card, cards_in
from engine.cards.ranks import HIGHEST_TOTAL, RANK_WEIGHT, Formation, total_of
from engine.cards.tables import CARD_SHIFT, PLACED_FACTS

_Found = tuple[int, list[Card], list[Card]]
"""A completion as the searches return it: strength, Clan cards taken from the pool, and the
identity each elite troop takes, in order (none here)."""

_RUN, _COLOUR, _SAME_VALUE, _COLOUR_RUN = [int(rank) * RANK_WEIGHT for rank in tuple(Formation)[1:]]
"""Each formation's strength less its total, as a plain int (an IntEnum's product costs more)."""

COLOUR_RUN_OUT_OF_REACH, SAME_VALUE_OUT_OF_REACH, COLOUR_OUT_OF_REACH, RUN_OUT_OF_REACH = [
    weight + HIGHEST_TOTAL for weight in (_COLOUR_RUN, _SAME_VALUE, _COLOUR, _RUN)
]
"""Each formation above a sum at the highest total: a side of it beats no bar from there up, so
a search stops there (the general search's too)."""


def strongest_of_placed(
    clan: Sequence[Card], pool: int, count: int, size: int, beating: int
) -> _Found | None:
    """The strongest completion of a side of ``size`` cards holding the Clan cards ``clan`` (at
    least one) with ``count`` cards of ``pool``, as (strength, the cards taken, []), or None when
    none beats ``beating``: the general search's answer and cards, without elite troops."""
    facts, total = 0, len(clan)  # each card's bit, its colour's and its value's; the total
    for card in clan:
        facts |= PLACED_FACTS[card]
        total += card % 9
    placed, colours = facts & 0x1FF, facts >> 9 & 0x3F  # bit c for each colour c held
    colour = (colours & -colours).bit_length() - 1 if not colours & (colours - 1) else -1
    distinct = placed.bit_count() == len(clan)  # no value twice: a run is possible
    low, high = (placed & -placed).bit_length(), placed.bit_length()
    if beating >= COLOUR_RUN_OUT_OF_REACH:
        return None
    if distinct and colour >= 0:
        candidates = COLOUR_MASKS[colour]
        found = _colour_run_without_troops(
            pool, facts >> CARD_SHIFT, candidates, low, high, size, beating
        )
        if found is not None:
            return found
    if beating >= SAME_VALUE_OUT_OF_REACH:
        return None
    found = _same_value(pool, placed, count, size, beating)
    if found is not None:
        return found
    if beating >= COLOUR_OUT_OF_REACH:
        return None
    found = _colour(pool, colour, count, total, beating)
    if found is not None:
        return found
    if beating >= RUN_OUT_OF_REACH:
        return None
    if distinct:
        found = _best_run_without_troops(pool, placed, low, high, size, beating)
        if found is not None:
            return found
    return _sum(pool, count, total, beating)


def _sum(pool: int, count: int, total: int, beating: int) -> _Found | None:
    """A sum: the pool's ``count`` highest cards, the placed cards' ``total`` and theirs
    beating ``beating`` (every better formation ruled out before)."""
    top = tables.top_cards(pool, count)
    if top is None:
        return None
    total += total_of(top)
    return (total, top, []) if total > beating else None


def _same_value(pool: int, placed: int, count: int, size: int, beating: int) -> _Found | None:
    """Three (or four) of a kind of the one value ``placed`` holds (bit ``value - 1``), the
    pool's ``count`` cards of it taken lowest colour first; None for two values placed."""
    if placed & (placed - 1):
        return None
    value = placed.bit_length()
    available = pool & VALUE_MASKS[value]
    if _SAME_VALUE + size * value <= beating or available.bit_count() < count:
        return None
    taken = [card for card in VALUE_CARDS[value] if available >> card & 1][:count]
    return _SAME_VALUE + size * value, taken, []


def _colour(pool: int, colour: int, count: int, total: int, beating: int) -> _Found | None:
    """A colour: ``colour``'s (-1: two colours placed) ``count`` highest cards left, the placed
    cards' ``total`` and theirs beating ``beating``."""
    if colour < 0:
        return None
    cards, taken = pool >> colour * 9 & 0x1FF, list[Card]()
    while cards and len(taken) < count:
        bit = cards.bit_length() - 1
        taken.append(colour * 9 + bit)
        total += bit + 1
        cards ^= 1 << bit
    if len(taken) < count or _COLOUR + total <= beating:
        return None
    return _COLOUR + total, taken, []


def _colour_run_without_troops(
    pool: int, clan_mask: int, candidate_mask: int, low: int, high: int, size: int, beating: int
) -> _Found | None:
    """The best colour run of ``size`` cards without elite troops, its placed cards
    (``clan_mask``) of values ``low`` to ``high`` inside it, in the colours of ``candidate_mask``:
    bit b of ``runs`` is set when cards b to b + size - 1 are all placed or in the pool. Folded
    over the colours, its highest bit inside the starts the placed cards allow is the best run;
    the lowest colour holding it is taken, as the search of each run in each colour would."""
    reach = pool | clan_mask
    runs = reach & (reach >> 1) & (reach >> 2) & candidate_mask
    if size == 4:
        runs &= reach >> 3
    folded = (runs | runs >> 9 | runs >> 18 | runs >> 27 | runs >> 36 | runs >> 45) & 0x1FF
    highest_start, lowest_start = min(low, 10 - size), max(high - size + 1, 1)
    folded &= ((1 << highest_start) - 1) >> (lowest_start - 1) << (lowest_start - 1)
    if not folded:
        return None
    start = folded.bit_length()
    total = size * start + size * (size - 1) // 2
    if _COLOUR_RUN + total <= beating:
        return None
    found = runs & VALUE_MASKS[start]
    first = (found & -found).bit_length() - 1
    needed = (((1 << size) - 1) << first) & ~clan_mask
    return _COLOUR_RUN + total, list(cards_in(needed)), []


def _best_run_without_troops(
    pool: int, placed: int, low: int, high: int, size: int, beating: int
) -> _Found | None:
    """The best run in any colours of ``size`` cards without elite troops, its ``placed``
    values (bit ``value - 1``, ``low`` to ``high``) inside it: from the values the pool holds
    in any colour and the placed ones, as bits (colours 3 to 5 folded onto 0 to 2, then onto
    0), bit b of ``runs`` is set when values b + 1 to b + size are there; its highest is the
    best run, each value not placed taking the pool's card of it in the highest colour."""
    highest_start, lowest_start = min(low, 10 - size), max(high - size + 1, 1)
    above_start = size * (size - 1) // 2  # a run's total is size * start + this
    if lowest_start > highest_start or _RUN + size * highest_start + above_start <= beating:
        return None
    pairs = pool | pool >> 27
    reach = placed | ((pairs | pairs >> 9 | pairs >> 18) & 0x1FF)
    runs = reach & (reach >> 1) & (reach >> 2)
    if size == 4:
        runs &= reach >> 3
    runs &= ((1 << highest_start) - 1) >> (lowest_start - 1) << (lowest_start - 1)
    if not runs:
        return None
    start = runs.bit_length()
    total = size * start + above_start
    if _RUN + total <= beating:
        return None
    run = range(start, start + size)
    taken = [(pool & VALUE_MASKS[v]).bit_length() - 1 for v in run if not placed >> (v - 1) & 1]
    return _RUN + total, taken, []
