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
from collections.abc import Sequence

from engine.cards.card import Card
from engine.cards.tactics import COMBAT_MODE_CARDS, ELITE_TROOPS, JOKERS, Tactic
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
    stones_with_room,
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
        if not ONE_JOKER.holds(state, state.current_player, card):
            return ()
        return plays_to(card, state.room(state.current_player))  # to stones_with_room

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
        room = stones_with_room(state, me, ROOM_FOR_THE_STRATEGIST)
        moves: list[Move] = []
        for number, stone in state.open_stones():
            for mine in stone.sides[me]:
                to = _ruses(Strategist, mine, number)
                moves += [
                    to[target - 1]
                    for target in room
                    if STRATEGIST_TO_ANOTHER_STONE.holds(number, target)
                ]
                moves.append(to[-1])
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
        other = OPPONENT[state.current_player]
        return [
            _banshee(theirs, number)
            for number, stone in state.open_stones()
            for theirs in stone.sides[other]
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
        room, other = stones_with_room(state, me, ROOM_FOR_THE_TRAITOR), OPPONENT[me]
        moves: list[Move] = []
        for number, stone in state.open_stones():
            for theirs in stone.sides[other]:
                if TRAITOR_TAKES_CLAN_CARDS.holds(theirs):
                    to = _ruses(Traitor, theirs, number)
                    moves += [to[target - 1] for target in room]
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
