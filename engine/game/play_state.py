"""The state of a game in play: where every card lies, whose turn it is, which step, and the
queries every rule reads.

:class:`PlayState` is the data of :class:`engine.game.interface.GameState` and what the modules
beside it work on: the move rules (:mod:`engine.game.move_rules`), the Tactic cards
(:mod:`engine.game.tactic_cards`), the legal moves (:mod:`engine.game.legality`), the turn flow
(:mod:`engine.game.turn_flow`) and the table a state is set up from (:mod:`engine.game.table`). None
of them needs the game's interface, so each imports this module and nothing imports back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.cards.card import ALL_CARDS_MASK as CLAN_MASK
from engine.cards.card import Card, mask_of
from engine.cards.formations import CombatMode, side_capacity
from engine.game.moves import Deck, Move
from engine.game.values import Event, GameSettings, Outcome, Phase, PlayerView, Termination
from engine.proof.claims import stone_verdict, unseen_elite_troops
from engine.proof.pieces import STONES, Player, StoneState, Variant, face_up_mask
from engine.proof.position import Position

if TYPE_CHECKING:
    from collections.abc import Sequence

_Key = tuple[int, Player, tuple[Card, ...]]
_Board = tuple[tuple[Card, ...], tuple[Card, ...], frozenset[CombatMode]]
_Refutation = tuple[_Board, int, tuple[Card, ...]]
"""A stone as it was when a claim on it was refused, the cards of the completion that refuted
the claim (a mask), and the elite troops among them."""


@dataclass
class StoneInPlay:
    """One stone during a game: both sides, when each was completed (by the game's clock), its
    combat modes, its owner and the cards a side needs."""

    sides: tuple[list[Card], list[Card]] = field(default_factory=lambda: ([], []))
    completed_at: list[int | None] = field(default_factory=lambda: [None, None])
    modes: set[CombatMode] = field(default_factory=set)
    claimed_by: Player | None = None
    capacity: int = 3

    def copy(self) -> StoneInPlay:
        return StoneInPlay(
            (list(self.sides[0]), list(self.sides[1])),
            list(self.completed_at),
            set(self.modes),
            self.claimed_by,
            self.capacity,
        )

    @property
    def completed_first(self) -> Player | None:
        """Who completed their side first, once both sides are complete."""
        a, b = self.completed_at
        if a is None or b is None:
            return None
        return Player.A if a < b else Player.B

    def refit(self) -> None:
        """Take the capacity from the combat modes again (Mud Fight asks four cards a side):
        a side that no longer has every card it needs is no longer complete."""
        self.capacity = side_capacity(self.modes)
        for player in Player:
            if len(self.sides[player]) < self.capacity:
                self.completed_at[player] = None


class PlayState:
    """Every card's place, whose turn, which step: the data of a game, and its plain queries."""

    __slots__ = (
        "_could_claim_this_turn",
        "_dealt",
        "_face_up",
        "_idle_turns",
        "_legal",
        "_played_this_turn",
        "_provable",
        "_recruits_left",
        "_refuted",
        "_returns_left",
        "_rooms",
        "_version",
        "clock",
        "current_player",
        "decks",
        "discards",
        "events",
        "game",
        "hands",
        "jokers_played",
        "moves",
        "outcome",
        "phase",
        "stones",
        "tactics_played",
        "turn",
    )

    def __init__(
        self,
        game: GameSettings,
        hands: tuple[list[Card], list[Card]],
        decks: dict[Deck, list[Card]],
    ) -> None:
        """A state at the first player's first step, before any forced step is carried out:
        :meth:`engine.game.interface.Game.new_initial_state` and ``from_table`` make the ones to
        play from."""
        self.game = game
        self.stones = [StoneInPlay() for _ in STONES]
        self.hands = hands
        self.decks = decks
        self.discards: list[Card] = []
        self.tactics_played = [0, 0]
        self.jokers_played: set[Player] = set()
        self.current_player = game.first_player
        self.phase = Phase.CLAIM if game.expert else Phase.PLAY
        self.turn = 1
        self.clock = 0
        self.outcome: Outcome | None = None
        self.moves: list[Move] = []
        self.events: list[Event] = []
        self._recruits_left = 0
        self._returns_left = 0
        self._idle_turns = 0
        self._played_this_turn = False
        self._could_claim_this_turn = False
        self._dealt = False
        self._face_up = 0
        self._version = 0
        self._legal: tuple[_Key, tuple[Move, ...], set[int], dict[Move, Move]] | None = None
        self._provable: dict[_Key, tuple[int, ...]] = {}
        self._refuted: dict[tuple[Player, int], _Refutation] = {}
        self._rooms: tuple[tuple[int, int, Player], object, tuple[int, ...]] | None = None

    # ------------------------------------------------------------------ what anyone may ask

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (by a victory, or by the stalemate ruling)."""
        return self.phase is Phase.OVER

    @property
    def winner(self) -> Player | None:
        """The player who won, once the game is over; None while it goes on or for a draw."""
        return self.outcome.winner if self.outcome is not None else None

    @property
    def variant(self) -> Variant:
        return self.game.variant

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

    def stones_held(self, player: Player) -> tuple[int, ...]:
        """The stones ``player`` has claimed (or been awarded)."""
        return tuple(
            n for n, stone in zip(STONES, self.stones, strict=True) if stone.claimed_by is player
        )

    def open_stones(self) -> list[tuple[int, StoneInPlay]]:
        """The stones nobody holds yet, by number."""
        return [(n, s) for n, s in zip(STONES, self.stones, strict=True) if s.claimed_by is None]

    def side(self, number: int, player: Player) -> Sequence[Card]:
        """``player``'s side of stone ``number``, or nothing when there is no such stone."""
        return self.stones[number - 1].sides[player] if number in STONES else ()

    def drawable(self) -> list[Deck]:
        """The decks that still hold a card."""
        return [deck for deck, cards in self.decks.items() if cards]

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

    def position(self, player: Player) -> Position:
        """The table and ``player``'s hand as a :class:`Position`, the claim proof's input."""
        stones = []
        for stone in self.stones:
            stones.append(
                StoneState._without_checks(
                    (tuple(stone.sides[0]), tuple(stone.sides[1])),
                    stone.completed_first,
                    frozenset(stone.modes),
                    stone.claimed_by,
                )
            )
        # The state keeps every card in one place (check_invariants); a test checks this
        # position equals one built with every check.
        return Position._without_checks(
            tuple(stones),
            tuple(self.discards),
            tuple(self.hands[player]),
            player,
            self.variant,
            frozenset(self.jokers_played),
        )

    def provable_stones(self, player: Player | None = None) -> tuple[int, ...]:
        """The stones ``player`` (the current one by default) could claim right now."""
        player = self.current_player if player is None else player
        if not any(
            stone.claimed_by is None and len(stone.sides[player]) == stone.capacity
            for stone in self.stones
        ):
            return ()
        key = self._cache_key(player)
        if key not in self._provable:
            self._provable = {key: self._prove_stones(player)} | {
                other: stones for other, stones in self._provable.items() if other[0] == key[0]
            }
        return self._provable[key]

    def _prove_stones(self, player: Player) -> tuple[int, ...]:
        """The stones ``player`` can prove, each judged by the claim proof on the table as it
        is (:func:`engine.proof.claims.stone_verdict`). A stone refused before is refused again
        without a proof while it is unchanged and the completion that refuted the claim can
        still be made: its cards are still out of sight, and its elite troops still the
        opponent's to play. That completion still beats the claimant's side."""
        unseen = -1  # the cards out of sight, worked out when a proof first needs them
        troops: tuple[Card, ...] = ()
        proved = []
        rulings = self.game.rulings
        for number, stone in zip(STONES, self.stones, strict=True):
            capacity = stone.capacity
            if stone.claimed_by is not None or len(stone.sides[player]) != capacity:
                continue
            board = (tuple(stone.sides[0]), tuple(stone.sides[1]), frozenset(stone.modes))
            if unseen < 0 and len(stone.sides[player.other]) < capacity:
                unseen = self.variant.card_mask & ~self._face_up
                # The game records every Joker played (a test checks it agrees with the
                # position's).
                troops = unseen_elite_troops(unseen, player.other in self.jokers_played)
            kept = self._refuted.get((player, number))
            if kept is not None and unseen >= 0 and _still_refutes(kept, board, unseen, troops):
                continue
            state = StoneState._without_checks(board[:2], stone.completed_first, board[2], None)
            verdict = stone_verdict(
                number, state, player, self.hands[player], max(unseen, 0), troops, rulings
            )
            if verdict.granted:
                proved.append(number)
            elif verdict.best_reply is not None:
                added = verdict.best_reply.added
                refuting = tuple(card for card in added if not CLAN_MASK >> card & 1)
                self._refuted[(player, number)] = (board, mask_of(added), refuting)
        return tuple(proved)

    # ------------------------------------------------------------------ remembering answers

    def changed(self) -> None:
        """Say that the state was changed by hand (a test rearranging hidden cards, say), not by
        a move: the legal moves, provable stones and cards face up kept for it are worked out
        again."""
        self._version += 1
        self._face_up = face_up_mask(self.stones, self.discards)

    @property
    def face_up(self) -> int:
        """The cards face up (a mask): on the sides, the combat modes on their stones, the
        discards. Kept by each move rather than read from the table: a card once face up stays
        face up (a side's card leaves it only for another side or the discards), so each card
        laid, each combat mode played and each card discarded adds its bit, and nothing takes
        one away. An invariant checks it against the table."""
        return self._face_up

    def show(self, card: Card) -> None:
        """Count ``card`` face up from now on: a combat mode laid on its stone."""
        self._face_up |= 1 << card

    def discard(self, card: Card) -> None:
        """Put ``card`` on the discards, face up."""
        self.discards.append(card)
        self._face_up |= 1 << card

    def room_key(self, player: Player) -> tuple[int, int, Player]:
        """What the stones with room on ``player``'s side depend on, besides the rule judging
        the room: the state's version and its clock (every card laid moves it; taking one off
        forgets the answer)."""
        return (self._version, self.clock, player)

    def _cache_key(self, player: Player) -> _Key:
        """What a cached answer about ``player``'s options depends on: the state's version, bumped
        by every move and forced step (and by :meth:`changed`), and the hand."""
        return (self._version, player, tuple(self.hands[player]))

    # ------------------------------------------------------------------ changing the table

    def add(self, number: int, player: Player, card: Card) -> None:
        """Lay ``card`` on ``player``'s side of stone ``number``, keeping the game's clock."""
        stone = self.stones[number - 1]
        stone.sides[player].append(card)
        self._face_up |= 1 << card
        self.clock += 1
        if len(stone.sides[player]) == stone.capacity:
            stone.completed_at[player] = self.clock

    def remove(self, number: int, player: Player, card: Card) -> None:
        """Take ``card`` off ``player``'s side of stone ``number``: the side is incomplete."""
        stone = self.stones[number - 1]
        stone.sides[player].remove(card)
        stone.completed_at[player] = None
        self._rooms = None

    def start_recruiting(self) -> None:
        """The Recruiter's steps follow: draw up to three cards, then put two back."""
        self._recruits_left = 3
        self._returns_left = 2
        self.phase = Phase.RECRUITER_DRAW

    def after_play(self) -> None:
        """The step after the play step: the claim step, or under expert timing the draw."""
        self.phase = Phase.DRAW if self.game.expert else Phase.CLAIM


def _still_refutes(kept: _Refutation, board: _Board, unseen: int, troops: tuple[Card, ...]) -> bool:
    """Whether the completion ``kept`` can still be made on the stone, now ``board``: its cards
    out of sight, and its elite troops among ``troops``, those the opponent can still play."""
    was, witness, refuting = kept
    if was != board or witness & unseen != witness:
        return False
    return set(refuting) <= set(troops)


__all__ = [
    "Event",
    "GameSettings",
    "Outcome",
    "Phase",
    "PlayState",
    "PlayerView",
    "StoneInPlay",
    "Termination",
]
