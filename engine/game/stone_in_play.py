"""One stone during a game: its two sides, when each was completed, its combat modes and owner.

The game state (:mod:`engine.game.play_state`) holds nine; the claim step
(:mod:`engine.game.provable`) and the move rules (:mod:`engine.game.move_rules`) read them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.cards.card import Card
from engine.cards.formations import CombatMode, side_capacity
from engine.proof.pieces import Player


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
        """An independent copy (the game state's clone copies each stone by it)."""
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


__all__ = ["StoneInPlay"]
