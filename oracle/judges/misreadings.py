"""Common misreadings of the rules, as small hooks on a slow, plain claim judge.

Each misreading overrides one hook of :class:`Reading` (the correct rules), or holds the engine's
rulings (:data:`engine.RULINGS`, at home in ``engine/proof/rulings.py``) with one changed
(:class:`RulingMisread`), and answers the question "what would a player who reads the rules this way
decide?". The catalogue runs every case under every misreading: a misreading that changes no verdict
would go unnoticed by the catalogue, so each must be caught by at least one case.

The judge here enumerates completions with the enumeration's own loop
(:func:`oracle.judges.enumeration.strongest_completion`), or, for the readings that score a side
by its values and colouring, reads them by their kinds of side (:mod:`oracle.judges.sides`,
enumerated once per board for every such reading), so that a misreading only has to change a
rule, never a shortcut; boards too large to enumerate are left unjudged (None). Like the
enumeration, it takes its rules (formation ranks, side sizes, elite troops' values, who may still
add a Joker) from :mod:`oracle.judges.reference_rules`, never from the engine's own tables.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from functools import partial
from itertools import pairwise
from math import comb
from typing import Any, NamedTuple

from engine import (
    RULING_IDS,
    RULINGS,
    Card,
    CombatMode,
    OpenSideTie,
    Player,
    Position,
    Rulings,
    TieBreak,
)
from oracle.judges import reference_rules as rules
from oracle.judges.enumeration import strongest_completion
from oracle.judges.reference_rules import CLAN_CARDS_MASK, JOKERS, Formation, Standing
from oracle.judges.sides import BOARDS_KEPT, Judgements, clan_cards_rising

LIMIT = 400_000
"""The most completions the judge scores for one claim before it gives up (returns None)."""


class Reading:
    """The rules as the engine reads them, by ``rulings``. Misreadings subclass it and override
    one hook, or read by other rulings (:class:`RulingMisread`)."""

    name = "rules"
    title = "The rules as written"
    heading = ""
    """A short heading for the misreadings' matrix (empty: the title)."""
    belief = ""
    claims_before_playing = False
    blocked_games_end = True
    """Whether a game in which nobody can go on ends (the blocked game's award)."""
    allowed_rules: frozenset[str] = frozenset()
    """Rules of play this reading ignores: a move the engine refuses under one is legal here."""

    def __init__(self, rulings: Rulings = RULINGS) -> None:
        self.rulings = rulings

    def __repr__(self) -> str:
        if MISREADINGS.get(self.name) is self:
            return f"MISREADINGS[{self.name!r}]"
        return "Reading()" if self.rulings is RULINGS else f"Reading({self.rulings!r})"

    # ---------------------------------------------------------------- hooks

    def out_of_sight(self, position: Position) -> int:
        """The cards the opponent might still complete with."""
        return position.out_of_sight_mask()

    def troops(self, position: Position, player: Player) -> tuple[Card, ...]:
        """The unseen elite troops ``player`` could still add (from :meth:`out_of_sight`)."""
        return rules.troops_a_player_could_add(
            self.out_of_sight(position), has_played_joker=rules.has_played_joker(position, player)
        )

    def capacity(self, modes: Collection[CombatMode]) -> int:
        """How many cards complete a side."""
        return rules.side_size(mud_fight=CombatMode.MUD_FIGHT in modes)

    def rank(self, formation: Formation) -> int:
        """A formation's rank: higher beats lower."""
        return int(formation)

    def consecutive(self, values: Sequence[int]) -> bool:
        """Whether sorted distinct ``values`` make a run."""
        return rules.are_consecutive(values)

    def is_run(self, values_in_play_order: Sequence[int]) -> bool:
        """Whether a side's values, in the order they were played, make a run."""
        distinct = sorted(set(values_in_play_order))
        return len(distinct) == len(values_in_play_order) and self.consecutive(distinct)

    def wild_values(self, troop: Card) -> tuple[int, ...]:
        """The values an elite troop may stand for."""
        return rules.TROOP_VALUES[troop]

    def early_claims(self) -> bool:
        """Whether a claim may be proved against a side that is still incomplete."""
        return True

    def taken_stones_closed(self) -> bool:
        """Whether a claimed stone is closed to further claims."""
        return True

    def totals_only(self, modes: Collection[CombatMode]) -> bool:
        """Whether only totals count (Blind-Man's Bluff)."""
        return CombatMode.BLIND_MANS_BLUFF in modes

    def tie_refuses_against_open_side(self) -> bool:
        """Whether a completion that only ties an open side refutes the claim."""
        return self.rulings.open_side_tie is OpenSideTie.REFUSED

    def tie_goes_to(
        self, completed_first: Player | None, played_first: Player | None, claimant: Player
    ) -> Player | None:
        """Who wins a tie of two complete sides."""
        return None if completed_first is None else self.rulings.tie_break.winner(completed_first)

    def identities(self, troop: Card) -> tuple[Card, ...]:
        """The Clan cards an elite troop may stand for."""
        return tuple(
            rules.clan_card(colour, value)
            for colour in rules.COLOURS
            for value in self.wild_values(troop)
        )

    def scores_by_values(self) -> bool:
        """Whether a side's strength follows from its values in order and one colour or not
        (:data:`oracle.judges.sides.Kind`): the rules' ``strength`` and ``identities`` kept."""
        return (
            type(self).strength is Reading.strength and type(self).identities is Reading.identities
        )

    def scoring(self) -> tuple[object, ...]:
        """The :data:`SCORING_HOOKS` of this reading: readings alike share memos."""
        return _scoring_of(type(self))

    # ---------------------------------------------------------------- judging

    def strength(self, cards: Sequence[Card], modes: Collection[CombatMode]) -> Standing:
        """A side of Clan cards as one comparable value, under this reading."""
        in_order = [rules.value_of(card) for card in cards]
        values = sorted(in_order)
        total = sum(values)
        if self.totals_only(modes):
            return Standing(0, total)
        same_colour = len({rules.colour_of(card) for card in cards}) == 1
        distinct = sorted(set(values))
        run = self.is_run(in_order)
        if run and same_colour:
            formation = Formation.COLOUR_RUN
        elif len(distinct) == 1:
            formation = Formation.SAME_VALUE
        elif same_colour:
            formation = Formation.COLOUR
        elif run:
            formation = Formation.RUN
        else:
            formation = Formation.SUM
        return Standing(self.rank(formation), total)

    def side_strength(self, side: Sequence[Card], modes: Collection[CombatMode]) -> Standing:
        """A complete side's strength, each elite troop at its best identity (the hook; the
        judge asks :meth:`_scored`, which remembers it in the caller's :class:`Judgements`)."""
        return Judgements().sides_scored(self, frozenset(modes))[tuple(side)]

    def _scored(
        self, side: Sequence[Card], modes: Collection[CombatMode], kept: Judgements
    ) -> Standing:
        """:meth:`side_strength`, remembered in ``kept`` (:meth:`Judgements.shared`) for a
        reading that scores sides as the rules do: the judge scores the same sides again and
        again, across the completions of one claim, across claims and across readings."""
        if type(self).side_strength is Reading.side_strength:
            return kept.sides_scored(self, frozenset(modes))[tuple(side)]
        return self.side_strength(side, modes)

    def claim_granted(
        self,
        position: Position,
        stone: int,
        played_first: Player | None = None,
        kept: Judgements | None = None,
    ) -> bool | None:
        """Whether a player reading the rules this way grants the claim; None if unjudgeable.

        ``played_first`` is who laid the first card at the stone, when the case says so. The
        answers, and what the judge works out on the way, are remembered in ``kept`` (that of
        the caller that judges many claims in a row; none: this claim's alone): the judge
        enumerates, and the same boards are asked again.
        """
        kept = Judgements() if kept is None else kept
        # A board hashes slowly: it is looked up once, and its answers kept together.
        answers = kept.verdicts.get(position)
        if answers is None:
            if len(kept.verdicts) >= BOARDS_KEPT:
                kept.verdicts.clear()
            answers = kept.verdicts[position] = {}
        key = (self, stone, played_first)
        verdict: bool | None = answers.get(key, _UNKNOWN)
        if verdict is _UNKNOWN:
            verdict = answers[key] = self._judge(position, stone, played_first, kept)
        return verdict

    def _judge(
        self, position: Position, stone: int, played_first: Player | None, kept: Judgements
    ) -> bool | None:
        state = position.stone(stone)
        me, them = position.viewer, position.viewer.other
        if state.claimed_by is not None and self.taken_stones_closed():
            return False
        capacity = self.capacity(state.modes)
        mine, theirs = state.side(me), state.side(them)
        if len(mine) < capacity:
            return False
        my_strength = self._scored(mine, state.modes, kept)
        if len(theirs) >= capacity:
            their_strength = self._scored(theirs, state.modes, kept)
            if my_strength != their_strength:
                return my_strength > their_strength
            completed_first = state.completed_first
            if completed_first is None and len(mine) == len(theirs) == state.capacity:
                return None  # a tie the position leaves open
            winner = self.tie_goes_to(completed_first, played_first, me)
            return None if winner is None else winner is me
        if not self.early_claims():
            return False
        unseen = self.out_of_sight(position)
        troops = self.troops(position, them)
        try:
            best = self._best_completion(
                theirs, unseen & CLAN_CARDS_MASK, state.modes, troops, capacity, kept
            )
        except _TooLarge:
            return None
        if best is None:
            return True
        if best == my_strength:
            return not self.tie_refuses_against_open_side()
        return best < my_strength

    def _best_completion(
        self,
        placed: Sequence[Card],
        pool: int,
        modes: Collection[CombatMode],
        wilds: Sequence[Card],
        capacity: int,
        kept: Judgements,
    ) -> Standing | None:
        """The strongest side reachable from ``placed``; :class:`_TooLarge` past :data:`LIMIT`.

        Remembered (:meth:`Judgements.shared`): every reading that sees the same cards out of
        sight asks the same question of a board.
        """
        key = (tuple(placed), pool, frozenset(modes), tuple(wilds), capacity)
        memo = kept.shared(self, "_best_completion")
        best: Standing | _TooLarge | None = memo.get(key, _UNKNOWN)
        if best is _UNKNOWN:
            best = memo[key] = self._enumerate_completions(
                placed, pool, modes, wilds, capacity, kept
            )
        if isinstance(best, _TooLarge):
            raise _TooLarge
        return best

    def _enumerate_completions(
        self,
        placed: Sequence[Card],
        pool: int,
        modes: Collection[CombatMode],
        wilds: Sequence[Card],
        capacity: int,
        kept: Judgements,
    ) -> Standing | _TooLarge | None:
        """:meth:`_best_completion` worked out, or the :class:`_TooLarge` it raises."""
        missing = capacity - len(placed)
        work = sum(
            comb(pool.bit_count(), missing - used) * comb(len(wilds), used) * 54**used
            for used in range(min(len(wilds), missing) + 1)
        ) * max(1, 54 ** sum(not rules.is_clan_card(card) for card in placed))
        if work > LIMIT:
            return _TooLarge()
        scored: Callable[[tuple[Card, ...]], Standing]
        if type(self).side_strength is Reading.side_strength:  # its memo, fetched once
            memo = kept.sides_scored(self, frozenset(modes))
            if memo.by_values:  # the board's kinds of side, each scored once
                kinds = kept.completion_kinds(tuple(placed), pool, tuple(wilds), missing)
                return max(map(memo.strength_of_kinds.__getitem__, kinds), default=None)
            scored = memo.__getitem__
        else:  # a reading that scores sides its own way
            scored = partial(self.side_strength, modes=modes)
        return strongest_completion(placed, clan_cards_rising(pool), wilds, missing, scored)


