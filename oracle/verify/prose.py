"""What a case's situation and why say of its board, read against the board.

A reader checks the answer against the words, so words that contradict the board mislead even
when the answer is right. This reads the plain forms the catalogue writes: a card owned
("your red 5", "their blue 8-9"), cards placed ("red 8 and 9 stand at stone 5"), and a count of
Tactic cards played ("two Tactic cards to your one"). What it cannot read it leaves alone: it
finds contradictions, it does not prove the prose right.
"""

from __future__ import annotations

import re

from engine import ELITE_TROOPS, TACTICS_MASK, Player, card_name
from oracle.casefile.model import Case

COLOURS = "red|blue|green|yellow|purple|pink"
CARDS = rf"(?:{COLOURS}) \d(?:-\d)*"
"""Cards as prose writes them: ``red 5``, or a colour with several values, ``red 7-8-9``."""
LIST = rf"{CARDS}(?:(?:,| and|, and) (?:{CARDS}|\d\b))*"
"""Several cards: ``red 8 and 9`` (a bare value keeps the colour before it), ``blue 1, green 2``."""
NUMBERS = {"no": 0, "none": 0, "a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
PLACED = re.compile(rf"({LIST}) (?:lies |lie |stands |stand |waits )?(?:at|on) stone (\d)")
ON_ITS_WAY = re.compile(r"play|lay|move|complete|add|put|take|draw")
"""Words just before cards named at a stone that say they are going there, not lying there."""


def cards_in(text: str) -> set[str]:
    """Every card a stretch of prose names, one name each: ``red 7-8`` is red 7 and red 8, and
    ``red 8 and 9`` red 8 and red 9."""
    named, colour = set(), ""
    for written_colour, values in re.findall(rf"(?:({COLOURS}) )?(\d(?:-\d)*)", text):
        colour = written_colour or colour
        named |= {f"{colour} {value}" for value in values.split("-")}
    return named


def prose_of(case: Case) -> str:
    """The situation and the why, as the checks read them."""
    return f"{case.situation} {case.why}".lower()


def prose_contradictions(case: Case) -> list[str]:
    """What the case's situation and why say of its board that the board contradicts, each in
    a phrase (empty for a board the engine refuses: it has none to read against)."""
    if case.impossible is not None:
        return []
    return _owned(case) + _placed(case) + _tactic_count(case)


def placed_phrases(case: Case) -> int:
    """How many phrases place cards at a stone: what :func:`prose_contradictions` reads."""
    text = prose_of(case)
    return sum(
        1 for found in PLACED.finditer(text) if not ON_ITS_WAY.search(text[: found.start()][-25:])
    )


def _owned(case: Case) -> list[str]:
    position, table = case.position, case.table
    owned = {
        "your": {card_name(c) for s in position.stones for c in s.sides[Player.A]}
        | {card_name(c) for c in position.hand},
        "their": {card_name(c) for s in position.stones for c in s.sides[Player.B]}
        | ({card_name(c) for c in table.their_hand} if table else set()),
    }
    wrong = []
    for whose, named in re.findall(rf"\b(your|their) ({LIST})", prose_of(case)):
        where = "on your side or in your hand" if whose == "your" else "on their side or hand"
        wrong += [
            f"it says {whose} {card}, but {card} is not {where}"
            for card in sorted(cards_in(named) - owned[whose])
        ]
    return wrong


def _placed(case: Case) -> list[str]:
    text, wrong = prose_of(case), []
    for found in PLACED.finditer(text):
        if ON_ITS_WAY.search(text[: found.start()][-25:]):
            continue  # a card on its way there, not lying there yet
        number = int(found.group(2))
        stone = case.position.stone(number)
        there = {card_name(c) for side in stone.sides for c in side}
        wrong += [
            f"it says {card} is at stone {number}, but it is not there"
            for card in sorted(cards_in(found.group(1)) - there)
        ]
    return wrong


def _tactic_count(case: Case) -> list[str]:
    """ "Two Tactic cards to your one": the two counts add up to the Tactic cards face up, and
    each player has played at least the elite troops on their side."""
    counted = re.search(r"\b(\w+) tactic cards? to your (\w+)", prose_of(case))
    if counted is None or not all(word in NUMBERS for word in counted.groups()):
        return []
    theirs, yours = (NUMBERS[word] for word in counted.groups())
    position = case.position
    face_up = bin(position.on_table_mask() & TACTICS_MASK).count("1")
    troops = [
        sum(card in ELITE_TROOPS for s in position.stones for card in s.sides[player])
        for player in Player
    ]
    said = f"it counts {theirs} Tactic cards played to your {yours}"
    if yours + theirs != face_up:
        return [f"{said}, but {face_up} are face up"]
    if yours < troops[Player.A] or theirs < troops[Player.B]:
        return [f"{said}, fewer than the elite troops on that side"]
    return []


__all__ = ["cards_in", "placed_phrases", "prose_contradictions", "prose_of"]
