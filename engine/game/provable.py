"""The stones a player can prove at the claim step of a game, each by the claim proof, with the
refutations of earlier refused claims kept to skip a proof whose answer cannot have changed.

The game state (:mod:`engine.game.play_state`) asks it and owns the refutations it keeps.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards.card import Card, is_clan_card, mask_of
from engine.cards.tactics import ELITE_TROOPS
from engine.game.stone_in_play import StoneInPlay
from engine.proof.claims import stone_verdict, unseen_elite_troops
from engine.proof.pieces import Player, StoneState
from engine.proof.rulings import Rulings
from engine.proof.variants import Variant

_Refutation = tuple[int, int, tuple[Card, ...]]
"""The mark of the stone's last change when a claim on it was refused (the game state keeps a
mark per stone, bumped by each change of it, so its sides, modes, owner and who completed first
stay the same while the mark does), the cards of the completion that refuted the claim (a mask),
and the elite troops among them; for a stone whose two sides were complete, no cards: the board
alone refused it."""

Refutations = dict[tuple[Player, int], _Refutation]
"""The refutation last found for each player's claim on each stone."""


def prove_stones(
    stones: Sequence[StoneInPlay],
    changed_at: Sequence[int],
    numbers: Sequence[int],
    player: Player,
    hand: Sequence[Card],
    variant: Variant,
    face_up: int,
    jokers_played: set[Player],
    rulings: Rulings,
    refuted: Refutations,
) -> tuple[int, ...]:
    """The stones ``player`` can prove among ``numbers`` (the open ones where their side is
    complete), each judged by the claim proof on the table as it
    is (:func:`engine.proof.claims.stone_verdict`). A stone refused before (``refuted``, which
    this keeps) is refused again without a proof while it is unchanged (``changed_at``, by
    stone, the mark of its last change) and the completion that
    refuted the claim can still be made: its cards are still out of sight, and its elite troops
    still the opponent's to play. That completion still beats the claimant's side."""
    unseen = -1  # the cards out of sight, worked out when a proof first needs them
    troops: tuple[Card, ...] = ()
    proved = []
    other = player.other
    for number in numbers:
        stone = stones[number - 1]
        mark = changed_at[number - 1]
        settled = len(stone.sides[other]) == stone.capacity
        if unseen < 0 and not settled:
            unseen = variant.card_mask & ~face_up
            # The game records every Joker played (a test checks it agrees with the
            # position's).
            troops = _elite_troops(unseen, other in jokers_played)
        kept = refuted.get((player, number))
        judged = settled or unseen >= 0  # what the kept refutation needs is known
        if kept is not None and judged and _still_refutes(kept, mark, unseen, troops):
            continue
        sides = (tuple(stone.sides[0]), tuple(stone.sides[1]))
        state = StoneState._without_checks(
            sides, stone.completed_first, frozenset(stone.modes), None
        )
        verdict = stone_verdict(number, state, player, hand, max(unseen, 0), troops, rulings)
        if verdict.granted:
            proved.append(number)
        elif verdict.best_reply is not None:
            added = verdict.best_reply.added
            refuting = tuple(card for card in added if not is_clan_card(card))
            refuted[(player, number)] = (mark, mask_of(added), refuting)
        elif settled:  # both sides complete: refused again while the stone stays as it is
            refuted[(player, number)] = (mark, 0, ())
    return tuple(proved)


def _still_refutes(kept: _Refutation, mark: int, unseen: int, troops: tuple[Card, ...]) -> bool:
    """Whether the completion ``kept`` can still be made on the stone, unchanged since ``mark``
    the refutation was found: its cards out of sight, and its elite troops among ``troops``,
    those the opponent can still play."""
    was, witness, refuting = kept
    if was != mark or witness & unseen != witness:
        return False
    return not refuting or set(refuting) <= set(troops)


def _elite_troops(unseen: int, joker_played: bool) -> tuple[Card, ...]:
    """:func:`engine.proof.claims.unseen_elite_troops`, worked out once for each set of unseen
    elite troops: a claim step asks it whenever a side is open."""
    key = (unseen & _TROOPS_MASK, joker_played)
    troops = _TROOPS.get(key)
    if troops is None:
        troops = _TROOPS[key] = unseen_elite_troops(*key)
    return troops


_TROOPS_MASK = mask_of(ELITE_TROOPS)
_TROOPS: dict[tuple[int, bool], tuple[Card, ...]] = {}


__all__ = ["Refutations", "prove_stones"]