class _TooLarge(Exception):
    """Too many completions to enumerate."""


_UNKNOWN: Any = object()
"""A memo's answer not worked out yet (None is an answer)."""


_SCORINGS: dict[type[Reading], tuple[object, ...]] = {}
"""Each class of reading's :meth:`Reading.scoring`, worked out once."""


def _scoring_of(reading: type[Reading]) -> tuple[object, ...]:
    scoring = _SCORINGS.get(reading)
    if scoring is None:
        scoring = _SCORINGS[reading] = tuple(getattr(reading, hook) for hook in SCORING_HOOKS)
    return scoring


SCORING_HOOKS = (
    "rank",
    "consecutive",
    "is_run",
    "wild_values",
    "identities",
    "totals_only",
    "strength",
    "side_strength",
    "_enumerate_completions",
)
"""The methods that decide how a reading scores a side and finds the strongest completion."""


class MisreadText(NamedTuple):
    """How the misreading that believes one value of a ruling is named."""

    name: str
    """The id cases name in ``guards_against``."""
    title: str
    heading: str
    belief: str


MISREAD_RULINGS: Mapping[object, MisreadText] = {
    TieBreak.COMPLETED_FIRST: MisreadText(
        "tie-to-first-to-finish",
        "Ties go to whoever completed first",
        "Tie to the first to finish",
        "a tie of two complete sides goes to the player who completed their side first",
    ),
    TieBreak.COMPLETED_LAST: MisreadText(
        "tie-to-second-player",
        "Ties go to whoever completed second",
        "Tie to the second to finish",
        "a tie of two complete sides goes to the player who completed their side last, as"
        " if the later card had the last word",
    ),
    OpenSideTie.GRANTED: MisreadText(
        "tie-against-open-side-granted",
        "A tie against an incomplete side is granted",
        "Tie granted against an open side",
        "if the opponent could at best equal your side, the claim holds",
    ),
    OpenSideTie.REFUSED: MisreadText(
        "tie-against-open-side-refused",
        "A tie against an incomplete side is refused",
        "Tie refused against an open side",
        "if the opponent could still equal your side, the claim must wait",
    ),
}
"""The misreading that believes each value of a ruling, for whichever value the engine's rulings
do not hold: flipping a ruling in :data:`engine.RULINGS` renames its misreading too."""


