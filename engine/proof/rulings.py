"""The rulings the engine plays by, each in one place and named by its id in ``rules/index.yaml``.

Where the rules leave a choice, or this project settles one, the choice is a field of
:class:`Rulings`, and :data:`RULINGS` holds the values the engine plays by. The claim proof
(:mod:`engine.proof.claims`), the game and the match read it here, and so do the oracle's slow
judges (the enumeration that checks the proof, :mod:`oracle.judges.enumeration`, and the
misreadings' correct reading, :mod:`oracle.judges.misreadings`), each taking a ``rulings`` value
that defaults to :data:`RULINGS`. To change a ruling, edit :data:`RULINGS` here and its text in
``rules/index.yaml``: the cases that pin its id then change their answers, and nothing else in the
engine needs editing.

Every field has two values, so that a test can flip each (:meth:`Rulings.flipped`) and see
exactly the cases that pin it change.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from engine.frozen import FrozenValue, IdentityEnum, set_field
from engine.proof.pieces import Player


class TieBreak(IdentityEnum):
    """Who wins a tie of two complete sides (``formations.tie-break``).
    For example:

        >>> from engine import Player, TieBreak
        >>> TieBreak.COMPLETED_LAST.value, TieBreak.COMPLETED_LAST.winner(completed_first=Player.A)
        ('the side completed last', <Player.B: 1>)
    """

    COMPLETED_FIRST = "the side completed first"
    COMPLETED_LAST = "the side completed last"

    def winner(self, completed_first: Player) -> Player:
        """The player whose side wins the tie, when ``completed_first`` completed theirs first."""
        return completed_first if self is TieBreak.COMPLETED_FIRST else completed_first.other


class OpenSideTie(IdentityEnum):
    """A claim whose best completion out of sight only ties the claimant's side, the opponent's
    side still open (``claim.tie-against-incomplete``).

        >>> from engine import RULINGS, OpenSideTie
        >>> RULINGS.open_side_tie, OpenSideTie.REFUSED.value
        (<OpenSideTie.GRANTED: 'granted'>, 'refused')
    """

    GRANTED = "granted"
    REFUSED = "refused"


class DrawnRoundPoints(IdentityEnum):
    """What each player scores for a drawn round of a match (``rounds.drawn-round``).
    For example:

        >>> from engine import RULINGS, DrawnRoundPoints
        >>> RULINGS.drawn_round_points, DrawnRoundPoints.NOTHING.value
        (<DrawnRoundPoints.STONES_HELD: 'a point per stone held'>, 'nothing')
    """

    STONES_HELD = "a point per stone held"
    NOTHING = "nothing"


class DrawnRoundStarter(IdentityEnum):
    """Who starts the round after a drawn one (``rounds.drawn-round-starter``).
    For example:

        >>> from engine import DrawnRoundStarter
        >>> DrawnRoundStarter.SAME_PLAYER.value
        'the player who started the drawn round'
    """

    OTHER_PLAYER = "the player who did not start the drawn round"
    SAME_PLAYER = "the player who started the drawn round"


class Rulings(FrozenValue):
    """One value for each ruling the engine applies where a choice exists.
    For example:

        >>> from engine import RULINGS, TieBreak
        >>> flipped = RULINGS.flipped("tie_break")
        >>> flipped.tie_break is TieBreak.COMPLETED_LAST, flipped.contradictions()
        (True, ('formations.tie-break gives a tie to the side completed last, ...',))
    """

    _fields = (
        "tie_break",
        "open_side_tie",
        "drawn_round_points",
        "drawn_round_starter",
    )
    __slots__ = _fields
    tie_break: TieBreak
    """Who wins a tie of two complete sides: ``formations.tie-break``."""
    open_side_tie: OpenSideTie
    """Whether equalling an open side's best completion proves a claim:
    ``claim.tie-against-incomplete``."""
    drawn_round_points: DrawnRoundPoints
    """What a drawn round scores: ``rounds.drawn-round``."""
    drawn_round_starter: DrawnRoundStarter
    """Who starts after a drawn round: ``rounds.drawn-round-starter``."""

    def __init__(
        self,
        tie_break: TieBreak,
        open_side_tie: OpenSideTie,
        drawn_round_points: DrawnRoundPoints,
        drawn_round_starter: DrawnRoundStarter,
    ) -> None:
        set_field(self, "tie_break", tie_break)
        set_field(self, "open_side_tie", open_side_tie)
        set_field(self, "drawn_round_points", drawn_round_points)
        set_field(self, "drawn_round_starter", drawn_round_starter)

    def flipped(self, field: str) -> Rulings:
        """These rulings with ``field`` set to its other value."""
        value = getattr(self, field)
        (other,) = (member for member in type(value) if member is not value)
        return self.replace(**{field: other})

    def contradictions(self) -> tuple[str, ...]:
        """Why these rulings cannot stand together, each as a sentence naming the ids of the
        rules index involved (empty when they can). A tie against an open side follows the
        tie-break: the open side would be completed after the claimant's, so when ties go to
        the side completed last, equalling it loses and the claim must be refused."""
        if self.tie_break is TieBreak.COMPLETED_LAST and self.open_side_tie is OpenSideTie.GRANTED:
            return (
                "formations.tie-break gives a tie to the side completed last, so"
                " claim.tie-against-incomplete cannot grant a claim that an open side can only"
                " equal: that side would be completed last and win the tie; set"
                " open_side_tie=OpenSideTie.REFUSED",
            )
        return ()

    def __repr__(self) -> str:
        changed = [
            f"{field}={type(value).__name__}.{value.name}"
            for field in self._fields
            if (value := getattr(self, field)) is not getattr(RULINGS, field)
        ]
        return f"RULINGS.replace({', '.join(changed)})" if changed else "RULINGS"


RULING_IDS: Mapping[str, str] = MappingProxyType(
    {
        "tie_break": "formations.tie-break",
        "open_side_tie": "claim.tie-against-incomplete",
        "drawn_round_points": "rounds.drawn-round",
        "drawn_round_starter": "rounds.drawn-round-starter",
    }
)
"""Each field of :class:`Rulings` by the id of the rules index that states it: the cases that pin
the id are those whose answers depend on the field."""

RULINGS = Rulings(
    tie_break=TieBreak.COMPLETED_FIRST,
    open_side_tie=OpenSideTie.GRANTED,
    drawn_round_points=DrawnRoundPoints.STONES_HELD,
    drawn_round_starter=DrawnRoundStarter.OTHER_PLAYER,
)
"""The rulings the engine plays by: the one place to change one (with its text in
``rules/index.yaml``), and every ``rulings`` parameter's default."""


__all__ = [
    "RULINGS",
    "RULING_IDS",
    "DrawnRoundPoints",
    "DrawnRoundStarter",
    "OpenSideTie",
    "Rulings",
    "TieBreak",
]
