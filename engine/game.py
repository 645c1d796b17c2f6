"""A whole game: the shuffle, the deal, turns, the Tactic cards, passing, victory and stalemate.

The moves and their notation live in :mod:`engine.moves`; replay and records in
:mod:`engine.records`.

:class:`Game` holds the parameters (variant, expert timing, who starts, the seed); a
:class:`GameState` holds the play and offers a small fixed interface: ``current_player``,
``legal_moves()``, ``apply(move)``, ``is_over`` and ``winner``. What a player may see is a
separate :class:`PlayerView`, and the claim proof only ever works on that view.

The state stops only where a player has a choice. Steps with a single possible outcome are
carried out at once and logged: the draw when only one deck can be drawn from, the claim step
when nothing can be proved, the pass when no card can be played.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import Enum
from itertools import combinations

from engine.cards import CARDS, Card, card_name
from engine.claims import Reason, claim_verdict
from engine.formations import CombatMode, side_capacity
from engine.moves import (
    PLAYS,
    RUSE_OF_MOVE,
    Banshee,
    Claim,
    Deck,
    Draw,
    IllegalMove,
    Move,
    Pass,
    Play,
    Return,
    Strategist,
    Traitor,
    held_card,
    read_move,
)
from engine.position import (
    MODE_CARDS,
    STONES,
    DuplicateCard,
    Player,
    Position,
    PositionError,
    StoneState,
    Variant,
    variant_named,
)
from engine.reachable import has_won, joker_problem, reachability_problems
from engine.tactic_cards import KIND_OF_CARD
from engine.tactics import (
    COMBAT_MODE_CARDS,
    ELITE_TROOPS,
    JOKERS,
    TACTICS_MASK,
    WILD_VALUES,
    Tactic,
)

_Key = tuple[int, Player, tuple[Card, ...]]


class Phase(Enum):
    """Where the current player is in their turn."""

    PLAY = "play"
    CLAIM = "claim"
    DRAW = "draw"
    RECRUITER_DRAW = "recruiter draw"
    RECRUITER_RETURN = "recruiter return"
    OVER = "over"


class Termination(Enum):
    """How a game ended: a victory on the border, or the stalemate award and what it gave."""

    FIVE_STONES = "five stones"
    THREE_ADJACENT_STONES = "three adjacent stones"
    STALEMATE_AWARD = "stalemate award"
    AWARD_GIVES_BOTH_A_WIN = "draw: the award gives both players a win"
    NOBODY_WINS_AFTER_THE_AWARD = "draw: nobody has a win after the award"

    @property
    def is_victory(self) -> bool:
        """Whether a player won on the border, as opposed to by the stalemate ruling."""
        return self in (Termination.FIVE_STONES, Termination.THREE_ADJACENT_STONES)

    @property
    def is_draw(self) -> bool:
        """Whether nobody won: the award gave both players a win, or neither."""
        return self in (Termination.AWARD_GIVES_BOTH_A_WIN, Termination.NOBODY_WINS_AFTER_THE_AWARD)


@dataclass(frozen=True)
class Outcome:
    """How a game ended and who won (None for a draw). ``str`` gives the reason in words."""

    termination: Termination
    winner: Player | None = None

    @property
    def is_victory(self) -> bool:
        return self.termination.is_victory

    def __str__(self) -> str:
        return self.termination.value


class TableError(PositionError):
    """A table that cannot be a game: a card missing or in two places, a fact of the turn unsaid.

    ``part`` names the table's key at fault (``table.idle_turns``...), as for a position.
    """


# ----------------------------------------------------------------------------------------- game


@dataclass(frozen=True)
class Game:
    """The parameters of a game: the variant, expert timing, who starts, and the shuffle's seed."""

    variant: Variant = field(default_factory=Variant)
    expert: bool = False
    first_player: Player = Player.A
    seed: int | str = 0

    @classmethod
    def named(
        cls,
        variant: str = "base",
        *,
        expert: bool = False,
        first_player: Player = Player.A,
        seed: int | str = 0,
    ) -> Game:
        """A game of the variant called ``variant``."""
        return cls(variant_named(variant), expert, first_player, seed)

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
        state = GameState(self, hands, decks)
        state._dealt = True
        state._settle()
        return state

    def __repr__(self) -> str:
        return (
            f"Game.named({self.variant.name!r}, expert={self.expert},"
            f" first_player=Player.{self.first_player.name}, seed={self.seed!r})"
        )


@dataclass(frozen=True)
class PlayerView:
    """What one player can see: the table and their hand as a :class:`Position`, and the counts."""

    position: Position
    deck_sizes: dict[Deck, int]
    their_hand_size: int
    tactics_played: tuple[int, int]
    current_player: Player
    phase: Phase


