"""What a case's situation and why say of its board agrees with the board (issue 22).

A reader checks the answer against the words, so words that contradict the board mislead even
when the answer is right. The checks read the plain forms the catalogue writes: a card owned
("your red 5", "their blue 8-9"), cards placed ("red 8 and 9 stand at stone 5"), and a count
of Tactic cards played ("two Tactic cards to your one").

They read the editors' own catalogue, so they are slow tests (CI runs them, make test does
not): a property of the catalogue is for its own gate to report (issue 41), and these are not
yet checks of it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine import ELITE_TROOPS, Player, card_name
from engine.tactics import TACTICS_MASK
from oracle.casefile.model import Case
from oracle.catalogue import Catalogue

ROOT = Path(__file__).resolve().parent.parent
COLOURS = "red|blue|green|yellow|purple|pink"
CARDS = rf"(?:{COLOURS}) \d(?:-\d)*"
"""Cards as prose writes them: ``red 5``, or a colour with several values, ``red 7-8-9``."""
NUMBERS = {"no": 0, "none": 0, "a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5}


pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def catalogue(editors_catalogue: Catalogue) -> Catalogue:
    return editors_catalogue


LIST = rf"{CARDS}(?:(?:,| and|, and) (?:{CARDS}|\d\b))*"
"""Several cards: ``red 8 and 9`` (a bare value keeps the colour before it), ``blue 1, green 2``."""


def cards_in(text: str) -> set[str]:
    """Every card a stretch of prose names, one name each: ``red 7-8`` is red 7 and red 8, and
    ``red 8 and 9`` red 8 and red 9."""
    named, colour = set(), ""
    for written_colour, values in re.findall(rf"(?:({COLOURS}) )?(\d(?:-\d)*)", text):
        colour = written_colour or colour
        named |= {f"{colour} {value}" for value in values.split("-")}
    return named


def prose(case: Case) -> str:
    return f"{case.situation} {case.why}".lower()


def boards(catalogue: Catalogue) -> list[Case]:
    """The published cases whose board the engine builds (a refused board has none)."""
    return [report.case for report in catalogue.published if report.case.impossible is None]


def test_a_card_called_yours_or_theirs_is_on_that_side_or_in_that_hand(
    catalogue: Catalogue,
) -> None:
    wrong = []
    for case in boards(catalogue):
        position, table = case.position, case.table
        owned = {
            "your": {card_name(c) for s in position.stones for c in s.sides[Player.A]}
            | {card_name(c) for c in position.hand},
            "their": {card_name(c) for s in position.stones for c in s.sides[Player.B]}
            | ({card_name(c) for c in table.their_hand} if table else set()),
        }
        owned_cards = rf"\b(your|their) ({LIST})"
        for whose, named in re.findall(owned_cards, prose(case)):
            wrong += [f"{case.id}: {whose} {card}" for card in cards_in(named) - owned[whose]]
    assert not wrong, wrong


def test_cards_said_to_lie_at_a_stone_lie_there(catalogue: Catalogue) -> None:
    wrong, read = [], 0
    placed = rf"({LIST}) (?:lies |lie |stands |stand |waits )?"
    for case in boards(catalogue):
        text = prose(case)
        for found in re.finditer(placed + r"(?:at|on) stone (\d)", text):
            if re.search(r"play|lay|move|complete|add|put|take|draw", text[: found.start()][-25:]):
                continue  # a card on its way there, not lying there yet
            read += 1
            stone = case.position.stone(int(found.group(2)))
            there = {card_name(c) for side in stone.sides for c in side}
            missing = cards_in(found.group(1)) - there
            wrong += [f"{case.id}: {card} at stone {found.group(2)}" for card in sorted(missing)]
    assert read >= 10  # the check reads real sentences, not none
    assert not wrong, wrong


def test_a_count_of_tactic_cards_played_fits_the_cards_face_up(catalogue: Catalogue) -> None:
    """ "Two Tactic cards to your one": the two counts add up to the Tactic cards face up, and
    each player has played at least the elite troops on their side."""
    read = 0
    for case in boards(catalogue):
        counted = re.search(r"\b(\w+) tactic cards? to your (\w+)", prose(case))
        if counted is None:
            continue
        read += 1
        theirs, yours = (NUMBERS[word] for word in counted.groups())
        position = case.position
        face_up = bin(position.on_table_mask() & TACTICS_MASK).count("1")
        troops = [
            sum(card in ELITE_TROOPS for s in position.stones for card in s.sides[player])
            for player in Player
        ]
        assert yours + theirs == face_up, case.id
        assert yours >= troops[Player.A] and theirs >= troops[Player.B], case.id
    assert read >= 1
