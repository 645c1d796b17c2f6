"""A position as one player sees it: the nine stones, the face-up discards and their own hand.

This is the view the claim proof reasons over. It holds no deck and no opponent's hand: those are
out of sight, and so, for the proof, is the viewer's own hand. What it is made of (the stones and
players, a stone's state, the variants, the errors) is :mod:`engine.proof.pieces`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from engine.cards.card import (
    Card,
    cards_repr,
    mask_of,
)
from engine.cards.tactics import JOKERS
from engine.frozen import FrozenValue, set_field, slot_setters
from engine.proof.pieces import (
    EMPTY_BORDER,
    STONES,
    Player,
    PositionError,
    StoneState,
    check_stone,
    face_up_mask,
)
from engine.proof.position_checks import face_up_mask_when_valid, problems_and_cards
from engine.proof.variants import BASE_VARIANT, Variant, variant_named


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
        _SET_STONES(self, stones)  # each slot's own setter: about half the time of set_field
        _SET_DISCARDS(self, discards)
        _SET_HAND(self, hand)
        _SET_VIEWER(self, viewer)
        _SET_VARIANT(self, variant)
        _SET_JOKERS_PLAYED(self, jokers_played)
        face_up = face_up_mask_when_valid(self)  # the quick pass, all a valid position needs
        if face_up < 0:
            problems, seen = problems_and_cards(self)
            if problems:
                raise problems[0]
            # Every card is in one place, so the face-up ones are all but the hand.
            face_up = seen & ~mask_of(hand)
        _SET_TABLE_MASK(self, face_up)

    def status(self) -> list[PositionError]:
        """Every reason this position cannot exist, in the order the constructor checks them
        (it raises the first): empty for a valid one. A game state's view of itself, built
        without the checks, can be judged with it too."""
        return problems_and_cards(self)[0]

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

    def has_played_joker(self, player: Player) -> bool:
        """Whether ``player`` has played a Joker: one lies on their side, or one they played left.

        Once a player has played a Joker, the other Joker stays in their hand for the rest of the
        game, so the claim proof never gives it to them.
        """
        return player in self.jokers_played or bool(self.jokers_on_border(player))

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
            stones=tuple(stones.get(number, EMPTY_BORDER[0]) for number in STONES),
            discards=tuple(discards),
            hand=tuple(hand),
            viewer=viewer,
            variant=variant_named(variant) if isinstance(variant, str) else variant,
            jokers_played=frozenset(jokers_played),
        )


_SET_STONES, _SET_DISCARDS, _SET_HAND, _SET_VIEWER, _SET_VARIANT, _SET_JOKERS_PLAYED = slot_setters(
    Position, *Position._fields
)
(_SET_TABLE_MASK,) = slot_setters(Position, "_table_mask")
