"""What a claim's verdict can be and why: the verdicts, the reasons, and the rules each rests on.

:mod:`engine.proof.claims` judges a claim and answers with one :class:`Verdict` and one
:class:`Reason`; the rules of the rules index a reason rests on (:data:`REASON_RULES`), and those
of the combat modes and elite troops involved, are named with the verdict.
"""

from __future__ import annotations

from engine.cards.card import Card
from engine.cards.formations import CombatMode, Completion, strength
from engine.cards.tactics import CARD_RULES, ELITE_TROOPS, Tactic
from engine.frozen import IdentityEnum
from engine.proof.pieces import PositionError


class Verdict(IdentityEnum):
    """The engine's answer to a claim.
    For example:

        >>> from engine import Verdict
        >>> Verdict.REFUSED, Verdict.REFUSED.value
        (<Verdict.REFUSED: 'refused'>, 'refused')
    """

    GRANTED = "granted"
    REFUSED = "refused"

    @property
    def label(self) -> str:
        """``granted`` or ``refused``, as cases write it."""
        return self.value


class Reason(IdentityEnum):
    """Why a claim was granted or refused.
    For example:

        >>> from engine import Reason
        >>> Reason.TIE_WON.value, Reason.TIE_WON.verdict
        ('tie won on completion order', <Verdict.GRANTED: 'granted'>)
    """

    STONE_CLAIMED = "stone already claimed"
    INCOMPLETE_SIDE = "incomplete side"
    WEAKER_FORMATION = "weaker formation"
    TIE_LOST = "tie lost on completion order"
    WITNESS = "a completion out of sight beats it"
    STRONGER_FORMATION = "stronger formation"
    TIE_WON = "tie won on completion order"
    UNBEATABLE = "no completion out of sight beats it"
    NO_COMPLETION = "their side can never be completed"

    @property
    def verdict(self) -> Verdict:
        """The verdict this reason leads to."""
        return _GRANTED if self in GRANTED_BY else _REFUSED


_GRANTED, _REFUSED = Verdict.GRANTED, Verdict.REFUSED
GRANTED_BY = frozenset(
    {Reason.STRONGER_FORMATION, Reason.TIE_WON, Reason.UNBEATABLE, Reason.NO_COMPLETION}
)
"""The reasons that grant a claim, made once: reading a member off its Enum class costs about
0.1 us (Python 3.11), and every verdict asks."""


REASON_RULES: dict[Reason, tuple[str, ...]] = {
    Reason.STONE_CLAIMED: ("claim.claimed-stone-closed",),
    Reason.INCOMPLETE_SIDE: ("claim.own-side-complete",),
    Reason.WEAKER_FORMATION: ("claim.beat-complete-side", "formations.ranking"),
    Reason.TIE_LOST: ("formations.tie-break", "claim.beat-complete-side"),
    Reason.WITNESS: ("claim.prove-incomplete-side", "claim.out-of-sight", "formations.ranking"),
    Reason.STRONGER_FORMATION: ("claim.beat-complete-side", "formations.ranking"),
    Reason.TIE_WON: ("formations.tie-break", "claim.beat-complete-side"),
    Reason.UNBEATABLE: ("claim.prove-incomplete-side", "claim.out-of-sight", "formations.ranking"),
    Reason.NO_COMPLETION: ("claim.prove-incomplete-side", "claim.out-of-sight"),
}
"""The rules (ids of the rules index) each reason rests on; a refusal's first is the rule the
claim breaks."""

MODE_RULES = {
    CombatMode.MUD_FIGHT: CARD_RULES[Tactic.MUD_FIGHT],
    CombatMode.BLIND_MANS_BLUFF: CARD_RULES[Tactic.BLIND_MANS_BLUFF],
}
"""The rule of each combat mode, named when a verdict is judged under it."""

ELITE_TROOP_RULES: dict[Card, str] = {troop: CARD_RULES[troop] for troop in sorted(ELITE_TROOPS)}
"""The rule of each elite troop, named when one stands at the stone or completes their side."""


def rules_relied_on(
    reason: Reason,
    mine: tuple[Card, ...],
    theirs: tuple[Card, ...],
    modes: frozenset[CombatMode],
    reply: Completion | None,
    witness_in_hand: tuple[Card, ...],
) -> tuple[str, ...]:
    """The rules a verdict relied on, as ids of the rules index: those of its ``reason``, then
    the tie, the hand, the combat modes and the elite troops that played a part (the verdict's
    sides ``mine`` and ``theirs``, the opponent's best ``reply`` and the witness cards in hand)."""
    found = list(REASON_RULES[reason])
    tie = reply is not None and reply.strength == strength(mine, modes)
    if tie and reason in (Reason.UNBEATABLE, Reason.WITNESS):
        found.append("claim.tie-against-incomplete")
    if witness_in_hand:
        found.append("claim.hand-is-no-proof")
    added = reply.added if reply is not None else ()
    if any(card in ELITE_TROOP_RULES for card in added):
        found.append("claim.elite-troops-out-of-sight")
    found += [MODE_RULES[mode] for mode in CombatMode if mode in modes]
    if len(modes) == len(CombatMode):
        found.append("tactics.both-modes")
    troops = [card for card in (*mine, *theirs, *added) if card in ELITE_TROOP_RULES]
    found += [ELITE_TROOP_RULES[card] for card in sorted(troops)]
    if troops:
        found.append("tactics.wild-best-identity")
    return tuple(dict.fromkeys(found))


class DuplicateClaim(PositionError):
    """The same stone claimed twice in one step.
    For example:

        >>> from engine import DuplicateClaim, Position, claim_verdicts
        >>> try: claim_verdicts(Position(), [2, 2])
        ... except DuplicateClaim as error: print(error)
        stone 2 is claimed twice in the same step
    """


__all__ = [
    "ELITE_TROOP_RULES",
    "MODE_RULES",
    "REASON_RULES",
    "DuplicateClaim",
    "Reason",
    "Verdict",
]
