"""Tables the search of a side's best completion reads, each made once, at its first use.

The search (:mod:`engine.cards.search`) looks a colour's cards up as a 9-bit set (bit
``value - 1`` for each value) instead of working its formations out card by card: a colour's
highest cards for a colour formation (:func:`_colour_tops`), each value's cards counted over
the colours (:func:`_value_fields`), and on an empty side with elite troops each colour's
highest run (:func:`_highest_runs`); which values elite troops may stand for in a run
(:func:`_coverings_of`, :func:`_first_coverings`) and what a set of troops may take
(:func:`_troop_facts`) are tables of a few entries each, kept for the life of the process.
A side's placed cards are read from one table a card (:data:`PLACED_FACTS`), and the highest
cards of a pool (:func:`top_cards`) value by value.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from itertools import permutations

from engine.cards.card import VALUE_MASKS, Card
from engine.cards.ranks import CARD_FACTS
from engine.cards.tactics import WILD_VALUES

EVERY_VALUE = frozenset(range(1, 10))
"""The nine values, which a side without elite troops may make three or four of a kind of."""

CARD_SHIFT = 15
"""Where a card's own bit starts in :data:`PLACED_FACTS`, above the colours' (9 to 14)."""
PLACED_FACTS = tuple([facts | 1 << card + CARD_SHIFT for card, facts in enumerate(CARD_FACTS)])
"""For each Clan card, :data:`~engine.cards.ranks.CARD_FACTS` (its colour's bit and its value's)
and its own bit from bit 15 on: a side's placed cards are these folded by ``|``."""


@cache
def _troop_facts(
    wilds: tuple[Card, ...],
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], int, frozenset[int]]:
    """The values each elite troop of ``wilds`` may take, its highest, their sum, and the
    values every one of them may take."""
    allowed = tuple([WILD_VALUES[card] for card in wilds])
    tops = tuple([max(values) for values in allowed])
    common = frozenset(EVERY_VALUE.intersection(*allowed))
    return allowed, tops, sum(tops), common


@cache
def _bits_high_first() -> tuple[tuple[int, ...], ...]:
    """For each set of one colour's cards (bit ``value - 1`` for each value), its bits, highest
    first: each set's is its highest bit before the bits of the set without it, made before."""
    table: list[tuple[int, ...]] = [()]
    for cards in range(1, 0x200):
        top = cards.bit_length() - 1
        table.append((top, *table[cards ^ 1 << top]))
    return tuple(table)


@cache
def _colour_tops(count: int) -> tuple[tuple[int, tuple[int, ...]] | None, ...]:
    """For each set of one colour's cards (bit ``value - 1`` for each value), the total of its
    ``count`` highest cards and their bits, highest first; None for a set of fewer cards."""
    return tuple(
        [
            None if len(bits) < count else (sum(bits[:count]) + count, bits[:count])
            for bits in _bits_high_first()
        ]
    )


def values_held(pool: int, count: int) -> Iterator[int]:
    """The values of which ``pool`` holds at least ``count`` cards, the highest first (one at a
    time: the search stops at the first that serves).

    Each colour's cards are spread one value to a 4-bit field and summed over the colours, so
    that each field counts its value's cards (six at most); adding ``8 - count`` to every field
    sets its top bit (bit ``4 * value - 1``) when the count reaches ``count``.
    """
    fields = _value_fields()
    counts = (
        fields[pool & 0x1FF]
        + fields[pool >> 9 & 0x1FF]
        + fields[pool >> 18 & 0x1FF]
        + fields[pool >> 27 & 0x1FF]
        + fields[pool >> 36 & 0x1FF]
        + fields[pool >> 45 & 0x1FF]
    )
    enough = (counts + (8 - count) * 0x111111111) & 0x888888888
    while enough:
        value = enough.bit_length() // 4
        yield value
        enough ^= 1 << 4 * value - 1


