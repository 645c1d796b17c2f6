"""Formations and strength: the ranking, no wrap-around, totals, the two combat modes."""

from __future__ import annotations

import random

import pytest
from conftest import examples

from engine import (
    CardSet,
    CombatMode,
    Formation,
    describe,
    formation_of,
    parse_card,
    strength,
    strongest_completion,
)
from engine.cards.empty_side import strongest_of_empty
from engine.cards.ranks import RANK_WEIGHT
from engine.cards.search import _strongest

MUD = (CombatMode.MUD_FIGHT,)
BLIND = (CombatMode.BLIND_MANS_BLUFF,)


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card(name) for name in text.split(","))


@pytest.mark.parametrize(
    ("side", "formation"),
    [
        ("red 7, red 9, red 8", Formation.COLOUR_RUN),
        ("red 2, blue 2, green 2", Formation.SAME_VALUE),
        ("yellow 9, yellow 8, yellow 6", Formation.COLOUR),
        ("red 2, blue 3, green 4", Formation.RUN),
        ("red 8, blue 9, green 1", Formation.SUM),
        ("red 9, red 1, red 2", Formation.COLOUR),
        ("red 9, blue 1, green 2", Formation.SUM),
        ("red 4, blue 4, green 5", Formation.SUM),
        ("red 1, red 2, red 3, red 4", Formation.COLOUR_RUN),
        ("red 5, blue 5, green 5, pink 5", Formation.SAME_VALUE),
        ("red 5, blue 5, green 5, pink 6", Formation.SUM),
        ("red 1, blue 2, green 3, pink 4", Formation.RUN),
        ("red 1, red 2, red 3, red 5", Formation.COLOUR),
    ],
)
def test_formation_of(side: str, formation: Formation) -> None:
    assert formation_of(cards(side)) is formation


def test_ranking_beats_totals() -> None:
    ranked = [
        "red 1, red 2, red 3",  # colour run, total 6
        "red 9, blue 9, green 9",  # three of a kind, 27
        "yellow 9, yellow 8, yellow 6",  # colour, 23
        "red 7, blue 8, green 9",  # run, 24
        "red 9, blue 9, green 8",  # sum, 26
    ]
    strengths = [strength(cards(side)) for side in ranked]
    assert strengths == sorted(strengths, reverse=True)
    assert strength(cards("red 2, blue 2, green 2")) > strength(
        cards("yellow 9, yellow 8, yellow 6")
    )


def test_total_breaks_ties_within_a_formation() -> None:
    assert strength(cards("red 7, red 8, red 9")) > strength(cards("blue 6, blue 7, blue 8"))
    assert strength(cards("red 4, blue 5, green 9")) == strength(
        cards("yellow 4, purple 5, pink 9")
    )


def test_blind_mans_bluff_counts_only_the_total() -> None:
    assert strength(cards("red 1, red 2, red 3"), BLIND) == 6
    assert strength(cards("blue 9, green 9, yellow 8"), BLIND) == 26
    assert strength(cards("red 1, red 2, red 3"), BLIND) < strength(
        cards("blue 9, green 9, yellow 8"), BLIND
    )


def test_four_card_formations_under_mud_fight() -> None:
    four_kind = strength(cards("red 5, blue 5, green 5, pink 5"), MUD)
    colour_run = strength(cards("red 1, red 2, red 3, red 4"), MUD)
    assert colour_run > four_kind > strength(cards("red 9, red 8, red 6, red 1"), MUD)


def test_each_elite_troop_takes_a_value_it_may_take() -> None:
    from engine import Tactic
    from engine.cards.formations import identities

    side = (parse_card("red 8"), Tactic.JOKER, Tactic.SPY)
    assert describe(side) == "colour run spy as red 7, red 8, joker as red 9 (total 24)"
    assert identities(side) == {Tactic.SPY: parse_card("red 7"), Tactic.JOKER: parse_card("red 9")}
    low = (Tactic.SHIELD_BEARER, parse_card("blue 2"), Tactic.JOKER)
    assert describe(low).startswith("colour run")
    assert identities(low)[Tactic.SHIELD_BEARER] % 9 + 1 in (1, 3)


