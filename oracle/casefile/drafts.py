"""Starting a case: the text of a new draft (a small skeleton, a board the engine must refuse, or
the board of a seeded game at a given turn), where it goes, and whether its id is free."""

from __future__ import annotations

import random
import re
from pathlib import Path

from engine import Game, Phase, play_random_game
from oracle.casefile.editing import yaml_scalar
from oracle.casefile.entries import case_files
from oracle.casefile.source import SourceError, parse_yaml, shown_path
from oracle.casefile.vocabulary import (
    CASES_DIR,
    IMPOSSIBLE_SITUATION_TO_WRITE,
    IMPOSSIBLE_WHY_TO_WRITE,
    NAME_PATTERN,
    SITUATION_TO_WRITE,
    WHY_TO_WRITE,
)
from oracle.casefile.writer import MODELINE, case_text

SKELETON = """{modeline}
id: {case_id}
situation: {situation}
why: {why}
variant: {variant}
draft: true
rules: []
position:
  stones:
    - stone: 1
      you: [red 7, red 8, red 9]
      them: [blue 7, blue 8]
  hand: [green 1, green 2]
claims:
  - stone: 1
# To ask about moves and turns instead of (or beside) claims, set up the rest of the game and
# ask; cards the case does not place lie in the decks, beneath any you list:
# table:
#   their_hand: [pink 1, pink 2]
#   clan_deck: [yellow 4]          # top card first
#   tactics_played: {{you: 0, them: 0}}
# plays:
#   - move: green 1 on 2
#     expect: legal
# turn:
#   moves: [green 1 on 2, claim 1]
#   expect:
#     log: ["you: green 1 on 2", "you: claim 1", "you: draw clan"]
#     held: {{you: [1], them: []}}
"""

IMPOSSIBLE_SKELETON = """{modeline}
id: {case_id}
situation: {situation}
why: {why}
variant: {variant}
draft: true
rules: []
position:
  stones:
    - stone: 1
      you: [red 6, red 7, red 8, red 9]
      them: [blue 7, blue 8]
  hand: [green 1, green 2]
# The engine must refuse this board: ask prints its refusal after "refused:". Once you agree
# with it, schotten-oracle pin writes it here in place of true; then remove draft: true. A
# table may follow, as in any case about turns, when the refusal is about the game around it.
impossible: true
"""


class DraftRefused(ValueError):
    """A draft that cannot be started: the reason in one line."""


def draft_text(case_id: str, variant: str, *, impossible: bool = False) -> str:
    """A new draft's text: a small claim to edit, or a board the engine must refuse."""
    if impossible:
        situation, why = IMPOSSIBLE_SITUATION_TO_WRITE, IMPOSSIBLE_WHY_TO_WRITE
    else:
        situation, why = SITUATION_TO_WRITE, WHY_TO_WRITE
    skeleton = IMPOSSIBLE_SKELETON if impossible else SKELETON
    return skeleton.format(
        modeline=MODELINE,
        case_id=yaml_scalar(case_id),
        variant=variant,
        situation=situation,
        why=why,
    )


def seeded_draft_text(case_id: str, variant: str, seed: int, turn: int) -> str:
    """A draft of the board a random game of ``seed`` reaches at ``turn``, every card in place."""
    if turn < 0:
        raise DraftRefused(f"--turn {turn}: a turn is 0 (the deal) or later")
    game = Game.named(variant, seed=seed)
    finished = play_random_game(game, random.Random(seed))
    state = game.new_initial_state()
    for move in finished.moves:
        if state.turn >= turn and state.phase in (Phase.PLAY, Phase.CLAIM):
            break
        state.apply(move)
    if state.is_over:
        raise DraftRefused(
            f"the game of seed {seed} ends on turn {finished.turn}; choose an earlier --turn"
        )
    return case_text(state, case_id=case_id) + "turn:\n  moves: []\n"


def next_case_number(folder: Path) -> int:
    """One more than the largest number that starts a file name in ``folder`` (``100-x.yaml``
    counts as 100), so a new case sorts after every case already there."""
    numbers = [
        int(match.group(1))
        for entry in (folder.iterdir() if folder.is_dir() else ())
        if (match := re.match(r"(\d+)", entry.name))
    ]
    return max(numbers, default=0) + 1


def draft_path(root: Path, topic: str, case_id: str) -> Path:
    """Where a new draft goes, numbered after the cases of its topic; :class:`DraftRefused` when
    the id or topic is not a name, the id is taken, or the folder is not a real folder."""
    for value, what in ((case_id, "id"), (topic, "topic")):
        if not NAME_PATTERN.fullmatch(value):
            raise DraftRefused(
                f"{value!r} is not a valid {what}: use lowercase words joined by hyphens, as in"
                " 'last-three-in-your-hand'"
            )
    taken = taken_by(root, case_id)
    if taken is not None:
        raise DraftRefused(f"the id {case_id!r} is taken by {taken}")
    folder = root / CASES_DIR / topic
    for place in (root / CASES_DIR, folder):
        if place.is_symlink():  # check calls a linked folder an error: never write through one
            raise DraftRefused(
                f"{shown_path(place, root)} is a symbolic link; case folders must be real"
                " folders, so nothing was written"
            )
    if folder.exists() and not folder.is_dir():
        raise DraftRefused(
            f"{shown_path(folder, root)} is a file, not a topic folder; choose another topic or"
            " move that file"
        )
    return folder / f"{next_case_number(folder):02d}-{case_id}.yaml"


def taken_by(root: Path, case_id: str) -> str | None:
    """Where ``case_id`` is already used (``path:line``, or a file that does not load yet but
    writes it), or None. Only each file's id is read, not its board: a new draft must not cost
    a replay of the catalogue."""
    written = re.compile(rf"^id:\s*['\"]?{re.escape(case_id)}['\"]?\s*(#.*)?$", re.MULTILINE)
    for path in case_files(root / CASES_DIR):
        if path.is_symlink() or not path.is_file():  # never follow a link or wait on a FIFO
            continue
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        if case_id not in text and "\\" not in text:
            continue  # YAML writes the id as it is, unless with an escape: another id's file
        try:
            document = parse_yaml(text, path, texts=[])
        except SourceError:  # a file that does not load yet still holds its id
            document = None
        if document is not None and isinstance(document.data, dict):
            if document.data.get("id") == case_id:
                return f"{shown_path(path, root)}:{document.line_of(('id',))}"
        elif written.search(text):
            return shown_path(path, root)
    return None
