"""Several rounds (an option): the scoring of each round and who starts the next.

The winner of a round scores 5 points and the loser one point per stone they hold. The winner of a
round starts the next one. What a drawn round scores and who starts after it are rulings
(:mod:`engine.proof.rulings`). Each round shuffles with its own seed, derived from the match's seed,
so a match replays exactly.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.game.interface import Game, GameState
from engine.proof.pieces import Player
from engine.proof.rulings import RULINGS, DrawnRoundPoints, DrawnRoundStarter, Rulings
from engine.proof.variants import Variant

WIN_POINTS = 5


@dataclass(frozen=True)
class RoundResult:
    """One finished round: who started, who won (None for a draw), and the points scored.
    For example:

        >>> from engine import Match, Player
        >>> Match(rounds=3).record_result(starter=Player.A, winner=None, stones=(4, 4))
        RoundResult(starter=<Player.A: 0>, winner=None, stones=(4, 4), points=(4, 4))
    """

    starter: Player
    winner: Player | None
    stones: tuple[int, int]
    points: tuple[int, int]


def round_points(
    winner: Player | None, stones: tuple[int, int], rulings: Rulings = RULINGS
) -> tuple[int, int]:
    """The points of a round: 5 to the winner, a stone a point to the loser; for a drawn round,
    what ``rulings`` give.

        >>> from engine import Player, round_points
        >>> round_points(Player.B, stones=(2, 3)), round_points(None, stones=(4, 4))
        ((2, 5), (4, 4))
    """
    if winner is None:
        return stones if rulings.drawn_round_points is DrawnRoundPoints.STONES_HELD else (0, 0)
    points = [stones[0], stones[1]]
    points[winner] = WIN_POINTS
    return (points[0], points[1])


@dataclass
class Match:
    """A match of ``rounds`` rounds: play each :meth:`next_round`, then :meth:`record` it.
    For example:

        >>> import random
        >>> from engine import Match, random_move
        >>> match = Match(rounds=1, seed=3)
        >>> state, rng = match.next_round(), random.Random(3)
        >>> while not state.is_over:
        ...     state.apply(random_move(state, rng))
        >>> match.record(state)
        RoundResult(starter=<Player.A: 0>, winner=<Player.A: 0>, stones=(4, 4), points=(5, 4))
        >>> match.scores, match.is_over, match.winner
        ((5, 4), True, <Player.A: 0>)
    """

    rounds: int
    variant: Variant = field(default_factory=Variant)
    expert: bool = False
    first_player: Player = Player.A
    seed: int | str = 0
    results: list[RoundResult] = field(default_factory=list)
    rulings: Rulings = RULINGS

    def __post_init__(self) -> None:
        if self.rounds < 1:
            raise ValueError(f"a match has at least one round, not {self.rounds}")

    @property
    def is_over(self) -> bool:
        """Whether every round has been played."""
        return len(self.results) >= self.rounds

    @property
    def next_starter(self) -> Player:
        """Who starts the next round: the first player, then the last winner; after a drawn
        round, whom the rulings name."""
        if not self.results:
            return self.first_player
        last = self.results[-1]
        if last.winner is not None:
            return last.winner
        other = self.rulings.drawn_round_starter is DrawnRoundStarter.OTHER_PLAYER
        return last.starter.other if other else last.starter

    def next_round(self) -> GameState:
        """The next round's opening state, shuffled with the round's own seed."""
        if self.is_over:
            raise ValueError("the match is over")
        game = Game(
            self.variant,
            self.expert,
            self.next_starter,
            f"{self.seed}/round {len(self.results) + 1}",
            self.rulings,
        )
        return game.new_initial_state()

    def record(self, state: GameState) -> RoundResult:
        """Score a finished round and remember it."""
        if not state.is_over:
            raise ValueError("the round is not over yet")
        stones = (len(state.stones_held(Player.A)), len(state.stones_held(Player.B)))
        return self.record_result(state.game.first_player, state.winner, stones)

    def record_result(
        self, starter: Player, winner: Player | None, stones: tuple[int, int]
    ) -> RoundResult:
        """Score a round told by who started it, who won (None for a draw) and the stones each
        player held, and remember it. The starter must be the one the match gives the round."""
        if self.is_over:
            raise ValueError("the match is over")
        if starter is not self.next_starter:
            raise ValueError(
                f"round {len(self.results) + 1} is started by {self.next_starter.name},"
                f" not {starter.name}"
            )
        result = RoundResult(starter, winner, stones, round_points(winner, stones, self.rulings))
        self.results.append(result)
        return result

    @property
    def scores(self) -> tuple[int, int]:
        """Each player's points so far."""
        return (
            sum(result.points[0] for result in self.results),
            sum(result.points[1] for result in self.results),
        )

    @property
    def winner(self) -> Player | None:
        """The player with most points once the match is over; None while playing or if equal."""
        a, b = self.scores
        if not self.is_over or a == b:
            return None
        return Player.A if a > b else Player.B
