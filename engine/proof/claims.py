"""The claim verdict: granted or refused, with the reason and, for a failed proof, a witness.

A claim on an incomplete opposing side is proved by :func:`strongest_completion` over the cards out
of sight (the deck, the opponent's hand and the claimant's own hand): the claim holds when even the
opponent's best completion does not beat the claimant; whether one that only ties refutes it, and
who wins a tie of two complete sides, are rulings (:mod:`engine.proof.rulings`), read from the
``rulings`` every judge takes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from engine.cards.card import ALL_CARDS_MASK as CLAN_MASK
from engine.cards.card import Card, card_name, cards_text
from engine.cards.formations import (
    CombatMode,
    Completion,
    describe,
    side_capacity,
    strength,
    strongest_completion,
    why_stronger,
)
from engine.cards.tactics import JOKERS, Tactic
from engine.frozen import FrozenValue, slot_setters
from engine.proof.pieces import Player, StoneState, check_stone
from engine.proof.position import Position
from engine.proof.reasons import (
    ELITE_TROOP_RULES,
    GRANTED_BY,
    MODE_RULES,
    REASON_RULES,
    DuplicateClaim,
    Reason,
    Verdict,
    rules_relied_on,
)
from engine.proof.rulings import RULINGS, OpenSideTie, Rulings, TieBreak

# Members as module names: reading one off its Enum class costs about 0.1 us (Python 3.11).
_REFUSED_ON_TIE, _MUD_FIGHT = OpenSideTie.REFUSED, CombatMode.MUD_FIGHT
_STONE_CLAIMED, _INCOMPLETE_SIDE = Reason.STONE_CLAIMED, Reason.INCOMPLETE_SIDE
_STRONGER, _WEAKER = Reason.STRONGER_FORMATION, Reason.WEAKER_FORMATION
_TIE_WON, _TIE_LOST = Reason.TIE_WON, Reason.TIE_LOST
_WITNESS, _UNBEATABLE, _NO_COMPLETION = Reason.WITNESS, Reason.UNBEATABLE, Reason.NO_COMPLETION


class ClaimVerdict(FrozenValue):
    """The verdict on one claimed stone: the reason, and the facts that explain it.

    ``best_reply`` is the opponent's strongest completion whenever their side was incomplete; for
    a refusal by :attr:`Reason.WITNESS` its cards are the ``witness``. ``witness_in_hand`` lists
    the witness cards that sit in the claimant's own hand. ``rulings`` are those it was judged
    by. The explanation in words is built only when asked for, so judging stays cheap.

        >>> from engine import ClaimVerdict, Position, StoneState, claim_verdict, parse_cards
        >>> sides = (parse_cards("red 6, red 7, red 8"), parse_cards("blue 1, green 2, pink 4"))
        >>> verdict = claim_verdict(Position.from_stones({5: StoneState(sides=sides)}), 5)
        >>> isinstance(verdict, ClaimVerdict), verdict.verdict, verdict.reason
        (True, <Verdict.GRANTED: 'granted'>, <Reason.STRONGER_FORMATION: 'stronger formation'>)
        >>> verdict.explanation
        'your colour run red 6, red 7, red 8 (total 21) beats their sum blue 1, ... outranks a sum'
    """

    _fields = (
        "stone",
        "reason",
        "mine",
        "theirs",
        "modes",
        "best_reply",
        "witness_in_hand",
        "held_by_claimant",
        "rulings",
    )
    # The fields in one tuple, set by one call (nine slots cost nine), read by properties (below).
    __slots__ = ("_values",)
    _values: tuple[object, ...]
    stone: int
    reason: Reason
    mine: tuple[Card, ...]
    theirs: tuple[Card, ...]
    modes: frozenset[CombatMode]
    best_reply: Completion | None
    witness_in_hand: tuple[Card, ...]
    held_by_claimant: bool
    rulings: Rulings

    def __init__(
        self,
        stone: int,
        reason: Reason,
        mine: tuple[Card, ...] = (),
        theirs: tuple[Card, ...] = (),
        modes: frozenset[CombatMode] = frozenset(),
        best_reply: Completion | None = None,
        witness_in_hand: tuple[Card, ...] = (),
        held_by_claimant: bool = False,
        rulings: Rulings = RULINGS,
    ) -> None:
        values = (stone, reason, mine, theirs, modes, best_reply, witness_in_hand)
        _SET_VALUES(self, (*values, held_by_claimant, rulings))

    @property
    def verdict(self) -> Verdict:
        """Granted or refused."""
        return self.reason.verdict

    def __repr__(self) -> str:
        witness = f", witness {cards_text(self.witness)}" if self.witness else ""
        verdict = f"{self.verdict.label} ({self.reason.value})"
        return f"<ClaimVerdict stone {self.stone}: {verdict}{witness}>"

    @property
    def granted(self) -> bool:
        """Whether the claim holds."""
        return self._values[1] in GRANTED_BY

    @property
    def witness(self) -> tuple[Card, ...]:
        """The cards that would complete their side and beat yours (a refusal by witness)."""
        if self.reason is Reason.WITNESS and self.best_reply is not None:
            return self.best_reply.added
        return ()

    @property
    def rules(self) -> tuple[str, ...]:
        """The rules this verdict relied on, as ids of the rules index: those of its reason, then
        the tie, the hand, the combat modes and the elite troops that played a part."""
        reply, hand = self.best_reply, self.witness_in_hand
        return rules_relied_on(self.reason, self.mine, self.theirs, self.modes, reply, hand)

    @property
    def explanation(self) -> str:
        """The reason in words, from the claimant's side."""
        return _EXPLAIN[self.reason](self)


