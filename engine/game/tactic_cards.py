"""The Tactic cards: for each kind, the moves it allows, why another is refused, what it does.

Each kind of Tactic card is one small object, so its rules sit side by side:
:meth:`~TacticKind.uses` lists the moves it allows now (part of the legal moves,
:mod:`engine.game.legality`), :meth:`~TacticKind.check` says why a move of its kind is refused,
:meth:`~TacticKind.check_some_use` why a card of the kind allows no move at all now (the Play
page shows it on the card), and :meth:`~TacticKind.carry_out` plays it. The listing and the
checks go through the same :mod:`engine.game.move_rules`, so they cannot disagree. What every Tactic
card shares (the play step, the card in hand, the tactic limit, counting it played) stays with
the legal moves and the turn flow.
"""

from __future__ import annotations

import abc
from collections.abc import Callable, Sequence

from engine.cards.card import Card
from engine.cards.tactics import COMBAT_MODE_CARDS, ELITE_TROOPS, JOKERS, Tactic
from engine.game.cards_in_play import STONES_IN_MASK
from engine.game.move_rules import (
    BANSHEE_HAS_A_CARD,
    BANSHEE_TAKES_THEIRS,
    BLUFF_ON_OPEN,
    MUD_FIGHT_ON_OPEN,
    NOT_A_COMBAT_MODE,
    ONE_JOKER,
    ROOM_FOR_A_CARD,
    ROOM_FOR_THE_STRATEGIST,
    ROOM_FOR_THE_TRAITOR,
    RUSE_TARGETS_OPEN,
    SOME_STONE_HAS_ROOM,
    STRATEGIST_HAS_A_CARD,
    STRATEGIST_MOVES_YOURS,
    STRATEGIST_TO_ANOTHER_STONE,
    TRAITOR_HAS_A_CARD,
    TRAITOR_HAS_ROOM,
    TRAITOR_TAKES_CLAN_CARDS,
    TRAITOR_TAKES_THEIRS,
    check_open,
    check_room,
    plays_to,
)
from engine.game.moves import Banshee, Move, Play, Recruit, Strategist, Traitor
from engine.game.play_state import OPPONENT, PlayState
from engine.proof.pieces import MODE_CARDS, STONES

MODE_OF_CARD = {card: mode for mode, card in MODE_CARDS.items()}


class TacticKind(abc.ABC):
    """One kind of Tactic card: the cards of that kind and its three hooks."""

    cards: frozenset[Card] = frozenset()

    @abc.abstractmethod
    def uses(self, state: PlayState, card: Card) -> Sequence[Move]:
        """Every move playing ``card`` (in the current player's hand, within the limit) allows."""

    @abc.abstractmethod
    def check(self, state: PlayState, move: Move) -> None:
        """Raise :class:`~engine.game.moves.IllegalMove` saying why ``move`` is refused, if so."""

    @abc.abstractmethod
    def carry_out(self, state: PlayState, move: Move) -> None:
        """Play ``move`` once the card has left the hand and been counted."""

    def check_some_use(self, state: PlayState, card: Card, name: str) -> None:
        """Raise :class:`~engine.game.moves.IllegalMove` (for ``name``) when :meth:`uses` allows no
        move of ``card`` now, in the words of the rule that leaves it none. A test checks the
        two agree. Most kinds always have a use while the game goes on."""
        return


class EliteTroops(TacticKind):
    """The Joker, the Spy and the Shield-Bearer: played onto your side like a Clan card; once a
    player has played a Joker, the other stays in their hand."""

    cards = frozenset(ELITE_TROOPS)

    def uses(self, state: PlayState, card: Card) -> Sequence[Move]:
        me = state.current_player
        if card in JOKERS and not ONE_JOKER.holds(state, me, card):
            return ()  # (the rule holds for any other elite troop)
        return plays_to(card, state.room(me))  # to stones_with_room

    def check(self, state: PlayState, move: Move) -> None:
        assert isinstance(move, Play)
        ONE_JOKER.check(move, state, state.current_player, move.card)
        check_room(state, move, move.stone, ROOM_FOR_A_CARD)

    def check_some_use(self, state: PlayState, card: Card, name: str) -> None:
        ONE_JOKER.check(name, state, state.current_player, card)
        SOME_STONE_HAS_ROOM.check(name, state, state.current_player)

    def carry_out(self, state: PlayState, move: Move) -> None:
        assert isinstance(move, Play)
        if move.card in JOKERS:
            state.jokers_played.add(state.current_player)
        state.add(move.stone, state.current_player, move.card)


