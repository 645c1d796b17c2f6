"""The Tactic cards: for each kind, the moves it allows, why another is refused, what it does.

Each kind of Tactic card is one small object, so its rules sit side by side:
:meth:`~TacticKind.uses` lists the moves it allows now (part of
:meth:`engine.game.GameState.legal_moves`, the one definition of what is legal),
:meth:`~TacticKind.check` says why a move of its kind is refused (it only explains; a test checks
it agrees with the list), and :meth:`~TacticKind.carry_out` plays it.
What every Tactic card shares (the play step, the card in hand, the tactic limit, counting it
played) stays in the turn flow of :mod:`engine.game`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from engine.cards import CARDS, Card, card_name
from engine.formations import side_capacity
from engine.moves import PLAYS, Banshee, IllegalMove, Move, Play, Recruit, Strategist, Traitor
from engine.position import MODE_CARDS, Player
from engine.tactics import COMBAT_MODE_CARDS, ELITE_TROOPS, JOKERS, Tactic

if TYPE_CHECKING:
    from engine.game import GameState

MODE_OF_CARD = {card: mode for mode, card in MODE_CARDS.items()}


class TacticKind:
    """One kind of Tactic card. Subclasses override the three hooks."""

    cards: frozenset[Card] = frozenset()

    def uses(self, state: GameState, card: Card) -> Iterator[Move]:
        """Every move playing ``card`` (in the current player's hand, within the limit) allows."""
        raise NotImplementedError

    def check(self, state: GameState, move: Move) -> None:
        """Raise :class:`IllegalMove` saying why ``move`` is refused, if it is."""
        raise NotImplementedError

    def carry_out(self, state: GameState, move: Move) -> None:
        """Play ``move`` once the card has left the hand and been counted."""
        raise NotImplementedError


def _not_a_combat_mode(move: Move, card: Card) -> None:
    """A combat mode lies on the stone, not on a side: no ruse can move or remove it."""
    if card in COMBAT_MODE_CARDS:
        raise IllegalMove(
            move,
            f"{card_name(card)} is a combat mode: no ruse can move or remove one",
            "tactics.ruse-targets",
        )


class EliteTroops(TacticKind):
    """The Joker, the Spy and the Shield-Bearer: played onto your side like a Clan card; once a
    player has played a Joker, the other stays in their hand."""

    cards = frozenset(ELITE_TROOPS)

    def uses(self, state: GameState, card: Card) -> Iterator[Move]:
        if card in JOKERS and state._joker_on_side(state.current_player):
            return
        for target in state._room(state.current_player):
            yield PLAYS[card][target]

    def check(self, state: GameState, move: Move) -> None:
        assert isinstance(move, Play)
        if move.card in JOKERS and state._joker_on_side(state.current_player):
            raise IllegalMove(
                move, "you have already played a Joker", "tactics.one-joker-per-player"
            )
        state._check_room(move, move.stone, "turn.play-card")

    def carry_out(self, state: GameState, move: Move) -> None:
        assert isinstance(move, Play)
        if move.card in JOKERS:
            state.jokers_played.add(state.current_player)
        state._add(move.stone, state.current_player, move.card)


class CombatModes(TacticKind):
    """Mud Fight and Blind-Man's Bluff: laid on an open stone, they change how it is fought."""

    cards = frozenset(COMBAT_MODE_CARDS)

    def uses(self, state: GameState, card: Card) -> Iterator[Move]:
        for number, _ in state._open_stones():
            yield PLAYS[card][number]

    def check(self, state: GameState, move: Move) -> None:
        assert isinstance(move, Play)
        bluff = move.card == Tactic.BLIND_MANS_BLUFF
        state._check_open(
            move, move.stone, "tactics.blind-mans-bluff" if bluff else "tactics.mud-fight"
        )

    def carry_out(self, state: GameState, move: Move) -> None:
        assert isinstance(move, Play)
        stone = state.stones[move.stone - 1]
        stone.modes.add(MODE_OF_CARD[Tactic(move.card)])
        stone.capacity = side_capacity(stone.modes)
        for player in Player:  # Mud Fight: a side of three is incomplete again
            if len(stone.sides[player]) < stone.capacity:
                stone.completed_at[player] = None


class Recruiter(TacticKind):
    """Draw up to three cards from the decks, then put two from your hand under their decks."""

    cards = frozenset({Tactic.RECRUITER})

    def uses(self, state: GameState, card: Card) -> Iterator[Move]:
        yield Recruit()

    def check(self, state: GameState, move: Move) -> None:
        return

    def carry_out(self, state: GameState, move: Move) -> None:
        state.discards.append(Tactic.RECRUITER)
        state._start_recruiting()


class StrategistCard(TacticKind):
    """Move one of your own cards from an open stone to another with room, or to the discards."""

    cards = frozenset({Tactic.STRATEGIST})

    def uses(self, state: GameState, card: Card) -> Iterator[Move]:
        me = state.current_player
        room = state._room(me)
        for number, stone in state._open_stones():
            for mine in stone.sides[me]:
                for target in room:
                    if target != number:
                        yield Strategist(mine, number, target)
                yield Strategist(mine, number, None)

    def check(self, state: GameState, move: Move) -> None:
        assert isinstance(move, Strategist)
        state._check_open(move, move.source)
        _not_a_combat_mode(move, move.card)
        if move.card not in state.stones[move.source - 1].sides[state.current_player]:
            raise IllegalMove(
                move,
                f"{card_name(move.card)} is not on your side of stone {move.source}",
                "tactics.strategist",
            )
        if move.to is not None:
            if move.to == move.source:
                raise IllegalMove(move, "the card must go to another stone", "tactics.strategist")
            state._check_room(move, move.to, "tactics.strategist")

    def carry_out(self, state: GameState, move: Move) -> None:
        assert isinstance(move, Strategist)
        me = state.current_player
        state._remove(move.source, me, move.card)
        if move.to is None:
            state.discards.append(move.card)
        else:
            state._add(move.to, me, move.card)
        state.discards.append(Tactic.STRATEGIST)


class BansheeCard(TacticKind):
    """Discard a card from your opponent's side of an open stone."""

    cards = frozenset({Tactic.BANSHEE})

    def uses(self, state: GameState, card: Card) -> Iterator[Move]:
        for number, stone in state._open_stones():
            for theirs in stone.sides[state.current_player.other]:
                yield Banshee(theirs, number)

    def check(self, state: GameState, move: Move) -> None:
        assert isinstance(move, Banshee)
        state._check_open(move, move.stone)
        _not_a_combat_mode(move, move.card)
        if move.card not in state.stones[move.stone - 1].sides[state.current_player.other]:
            raise IllegalMove(
                move,
                f"{card_name(move.card)} is not on their side of stone {move.stone}",
                "tactics.banshee",
            )

    def carry_out(self, state: GameState, move: Move) -> None:
        assert isinstance(move, Banshee)
        state._remove(move.stone, state.current_player.other, move.card)
        state.discards.append(move.card)
        state.discards.append(Tactic.BANSHEE)


class TraitorCard(TacticKind):
    """Take a Clan card from your opponent's side of an open stone onto your side of a stone."""

    cards = frozenset({Tactic.TRAITOR})

    def uses(self, state: GameState, card: Card) -> Iterator[Move]:
        me = state.current_player
        room = state._room(me)
        for number, stone in state._open_stones():
            for theirs in stone.sides[me.other]:
                if theirs < len(CARDS):
                    for target in room:
                        yield Traitor(theirs, number, target)

    def check(self, state: GameState, move: Move) -> None:
        assert isinstance(move, Traitor)
        state._check_open(move, move.source)
        _not_a_combat_mode(move, move.card)
        if move.card not in state.stones[move.source - 1].sides[state.current_player.other]:
            raise IllegalMove(
                move,
                f"{card_name(move.card)} is not on their side of stone {move.source}",
                "tactics.traitor",
            )
        if move.card >= len(CARDS):
            raise IllegalMove(move, "the Traitor takes Clan cards only", "tactics.traitor")
        state._check_room(move, move.to, "tactics.traitor")

    def carry_out(self, state: GameState, move: Move) -> None:
        assert isinstance(move, Traitor)
        me = state.current_player
        state._remove(move.source, me.other, move.card)
        state._add(move.to, me, move.card)
        state.discards.append(Tactic.TRAITOR)


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
