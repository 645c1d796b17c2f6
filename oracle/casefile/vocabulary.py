"""The words of the case format, each defined once: who is "you" and who "them", the keys of
a table and what an editor adds when the engine asks for one, the names a case file may have."""

from __future__ import annotations

import re

from engine import (
    Player,
    TableFact,
)

CASES_DIR = "cases"
"""The case folder, below the project folder: one folder a topic, one file a case."""

RULES_INDEX = "rules/index.yaml"
"""The rules index, below the project folder: it marks the project folder too."""

CASE_SUFFIX = ".yaml"


PLAYERS = {"you": Player.A, "them": Player.B}


PLAYER_WORDS = {player: word for word, player in PLAYERS.items()}


CARD_LISTS = ("you", "them", "hand", "discards", "their_hand", "clan_deck", "tactic_deck")


OUTCOMES = {"you": Player.A, "them": Player.B, "nobody": None}


TABLE_KEYS = {
    TableFact.COMPLETION_ORDER: "stones",
    TableFact.STEP: "step",
    TableFact.PASSED: "passed",
    TableFact.COULD_CLAIM: "could_claim",
    TableFact.IDLE_TURNS: "idle_turns",
    TableFact.TACTICS_PLAYED: "tactics_played",
}
"""The key of a case's ``table`` that states each fact the engine may object to."""


MISSING_FACTS = {
    TableFact.COMPLETION_ORDER: " (add completed_first: you or them)",
    TableFact.PASSED: " (add passed: true if you passed)",
    TableFact.COULD_CLAIM: ": add could_claim: true or false",
    TableFact.IDLE_TURNS: (
        ": add idle_turns, the turns in a row before this one in which nobody played a card or"
        " could prove a stone (0 if their last turn was not one)"
    ),
    TableFact.STEP: "",
    TableFact.TACTICS_PLAYED: "",
}
"""What an editor adds when the engine says a table must state a fact the board cannot show."""


WRITTEN_TABLE_FACTS = (
    ("expert", "Expert timing"),
    ("step", "Step of your turn"),
    ("passed", "You passed"),
    ("could_claim", "A stone was provable at this turn's claim step"),
    ("idle_turns", "Idle turns before this one"),
)
"""The facts of a table a written board shows, by key, with their labels."""


NAME_PATTERN = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
"""A topic folder's name, and a case file's name before ``.yaml``: lowercase words and hyphens."""


SITUATION_TO_WRITE = "Describe the board from your side, as the table will show it"
"""The situation a new case starts with, for the editor to replace."""

WHY_TO_WRITE = "Say in a few words why the engine must answer as it does"
"""The why a new case starts with, for the editor to replace."""

IMPOSSIBLE_SITUATION_TO_WRITE = "Describe the board that cannot happen, from your side"
"""The situation a new board the engine must refuse starts with."""

IMPOSSIBLE_WHY_TO_WRITE = "Say which rule the board breaks, in a few words"
"""The why a new board the engine must refuse starts with."""

PLACEHOLDERS = frozenset(
    {SITUATION_TO_WRITE, WHY_TO_WRITE, IMPOSSIBLE_SITUATION_TO_WRITE, IMPOSSIBLE_WHY_TO_WRITE}
)
"""Every text a new case starts with in place of its own words: a draft may keep one, a
published case may not (:func:`oracle.casefile.questions.check_prose_written`)."""
