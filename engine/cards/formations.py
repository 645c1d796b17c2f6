"""Formations and their strength as one comparable int, and the strongest completion of a side.

``strength(cards, modes)`` is ``formation * 64 + total`` (only the total under Blind-Man's
Bluff), so comparing two complete sides is ``<``; equal strengths are decided by completion order,
which lives on the stone, not here.

:func:`strongest_completion` is the heart of the claim proof: instead of enumerating every way the
opponent could complete a side, it finds the best one directly, formation by formation from the
strongest down, so the first formation that can be reached at all gives the answer.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Sequence
from enum import IntEnum
from functools import cache, lru_cache
from itertools import permutations

from engine.cards.card import (
    ALL_CARDS_MASK,
    COLOUR_MASKS,
    VALUE_MASKS,
    Card,
    card_name,
    cards_in,
    cards_repr,
    make_card,
)
from engine.cards.tactics import JOKERS, WILD_VALUES, Tactic
from engine.frozen import FrozenValue, IdentityEnum, set_field

ELITE_BASE = int(Tactic.JOKER)
"""Card numbers from here on are Tactic cards; on a side, only elite troops appear."""
_JOKERS = frozenset(JOKERS)

RANK_WEIGHT = 64
"""Larger than any total (four 9s make 36, :data:`HIGHEST_TOTAL`), so the formation always
outweighs the total."""


class CombatMode(IdentityEnum):
    """The two Tactic cards that change how a single stone is fought."""

    MUD_FIGHT = "mud fight"
    BLIND_MANS_BLUFF = "blind-man's bluff"

    @property
    def label(self) -> str:
        """The name as an editor writes it."""
        return self.value


class Formation(IntEnum):
    """The five formations, weakest first so that a stronger formation is a larger int."""

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


def side_capacity(modes: Collection[CombatMode]) -> int:
    """How many cards complete a side: 3, or 4 under Mud Fight."""
    return 4 if modes and CombatMode.MUD_FIGHT in modes else 3


def formation_of(cards: Sequence[Card]) -> Formation:
    """The formation a complete side makes. The order of play does not matter; runs never wrap."""
    values = sorted([card % 9 for card in cards])
    low, high = values[0], values[-1]
    colour = cards[0] // 9
    same_colour = True
    for card in cards:
        if card // 9 != colour:
            same_colour = False
            break
    consecutive = high - low == len(values) - 1 and len(set(values)) == len(values)
    if consecutive and same_colour:
        return Formation.COLOUR_RUN
    if low == high:
        return Formation.SAME_VALUE
    if same_colour:
        return Formation.COLOUR
    if consecutive:
        return Formation.RUN
    return Formation.SUM


def total_of(cards: Sequence[Card]) -> int:
    """The sum of the cards' values."""
    return sum([card % 9 for card in cards]) + len(cards)


def strength(cards: Sequence[Card], modes: Collection[CombatMode] = ()) -> int:
    """One comparable value for a complete side: higher beats lower.

    Elite troops on the side take the identities that make it strongest, as their owner would
    choose at the claim.
    """
    blind = bool(modes) and CombatMode.BLIND_MANS_BLUFF in modes
    return _side_strength(cards if type(cards) is tuple else tuple(cards), blind)


@lru_cache(maxsize=1 << 16)
def _side_strength(cards: tuple[Card, ...], blind: bool) -> int:
    """:func:`strength`, remembered: a proof or a game judges the same complete sides again and
    again, and working one out costs more than looking it up."""
    if any(card >= ELITE_BASE for card in cards):
        return _judged_with_troops(cards, blind)[0]
    if blind:
        return total_of(cards)
    return formation_of(cards) * RANK_WEIGHT + total_of(cards)


def forget_strengths() -> None:
    """Forget the remembered strengths of sides, so that a timing starts cold."""
    _side_strength.cache_clear()


def identities(cards: Sequence[Card], modes: Collection[CombatMode] = ()) -> dict[Card, Card]:
    """The Clan card each elite troop of a complete side stands for, at the side's best."""
    wilds = [card for card in cards if card >= ELITE_BASE]
    if not wilds:
        return {}
    blind = CombatMode.BLIND_MANS_BLUFF in modes
    return dict(zip(wilds, _judged_with_troops(cards, blind)[2], strict=True))


