"""What a position is made of: the stones and the players, a stone's state, and the errors a
position that cannot happen raises (the variants are :mod:`engine.proof.variants`).

:class:`~engine.proof.position.Position` puts these together into the border as one player
sees it; everything here is also named by that module.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from collections.abc import Set as AbstractSet
from enum import IntEnum

from engine.cards.card import Card, card_name, cards_repr, mask_of
from engine.cards.formations import CombatMode, side_capacity
from engine.cards.tactics import Tactic
from engine.frozen import FrozenValue, set_field, slot_setters

MODE_CARDS = {
    CombatMode.MUD_FIGHT: Tactic.MUD_FIGHT,
    CombatMode.BLIND_MANS_BLUFF: Tactic.BLIND_MANS_BLUFF,
}

STONES = range(1, 10)
"""The stones, numbered 1 to 9 from left to right."""


class Player(IntEnum):
    """The two players. In a position, ``A`` is usually the viewer, the one who claims.
    For example:

        >>> from engine import Player
        >>> Player.A, Player.A.other
        (<Player.A: 0>, <Player.B: 1>)
    """

    A = 0
    B = 1

    @property
    def other(self) -> Player:
        """The opponent."""
        return Player.B if self is Player.A else Player.A


def who(player: Player, viewer: Player) -> str:
    """``you`` or ``they``: a player as the engine names them to ``viewer``."""
    return "you" if player is viewer else "they"


def whose(player: Player, viewer: Player) -> str:
    """``your`` or ``their``: a player's side or hand as the engine names it to ``viewer``."""
    return "your" if player is viewer else "their"


class PositionError(ValueError):
    """A position that cannot happen. Subclasses say which rule it breaks.

    ``stone`` and ``part`` say where, in the position's own terms, so that whoever wrote the
    position (a case file, a test) can point at it in theirs: ``part`` names an attribute of
    :class:`Position` (``"hand"``, ``"discards"``, ``"variant"``, ``"jokers_played"``) or, with a
    stone, of :class:`StoneState` (``"modes"``, ``"completed_first"``, ``"claimed_by"``,
    ``"sides"``, where :class:`SideOverCapacity` also names the player), or ``"card"`` for an
    error about one card, which it names.

        >>> from engine import Player, Position, PositionError, StoneState
        >>> try: Position.from_stones({3: StoneState(completed_first=Player.A)})
        ... except PositionError as error: print(type(error).__name__, error.stone, error.part)
        MisplacedCompletionOrder 3 completed_first
    """

    def __init__(self, message: str, *, stone: int | None = None, part: str | None = None) -> None:
        super().__init__(message)
        self.stone = stone
        self.part = part


class DuplicateCard(PositionError):
    """The same card in two places (or twice in one).
    For example:

        >>> from engine import DuplicateCard, Position, StoneState, parse_cards
        >>> try: Position.from_stones({1: StoneState(sides=(parse_cards("red 7"),) * 2)})
        ... except DuplicateCard as error: print(error)
        red 7 appears twice
    """

    def __init__(self, card: Card) -> None:
        super().__init__(f"{card_name(card)} appears twice", part="card")
        self.card = card


class SideOverCapacity(PositionError):
    """More cards on a side of a stone than the stone allows.
    For example:

        >>> from engine import Position, SideOverCapacity, StoneState, parse_cards
        >>> four = parse_cards("red 1, red 2, red 3, red 4")
        >>> try: Position.from_stones({1: StoneState(sides=((), four))})
        ... except SideOverCapacity as error: print(repr(error.player), error)
        <Player.B: 1> stone 1: 4 cards on their side, but a side holds 3 here
    """

    def __init__(
        self, stone: int, player: Player, count: int, capacity: int, viewer: Player = Player.A
    ) -> None:
        super().__init__(
            f"stone {stone}: {count} cards on {whose(player, viewer)} side,"
            f" but a side holds {capacity} here",
            stone=stone,
            part="sides",
        )
        self.player, self.count, self.capacity = player, count, capacity


