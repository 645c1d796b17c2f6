"""The claim verdict: granted or refused, with the reason and, for a failed proof, a witness.

A claim on an incomplete opposing side is proved by :func:`strongest_completion` over the cards out
of sight (the deck, the opponent's hand and the claimant's own hand): the claim holds when even the
opponent's best completion does not beat the claimant, since a tie goes to the side completed first
and the claimant's side is already complete.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from engine.cards import Card, card_name
from engine.formations import Completion, describe, strength, strongest_completion
from engine.position import Player, Position, PositionError, check_stone


class Verdict(Enum):
    """The engine's answer to a claim."""

    GRANTED = "granted"
    REFUSED = "refused"

    @property
    def label(self) -> str:
        """``granted`` or ``refused``, as cases write it."""
        return self.value


class Reason(Enum):
    """Why a claim was granted or refused."""

    STONE_CLAIMED = "stone already claimed"
    INCOMPLETE_SIDE = "incomplete side"
    WEAKER_FORMATION = "weaker formation"
    TIE_COMPLETED_LATER = "tie lost on completion order"
    WITNESS = "a completion out of sight beats it"
    STRONGER_FORMATION = "stronger formation"
    TIE_COMPLETED_FIRST = "tie won on completion order"
    UNBEATABLE = "no completion out of sight beats it"
    NO_COMPLETION = "their side can never be completed"

    @property
    def verdict(self) -> Verdict:
        """The verdict this reason leads to."""
        granted = {
            Reason.STRONGER_FORMATION,
            Reason.TIE_COMPLETED_FIRST,
            Reason.UNBEATABLE,
            Reason.NO_COMPLETION,
        }
        return Verdict.GRANTED if self in granted else Verdict.REFUSED


class UnsupportedPosition(PositionError):
    """A position whose exact verdict needs rules this engine does not implement yet."""


class DuplicateClaim(PositionError):
    """The same stone claimed twice in one step."""


@dataclass(frozen=True)
class ClaimVerdict:
    """The verdict on one claimed stone, with its reason in words.

    ``witness`` holds the cards that would complete the opponent's side and beat the claimant (a
    refusal by :attr:`Reason.WITNESS`); ``best_reply`` is the opponent's strongest completion
    whenever their side was incomplete, which for a grant shows how close they could come.
    ``witness_in_hand`` lists the witness cards that sit in the claimant's own hand.
    """

    stone: int
    reason: Reason
    explanation: str
    witness: tuple[Card, ...] = ()
    witness_in_hand: tuple[Card, ...] = ()
    best_reply: Completion | None = None

    @property
    def verdict(self) -> Verdict:
        """Granted or refused."""
        return self.reason.verdict

    @property
    def granted(self) -> bool:
        """Whether the claim holds."""
        return self.reason.verdict is Verdict.GRANTED


def _names(cards: Iterable[Card]) -> str:
    return ", ".join(card_name(card) for card in cards)


def claim_verdict(position: Position, stone: int) -> ClaimVerdict:
    """Judge the viewer's claim on ``stone`` (1 to 9) in ``position``."""
    state = position.stone(check_stone(stone))
    claimant = position.viewer
    opponent = claimant.other
    if state.claimed_by is not None:
        whose = "you" if state.claimed_by is claimant else "they"
        return ClaimVerdict(
            stone,
            Reason.STONE_CLAIMED,
            f"{whose} already hold stone {stone}; a claimed stone is closed for the rest of the game",
        )
    mine, theirs, modes = state.side(claimant), state.side(opponent), state.modes
    if len(mine) < state.capacity:
        return ClaimVerdict(
            stone,
            Reason.INCOMPLETE_SIDE,
            f"your side of stone {stone} has {len(mine)} of the {state.capacity} cards it needs;"
            " an incomplete side can never be claimed",
        )
    my_strength = strength(mine, modes)
    if len(theirs) == state.capacity:
        return _judge_complete_sides(stone, position, my_strength)
    if position.variant.has_tactics:
        raise UnsupportedPosition(
            f"stone {stone}: proving a claim against an incomplete side in the tactics variant"
            " needs the elite troops out of sight, which this engine does not model yet"
        )

    pool = position.out_of_sight_mask()
    best = strongest_completion(theirs, pool, modes)
    missing = state.capacity - len(theirs)
    if best is None:
        return ClaimVerdict(
            stone,
            Reason.NO_COMPLETION,
            f"fewer than {missing} cards remain out of sight, so their side can never be completed",
        )
    if best.strength > my_strength:
        in_hand = tuple(card for card in best.added if card in position.hand)
        hand_note = (
            f"; {_names(in_hand)} {'is' if len(in_hand) == 1 else 'are'} in your hand, which proves"
            " nothing, since your hand is out of sight too"
            if in_hand
            else ""
        )
        return ClaimVerdict(
            stone,
            Reason.WITNESS,
            f"they could still add {_names(best.added)} and make"
            f" {describe(theirs + best.added, modes)}, which beats your {describe(mine, modes)}"
            + hand_note,
            witness=best.added,
            witness_in_hand=in_hand,
            best_reply=best,
        )
    outcome = (
        "would only tie, and they would complete after you"
        if best.strength == my_strength
        else "falls short"
    )
    return ClaimVerdict(
        stone,
        Reason.UNBEATABLE,
        f"no completion from the cards out of sight beats your {describe(mine, modes)}:"
        f" their best, adding {_names(best.added)}, makes {describe(theirs + best.added, modes)}"
        f" and {outcome}",
        best_reply=best,
    )


def _judge_complete_sides(stone: int, position: Position, my_strength: int) -> ClaimVerdict:
    state = position.stone(stone)
    claimant = position.viewer
    mine, theirs = state.side(claimant), state.side(claimant.other)
    their_strength = strength(theirs, state.modes)
    mine_text, theirs_text = describe(mine, state.modes), describe(theirs, state.modes)
    if my_strength > their_strength:
        return ClaimVerdict(
            stone, Reason.STRONGER_FORMATION, f"your {mine_text} beats their {theirs_text}"
        )
    if my_strength < their_strength:
        return ClaimVerdict(
            stone, Reason.WEAKER_FORMATION, f"their {theirs_text} beats your {mine_text}"
        )
    if state.completed_first is claimant:
        return ClaimVerdict(
            stone,
            Reason.TIE_COMPLETED_FIRST,
            f"your {mine_text} ties with their {theirs_text}, and you completed your side first",
        )
    return ClaimVerdict(
        stone,
        Reason.TIE_COMPLETED_LATER,
        f"your {mine_text} ties with their {theirs_text}, and they completed their side first",
    )


def claim_verdicts(position: Position, stones: Iterable[int]) -> tuple[ClaimVerdict, ...]:
    """Judge several stones claimed in the same step, each on its own."""
    stones = tuple(stones)
    for index, stone in enumerate(stones):
        if stone in stones[:index]:
            raise DuplicateClaim(f"stone {stone} is claimed twice in the same step")
    return tuple(claim_verdict(position, stone) for stone in stones)


__all__ = [
    "ClaimVerdict",
    "DuplicateClaim",
    "Player",
    "Reason",
    "UnsupportedPosition",
    "Verdict",
    "claim_verdict",
    "claim_verdicts",
]
