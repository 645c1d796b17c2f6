"""Where every card of a game lies: the stones, the hands, the decks and the discards, the
cards face up, and the plain questions about them.

:class:`CardsInPlay` is the first half of a game's state, :class:`engine.game.play_state.PlayState`
the second (whose turn, which step, what is worked out from them). The steps of a game
(:mod:`engine.game.turn_flow`, :mod:`engine.game.tactic_cards`) move the cards with the methods
below; the private fields of both are read and written by these classes alone.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from engine.cards.card import Card
from engine.cards.formations import CombatMode
from engine.game.moves import Deck
from engine.game.stone_in_play import StoneInPlay
from engine.game.values import GameSettings
from engine.proof.pieces import STONES, Player, StoneState, face_up_mask
from engine.proof.position import Position
from engine.proof.variants import Variant

if TYPE_CHECKING:
    from typing import Self


class CardsInPlay:
    """Where every card of a game lies, and the plain questions about it."""

    __slots__ = (
        "_changed_at",
        "_changes",
        "_face_up",
        "_held",
        "_in_play",
        "_open",
        "_room",
        "clock",
        "decks",
        "discards",
        "game",
        "hands",
        "jokers_played",
        "stones",
        "tactics_played",
        "variant",
    )

    def __init__(
        self,
        game: GameSettings,
        hands: tuple[list[Card], list[Card]],
        decks: dict[Deck, list[Card]],
    ) -> None:
        self.game = game
        self.variant: Variant = game.variant
        self.stones = [StoneInPlay() for _ in STONES]
        self.hands = hands
        self.decks = decks
        self.discards: list[Card] = []
        self.tactics_played = [0, 0]
        self.jokers_played: set[Player] = set()
        self.clock = 0
        self._face_up = 0
        self._in_play = game.variant.card_mask
        self._room = [_ALL_STONES, _ALL_STONES]
        self._open, self._held = _ALL_STONES, [0, 0]
        self._changed_at, self._changes = [0] * len(STONES), 0

    @property
    def face_up(self) -> int:
        """The cards face up (a mask): on the sides, the combat modes on their stones, the
        discards; the game's others (``_in_play``) are out of sight. Kept by each step: a card
        once face up stays so (a side's card leaves it only for another side or the discards),
        so each card laid, each combat mode played and each card discarded adds its bit, and
        nothing takes one away. An invariant checks it against the table."""
        return self._face_up

    def room(self, player: Player) -> int:
        """The open stones where ``player``'s side has room for a card, a mask (stone ``n`` is
        bit ``n - 1``). Kept by each step that lays, takes, claims or refits a stone; an
        invariant checks it against the table."""
        return self._room[player]

    def complete(self, player: Player) -> int:
        """The open stones where ``player``'s side is complete, a mask as :meth:`room`'s: an
        open side has room or is complete (a side never holds more than its stone needs)."""
        return self._room[player] ^ self.open_mask()

    def open_mask(self) -> int:
        """The stones nobody holds yet, a mask as :meth:`room`'s. Kept by each claim; an
        invariant checks it against the table."""
        return self._open

    def held_mask(self, player: Player) -> int:
        """The stones ``player`` has claimed (or been awarded), a mask as :meth:`room`'s. Kept
        by each claim; an invariant checks it against the table."""
        return self._held[player]

    def stones_held(self, player: Player) -> tuple[int, ...]:
        """The stones ``player`` has claimed (or been awarded)."""
        return STONES_IN_MASK[self._held[player]]

    def open_stones(self) -> list[tuple[int, StoneInPlay]]:
        """The stones nobody holds yet, by number."""
        stones = self.stones
        return [(n, stones[n - 1]) for n in STONES_IN_MASK[self._open]]

    def side(self, number: int, player: Player) -> Sequence[Card]:
        """``player``'s side of stone ``number``, or nothing when there is no such stone."""
        return self.stones[number - 1].sides[player] if number in STONES else ()

    def drawable(self) -> list[Deck]:
        """The decks that still hold a card."""
        return [deck for deck, cards in self.decks.items() if cards]

    def position(self, player: Player) -> Position:
        """The table and ``player``'s hand as a :class:`Position`, the claim proof's input."""
        stones = tuple(
            StoneState._without_checks(
                (tuple(stone.sides[0]), tuple(stone.sides[1])),
                stone.completed_first,
                frozenset(stone.modes),
                stone.claimed_by,
            )
            for stone in self.stones
        )
        # The state keeps every card in one place (check_invariants); a test checks this
        # position equals one built with every check.
        return Position._without_checks(
            stones,
            tuple(self.discards),
            tuple(self.hands[player]),
            player,
            self.variant,
            frozenset(self.jokers_played),
        )

    def count_face_up(self) -> None:
        """Count the cards face up and the sides with room again from the table (a state set
        up or changed by hand)."""
        self._face_up = face_up_mask(self.stones, self.discards)
        owners = [stone.claimed_by for stone in self.stones]
        self._open, *self._held = (
            sum(1 << index for index, owner in enumerate(owners) if owner is player)
            for player in (None, *Player)
        )
        for number in STONES:
            self._count_room(number)
            self._stone_changed(number)

    def _stone_changed(self, number: int) -> None:
        """Mark stone ``number`` changed (``_changed_at``, by stone, its last change by a count of
        them: while a mark stays, so do the stone's sides, modes, owner and who completed first;
        a mark to compare, not a fact of the game). :meth:`add` marks inline."""
        self._changes += 1
        self._changed_at[number - 1] = self._changes

    def _count_room(self, number: int) -> None:
        """Count the room on both sides of stone ``number`` again from the table."""
        stone, bit = self.stones[number - 1], 1 << (number - 1)
        for player in (0, 1):
            if stone.claimed_by is None and len(stone.sides[player]) < stone.capacity:
                self._room[player] |= bit
            else:
                self._room[player] &= ~bit

    def clone(self) -> Self:
        """An independent copy: every field, whatever its name, copied all the way down
        (lists, tuples, dicts and sets anew, a stone by its own copy), values shared. The
        fields a game holds are copied each by the copy its kind needs (:data:`_COPY`), any
        other by :func:`_copied`, which looks at what it holds."""
        other = object.__new__(type(self))
        for name, copy in _copiers(type(self)):
            value = getattr(self, name)
            setattr(other, name, value if copy is None else copy(value))
        return other

    # ------------------------------------------------------------------ the steps' changes

    def add(self, number: int, player: Player, card: Card) -> None:
        """Lay ``card`` on ``player``'s side of stone ``number``, keeping the game's clock."""
        stone = self.stones[number - 1]
        stone.sides[player].append(card)
        self._face_up |= 1 << card
        self.clock += 1
        self._changes += 1
        self._changed_at[number - 1] = self._changes
        if len(stone.sides[player]) == stone.capacity:
            stone.completed_at[player] = self.clock
            self._room[player] &= ~(1 << (number - 1))

    def remove(self, number: int, player: Player, card: Card) -> None:
        """Take ``card`` off ``player``'s side of stone ``number``: the side is incomplete."""
        stone = self.stones[number - 1]
        stone.sides[player].remove(card)
        stone.completed_at[player] = None
        self._count_room(number)
        self._stone_changed(number)

    def claim(self, number: int, player: Player) -> None:
        """``player`` takes stone ``number`` (by a claim, or the stalemate award)."""
        self.stones[number - 1].claimed_by = player
        bit = 1 << (number - 1)
        self._open &= ~bit
        self._held[player] |= bit
        self._count_room(number)
        self._stone_changed(number)

    def add_mode(self, number: int, mode: CombatMode) -> None:
        """Lay combat mode ``mode`` on stone ``number``: Mud Fight asks four cards a side, so a
        side of three is incomplete again."""
        stone = self.stones[number - 1]
        stone.modes.add(mode)
        stone.refit()
        self._count_room(number)
        self._stone_changed(number)

    def show(self, card: Card) -> None:
        """Count ``card`` face up from now on: a combat mode laid on its stone."""
        self._face_up |= 1 << card

    def discard(self, card: Card) -> None:
        """Put ``card`` on the discards, face up."""
        self.discards.append(card)
        self._face_up |= 1 << card