def _judged_with_troops(cards: Sequence[Card], blind: bool) -> tuple[int, list[Card], list[Card]]:
    """A complete side holding elite troops at its best: (strength, [], each troop's identity)."""
    clan = [card for card in cards if card < ELITE_BASE]
    wilds = [card for card in cards if card >= ELITE_BASE]
    found = _strongest(clan, wilds, 0, 0, len(cards), blind, -1)
    assert found is not None
    return found


def describe(cards: Sequence[Card], modes: Collection[CombatMode] = ()) -> str:
    """A complete side in words, lowest value first: ``colour run red 7, red 8, red 9 (total 24)``

    (only the total under Blind-Man's Bluff).
    """
    stands_for = identities(cards, modes)
    shown = [stands_for.get(card, card) for card in cards]
    order = sorted(range(len(cards)), key=lambda index: (shown[index] % 9, shown[index]))
    names = ", ".join(
        f"{card_name(cards[index])} as {card_name(shown[index])}"
        if cards[index] in stands_for
        else card_name(cards[index])
        for index in order
    )
    if CombatMode.BLIND_MANS_BLUFF in modes:
        return f"{names} (only the total counts: {total_of(shown)})"
    return f"{formation_of(shown).label(len(cards))} {names} (total {total_of(shown)})"


