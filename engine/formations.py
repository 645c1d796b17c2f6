"""Formations and their strength as one comparable int, and the strongest completion of a side.

``strength(cards, modes)`` is ``formation * 64 + total`` (only the total under Blind-Man's
Bluff), so comparing two complete sides is ``<``; equal strengths are decided by completion order,
which lives on the stone, not here.

:func:`strongest_completion` is the heart of the claim proof: instead of enumerating every way the
opponent could complete a side, it finds the best one directly, formation by formation from the
strongest down, so the first formation that can be reached at all gives the answer.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from enum import Enum, IntEnum
from itertools import pairwise

from engine.cards import COLOUR_MASKS, VALUE_MASKS, Card, card_name, cards_in, cards_repr

RANK_WEIGHT = 64
"""Larger than any total (four 9s make 36), so the formation always outweighs the total."""


class CombatMode(Enum):
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
    return 4 if CombatMode.MUD_FIGHT in modes else 3


def formation_of(cards: Sequence[Card]) -> Formation:
    """The formation a complete side makes. The order of play does not matter; runs never wrap."""
    values = sorted(card % 9 for card in cards)
    same_colour = len({card // 9 for card in cards}) == 1
    consecutive = all(b - a == 1 for a, b in pairwise(values))
    if consecutive and same_colour:
        return Formation.COLOUR_RUN
    if values[0] == values[-1]:
        return Formation.SAME_VALUE
    if same_colour:
        return Formation.COLOUR
    if consecutive:
        return Formation.RUN
    return Formation.SUM


def total_of(cards: Sequence[Card]) -> int:
    """The sum of the cards' values."""
    return sum(card % 9 + 1 for card in cards)


def strength(cards: Sequence[Card], modes: Collection[CombatMode] = ()) -> int:
    """One comparable value for a complete side: higher beats lower."""
    if CombatMode.BLIND_MANS_BLUFF in modes:
        return total_of(cards)
    return formation_of(cards) * RANK_WEIGHT + total_of(cards)


def describe(cards: Sequence[Card], modes: Collection[CombatMode] = ()) -> str:
    """A complete side in words, lowest value first: ``colour run red 7, red 8, red 9 (total 24)``

    (only the total under Blind-Man's Bluff).
    """
    names = ", ".join(card_name(card) for card in sorted(cards, key=lambda card: (card % 9, card)))
    if CombatMode.BLIND_MANS_BLUFF in modes:
        return f"{names} (only the total counts: {total_of(cards)})"
    return f"{formation_of(cards).label(len(cards))} {names} (total {total_of(cards)})"


