"""The claims of a catalogue by the shape of their sides: each claim of a complete side of Clan
cards against an incomplete one, by the opening that side shows (an empty side, one card, a pair
of each kind), and the strongest formation each opening can still become. The site draws the
grid of early claims from them (:mod:`oracle.site.figures`); the catalogue checks that each cell
of that grid has its cases (:mod:`oracle.catalogue`)."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cache

from engine import (
    CARDS,
    Formation,
    card_colour,
    card_value,
    formation_of,
    is_clan_card,
    strongest_completion,
)
from oracle.verify.report import CaseReport


@dataclass(frozen=True)
class ClaimedStone:
    """One claim of a published case, with the claimant's side and the other, and no combat
    mode on the stone: what the grids of formations are made of."""

    report: CaseReport
    verdict: str
    mine: tuple[int, ...]
    theirs: tuple[int, ...]


def plain_claims(reports: Iterable[CaseReport]) -> Iterator[ClaimedStone]:
    """Every claim of the catalogue on a stone without a combat mode (a board the engine
    refuses claims nothing: its position is a placeholder)."""
    for report in reports:
        if report.case.impossible is not None:
            continue
        position = report.case.position
        for check in report.checks:
            stone = position.stone(check.verdict.stone)
            if not stone.modes:
                mine, theirs = stone.sides[position.viewer], stone.sides[position.viewer.other]
                yield ClaimedStone(report, check.verdict.verdict.label, tuple(mine), tuple(theirs))


def plain_side(side: tuple[int, ...]) -> bool:
    return len(side) == 3 and all(map(is_clan_card, side))


class Opening(Enum):
    """The shape of an incomplete side of Clan cards that a complete side is claimed against."""

    EMPTY = "an empty side"
    ONE_CARD = "one card"
    PAIR_ONE_COLOUR = "a pair of one colour"
    PAIR_TWO_COLOURS = "a pair of two colours and values"
    PAIR_EQUAL_VALUES = "a pair of equal values"


def opening_of(cards: Sequence[int]) -> Opening | None:
    """The opening an incomplete side of Clan cards shows, or None (elite troops, three cards)."""
    if not all(map(is_clan_card, cards)) or len(cards) > 2:
        return None
    if len(cards) < 2:
        return Opening.ONE_CARD if cards else Opening.EMPTY
    first, second = cards
    if card_value(first) == card_value(second):
        return Opening.PAIR_EQUAL_VALUES
    if card_colour(first) == card_colour(second):
        return Opening.PAIR_ONE_COLOUR
    return Opening.PAIR_TWO_COLOURS


@cache
def opening_ceiling(opening: Opening) -> Formation:
    """The strongest formation any side showing ``opening`` can still become, every other Clan
    card being out of sight: asked of the engine for every such side."""
    everything = (1 << len(CARDS)) - 1
    best = Formation.SUM
    for size in (0, 1, 2):
        for placed in itertools.combinations(range(len(CARDS)), size):
            if opening_of(placed) is not opening:
                continue
            pool = everything & ~sum(1 << card for card in placed)
            completion = strongest_completion(placed, pool)
            if completion is not None:
                best = max(best, formation_of((*placed, *completion.added)))
    return best


@dataclass(frozen=True)
class EarlyClaim:
    """A claim of a complete side of Clan cards, with no combat mode, against an opening."""

    mine: Formation
    opening: Opening
    report: CaseReport
    verdict: str


def early_claims_by_opening(reports: Iterable[CaseReport]) -> list[EarlyClaim]:
    """Every claim of the catalogue of a plain formation against a plain incomplete side."""
    return [
        EarlyClaim(formation_of(claim.mine), opening, claim.report, claim.verdict)
        for claim in plain_claims(reports)
        if plain_side(claim.mine) and (opening := opening_of(claim.theirs)) is not None
    ]


__all__ = [
    "ClaimedStone",
    "EarlyClaim",
    "Opening",
    "early_claims_by_opening",
    "opening_ceiling",
    "opening_of",
    "plain_claims",
    "plain_side",
]