class CombatModes(TacticKind):
    """Mud Fight and Blind-Man's Bluff: laid on an open stone, they change how it is fought."""

    cards = frozenset(COMBAT_MODE_CARDS)

    def uses(self, state: PlayState, card: Card) -> Sequence[Move]:
        return plays_to(card, state.open_mask())

    def check(self, state: PlayState, move: Move) -> None:
        assert isinstance(move, Play)
        rule = BLUFF_ON_OPEN if move.card == Tactic.BLIND_MANS_BLUFF else MUD_FIGHT_ON_OPEN
        check_open(state, move, move.stone, rule)

    def carry_out(self, state: PlayState, move: Move) -> None:
        assert isinstance(move, Play)
        state.add_mode(move.stone, MODE_OF_CARD[Tactic(move.card)])
        state.show(move.card)


class Recruiter(TacticKind):
    """Draw up to three cards from the decks, then put two from your hand under their decks."""

    cards = frozenset({Tactic.RECRUITER})

    def uses(self, state: PlayState, card: Card) -> Sequence[Move]:
        return _RECRUIT

    def check(self, state: PlayState, move: Move) -> None:
        return  # nothing beyond what every Tactic card must keep

    def carry_out(self, state: PlayState, move: Move) -> None:
        state.discard(Tactic.RECRUITER)
        state.start_recruiting()


class StrategistCard(TacticKind):
    """Move one of your own cards from an open stone to another with room, or to the discards."""

    cards = frozenset({Tactic.STRATEGIST})

    def uses(self, state: PlayState, card: Card) -> Sequence[Move]:
        me = state.current_player
        room, stones = state.room(me), state.stones  # stones_with_room's, as a mask
        moves: list[Move] = []
        for number in STONES_IN_MASK[state.open_mask()]:
            targets = room & _OTHER_STONES[number]
            for mine in stones[number - 1].sides[me]:
                moves += _ruses_to(Strategist, mine, number, targets)
                moves.append(_ruses(Strategist, mine, number)[-1])
        return moves

    def check(self, state: PlayState, move: Move) -> None:
        assert isinstance(move, Strategist)
        check_open(state, move, move.source, RUSE_TARGETS_OPEN)
        NOT_A_COMBAT_MODE.check(move, move.card)
        STRATEGIST_MOVES_YOURS.check(
            move, state, move.source, state.current_player, move.card, "your"
        )
        if move.to is not None:
            STRATEGIST_TO_ANOTHER_STONE.check(move, move.source, move.to)
            check_room(state, move, move.to, ROOM_FOR_THE_STRATEGIST)

    def check_some_use(self, state: PlayState, card: Card, name: str) -> None:
        STRATEGIST_HAS_A_CARD.check(name, state, state.current_player, False)

    def carry_out(self, state: PlayState, move: Move) -> None:
        assert isinstance(move, Strategist)
        me = state.current_player
        state.remove(move.source, me, move.card)
        if move.to is None:
            state.discard(move.card)
        else:
            state.add(move.to, me, move.card)
        state.discard(Tactic.STRATEGIST)


class BansheeCard(TacticKind):
    """Discard a card from your opponent's side of an open stone."""

    cards = frozenset({Tactic.BANSHEE})

    def uses(self, state: PlayState, card: Card) -> Sequence[Move]:
        other, stones = OPPONENT[state.current_player], state.stones
        return [
            _banshee(theirs, number)
            for number in STONES_IN_MASK[state.open_mask()]
            for theirs in stones[number - 1].sides[other]
        ]

    def check(self, state: PlayState, move: Move) -> None:
        assert isinstance(move, Banshee)
        check_open(state, move, move.stone, RUSE_TARGETS_OPEN)
        NOT_A_COMBAT_MODE.check(move, move.card)
        BANSHEE_TAKES_THEIRS.check(
            move, state, move.stone, OPPONENT[state.current_player], move.card, "their"
        )

    def check_some_use(self, state: PlayState, card: Card, name: str) -> None:
        BANSHEE_HAS_A_CARD.check(name, state, OPPONENT[state.current_player], False)

    def carry_out(self, state: PlayState, move: Move) -> None:
        assert isinstance(move, Banshee)
        state.remove(move.stone, OPPONENT[state.current_player], move.card)
        state.discard(move.card)
        state.discard(Tactic.BANSHEE)