def _field(index: int) -> property:
    """The property that reads a verdict's field ``index`` from its one tuple."""
    return property(lambda verdict: verdict._values[index])


for _index, _name in enumerate(ClaimVerdict._fields):
    setattr(ClaimVerdict, _name, _field(_index))
(_SET_VALUES,) = slot_setters(ClaimVerdict, "_values")
_NEW = object.__new__


def _names(cards: Iterable[Card]) -> str:
    """Cards in a sentence: ``red 5, red 6 and the joker``."""
    names = [
        f"the {card_name(card)}" if card >= Tactic.JOKER else card_name(card) for card in cards
    ]
    return " and ".join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else "".join(names)


def _yours(verdict: ClaimVerdict) -> str:
    return describe(verdict.mine, verdict.modes)


def _theirs(verdict: ClaimVerdict) -> str:
    return describe(verdict.theirs, verdict.modes)


def _my_strength(verdict: ClaimVerdict) -> int:
    return strength(verdict.mine, verdict.modes)


def _their_strength(verdict: ClaimVerdict) -> int:
    return strength(verdict.theirs, verdict.modes)


def _size(verdict: ClaimVerdict) -> int:
    return side_capacity(verdict.modes)


def _their_best(verdict: ClaimVerdict) -> str:
    assert verdict.best_reply is not None
    return describe(verdict.theirs + verdict.best_reply.added, verdict.modes)


def _explain_witness(verdict: ClaimVerdict) -> str:
    in_hand = verdict.witness_in_hand
    hand_note = (
        f"; {_names(in_hand)} {'is' if len(in_hand) == 1 else 'are'} in your hand, and your hand"
        " is out of sight too, so that proves nothing"
        if in_hand
        else ""
    )
    assert verdict.best_reply is not None
    mine = _my_strength(verdict)
    if verdict.best_reply.strength == mine:  # a tie refutes it, by the rulings
        outcome = f"which ties with your {_yours(verdict)}, and equalling you refutes the claim"
    else:
        margin = why_stronger(verdict.best_reply.strength, mine, _size(verdict))
        outcome = f"which beats your {_yours(verdict)}{margin}"
    return (
        f"they could still add {_names(verdict.witness)}, making {_their_best(verdict)},"
        f" {outcome}{hand_note}"
    )


def _explain_unbeatable(verdict: ClaimVerdict) -> str:
    assert verdict.best_reply is not None
    tie = verdict.best_reply.strength == strength(verdict.mine, verdict.modes)
    outcome = "would only tie, and they would complete after you" if tie else "falls short"
    return (
        f"no completion from the cards out of sight beats your {_yours(verdict)}: their best,"
        f" adding {_names(verdict.best_reply.added)}, makes {_their_best(verdict)} and {outcome}"
    )