_ALL_STONES = (1 << len(STONES)) - 1

STONES_IN_MASK = tuple(
    tuple(number for number in STONES if mask >> (number - 1) & 1) for mask in range(1 << 9)
)
"""For each mask of stones (stone ``n`` is bit ``n - 1``), their numbers in order."""


_SHARED = (
    "game", "variant", "clock", "_face_up", "_in_play", "_open", "_changes", "current_player",
    "outcome", "phase", "turn", "_recruits_left", "_returns_left", "_idle_turns",
    "_played_this_turn", "_could_claim_this_turn", "_dealt", "_version", "_derived_at",
)  # fmt: skip
"""The fields of a game's state a clone shares: each holds a value that never changes."""


def _copy_list(value: list[Any]) -> list[Any]:
    return value[:]


_COPY: dict[str, Callable[[Any], Any] | None] = {
    "stones": lambda stones: [stone.copy() for stone in stones],
    "hands": lambda hands: (hands[0][:], hands[1][:]),
    "decks": lambda decks: {deck: cards[:] for deck, cards in decks.items()},
    "jokers_played": set,
    "_derived": dict,
    "_refuted": dict,
    **dict.fromkeys(
        ("discards", "tactics_played", "events", "moves", "_room", "_held", "_changed_at"),
        _copy_list,
    ),
    **dict.fromkeys(_SHARED),
}
"""How a clone copies each field of a game's state whose kind is known: a list of values by a
slice, the stones each by its copy, the hands, decks and memos anew; None shares a value (an
int, a flag, an enum, the settings). A field not named here is copied by :func:`_copied`."""