def misreading_now_in_force(name: str, rulings: Rulings = RULINGS) -> tuple[str, str] | None:
    """For the name of a ruling's misreading that ``rulings`` now hold as the ruling itself (a
    ruling flipped since a case named it), the ruling's id and the name its misreading has now;
    None for any other name."""
    for field, ruling_id in RULING_IDS.items():
        held = MISREAD_RULINGS.get(getattr(rulings, field))
        if held is not None and held.name == name:
            return ruling_id, MISREAD_RULINGS[getattr(rulings.flipped(field), field)].name
    return None


class RulingMisread(Reading):
    """The rules read by the engine's rulings with one field, ``field``, flipped: the misreading
    of a ruling, named from :data:`MISREAD_RULINGS` by the value it believes."""

    def __init__(self, field: str) -> None:
        super().__init__(RULINGS.flipped(field))
        self.name, self.title, self.heading, self.belief = MISREAD_RULINGS[
            getattr(self.rulings, field)
        ]


class HandIsProof(Reading):
    name = "hand-is-proof"
    title = "The hand counts as proof"
    heading = "Hand is proof"
    belief = "cards in your own hand cannot reach the opponent, so they are left out of the proof"

    def out_of_sight(self, position: Position) -> int:
        hand = sum(1 << card for card in position.hand)
        return position.out_of_sight_mask() & ~hand