def why_stronger(stronger: int, weaker: int, size: int = 3) -> str:
    """What decides between two strengths: ``, since a colour run outranks a sum``, or totals."""
    if stronger // RANK_WEIGHT != weaker // RANK_WEIGHT:
        high, low = Formation(stronger // RANK_WEIGHT), Formation(weaker // RANK_WEIGHT)
        return f", since {_counted(high.label(size))} outranks {_counted(low.label(size))}"
    return f", since a total of {stronger % RANK_WEIGHT} beats {weaker % RANK_WEIGHT}"


def _counted(label: str) -> str:
    return label if label.split()[0] in ("three", "four") else f"a {label}"


class Completion(FrozenValue):
    """A way to complete a side: the cards added and the strength of the finished side."""

    _fields = ("added", "strength")
    __slots__ = _fields
    added: tuple[Card, ...]
    strength: int

    def __init__(self, added: tuple[Card, ...], strength: int) -> None:
        set_field(self, "added", added)
        set_field(self, "strength", strength)

    def __repr__(self) -> str:
        return f"Completion(added={cards_repr(self.added)}, strength={self.strength})"


def _top_cards(pool: int, count: int) -> list[Card] | None:
    """The ``count`` highest-valued cards of ``pool`` (ties broken by colour), or None."""
    if count == 0:
        return []
    chosen: list[Card] = []
    for value in range(9, 0, -1):
        for card in cards_in(pool & VALUE_MASKS[value]):
            chosen.append(card)
            if len(chosen) == count:
                return chosen
    return None


def _top_of_one_colour(cards: int, count: int) -> list[Card] | None:
    """The ``count`` highest cards of a mask holding one colour only: its highest bits."""
    chosen: list[Card] = []
    while len(chosen) < count:
        if not cards:
            return None
        highest = cards.bit_length() - 1
        chosen.append(highest)
        cards ^= 1 << highest
    return chosen


def strongest_completion(
    placed: Sequence[Card],
    pool: int,
    modes: Collection[CombatMode] = (),
    *,
    beating: int = -1,
    wilds: Sequence[Card] = (),
) -> Completion | None:
    """The strongest way to complete a side holding ``placed`` from the Clan cards of ``pool``.

    ``wilds`` are elite troops the side's owner may also add (at most one Joker among them). Every
    elite troop, placed or added, takes the identity best for the owner. Returns None when no
    completion is stronger than ``beating`` (or the side cannot be completed at all); with the
    default ``beating`` it returns the best completion.
    """
    size = side_capacity(modes)
    missing = size - len(placed)
    if missing < 0:
        raise ValueError(f"a side of {len(placed)} cards is over its capacity of {size}")
    clan: Sequence[Card] = placed
    fixed: list[Card] = []
    if placed and max(placed) >= ELITE_BASE:
        clan = [card for card in placed if card < ELITE_BASE]
        fixed = [card for card in placed if card >= ELITE_BASE]
    blind = CombatMode.BLIND_MANS_BLUFF in modes
    if not wilds:
        if pool.bit_count() < missing:
            return None
        found = _strongest(clan, fixed, pool, missing, size, blind, beating)
        return None if found is None else Completion(tuple(found[1]), found[0])
    best: Completion | None = None
    for extra in _wild_choices(wilds, missing):
        count = missing - len(extra)
        if pool.bit_count() < count:
            continue
        floor = beating if best is None else max(beating, best.strength)
        found = _strongest(clan, fixed + list(extra), pool, count, size, blind, floor)
        if found is not None:
            best = Completion(tuple(found[1]) + tuple(extra), found[0])
    return best


def _wild_choices(wilds: Sequence[Card], missing: int) -> list[tuple[Card, ...]]:
    """The sets of elite troops worth trying. A Joker can copy any Clan card, so it never hurts."""
    jokers = [card for card in wilds if card in _JOKERS]
    others = [card for card in wilds if card not in _JOKERS]
    forced = tuple(jokers[:1]) if missing else ()
    choices = []
    for chosen in range(1 << len(others)):
        extra = forced + tuple(card for bit, card in enumerate(others) if chosen >> bit & 1)
        if len(extra) <= missing:
            choices.append(extra)
    # More troops first: they tend to give the strongest side, which then prunes the rest.
    return sorted(choices, key=len, reverse=True)


_ALL_COLOURS = tuple(range(6))

HIGHEST_TOTAL = 36
"""The highest total a side can reach: four 9s, under Mud Fight."""

_Found = tuple[int, list[Card], list[Card]]
"""A completion as the search returns it: strength, Clan cards taken from the pool, and the
identity each elite troop takes, in order."""


class _Side:
    """What a side already holds, worked out once for the search of its best completion."""

    __slots__ = (
        "allowed",
        "candidate_colours",
        "candidate_mask",
        "clan_mask",
        "count",
        "distinct_values",
        "high",
        "low",
        "other_colour",
        "placed_total",
        "pool",
        "size",
        "values",
        "wild_top",
        "wilds",
    )

    def __init__(
        self, clan: Sequence[Card], wilds: Sequence[Card], pool: int, count: int, size: int
    ) -> None:
        self.wilds, self.pool, self.count, self.size = wilds, pool, count, size
        if wilds:
            self.allowed = [WILD_VALUES[card] for card in wilds]
            self.wild_top = [max(values) for values in self.allowed]
            self.placed_total = total_of(clan) + sum(self.wild_top)
        else:
            self.allowed, self.wild_top, self.placed_total = [], [], total_of(clan)
        if not clan:  # an empty side: any colour, any value (the slowest proofs start here)
            self.values: set[int] = set()
            self.clan_mask, self.other_colour, self.distinct_values = 0, 0, True
            self.low, self.high = 9, 1
            self.candidate_colours: Sequence[int] = _ALL_COLOURS
            self.candidate_mask = ALL_CARDS_MASK  # a run of any colour
            return
        self.values = {card % 9 + 1 for card in clan}
        colours = {card // 9 for card in clan}
        self.clan_mask = _mask(clan)
        self.other_colour = (min(colours) + 1) % 6
        self.distinct_values = len(self.values) == len(clan)
        self.low, self.high = min(self.values), max(self.values)
        # A side of two colours can only be a run or a sum.
        self.candidate_colours = list(colours) if len(colours) == 1 else []
        self.candidate_mask = COLOUR_MASKS[self.candidate_colours[0]] if len(colours) == 1 else 0

    def top_identities(self, colour: int) -> list[Card]:
        """Each elite troop at its highest value, in ``colour`` (for a colour or a sum)."""
        return [make_card(colour, value) for value in self.wild_top]


def _out_of_reach(formation: Formation, beating: int) -> bool:
    """Whether no side of ``formation``, even at the highest total, beats ``beating``."""
    return formation * RANK_WEIGHT + HIGHEST_TOTAL <= beating


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
    for formation, search in _SEARCHES:
        if _out_of_reach(formation, beating):
            return None
        found = search(side, beating)
        if found is not None:
            return found
    return _best_sum(side, beating)


def _best_colour_run(side: _Side, beating: int) -> _Found | None:
    """One colour, consecutive values, the placed cards inside the run; each elite troop covers
    a missing value it may take, the pool gives the rest."""
    formation = Formation.COLOUR_RUN
    if not side.distinct_values or not side.candidate_colours:
        return None
    size, pool, clan_mask = side.size, side.pool, side.clan_mask
    if not side.allowed:
        # Without elite troops: bit b of ``runs`` is set when cards b to b + size - 1 are all
        # placed or in the pool. Folded over the colours, its highest bit inside the starts
        # the placed cards allow is the best run; the lowest colour holding it is taken, as
        # the loop over colours below does.
        reach = pool | clan_mask
        runs = reach & (reach >> 1) & (reach >> 2) & side.candidate_mask
        if size == 4:
            runs &= reach >> 3
        folded = (runs | runs >> 9 | runs >> 18 | runs >> 27 | runs >> 36 | runs >> 45) & 0x1FF
        highest_start, lowest_start = min(side.low, 10 - size), max(side.high - size + 1, 1)
        folded &= ((1 << highest_start) - 1) >> (lowest_start - 1) << (lowest_start - 1)
        if not folded:
            return None
        start = folded.bit_length()
        total = size * start + size * (size - 1) // 2
        if formation * RANK_WEIGHT + total <= beating:
            return None
        found = runs & VALUE_MASKS[start]
        first = (found & -found).bit_length() - 1
        needed = (((1 << size) - 1) << first) & ~clan_mask
        return formation * RANK_WEIGHT + total, list(cards_in(needed)), []
    for start, total in _run_starts(size, side.low, side.high, formation, beating):
        coverings = _coverings(start, size, side.values, side.allowed)
        run = ((1 << size) - 1) << (start - 1)
        for colour in side.candidate_colours:
            offset = colour * 9
            gaps = (run << offset) & ~clan_mask
            for covered, covered_values in coverings:
                needed = gaps & ~(covered << offset)
                if pool & needed == needed:
                    chosen = [offset + value - 1 for value in covered_values]
                    return formation * RANK_WEIGHT + total, list(cards_in(needed)), chosen
    return None


def _best_same_value(side: _Side, beating: int) -> _Found | None:
    """Every card, elite troops included, of one value."""
    formation = Formation.SAME_VALUE
    values, pool, count, size, allowed = side.values, side.pool, side.count, side.size, side.allowed
    if len(values) > 1:
        return None
    for value in values or range(9, 0, -1):  # the placed cards' value, or the highest first
        total = size * value
        if formation * RANK_WEIGHT + total <= beating:
            return None
        available = pool & VALUE_MASKS[value]
        if available.bit_count() >= count and (not allowed or all(value in own for own in allowed)):
            taken: list[Card] = list(cards_in(available))[:count]
            chosen = [make_card(index % 6, value) for index in range(len(side.wilds))]
            return formation * RANK_WEIGHT + total, taken, chosen
    return None


def _best_colour(side: _Side, beating: int) -> _Found | None:
    """One colour; the best total takes the colour's highest cards left."""
    formation = Formation.COLOUR
    best: _Found | None = None
    for colour in side.candidate_colours:
        top = _top_of_one_colour(side.pool & COLOUR_MASKS[colour], side.count)
        if top is None:
            continue
        score = formation * RANK_WEIGHT + side.placed_total + total_of(top)
        if score > beating and (best is None or score > best[0]):
            best = (score, top, side.top_identities(colour))
    return best


def _best_run(side: _Side, beating: int) -> _Found | None:
    """Consecutive values in any colours; each elite troop may cover a missing value."""
    formation = Formation.RUN
    if not side.distinct_values:
        return None
    for start, total in _run_starts(side.size, side.low, side.high, formation, beating):
        for covered, covered_values in _coverings(start, side.size, side.values, side.allowed):
            taken = []
            for value in range(start, start + side.size):
                if value in side.values or covered >> (value - 1) & 1:
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
    top = _top_cards(side.pool, side.count)
    if top is None:
        return None
    total = side.placed_total + total_of(top)
    return (total, top, side.top_identities(side.other_colour)) if total > beating else None


_SEARCHES: tuple[tuple[Formation, Callable[[_Side, int], _Found | None]], ...] = (
    (Formation.COLOUR_RUN, _best_colour_run),
    (Formation.SAME_VALUE, _best_same_value),
    (Formation.COLOUR, _best_colour),
    (Formation.RUN, _best_run),
)
"""The formations above a sum, strongest first, each with the search for its best side."""


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


def _coverings(
    start: int, size: int, values: Collection[int], allowed: Sequence[tuple[int, ...]]
) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Ways to give each elite troop a different value of the run ``start``.. that no placed card
    has and that the troop may take. Each way is the values as a mask (bit ``value - 1``) and as
    a tuple in troop order.
    """
    if not allowed:
        return ((0, ()),)
    placed = 0
    for value in values:
        placed |= 1 << (value - 1)
    return _coverings_of(start, size, placed, tuple(allowed))


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


def _mask(cards: Sequence[Card]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask
