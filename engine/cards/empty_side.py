"""The best completion of an empty side without elite troops, outside Blind-Man's Bluff: the
search the slowest base claim proofs make (an empty side against a low claim tries every
formation before the one it finds).

It is :func:`engine.cards.search._strongest`'s search, formation by formation from the strongest
down, with the same answer and the same cards taken, in one call: the pool is split once into
its colours' cards (small ints, bit ``value - 1`` for each value), the runs and colours are read
from tables of such sets (:func:`~engine.cards.tables.empty_side_tables`) and three of a kind
as the general search reads it (:func:`~engine.cards.tables.values_held`), where the general
search builds a side and makes a call a formation, on the whole pool each time.
"""

from __future__ import annotations

from engine.cards import tables
from engine.cards.card import VALUE_MASKS, Card, cards_in
from engine.cards.ranks import RANK_WEIGHT, Formation, total_of

_RUN, _COLOUR, _SAME_VALUE, _COLOUR_RUN = [int(rank) * RANK_WEIGHT for rank in tuple(Formation)[1:]]
"""Each formation's strength less its total, as a plain int (an IntEnum's product costs more)."""


def strongest_of_empty(pool: int, size: int, beating: int) -> tuple[int, list[Card]] | None:
    """The strongest completion of an empty side of ``size`` cards from ``pool`` (which holds at
    least ``size``), as (strength, the cards taken), or None when none beats ``beating``.

    Of two colours reaching the same best side the lower is taken, and of the cards of one
    value the lower colours, as the general search takes them.
    """
    c0, c1, c2 = pool & 0x1FF, pool >> 9 & 0x1FF, pool >> 18 & 0x1FF
    c3, c4, c5 = pool >> 27 & 0x1FF, pool >> 36 & 0x1FF, pool >> 45 & 0x1FF
    runs, tops = tables.empty_side_tables(size)
    above_start = size * (size - 1) // 2  # a run's total is size * start + this
    # A colour run: bit ``start - 1`` of each colour's highest, folded by | over the colours.
    r0, r1, r2, r3, r4, r5 = runs[c0], runs[c1], runs[c2], runs[c3], runs[c4], runs[c5]
    start = (r0 | r1 | r2 | r3 | r4 | r5).bit_length()
    if start and _COLOUR_RUN + size * start + above_start > beating:
        first = (r0, r1, r2, r3, r4, r5).index(1 << start - 1) * 9 + start - 1
        return _COLOUR_RUN + size * start + above_start, list(range(first, first + size))
    # Same value: the highest value the pool holds ``size`` cards of (0: none).
    value = next(tables.values_held(pool, size), 0)
    if value and _SAME_VALUE + size * value > beating:
        return _SAME_VALUE + size * value, list(cards_in(pool & VALUE_MASKS[value]))[:size]
    # A colour: bit ``total - 6`` of each colour's highest cards' total, folded as the runs.
    t0, t1, t2, t3, t4, t5 = tops[c0], tops[c1], tops[c2], tops[c3], tops[c4], tops[c5]
    total = (t0 | t1 | t2 | t3 | t4 | t5).bit_length() + 5
    if total > 5 and _COLOUR + total > beating:
        colour = (t0, t1, t2, t3, t4, t5).index(1 << total - 6)
        cards = (c0, c1, c2, c3, c4, c5)[colour]
        top = tables._colour_tops(size)[cards]
        assert top is not None  # the colour holds ``size`` cards
        return _COLOUR + total, [colour * 9 + bit for bit in top[1]]
    return _run_or_sum(pool, size, runs[c0 | c1 | c2 | c3 | c4 | c5].bit_length(), beating)


def _run_or_sum(pool: int, size: int, start: int, beating: int) -> tuple[int, list[Card]] | None:
    """The end of :func:`strongest_of_empty`: a run in any colours, whose lowest value is
    ``start`` (0: none), the highest card of each value taken; else the highest cards left."""
    if start and _RUN + size * start + size * (size - 1) // 2 > beating:
        run = range(start, start + size)
        taken = [(pool & VALUE_MASKS[value]).bit_length() - 1 for value in run]
        return _RUN + size * start + size * (size - 1) // 2, taken
    top = tables.top_cards(pool, size)
    if top is None or total_of(top) <= beating:
        return None
    return total_of(top), top