@cache
def _value_fields() -> tuple[int, ...]:
    """For each set of one colour's cards (bit ``value - 1`` for each value), the same values
    one to a 4-bit field (bit ``4 * (value - 1)``): summed over the colours, each field counts
    the cards of its value."""
    fields = [0]  # each set's fields are those of the set without its lowest bit, and that bit's
    for cards in range(1, 0x200):
        low = cards & -cards
        fields.append(fields[cards ^ low] | 1 << 4 * (low.bit_length() - 1))
    return tuple(fields)


@cache
def empty_side_tables(size: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """What the search of an empty side's best completion (:mod:`engine.cards.empty_side`)
    reads of each set of one colour's cards (bit ``value - 1`` for each value), each entry made
    so that the colours' entries fold by ``|``: bit ``start - 1`` for the lowest value of its
    highest run of ``size`` cards (0 when none), so that the highest bit of the fold is the best
    run; bit ``total - 6`` for the total of its ``size`` highest cards (0 when it holds fewer),
    so that the highest bit of the fold is the best colour."""
    runs = tuple([start and 1 << start - 1 for start in _highest_runs(size, ())])
    tops = tuple([0 if top is None else 1 << top[0] - 6 for top in _colour_tops(size)])
    return runs, tops


@cache
def _highest_runs(size: int, allowed: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    """For each set of one colour's cards (bit ``value - 1`` for each value), the lowest value
    of the highest run of ``size`` cards those cards and the elite troops ``allowed`` complete
    on an empty side, or 0 when none."""
    if not allowed:  # without elite troops, the highest run wholly among the cards
        return tuple([_run_starts(cards, size).bit_length() for cards in range(0x200)])
    highest = []
    for cards in range(0x200):
        reached = 0
        for start in range(10 - size, 0, -1):
            run = ((1 << size) - 1) << (start - 1)
            if run & ~cards in _first_coverings(start, size, 0, allowed):
                reached = start
                break
        highest.append(reached)
    return tuple(highest)


def _run_starts(cards: int, size: int) -> int:
    """The runs of ``size`` values ``cards`` hold (bit ``value - 1`` for each value): bit
    ``start - 1`` for each run starting at ``start``."""
    starts = cards
    for shift in range(1, size):
        starts &= cards >> shift
    return starts


@cache
def _first_coverings(
    start: int, size: int, placed: int, allowed: tuple[tuple[int, ...], ...]
) -> dict[int, tuple[int, tuple[int, ...]]]:
    """For each set of the run's gaps (as values, bit ``value - 1``) the pool cannot fill, the
    first covering of :func:`_coverings_of` whose elite troops stand for all of them; a set no
    covering holds is absent."""
    first: dict[int, tuple[int, tuple[int, ...]]] = {}
    coverings = _coverings_of(start, size, placed, allowed)
    gaps = 0
    for covered, _ in coverings:
        gaps |= covered
    lacking = gaps
    while True:  # every subset of the gaps any covering covers
        for covering in coverings:
            if covering[0] & lacking == lacking:
                first[lacking] = covering
                break
        if not lacking:
            return first
        lacking = (lacking - 1) & gaps


@cache
def _coverings_of(
    start: int, size: int, placed: int, allowed: tuple[tuple[int, ...], ...]
) -> tuple[tuple[int, tuple[int, ...]], ...]:
    gaps = [value for value in range(start, start + size) if not placed >> (value - 1) & 1]
    coverings = []
    for covered in permutations(gaps, len(allowed)):
        if all(value in own for value, own in zip(covered, allowed, strict=True)):
            mask = 0
            for value in covered:
                mask |= 1 << (value - 1)
            coverings.append((mask, covered))
    return tuple(coverings)


def top_cards(pool: int, count: int) -> list[Card] | None:
    """The ``count`` highest-valued cards of ``pool`` (ties broken by colour), or None."""
    if count == 0:
        return []
    chosen: list[Card] = []
    for value in range(9, 0, -1):
        held = pool & VALUE_MASKS[value]
        while held:  # the value's cards, the lowest colour first
            low = held & -held
            chosen.append(low.bit_length() - 1)
            if len(chosen) == count:
                return chosen
            held ^= low
    return None
