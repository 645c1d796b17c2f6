"""The plain values a game hands out: its phase, how it ended, its settings, what one player
sees, and the entries of its log.

:class:`~engine.game.play_state.PlayState` holds and makes them (and names them too); the game's
interface, :mod:`engine.game.interface`, passes them to its callers.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.frozen import IdentityEnum
from engine.game.moves import Deck
from engine.proof.pieces import Player
from engine.proof.position import Position
from engine.proof.rulings import RULINGS, Rulings
from engine.proof.variants import Variant


class Phase(IdentityEnum):
    """Where the current player is in their turn.
    For example:

        >>> from engine import Game, Phase
        >>> Game.named("base", seed=1).new_initial_state().phase, Phase.DRAW.value
        (<Phase.PLAY: 'play'>, 'draw')
    """

    PLAY = "play"
    CLAIM = "claim"
    DRAW = "draw"
    RECRUITER_DRAW = "recruiter draw"
    RECRUITER_RETURN = "recruiter return"
    OVER = "over"


class Termination(IdentityEnum):
    """How a game ended: a victory on the border, or the stalemate award and what it gave.
    For example:

        >>> from engine import Termination
        >>> Termination.THREE_ADJACENT_STONES, Termination.THREE_ADJACENT_STONES.value
        (<Termination.THREE_ADJACENT_STONES: 'three adjacent stones'>, 'three adjacent stones')
    """

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
    """How a game ended and who won (None for a draw). ``str`` gives the reason in words.
    For example:

        >>> from engine import Outcome, Player, Termination
        >>> outcome = Outcome(Termination.FIVE_STONES, Player.B)
        >>> str(outcome), outcome.winner, outcome.is_victory
        ('five stones', <Player.B: 1>, True)
    """

    termination: Termination
    winner: Player | None = None

    @property
    def is_victory(self) -> bool:
        return self.termination.is_victory

    def __str__(self) -> str:
        return self.termination.value


@dataclass(frozen=True)
class GameSettings:
    """The parameters of a game: the variant, expert timing, who starts, the shuffle's seed,
    and the rulings it is played by. :class:`engine.game.interface.Game` adds how a game starts."""

    variant: Variant = field(default_factory=Variant)
    expert: bool = False
    first_player: Player = Player.A
    seed: int | str = 0
    rulings: Rulings = RULINGS


@dataclass(frozen=True)
class PlayerView:
    """What one player can see: the table and their hand as a :class:`Position`, and the counts.
    For example:

        >>> from engine import Game, Player
        >>> view = Game.named("tactics", seed=44).new_initial_state().view(Player.A)
        >>> len(view.position.hand), view.their_hand_size, view.deck_sizes
        (7, 7, {<Deck.CLAN: 'clan'>: 40, <Deck.TACTICS: 'tactics'>: 10})
    """

    position: Position
    deck_sizes: dict[Deck, int]
    their_hand_size: int
    tactics_played: tuple[int, int]
    current_player: Player
    phase: Phase


@dataclass(frozen=True)
class Event:
    """One thing that happened, in order: a move a player chose, or a step the rules forced.
    For example:

        >>> from engine import Event, Game
        >>> state = Game.named("base", seed=1).new_initial_state()
        >>> state.apply_text("red 9 on 9")
        Play(card=8, stone=9)
        >>> state.events[-1]  # the draw that ends the turn, which the rules make
        Event(turn=1, player=<Player.A: 0>, text='draw clan', forced=True)
    """

    turn: int
    player: Player
    text: str
    forced: bool = False

    @classmethod
    def logged(cls, turn: int, player: Player, text: str, forced: bool = False) -> Event:
        """``Event(turn, player, text, forced)``, made for the game's log at about half the cost:
        a game logs two or three a move, and a frozen dataclass's constructor sets each field
        through ``object.__setattr__``; this one fills the new event's fields at once."""
        event = _new_object(cls)
        fields = event.__dict__
        fields["turn"], fields["player"], fields["text"] = turn, player, text
        fields["forced"] = forced
        return event


_new_object = object.__new__