class TraitorCard(TacticKind):
    """Take a Clan card from your opponent's side of an open stone onto your side of a stone."""

    cards = frozenset({Tactic.TRAITOR})

    def uses(self, state: PlayState, card: Card) -> Sequence[Move]:
        me = state.current_player
        room, other, stones = state.room(me), OPPONENT[me], state.stones  # stones_with_room's
        moves: list[Move] = []
        for number in STONES_IN_MASK[state.open_mask()]:
            for theirs in stones[number - 1].sides[other]:
                if TRAITOR_TAKES_CLAN_CARDS.holds(theirs):
                    moves += _ruses_to(Traitor, theirs, number, room)
        return moves

    def check(self, state: PlayState, move: Move) -> None:
        assert isinstance(move, Traitor)
        check_open(state, move, move.source, RUSE_TARGETS_OPEN)
        NOT_A_COMBAT_MODE.check(move, move.card)
        TRAITOR_TAKES_THEIRS.check(
            move, state, move.source, OPPONENT[state.current_player], move.card, "their"
        )
        TRAITOR_TAKES_CLAN_CARDS.check(move, move.card)
        check_room(state, move, move.to, ROOM_FOR_THE_TRAITOR)

    def check_some_use(self, state: PlayState, card: Card, name: str) -> None:
        TRAITOR_HAS_A_CARD.check(name, state, OPPONENT[state.current_player], True)
        TRAITOR_HAS_ROOM.check(name, state, state.current_player)

    def carry_out(self, state: PlayState, move: Move) -> None:
        assert isinstance(move, Traitor)
        me = state.current_player
        state.remove(move.source, OPPONENT[me], move.card)
        state.add(move.to, me, move.card)
        state.discard(Tactic.TRAITOR)


_RECRUIT = (Recruit(),)
"""The Recruiter's one move."""

_RUSES: dict[tuple[type, Card, int], tuple[Strategist | Traitor, ...]] = {}


def _ruses(
    kind: type[Strategist] | type[Traitor], card: Card, source: int
) -> tuple[Strategist | Traitor, ...]:
    """The ruses of ``kind`` taking ``card`` from stone ``source``, by the stone it goes to
    (stone ``n`` at ``n - 1``; the Strategist's to the discards last), each made once: every
    play step lists them again. A card that is not a plain number (a :class:`Tactic` member,
    say) gets its own moves, made anew, so that a move holds the very card it was listed with."""
    plain = type(card) is int
    ruses = _RUSES.get((kind, card, source)) if plain else None
    if ruses is None:
        ruses = tuple(kind(card, source, to) for to in STONES)
        if kind is Strategist:
            ruses += (Strategist(card, source, None),)
        if plain:
            _RUSES[kind, card, source] = ruses
    return ruses


_RUSES_TO: dict[tuple[type, Card, int, int], tuple[Strategist | Traitor, ...]] = {}


def _ruses_to(
    kind: type[Strategist] | type[Traitor], card: Card, source: int, targets: int
) -> tuple[Strategist | Traitor, ...]:
    """The ruses of ``kind`` taking ``card`` from stone ``source`` to each stone of the mask
    ``targets`` (stone ``n`` is bit ``n - 1``), in order: :func:`_ruses`' own moves, the same
    tuple each time for a plain card number (each play step lists them again)."""
    plain = type(card) is int
    block = _RUSES_TO.get((kind, card, source, targets)) if plain else None
    if block is None:
        to = _ruses(kind, card, source)
        block = tuple(to[target - 1] for target in STONES_IN_MASK[targets])
        if plain:
            _RUSES_TO[kind, card, source, targets] = block
    return block


_OTHER_STONES = tuple(
    sum(1 << (target - 1) for target in STONES if STRATEGIST_TO_ANOTHER_STONE.holds(source, target))
    for source in range(len(STONES) + 1)
)
"""For each stone (by number; 0 holds nothing), the mask of the stones the Strategist may move
a card to from it by :data:`~engine.game.move_rules.STRATEGIST_TO_ANOTHER_STONE`, worked out once
from the rule."""

_BANSHEES: dict[tuple[Card, int], Banshee] = {}


def _banshee(card: Card, number: int) -> Banshee:
    """The Banshee discarding ``card`` from stone ``number``, made once (as :func:`_ruses`)."""
    plain = type(card) is int
    move = _BANSHEES.get((card, number)) if plain else None
    if move is None:
        move = Banshee(card, number)
        if plain:
            _BANSHEES[card, number] = move
    return move


KINDS: tuple[TacticKind, ...] = (
    EliteTroops(),
    CombatModes(),
    Recruiter(),
    StrategistCard(),
    BansheeCard(),
    TraitorCard(),
)
"""Every kind of Tactic card."""

KIND_OF_CARD: dict[Card, TacticKind] = {card: kind for kind in KINDS for card in kind.cards}
"""The kind of each Tactic card, by its number."""


def _no_uses(state: PlayState, card: Card) -> Sequence[Move]:
    """A Clan card's uses as a Tactic card: none (its plays are the Clan plays)."""
    return ()


USES_OF_CARD: tuple[Callable[[PlayState, Card], Sequence[Move]], ...] = tuple(
    KIND_OF_CARD[card].uses if card in KIND_OF_CARD else _no_uses for card in range(64)
)
"""Each card's kind's :meth:`TacticKind.uses`, bound once, by card number (for the listing of
the legal moves, which asks it for each Tactic card in hand; none for a Clan card)."""
