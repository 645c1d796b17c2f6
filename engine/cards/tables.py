"""Tables the search of a side's best completion reads, each made once, at its first use.

The search (:mod:`engine.cards.search`) looks a colour's cards up as a 9-bit set (bit
``value - 1`` for each value) instead of working its formations out card by card: a colour's
highest cards for a colour formation (:func:`_colour_tops`), and on an empty side with elite
troops each colour's highest run (:func:`_highest_runs`); which values elite troops may stand for
in a run (:func:`_coverings_of`, :func:`_first_coverings`) and what a set of troops may take
(:func:`_troop_facts`) are tables of a few entries each, kept for the life of the process.
"""

from __future__ import annotations

from functools import cache
from itertools import permutations

from engine.cards.card import Card
from engine.cards.tactics import WILD_VALUES

EVERY_VALUE = frozenset(range(1, 10))
"""The nine values, which a side without elite troops may make three or four of a kind of."""


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
def _colour_tops(count: int) -> tuple[tuple[int, tuple[int, ...]] | None, ...]:
    """For each set of one colour's cards (bit ``value - 1`` for each value), the total of its
    ``count`` highest cards and their bits, highest first; None for a set of fewer cards."""
    tops: list[tuple[int, tuple[int, ...]] | None] = []
    for cards in range(0x200):
        bits = tuple([bit for bit in range(8, -1, -1) if cards >> bit & 1][:count])
        tops.append((sum(bits) + count, bits) if len(bits) == count else None)
    return tuple(tops)


@cache
def _highest_runs(size: int, allowed: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    """For each set of one colour's cards (bit ``value - 1`` for each value), the lowest value
    of the highest run of ``size`` cards those cards and the elite troops ``allowed`` complete
    on an empty side, or 0 when none."""
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
