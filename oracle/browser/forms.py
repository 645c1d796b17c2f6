"""The "Ask the engine" page's board form, and the case file it stands for.

A board set up on the page becomes the text of a case file (:func:`form_case_text`), which the
loader reads as it reads any case, and a loaded case fills the form again (:func:`form_of`). Each
line of the text remembers the form field it came from, so that the loader's message can stand
beside that field.
"""

from __future__ import annotations

import json
from typing import Any

from engine import Player, card_name, parse_card
from engine.cards import CardError
from engine.position import STONES
from oracle.casefile.model import Case
from oracle.casefile.vocabulary import PLAYER_WORDS, SITUATION_TO_WRITE, WHY_TO_WRITE
from oracle.casefile.writer import yaml_scalar

FIELD_NAMES = {
    "variant": "The game",
    "hand": "Your hand",
    "discards": "The face-up discards",
    "jokers_played": "Jokers played",
    "claims": "The claims",
}
"""The form's fields outside the stones, as the page names them."""

STONE_FIELD_NAMES = {
    "you": "your cards",
    "them": "their cards",
    "completed_first": "completed first",
    "claimed_by": "claimed by",
    "modes": "combat modes",
    "claim": "the claim",
}
"""The fields of a stone, as the page names them."""


class PageError(ValueError):
    """A request the page should never send (a bug in the page, not in the reader's board)."""


def field_label(field_id: str) -> str:
    """A form field as the page names it: ``Stone 5, their cards``."""
    if field_id in FIELD_NAMES:
        return FIELD_NAMES[field_id]
    parts = field_id.split("-", 2)
    if len(parts) == 2:
        return f"Stone {parts[1]}"
    return f"Stone {parts[1]}, {STONE_FIELD_NAMES.get(parts[2], parts[2])}"


def card_items(text: str) -> list[str]:
    """The cards typed in one box, each as a YAML scalar; a name the engine knows is normalised."""
    items = []
    for raw in text.replace(";", ",").split(","):
        word = " ".join(raw.split())
        if not word:
            continue
        try:
            items.append(yaml_scalar(card_name(parse_card(word))))
        except CardError:
            items.append(json.dumps(word))  # the loader names what is wrong with it
    return items


class _CaseLines:
    """The lines of a case file being written, and the form field each came from."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.fields: dict[int, str] = {}

    def add(self, line: str, field_id: str | None = None) -> None:
        self.lines.append(line)
        if field_id is not None:
            self.fields[len(self.lines)] = field_id


def form_case_text(
    form: dict[str, Any], expects: dict[int, str] | None = None
) -> tuple[str, dict[int, str]]:
    """The case file for a board set up on the page, and which form field each line came from.

    ``form`` holds ``variant``, ``stones`` (nine mappings of ``you``, ``them``, ``completed_first``,
    ``modes``, ``claimed_by`` and ``claim``), ``hand``, ``discards`` and ``jokers_played``; card
    boxes hold names separated by commas, as in the case files. With ``expects`` (stone to
    verdict), each claim carries the expected verdict, so the file is a complete case.
    """
    variant = str(form.get("variant", "base"))
    text = _CaseLines(
        [
            "# yaml-language-server: $schema=../../oracle/schema/case.schema.json",
            "id: your-board",
            f"situation: {SITUATION_TO_WRITE}",
            f"why: {WHY_TO_WRITE}",
        ]
    )
    text.add(f"variant: {variant if variant in ('base', 'tactics') else json.dumps(variant)}")
    text.fields[len(text.lines)] = "variant"
    text.add("draft: true")
    text.add("position:")
    text.add("  stones:")
    stones = form.get("stones", [])
    if not isinstance(stones, list) or len(stones) != len(STONES):
        raise PageError("the form must describe the nine stones")
    claims = [n for n, stone in enumerate(stones, 1) if _stone_lines(text, n, stone)]
    if text.lines[-1] == "  stones:":
        text.lines[-1] = "  stones: []"
    _rest_of_position(text, form)
    if claims:
        text.add("claims:")
        for number in claims:
            text.add(f"  - stone: {number}", f"stone-{number}-claim")
            if expects and number in expects:
                text.add(f"    expect: {expects[number]}", f"stone-{number}-claim")
    return "\n".join(text.lines) + "\n", text.fields


def _stone_lines(text: _CaseLines, number: int, stone: dict[str, Any]) -> bool:
    """Write one stone of the form (nothing when it is empty); whether it is claimed."""
    name = f"stone-{number}"
    parts: list[tuple[str, str]] = []
    for who in ("you", "them"):
        items = card_items(str(stone.get(who, "")))
        if items:
            parts.append((f"      {who}: [{', '.join(items)}]", f"{name}-{who}"))
    for key in ("completed_first", "claimed_by"):
        value = stone.get(key) or ""
        if value:
            parts.append((f"      {key}: {json.dumps(value)}", f"{name}-{key}"))
    modes = [json.dumps(mode) for mode in stone.get("modes", [])]
    if modes:
        parts.append((f"      modes: [{', '.join(modes)}]", f"{name}-modes"))
    if parts:
        text.add(f"    - stone: {number}", name)
        for line, field_id in parts:
            text.add(line, field_id)
    return bool(stone.get("claim"))


def _rest_of_position(text: _CaseLines, form: dict[str, Any]) -> None:
    """The discards, the hand and the Jokers played, as the form gives them."""
    for key in ("discards", "hand"):
        items = card_items(str(form.get(key, "")))
        if items:
            text.add(f"  {key}: [{', '.join(items)}]", key)
    jokers = [json.dumps(who) for who in form.get("jokers_played", [])]
    if jokers:
        text.add(f"  jokers_played: [{', '.join(jokers)}]", "jokers_played")


def form_of(case: Case) -> dict[str, Any]:
    """The board form showing a loaded case's position."""
    position = case.position
    claimed = set(case.claimed_stones)
    stones = [
        {
            "you": ", ".join(card_name(card) for card in stone.sides[Player.A]),
            "them": ", ".join(card_name(card) for card in stone.sides[Player.B]),
            "completed_first": ""
            if stone.completed_first is None
            else PLAYER_WORDS[stone.completed_first],
            "modes": sorted(mode.value for mode in stone.modes),
            "claimed_by": "" if stone.claimed_by is None else PLAYER_WORDS[stone.claimed_by],
            "claim": number in claimed,
        }
        for number, stone in enumerate(position.stones, 1)
    ]
    gone = [
        PLAYER_WORDS[player]
        for player in (Player.A, Player.B)
        if player in position.jokers_played and not position.jokers_on_border(player)
    ]
    return {
        "variant": position.variant.name,
        "stones": stones,
        "hand": ", ".join(card_name(card) for card in position.hand),
        "discards": ", ".join(card_name(card) for card in position.discards),
        "jokers_played": gone,
    }
