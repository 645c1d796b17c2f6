"""The state of a game in play: where every card lies (:mod:`engine.game.cards_in_play`), whose
turn it is, which step, and the queries every rule reads.

:class:`PlayState` is the data of :class:`engine.game.interface.GameState` and what the modules
beside it work on: the move rules (:mod:`engine.game.move_rules`), the Tactic cards
(:mod:`engine.game.tactic_cards`), the legal moves (:mod:`engine.game.legality`), the turn flow
(:mod:`engine.game.turn_flow`) and the table a state is set up from (:mod:`engine.game.table`). None
of them needs the game's interface, so each imports this module and nothing imports back.

One writer: a state changes only in the steps :meth:`GameState.apply
<engine.game.interface.GameState.apply>` carries out (and in the set-up of a new state). Its
private fields are read and written by its own classes alone (a test checks it); the steps change
it through the methods below. Whatever is worked out from a state (the legal moves, the stones
with room, the provable stones) is kept in :meth:`PlayState.derived` under the state's version,
which only the game's steps bump, one before and one after each step.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TypeVar, TypeVarTuple

from engine.cards.card import Card
from engine.game.cards_in_play import STONES_IN_MASK, CardsInPlay
from engine.game.moves import Deck, Move
from engine.game.provable import Refutations, prove_stones
from engine.game.stone_in_play import StoneInPlay
from engine.game.values import Event, GameSettings, Outcome, Phase, PlayerView, Termination
from engine.proof.pieces import Player

Derived = TypeVar("Derived")
Facts = TypeVarTuple("Facts")
_NOT_KEPT = object()
_PROVABLE = (("provable", Player.A), ("provable", Player.B))
"""The keys the provable stones of each player are kept under (:meth:`PlayState.derived`)."""
_PLAY, _CLAIM, _DRAW, _RECRUITER_DRAW, _OVER = (
    Phase.PLAY, Phase.CLAIM, Phase.DRAW, Phase.RECRUITER_DRAW, Phase.OVER
)  # fmt: skip
OPPONENT = (Player.B, Player.A)
"""The phases a move's steps set or test, and each player's opponent (``player.other``), read
as module values: an enumeration's member read from its class costs ten times as much."""


