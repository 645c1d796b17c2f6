"""A whole game: the shuffle, the deal, and the small fixed interface a game is played through.

:class:`Game` holds the parameters (variant, expert timing, who starts, the seed); a
:class:`GameState` holds the play and offers a small fixed interface: ``current_player``,
``legal_moves()``, ``apply(move)``, ``is_over`` and ``winner``. What a player may see is a
separate :class:`PlayerView`, and the claim proof only ever works on that view.

The rules live beside it, each in one place: the moves and their notation in
:mod:`engine.game.moves`, each rule a move must keep in :mod:`engine.game.move_rules`, the Tactic
cards in :mod:`engine.game.tactic_cards`, the legal moves in :mod:`engine.game.legality`, the turn
flow in :mod:`engine.game.turn_flow`, a game set up from a table in :mod:`engine.game.table`; replay
and records in :mod:`engine.match.records`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import repeat
from operator import is_

from engine.cards.card import CARDS, Card
from engine.game.legality import (
    CLAIM_RULES,
    RULES_NAMED,
    as_listed,
    card_refusal,
    listing,
    refusal,
)
from engine.game.move_rules import may_pass, someone_can_go_on
from engine.game.moves import (
    PLAYS,
    Claim,
    Deck,
    IllegalMove,
    Move,
    Play,
    read_move,
)
from engine.game.play_state import (
    Event,
    GameSettings,
    Outcome,
    Phase,
    PlayerView,
    PlayState,
    Termination,
)
from engine.game.table import (
    TableError,
    TableFact,
    hands_and_decks,
    invariant_problems,
    set_up,
    tactics_played_problem,
    turn_so_far,
)
from engine.game.turn_flow import FORCED_STEP, carry_out
from engine.proof.pieces import Player
from engine.proof.position import Position
from engine.proof.rulings import RULINGS, Rulings
from engine.proof.variants import variant_named


@dataclass(frozen=True)
class Game(GameSettings):
    """The parameters of a game: the variant, expert timing, who starts, the shuffle's seed, and
    the rulings it is played by (:data:`engine.proof.rulings.RULINGS` unless a test flips one).

        >>> from engine import Game
        >>> game = Game.named("tactics", seed=44)  # the same seed deals the same cards
        >>> game, game.new_initial_state().current_player
        (Game.named('tactics', expert=False, first_player=Player.A, seed=44), <Player.A: 0>)
    """

    @classmethod
    def named(
        cls,
        variant: str = "base",
        *,
        expert: bool = False,
        first_player: Player = Player.A,
        seed: int | str = 0,
        rulings: Rulings = RULINGS,
    ) -> Game:
        """A game of the variant called ``variant``."""
        return cls(variant_named(variant), expert, first_player, seed, rulings)

    def new_initial_state(self) -> GameState:
        """Shuffle with the seed, deal, and stop at the first player's first decision."""
        rng = random.Random(self.seed)
        clan = list(CARDS)
        rng.shuffle(clan)
        decks = {Deck.CLAN: clan}
        if self.variant.tactic_cards:
            tactic_deck = list(self.variant.tactic_cards)
            rng.shuffle(tactic_deck)
            decks[Deck.TACTICS] = tactic_deck
        hands: tuple[list[Card], list[Card]] = ([], [])
        order = (self.first_player, self.first_player.other)
        for _ in range(self.variant.hand_size):
            for player in order:
                hands[player].append(clan.pop())
        return GameState(self, hands, decks, dealt=True)

    def __repr__(self) -> str:
        rulings = "" if self.rulings == RULINGS else f", rulings={self.rulings!r}"
        return (
            f"Game.named({self.variant.name!r}, expert={self.expert},"
            f" first_player=Player.{self.first_player.name}, seed={self.seed!r}{rulings})"
        )


