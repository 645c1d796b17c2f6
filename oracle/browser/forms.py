"""The "Ask the engine" page's board form, and the case file it stands for.

A board set up on the page becomes the text of a case file (:func:`form_case_text`), which the
loader reads as it reads any case, and a loaded case fills the form again (:func:`form_of`): the
page's board and its case file are two views of one thing. Each line of the text remembers the
form field it came from, so that the loader's message can stand beside that field. Once the
engine has answered, the text is a finished case (:class:`Answered`): verdicts and reasons pinned,
the rules they relied on named, the id made from the reader's situation.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

import yaml

from engine import STONES, CardError, Player, card_name, parse_card
from oracle.casefile.editing import fitted_scalar, yaml_scalar
from oracle.casefile.model import Case
from oracle.casefile.questions import pinned_words
from oracle.casefile.source import DataPath, LocatedDocument, text_problem
from oracle.casefile.vocabulary import (
    PLACEHOLDERS,
    PLAYER_WORDS,
    SITUATION_TO_WRITE,
    WHY_TO_WRITE,
)
from oracle.casefile.writer import MODELINE, case_id_from

FIELD_NAMES = {
    "situation": "The situation",
    "why": "Why",
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


@dataclass(frozen=True)
class Answered:
    """What the engine answered about a board, to be written into its case file: each claimed
    stone's verdict and reason in words, and the rules the answers relied on."""

    expects: dict[int, tuple[str, str]]
    rules: tuple[str, ...]


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
    """The lines of a case file being written, the form field each came from, and the lines
    that write the engine's answers (and ``draft:``, which an answered board may drop)."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.fields: dict[int, str] = {}
        self.answers: dict[DataPath, int] = {}
        """The line of each value an answer sets (``rules``, a claim's ``expect``...)."""
        self.answer_lines: set[int] = set()

    def add(self, line: str, field_id: str | None = None, answer: DataPath | None = None) -> None:
        self.lines.append(line)
        if field_id is not None:
            self.fields[len(self.lines)] = field_id
        if answer is not None:
            self.answer_lines.add(len(self.lines))
            if answer:  # () for a folded value's later lines
                self.answers[answer] = len(self.lines)


@dataclass(frozen=True)
class WrittenCase:
    """A board's case file as :func:`written_case` writes it: its text, the form field of each
    line, and where the answers are written in it (each value's line, and all their lines)."""

    text: str
    fields: dict[int, str]
    answers: dict[DataPath, int]
    answer_lines: frozenset[int]


def form_case_text(
    form: dict[str, Any], answered: Answered | None = None
) -> tuple[str, dict[int, str]]:
    """The case file for a board set up on the page, and which form field each line came from
    (:func:`written_case`)."""
    written = written_case(form, answered)
    return written.text, written.fields


def written_case(form: dict[str, Any], answered: Answered | None = None) -> WrittenCase:
    """The case file for a board set up on the page, and which form field each line came from.

    ``form`` holds ``situation`` and ``why`` (the reader's words, if any), ``variant``,
    ``stones`` (nine mappings of ``you``, ``them``, ``completed_first``, ``modes``,
    ``claimed_by`` and ``claim``), ``hand``, ``discards`` and ``jokers_played``; card boxes hold
    names separated by commas, as in the case files. The id is made from the situation. With
    ``answered``, each claim pins the engine's verdict and its reason, the rules it relied on
    are named, and the file is a finished case: a draft only while the situation or why is
    still to be written.
    """
    text = _CaseLines([MODELINE])
    _header_lines(text, form, answered)
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
        for index, number in enumerate(claims):
            field = f"stone-{number}-claim"
            text.add(f"  - stone: {number}", field)
            if answered is not None and number in answered.expects:
                verdict, because = answered.expects[number]
                text.add(f"    expect: {verdict}", field, ("claims", index, "expect"))
                where: DataPath = ("claims", index, "because")
                for line in f"    because: {fitted_scalar(because, 4, 9)}".splitlines():
                    text.add(line, field, where)
                    where = ()
    return WrittenCase(
        "\n".join(text.lines) + "\n", text.fields, text.answers, frozenset(text.answer_lines)
    )


def _header_lines(text: _CaseLines, form: dict[str, Any], answered: Answered | None) -> None:
    """The id, the reader's words (or the placeholders), the variant, draft and rules."""
    variant = str(form.get("variant", "base"))
    situation = _written(form.get("situation"), SITUATION_TO_WRITE)
    why = _written(form.get("why"), WHY_TO_WRITE)
    case_id = case_id_from(situation if situation != SITUATION_TO_WRITE else "")
    text.add(f"id: {yaml_scalar(case_id)}")
    text.add(f"situation: {yaml_scalar(situation)}", "situation")
    text.add(f"why: {yaml_scalar(why)}", "why")
    text.add(f"variant: {variant if variant in ('base', 'tactics') else json.dumps(variant)}")
    text.fields[len(text.lines)] = "variant"
    if answered is None or {situation, why} & PLACEHOLDERS:
        text.add("draft: true", answer=("draft",))
    if answered is not None and answered.rules:
        text.add(f"rules: [{', '.join(answered.rules)}]", answer=("rules",))


def _written(words: object, placeholder: str) -> str:
    """What the reader wrote in a text field, on one line; the placeholder when nothing."""
    return pinned_words(str(words or "")) or placeholder


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


_RULE_ID = re.compile(r"[a-z]+(\.[a-z0-9-]+)+")
"""A rule id as the index writes them, which a flow list reads back as written."""


ANSWERED_KEYS = ("draft", "rules", "claims")
"""The top-level values :func:`answered_document` sets or removes in the board's document: the
only ones the case schema need look at again in the finished document."""


def answered_document(
    document: LocatedDocument, board: WrittenCase, finished: WrittenCase, answered: Answered
) -> LocatedDocument | None:
    """The document of ``finished`` (the board written with the engine's answers), made from
    ``document`` (read from ``board``, the board's case file) with the answers put in as the
    writer puts them in the text: each value where YAML would read it, at its line, and every
    other value at its line in ``finished``. None where an answer would not read back as
    written (the text is read then): a reason with spaces the folding would change, or with
    characters a case file refuses; a rule id YAML would not read as written."""
    reasons = [because for _, because in answered.expects.values()]
    if not all(map(_reads_back, reasons)) or not all(map(_RULE_ID.fullmatch, answered.rules)):
        return None
    lines_to = _lines_moved(board, finished)
    if lines_to is None:
        return None
    lines = {where: lines_to[at] for where, at in document.lines.items() if where != ("draft",)}
    data = {key: value for key, value in document.data.items() if key != "draft"}
    if ("draft",) in finished.answers:
        data["draft"] = True
        lines[("draft",)] = finished.answers[("draft",)]
    if answered.rules:
        data["rules"] = list(answered.rules)
        at = lines[("rules",)] = finished.answers[("rules",)]
        lines.update({("rules", index): at for index in range(len(answered.rules))})
    data["claims"] = _claims_answered(document.data["claims"], lines, finished, answered)
    return LocatedDocument(document.path, data, lines)


def _claims_answered(
    claims: list[dict[str, Any]],
    lines: dict[DataPath, int],
    finished: WrittenCase,
    answered: Answered,
) -> list[dict[str, Any]]:
    """The claims with the engine's verdict and reason each, their lines put in ``lines``."""
    answered_claims = [dict(raw) for raw in claims]
    for index, raw in enumerate(answered_claims):
        if raw["stone"] in answered.expects:
            raw["expect"], raw["because"] = answered.expects[raw["stone"]]
            for key in ("expect", "because"):
                lines[("claims", index, key)] = finished.answers[("claims", index, key)]
    return answered_claims


def _lines_moved(board: WrittenCase, finished: WrittenCase) -> dict[int, int] | None:
    """Where each line of ``board`` but its answers' (``draft:``) stands in ``finished``: the
    same lines in the same order, the answers' lines aside (None if they are not)."""
    old = board.text.split("\n")
    new = finished.text.split("\n")
    kept = [number for number in range(1, len(old) + 1) if number not in board.answer_lines]
    moved = [number for number in range(1, len(new) + 1) if number not in finished.answer_lines]
    if [old[n - 1] for n in kept] != [new[n - 1] for n in moved]:
        return None  # not the same board (never: both are written from one form)
    return dict(zip(kept, moved, strict=True))


def _reads_back(because: str) -> bool:
    """Whether a reason written by :func:`fitted_scalar` reads back as itself: one space
    between words (as folding joins the lines it wraps), and no character a case file refuses."""
    return (
        bool(because)
        and because == " ".join(because.split())
        and text_problem(because) is None
        and yaml.reader.Reader.NON_PRINTABLE.search(because) is None
    )


def form_of(case: Case) -> dict[str, Any]:
    """The board form showing a loaded case's position, and its situation and why unless they
    are still the placeholders."""
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
    own_words = {
        key: "" if pinned_words(value) in PLACEHOLDERS else pinned_words(value) or ""
        for key, value in (("situation", case.situation), ("why", case.why))
    }
    return {
        **own_words,
        "variant": position.variant.name,
        "stones": stones,
        "hand": ", ".join(card_name(card) for card in position.hand),
        "discards": ", ".join(card_name(card) for card in position.discards),
        "jokers_played": gone,
    }