class RunsWrapAround(Reading):
    name = "runs-wrap-around"
    title = "Runs wrap around"
    heading = "Runs wrap"
    belief = "9 is followed by 1 again, so 8-9-1 and 9-1-2 are runs"

    def consecutive(self, values: Sequence[int]) -> bool:
        gaps = [b - a for a, b in pairwise(values)]
        gaps.append(values[0] + 9 - values[-1])
        return sorted(gaps)[:-1] == [1] * (len(values) - 1)


class ColourBeatsThreeOfAKind(Reading):
    name = "colour-beats-three-of-a-kind"
    title = "A colour beats three of a kind"
    heading = "Colour over three of a kind"
    belief = "three cards of one colour rank above three cards of one value"

    def rank(self, formation: Formation) -> int:
        swapped = {Formation.COLOUR: Formation.SAME_VALUE, Formation.SAME_VALUE: Formation.COLOUR}
        return int(swapped.get(formation, formation))


class TieToFirstPlayer(Reading):
    name = "tie-to-first-player"
    title = "Ties go to whoever played first at the stone"
    heading = "Tie to the first player"
    belief = "a tie of two complete sides goes to the player who laid the first card there"

    def tie_goes_to(
        self, completed_first: Player | None, played_first: Player | None, claimant: Player
    ) -> Player | None:
        return played_first


class TieToClaimant(Reading):
    name = "tie-to-claimant"
    title = "Ties go to whoever claims"
    heading = "Tie to the claimant"
    belief = "a tie of two complete sides goes to the player who claims the stone first"

    def tie_goes_to(
        self, completed_first: Player | None, played_first: Player | None, claimant: Player
    ) -> Player | None:
        return claimant


class RunsInRisingOrder(Reading):
    name = "runs-in-rising-order"
    title = "A run counts only in rising order"
    heading = "Runs in rising order"
    belief = "the cards of a run must be laid in rising order, so 5, then 4, then 6 is no run"

    def is_run(self, values_in_play_order: Sequence[int]) -> bool:
        return all(b - a == 1 for a, b in pairwise(values_in_play_order))


class PairWithNeighbourIsRun(Reading):
    name = "pair-with-neighbour-is-run"
    title = "A pair and its neighbour make a run"
    heading = "3-3-4 is a run"
    belief = "3-3-4 covers neighbouring values, so it counts as a run"

    def is_run(self, values_in_play_order: Sequence[int]) -> bool:
        distinct = sorted(set(values_in_play_order))
        return len(distinct) >= 2 and self.consecutive(distinct)