class GameState(PlayState):
    """The true state of a game: every card's place, whose turn, which step. Mutated by apply.
    For example:

        >>> from engine import Game, GameState
        >>> state = Game.named("base", seed=1).new_initial_state()
        >>> isinstance(state, GameState), len(state.legal_moves()), str(state.legal_moves()[0])
        (True, 54, 'red 9 on 1')
        >>> state.apply_text("red 9 on 9")  # reads the notation, checks and applies the move
        Play(card=8, stone=9)
        >>> state.current_player, state.phase, state.is_over, state.winner
        (<Player.B: 1>, <Phase.PLAY: 'play'>, False, None)
    """

    __slots__ = ()

    def __init__(
        self,
        game: GameSettings,
        hands: tuple[list[Card], list[Card]],
        decks: dict[Deck, list[Card]],
        *,
        dealt: bool = False,
    ) -> None:
        """A state with these hands and decks; once ``dealt`` (by
        :meth:`Game.new_initial_state`), at the first player's first decision."""
        super().__init__(game, hands, decks, dealt=dealt)
        if dealt:
            self._steps()

    @classmethod
    def from_table(
        cls,
        game: Game,
        position: Position,
        *,
        their_hand: Sequence[Card] = (),
        clan_deck: Sequence[Card] = (),
        tactic_deck: Sequence[Card] = (),
        tactics_played: tuple[int, int] = (0, 0),
        phase: Phase | None = None,
        played_this_turn: bool | None = None,
        could_claim_this_turn: bool | None = None,
        idle_turns: int | None = None,
    ) -> GameState:
        """A state at the start of the viewer's turn (or ``phase`` of it), built from a position.

        Decks are given top card first, and every card of the variant must be in exactly one
        place. A table states every fact the game needs to go on exactly as a real game would,
        or :class:`TableError` says which one (its :class:`TableFact`) is missing or cannot be:

        - who completed first, on every stone whose two sides are complete;
        - past the play step, whether the viewer played a card (``played_this_turn``; by default
          they did) or passed;
        - past this turn's claim step, whether a stone was provable there
          (``could_claim_this_turn``), derived when the board shows it;
        - how many idle turns in a row came before this one (``idle_turns``), derived as 0 when
          the opponent cannot have passed on their last turn.
        """
        hands, decks = hands_and_decks(
            position, their_hand, clan_deck, tactic_deck, bool(game.variant.tactic_cards)
        )
        state = cls(game, hands, decks)
        set_up(state, position, tactics_played, phase)
        facts = turn_so_far(state, played_this_turn, could_claim_this_turn, idle_turns)
        state._played_this_turn, state._could_claim_this_turn, state._idle_turns = facts
        state._steps()  # the steps that leave the viewer no choice
        return state

    # ------------------------------------------------------------------ the fixed interface

    def legal_moves(self) -> list[Move]:
        """Every move the current player may make now, in a fixed order.

        This list is the one definition of what is legal: :meth:`apply` accepts exactly these.
        """
        return list(listing(self))

    def apply(self, move: Move) -> None:
        """Carry out ``move`` for the current player if :meth:`legal_moves` lists it, or raise
        :class:`IllegalMove` saying which rule forbids it.

        What is carried out and recorded is the listed move equal to ``move``: a Joker is the one
        in the place it is taken from, and a card number given as ``8.0`` is refused, not
        written onto the board as a float.
        """
        asked = as_listed(self, move)
        found = self._listed_move(asked)
        # 8.0 == 8, so equal is not enough: the notation tells a real card number from another.
        if found is None or (found is not asked and str(found) != str(asked)):
            raise self.why_illegal(move) or IllegalMove(
                move, "it is not among the legal moves now", "turn.order"
            )
        self._version += 1
        if isinstance(found, Claim):  # a claim step waits for a choice when one is provable
            self._could_claim_this_turn = True
        self.moves.append(found)
        text = _PLAY_TEXT[found.card][found.stone] if type(found) is Play else str(found)
        self.events.append(Event.logged(self.turn, self.current_player, text))
        carry_out(self, found)
        self._version += 1
        self._steps()

    def _steps(self) -> None:
        """Carry out every step the rules force now, one after another
        (:data:`~engine.game.turn_flow.FORCED_STEP`): the only changes a game state sees (with
        the move :meth:`apply` carries out before them), each between two changes of its
        version."""
        step = FORCED_STEP[self.phase](self)
        while step is not None:
            self._version += 1
            step(self)
            self._version += 1
            step = FORCED_STEP[self.phase](self)

    def why_illegal(self, move: Move) -> IllegalMove | None:
        """The reason ``move`` is refused here, in words and a rule id; None if nothing forbids
        it. It explains refusals only: a test checks it agrees with :meth:`legal_moves`."""
        return refusal(self, as_listed(self, move))

    def why_unplayable(self, card: Card) -> IllegalMove | None:
        """Why ``card`` in the current player's hand can be played nowhere now, in the words of
        the rule that leaves it no move; None when a legal move plays it."""
        return card_refusal(self, card)

    def apply_text(self, text: str) -> Move:
        """Read ``text`` as a move (:meth:`parse_move`), apply it, and return it."""
        move = self.parse_move(text)
        self.apply(move)
        return move

    def parse_move(self, text: str) -> Move:
        """Read a move written as :func:`str` writes it, with Jokers resolved from the state."""
        me = self.current_player

        def side(number: int, theirs: bool) -> Sequence[Card]:
            return self.side(number, me.other if theirs else me)

        return read_move(text, self.hands[me], side)

    def someone_can_go_on(self) -> bool:
        """Whether a player, judged on the hands as they are now, must play or can prove a stone
        (:func:`engine.game.move_rules.someone_can_go_on`)."""
        return someone_can_go_on(self)

    def may_pass(self, player: Player | None = None) -> bool:
        """Whether ``player`` (the current one by default) may pass: no Clan card of theirs fits."""
        return may_pass(self, player)

    def check_invariants(self) -> list[str]:
        """Every broken invariant, in words (:func:`engine.game.table.invariant_problems`)."""
        return invariant_problems(self)

    def tactics_played_problem(self, viewer: Player) -> str | None:
        """Why the Tactic counts cannot be true, in ``viewer``'s words, or None."""
        return tactics_played_problem(self, viewer)

    def __repr__(self) -> str:
        if not self._dealt:
            return (
                f"<GameState from a table: turn {self.turn}, player {self.current_player.name},"
                f" {self.phase.value} step, {len(self.moves)} moves since>"
            )
        return f"replay({self.game!r}, {[str(move) for move in self.moves]!r})"

    # ------------------------------------------------------------------ helpers

    def _listed_move(self, move: Move) -> Move | None:
        """The listed move that is ``move``, or else the first equal to it (one read from
        notation, say), or None. A move taken from the list is found by identity, comparing
        none: one pass of ``is`` over the list costs less than a set of the moves' ids; a
        move equal to a listed one (the random player's claim of every provable stone, equal
        to the first listed) by one pass of ``==``, which stops at the first. A Clan card's play
        as :data:`~engine.game.moves.PLAYS` holds it is listed, itself, exactly when the play
        step lists the Clan plays (:func:`~engine.game.move_rules.clan_plays`): the card in
        hand, the stone with room on the player's side; so it is found without a pass."""
        clan_play = _CLAN_PLAY_AT.get(id(move))
        if clan_play is not None and self.phase is _PLAY_STEP:
            card, stone_bit = clan_play
            me = self.current_player
            return move if card in self.hands[me] and self.room(me) & stone_bit else None
        listed = listing(self)
        if any(map(is_, listed, repeat(move))):
            return move
        return next((equal for equal in listed if equal == move), None)


_CLAN_PLAY_AT = {
    id(PLAYS[card][stone]): (card, 1 << (stone - 1))
    for card in CARDS
    for stone in range(1, len(PLAYS[card]))
}
"""The Clan card and stone (a mask's bit) of each play of a Clan card to a stone that
:data:`~engine.game.moves.PLAYS` holds, by the play's identity (those plays live as long as the
module, so no other move shares an id with one)."""
_PLAY_STEP = Phase.PLAY

_PLAY_TEXT = tuple(tuple(map(str, plays)) for plays in PLAYS)
"""The notation of each play of :data:`~engine.game.moves.PLAYS`, written once (``str`` of a
listed play, which the log writes once a move)."""


__all__ = [
    "CLAIM_RULES",
    "RULES_NAMED",
    "Event",
    "Game",
    "GameState",
    "Outcome",
    "Phase",
    "PlayerView",
    "TableError",
    "TableFact",
    "Termination",
]
