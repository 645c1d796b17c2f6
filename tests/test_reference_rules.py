"""The reference rules read the rules as written, and order sides exactly as the engine does.

:mod:`oracle.judges.reference_rules` is written apart from the engine so that a wrong engine table
cannot hide in the slow references. Here it is held against the rules directly (a few sides whose
standing anyone can work out from RULES.md) and against :func:`engine.cards.formations.strength` on
every complete three-card side and samples of four-card and elite-troop sides (CI's profile
draws four times the sides an editor's run draws, :func:`conftest.examples`): the two give
different numbers, but must sort sides into the same classes in the same order.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from itertools import combinations

import pytest
from conftest import examples

from engine.cards.card import CARDS, card_colour, card_name, card_value, parse_cards
from engine.cards.formations import CombatMode, side_capacity, strength
from oracle.judges import reference_rules as rules
from oracle.judges.misreadings import RULES
from oracle.judges.reference_rules import Formation, Standing

MODE_SETS: list[tuple[CombatMode, ...]] = [
    (),
    (CombatMode.MUD_FIGHT,),
    (CombatMode.BLIND_MANS_BLUFF,),
    (CombatMode.MUD_FIGHT, CombatMode.BLIND_MANS_BLUFF),
]


def reference_standing(side: Sequence[int], modes: Iterable[CombatMode]) -> Standing:
    return rules.best_standing(side, blind_mans_bluff=CombatMode.BLIND_MANS_BLUFF in modes)


def assert_same_order(
    sides: Iterable[Sequence[int]],
    engine_key: Callable[[Sequence[int]], int],
    reference_key: Callable[[Sequence[int]], Standing],
) -> int:
    """Assert the engine and the reference sort ``sides`` alike; return how many classes there are.

    Sides the reference ranks equal must get one engine strength, and classes the reference ranks
    higher must get a strictly higher one: then every pair of sides compares the same way (``<``,
    ``==``, ``>``) under both.
    """
    classes: dict[Standing, dict[int, Sequence[int]]] = {}
    for side in sides:
        classes.setdefault(reference_key(side), {}).setdefault(engine_key(side), side)
    previous: tuple[int, Sequence[int]] | None = None
    for standing in sorted(classes):
        engine_values = classes[standing]
        assert len(engine_values) == 1, (
            f"the reference ranks these sides equal ({standing}), the engine does not: "
            + "; ".join(f"{names(side)} -> {value}" for value, side in engine_values.items())
        )
        [(value, side)] = engine_values.items()
        if previous is not None:
            assert previous[0] < value, (
                f"the reference ranks {names(side)} ({standing}) above {names(previous[1])},"
                f" the engine gives {value} against {previous[0]}"
            )
        previous = (value, side)
    return len(classes)


def names(side: Sequence[int]) -> str:
    return ", ".join(card_name(card) for card in side)


# ------------------------------------------------------------------------- the rules themselves


def test_card_numbers_are_decoded_as_the_engine_numbers_them() -> None:
    for card in CARDS:
        assert rules.is_clan_card(card)
        assert rules.value_of(card) == card_value(card)
        assert rules.colour_of(card) == int(card_colour(card))
        assert rules.clan_card(rules.colour_of(card), rules.value_of(card)) == card
    assert [card_name(troop) for troop in rules.ELITE_TROOPS] == [
        "joker",
        "joker",
        "spy",
        "shield-bearer",
    ]
    assert not any(rules.is_clan_card(troop) for troop in rules.ELITE_TROOPS)


def standing(text: str, *, bluff: bool = False) -> Standing:
    return rules.best_standing(parse_cards(text), blind_mans_bluff=bluff)


def test_formations_rank_colour_run_same_value_colour_run_sum() -> None:
    strongest_first = [
        "red 1, red 2, red 3",
        "blue 2, green 2, red 2",
        "red 1, red 2, red 4",
        "red 7, blue 8, red 9",
        "red 9, blue 9, green 8",
    ]
    assert [rules.formation_of(parse_cards(side)) for side in strongest_first] == [
        Formation.COLOUR_RUN,
        Formation.SAME_VALUE,
        Formation.COLOUR,
        Formation.RUN,
        Formation.SUM,
    ]
    standings = [standing(side) for side in strongest_first]
    assert standings == sorted(standings, reverse=True), "a higher rank beats any total"


def test_runs_never_wrap_and_the_order_of_play_does_not_matter() -> None:
    assert rules.formation_of(parse_cards("red 8, blue 9, green 1")) is Formation.SUM
    assert rules.formation_of(parse_cards("red 9, red 1, red 2")) is Formation.COLOUR
    assert rules.formation_of(parse_cards("red 9, blue 7, red 8")) is Formation.RUN
    assert not rules.are_consecutive([1, 8, 9]) and not rules.are_consecutive([3, 3, 4])


def test_equal_ranks_are_decided_by_the_total() -> None:
    assert standing("red 2, red 3, red 4") < standing("blue 3, blue 4, blue 5")
    assert standing("red 1, blue 5, green 9") == standing("blue 1, green 5, red 9")


def test_mud_fight_takes_four_cards_and_bluff_counts_only_the_total() -> None:
    assert rules.side_size(mud_fight=False) == 3 and rules.side_size(mud_fight=True) == 4
    assert rules.formation_of(parse_cards("red 5, blue 5, green 5, pink 5")) is (
        Formation.SAME_VALUE
    )
    assert rules.formation_of(parse_cards("red 5, red 6, red 7, red 8")) is Formation.COLOUR_RUN
    assert standing("red 1, red 2, red 3", bluff=True) < standing(
        "red 9, blue 1, green 3", bluff=True
    )


def test_elite_troops_take_the_values_the_rules_give_them() -> None:
    assert rules.TROOP_VALUES[rules.JOKER] == tuple(range(1, 10))
    assert rules.TROOP_VALUES[rules.SECOND_JOKER] == tuple(range(1, 10))
    assert rules.TROOP_VALUES[rules.SPY] == (7,)
    assert rules.TROOP_VALUES[rules.SHIELD_BEARER] == (1, 2, 3)
    assert len(rules.troop_identities(rules.JOKER)) == 54  # any colour, any value
    # Each at its owner's best: the Shield-Bearer as red 1, the Spy as a third 7, the Joker as a 9.
    assert standing("shield-bearer, red 2, red 3") == (Formation.COLOUR_RUN, 6)
    assert standing("spy, blue 7, green 7") == (Formation.SAME_VALUE, 21)
    assert standing("joker, red 8, red 7") == (Formation.COLOUR_RUN, 24)
    assert standing("spy, red 1, blue 2", bluff=True).total == 10


def test_a_player_gets_at_most_one_joker() -> None:
    every_troop = sum(1 << troop for troop in rules.ELITE_TROOPS)
    assert rules.troops_a_player_could_add(every_troop, has_played_joker=False) == (
        rules.JOKER,
        rules.SPY,
        rules.SHIELD_BEARER,
    )
    assert rules.troops_a_player_could_add(every_troop, has_played_joker=True) == (
        rules.SPY,
        rules.SHIELD_BEARER,
    )


# ------------------------------------------------------------------ the engine orders sides alike


@pytest.mark.parametrize("modes", [(), (CombatMode.BLIND_MANS_BLUFF,)], ids=["plain", "bluff"])
def test_every_three_card_side_is_ordered_as_the_engine_orders_it(
    modes: tuple[CombatMode, ...],
) -> None:
    classes = assert_same_order(
        combinations(CARDS, 3),
        lambda side: strength(side, modes),
        lambda side: reference_standing(side, modes),
    )
    # Plain: 7 colour runs, 9 three of a kind, colours totalling 7 to 23, 7 runs, sums 4 to 26;
    # under Blind-Man's Bluff, the totals 3 to 27.
    assert classes == (25 if modes else 7 + 9 + 17 + 7 + 23)


@pytest.mark.parametrize(
    "modes", MODE_SETS[1::2], ids=lambda modes: "+".join(mode.label for mode in modes)
)
def test_a_sample_of_four_card_mud_fight_sides_is_ordered_as_the_engine_orders_it(
    modes: tuple[CombatMode, ...],
) -> None:
    rng = random.Random(4)
    assert side_capacity(modes) == rules.side_size(mud_fight=True) == 4
    sides = [tuple(rng.sample(CARDS, 4)) for _ in range(examples(20_000))]
    # Every four-card colour run and four of a kind too, the rarest formations.
    sides += [tuple(range(start, start + 4)) for start in CARDS if start % 9 <= 5]
    sides += [tuple(colour * 9 + value for colour in range(4)) for value in range(9)]
    assert_same_order(
        sides, lambda side: strength(side, modes), lambda side: reference_standing(side, modes)
    )


@pytest.mark.parametrize("modes", MODE_SETS, ids=["plain", "mud", "bluff", "mud+bluff"])
def test_sides_holding_elite_troops_are_ordered_as_the_engine_orders_them(
    modes: tuple[CombatMode, ...],
) -> None:
    rng = random.Random(7)
    troops = [rules.JOKER, rules.SPY, rules.SHIELD_BEARER]
    size = side_capacity(modes)
    sides = []
    for _ in range(examples(1500)):
        chosen = rng.sample(troops, rng.choice([1, 1, 1, 2]))
        sides.append((*chosen, *rng.sample(CARDS, size - len(chosen))))
    sides += [
        (troop, *rng.sample(CARDS, size - 1)) for troop in troops for _ in range(examples(100))
    ]
    sides += [(rules.SPY, rules.SHIELD_BEARER, *CARDS[: size - 2])]
    sides += [(rules.SHIELD_BEARER, *CARDS[1:size])]  # red 2, red 3 (red 4): a run from 1
    assert_same_order(
        sides, lambda side: strength(side, modes), lambda side: reference_standing(side, modes)
    )


def test_the_misreadings_correct_reading_ranks_as_the_reference_does() -> None:
    for modes in ((), (CombatMode.BLIND_MANS_BLUFF,)):
        bluff = CombatMode.BLIND_MANS_BLUFF in modes
        for side in combinations(CARDS, 3):
            assert RULES.strength(side, modes) == rules.standing_of(side, blind_mans_bluff=bluff)
