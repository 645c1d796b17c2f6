"""Write a game state as the text of a case file, from the point of view of the player to move.

The loader reads the text back into the same state, so an editor can start a case from any
moment of a real game (a seeded game, say) and then trim it by hand. Scalars are written by
:func:`oracle.casefile.editing.yaml_scalar`, the one writer of a scalar, so whatever an editor
types reads back as typed.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from engine import (
    SECOND_JOKER_NAME,
    Deck,
    GameState,
    Phase,
    Player,
    Position,
    StoneState,
    Tactic,
    card_name,
)
from oracle.casefile.editing import yaml_scalar
from oracle.casefile.validation import load_schema
from oracle.casefile.vocabulary import PLAYER_WORDS, SITUATION_TO_WRITE, WHY_TO_WRITE

MODELINE = "# yaml-language-server: $schema=../../oracle/schema/case.schema.json"
"""The first line of every case file: editors check it against the editors' schema."""


ID_WORDS = 8
"""How many words of its situation a case's id keeps at most."""


def case_id_from(situation: str, fallback: str = "your-board") -> str:
    """An id for a case, made from the words of its situation: ``Your 1-1-1 against their
    3-3!`` gives ``your-1-1-1-against-their-3-3``. Letters lose their accents; what is neither a
    letter nor a digit separates words; the id is clipped at a word to the length the case
    format allows (a single longer word is cut); ``fallback`` when nothing is left. Write it
    with :func:`oracle.casefile.editing.yaml_scalar`: ``yes`` or ``123`` is an id too."""
    plain = unicodedata.normalize("NFKD", situation).encode("ascii", "ignore").decode("ascii")
    words = re.findall(r"[a-z0-9]+", plain.lower())[:ID_WORDS]
    longest = load_schema("case.base")["properties"]["id"]["maxLength"]
    kept = ""
    for word in words:
        longer = f"{kept}-{word}" if kept else word
        if len(longer) > longest:
            break
        kept = longer
    if not kept and words:
        kept = words[0][:longest]
    return kept or fallback


def flow(cards: Iterable[int], written: set[int] | None = None) -> str:
    """Cards as a flow list: ``[red 5, joker]``. ``written`` holds the cards written before
    these in the file, in the order the loader reads them (and gains these): the second Joker
    is ``second joker`` while the first is not among them, since a lone ``joker`` is the first."""
    written = set() if written is None else written
    names = []
    for card in cards:
        second = card == Tactic.SECOND_JOKER and Tactic.JOKER not in written
        names.append(yaml_scalar(SECOND_JOKER_NAME if second else card_name(card)))
        written.add(card)
    return "[" + ", ".join(names) + "]"


def case_text(
    state: GameState,
    *,
    case_id: str,
    situation: str = SITUATION_TO_WRITE,
    why: str = WHY_TO_WRITE,
    rules: Iterable[str] = (),
    draft: bool = True,
) -> str:
    """The case file for ``state`` as seen by the player to move (who becomes "you")."""
    if state.phase not in (Phase.PLAY, Phase.CLAIM, Phase.DRAW):
        raise ValueError(
            f"a case starts at the play, claim or draw step, not the {state.phase.value} step"
        )
    lines = [
        MODELINE,
        f"id: {yaml_scalar(case_id)}",
        f"situation: {yaml_scalar(situation)}",
        f"why: {yaml_scalar(why)}",
        f"variant: {state.variant.name}",
    ]
    if draft:
        lines.append("draft: true")
    rules = list(rules)
    if rules:
        lines.append(f"rules: [{', '.join(rules)}]")
    written: set[int] = set()
    lines += position_lines(state.position(state.current_player), written)
    lines += table_lines(state, written)
    return "\n".join(lines) + "\n"


def _words(viewer: Player) -> dict[Player, str]:
    """Who is "you" and who "them", seen from ``viewer``."""
    return {viewer: PLAYER_WORDS[Player.A], viewer.other: PLAYER_WORDS[Player.B]}


def position_lines(position: Position, written: set[int] | None = None) -> list[str]:
    """The ``position:`` of a case file: the stones that hold anything, discards, hand, Jokers
    (``written``: the cards written so far, as :func:`flow` keeps them)."""
    written = set() if written is None else written
    who = _words(position.viewer)
    lines = ["position:", "  stones:"]
    for number, stone in enumerate(position.stones, 1):
        if not stone.is_empty:
            lines += _stone_lines(number, stone, position.viewer, written)
    if lines[-1] == "  stones:":
        lines[-1] = "  stones: []"
    if position.discards:
        lines.append(f"  discards: {flow(position.discards, written)}")
    lines.append(f"  hand: {flow(position.hand, written)}")
    gone = [
        who[player]
        for player in (position.viewer, position.viewer.other)
        if player in position.jokers_played and not position.jokers_on_border(player)
    ]
    if gone:
        lines.append(f"  jokers_played: [{', '.join(gone)}]")
    return lines


def _stone_lines(number: int, stone: StoneState, viewer: Player, written: set[int]) -> list[str]:
    """One stone of ``position.stones``, seen from ``viewer``."""
    who = _words(viewer)
    lines = [f"    - stone: {number}"]
    for player in (viewer, viewer.other):
        if stone.sides[player]:
            lines.append(f"      {who[player]}: {flow(stone.sides[player], written)}")
    if stone.completed_first is not None:
        lines.append(f"      completed_first: {who[stone.completed_first]}")
    if stone.modes:
        modes = ", ".join(yaml_scalar(mode.label) for mode in sorted(stone.modes, key=str))
        lines.append(f"      modes: [{modes}]")
    if stone.claimed_by is not None:
        lines.append(f"      claimed_by: {who[stone.claimed_by]}")
    return lines


def table_lines(state: GameState, written: set[int] | None = None) -> list[str]:
    """The ``table:`` of a case file: their hand, the decks, the counts, the facts of the turn
    (``written``: the cards the position wrote, as :func:`flow` keeps them)."""
    written = set() if written is None else written
    me = state.current_player
    lines = ["table:", f"  their_hand: {flow(state.hands[me.other], written)}"]
    lines.append(f"  clan_deck: {flow(reversed(state.decks[Deck.CLAN]), written)}")
    if Deck.TACTICS in state.decks:
        lines.append(f"  tactic_deck: {flow(reversed(state.decks[Deck.TACTICS]), written)}")
        mine, theirs = state.tactics_played[me], state.tactics_played[me.other]
        lines.append(f"  tactics_played: {{you: {mine}, them: {theirs}}}")
    expert = state.game.expert
    if expert:
        lines.append("  expert: true")
    if state.phase is not (Phase.CLAIM if expert else Phase.PLAY):
        lines.append(f"  step: {state.phase.value}")
    play_done = state.phase is Phase.DRAW or (state.phase is Phase.CLAIM and not expert)
    if play_done and not state.played_this_turn:
        lines.append("  passed: true")
    if state.phase is Phase.DRAW or (state.phase is Phase.PLAY and expert):
        lines.append(f"  could_claim: {'true' if state.could_claim_this_turn else 'false'}")
    lines.append(f"  idle_turns: {state.idle_turns}")
    return lines


__all__ = [
    "ID_WORDS",
    "MODELINE",
    "case_id_from",
    "case_text",
    "flow",
    "position_lines",
    "table_lines",
]
