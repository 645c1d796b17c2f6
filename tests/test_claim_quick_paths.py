"""The claim proof's quick paths hold to the general ones: the best completion of a side of Clan
cards without elite troops (engine/cards/placed_side.py) against the general search, and a
verdict built by the judge (its fields kept in one tuple) against one built by its constructor."""

from __future__ import annotations

import copy
import pickle
import random

import pytest
from conftest import examples

from engine import (
    CardSet,
    ClaimVerdict,
    CombatMode,
    Position,
    Reason,
    StoneState,
    claim_verdict,
    parse_cards,
    strongest_completion,
)
from engine.cards.placed_side import strongest_of_placed
from engine.cards.ranks import RANK_WEIGHT
from engine.cards.search import _strongest


def _placed_side(rng: random.Random, size: int) -> list[int]:
    """One to ``size - 1`` Clan cards, often of one colour, one value or neighbouring values,
    so that every formation is in reach of some pools."""
    count = rng.randint(1, size - 1)
    kind = rng.randrange(4)
    if kind == 0:  # one colour
        colour = rng.randrange(6)
        return [colour * 9 + value for value in rng.sample(range(9), count)]
    if kind == 1:  # one value
        value = rng.randrange(9)
        return [colour * 9 + value for colour in rng.sample(range(6), count)]
    if kind == 2:  # neighbouring values, any colours
        low = rng.randrange(10 - count)
        return [rng.randrange(6) * 9 + low + step for step in range(count)]
    return rng.sample(range(54), count)


def test_a_placed_sides_quick_search_finds_what_the_general_search_finds() -> None:
    """The same strength and the same cards taken as the general search, with no bar, a bar
    just under the best and one at it, on sides of every colour and value and random pools."""
    rng = random.Random(61)
    formations: set[int] = set()
    for _ in range(examples(6000)):
        size = rng.choice((3, 4))
        clan = _placed_side(rng, size)
        count = size - len(clan)
        rest = [card for card in range(54) if card not in clan]
        pool = CardSet(rng.sample(rest, rng.randint(0, 30))).mask
        best = _strongest(clan, (), pool, count, size, False, -1)
        assert strongest_of_placed(clan, pool, count, size, -1) == best, (clan, pool, size)
        if best is None:
            continue
        formations.add(best[0] // RANK_WEIGHT)
        for bar in (best[0] - 1, best[0], rng.randint(-1, 300)):
            general = _strongest(clan, (), pool, count, size, False, bar)
            assert strongest_of_placed(clan, pool, count, size, bar) == general, (clan, pool, bar)
    assert len(formations) == 5, formations  # every formation was the best of some side


def test_strongest_completion_takes_the_quick_search_only_for_clan_cards_alone() -> None:
    """A side holding an elite troop, or judged under Blind-Man's Bluff, takes the general
    search, which knows of troops and totals; the answers tell."""
    pool = CardSet(parse_cards("red 9, blue 9, green 1")).mask
    blind = strongest_completion(parse_cards("red 7, red 8"), pool, {CombatMode.BLIND_MANS_BLUFF})
    assert blind is not None and blind.added == tuple(parse_cards("red 9"))
    with_troop = strongest_completion(parse_cards("red 7, joker"), pool)
    assert with_troop is not None and with_troop.added == tuple(parse_cards("red 9"))
    assert with_troop.strength == 4 * RANK_WEIGHT + 24  # the joker as red 8: a colour run


def _judged() -> ClaimVerdict:
    sides = (parse_cards("red 6, red 7, red 8"), parse_cards("blue 7, blue 8"))
    position = Position.from_stones({5: StoneState(sides=sides)}, hand=parse_cards("blue 9"))
    return claim_verdict(position, 5)


def test_a_judged_verdict_is_the_verdict_its_constructor_builds() -> None:
    judged = _judged()
    built = ClaimVerdict(
        5,
        Reason.WITNESS,
        tuple(parse_cards("red 6, red 7, red 8")),
        tuple(parse_cards("blue 7, blue 8")),
        frozenset(),
        judged.best_reply,
        tuple(parse_cards("blue 9")),
    )
    assert judged == built and hash(judged) == hash(built)
    assert (judged.stone, judged.reason, judged.witness) == (5, Reason.WITNESS, (17,))
    assert judged.witness_in_hand == (17,) and not judged.held_by_claimant
    assert not judged.granted and judged.rules == built.rules
    for value in (pickle.loads(pickle.dumps(judged)), copy.copy(judged), judged.replace()):
        assert value == judged and value.best_reply == judged.best_reply


def test_a_verdicts_fields_cannot_be_changed() -> None:
    judged = _judged()
    with pytest.raises(AttributeError, match="cannot assign to field 'stone'"):
        judged.stone = 4
    with pytest.raises(AttributeError, match="cannot delete field 'reason'"):
        del judged.reason