class MissingCompletionOrder(PositionError):
    """Two complete sides tie, and nobody said which was completed first.
    For example:

        >>> from engine import MissingCompletionOrder, Position, StoneState, parse_cards
        >>> sides = (parse_cards("red 1, red 2, red 3"), parse_cards("blue 1, blue 2, blue 3"))
        >>> try: Position.from_stones({1: StoneState(sides=sides)})
        ... except MissingCompletionOrder as error: print(error)
        stone 1: both sides are complete and tie, so it must say who completed first
    """

    def __init__(self, stone: int) -> None:
        super().__init__(
            f"stone {stone}: both sides are complete and tie, so it must say who completed first",
            stone=stone,
        )


class MisplacedCompletionOrder(PositionError):
    """A completion order given for a stone where a side is still incomplete.
    For example:

        >>> from engine import MisplacedCompletionOrder, Player, Position, StoneState
        >>> try: Position.from_stones({1: StoneState(completed_first=Player.A)})
        ... except MisplacedCompletionOrder as error: print(error)
        stone 1: who completed first only applies when both sides are complete
    """

    def __init__(self, stone: int) -> None:
        super().__init__(
            f"stone {stone}: who completed first only applies when both sides are complete",
            stone=stone,
            part="completed_first",
        )


class VariantError(PositionError):
    """Something the chosen variant does not have, such as a combat mode in the base game.
    For example:

        >>> from engine import VariantError, variant_named
        >>> try: variant_named("chess")
        ... except VariantError as error: print(error)
        unknown variant 'chess'; the variants are base, tactics
    """


class MisplacedCard(PositionError):
    """A Tactic card where it cannot be: in the base game, on a side it cannot lie on, and so on.
    For example:

        >>> from engine import MisplacedCard, Position, parse_cards
        >>> try: Position.from_stones({}, hand=parse_cards("spy"))
        ... except MisplacedCard as error: print(error)
        spy: Tactic cards only exist in the tactics variant
    """

    def __init__(self, card: Card, problem: str) -> None:
        super().__init__(f"{card_name(card)}: {problem}", part="card")
        self.card = card


class HandTooLarge(PositionError):
    """A hand larger than the variant's hand size.
    For example:

        >>> from engine import HandTooLarge, Position, parse_cards
        >>> seven = parse_cards("red 1, red 2, red 3, red 4, red 5, red 6, red 7")
        >>> try: Position.from_stones({}, hand=seven)
        ... except HandTooLarge as error: print(error.part, error)
        hand a hand of 7 cards, but a hand in the base game holds at most 6
    """


class StoneNumberError(PositionError):
    """A stone number outside 1 to 9.
    For example:

        >>> from engine import Position, StoneNumberError, StoneState
        >>> try: Position.from_stones({10: StoneState()})
        ... except StoneNumberError as error: print(error)
        no stone 10: stones are numbered 1 to 9
    """

    def __init__(self, stone: object) -> None:
        super().__init__(f"no stone {stone!r}: stones are numbered 1 to 9")


def check_stone(stone: int) -> int:
    """``stone`` if it is a stone number, else :class:`StoneNumberError`."""
    if not isinstance(stone, int) or stone not in STONES:
        raise StoneNumberError(stone)
    return stone


TYPE_CHECKING = False  # typing is not imported at run time: it would double import engine's time
if TYPE_CHECKING:
    from typing import Protocol

    class _Stone(Protocol):
        @property
        def sides(self) -> tuple[Sequence[Card], Sequence[Card]]: ...
        @property
        def modes(self) -> AbstractSet[CombatMode]: ...


def face_up_mask(stones: Iterable[_Stone], discards: Iterable[Card]) -> int:
    """The cards face up on the table (a mask): on the stones' sides, their combat modes, and the
    discards. Everything else is out of sight."""
    table = mask_of(discards)
    for stone in stones:
        table |= mask_of(stone.sides[0]) | mask_of(stone.sides[1])
        for mode in stone.modes:
            table |= 1 << MODE_CARDS[mode]
    return table


