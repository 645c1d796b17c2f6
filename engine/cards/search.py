"""The search behind :func:`~engine.cards.formations.strongest_completion`: a side's best
completion found directly, formation by formation from the strongest down.

Instead of enumerating every way the opponent could complete a side, :func:`_strongest` tries
the formations from the strongest down, each reached by its highest total first: the first one
reachable is the best, and a formation that cannot beat the bar it is given ends the search.
:func:`_strongest_choosing` does it for several choices of elite troops to add at once. A
colour's cards are read as 9-bit sets from the tables of :mod:`engine.cards.tables`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence

from engine.cards import tables
from engine.cards.card import (
    ALL_CARDS_MASK,
    COLOUR_MASKS,
    VALUE_CARDS,
    VALUE_MASKS,
    Card,
    cards_in,
    make_card,
)
from engine.cards.placed_side import (
    COLOUR_OUT_OF_REACH,
    COLOUR_RUN_OUT_OF_REACH,
    RUN_OUT_OF_REACH,
    SAME_VALUE_OUT_OF_REACH,
    _best_run_without_troops,
    _colour_run_without_troops,
    _Found,
)
from engine.cards.ranks import RANK_WEIGHT, Formation, total_of
from engine.cards.tables import CARD_SHIFT, PLACED_FACTS

_ALL_COLOURS = tuple(range(6))
_RUN, _COLOUR, _SAME_VALUE, _COLOUR_RUN = tuple(Formation)[1:]  # 0.1 us less than Formation.RUN


class _Side:
    """What a side already holds, worked out once for the search of its best completion."""

    __slots__ = (
        "allowed",
        "candidate_colours",
        "candidate_mask",
        "clan_mask",
        "clan_total",
        "common_values",
        "count",
        "distinct_values",
        "high",
        "low",
        "other_colour",
        "placed_total",
        "placed_values",
        "pool",
        "size",
        "wild_top",
        "wilds",
    )

    def __init__(
        self, clan: Sequence[Card], wilds: Sequence[Card], pool: int, count: int, size: int
    ) -> None:
        self.wilds, self.pool, self.count, self.size = wilds, pool, count, size
        facts, total = 0, len(clan)  # each card's bit, its colour's and its value's; the total
        for card in clan:
            facts |= PLACED_FACTS[card]
            total += card % 9
        placed_values = facts & 0x1FF
        self.clan_total = self.placed_total = total
        if wilds:
            troops = tables._troop_facts(tuple(wilds))
            self.allowed, self.wild_top, self.common_values = troops[0], troops[1], troops[3]
            self.placed_total += troops[2]
        else:
            self.allowed, self.wild_top, self.common_values = (), (), tables.EVERY_VALUE
        self.placed_values, self.clan_mask = placed_values, facts >> CARD_SHIFT
        if not clan:  # an empty side: any colour, any value (the slowest proofs start here)
            self.other_colour, self.distinct_values = 0, True
            self.low, self.high = 9, 1
            self.candidate_colours: Sequence[int] = _ALL_COLOURS
            self.candidate_mask = ALL_CARDS_MASK  # a run of any colour
            return
        colours = facts >> 9 & 0x3F  # bit c for each colour c held
        lowest_colour = (colours & -colours).bit_length() - 1
        self.other_colour = (lowest_colour + 1) % 6
        self.distinct_values = placed_values.bit_count() == len(clan)
        self.low = (placed_values & -placed_values).bit_length()
        self.high = placed_values.bit_length()
        # A side of two colours can only be a run or a sum.
        if colours & (colours - 1):
            self.candidate_colours, self.candidate_mask = (), 0
        else:
            self.candidate_colours = (lowest_colour,)
            self.candidate_mask = COLOUR_MASKS[lowest_colour]

    def with_troops(self, wilds: tuple[Card, ...], count: int) -> _Side:
        """The same placed Clan cards with the elite troops ``wilds`` and ``count`` cards to
        take: what the placed cards are is copied, not worked out again."""
        side = _Side.__new__(_Side)
        side.candidate_colours, side.candidate_mask = self.candidate_colours, self.candidate_mask
        side.clan_mask, side.clan_total = self.clan_mask, self.clan_total
        side.distinct_values, side.high, side.low = self.distinct_values, self.high, self.low
        side.other_colour, side.placed_values = self.other_colour, self.placed_values
        side.wilds, side.pool, side.count, side.size = wilds, self.pool, count, self.size
        side.allowed, side.wild_top, troops_total, side.common_values = tables._troop_facts(wilds)
        side.placed_total = self.clan_total + troops_total
        return side

    def top_identities(self, colour: int) -> list[Card]:
        """Each elite troop at its highest value, in ``colour`` (for a colour or a sum)."""
        return [make_card(colour, value) for value in self.wild_top]


def _strongest(
    clan: Sequence[Card],
    wilds: Sequence[Card],
    pool: int,
    count: int,
    size: int,
    blind: bool,
    beating: int,
) -> _Found | None:
    """The best side made of ``clan``, the elite troops ``wilds`` and ``count`` cards of ``pool``.

    Returns (strength, Clan cards taken from the pool, the identity of each wild in order), or
    None when nothing beats ``beating``. Formations are tried from the strongest down, so the first
    one reachable is the best; each is reached by its highest total first.
    """
    side = _Side(clan, wilds, pool, count, size)
    if blind:
        return _best_sum(side, beating)
    for out_of_reach, search in _SEARCHES:
        if out_of_reach <= beating:
            return None
        found = search(side, beating)
        if found is not None:
            return found
    return _best_sum(side, beating)


def _strongest_choosing(
    clan: Sequence[Card],
    fixed: Sequence[Card],
    choices: Sequence[tuple[Card, ...]],
    pool: int,
    missing: int,
    size: int,
    blind: bool,
    beating: int,
) -> tuple[int, list[Card], tuple[Card, ...]] | None:
    """The best side made of ``clan``, the elite troops ``fixed`` and, for one of ``choices``
    of elite troops to add, the rest of the ``missing`` cards from ``pool``: one search over
    every choice at once, not one search per choice.

    Returns (strength, Clan cards taken from the pool, the choice added), or None when nothing
    beats ``beating``. Formations are tried from the strongest down; the first one any choice
    reaches holds the best side, and of the choices reaching its best strength the first in
    ``choices`` is taken, as one search per choice in that order, each kept only when it beats
    the best before, would take it. A choice needing more cards than ``pool`` holds is skipped.
    """
    held = pool.bit_count()
    placed = _Side(clan, fixed, pool, missing, size)
    sides = [
        (placed.with_troops((*fixed, *extra), missing - len(extra)), extra)
        for extra in choices
        if held >= missing - len(extra)
    ]
    for out_of_reach, search in () if blind else _SEARCHES:
        if out_of_reach <= beating:
            return None
        best: tuple[int, list[Card], tuple[Card, ...]] | None = None
        floor = beating
        for side, extra in sides:
            found = search(side, floor)
            if found is not None:
                best, floor = (found[0], found[1], extra), found[0]
        if best is not None:
            return best
    return _best_sum_of_choices(sides, beating)


def _best_sum_of_choices(
    sides: Sequence[tuple[_Side, tuple[Card, ...]]], beating: int
) -> tuple[int, list[Card], tuple[Card, ...]] | None:
    """The best sum over the choices of elite troops, the first choice of the best total: the
    highest cards left are the same for every choice, so they are found once for the most any
    choice takes, and each choice takes as many of them as it needs."""
    if not sides:
        return None
    top = tables.top_cards(sides[0][0].pool, max([side.count for side, _ in sides]))
    assert top is not None  # every choice kept needs no more cards than the pool holds
    best: tuple[int, list[Card], tuple[Card, ...]] | None = None
    for side, extra in sides:
        taken = top[: side.count]
        total = side.placed_total + total_of(taken)
        if total > beating:
            beating, best = total, (total, taken, extra)
    return best


def _best_colour_run(side: _Side, beating: int) -> _Found | None:
    """One colour, consecutive values, the placed cards inside the run; each elite troop covers
    a missing value it may take, the pool gives the rest."""
    formation = _COLOUR_RUN
    if not side.distinct_values or not side.candidate_colours:
        return None
    size, pool, clan_mask = side.size, side.pool, side.clan_mask
    if not side.allowed:
        candidates = side.candidate_mask
        return _colour_run_without_troops(
            pool, clan_mask, candidates, side.low, side.high, size, beating
        )
    placed, colours = side.placed_values, side.candidate_colours
    starts: Iterable[tuple[int, int]]
    if clan_mask:
        starts = _run_starts(size, side.low, side.high, formation, beating)
    else:
        highest = _highest_run_of_any_colour(side, beating)
        if highest is None:
            return None
        starts, colours = ((highest[0], highest[1]),), (highest[2],)
    for start, total in starts:
        # The first covering (in the order of _coverings_of) that leaves no needed card missing
        # from the pool, by the values the pool lacks: a lookup instead of a loop.
        first_covering = tables._first_coverings(start, size, placed, side.allowed)
        if not first_covering:
            continue  # no elite troop of this choice fits this run
        run = ((1 << size) - 1) << (start - 1)
        for colour in colours:
            offset = colour * 9
            gaps = (run << offset) & ~clan_mask
            covering = first_covering.get((gaps & ~pool) >> offset)
            if covering is not None:
                covered, covered_values = covering
                needed = gaps & ~(covered << offset)
                chosen = [offset + value - 1 for value in covered_values]
                return formation * RANK_WEIGHT + total, list(cards_in(needed)), chosen
    return None


def _highest_run_of_any_colour(side: _Side, beating: int) -> tuple[int, int, int] | None:
    """On an empty side (but for elite troops), the highest colour run the pool and the troops
    complete, as (lowest value, total, colour), or None when none beats ``beating``: each
    colour's highest run is read from a table of that colour's cards left, and the lowest colour
    reaching the highest is taken, as a search of each run in each colour would take it."""
    size, pool = side.size, side.pool
    highest = tables._highest_runs(size, side.allowed)
    start = found = 0
    for colour in _ALL_COLOURS:
        reached = highest[pool >> colour * 9 & 0x1FF]
        if reached > start:
            start, found = reached, colour
    total = size * start + size * (size - 1) // 2
    if not start or _COLOUR_RUN * RANK_WEIGHT + total <= beating:
        return None
    return start, total, found


def _best_same_value(side: _Side, beating: int) -> _Found | None:
    """Every card, elite troops included, of one value."""
    placed = side.placed_values
    if placed & (placed - 1):  # two values placed
        return None
    pool, count, size, allowed = side.pool, side.count, side.size, side.allowed
    # The placed value, or any the pool holds enough of.
    for value in (side.high,) if placed else tables.values_held(pool, count):
        total = size * value
        if _SAME_VALUE * RANK_WEIGHT + total <= beating:
            return None
        available = pool & VALUE_MASKS[value]
        if available.bit_count() >= count and (not allowed or value in side.common_values):
            taken = [card for card in VALUE_CARDS[value] if available >> card & 1][:count]
            wilds = side.wilds
            chosen = [make_card(index % 6, value) for index in range(len(wilds))] if wilds else []
            return _SAME_VALUE * RANK_WEIGHT + total, taken, chosen
    return None


def _best_colour(side: _Side, beating: int) -> _Found | None:
    """One colour; the best total takes the colour's highest cards left."""
    best: tuple[int, int, tuple[int, ...]] | None = None
    tops, pool = tables._colour_tops(side.count), side.pool
    placed = _COLOUR * RANK_WEIGHT + side.placed_total
    for colour in side.candidate_colours:
        top = tops[(pool & COLOUR_MASKS[colour]) >> colour * 9]
        if top is not None and placed + top[0] > beating:
            beating, best = placed + top[0], (colour, top[0], top[1])
    if best is None:
        return None
    colour, total, bits = best
    offset = colour * 9
    taken = [offset + bit for bit in bits]
    return placed + total, taken, side.top_identities(colour) if side.wilds else []