_EXPLAIN: dict[Reason, Callable[[ClaimVerdict], str]] = {
    Reason.STONE_CLAIMED: lambda v: (
        f"{'you' if v.held_by_claimant else 'they'} already hold stone {v.stone};"
        " a claimed stone is closed for the rest of the game"
    ),
    Reason.INCOMPLETE_SIDE: lambda v: (
        f"your side of stone {v.stone} has {len(v.mine)} of the {side_capacity(v.modes)} cards"
        " it needs; an incomplete side can never be claimed"
    ),
    Reason.STRONGER_FORMATION: lambda v: (
        f"your {_yours(v)} beats their {_theirs(v)}"
        + why_stronger(_my_strength(v), _their_strength(v), _size(v))
    ),
    Reason.WEAKER_FORMATION: lambda v: (
        f"their {_theirs(v)} beats your {_yours(v)}"
        + why_stronger(_their_strength(v), _my_strength(v), _size(v))
    ),
    Reason.TIE_WON: lambda v: (
        f"your {_yours(v)} ties with their {_theirs(v)}, and you completed your side"
        f" {_tie_winners_turn(v)}"
    ),
    Reason.TIE_LOST: lambda v: (
        f"your {_yours(v)} ties with their {_theirs(v)}, and they completed their side"
        f" {_tie_winners_turn(v)}"
    ),
    Reason.WITNESS: _explain_witness,
    Reason.UNBEATABLE: _explain_unbeatable,
    Reason.NO_COMPLETION: lambda v: (
        f"the cards out of sight cannot supply the {side_capacity(v.modes) - len(v.theirs)}"
        " more their side needs, so it can never be completed"
    ),
}


def _tie_winners_turn(verdict: ClaimVerdict) -> str:
    """When the winner of a tie completed their side: ``first``, or ``last`` (the rulings')."""
    return "first" if verdict.rulings.tie_break is TieBreak.COMPLETED_FIRST else "last"


def claim_verdict(position: Position, stone: int, rulings: Rulings = RULINGS) -> ClaimVerdict:
    """Judge the viewer's claim on ``stone`` (1 to 9) in ``position``, by ``rulings``.
    For example:

        >>> from engine import Position, StoneState, card_name, claim_verdict, parse_cards
        >>> sides = (parse_cards("red 6, red 7, red 8"), parse_cards("blue 7, blue 8"))
        >>> stones, hand = {5: StoneState(sides=sides)}, parse_cards("blue 9")
        >>> position = Position.from_stones(stones, hand=hand)
        >>> verdict = claim_verdict(position, 5)
        >>> verdict.granted, verdict.reason, [card_name(card) for card in verdict.witness]
        (False, <Reason.WITNESS: 'a completion out of sight beats it'>, ['blue 9'])
    """
    # check_stone is called only for what is not plainly a stone number: the call costs more.
    number = stone if type(stone) is int and 0 < stone < 10 else check_stone(stone)
    state = position.stones[number - 1]
    claimant, variant = position.viewer, position.variant
    # Position.out_of_sight_mask, read from the slots: the method's two calls cost a proof more.
    if variant.tactic_cards:
        unseen = variant.card_mask & ~position._table_mask
        troops = elite_troops_for(position, claimant.other, unseen) if unseen & ~CLAN_MASK else ()
    else:  # every Clan card, and no elite troop to look for (the card mask's two calls saved)
        unseen, troops = CLAN_MASK & ~position._table_mask, ()
    return stone_verdict(stone, state, claimant, position.hand, unseen, troops, rulings)