def _copiers(kind: type) -> tuple[tuple[str, Callable[[Any], Any] | None], ...]:
    """Each field of a state of class ``kind`` and how a clone copies it (None: shared)."""
    copiers = _COPIERS.get(kind)
    if copiers is None:
        copiers = _COPIERS[kind] = tuple(
            (name, _COPY.get(name, _copied))
            for cls in kind.__mro__
            for name in vars(cls).get("__slots__", ())
        )
    return copiers


_COPIERS: dict[type, tuple[tuple[str, Callable[[Any], Any] | None], ...]] = {}


def _copied(value: Any) -> Any:
    """``value`` copied all the way down: a list, dict or set anew (a tuple too, when what it
    holds is mutable), a value with a ``copy`` of its own (a stone) by it, any other value (a
    card, a move, an event, the settings) shared, being immutable. The containers of a state
    hold one kind of item each, so the first item tells whether the items need copying."""
    kind = type(value)
    if kind is list:
        return list(map(_copied, value)) if value and _mutable(value[0]) else list(value)
    if kind is tuple:
        return tuple(map(_copied, value)) if value and _mutable(value[0]) else value
    if kind is dict:
        if value and _mutable(next(iter(value.values()))):
            return {key: _copied(item) for key, item in value.items()}
        return dict(value)
    if kind is set:
        return set(value)
    copy = getattr(value, "copy", None)
    return value if copy is None else copy()


def _mutable(item: object) -> bool:
    """Whether a copy of a state must copy ``item`` rather than share it."""
    kind = type(item)
    if kind is tuple:
        return bool(item) and _mutable(item[0])  # type: ignore[index]
    return kind in (list, dict, set) or hasattr(kind, "copy")


__all__ = ["STONES_IN_MASK", "CardsInPlay"]