class ColourAndRunAboveThreeOfAKind(Reading):
    name = "colour-and-run-above-three-of-a-kind"
    title = "A colour and a run beat three of a kind"
    heading = "Colour and run over three of a kind"
    belief = "three of a kind ranks just above a sum, below a run and a colour, as in poker"

    def rank(self, formation: Formation) -> int:
        order = {
            Formation.SUM: 0,
            Formation.SAME_VALUE: 1,
            Formation.RUN: 2,
            Formation.COLOUR: 3,
            Formation.COLOUR_RUN: 4,
        }
        return order[formation]


class JokerOnlyNine(Reading):
    name = "joker-only-nine"
    title = "A Joker is only a 9"
    heading = "Joker only a 9"
    belief = "a Joker takes any colour but always the value 9, the highest"

    def wild_values(self, troop: Card) -> tuple[int, ...]:
        return (9,) if troop in JOKERS else super().wild_values(troop)


class SecondJokerForAJokerPlayer(Reading):
    name = "second-joker-for-a-joker-player"
    title = "A player may play both Jokers"
    belief = "a player who has played one Joker may still draw and play the other"

    def troops(self, position: Position, player: Player) -> tuple[Card, ...]:
        return rules.troops_a_player_could_add(self.out_of_sight(position), has_played_joker=False)


class NoEarlyClaim(Reading):
    name = "no-early-claim"
    title = "No claim before both sides are complete"
    heading = "No early claim"
    belief = "a stone can only be claimed once both sides hold all their cards"

    def early_claims(self) -> bool:
        return False


class TakenStonesStayOpen(Reading):
    name = "taken-stones-stay-open"
    title = "A claimed stone stays open"
    heading = "Taken stones stay open"
    belief = "a claimed stone can still take cards, and be claimed again by the other player"

    allowed_rules = frozenset({"claim.claimed-stone-closed"})

    def taken_stones_closed(self) -> bool:
        return False


class BlockedGamesNeverEnd(Reading):
    name = "blocked-games-never-end"
    title = "A blocked game never ends"
    heading = "Blocked games never end"
    belief = (
        "the game ends only with five stones or three adjacent ones, even when nobody can"
        " play a card or prove a stone"
    )
    blocked_games_end = False


class UnplayedTacticsIgnored(Reading):
    name = "unplayed-tactics-ignored"
    title = "Unplayed Tactic cards are ignored in proofs"
    heading = "Unplayed Tactic cards ignored"
    belief = (
        "only Clan cards can complete the opponent's side, so unseen Jokers and the like"
        " are left out"
    )

    def troops(self, position: Position, player: Player) -> tuple[Card, ...]:
        return ()


class ThreeCardsUnderMudFight(Reading):
    name = "three-cards-under-mud-fight"
    title = "Three cards suffice under Mud Fight"
    heading = "Three cards under Mud Fight"
    belief = "Mud Fight changes nothing about when a side is complete"

    def capacity(self, modes: Collection[CombatMode]) -> int:
        return 3


class FormationsUnderBluff(Reading):
    name = "formations-under-bluff"
    title = "Formations still count under Blind-Man's Bluff"
    heading = "Formations under Bluff"
    belief = "Blind-Man's Bluff is ignored: formations are compared as usual"

    def totals_only(self, modes: Collection[CombatMode]) -> bool:
        return False


class ClaimsBeforePlaying(Reading):
    name = "claims-before-playing"
    title = "Claims come before playing"
    heading = "Claims before playing"
    belief = (
        "a stone is claimed at the start of the turn, before the card is played, as in the"
        " 1999 rules"
    )
    claims_before_playing = True


MISREADINGS: Mapping[str, Reading] = {
    reading.name: reading
    for reading in (
        HandIsProof(),
        RunsWrapAround(),
        ColourBeatsThreeOfAKind(),
        TieToFirstPlayer(),
        TieToClaimant(),
        RulingMisread("tie_break"),
        RunsInRisingOrder(),
        PairWithNeighbourIsRun(),
        ColourAndRunAboveThreeOfAKind(),
        JokerOnlyNine(),
        SecondJokerForAJokerPlayer(),
        NoEarlyClaim(),
        TakenStonesStayOpen(),
        BlockedGamesNeverEnd(),
        RulingMisread("open_side_tie"),
        UnplayedTacticsIgnored(),
        ThreeCardsUnderMudFight(),
        FormationsUnderBluff(),
        ClaimsBeforePlaying(),
    )
}
"""Every misreading the catalogue guards against, by name."""

RULES = Reading()
"""The correct reading, through the same slow judge (tests compare it with the proof)."""