def test_describe_names_formation_and_total() -> None:
    assert (
        describe(cards("red 2, blue 2, green 2"))
        == "three of a kind red 2, blue 2, green 2 (total 6)"
    )
    assert describe(cards("red 1, blue 1, green 1, pink 1"), MUD).startswith("four of a kind")
    assert "only the total counts: 6" in describe(cards("red 1, red 2, red 3"), BLIND)


def test_the_strongest_completion_of_a_complete_side_is_the_side_itself() -> None:
    from engine import parse_cards, strongest_completion

    side = parse_cards("red 2, red 3, red 4")
    whole = strongest_completion(side, 0)
    assert whole is not None and whole.added == () and whole.strength == strength(side)
    assert strongest_completion(side, 0, beating=strength(side)) is None
    with pytest.raises(ValueError, match="a side of 4 cards is over its capacity of 3"):
        strongest_completion(parse_cards("red 2, red 3, red 4, red 5"), 0)


def test_a_stone_outside_one_to_nine_and_modes_that_are_not_modes_are_refused() -> None:
    from engine import Position, PositionError, StoneState

    with pytest.raises(PositionError, match="no stone 10: stones are numbered 1 to 9"):
        Position.from_stones({}).stone(10)
    with pytest.raises(PositionError, match="no stone 0: stones are numbered 1 to 9"):
        Position.from_stones({0: StoneState()})
    with pytest.raises(PositionError, match="modes must be CombatMode values"):
        StoneState(modes=frozenset({"mud fight"}))  # type: ignore[arg-type]


def test_variants_are_equal_by_kind_and_so_are_positions_built_alike() -> None:
    from engine import Position, PositionError, StoneState, parse_cards
    from engine.proof.variants import variant_named

    assert variant_named("base") == variant_named("base")
    assert variant_named("base") != variant_named("tactics")
    assert hash(variant_named("tactics")) == hash(variant_named("tactics"))
    with pytest.raises(PositionError, match="unknown variant 'chess'; the variants are base, "):
        variant_named("chess")

    def built() -> Position:
        stone = StoneState(sides=(parse_cards("red 1, red 2"), ()))
        return Position.from_stones({4: stone}, hand=parse_cards("blue 5"), variant="tactics")

    assert built() == built()
    assert built() != Position.from_stones({4: StoneState(sides=(parse_cards("red 1, red 2"), ()))})


def test_a_border_of_the_wrong_size_is_refused_before_anything_else() -> None:
    from engine import Position, PositionError, StoneState

    with pytest.raises(PositionError, match="a border has 9 stones, not 8"):
        Position(stones=tuple(StoneState() for _ in range(8)))


def test_an_empty_sides_best_beats_a_bar_exactly_when_it_is_above_it() -> None:
    """With a bar to beat (the game's provable check passes one), the best completion of an
    empty side comes back exactly when it is stronger than the bar, and is then the best found
    without one: a bar at the best's strength, or one below it, tells a slip of ``>`` for
    ``>=`` (or of a total) in any formation's test (engine/cards/empty_side.py)."""
    rng = random.Random(47)
    checked: set[int] = set()
    for _ in range(examples(4000)):
        size = rng.choice((3, 4))
        modes = (CombatMode.MUD_FIGHT,) if size == 4 else ()
        pool = CardSet(rng.sample(range(54), rng.randint(size, 20))).mask
        best = strongest_completion((), pool, modes)
        assert best is not None
        for bar in (best.strength - 1, best.strength):
            found = strongest_completion((), pool, modes, beating=bar)
            assert found == (best if best.strength > bar else None), (pool, size, bar)
        checked.add(best.strength // RANK_WEIGHT)
    assert len(checked) == 5, checked  # every formation was the best of some pool


def test_an_empty_sides_quick_search_finds_what_the_general_search_finds() -> None:
    """engine/cards/empty_side.py is a quicker twin of the general search for an empty side
    without elite troops: the same strength and the same cards taken, on random pools."""
    rng = random.Random(48)
    for _ in range(examples(4000)):
        size = rng.choice((3, 4))
        pool = CardSet(rng.sample(range(54), rng.randint(size, 30))).mask
        general = _strongest((), (), pool, size, size, False, -1)
        assert general is not None
        assert strongest_of_empty(pool, size, -1) == (general[0], general[1]), (pool, size)