class PlayState(CardsInPlay):
    """Every card's place, whose turn, which step: the data of a game, and its plain queries."""

    __slots__ = (
        "_could_claim_this_turn",
        "_dealt",
        "_derived",
        "_derived_at",
        "_idle_turns",
        "_played_this_turn",
        "_recruits_left",
        "_refuted",
        "_returns_left",
        "_version",
        "current_player",
        "events",
        "moves",
        "outcome",
        "phase",
        "turn",
    )

    def __init__(
        self,
        game: GameSettings,
        hands: tuple[list[Card], list[Card]],
        decks: dict[Deck, list[Card]],
        *,
        dealt: bool = False,
    ) -> None:
        """A state at the first player's first step, before any forced step is carried out:
        :meth:`engine.game.interface.Game.new_initial_state` (``dealt``) and ``from_table`` make
        the ones to play from."""
        super().__init__(game, hands, decks)
        self.current_player = game.first_player
        self.phase = Phase.CLAIM if game.expert else Phase.PLAY
        self.turn = 1
        self.outcome: Outcome | None = None
        self.moves: list[Move] = []
        self.events: list[Event] = []
        self._recruits_left = self._returns_left = self._idle_turns = 0
        self._played_this_turn = self._could_claim_this_turn = False
        self._dealt = dealt
        self._version = self._derived_at = 0
        self._derived: dict[Hashable, object] = {}
        self._refuted: Refutations = {}

    # ------------------------------------------------------------------ what anyone may ask

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (by a victory, or by the stalemate ruling)."""
        return self.phase is _OVER

    @property
    def winner(self) -> Player | None:
        """The player who won, once the game is over; None while it goes on or for a draw."""
        return self.outcome.winner if self.outcome is not None else None

    @property
    def played_this_turn(self) -> bool:
        """Whether the current player has played a card (not passed) this turn."""
        return self._played_this_turn

    @property
    def could_claim_this_turn(self) -> bool:
        """Whether a stone was provable at the current player's claim step this turn."""
        return self._could_claim_this_turn

    @property
    def recruits_left(self) -> int:
        """Cards the Recruiter still draws (0 outside its draw step)."""
        return self._recruits_left

    @property
    def returns_left(self) -> int:
        """Cards still to go back under their decks for the Recruiter (0 outside its steps)."""
        return self._returns_left

    @property
    def idle_turns(self) -> int:
        """Idle turns in a row just before this one: no card played and no stone provable."""
        return self._idle_turns

    def returns(self) -> tuple[int, int]:
        """Each player's result: 1 for a win, -1 for a loss, 0 for a draw or a game still going."""
        if self.winner is None:
            return (0, 0)
        return (1, -1) if self.winner is Player.A else (-1, 1)

    def view(self, player: Player) -> PlayerView:
        """What ``player`` sees: the table, the discards, their own hand, and the counts."""
        return PlayerView(
            self.position(player),
            {deck: len(cards) for deck, cards in self.decks.items()},
            len(self.hands[player.other]),
            (self.tactics_played[0], self.tactics_played[1]),
            self.current_player,
            self.phase,
        )

    def provable_stones(self, player: Player | None = None) -> tuple[int, ...]:
        """The stones ``player`` (the current one by default) could claim right now."""
        player = self.current_player if player is None else player
        complete = self._room[player] ^ self._open  # self.complete(player)
        if not complete:
            return ()
        return self.derived(_PROVABLE[player], self._prove, player, complete)

    def _prove(self, player: Player, complete: int) -> tuple[int, ...]:
        return prove_stones(
            self.stones, self._changed_at, STONES_IN_MASK[complete], player,
            self._in_play & ~self._face_up, self.jokers_played, self.game.rulings, self._refuted,
        )  # fmt: skip

    def derived(
        self, key: Hashable, work_out: Callable[[*Facts], Derived], *facts: *Facts
    ) -> Derived:
        """The value ``work_out(*facts)`` derives from the state, kept under ``key`` until the
        state's version changes: each step of a game changes it before and after, so nothing
        worked out during a step, or before it, is read after it."""
        if self._derived_at == self._version:
            kept = self._derived.get(key, _NOT_KEPT)
            if kept is not _NOT_KEPT:
                return kept  # type: ignore[return-value]  # kept by this method, as work_out gave it
        else:
            self._derived, self._derived_at = {}, self._version
        value = self._derived[key] = work_out(*facts)
        return value

    def changed(self) -> None:
        """Say that the state was changed by hand (a test rearranging hidden cards, say), not by
        a move: the legal moves, provable stones and cards face up kept for it are worked out
        again."""
        self._version += 1
        self.count_face_up()

    def play_from_hand(self, card: Card) -> None:
        """The current player plays ``card`` from their hand (rather than passing)."""
        self.hands[self.current_player].remove(card)
        self._played_this_turn = True

    def draw(self, deck: Deck) -> None:
        """The current player draws the top card of ``deck`` (one of the Recruiter's, in its
        draw step)."""
        self.hands[self.current_player].append(self.decks[deck].pop())
        if self.phase is _RECRUITER_DRAW:
            self._recruits_left -= 1

    def return_card(self, card: Card) -> None:
        """Put ``card`` from the current player's hand under its deck, for the Recruiter."""
        self.hands[self.current_player].remove(card)
        self.decks[Deck.of(card)].insert(0, card)
        self._returns_left -= 1

    def start_recruiting(self) -> None:
        """The Recruiter's steps follow: draw up to three cards, then put two back."""
        self._recruits_left, self._returns_left = 3, 2
        self.phase = Phase.RECRUITER_DRAW

    def stop_recruiting(self) -> None:
        """The Recruiter draws no more: put back two cards, or as many as the hand holds."""
        self._recruits_left = 0
        self._returns_left = min(self._returns_left, len(self.hands[self.current_player]))
        self.phase = Phase.RECRUITER_RETURN

    def after_play(self) -> None:
        """The step after the play step: the claim step, or under expert timing the draw."""
        self.phase = _DRAW if self.game.expert else _CLAIM

    def count_idle_turn(self) -> int:
        """Count the turn ending as idle (no card played, no stone provable) or not, and give
        the idle turns in a row so far."""
        idle = not (self._played_this_turn or self._could_claim_this_turn)
        self._idle_turns = self._idle_turns + 1 if idle else 0
        return self._idle_turns

    def pass_turn(self) -> None:
        """The other player's turn begins."""
        self.current_player = OPPONENT[self.current_player]
        self.turn += 1
        self._played_this_turn = self._could_claim_this_turn = False
        self.phase = _CLAIM if self.game.expert else _PLAY


__all__ = [
    "OPPONENT",
    "Event",
    "GameSettings",
    "Outcome",
    "Phase",
    "PlayState",
    "PlayerView",
    "StoneInPlay",
    "Termination",
]
