"""What the misreadings' judge keeps from one claim to the next, and how it scores sides by kind.

The judge (:mod:`oracle.judges.misreadings`) asks many readings of the rules about the same
boards. Most readings score a side from its values in the order they were laid and whether its
Clan cards share one colour, not from which cards they are: a side's *kind* (:data:`Kind`). So
a board's completions are enumerated once, into their kinds (:func:`completion_kinds`), and
each reading scores only those kinds, each once (:class:`SidesScored`): a few hundred, where the
completions are up to hundreds of thousands. Readings that score sides their own way are still
asked side by side, every elite troop taking every identity.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Sequence
from itertools import combinations, product
from typing import Any, Protocol

from engine import Card, CombatMode, Player, Position
from oracle.judges import reference_rules as rules
from oracle.judges.enumeration import troops_added
from oracle.judges.reference_rules import Standing

SIDES_KEPT = 200_000
"""The most side strengths kept for one way of scoring under one set of combat modes: a larger
catalogue works them out again rather than hold them all (a side takes about 200 bytes)."""

BOARDS_KEPT = 256
"""The most boards whose completions' kinds, and the most whose claims' answers, are kept: the
readings of one case ask about the same few boards one after the other, so a few suffice (a
board's kinds are a few hundred; its answers, one a reading and stone asked)."""

Kind = tuple[tuple[int, ...], tuple[Card, ...], tuple[bool, ...]]
"""What a side's standing follows from, for a reading that scores sides as the rules do: the
values of its Clan cards in the order laid, its elite troops in order (each takes any value the
reading lets it, and any colour), and the colourings open to it (True: one colour)."""


class ScoringReading(Protocol):
    """What the judge's memos ask of a reading (:class:`oracle.judges.misreadings.Reading`)."""

    def strength(self, cards: Sequence[Card], modes: Collection[CombatMode]) -> Standing: ...

    def identities(self, troop: Card) -> tuple[Card, ...]: ...

    def wild_values(self, troop: Card) -> tuple[int, ...]: ...

    def scores_by_values(self) -> bool:
        """Whether a side's strength follows from its :data:`Kind`."""
        ...

    def scoring(self) -> tuple[object, ...]:
        """What decides how the reading scores sides: readings alike share memos."""
        ...


class Judgements:
    """What the judge keeps from one claim to the next, for whoever judges many in a row (the
    misreadings' cache of a build or a run, a test): side strengths and best completions, shared
    by the readings that score sides alike, each standing once, the kinds of side each board
    can be completed into, and each claim's answer. It speeds up many judgements and holds
    memory, which its owner lets go of (:meth:`clear`)."""

    def __init__(self) -> None:
        self.memos: dict[tuple[object, ...], dict[object, Any]] = {}
        """Each memo by what it keeps and how the readings sharing it score sides."""
        self.standings: dict[Standing, Standing] = {}
        """Each standing a side has scored, once."""
        self.side_values: dict[tuple[Card, ...], tuple[tuple[int, ...], bool]] = {}
        """Sides of Clan cards' values in order and one colour or not (``by_values`` scoring)."""
        self.boards: dict[Hashable, frozenset[Kind]] = {}
        """Each board's completions' kinds (:func:`completion_kinds`), by the board."""
        self.verdicts: dict[Position, dict[tuple[Hashable, int, Player | None], bool | None]] = {}
        """Each claim's answer, by the board, then the reading, the stone and who played
        first."""

    def __len__(self) -> int:
        """How many things are kept (memos, standings, boards and answers)."""
        return (
            len(self.memos)
            + len(self.standings)
            + len(self.side_values)
            + len(self.boards)
            + len(self.verdicts)
        )

    def clear(self) -> None:
        """Let go of everything kept."""
        self.memos.clear()
        self.standings.clear()
        self.side_values.clear()
        self.boards.clear()
        self.verdicts.clear()

    def shared(self, reading: ScoringReading, kind: str) -> dict[object, Any]:
        """The memo of ``kind`` shared by every reading that scores sides alike (the same
        :meth:`~ScoringReading.scoring`): most misreadings change another rule, and score every
        side as the rules do, so their enumerations are the rules' own, worked out once."""
        return self.memos.setdefault((kind, *reading.scoring()), {})

    def sides_scored(self, reading: ScoringReading, modes: frozenset[CombatMode]) -> SidesScored:
        """The side strengths ``reading`` shares with the readings that score sides alike
        (:meth:`shared`), under ``modes``."""
        by_modes = self.shared(reading, "side_strength")
        memo: SidesScored | None = by_modes.get(modes)
        if memo is None:
            memo = by_modes[modes] = SidesScored(reading, modes, self)
        return memo

    def completion_kinds(
        self, placed: tuple[Card, ...], pool: int, wilds: tuple[Card, ...], missing: int
    ) -> frozenset[Kind]:
        """:func:`completion_kinds` with the Clan cards of ``pool`` (:func:`clan_cards_rising`),
        remembered for the last :data:`BOARDS_KEPT` boards: every reading that sees the same
        cards out of sight asks about the same board."""
        board = (placed, pool, wilds, missing)
        kinds = self.boards.get(board)
        if kinds is None:
            if len(self.boards) >= BOARDS_KEPT:
                self.boards.clear()
            cards = clan_cards_rising(pool)
            kinds = self.boards[board] = completion_kinds(placed, cards, wilds, missing)
        return kinds


def clan_cards_rising(pool: int) -> tuple[Card, ...]:
    """The Clan cards of the mask ``pool`` by rising value. The opponent lays the cards they add
    in the order that suits them best, rising: taken from cards in this order, each combination
    comes in that order already."""
    return tuple(sorted(rules.cards_in(pool), key=rules.value_of))


def completion_kinds(
    placed: Sequence[Card], cards: Sequence[Card], wilds: Sequence[Card], missing: int
) -> frozenset[Kind]:
    """The kinds (:data:`Kind`) of the sides
    :func:`~oracle.judges.enumeration.strongest_completion` scores for these arguments: each
    side is ``placed``, then the elite troops it adds, then Clan cards of ``cards`` in their
    order (which come in rising value). Empty if no completion exists."""
    placed_values = tuple(rules.CARD_VALUES[card] for card in placed if rules.is_clan_card(card))
    placed_troops = tuple(card for card in placed if not rules.is_clan_card(card))
    placed_colours = {rules.CARD_COLOURS[card] for card in placed if rules.is_clan_card(card)}
    several = len(placed) + missing >= 2
    added_by_count: dict[int, set[tuple[tuple[int, ...], bool]]] = {}
    kinds: set[Kind] = set()
    for extra in troops_added(wilds, missing):
        count = missing - len(extra)
        added = added_by_count.get(count)
        if added is None:
            added = added_by_count[count] = _clan_cards_added(cards, placed_colours, count)
        troops = placed_troops + extra
        if not troops:
            kinds.update((placed_values + values, (), (one,)) for values, one in added)
            continue
        # The troops' colours are free: one colour is open to the side while its Clan cards
        # share one, and several while it holds two cards or more.
        for values, one in added:
            kinds.add((placed_values + values, troops, (True,) * one + (False,) * several))
    return frozenset(kinds)


def _clan_cards_added(
    cards: Sequence[Card], placed_colours: set[int], count: int
) -> set[tuple[tuple[int, ...], bool]]:
    """The values in order of each ``count`` of ``cards`` (a combination, in their order), and
    whether they share one colour with the side's Clan cards of ``placed_colours`` (so with
    none: each combination's own colours one or none)."""
    values = combinations([rules.CARD_VALUES[card] for card in cards], count)
    colours = [rules.CARD_COLOURS[card] for card in cards]
    if len(placed_colours) > 1:
        return {(added, False) for added in values}
    if placed_colours:
        (colour,) = placed_colours
        one = map(all, combinations([shade == colour for shade in colours], count))
    else:
        one = map((2).__gt__, map(len, map(set, combinations(colours, count))))
    return set(zip(values, one, strict=True))


class SidesScored(dict[tuple[Card, ...], Standing]):
    """Side strengths under some combat modes, by side, for every reading that scores sides as
    ``reading`` does: a side not seen yet is scored on lookup (``memo[side]``)."""

    def __init__(
        self, reading: ScoringReading, modes: frozenset[CombatMode], kept: Judgements
    ) -> None:
        super().__init__()
        self.reading, self.modes = reading, modes
        self.standings, self.side_values = kept.standings, kept.side_values
        self.by_values = reading.scores_by_values()
        """Whether a side's strength follows from its :data:`Kind`: the rules' ``strength``
        (its hooks see values) and ``identities`` (any colour) kept."""
        self.strength_of_values: dict[tuple[tuple[int, ...], bool], Standing] = {}
        """:meth:`ScoringReading.strength` by values and one colour, if :attr:`by_values` (a few
        thousand at most)."""
        self.strength_of_kinds = _WorkedOut(self._strength_of_kind)
        """:meth:`strength_of_kind` by kind, worked out on lookup, if :attr:`by_values` (a few
        thousand at most)."""

    def __missing__(self, side: tuple[Card, ...]) -> Standing:
        strength = self._by_values(side) if self.by_values else self._by_identities(side)
        if len(self) >= SIDES_KEPT or len(self.side_values) >= SIDES_KEPT:
            self.clear()
            self.side_values.clear()
        # A few hundred standings exist: the memo keeps one copy of each, not one per side.
        strength = self[side] = self.standings.setdefault(strength, strength)
        return strength

    def _by_identities(self, side: tuple[Card, ...]) -> Standing:
        """The strongest of the side's standings, each elite troop taking every identity."""
        reading, modes = self.reading, self.modes
        clan = tuple(card for card in side if rules.is_clan_card(card))
        troops = [card for card in side if not rules.is_clan_card(card)]
        choices = [reading.identities(troop) for troop in troops]
        return max(reading.strength(clan + chosen, modes) for chosen in product(*choices))

    def _by_values(self, side: tuple[Card, ...]) -> Standing:
        """:meth:`_by_identities` by the side's :data:`Kind` (the same standings, not 6 colours
        times them), laid alike: Clan cards, then troops, in order."""
        if max(side, default=0) < rules.CLAN_CARD_COUNT:  # Clan cards alone: most sides
            key = self.side_values.get(side)
            if key is None:  # bound with this memo: cleared when it is (:meth:`__missing__`)
                values = tuple(map(rules.CARD_VALUES.__getitem__, side))
                one_colour = len(set(map(rules.CARD_COLOURS.__getitem__, side))) == 1
                key = self.side_values[side] = (values, one_colour)
            return self._strength_of_values(*key)
        clan = [card for card in side if rules.is_clan_card(card)]
        troops = tuple(card for card in side if not rules.is_clan_card(card))
        one = len({rules.CARD_COLOURS[card] for card in clan}) <= 1
        colourings = (True,) * one + (False,) * (len(side) >= 2)
        return self.strength_of_kind(
            (tuple(rules.CARD_VALUES[card] for card in clan), troops, colourings)
        )

    def strength_of_kind(self, kind: Kind) -> Standing:
        """The strength of a side of this :data:`Kind`, if :attr:`by_values` (remembered)."""
        return self.strength_of_kinds[kind]

    def _strength_of_kind(self, kind: Kind) -> Standing:
        """The strongest of the kind's troops' values and its colourings."""
        clan_values, troops, colourings = kind
        return max(
            self._strength_of_values(clan_values + chosen, same)
            for chosen in product(*(self.reading.wild_values(troop) for troop in troops))
            for same in colourings
        )

    def _strength_of_values(self, values: tuple[int, ...], one_colour: bool) -> Standing:
        """:meth:`ScoringReading.strength` of a side of these values in order, of one colour or
        not (worked out once, of Clan cards of these values in one colour or two)."""
        key = (values, one_colour)
        known = self.strength_of_values.get(key)
        if known is None:
            colours = (0 if one_colour or index == 0 else 1 for index in range(len(values)))
            cards = list(map(rules.clan_card, colours, values))
            known = self.strength_of_values[key] = self.reading.strength(cards, self.modes)
        return known


class _WorkedOut(dict[Kind, Standing]):
    """A memo that works out what it lacks on lookup (``memo[kind]``), so that a reading's
    lookups of a board's kinds run in C (``map(memo.__getitem__, kinds)``)."""

    def __init__(self, work: Callable[[Kind], Standing]) -> None:
        super().__init__()
        self.work = work

    def __missing__(self, kind: Kind) -> Standing:
        worked_out = self[kind] = self.work(kind)
        return worked_out