def why_stronger(stronger: int, weaker: int, size: int = 3) -> str:
    """What decides between two strengths: ``, since a colour run outranks a sum``, or totals."""
    if stronger // RANK_WEIGHT != weaker // RANK_WEIGHT:
        high, low = Formation(stronger // RANK_WEIGHT), Formation(weaker // RANK_WEIGHT)
        return f", since {_counted(high.label(size))} outranks {_counted(low.label(size))}"
    return f", since a total of {stronger % RANK_WEIGHT} beats {weaker % RANK_WEIGHT}"


def _counted(label: str) -> str:
    return label if label.split()[0] in ("three", "four") else f"a {label}"


@dataclass(frozen=True)
class Completion:
    """A way to complete a side: the cards added and the strength of the finished side."""

    added: tuple[Card, ...]
    strength: int

    def __repr__(self) -> str:
        return f"Completion(added={cards_repr(self.added)}, strength={self.strength})"


def _top_cards(pool: int, count: int) -> list[Card] | None:
    """The ``count`` highest-valued cards of ``pool`` (ties broken by colour), or None."""
    chosen: list[Card] = []
    for value in range(9, 0, -1):
        for card in cards_in(pool & VALUE_MASKS[value]):
            chosen.append(card)
            if len(chosen) == count:
                return chosen
    return None


def strongest_completion(
    placed: Sequence[Card],
    pool: int,
    modes: Collection[CombatMode] = (),
    *,
    beating: int = -1,
) -> Completion | None:
    """The strongest way to complete a side holding ``placed`` with cards of the ``pool`` mask.

    Returns None when no completion is stronger than ``beating`` (or when the pool cannot
    complete the side at all). With the default ``beating`` it returns the best completion.
    """
    size = side_capacity(modes)
    missing = size - len(placed)
    if missing < 0:
        raise ValueError(f"a side of {len(placed)} cards is over its capacity of {size}")
    if pool.bit_count() < missing:
        return None
    placed_total = total_of(placed)
    if CombatMode.BLIND_MANS_BLUFF in modes:
        top = _top_cards(pool, missing)
        assert top is not None
        best = placed_total + total_of(top)
        return Completion(tuple(top), best) if best > beating else None

    values = {card % 9 + 1 for card in placed}
    colours = {card // 9 for card in placed}
    distinct_values = len(values) == len(placed)
    low, high = (min(values), max(values)) if values else (9, 1)
    candidate_colours = list(colours) if len(colours) == 1 else ([] if colours else range(6))
    run_total_base = size * (size - 1) // 2

    # Colour run: one colour, consecutive values, the placed cards inside the run.
    formation = Formation.COLOUR_RUN
    if formation * RANK_WEIGHT + 36 <= beating:
        return None
    if distinct_values and candidate_colours:
        for start in range(10 - size, 0, -1):
            if low < start or high > start + size - 1:
                continue
            total = size * start + run_total_base
            if formation * RANK_WEIGHT + total <= beating:
                break
            for colour in candidate_colours:
                run = ((1 << size) - 1) << (colour * 9 + start - 1)
                needed = run & ~_mask(placed)
                if pool & needed == needed:
                    return Completion(tuple(cards_in(needed)), formation * RANK_WEIGHT + total)

    # Same value: all cards of one value.
    formation = Formation.SAME_VALUE
    if formation * RANK_WEIGHT + 36 <= beating:
        return None
    if len(values) <= 1:
        for value in sorted(values) if values else range(9, 0, -1):
            total = size * value
            if formation * RANK_WEIGHT + total <= beating:
                break
            available = pool & VALUE_MASKS[value]
            if available.bit_count() >= missing:
                added = tuple(cards_in(available))[:missing]
                return Completion(added, formation * RANK_WEIGHT + total)

    # Colour: one colour; the best total takes the colour's highest cards left.
    formation = Formation.COLOUR
    if formation * RANK_WEIGHT + 36 <= beating:
        return None
    best_colour: Completion | None = None
    for colour in candidate_colours:
        top = _top_cards(pool & COLOUR_MASKS[colour], missing)
        if top is None:
            continue
        total = placed_total + total_of(top)
        score = formation * RANK_WEIGHT + total
        if score > beating and (best_colour is None or score > best_colour.strength):
            best_colour = Completion(tuple(top), score)
    if best_colour is not None:
        return best_colour

    # Run: consecutive values in any colours.
    formation = Formation.RUN
    if formation * RANK_WEIGHT + 36 <= beating:
        return None
    if distinct_values:
        for start in range(10 - size, 0, -1):
            if low < start or high > start + size - 1:
                continue
            total = size * start + run_total_base
            if formation * RANK_WEIGHT + total <= beating:
                break
            added_cards: list[Card] = []
            for value in range(start, start + size):
                if value in values:
                    continue
                available = pool & VALUE_MASKS[value]
                if not available:
                    break
                added_cards.append(available.bit_length() - 1)
            else:
                return Completion(tuple(added_cards), formation * RANK_WEIGHT + total)

    # Sum: the highest cards left, whatever they make (a better formation was ruled out above).
    top = _top_cards(pool, missing)
    assert top is not None
    total = placed_total + total_of(top)
    return Completion(tuple(top), total) if total > beating else None


def _mask(cards: Sequence[Card]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask
