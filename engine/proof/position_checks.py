"""The checks that a position can exist: every card in one place, no side over capacity, modes
and discards only in the tactics variant, the hand within the hand size, Tactic cards where they
can lie, and a completion order exactly where two complete sides tie.

:class:`engine.proof.position.Position` raises the first problem found here, and its ``status``
lists them all.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter

from engine.cards.card import Card, card_name, is_clan_card
from engine.cards.formations import strength
from engine.cards.tactics import COMBAT_MODE_CARDS, ELITE_TROOPS, JOKERS, TACTICS_MASK
from engine.proof.pieces import (
    MODE_CARDS,
    STONES,
    DuplicateCard,
    HandTooLarge,
    MisplacedCard,
    MisplacedCompletionOrder,
    MissingCompletionOrder,
    Player,
    PositionError,
    SideOverCapacity,
    StoneState,
    VariantError,
)
from engine.proof.variants import Variant

TYPE_CHECKING = False  # typing is not imported at run time (see engine.frozen)
if TYPE_CHECKING:
    from typing import Protocol

    class _Seen(Protocol):
        """What the checks read of a position."""

        @property
        def stones(self) -> Sequence[StoneState]: ...
        @property
        def discards(self) -> tuple[Card, ...]: ...
        @property
        def hand(self) -> tuple[Card, ...]: ...
        @property
        def viewer(self) -> Player: ...
        @property
        def variant(self) -> Variant: ...
        @property
        def jokers_played(self) -> frozenset[Player]: ...
        def placed_cards(self) -> tuple[Card, ...]: ...
        def has_played_joker(self, player: Player) -> bool: ...


_CARD_BITS = {card: 1 << card for card in range(64)}
"""Each card number's bit: ``sum(itemgetter(*cards)(_CARD_BITS))`` is the mask of two cards or
more at C speed, and a number that is no card has no entry."""


def face_up_mask_when_valid(position: _Seen) -> int:
    """The cards face up (a mask: every card the position holds but the hand) when a quick pass
    finds nothing wrong, else -1: the constructor then lists the problems with
    :func:`problems_and_cards` and raises the first.

    The constructor's one pass over the cards, with the stones' checks folded into it: each
    stone's sides are read once, for their cards and their sizes, and the cards are then checked
    together at C speed (plain card numbers, none twice). What it cannot vouch for at a glance (a
    combat mode, a Tactic card, a Joker played, a hand over the hand size, anything that is not
    what a position is made of) it leaves to the full listing, so it never decides which problem
    comes first, only that there is none.
    """
    try:
        if not _plain_fields(position):
            return -1
        hand = position.hand
        cards = [*position.discards, *hand]
        complete = _stones_at_a_glance(position.stones, cards)
        # Plain card numbers: what is not an int (a float, a numpy integer; a bool is read as
        # the int it is, by the full listing too) sums to something else, or fails to.
        if complete is None or len(cards) < 2 or type(sum(cards)) is not int:
            return -1  # (fewer than two cards cost nothing to check in full)
        seen: int = sum(itemgetter(*cards)(_CARD_BITS))
        if seen.bit_count() != len(cards) or seen & TACTICS_MASK:
            return -1
        for stone in complete:  # Clan cards only, so no side is without a strength
            if strength(stone.sides[0]) == strength(stone.sides[1]):
                return -1
        return seen - sum(map(_CARD_BITS.__getitem__, hand))
    except Exception:  # whatever the quick pass trips on, the full listing names
        return -1


def _plain_fields(position: _Seen) -> bool:
    """Nine stones, no Joker played, a hand within the hand size (the largest hand is never
    smaller), and discards only in the tactics variant."""
    variant = position.variant
    return (
        len(position.stones) == len(STONES)
        and not position.jokers_played
        and len(position.hand) <= variant.hand_size
        and (variant.has_tactics or not len(position.discards))
    )


def _stones_at_a_glance(stones: Sequence[StoneState], cards: list[Card]) -> list[StoneState] | None:
    """Add the stones' cards to ``cards``; return the stones whose two complete sides must not
    tie (no completion order given), or None for a stone the quick pass does not vouch for: a
    combat mode, a side over three cards, a completion order where a side is incomplete."""
    complete: list[StoneState] = []
    for stone in stones:
        a, b = stone.sides  # (a stone of other than two sides: an error, the caller's -1)
        cards += a
        cards += b
        size_a, size_b = len(a), len(b)
        # Without a combat mode a side holds 3: a size over 3 sets a bit above the two low.
        if size_a | size_b > 3 or stone.modes:
            return None
        if size_a & size_b == 3:  # both sides complete
            if stone.completed_first is None:
                complete.append(stone)
        elif stone.completed_first is not None:
            return None
    return complete


def problems_and_cards(position: _Seen) -> tuple[list[PositionError], int]:
    """What :meth:`Position.status` says, and the mask of every card the position holds."""
    if len(position.stones) != len(STONES):
        return [PositionError(f"a border has 9 stones, not {len(position.stones)}")], 0
    cards, suspects = _every_card(position)
    problems, seen = _card_problems(cards)
    if problems and not all(isinstance(problem, DuplicateCard) for problem in problems):
        return problems, seen  # what is not a card cannot be judged further
    if seen & TACTICS_MASK:  # a Tactic card somewhere
        problems += _tactic_card_problems(position)
    problems += _jokers_played_problems(position)
    if position.discards and not position.variant.has_tactics:
        problems.append(
            VariantError("face-up discards only exist in the tactics variant", part="discards")
        )
    problems += _hand_problems(position)
    for number, stone in suspects:
        problems += _stone_problems(position, number, stone)
    return problems, seen


def _every_card(position: _Seen) -> tuple[list[Card], list[tuple[int, StoneState]]]:
    """Each card the position holds, where it lies (the sides, the discards, the hand, the
    combat modes), and in the same pass the stones that need a closer look: a stone with no
    combat mode and no completion order can only be wrong with a side over three cards, or two
    complete sides that tie (most stones are neither)."""
    cards: list[Card] = []
    suspects: list[tuple[int, StoneState]] = []
    has_modes = False
    for number, stone in enumerate(position.stones, 1):
        a, b = stone.sides[0], stone.sides[1]
        cards += a
        cards += b
        if stone.modes:
            has_modes = True
            suspects.append((number, stone))
        elif stone.completed_first is not None or len(a) > 3 or len(b) > 3 or len(a) == len(b) == 3:
            suspects.append((number, stone))
    cards += position.discards
    cards += position.hand
    if has_modes:
        cards += _mode_cards(position)
    return cards, suspects


def _card_problems(cards: list[Card]) -> tuple[list[PositionError], int]:
    """Whatever is not a card, and each card seen twice; and the set of cards seen."""
    # At C speed when all is well: plain ints, each a card number, none twice.
    if not cards:
        return [], 0
    if set(map(type, cards)) == {int} and min(cards) >= 0:
        # A sum of powers of two has as many bits as terms only when no two are equal.
        seen = sum(map((1).__lshift__, cards))
        if not seen >> 64 and seen.bit_count() == len(cards):
            return [], seen
    problems: list[PositionError] = []
    seen = 0
    for card in cards:
        if not isinstance(card, int) or not 0 <= card < 64:
            hint = f"; write parse_card({card!r})" if isinstance(card, str) else ""
            problems.append(PositionError(f"no card number {card!r}{hint}"))
        elif seen >> card & 1:
            problems.append(DuplicateCard(card))
        else:
            seen |= 1 << card
    return problems, seen


def _hand_problems(position: _Seen) -> list[PositionError]:
    if len(position.hand) <= position.variant.largest_hand:
        return []
    extra = (
        " (7, and two more in the middle of a Recruiter)" if position.variant.has_tactics else ""
    )
    return [
        HandTooLarge(
            f"a hand of {len(position.hand)} cards, but a hand in the {position.variant.name} game"
            f" holds at most {position.variant.largest_hand}{extra}",
            part="hand",
        )
    ]


def _mode_cards(position: _Seen) -> tuple[Card, ...]:
    return tuple(
        MODE_CARDS[mode]
        for stone in position.stones
        if stone.modes
        for mode in sorted(stone.modes, key=str)
    )


def _stone_problems(position: _Seen, number: int, stone: StoneState) -> list[PositionError]:
    """What is wrong with one stone: a combat mode outside the tactics variant, a side over
    capacity, a completion order where it cannot be or missing where it must be."""
    problems: list[PositionError] = []
    if stone.modes and not position.variant.has_tactics:
        problems.append(
            VariantError(
                f"stone {number}: combat modes only exist in the tactics variant",
                stone=number,
                part="modes",
            )
        )
    capacity = stone.capacity
    sizes = (len(stone.sides[0]), len(stone.sides[1]))
    if sizes[0] > capacity or sizes[1] > capacity:
        problems += [
            SideOverCapacity(number, player, sizes[player], capacity, position.viewer)
            for player in (Player.A, Player.B)
            if sizes[player] > capacity
        ]
        return problems
    if sizes[0] != capacity or sizes[1] != capacity:  # at most one side complete
        if stone.completed_first is not None:
            problems.append(MisplacedCompletionOrder(number))
        return problems
    if stone.completed_first is None and _sides_tie(stone):
        problems.append(MissingCompletionOrder(number))
    return problems


def _tactic_card_problems(position: _Seen) -> list[PositionError]:
    """Tactic cards only in the tactics variant, each where it can lie, one Joker a player."""
    places = (
        [("side", card) for card in position.placed_cards()]
        + [("discards", card) for card in position.discards]
        + [("hand", card) for card in position.hand]
    )
    problems: list[PositionError] = [
        MisplacedCard(card, why)
        for place, card in places
        if not is_clan_card(card)
        for why in [_misplaced_tactic_card(position, place, card)]
        if why is not None
    ]
    for player in Player:
        jokers = [
            card for stone in position.stones for card in stone.sides[player] if card in JOKERS
        ]
        if len(jokers) > 1:
            problems.append(
                MisplacedCard(
                    max(jokers), "a player may have only one Joker on their side of the border"
                )
            )
    return problems


def _misplaced_tactic_card(position: _Seen, place: str, card: Card) -> str | None:
    """Why a Tactic card cannot lie in ``place`` (side, discards or hand), or None."""
    if not position.variant.has_tactics:
        return "Tactic cards only exist in the tactics variant"
    if place == "side" and card not in ELITE_TROOPS:
        mode = " (a combat mode goes in the stone's modes)" if card in COMBAT_MODE_CARDS else ""
        return f"{card_name(card)} cannot lie on a side: only Clan cards and elite troops do{mode}"
    if place == "discards" and card in COMBAT_MODE_CARDS:
        return f"{card_name(card)} stays on its stone; it is never discarded"
    return None


def _jokers_played_problems(position: _Seen) -> list[PositionError]:
    if not position.jokers_played:
        return []
    if not position.variant.has_tactics:
        return [VariantError("Jokers only exist in the tactics variant", part="jokers_played")]
    visible = sum(card in JOKERS for card in position.placed_cards() + position.discards)
    players = {p for p in Player if position.has_played_joker(p)}
    if len(players) > visible:
        return [
            PositionError(
                f"{len(players)} players have played a Joker, but only {visible} Joker"
                f"{' lies' if visible == 1 else 's lie'} face up (on a side or in the"
                " discards)",
                part="jokers_played",
            )
        ]
    return []


def _sides_tie(stone: StoneState) -> bool:
    """Whether two complete sides are equally strong. A side holding a card that cannot lie
    there (a :class:`MisplacedCard`) has no strength: it ties with nothing."""
    judged = all(
        is_clan_card(card) or card in ELITE_TROOPS for side in stone.sides for card in side
    )
    return judged and strength(stone.sides[0], stone.modes) == strength(stone.sides[1], stone.modes)


__all__ = ["face_up_mask_when_valid", "problems_and_cards"]
