"""A position as one player sees it: the nine stones, the face-up discards and their own hand.

This is the view the claim proof reasons over. It holds no deck and no opponent's hand: those are
out of sight, and so, for the proof, is the viewer's own hand. What it is made of (the stones and
players, a stone's state, the variants, the errors) is :mod:`engine.proof.pieces`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from engine.cards.card import (
    CARDS,
    Card,
    card_name,
    cards_repr,
    mask_of,
)
from engine.cards.formations import strength
from engine.cards.tactics import COMBAT_MODE_CARDS, ELITE_TROOPS, JOKERS
from engine.frozen import FrozenValue, set_field
from engine.proof.pieces import (
    BASE_VARIANT,
    EMPTY_BORDER,
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
    Variant,
    VariantError,
    check_stone,
    face_up_mask,
    variant_named,
)


class Position(FrozenValue):
    """What ``viewer`` sees: the stones (index 0 is stone 1), the face-up discards, their hand.

    The constructor checks that the position can exist: every card in one place, no side over
    capacity, modes and discards only in the tactics variant, the hand within the hand size, and
    a completion order exactly where two complete sides tie.

        >>> from engine import Position
        >>> position = Position()  # the empty border, seen by A, in the base game
        >>> len(position.stones), position.viewer, position.variant
        (9, <Player.A: 0>, VARIANTS['base'])
    """

    _fields = ("stones", "discards", "hand", "viewer", "variant", "jokers_played")
    __slots__ = (*_fields, "_table_mask")
    stones: tuple[StoneState, ...]
    discards: tuple[Card, ...]
    hand: tuple[Card, ...]
    viewer: Player
    variant: Variant
    jokers_played: frozenset[Player]
    """Players who have played a Joker that has since left the border (to the discards)."""
    _table_mask: int

    def __init__(
        self,
        stones: tuple[StoneState, ...] = EMPTY_BORDER,
        discards: tuple[Card, ...] = (),
        hand: tuple[Card, ...] = (),
        viewer: Player = Player.A,
        variant: Variant = BASE_VARIANT,
        jokers_played: frozenset[Player] = frozenset(),
    ) -> None:
        set_field(self, "stones", stones)
        set_field(self, "discards", discards)
        set_field(self, "hand", hand)
        set_field(self, "viewer", viewer)
        set_field(self, "variant", variant)
        set_field(self, "jokers_played", jokers_played)
        problems, seen = self._problems_and_cards()
        if problems:
            raise problems[0]
        # Every card is in one place, so the face-up ones are all but the hand.
        set_field(self, "_table_mask", seen & ~mask_of(hand))

    def status(self) -> list[PositionError]:
        """Every reason this position cannot exist, in the order the constructor checks them
        (it raises the first): empty for a valid one. A game state's view of itself, built
        without the checks, can be judged with it too."""
        return self._problems_and_cards()[0]

    def _problems_and_cards(self) -> tuple[list[PositionError], int]:
        """What :meth:`status` says, and the mask of every card the position holds."""
        if len(self.stones) != len(STONES):
            return [PositionError(f"a border has 9 stones, not {len(self.stones)}")], 0
        problems, seen = self._card_problems(self._every_card())
        if problems and not all(isinstance(problem, DuplicateCard) for problem in problems):
            return problems, seen  # what is not a card cannot be judged further
        if seen >> len(CARDS):  # a Tactic card somewhere
            problems += self._tactic_card_problems()
        problems += self._jokers_played_problems()
        if self.discards and not self.variant.has_tactics:
            problems.append(
                VariantError("face-up discards only exist in the tactics variant", part="discards")
            )
        problems += self._hand_problems()
        for number, stone in zip(STONES, self.stones, strict=True):
            # A stone with no combat mode and no completion order can only be wrong with a side
            # over three cards, or two complete sides that tie (most stones are neither).
            a, b = len(stone.sides[0]), len(stone.sides[1])
            if stone.modes or stone.completed_first is not None or a > 3 or b > 3 or a == b == 3:
                problems += self._stone_problems(number, stone)
        return problems, seen

    def _every_card(self) -> list[Card]:
        """Each card the position holds, where it lies: the sides, the discards, the hand, the
        combat modes."""
        cards: list[Card] = []
        has_modes = False
        for stone in self.stones:
            cards += stone.sides[0]
            cards += stone.sides[1]
            if stone.modes:
                has_modes = True
        cards += self.discards
        cards += self.hand
        if has_modes:
            cards += self._mode_cards()
        return cards

    @staticmethod
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

    def _hand_problems(self) -> list[PositionError]:
        if len(self.hand) <= self.variant.largest_hand:
            return []
        extra = (
            " (7, and two more in the middle of a Recruiter)" if self.variant.has_tactics else ""
        )
        return [
            HandTooLarge(
                f"a hand of {len(self.hand)} cards, but a hand in the {self.variant.name} game"
                f" holds at most {self.variant.largest_hand}{extra}",
                part="hand",
            )
        ]

    @classmethod
    def _without_checks(
        cls,
        stones: tuple[StoneState, ...],
        discards: tuple[Card, ...],
        hand: tuple[Card, ...],
        viewer: Player,
        variant: Variant,
        jokers_played: frozenset[Player],
    ) -> Position:
        """A position its maker already keeps valid (a game state's view of itself), built
        without the constructor's checks, which cost several times the proof it serves."""
        position = object.__new__(cls)
        set_field(position, "stones", stones)
        set_field(position, "discards", discards)
        set_field(position, "hand", hand)
        set_field(position, "viewer", viewer)
        set_field(position, "variant", variant)
        set_field(position, "jokers_played", jokers_played)
        set_field(position, "_table_mask", face_up_mask(stones, discards))
        return position

    def _mode_cards(self) -> tuple[Card, ...]:
        return tuple(
            MODE_CARDS[mode]
            for stone in self.stones
            if stone.modes
            for mode in sorted(stone.modes, key=str)
        )

    def _stone_problems(self, number: int, stone: StoneState) -> list[PositionError]:
        """What is wrong with one stone: a combat mode outside the tactics variant, a side over
        capacity, a completion order where it cannot be or missing where it must be."""
        problems: list[PositionError] = []
        if stone.modes and not self.variant.has_tactics:
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
                SideOverCapacity(number, player, sizes[player], capacity, self.viewer)
                for player in (Player.A, Player.B)
                if sizes[player] > capacity
            ]
            return problems
        if sizes[0] != capacity or sizes[1] != capacity:  # at most one side complete
            if stone.completed_first is not None:
                problems.append(MisplacedCompletionOrder(number))
            return problems
        if stone.completed_first is None and self._sides_tie(stone):
            problems.append(MissingCompletionOrder(number))
        return problems

    def _tactic_card_problems(self) -> list[PositionError]:
        """Tactic cards only in the tactics variant, each where it can lie, one Joker a player."""
        places = (
            [("side", card) for card in self.placed_cards()]
            + [("discards", card) for card in self.discards]
            + [("hand", card) for card in self.hand]
        )
        problems: list[PositionError] = [
            MisplacedCard(card, why)
            for place, card in places
            if card >= len(CARDS)
            for why in [self._misplaced_tactic_card(place, card)]
            if why is not None
        ]
        for player in Player:
            jokers = [
                card for stone in self.stones for card in stone.sides[player] if card in JOKERS
            ]
            if len(jokers) > 1:
                problems.append(
                    MisplacedCard(
                        max(jokers), "a player may have only one Joker on their side of the border"
                    )
                )
        return problems

    def _misplaced_tactic_card(self, place: str, card: Card) -> str | None:
        """Why a Tactic card cannot lie in ``place`` (side, discards or hand), or None."""
        if not self.variant.has_tactics:
            return "Tactic cards only exist in the tactics variant"
        if place == "side" and card not in ELITE_TROOPS:
            mode = " (a combat mode goes in the stone's modes)" if card in COMBAT_MODE_CARDS else ""
            return (
                f"{card_name(card)} cannot lie on a side: only Clan cards and elite troops do{mode}"
            )
        if place == "discards" and card in COMBAT_MODE_CARDS:
            return f"{card_name(card)} stays on its stone; it is never discarded"
        return None

    def _jokers_played_problems(self) -> list[PositionError]:
        if not self.jokers_played:
            return []
        if not self.variant.has_tactics:
            return [VariantError("Jokers only exist in the tactics variant", part="jokers_played")]
        visible = sum(card in JOKERS for card in self.placed_cards() + self.discards)
        players = {p for p in Player if self.has_played_joker(p)}
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

    def has_played_joker(self, player: Player) -> bool:
        """Whether ``player`` has played a Joker: one lies on their side, or one they played left.

        Once a player has played a Joker, the other Joker stays in their hand for the rest of the
        game, so the claim proof never gives it to them.
        """
        return player in self.jokers_played or bool(self.jokers_on_border(player))

    @staticmethod
    def _sides_tie(stone: StoneState) -> bool:
        """Whether two complete sides are equally strong. A side holding a card that cannot lie
        there (a :class:`MisplacedCard`) has no strength: it ties with nothing."""
        judged = all(
            card < len(CARDS) or card in ELITE_TROOPS for side in stone.sides for card in side
        )
        return judged and strength(stone.sides[0], stone.modes) == strength(
            stone.sides[1], stone.modes
        )

    def __repr__(self) -> str:
        stones = ", ".join(
            f"{number}: {stone!r}"
            for number, stone in zip(STONES, self.stones, strict=True)
            if not stone.is_empty
        )
        extra = "".join(
            f", {name}={cards_repr(cards)}"
            for name, cards in (("discards", self.discards), ("hand", self.hand))
            if cards
        )
        viewer = f", viewer=Player.{self.viewer.name}" if self.viewer is not Player.A else ""
        if self.jokers_played:
            players = ", ".join(f"Player.{p.name}" for p in sorted(self.jokers_played))
            viewer += f", jokers_played=frozenset({{{players}}})"
        return f"Position.from_stones({{{stones}}}{extra}{viewer}, variant={self.variant.name!r})"

    def stone(self, number: int) -> StoneState:
        """Stone ``number`` (1 to 9)."""
        return self.stones[check_stone(number) - 1]

    def placed_cards(self) -> tuple[Card, ...]:
        """Every card lying at a stone, claimed or not."""
        return tuple(card for stone in self.stones for side in stone.sides for card in side)

    def on_table_mask(self) -> int:
        """The cards face up on the table: at any stone, or in the discards."""
        return self._table_mask

    def jokers_on_border(self, player: Player) -> int:
        """How many Jokers lie on ``player``'s side of the border (0 or 1)."""
        return sum(card in JOKERS for stone in self.stones for card in stone.sides[player])

    def out_of_sight_mask(self) -> int:
        """Every card not face up on the table: the deck(s), the opponent's hand and the viewer's.

        In the tactics variant that includes the Tactic cards nobody has played.
        """
        return self.variant.card_mask & ~self.on_table_mask()

    @classmethod
    def from_stones(
        cls,
        stones: Mapping[int, StoneState],
        *,
        discards: Iterable[Card] = (),
        hand: Iterable[Card] = (),
        viewer: Player = Player.A,
        variant: Variant | str = "base",
        jokers_played: Iterable[Player] = (),
    ) -> Position:
        """A position from the stones that hold anything, by number; the rest are empty.
        For example:

            >>> from engine import Position, StoneState, parse_cards
            >>> stone = StoneState(sides=(parse_cards("red 6, red 7"), parse_cards("blue 7")))
            >>> Position.from_stones({5: stone}, hand=parse_cards("blue 9")).stone(5) == stone
            True
        """
        for number in stones:
            check_stone(number)
        return cls(
            stones=tuple(stones.get(number, StoneState()) for number in STONES),
            discards=tuple(discards),
            hand=tuple(hand),
            viewer=viewer,
            variant=variant_named(variant) if isinstance(variant, str) else variant,
            jokers_played=frozenset(jokers_played),
        )
