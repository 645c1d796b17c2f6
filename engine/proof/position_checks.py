"""The checks that a position can exist: every card in one place, no side over capacity, modes
and discards only in the tactics variant, the hand within the hand size, Tactic cards where they
can lie, and a completion order exactly where two complete sides tie.

:class:`engine.proof.position.Position` raises the first problem found here, and its ``status``
lists them all.
"""

from __future__ import annotations

from collections.abc import Sequence

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


__all__ = ["problems_and_cards"]
