"""Several rounds (an option): the scoring of each round and who starts the next.

The winner of a round scores 5 points and the loser one point per stone they hold; after a drawn
round each player scores their stones. The winner of a round starts the next one; after a drawn
round (our ruling) the player who did not start it starts the next. Each round shuffles with its
own seed, derived from the match's seed, so a match replays exactly.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.game import Game, GameState
from engine.position import Player, Variant

WIN_POINTS = 5


@dataclass(frozen=True)
class RoundResult:
    """One finished round: who started, who won (None for a draw), and the points scored."""

    starter: Player
    winner: Player | None
    stones: tuple[int, int]
    points: tuple[int, int]


def round_points(winner: Player | None, stones: tuple[int, int]) -> tuple[int, int]:
    """The points of a round: 5 to the winner, a stone a point to the loser (to both if drawn)."""
    if winner is None:
        return stones
    points = [stones[0], stones[1]]
    points[winner] = WIN_POINTS
    return (points[0], points[1])


@dataclass
class Match:
    """A match of ``rounds`` rounds: play each :meth:`next_round`, then :meth:`record` it."""

    rounds: int
    variant: Variant = field(default_factory=Variant)
    expert: bool = False
    first_player: Player = Player.A
    seed: int | str = 0
    results: list[RoundResult] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.rounds < 1:
            raise ValueError(f"a match has at least one round, not {self.rounds}")

    @property
    def is_over(self) -> bool:
        """Whether every round has been played."""
        return len(self.results) >= self.rounds

    @property
    def next_starter(self) -> Player:
        """Who starts the next round: the first player, then the last winner (see the ruling)."""
        if not self.results:
            return self.first_player
        last = self.results[-1]
        return last.winner if last.winner is not None else last.starter.other

    def next_round(self) -> GameState:
        """The next round's opening state, shuffled with the round's own seed."""
        if self.is_over:
            raise ValueError("the match is over")
        game = Game(
            self.variant,
            self.expert,
            self.next_starter,
            f"{self.seed}/round {len(self.results) + 1}",
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
        result = RoundResult(starter, winner, stones, round_points(winner, stones))
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
