"""The stones a player can prove at the claim step of a game, each by the claim proof, with the
refutations of earlier refused claims kept to skip a proof whose answer cannot have changed.

The game state (:mod:`engine.game.play_state`) asks it and owns the refutations it keeps.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards.card import ALL_CARDS_MASK as CLAN_MASK
from engine.cards.card import Card, is_clan_card, mask_of
from engine.cards.formations import strength, strongest_completion
from engine.cards.tactics import ELITE_TROOPS
from engine.game.stone_in_play import StoneInPlay
from engine.proof.claims import unseen_elite_troops
from engine.proof.pieces import Player
from engine.proof.rulings import OpenSideTie, Rulings

_REFUSED_ON_TIE = OpenSideTie.REFUSED

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
    unseen: int,
    jokers_played: set[Player],
    rulings: Rulings,
    refuted: Refutations,
) -> tuple[int, ...]:
    """The stones ``player`` can prove among ``numbers`` (the open ones where their side is
    complete) when the cards out of sight are ``unseen``, each judged as the claim proof judges
    it (:func:`engine.proof.claims.stone_verdict`, which a test holds this to on whole games). A
    stone refused before (``refuted``, which this keeps) is refused again without a proof while
    it is unchanged (``changed_at``, by stone, the mark of its last change) and the completion
    that refuted the claim can still be made: its cards are still out of sight, and its elite
    troops still the opponent's to play. That completion still beats the claimant's side."""
    troops: tuple[Card, ...] = ()
    troops_known = False  # the troops are worked out when a proof first needs them
    proved = []
    other = 1 - player  # the opponent's index (``player.other`` reads an enum member)
    for number in numbers:
        stone = stones[number - 1]
        mark = changed_at[number - 1]
        theirs = stone.sides[other]
        settled = len(theirs) == stone.capacity
        if not (troops_known or settled):
            # The game records every Joker played (a test checks it agrees with the position's);
            # with no Tactic card out of sight (the base game), there is no troop to look for.
            if unseen & _TROOPS_MASK:
                troops = _elite_troops(unseen, other in jokers_played)
            troops_known = True
        kept = refuted.get((player, number))
        if kept is not None and _still_refutes(kept, mark, unseen, troops):
            continue
        if settled:
            granted = _stronger(stone, player, rulings)
            if not granted:  # both sides complete: refused again while the stone stays as it is
                refuted[(player, number)] = (mark, 0, ())
        else:
            granted = _unbeaten(stone, player, unseen, troops, rulings, refuted, number, mark)
        if granted:
            proved.append(number)
    return tuple(proved)


def _stronger(stone: StoneInPlay, player: Player, rulings: Rulings) -> bool:
    """Whether ``player``'s complete side beats the opponent's, complete too: the stronger
    formation, or a tie the tie-break ruling gives them."""
    modes, first = stone.modes, stone.completed_first
    mine, theirs = strength(stone.sides[player], modes), strength(stone.sides[1 - player], modes)
    return mine > theirs or (
        mine == theirs and first is not None and rulings.tie_break.winner(first) is player
    )


def _unbeaten(
    stone: StoneInPlay,
    player: Player,
    unseen: int,
    troops: tuple[Card, ...],
    rulings: Rulings,
    refuted: Refutations,
    number: int,
    mark: int,
) -> bool:
    """Whether no completion of the opponent's open side from the cards ``unseen`` (and the
    elite ``troops``) refutes ``player``'s complete side; the search goes only as far as it
    must to beat it. One that does is kept in ``refuted``, with the stone's ``mark``."""
    modes = stone.modes
    mine = strength(stone.sides[player], modes)
    # A completion stronger than the bar refutes; one equal to the claimant's side refutes as
    # the open-side tie ruling says.
    bar = mine - 1 if rulings.open_side_tie is _REFUSED_ON_TIE else mine
    theirs = stone.sides[1 - player]
    best = strongest_completion(theirs, unseen & CLAN_MASK, modes, beating=bar, wilds=troops)
    if best is None:
        return True
    added = best.added
    refuting = tuple(card for card in added if not is_clan_card(card))
    refuted[(player, number)] = (mark, mask_of(added), refuting)
    return False


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