def stone_verdict(
    stone: int,
    state: StoneState,
    claimant: Player,
    hand: Sequence[Card],
    unseen: int,
    troops: tuple[Card, ...],
    rulings: Rulings = RULINGS,
) -> ClaimVerdict:
    """Judge ``claimant``'s claim on ``stone``, which is ``state``, when the cards out of sight
    are ``unseen``, the elite troops the opponent could still play among them ``troops``, and
    the claimant holds ``hand``, by ``rulings``: :func:`claim_verdict` without building a whole
    position, for a game that keeps its table otherwise."""
    mine, theirs, modes = state.sides[claimant], state.sides[1 - claimant], state.modes
    capacity = 3 + (_MUD_FIGHT in modes)  # state.capacity, without its two calls
    best: Completion | None = None
    in_hand: tuple[Card, ...] = ()
    held = False
    if state.claimed_by is not None:
        reason, held = _STONE_CLAIMED, state.claimed_by is claimant
    elif len(mine) < capacity:
        reason = _INCOMPLETE_SIDE
    elif len(theirs) == capacity:
        my_strength, their_strength = strength(mine, modes), strength(theirs, modes)
        if my_strength > their_strength:
            reason = _STRONGER
        elif my_strength < their_strength:
            reason = _WEAKER
        elif (first := state.completed_first) is not None and (
            rulings.tie_break.winner(first) is claimant
        ):
            reason = _TIE_WON
        else:
            reason = _TIE_LOST
    else:
        my_strength = strength(mine, modes)
        best = strongest_completion(theirs, unseen & CLAN_MASK, modes, wilds=troops)
        if best is None:
            reason = _NO_COMPLETION
        elif best.strength > my_strength or (
            best.strength == my_strength and rulings.open_side_tie is _REFUSED_ON_TIE
        ):
            reason, in_hand = _WITNESS, tuple([card for card in best.added if card in hand])
        else:
            reason = _UNBEATABLE
    verdict = _NEW(ClaimVerdict)  # the fields set by one call, not through the constructor
    _SET_VALUES(verdict, (stone, reason, mine, theirs, modes, best, in_hand, held, rulings))
    return verdict


def elite_troops_for(
    position: Position, player: Player, unseen: int | None = None
) -> tuple[Card, ...]:
    """The unseen elite troops ``player`` could still complete a side with.

    Every unseen Joker, Spy and Shield-Bearer counts (the tactic limit proves nothing, since later
    play can lift it), but a player gets at most one Joker in the whole game. ``unseen`` replaces
    the position's cards out of sight (a misreading may count fewer).

        >>> from engine import Player, Position, elite_troops_for
        >>> elite_troops_for(Position.from_stones({}, variant="tactics"), Player.B)
        (<Tactic.JOKER: 54>, <Tactic.SPY: 56>, <Tactic.SHIELD_BEARER: 57>)
    """
    unseen = position.out_of_sight_mask() if unseen is None else unseen
    return unseen_elite_troops(unseen, position.has_played_joker(player))


def unseen_elite_troops(unseen: int, joker_played: bool) -> tuple[Card, ...]:
    """The elite troops among the cards ``unseen`` that a player could still complete a side
    with, when they have played a Joker (``joker_played``) or not: :func:`elite_troops_for`."""
    troops: list[Card] = []
    unseen_jokers = [joker for joker in JOKERS if unseen >> joker & 1]
    if unseen_jokers and not joker_played:
        troops.append(unseen_jokers[0])
    troops += [troop for troop in (Tactic.SPY, Tactic.SHIELD_BEARER) if unseen >> troop & 1]
    return tuple(troops)


def claim_verdicts(
    position: Position, stones: Iterable[int], rulings: Rulings = RULINGS
) -> tuple[ClaimVerdict, ...]:
    """Judge several stones claimed in the same step, each on its own, by ``rulings``.
    For example:

        >>> from engine import Position, StoneState, claim_verdicts, parse_cards
        >>> sides = (parse_cards("red 6, red 7, red 8"), parse_cards("blue 1, green 2, pink 4"))
        >>> verdicts = claim_verdicts(Position.from_stones({5: StoneState(sides=sides)}), [5, 6])
        >>> [(verdict.stone, verdict.granted) for verdict in verdicts]
        [(5, True), (6, False)]
    """
    stones = tuple(stones)
    for index, stone in enumerate(stones):
        if stone in stones[:index]:
            raise DuplicateClaim(f"stone {stone} is claimed twice in the same step")
    return tuple(claim_verdict(position, stone, rulings) for stone in stones)


__all__ = [
    "ELITE_TROOP_RULES",
    "MODE_RULES",
    "REASON_RULES",
    "ClaimVerdict",
    "DuplicateClaim",
    "Player",
    "Reason",
    "Verdict",
    "claim_verdict",
    "claim_verdicts",
    "elite_troops_for",
    "stone_verdict",
    "unseen_elite_troops",
]
