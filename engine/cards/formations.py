"""Formations and their strength as one comparable int, and the strongest completion of a side.

``strength(cards, modes)`` is ``formation * 64 + total`` (only the total under Blind-Man's
Bluff), so comparing two complete sides is ``<``; equal strengths are decided by completion order,
which lives on the stone, not here.

:func:`strongest_completion` is the heart of the claim proof: instead of enumerating every way the
opponent could complete a side, it finds the best one directly, formation by formation from the
strongest down, so the first formation that can be reached at all gives the answer (the search
is :mod:`engine.cards.search`). The formations themselves, the combat modes and a side's size
and total are :mod:`engine.cards.ranks`, whose names this module gives too.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from functools import lru_cache

from engine.cards.card import Card, card_name, cards_repr
from engine.cards.empty_side import strongest_of_empty
from engine.cards.placed_side import strongest_of_placed
from engine.cards.ranks import _JOKERS, CARD_FACTS, ELITE_BASE, TROOP_FACTS, _formation_of_facts
from engine.cards.ranks import RANK_WEIGHT as RANK_WEIGHT
from engine.cards.ranks import CombatMode as CombatMode
from engine.cards.ranks import Formation as Formation
from engine.cards.ranks import formation_of as formation_of
from engine.cards.ranks import side_capacity as side_capacity
from engine.cards.ranks import total_of as total_of
from engine.cards.search import _strongest, _strongest_choosing
from engine.frozen import FrozenValue, slot_setters

_BLIND, _MUD_FIGHT = CombatMode.BLIND_MANS_BLUFF, CombatMode.MUD_FIGHT
"""The modes as module names: reading one off its Enum class costs about 0.1 us (Python 3.11)."""


def strength(cards: Sequence[Card], modes: Collection[CombatMode] = ()) -> int:
    """One comparable value for a complete side: higher beats lower.

    Elite troops on the side take the identities that make it strongest, as their owner would
    choose at the claim.

        >>> from engine import parse_cards, strength
        >>> strength(parse_cards("red 7, red 8, red 9"))  # a colour run
        280
        >>> strength(parse_cards("red 9, blue 9, pink 9"))  # weaker: three of a kind
        219

    """
    blind = bool(modes) and _BLIND in modes
    return _side_strength(cards if type(cards) is tuple else tuple(cards), blind)


@lru_cache(maxsize=1 << 16)
def _side_strength(cards: tuple[Card, ...], blind: bool) -> int:
    """:func:`strength`, remembered: a proof or a game judges the same complete sides again and
    again, and working one out costs more than looking it up. A side of Clan cards is worked
    out in one pass over its cards, formation and total (a cold claim proof judges the
    claimant's side so), without a call for each."""
    facts, total = 0, len(cards)  # a Clan card's value less one is card % 9
    for card in cards:
        facts |= CARD_FACTS[card]
        total += card % 9
    if facts >= TROOP_FACTS:
        return _judged_with_troops(cards, blind)[0]
    if blind:
        return total
    return _formation_of_facts(facts, len(cards)) * RANK_WEIGHT + total


def forget_strengths() -> None:
    """Forget the remembered strengths of sides, so that a timing starts cold.
    For example:

        >>> from engine import forget_strengths, parse_cards, strength
        >>> forget_strengths()
        >>> strength(parse_cards("red 7, red 8, red 9"))  # worked out afresh
        280
    """
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

        >>> from engine import describe, parse_cards
        >>> describe(parse_cards("red 9, joker, red 7"))
        'colour run red 7, joker as red 8, red 9 (total 24)'
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
    """A way to complete a side: the cards added and the strength of the finished side.
    For example:

        >>> from engine import CardSet, parse_cards, strongest_completion
        >>> pool = CardSet(parse_cards("red 9, blue 1")).mask
        >>> strongest_completion(parse_cards("red 7, red 8"), pool).added
        (8,)
    """

    _fields = ("added", "strength")
    __slots__ = _fields
    added: tuple[Card, ...]
    strength: int

    def __init__(self, added: tuple[Card, ...], strength: int) -> None:
        _SET_ADDED(self, added)
        _SET_STRENGTH(self, strength)

    def __repr__(self) -> str:
        return f"Completion(added={cards_repr(self.added)}, strength={self.strength})"


_SET_ADDED, _SET_STRENGTH = slot_setters(Completion, *Completion._fields)


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

        >>> from engine import CardSet, parse_cards, strongest_completion
        >>> pool = CardSet(parse_cards("red 6, red 9, blue 1")).mask
        >>> strongest_completion(parse_cards("red 7, red 8"), pool)
        Completion(added=parse_cards('red 9'), strength=280)
        >>> print(strongest_completion(parse_cards("red 7, red 8"), pool, beating=280))
        None
    """

    size = 3 + (_MUD_FIGHT in modes)  # side_capacity, without the call
    missing = size - len(placed)
    if missing < 0:
        raise ValueError(f"a side of {len(placed)} cards is over its capacity of {size}")
    clan: Sequence[Card] = placed
    fixed: Sequence[Card] = ()
    if placed and max(placed) >= ELITE_BASE:  # elite troops placed: the Clan cards apart
        clan, fixed = _troops_apart(placed)
    blind = bool(modes) and _BLIND in modes
    if not wilds:
        if pool.bit_count() < missing:
            return None
        found: tuple[int, list[Card]] | tuple[int, list[Card], list[Card]] | None
        if blind or fixed:
            found = _strongest(clan, fixed, pool, missing, size, blind, beating)
        elif placed:  # Clan cards only: the commonest proofs
            found = strongest_of_placed(clan, pool, missing, size, beating)
        else:  # an empty side: the slowest proofs
            found = strongest_of_empty(pool, size, beating)
        return None if found is None else Completion(tuple(found[1]), found[0])
    choices = _wild_choices(tuple(wilds), missing)
    chosen = _strongest_choosing(clan, fixed, choices, pool, missing, size, blind, beating)
    return None if chosen is None else Completion((*chosen[1], *chosen[2]), chosen[0])


def _troops_apart(placed: Sequence[Card]) -> tuple[list[Card], list[Card]]:
    """A side's Clan cards and its elite troops, each in the order placed."""
    return [card for card in placed if card < ELITE_BASE], [c for c in placed if c >= ELITE_BASE]


@lru_cache(maxsize=256)
def _wild_choices(wilds: tuple[Card, ...], missing: int) -> tuple[tuple[Card, ...], ...]:
    """The sets of elite troops worth trying. A Joker can copy any Clan card, so it never hurts."""
    jokers = [card for card in wilds if card in _JOKERS]
    others = [card for card in wilds if card not in _JOKERS]
    forced = tuple(jokers[:1]) if missing else ()
    choices = []
    for chosen in range(1 << len(others)):
        extra = forced + tuple(card for bit, card in enumerate(others) if chosen >> bit & 1)
        if len(extra) <= missing:
            choices.append(extra)
    # More troops first: of the choices reaching the best side, the first is taken.
    return tuple(sorted(choices, key=len, reverse=True))