@dataclass
class _Stone:
    sides: tuple[list[Card], list[Card]] = field(default_factory=lambda: ([], []))
    completed_at: list[int | None] = field(default_factory=lambda: [None, None])
    modes: set[CombatMode] = field(default_factory=set)
    claimed_by: Player | None = None
    capacity: int = 3

    def copy(self) -> _Stone:
        return _Stone(
            (list(self.sides[0]), list(self.sides[1])),
            list(self.completed_at),
            set(self.modes),
            self.claimed_by,
            self.capacity,
        )


@dataclass(frozen=True)
class Event:
    """One thing that happened, in order: a move a player chose, or a step the rules forced."""

    turn: int
    player: Player
    text: str
    forced: bool = False


class GameState:
    """The true state of a game: every card's place, whose turn, which step. Mutated by apply."""

    __slots__ = (
        "_could_claim_this_turn",
        "_dealt",
        "_idle_turns",
        "_legal",
        "_played_this_turn",
        "_provable",
        "_recruits_left",
        "_returns_left",
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
        self, game: Game, hands: tuple[list[Card], list[Card]], decks: dict[Deck, list[Card]]
    ) -> None:
        """A state at the first player's first step, before any forced step is carried out:
        :meth:`Game.new_initial_state` and :meth:`from_table` make the ones to play from."""
        self.game = game
        self.stones = [_Stone() for _ in STONES]
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
        self._version = 0
        self._legal: tuple[_Key, tuple[Move, ...]] | None = None
        self._provable: dict[_Key, tuple[int, ...]] = {}

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
        or :class:`TableError` says which one to add:

        - who completed first, on every stone whose two sides are complete (``completed_first``);
        - past the play step, whether the viewer played a card (``played_this_turn``; by default
          they did) or passed;
        - past this turn's claim step, whether a stone was provable there
          (``could_claim_this_turn``), derived when the board shows it;
        - how many idle turns in a row came before this one (``idle_turns``), derived as 0 when
          the opponent cannot have passed on their last turn.
        """
        me = position.viewer
        hands: tuple[list[Card], list[Card]] = ([], [])
        hands[me].extend(position.hand)
        hands[me.other].extend(their_hand)
        decks = {Deck.CLAN: list(reversed(clan_deck))}
        if game.variant.tactic_cards:
            decks[Deck.TACTICS] = list(reversed(tactic_deck))
        state = cls(game, hands, decks)
        state.current_player = me
        state.discards = list(position.discards)
        state.tactics_played = list(tactics_played)
        clock = 0
        for number, stone, seen in zip(STONES, state.stones, position.stones, strict=True):
            stone.modes = set(seen.modes)
            stone.capacity = side_capacity(stone.modes)
            stone.claimed_by = seen.claimed_by
            if (
                seen.claimed_by is None
                and seen.completed_first is None
                and all(seen.is_complete(p) for p in Player)
            ):
                raise TableError(
                    f"stone {number}: both sides are complete, so the game needs to know who"
                    " completed first (add completed_first: you or them)",
                    stone=number,
                )
            order = (
                (seen.completed_first, seen.completed_first.other)
                if seen.completed_first is not None
                else tuple(Player)
            )
            for player in order:
                stone.sides[player].extend(seen.sides[player])
                if len(seen.sides[player]) == stone.capacity:
                    clock += 1
                    stone.completed_at[player] = clock
        state.clock = clock
        state.jokers_played = {p for p in Player if position.has_played_joker(p)}
        state.phase = phase or (Phase.CLAIM if game.expert else Phase.PLAY)
        if state.phase not in (Phase.PLAY, Phase.CLAIM, Phase.DRAW):
            raise TableError(
                f"a table starts at the play, claim or draw step, not the {state.phase.value} step",
                part="table.step",
            )
        reachable = reachability_problems(position)
        if reachable:
            raise reachable[0]
        problem = state.tactics_played_problem(me)
        if problem is not None:
            raise TableError(problem, part="table.tactics_played")
        problems = state.check_invariants()
        if problems:
            raise TableError("; ".join(problems))
        state._turn_so_far(played_this_turn, could_claim_this_turn, idle_turns)
        state._settle()
        return state

    def _turn_so_far(self, played: bool | None, could_claim: bool | None, idle: int | None) -> None:
        """Set, check or derive the facts of the turn in progress that a table cannot show."""
        me, them = self.current_player, self.current_player.other
        expert = self.game.expert
        play_done = self.phase is Phase.DRAW or (self.phase is Phase.CLAIM and not expert)
        claim_done = self.phase is Phase.DRAW or (self.phase is Phase.PLAY and expert)
        if not play_done and played is not None:
            raise TableError(
                f"at the {self.phase.value} step{' of the expert variant' if expert else ''}"
                " you have not played yet, so there is nothing to say about it",
                part="table.passed",
            )
        self._played_this_turn = play_done if played is None else played
        recruited = self.variant.has_tactics and Tactic.RECRUITER in self.discards
        if (
            play_done
            and self._played_this_turn
            and len(self.hands[me]) >= self.variant.hand_size
            and not recruited
        ):
            raise TableError(
                f"you have played a card this turn, so your hand holds at most"
                f" {self.variant.hand_size - 1} cards until the draw (add passed: true if you"
                " passed)",
                part="hand",
            )
        if play_done and not self._played_this_turn and not self._may_pass(me):
            raise TableError(
                "you cannot have passed: you hold a Clan card that has room on your side",
                part="table.passed",
            )
        # Under expert timing a card played after the claim step may have made a stone
        # provable since; the turn is not idle then, so the claim step no longer matters.
        played_since_claim = expert and play_done and self._played_this_turn
        provable_now = bool(claim_done and not played_since_claim and self.provable_stones(me))
        if not claim_done:
            if could_claim is not None:
                raise TableError(
                    f"this turn's claim step is still to come at the {self.phase.value} step,"
                    " so there is nothing to say about it",
                    part="table.could_claim",
                )
        elif played_since_claim:
            self._could_claim_this_turn = bool(could_claim)
        elif could_claim is None:
            if not provable_now and self.stones_held(me):
                raise TableError(
                    "this turn's claim step is over and the board does not show whether you"
                    " could prove a stone there (you hold stones you may have just claimed):"
                    " add could_claim: true or false",
                    part="table.could_claim",
                )
            self._could_claim_this_turn = provable_now
        else:
            if provable_now and not could_claim:
                raise TableError(
                    "could_claim is false, but a stone is provable now, so it was at this"
                    " turn's claim step too",
                    part="table.could_claim",
                )
            self._could_claim_this_turn = could_claim
        they_may_have_passed = self._may_have_passed(them, play_done and self._played_this_turn)
        if idle is None:
            if they_may_have_passed:
                raise TableError(
                    "they may have passed on their last turn, and the board does not show it:"
                    " add idle_turns, the turns in a row before this one in which nobody played"
                    " a card or could prove a stone (0 if their last turn was not one)",
                    part="table.idle_turns",
                )
            idle = 0
        elif idle < 0:
            raise TableError(f"idle_turns cannot be {idle}", part="table.idle_turns")
        elif idle > 0 and not they_may_have_passed:
            reason = (
                "their hand is empty while a deck still holds cards, so they would have drawn"
                if not self.hands[them]
                else "they hold Clan cards and have room for them"
            )
            raise TableError(
                f"idle_turns is {idle}, but they cannot have passed on their last turn: {reason}",
                part="table.idle_turns",
            )
        this_turn_counts = (play_done and self._played_this_turn) or self._could_claim_this_turn
        if idle >= 2 and not this_turn_counts and not self.someone_can_go_on():
            raise TableError(
                f"after {idle} idle turns in a row with nobody able to go on, the game would"
                " already be over",
                part="table.idle_turns",
            )
        self._idle_turns = idle

    # ------------------------------------------------------------------ the fixed interface

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

    def legal_moves(self) -> list[Move]:
        """Every move the current player may make now, in a fixed order.

        This list is the one definition of what is legal: :meth:`apply` accepts exactly these.
        """
        return list(self._listed())

    def apply(self, move: Move) -> None:
        """Carry out ``move`` for the current player if :meth:`legal_moves` lists it, or raise
        :class:`IllegalMove` saying which rule forbids it.

        What is carried out and recorded is the listed move equal to ``move``: a Joker is the one
        in the place it is taken from, and a card number given as ``8.0`` is refused, not
        written onto the board as a float.
        """
        asked = self._as_listed(move)
        listed = self._listed()
        try:
            found: Move | None = listed[listed.index(asked)]
        except (ValueError, TypeError):
            found = None
        # 8.0 == 8, so equal is not enough: the notation tells a real card number from another.
        if found is None or (found is not asked and str(found) != str(asked)):
            raise self.why_illegal(move) or IllegalMove(
                move, "it is not among the legal moves now", "turn.order"
            )
        move = found
        player = self.current_player
        if isinstance(move, Claim):  # a claim step only waits for a choice when one is provable
            self._could_claim_this_turn = True
        self.moves.append(move)
        self.events.append(Event(self.turn, player, str(move)))
        self._carry_out(move)
        self._settle()
        self._legal = None

    def why_illegal(self, move: Move) -> IllegalMove | None:
        """The reason ``move`` is refused here, in words and a rule id; None if nothing forbids
        it. It explains refusals only: a test checks it agrees with :meth:`legal_moves`."""
        try:
            self._check(self._as_listed(move))
        except IllegalMove as refusal:
            return refusal
        return None

    def _listed(self) -> tuple[Move, ...]:
        """The legal moves, in order, kept until the state changes."""
        key = self._cache_key(self.current_player)
        if self._legal is None or self._legal[0] != key:
            self._legal = (key, tuple(self._legal_moves()))
        return self._legal[1]

    def changed(self) -> None:
        """Say that the state was changed by hand (a test rearranging hidden cards, say), not by
        :meth:`apply`: the legal moves and provable stones kept for it are worked out again."""
        self._version += 1

    def _cache_key(self, player: Player) -> _Key:
        """What a cached answer about ``player``'s options depends on: the state's version, bumped
        by every move and forced step (and by :meth:`changed`), and the hand."""
        return (self._version, player, tuple(self.hands[player]))

    def _as_listed(self, move: Move) -> Move:
        """``move`` as the list writes it: the two Jokers play alike, so a Joker names the one
        actually in the place it is taken from (as ``joker`` in the notation does)."""
        if not isinstance(move, Play | Return | Strategist | Banshee | Traitor):
            return move
        if move.card not in JOKERS:
            return move
        me = self.current_player
        if isinstance(move, Play | Return):
            card = held_card(move.card, self.hands[me])
            return Play(card, move.stone) if isinstance(move, Play) else Return(card)
        if isinstance(move, Banshee):
            return Banshee(held_card(move.card, self._side(move.stone, me.other)), move.stone)
        if isinstance(move, Strategist):
            card = held_card(move.card, self._side(move.source, me))
            return Strategist(card, move.source, move.to)
        card = held_card(move.card, self._side(move.source, me.other))
        return Traitor(card, move.source, move.to)

    def _side(self, number: int, player: Player) -> Sequence[Card]:
        """``player``'s side of stone ``number``, or nothing when there is no such stone."""
        return self.stones[number - 1].sides[player] if number in STONES else ()

    def apply_text(self, text: str) -> Move:
        """Read ``text`` as a move (:meth:`parse_move`), apply it, and return it."""
        move = self.parse_move(text)
        self.apply(move)
        return move

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
            first = None
            a, b = stone.completed_at
            if a is not None and b is not None:
                first = Player.A if a < b else Player.B
            stones.append(
                StoneState._without_checks(
                    (tuple(stone.sides[0]), tuple(stone.sides[1])),
                    first,
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

    def stones_held(self, player: Player) -> tuple[int, ...]:
        """The stones ``player`` has claimed (or been awarded)."""
        return tuple(
            n for n, stone in zip(STONES, self.stones, strict=True) if stone.claimed_by is player
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
        position = self.position(player)
        return tuple(
            number
            for number, stone in zip(STONES, self.stones, strict=True)
            if stone.claimed_by is None
            and len(stone.sides[player]) == stone.capacity
            and claim_verdict(position, number).granted
        )

    def clone(self) -> GameState:
        """An independent copy: every field is copied here by name (the slots make a field
        left out fail at once)."""
        other = GameState(self.game, (list(self.hands[0]), list(self.hands[1])), {})
        other.stones = [stone.copy() for stone in self.stones]
        other.decks = {deck: list(cards) for deck, cards in self.decks.items()}
        other.discards = list(self.discards)
        other.tactics_played = list(self.tactics_played)
        other.jokers_played = set(self.jokers_played)
        other.current_player = self.current_player
        other.phase = self.phase
        other.turn = self.turn
        other.clock = self.clock
        other.outcome = self.outcome
        other.moves = list(self.moves)
        other.events = list(self.events)
        other._recruits_left = self._recruits_left
        other._returns_left = self._returns_left
        other._idle_turns = self._idle_turns
        other._played_this_turn = self._played_this_turn
        other._could_claim_this_turn = self._could_claim_this_turn
        other._dealt = self._dealt
        other._version = self._version
        other._legal = self._legal
        other._provable = dict(self._provable)
        return other

    def __repr__(self) -> str:
        if not self._dealt:
            return (
                f"<GameState from a table: turn {self.turn}, player {self.current_player.name},"
                f" {self.phase.value} step, {len(self.moves)} moves since>"
            )
        return f"replay({self.game!r}, {[str(move) for move in self.moves]!r})"

    # ------------------------------------------------------------------ reading moves

    def parse_move(self, text: str) -> Move:
        """Read a move written as :func:`str` writes it, with Jokers resolved from the state."""
        me = self.current_player

        def side(number: int, theirs: bool) -> Sequence[Card]:
            return self._side(number, me.other if theirs else me)

        return read_move(text, self.hands[me], side)

    # ------------------------------------------------------------------ legal moves

    def _legal_moves(self) -> Iterator[Move]:
        me = self.current_player
        if self.phase is Phase.PLAY:
            yield from self._plays()
            if self._may_pass():
                yield Pass()
        elif self.phase is Phase.CLAIM:
            provable = self.provable_stones()
            for size in range(len(provable), -1, -1):
                for stones in combinations(provable, size):
                    yield Claim(stones)
        elif self.phase in (Phase.DRAW, Phase.RECRUITER_DRAW):
            for deck in self._drawable():
                yield Draw(deck)
        elif self.phase is Phase.RECRUITER_RETURN:
            for card in _distinct(self.hands[me]):
                yield Return(card)

    def _open_stones(self) -> list[tuple[int, _Stone]]:
        return [(n, s) for n, s in zip(STONES, self.stones, strict=True) if s.claimed_by is None]

    def _room(self, player: Player) -> list[int]:
        return [n for n, s in self._open_stones() if len(s.sides[player]) < s.capacity]

    def _plays(self) -> Iterator[Move]:
        """The play step's moves: each Clan card to each stone with room, then what each Tactic
        card in hand allows (:mod:`engine.tactic_cards`) while within the tactic limit."""
        me = self.current_player
        room = self._room(me)
        hand = self.hands[me]
        for card in hand:
            if card < len(CARDS):
                for target in room:
                    yield PLAYS[card][target]
        if not self.variant.has_tactics or not self._within_tactic_limit(me):
            return
        for card in _distinct(card for card in hand if card >= len(CARDS)):
            yield from KIND_OF_CARD[card].uses(self, card)

    def _within_tactic_limit(self, player: Player) -> bool:
        return self.tactics_played[player] <= self.tactics_played[player.other]

    def _joker_on_side(self, player: Player) -> bool:
        """Whether ``player`` has played a Joker: the other then stays in hand for good."""
        return player in self.jokers_played

    def _clan_card_playable(self, player: Player) -> bool:
        return any(card < len(CARDS) for card in self.hands[player]) and bool(self._room(player))

    def _may_pass(self, player: Player | None = None) -> bool:
        """Whether ``player`` (the current one by default) may pass: no Clan card can be played.

        In the base game that means an empty hand or no room; in the tactics variant a player
        holding only Tactic cards may pass too. The variant names the rule
        (:attr:`Variant.pass_rule`).
        """
        player = self.current_player if player is None else player
        return not self._clan_card_playable(player)

    def _may_have_passed(self, player: Player, after_a_play: bool) -> bool:
        """Whether ``player``'s last turn, just before this one, may have been a pass.

        A pass is followed by the usual draw, so an empty hand beside a deck to draw from rules
        it out. In the base game a pass needs an empty hand or no room, neither of which a
        later turn undoes. In the tactics variant the card drawn after the pass may be the one
        Clan card they hold now, and a ruse or Mud Fight just played may have made them room.
        """
        hand = self.hands[player]
        if not hand and self._drawable() and not after_a_play:  # a Recruiter refills the decks
            return False
        if not self.variant.has_tactics:
            return self._may_pass(player)
        clan_cards = sum(card < len(CARDS) for card in hand)
        return not self._room(player) or clan_cards <= 1 or after_a_play

    def someone_can_go_on(self) -> bool:
        """Whether a player, judged on the hands as they are now, must play or can prove a stone.

        A player who may pass (no Clan card fits anywhere) cannot go on, even holding a Tactic
        card they could play: passing instead is their right, so the game cannot wait on it.
        """
        return any(not self._may_pass(player) or self.provable_stones(player) for player in Player)

    def _drawable(self) -> list[Deck]:
        return [deck for deck, cards in self.decks.items() if cards]

    # ------------------------------------------------------------------ checking a move

    def _check(self, move: Move) -> None:
        if self.phase is Phase.OVER:
            victory = self.outcome is not None and self.outcome.is_victory
            rule = "turn.victory" if victory else "stalemate.game-ends"
            raise IllegalMove(move, "the game is over", rule)
        me = self.current_player
        card = getattr(move, "card", 0)
        if not isinstance(card, int) or not 0 <= card < 64:
            raise IllegalMove(move, f"there is no card number {card!r}", "components.clan-cards")
        if isinstance(move, Claim):
            self._check_claim(move)
            return
        if isinstance(move, Draw):
            if self.phase not in (Phase.DRAW, Phase.RECRUITER_DRAW):
                raise IllegalMove(
                    move, f"no card is drawn in the {self.phase.value} step", "turn.order"
                )
            if move.deck not in self.decks:
                raise IllegalMove(move, "the base game has no Tactic deck", "turn.draw")
            if not self.decks[move.deck]:
                raise IllegalMove(move, f"the {move.deck.value} deck is empty", "turn.empty-deck")
            return
        if isinstance(move, Return):
            if self.phase is not Phase.RECRUITER_RETURN:
                raise IllegalMove(move, "cards go back only for a Recruiter", "tactics.recruiter")
            if move.card not in self.hands[me]:
                raise IllegalMove(
                    move, f"{card_name(move.card)} is not in your hand", "tactics.recruiter"
                )
            return
        if self.phase is not Phase.PLAY:
            rule = (
                "turn.expert-variant"
                if self.game.expert and self.phase is Phase.CLAIM
                else "turn.order"
            )
            raise IllegalMove(
                move, f"cards are played in the play step, not the {self.phase.value} step", rule
            )
        if isinstance(move, Pass):
            if not self._may_pass():
                raise IllegalMove(move, "you can still play a Clan card", self.variant.pass_rule)
            return
        card = move.card if isinstance(move, Play) else RUSE_OF_MOVE[type(move)]
        if card not in self.hands[me]:
            raise IllegalMove(move, f"{card_name(card)} is not in your hand", "turn.play-card")
        if card >= len(CARDS) and not self._within_tactic_limit(me):
            raise IllegalMove(
                move,
                f"you have played {self.tactics_played[me]} Tactic cards and your opponent"
                f" {self.tactics_played[me.other]}",
                "tactics.limit",
            )
        if card < len(CARDS):
            assert isinstance(move, Play)
            self._check_room(move, move.stone, "turn.play-card")
        elif isinstance(move, Play) and card not in ELITE_TROOPS | COMBAT_MODE_CARDS:
            raise IllegalMove(
                move, f"{card_name(card)} is a ruse: write it as a ruse", "components.tactic-kinds"
            )
        else:
            KIND_OF_CARD[card].check(self, move)

    def _check_open(self, move: Move, number: int, rule: str = "tactics.ruse-targets") -> _Stone:
        if number not in STONES:
            raise IllegalMove(move, f"there is no stone {number}", "components.stones")
        stone = self.stones[number - 1]
        if stone.claimed_by is not None:
            raise IllegalMove(move, f"stone {number} is claimed", rule)
        return stone

    def _check_room(self, move: Move, number: int, rule: str) -> None:
        stone = self._check_open(move, number, "claim.claimed-stone-closed")
        if len(stone.sides[self.current_player]) >= stone.capacity:
            raise IllegalMove(move, f"your side of stone {number} is full", rule)

    def _explain_passed_claim_step(self, move: Claim) -> None:
        """A claim just after the engine passed the claim step for want of a provable stone."""
        passed = self.phase is Phase.DRAW and not self._could_claim_this_turn
        if not passed or not move.stones or move.stones[0] not in STONES:
            return
        verdict = claim_verdict(self.position(self.current_player), move.stones[0])
        raise IllegalMove(
            move,
            "the claim step is over: no stone could be proved, so the engine passed it (claim"
            f" nothing); stone {verdict.stone}: {verdict.explanation}",
            CLAIM_RULES.get(verdict.reason, "turn.order"),
        )

    def _check_claim(self, move: Claim) -> None:
        if self.phase is not Phase.CLAIM:
            if self.game.expert:
                raise IllegalMove(
                    move,
                    "in the expert variant claims come at the start of the turn",
                    "turn.expert-variant",
                )
            self._explain_passed_claim_step(move)
            raise IllegalMove(move, f"no claim in the {self.phase.value} step", "turn.order")
        if len(set(move.stones)) != len(move.stones):
            raise IllegalMove(move, "a stone is named twice", "claim.several-at-once")
        position = self.position(self.current_player)
        for number in move.stones:
            if not isinstance(number, int) or number not in STONES:
                raise IllegalMove(move, f"there is no stone {number}", "components.stones")
            verdict = claim_verdict(position, number)
            if not verdict.granted:
                raise IllegalMove(
                    move, f"stone {number}: {verdict.explanation}", CLAIM_RULES[verdict.reason]
                )

    # ------------------------------------------------------------------ carrying a move out

    def _carry_out(self, move: Move) -> None:
        self._version += 1
        me = self.current_player
        if isinstance(move, Claim):
            for number in move.stones:
                self.stones[number - 1].claimed_by = me
            if self._check_victory(me):
                return
            self.phase = Phase.PLAY if self.game.expert else Phase.DRAW
            return
        if isinstance(move, Draw):
            self.hands[me].append(self.decks[move.deck].pop())
            if self.phase is Phase.RECRUITER_DRAW:
                self._recruits_left -= 1
            else:
                self._end_turn()
            return
        if isinstance(move, Return):
            self.hands[me].remove(move.card)
            self.decks[Deck.of(move.card)].insert(0, move.card)
            self._returns_left -= 1
            return
        if isinstance(move, Pass):
            self._after_play()
            return
        self._played_this_turn = True
        card = move.card if isinstance(move, Play) else RUSE_OF_MOVE[type(move)]
        self.hands[me].remove(card)
        if card < len(CARDS):
            assert isinstance(move, Play)
            self._add(move.stone, me, card)
        else:
            self.tactics_played[me] += 1
            KIND_OF_CARD[card].carry_out(self, move)
        if self.phase is Phase.PLAY:  # not after a Recruiter, whose own steps follow
            self._after_play()

    def _start_recruiting(self) -> None:
        """The Recruiter's steps follow: draw up to three cards, then put two back."""
        self._recruits_left = 3
        self._returns_left = 2
        self.phase = Phase.RECRUITER_DRAW

    def _add(self, number: int, player: Player, card: Card) -> None:
        stone = self.stones[number - 1]
        stone.sides[player].append(card)
        self.clock += 1
        if len(stone.sides[player]) == stone.capacity:
            stone.completed_at[player] = self.clock

    def _remove(self, number: int, player: Player, card: Card) -> None:
        stone = self.stones[number - 1]
        stone.sides[player].remove(card)
        stone.completed_at[player] = None

    def _after_play(self) -> None:
        if self.game.expert:
            self.phase = Phase.DRAW
        else:
            self.phase = Phase.CLAIM

    def _check_victory(self, player: Player) -> bool:
        if self._has_won(player):
            five = len(self.stones_held(player)) >= 5
            how = Termination.FIVE_STONES if five else Termination.THREE_ADJACENT_STONES
            self.outcome = Outcome(how, player)
            self.phase = Phase.OVER
            return True
        return False

    def _has_won(self, player: Player) -> bool:
        return has_won(set(self.stones_held(player)))

    def _end_turn(self) -> None:
        self._version += 1
        if self._played_this_turn or self._could_claim_this_turn:
            self._idle_turns = 0
        else:
            self._idle_turns += 1
            if self._idle_turns >= 2 and not self.someone_can_go_on():
                self._stalemate()
                return
        self.current_player = self.current_player.other
        self.turn += 1
        self._played_this_turn = self._could_claim_this_turn = False
        self.phase = Phase.CLAIM if self.game.expert else Phase.PLAY

    def _stalemate(self) -> None:
        """Nobody can go on: award the open stones, then look for a winner."""
        self._version += 1
        for number, stone in self._open_stones():
            complete = [len(stone.sides[p]) == stone.capacity for p in Player]
            if complete[0] != complete[1]:
                stone.claimed_by = Player.A if complete[0] else Player.B
            else:
                totals = [_award_total(stone.sides[p]) for p in Player]
                if totals[0] != totals[1]:
                    stone.claimed_by = Player.A if totals[0] > totals[1] else Player.B
            if stone.claimed_by is not None:
                self.events.append(
                    Event(self.turn, stone.claimed_by, f"receives stone {number}", forced=True)
                )
        winners = [player for player in Player if self._has_won(player)]
        self.phase = Phase.OVER
        if len(winners) == 1:
            self.outcome = Outcome(Termination.STALEMATE_AWARD, winners[0])
        elif winners:
            self.outcome = Outcome(Termination.AWARD_GIVES_BOTH_A_WIN)
        else:
            self.outcome = Outcome(Termination.NOBODY_WINS_AFTER_THE_AWARD)

    # ------------------------------------------------------------------ forced steps

    def _settle(self) -> None:
        """Carry out every step that leaves the current player no choice."""
        while self.phase is not Phase.OVER:
            me = self.current_player
            if self.phase is Phase.RECRUITER_DRAW:
                if self._recruits_left == 0 or not self._drawable():
                    self._recruits_left = 0
                    self._returns_left = min(self._returns_left, len(self.hands[me]))
                    self.phase = Phase.RECRUITER_RETURN
                    continue
                if len(self._drawable()) == 1:
                    self._forced(Draw(self._drawable()[0]))
                    continue
                return
            if self.phase is Phase.RECRUITER_RETURN:
                if self._returns_left == 0:
                    self._after_play()
                    continue
                return
            if self.phase is Phase.CLAIM:
                if not self.provable_stones():
                    self._forced(Claim())
                    continue
                return
            if self.phase is Phase.DRAW:
                drawable = self._drawable()
                if len(self.hands[me]) >= self.variant.hand_size or not drawable:
                    self.events.append(Event(self.turn, me, "no draw", forced=True))
                    self._end_turn()
                    continue
                if len(drawable) == 1:
                    self._forced(Draw(drawable[0]))
                    continue
                return
            if self.phase is Phase.PLAY:
                if next(self._plays(), None) is None:
                    self._forced(Pass())
                    continue
                return

    def _forced(self, move: Move) -> None:
        self.events.append(Event(self.turn, self.current_player, str(move), forced=True))
        self._carry_out(move)

    # ------------------------------------------------------------------ checks

    def check_invariants(self) -> list[str]:
        """Every broken invariant, in words: each card of the game in exactly one place, and
        each player's view a position that can exist (:meth:`Position.status`: no side over
        capacity, one Joker a player on the border, a hand within its size...), and each Joker
        that has left the border remembered as played by its owner."""
        problems = []
        counted: dict[Card, int] = dict.fromkeys(self.variant.cards, 0)
        for card in self._all_places():
            counted[card] = counted.get(card, 0) + 1
        for card, count in counted.items():
            if count != 1:
                problems.append(f"{card_name(card)} is in {count} places")
        tactics_problem = self.tactics_played_problem(self.current_player)
        if tactics_problem is not None:
            problems.append(tactics_problem)
        for player in Player:
            position = self.position(player)
            for problem in [*position.status(), joker_problem(position)]:
                if problem is None or isinstance(problem, DuplicateCard):
                    continue
                if str(problem) not in problems:
                    problems.append(str(problem))
        return problems

    def tactics_played_problem(self, viewer: Player) -> str | None:
        """Why the count of Tactic cards each player has played cannot be true, in ``viewer``'s
        words, or None. Every Tactic card played stays face up (on a side, on its stone or in
        the discards), elite troops stay on their owner's side unless moved to the discards,
        and the tactic limit keeps the two counts at most one apart."""
        mine, theirs = self.tactics_played[viewer], self.tactics_played[viewer.other]
        if abs(mine - theirs) > 1:
            return (
                f"{mine} Tactic cards against {theirs}: the tactic limit keeps the two counts at"
                " most one apart"
            )
        for player, name, whose in ((viewer, "you", "your"), (viewer.other, "them", "their")):
            troops = sum(
                card in ELITE_TROOPS for stone in self.stones for card in stone.sides[player]
            )
            if troops > self.tactics_played[player]:
                lie = "elite troops lie" if troops != 1 else "elite troop lies"
                return (
                    f"{troops} {lie} on {whose} side, but tactics_played says {name}"
                    f" played {self.tactics_played[player]}"
                )
        face_up = sum(TACTICS_MASK >> card & 1 for card in self.discards) + sum(
            len(stone.modes) + sum(card in ELITE_TROOPS for side in stone.sides for card in side)
            for stone in self.stones
        )
        if face_up != mine + theirs:
            lie = "s lie" if face_up != 1 else " lies"
            return (
                f"{face_up} Tactic card{lie} face up, but tactics_played counts {mine + theirs}:"
                " every Tactic card played stays face up (on a side, on its stone or in the"
                " discards), so the two must be equal"
            )
        return None

    def _all_places(self) -> Iterable[Card]:
        yield from self.hands[0]
        yield from self.hands[1]
        for cards in self.decks.values():
            yield from cards
        yield from self.discards
        for stone in self.stones:
            yield from stone.sides[0]
            yield from stone.sides[1]
            for mode in stone.modes:
                yield MODE_CARDS[mode]


CLAIM_RULES = {
    Reason.STONE_CLAIMED: "claim.claimed-stone-closed",
    Reason.INCOMPLETE_SIDE: "claim.own-side-complete",
    Reason.WEAKER_FORMATION: "claim.beat-complete-side",
    Reason.TIE_COMPLETED_LATER: "formations.tie-break",
    Reason.WITNESS: "claim.prove-incomplete-side",
}
"""The rule a refused claim breaks, by the reason the proof gives."""

RULES_NAMED = frozenset(
    {
        *CLAIM_RULES.values(),
        "components.clan-cards",
        "components.stones",
        "components.tactic-kinds",
        "stalemate.game-ends",
        "claim.several-at-once",
        "stalemate.base-pass",
        "tactics.banshee",
        "tactics.blind-mans-bluff",
        "tactics.limit",
        "tactics.mud-fight",
        "tactics.one-joker-per-player",
        "tactics.passing",
        "tactics.recruiter",
        "tactics.ruse-targets",
        "tactics.strategist",
        "tactics.traitor",
        "turn.draw",
        "turn.empty-deck",
        "turn.expert-variant",
        "turn.order",
        "turn.play-card",
        "turn.victory",
    }
)
"""Every rule id an :class:`IllegalMove` can name; a test checks each is in the rules index."""


def _distinct(cards: Iterable[Card]) -> list[Card]:
    """The cards, with any Joker after the first dropped: the two Jokers play alike, and which
    one comes first in the hand (not its number) keeps the order of the moves."""
    kept: list[Card] = []
    for card in cards:
        if not (card in JOKERS and any(other in JOKERS for other in kept)):
            kept.append(card)
    return kept


def _award_total(cards: Sequence[Card]) -> int:
    """A side's total for the stalemate award, each elite troop at its highest value."""
    return sum(max(WILD_VALUES[card]) if card in WILD_VALUES else card % 9 + 1 for card in cards)


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
    "Termination",
]