def _best_run(side: _Side, beating: int) -> _Found | None:
    """Consecutive values in any colours; each elite troop may cover a missing value."""
    formation = _RUN
    if not side.distinct_values:
        return None
    if not side.allowed:
        return _best_run_without_troops(
            side.pool, side.placed_values, side.low, side.high, side.size, beating
        )
    for start, total in _run_starts(side.size, side.low, side.high, formation, beating):
        coverings = tables._coverings_of(start, side.size, side.placed_values, side.allowed)
        for covered, covered_values in coverings:
            taken = []
            for value in range(start, start + side.size):
                if (side.placed_values | covered) >> (value - 1) & 1:
                    continue
                available = side.pool & VALUE_MASKS[value]
                if not available:
                    break
                taken.append(available.bit_length() - 1)
            else:
                chosen = [side.other_colour * 9 + value - 1 for value in covered_values]
                return formation * RANK_WEIGHT + total, taken, chosen
    return None


def _best_sum(side: _Side, beating: int) -> _Found | None:
    """The highest cards left, whatever they make: under Blind-Man's Bluff only the total counts,
    and otherwise every better formation was ruled out before."""
    top = tables.top_cards(side.pool, side.count)
    if top is None:
        return None
    total = side.placed_total + total_of(top)
    return (total, top, side.top_identities(side.other_colour)) if total > beating else None


_SEARCHES: tuple[tuple[int, Callable[[_Side, int], _Found | None]], ...] = (
    (COLOUR_RUN_OUT_OF_REACH, _best_colour_run),
    (SAME_VALUE_OUT_OF_REACH, _best_same_value),
    (COLOUR_OUT_OF_REACH, _best_colour),
    (RUN_OUT_OF_REACH, _best_run),
)
"""The formations above a sum, strongest first, each as its strength at the highest total (a
side of it beats no bar from there up, so the search stops there) and the search for its best
side: worked out once, so the loop compares instead of calling a function a formation."""


def _run_starts(
    size: int, low: int, high: int, formation: Formation, beating: int
) -> Iterator[tuple[int, int]]:
    """(lowest value, total) of each run holding the values ``low``..``high``, highest first,
    while a run of ``formation`` with that total would still beat ``beating``."""
    for start in range(10 - size, 0, -1):
        if low < start or high > start + size - 1:
            continue
        total = size * start + size * (size - 1) // 2
        if formation * RANK_WEIGHT + total <= beating:
            return
        yield start, total