_NO_ONE_OR_A_PLAYER = (type(None), Player)
"""The types of what a stone's owner and first finisher may be (a player is no plain 0 or 1)."""
_NO_MODES: frozenset[CombatMode] = frozenset()


class StoneState(FrozenValue):
    """One stone: both sides in order of play, who completed first, combat modes, the owner.
    For example:

        >>> from engine import Player, StoneState, parse_cards
        >>> StoneState(sides=(parse_cards("red 7, red 8, red 9"), ())).is_complete(Player.A)
        True
    """

    _fields = ("sides", "completed_first", "modes", "claimed_by")
    __slots__ = _fields
    sides: tuple[tuple[Card, ...], tuple[Card, ...]]
    completed_first: Player | None
    modes: frozenset[CombatMode]
    claimed_by: Player | None

    def __init__(
        self,
        sides: tuple[tuple[Card, ...], tuple[Card, ...]] = ((), ()),
        completed_first: Player | None = None,
        modes: frozenset[CombatMode] = _NO_MODES,
        claimed_by: Player | None = None,
    ) -> None:
        _SET_SIDES(self, sides)  # each slot's own setter: about half the time of set_field
        _SET_COMPLETED_FIRST(self, completed_first)
        _SET_MODES(self, modes)
        _SET_CLAIMED_BY(self, claimed_by)
        if type(completed_first) not in _NO_ONE_OR_A_PLAYER or (
            type(claimed_by) not in _NO_ONE_OR_A_PLAYER
        ):
            for name, value in (("completed_first", completed_first), ("claimed_by", claimed_by)):
                if value is not None and not isinstance(value, Player):
                    raise PositionError(
                        f"{name} must be Player.A, Player.B or None, not {value!r}", part=name
                    )
        if modes is not _NO_MODES and not all(isinstance(mode, CombatMode) for mode in modes):
            raise PositionError(f"modes must be CombatMode values, not {set(modes)!r}")

    @classmethod
    def _without_checks(
        cls,
        sides: tuple[tuple[Card, ...], tuple[Card, ...]],
        completed_first: Player | None,
        modes: frozenset[CombatMode],
        claimed_by: Player | None,
    ) -> StoneState:
        """A stone whose maker already keeps it valid, built without the constructor's checks."""
        stone = object.__new__(cls)
        set_field(stone, "sides", sides)
        set_field(stone, "completed_first", completed_first)
        set_field(stone, "modes", modes)
        set_field(stone, "claimed_by", claimed_by)
        return stone

    @property
    def capacity(self) -> int:
        """Cards needed for a complete side: 3, or 4 under Mud Fight."""
        return side_capacity(self.modes)

    def __repr__(self) -> str:
        fields = [f"sides=({cards_repr(self.sides[0])}, {cards_repr(self.sides[1])})"]
        if self.completed_first is not None:
            fields.append(f"completed_first=Player.{self.completed_first.name}")
        if self.modes:
            modes = ", ".join(f"CombatMode.{mode.name}" for mode in sorted(self.modes, key=str))
            fields.append(f"modes=frozenset({{{modes}}})")
        if self.claimed_by is not None:
            fields.append(f"claimed_by=Player.{self.claimed_by.name}")
        return f"StoneState({', '.join(fields)})"

    @property
    def is_empty(self) -> bool:
        """Whether the stone holds no card, no combat mode and no owner."""
        return self == StoneState()

    def side(self, player: Player) -> tuple[Card, ...]:
        """The cards on ``player``'s side, in order of play."""
        return self.sides[player]

    def is_complete(self, player: Player) -> bool:
        """Whether ``player``'s side has all the cards the stone asks for."""
        return len(self.sides[player]) == self.capacity


_SET_SIDES, _SET_COMPLETED_FIRST, _SET_MODES, _SET_CLAIMED_BY = slot_setters(
    StoneState, *StoneState._fields
)
EMPTY_BORDER = (StoneState(),) * len(STONES)
"""Nine empty stones: the border before anyone plays."""
