"""Turn case files and the rules index into the typed model, or into one-line located errors.

The order of checks: YAML that is safe and well formed, then the JSON Schema (keys, types, enums),
then the cards and the position (the engine's own checks: a card twice, a side over capacity, a
missing completion order), then what only a case can get wrong (a claim on a claimed stone, an
unknown rule id). The first problem found is reported as ``path:line: problem``.
"""

from __future__ import annotations

import difflib
import json
import os
import re
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema

from engine import (
    JOKERS,
    CardError,
    CombatMode,
    DuplicateCard,
    MisplacedCard,
    Player,
    Position,
    PositionError,
    SideOverCapacity,
    StoneState,
    Tactic,
    Verdict,
    card_name,
    parse_card,
    variant_named,
)
from engine.cards import CARDS, echoed, mask_of
from engine.game import Phase, TableError, TableFact
from engine.misreadings import MISREADINGS
from engine.reachable import reachability_problems
from engine.tactics import COMBAT_MODE_CARDS
from oracle.casefile.model import (
    Case,
    Claim,
    DealQuestion,
    ImpossibleBoard,
    MatchQuestion,
    PlayQuestion,
    RoundPlayed,
    RuleEntry,
    RulesIndex,
    Table,
    TurnExpectation,
    TurnQuestion,
    WrittenBoard,
    WrittenStone,
)
from oracle.casefile.source import (
    DataPath,
    LocatedDocument,
    SourceError,
    parse_yaml,
    read_text,
    read_yaml,
    shown_path,
)

CASE_SUFFIX = ".yaml"
PLAYERS = {"you": Player.A, "them": Player.B}
PLAYER_WORDS = {player: word for word, player in PLAYERS.items()}
CARD_LISTS = ("you", "them", "hand", "discards", "their_hand", "clan_deck", "tactic_deck")
QUESTIONS = ("claims", "plays", "turn", "deal", "match", "impossible")
OUTCOMES = {"you": Player.A, "them": Player.B, "nobody": None}


class CaseError(SourceError):
    """A case file that cannot be used: malformed, impossible or unsafe."""


class EngineObjection(CaseError):
    """The engine's refusal of a case's board or table, located at the line at fault.

    ``problem`` is what the editor reads (for a card written twice, with both lines);
    ``objection`` keeps the engine's own error, whose message an impossible case pins.
    """

    def __init__(self, located: CaseError, objection: PositionError) -> None:
        super().__init__(located.path, located.line, located.problem)
        self.objection = objection


@cache
def load_schema(name: str) -> dict[str, Any]:
    """One of the package's JSON Schemas: ``case`` or ``rules``."""
    text = resources.files("oracle").joinpath(f"schema/{name}.schema.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def _schema_problem(error: jsonschema.ValidationError) -> tuple[DataPath, str]:
    """A located, editor-friendly sentence for a schema violation."""
    where: DataPath = tuple(error.absolute_path)
    instance = error.instance
    schema: dict[str, Any] = error.schema if isinstance(error.schema, dict) else {}
    expected_value: Any = error.validator_value
    if error.validator == "additionalProperties" and isinstance(instance, dict):
        allowed = sorted(schema.get("properties", {}))
        unknown = sorted(key for key in instance if key not in allowed)
        key = unknown[0]
        close = difflib.get_close_matches(key, allowed, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        return (*where, key), f"unknown key {key!r}{hint} (allowed here: {', '.join(allowed)})"
    if error.validator == "required" and isinstance(instance, dict):
        missing = [key for key in expected_value if key not in instance]
        place = f" in {_describe_place(where)}" if where else ""
        return where, f"missing key {missing[0]!r}{place}"
    if error.validator == "enum":
        choices = ", ".join(repr(choice) for choice in expected_value)
        shown = _shown(instance)
        return (
            where,
            f"{shown} is not allowed for {_describe_place(where)}; use one of {choices}",
        )
    if error.validator == "type":
        expected = {
            "array": "a list",
            "object": "a mapping of keys",
            "string": "text",
            "integer": "a whole number",
            "boolean": "true or false",
        }
        wanted = expected.get(str(expected_value), str(expected_value))
        hint = ""
        if "moves" in where and isinstance(instance, int):
            hint = '; a move with a comma needs quotes, as in "claim 3, 5"'
        return where, f"{_describe_place(where)} must be {wanted}, not {_shown(instance)}{hint}"
    if error.validator == "maxLength" and isinstance(instance, str):
        return where, (
            f"{_describe_place(where)} is {len(instance)} characters long; keep it within"
            f" {expected_value}"
        )
    if error.validator == "maxItems" and isinstance(instance, list):
        return where, f"{_describe_place(where)} lists {len(instance)}; at most {expected_value}"
    if error.validator in ("minimum", "maximum") and "stone" in map(str, where):
        return where, f"no stone {instance!r}: stones are numbered 1 to 9"
    if error.validator == "pattern" and isinstance(instance, str) and _is_card_list(where):
        try:
            card = parse_card(instance)
        except CardError as card_error:
            return where, str(card_error)
        return where, f"{instance!r}: write Tactic cards in lowercase, as in {card_name(card)!r}"
    if error.validator == "pattern" and schema.get("$ref") is None:
        description = schema.get("description")
        return where, f"{_shown(instance)} is not a valid {_describe_place(where)}" + (
            f": {description}" if description else ""
        )
    return where, f"{_describe_place(where)}: {error.message}"


def _shown(value: Any) -> str:
    """A value as the editor wrote it; YAML reads yes/no/on/off as true or false."""
    if isinstance(value, bool):
        return f"{str(value).lower()} (YAML reads yes, no, on and off as true or false)"
    shown = repr(value)
    return shown if len(shown) <= 60 else f"{shown[:50]}... ({len(shown)} characters)"


def _is_card_list(where: DataPath) -> bool:
    return len(where) >= 2 and isinstance(where[-1], int) and where[-2] in CARD_LISTS


def _describe_place(where: DataPath) -> str:
    names = [str(part) for part in where if isinstance(part, str)]
    return f"'{names[-1]}'" if names else "the file"


def validate(document: LocatedDocument, schema_name: str) -> None:
    """Check ``document`` against a JSON Schema; raise the most telling violation, located."""
    problems = schema_problems(document, schema_name, group=0)
    if problems:
        raise problems[()]


def schema_problems(
    document: LocatedDocument, schema_name: str, *, group: int
) -> dict[DataPath, CaseError]:
    """The most telling violation of a JSON Schema in ``document`` for each value at depth
    ``group`` (0: the whole file; 2: each rule of the rules index), by that value's place."""
    validator = jsonschema.Draft7Validator(load_schema(schema_name))
    # An unknown key comes first: it is usually a typo, which also explains a "missing" key.
    ranked = sorted(
        validator.iter_errors(document.data),
        key=lambda error: (
            error.validator != "additionalProperties",
            document.line_of(tuple(error.absolute_path)),
            -len(error.absolute_path),
        ),
    )
    chosen: dict[DataPath, CaseError] = {}
    for error in ranked:
        place = tuple(error.absolute_path)[:group]
        if place not in chosen:
            where, problem = _schema_problem(error)
            chosen[place] = CaseError(document.path, document.line_of(where), problem)
    return chosen


def load_rules_index(path: Path) -> RulesIndex:
    """Read the rules index, or raise :class:`CaseError` with its file and line, carrying every
    problem found (:meth:`SourceError.every`): one per rule at most."""
    texts: list[SourceError] = []
    try:
        document = read_yaml(path, texts=texts)
    except SourceError as error:
        raise CaseError(error.path, error.line, error.problem, error.others) from None
    found = schema_problems(document, "rules", group=2)
    problems = [*(CaseError(e.path, e.line, e.problem) for e in texts), *found.values()]
    if not (isinstance(document.data, dict) and isinstance(document.data.get("rules"), list)):
        raise CaseError.of_all(problems)  # the file's shape is wrong: nothing more to read
    broken = {place[1] for place in found if len(place) == 2}
    entries: list[RuleEntry] = []
    seen: dict[str, int] = {}
    for index, raw in enumerate(document.data["rules"]):
        if index in broken:
            continue
        line = document.line_of(("rules", index))
        if raw["id"] in seen:
            problems.append(
                CaseError(
                    path,
                    line,
                    f"rule id {raw['id']!r} is used twice (first at line {seen[raw['id']]})",
                )
            )
        seen[raw["id"]] = line
        entries.append(
            RuleEntry(
                id=raw["id"],
                kind=raw["kind"],
                section=raw["section"],
                title=raw["title"].strip(),
                text=raw["text"].strip(),
                reason=raw["reason"].strip() if "reason" in raw else None,
                line=line,
            )
        )
    if problems:
        raise CaseError.of_all(problems)
    return RulesIndex(path, tuple(entries))


def _cards(
    document: LocatedDocument, where: DataPath, places: dict[int, list[int]]
) -> tuple[int, ...]:
    """Parse the list of cards at ``where``, recording each card's line for later messages."""
    raw: Sequence[str] = _get(document.data, where) or []
    cards = []
    for index, text in enumerate(raw):
        line = document.line_of((*where, index))
        try:
            card = parse_card(text)
        except CardError as error:
            raise CaseError(document.path, line, str(error)) from None
        if card == Tactic.JOKER and card in places and Tactic.SECOND_JOKER not in places:
            card = Tactic.SECOND_JOKER  # the game has two Jokers: the second one named
        places.setdefault(card, []).append(line)
        cards.append(card)
    return tuple(cards)


def _get(data: Any, where: DataPath) -> Any:
    for part in where:
        if isinstance(part, int):
            data = data[part]
        elif part not in data:
            return None
        else:
            data = data[part]
    return data


def load_case(path: Path, rules: RulesIndex | None = None) -> Case:
    """Read one case file into a :class:`Case`, or raise :class:`CaseError` with file and line.

    With ``rules``, every pinned rule id must exist in the index. The steps: read and validate
    the YAML, build the position, then the claims, the table, the other questions, and check
    the names the case uses (misreadings, rule ids).
    """
    document = _read_case_document(path)
    data = document.data
    if "impossible" in data:
        return _impossible_case(document, rules)
    board = _board(document)
    claims = _claims(document, board.position)
    table = _table_of(document, board)
    plays = _plays(document)
    guards = _guards(document)
    pinned = _pinned_rules(document, rules)
    return Case(
        id=data["id"],
        path=path,
        line=document.line_of(("id",)),
        situation=data["situation"].strip(),
        why=data["why"].strip(),
        draft=bool(data.get("draft", False)),
        position=board.position,
        claims=claims,
        rules=pinned,
        table=table,
        plays=plays,
        turn=_turn(document, board.places) if "turn" in data else None,
        deal=_deal(document) if "deal" in data else None,
        match=_match(document) if "match" in data else None,
        guards_against=guards,
        played_first=tuple(
            (raw["stone"], PLAYERS[raw["played_first"]])
            for raw in data["position"]["stones"]
            if "played_first" in raw
        ),
    )


_READ_CASES: dict[str, tuple[str, dict[DataPath, int]]] = {}
"""Case texts already read and found valid in this process: their data (as JSON) and lines."""

_READ_CASES_KEPT = 1024
"""How many texts :data:`_READ_CASES` holds before it starts again."""


def _read_case_document(path: Path) -> LocatedDocument:
    """The case file's YAML, validated against the case schema, that asks something.

    The result depends on the file's text alone, and a site build or a test run reads each case
    several times: a text already found valid here is not parsed and validated again. A text
    that fails is read afresh each time, so that its error names its own file.
    """
    try:
        text = read_text(path)
    except SourceError as error:
        raise CaseError(error.path, error.line, error.problem, error.others) from None
    known = _READ_CASES.get(text)
    if known is not None:
        data_json, lines = known
        return LocatedDocument(path, json.loads(data_json), dict(lines))
    try:
        document = parse_yaml(text, path)
    except SourceError as error:
        raise CaseError(error.path, error.line, error.problem, error.others) from None
    validate(document, "case.base")
    data = document.data
    if not any(key in data for key in QUESTIONS):
        raise CaseError(
            path,
            document.line_of(("id",)),
            "the case asks nothing: add claims, plays, turn, deal or match",
        )
    data.setdefault("position", {"stones": []})
    data["position"].setdefault("stones", [])
    if len(_READ_CASES) >= _READ_CASES_KEPT:
        _READ_CASES.clear()
    _READ_CASES[text] = (json.dumps(data), dict(document.lines))
    return document


@dataclass(frozen=True)
class _Board:
    """The position a case describes, with what locating the engine's objections needs: each
    stone as written and its index in the file, and the lines each card appears on."""

    position: Position
    stones: dict[int, StoneState]
    stone_indexes: dict[int, int]
    places: dict[int, list[int]]

    def error(self, document: LocatedDocument, error: PositionError) -> CaseError:
        return _position_error(document, error, self.stones, self.stone_indexes, self.places)


def _board(document: LocatedDocument) -> _Board:
    """The position: every stone, the discards and the hand, checked by the engine (a board
    that cannot exist, or that no game in progress can reach, is refused at its line)."""
    path, data = document.path, document.data
    places: dict[int, list[int]] = {}
    stones: dict[int, StoneState] = {}
    stone_lines: dict[int, int] = {}
    stone_indexes: dict[int, int] = {}
    for index, raw in enumerate(data["position"]["stones"]):
        stone_at: DataPath = ("position", "stones", index)
        number = raw["stone"]
        line = document.line_of(stone_at)
        if number in stones:
            raise CaseError(
                path, line, f"stone {number} is listed twice (first at line {stone_lines[number]})"
            )
        stone_lines[number] = line
        stone_indexes[number] = index
        sides = [_cards(document, (*stone_at, name), places) for name in PLAYERS]
        stones[number] = StoneState(
            sides=(sides[0], sides[1]),
            completed_first=PLAYERS.get(raw.get("completed_first", "")),
            modes=frozenset(CombatMode(mode) for mode in raw.get("modes", ())),
            claimed_by=PLAYERS.get(raw.get("claimed_by", "")),
        )
    discards = _cards(document, ("position", "discards"), places)
    hand = _cards(document, ("position", "hand"), places)
    try:
        position = Position.from_stones(
            stones,
            discards=discards,
            hand=hand,
            viewer=Player.A,
            variant=variant_named(data["variant"]),
            jokers_played=[PLAYERS[name] for name in data["position"].get("jokers_played", ())],
        )
    except PositionError as error:
        raise _position_error(document, error, stones, stone_indexes, places) from None
    board = _Board(position, stones, stone_indexes, places)
    for problem in reachability_problems(position):
        raise board.error(document, problem)
    return board


def _claims(document: LocatedDocument, position: Position) -> tuple[Claim, ...]:
    """The stones claimed in one step: each open, and named once."""
    claims: list[Claim] = []
    for index, raw in enumerate(document.data.get("claims", ())):
        line = document.line_of(("claims", index))
        stone = raw["stone"]
        if stone in (claim.stone for claim in claims):
            raise CaseError(document.path, line, f"stone {stone} is claimed twice in the same step")
        holder = position.stone(stone).claimed_by
        if holder is not None:
            owner = "you" if holder is Player.A else "they"
            raise CaseError(
                document.path,
                line,
                f"stone {stone} is already claimed ({owner} hold it); it cannot be claimed again",
            )
        expect = Verdict(raw["expect"]) if "expect" in raw else None
        because = _pinned_words(raw.get("because"))
        claims.append(Claim(stone=stone, expect=expect, line=line, because=because))
    return tuple(claims)


def _table_of(document: LocatedDocument, board: _Board) -> Table | None:
    """The game around the position, for cases that ask about moves (None for the others);
    the engine must be able to start a game from it."""
    data = document.data
    if "turn" in data and "their_hand" not in data.get("table", {}):
        raise CaseError(
            document.path,
            document.line_of(("table",) if "table" in data else ("turn",)),
            "a turn may go on into their turn, so the table must give their_hand"
            " (write their_hand: [] if their hand is empty)",
        )
    if not ("table" in data or "plays" in data or "turn" in data):
        return None
    table = _table(document, board.position, board.places)
    try:
        table.game_state(board.position)
    except PositionError as error:
        raise board.error(document, error) from None
    return table


def _plays(document: LocatedDocument) -> tuple[PlayQuestion, ...]:
    """The moves judged each on its own at the case's moment (or after the moves it names)."""
    plays = []
    for index, raw in enumerate(document.data.get("plays", ())):
        expect = raw.get("expect", "")
        legal = {"legal": True, "illegal": False, "unreadable": False}.get(expect)
        for key in ("rule", "because"):
            if key in raw and legal is True:
                raise CaseError(
                    document.path,
                    document.line_of(("plays", index, key)),
                    f"{key} pins why a move is refused: it needs expect: illegal",
                )
        if "rule" in raw and expect == "unreadable":
            raise CaseError(
                document.path,
                document.line_of(("plays", index, "rule")),
                "an unreadable move breaks no rule of the game: leave rule out (because: may"
                " pin why it cannot be read)",
            )
        plays.append(
            PlayQuestion(
                raw["move"],
                legal,
                raw.get("rule"),
                document.line_of(("plays", index)),
                _pinned_words(raw.get("because")),
                tuple(raw.get("after", ())),
                unreadable=expect == "unreadable",
            )
        )
    return tuple(plays)


def _pinned_words(text: str | None) -> str | None:
    """An explanation pinned by a case, its spaces as the engine writes them (a folded YAML
    string may end in a newline)."""
    return None if text is None else " ".join(text.split())


def _guards(document: LocatedDocument) -> tuple[str, ...]:
    """The misreadings the case says it catches, each one the engine knows."""
    guards = tuple(document.data.get("guards_against", ()))
    for index, name in enumerate(guards):
        if name not in MISREADINGS:
            close = difflib.get_close_matches(name, sorted(MISREADINGS), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise CaseError(
                document.path,
                document.line_of(("guards_against", index)),
                f"unknown misreading {name!r}{hint} (the misreadings: {', '.join(MISREADINGS)})",
            )
    return guards


def _pinned_rules(document: LocatedDocument, rules: RulesIndex | None) -> tuple[str, ...]:
    """The rule ids the case pins; with ``rules``, each of them, and each rule a play expects
    to be named, must be in the index."""
    data = document.data
    pinned = tuple(data.get("rules", ()))
    rule_lines: list[tuple[str, DataPath]] = [
        (rule_id, ("rules", index)) for index, rule_id in enumerate(pinned)
    ]
    rule_lines += [
        (raw["rule"], ("plays", index, "rule"))
        for index, raw in enumerate(data.get("plays", ()))
        if "rule" in raw
    ]
    if rules is not None:
        known = rules.ids()
        for rule_id, rule_at in rule_lines:
            if rule_id not in known:
                close = difflib.get_close_matches(rule_id, sorted(known), n=1)
                hint = f"; did you mean {close[0]!r}?" if close else ""
                raise CaseError(
                    document.path,
                    document.line_of(rule_at),
                    f"unknown rule id {rule_id!r}{hint} (the ids are in"
                    f" {rules.path.parent.name}/{rules.path.name})",
                )
    return pinned


def _table(document: LocatedDocument, position: Position, places: dict[int, list[int]]) -> Table:
    """The game around the position: their hand, complete decks, the Tactic cards played."""
    path, raw = document.path, document.data.get("table", {})
    variant = position.variant
    their_hand = _cards(document, ("table", "their_hand"), places)
    clan_top = _cards(document, ("table", "clan_deck"), places)
    tactic_top = _cards(document, ("table", "tactic_deck"), places)
    for card, lines in places.items():
        if len(lines) > 1:
            raise _twice(path, card, lines)
    seen = position.on_table_mask() | mask_of(position.hand)  # combat modes included
    for card in (*their_hand, *clan_top, *tactic_top):
        if seen >> card & 1 and card in COMBAT_MODE_CARDS:
            raise CaseError(
                path,
                places[card][0],
                f"{card_name(card)} already lies on a stone; it cannot be here too",
            )
    for card, where in [(c, "clan_deck") for c in clan_top] + [
        (c, "tactic_deck") for c in tactic_top
    ]:
        if (card < len(CARDS)) != (where == "clan_deck"):
            raise CaseError(
                path,
                places[card][-1],
                f"{card_name(card)} belongs in the {'clan' if card < len(CARDS) else 'tactic'}"
                " deck",
            )
    if tactic_top and not variant.has_tactics:
        raise CaseError(
            path, document.line_of(("table", "tactic_deck")), "the base game has no Tactic deck"
        )
    if len(their_hand) > variant.hand_size:
        raise CaseError(
            path,
            document.line_of(("table", "their_hand")),
            f"a hand of {len(their_hand)} cards, but a hand in the {variant.name} game holds"
            f" at most {variant.hand_size}",
        )
    every = variant.cards
    placed = seen | mask_of((*their_hand, *clan_top, *tactic_top))
    unplaced = [card for card in every if not placed >> card & 1]
    clan_deck = clan_top + tuple(card for card in unplaced if card < len(CARDS))
    tactic_deck = tactic_top + tuple(card for card in unplaced if card >= len(CARDS))
    played_raw = raw.get("tactics_played", {"you": 0, "them": 0})
    played = (played_raw["you"], played_raw["them"])
    step = Phase(raw.get("step", "claim" if raw.get("expert") else "play"))
    return Table(
        their_hand,
        clan_deck,
        tactic_deck,
        played,
        bool(raw.get("expert")),
        step,
        passed=raw.get("passed"),
        could_claim=raw.get("could_claim"),
        idle_turns=raw.get("idle_turns"),
    )


def _twice(path: Path, card: int, lines: list[int]) -> CaseError:
    """The error for a card written in two places, at the second one."""
    if card in JOKERS:
        return CaseError(path, lines[-1], "a third joker: the game has only two")
    where = (
        f"twice on line {lines[0]}"
        if lines[0] == lines[1]
        else f"twice (lines {lines[0]} and {lines[1]})"
    )
    return CaseError(path, lines[1], f"{card_name(card)} appears {where}; every card exists once")


def _position_error(
    document: LocatedDocument,
    error: PositionError,
    stones: dict[int, StoneState],
    stone_indexes: dict[int, int],
    places: dict[int, list[int]],
) -> CaseError:
    """The engine's objection to a position or table, at the line of the value it names, as
    an :class:`EngineObjection` that keeps the engine's own error."""
    located = _located_objection(document, error, stones, stone_indexes, places)
    return EngineObjection(located, error)


def _located_objection(
    document: LocatedDocument,
    error: PositionError,
    stones: dict[int, StoneState],
    stone_indexes: dict[int, int],
    places: dict[int, list[int]],
) -> CaseError:
    """The engine's objection in the editor's words, at the line of the value it names."""
    path = document.path
    if isinstance(error, DuplicateCard):
        if error.card in COMBAT_MODE_CARDS and error.card in places:
            return CaseError(
                path,
                places[error.card][0],
                f"{card_name(error.card)} already lies on a stone; it cannot be here too",
            )
        if error.card not in places:  # a combat mode laid on two stones
            mode = CombatMode(card_name(error.card))
            twice = [number for number, state in stones.items() if mode in state.modes]
            return CaseError(
                path,
                document.line_of(("position", "stones", stone_indexes[twice[-1]], "modes")),
                f"{mode.label} lies on stones {twice[0]} and {twice[-1]}; there is one such card",
            )
        return _twice(path, error.card, places[error.card])
    if isinstance(error, MisplacedCard) and error.card in places:
        return CaseError(path, places[error.card][-1], str(error))
    fact = error.fact if isinstance(error, TableError) else None
    part = PLAYER_WORDS[error.player] if isinstance(error, SideOverCapacity) else error.part
    where: DataPath
    if error.stone is not None and error.stone in stone_indexes:
        where = ("position", "stones", stone_indexes[error.stone])
        if part:
            where = (*where, part)
    elif part == "variant":
        where = ("variant",)
    elif part is None and fact is not None:
        where = ("table", TABLE_KEYS[fact])
    else:
        where = ("position", part) if part else ("position",)
    missing = isinstance(error, TableError) and error.missing and fact is not None
    hint = MISSING_FACTS[fact] if missing and fact is not None else ""
    return CaseError(path, document.line_of(where), f"{error}{hint}")


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


def _turn(document: LocatedDocument, places: dict[int, list[int]]) -> TurnQuestion:
    raw = document.data["turn"]
    moves = tuple(
        (text, document.line_of(("turn", "moves", index)))
        for index, text in enumerate(raw["moves"])
    )
    expect = raw.get("expect", {})
    lines = {key: document.line_of(("turn", "expect", key)) for key in expect}
    held = expect.get("held")
    scratch: dict[int, list[int]] = {}
    return TurnQuestion(
        moves,
        TurnExpectation(
            log=tuple(expect["log"]) if "log" in expect else None,
            winner=expect.get("winner"),
            ending=expect.get("ending"),
            held=(tuple(held.get("you", ())), tuple(held.get("them", ())))
            if held is not None
            else None,
            hand=_cards(document, ("turn", "expect", "hand"), scratch)
            if "hand" in expect
            else None,
            discards=_cards(document, ("turn", "expect", "discards"), {})
            if "discards" in expect
            else None,
            next_player=PLAYERS[expect["next"]] if "next" in expect else None,
        ),
        document.line_of(("turn",)),
        lines,
    )


def _deal(document: LocatedDocument) -> DealQuestion:
    raw = document.data["deal"]
    expect = raw.get("expect", {})
    hands = expect.get("hands")
    decks = expect.get("decks")
    first = PLAYERS[raw.get("first", "you")]
    return DealQuestion(
        raw["seed"],
        first,
        (hands["you"], hands["them"]) if hands else None,
        (decks["clan"], decks.get("tactics", 0)) if decks else None,
        document.line_of(("deal",)),
        _cards(document, ("deal", "expect", "hand"), {}) if "hand" in expect else None,
    )


def _match(document: LocatedDocument) -> MatchQuestion:
    raw = document.data["match"]
    expect = raw.get("expect", {})
    rounds = tuple(
        RoundPlayed(
            PLAYERS[entry["started"]],
            OUTCOMES[entry["winner"]],
            (entry["stones"]["you"], entry["stones"]["them"]),
        )
        for entry in raw["rounds"]
    )
    points = expect.get("points")
    return MatchQuestion(
        rounds,
        (points["you"], points["them"]) if points else None,
        PLAYERS[expect["next_starter"]] if "next_starter" in expect else None,
        expect.get("winner"),
        document.line_of(("match",)),
    )


def _impossible_case(document: LocatedDocument, rules: RulesIndex | None) -> Case:
    """A case whose board cannot happen (``impossible:``): the board and its table are built as
    for any case, and the engine's refusal (or its acceptance) is kept for
    :func:`oracle.verify.replay.verify_case` to compare with the refusal pinned.

    Only the engine's own checks count as a refusal (:class:`EngineObjection`: the position,
    its reachability, the table's game). A mistake in the file itself, such as YAML that does
    not parse, an unknown card or key, or a check of the loader's own (a card written twice in
    the table, the Tactic count), still fails loudly at its line, as in any case.
    """
    data = document.data
    others = [key for key in QUESTIONS if key in data and key != "impossible"]
    if others:
        raise CaseError(
            document.path,
            document.line_of((others[0],)),
            f"a board the engine must refuse asks nothing else: the refusal comes before any"
            f" question, so remove {others[0]} (or impossible)",
        )
    written = _written_board(document)
    position = Position(variant=variant_named(data["variant"]))
    table: Table | None = None
    refusal: EngineObjection | None = None
    try:
        board = _board(document)
        table = _table_of(document, board)
        position = board.position
    except EngineObjection as objection:
        refusal, table = objection, None
    pinned = data["impossible"]
    return Case(
        id=data["id"],
        path=document.path,
        line=document.line_of(("id",)),
        situation=data["situation"].strip(),
        why=data["why"].strip(),
        draft=bool(data.get("draft", False)),
        position=position,
        claims=(),
        rules=_pinned_rules(document, rules),
        table=table,
        guards_against=_guards(document),
        impossible=ImpossibleBoard(
            expected=_pinned_words(pinned) if isinstance(pinned, str) else None,
            line=document.line_of(("impossible",)),
            refusal=None if refusal is None else str(refusal.objection),
            refusal_line=None if refusal is None else refusal.line,
            board=written,
        ),
    )


def _written_board(document: LocatedDocument) -> WrittenBoard:
    """The board and table as the file writes them, cards parsed (an unknown card fails here,
    at its line), nothing else judged: what a reader is shown of a board the engine refuses."""
    data = document.data
    cards: dict[int, list[int]] = {}

    def parsed(*where: str | int) -> tuple[int, ...]:
        return _cards(document, where, cards)

    stones = tuple(
        WrittenStone(
            number=raw["stone"],
            you=parsed("position", "stones", index, "you"),
            them=parsed("position", "stones", index, "them"),
            modes=tuple(raw.get("modes", ())),
            completed_first=PLAYERS.get(raw.get("completed_first", "")),
            claimed_by=PLAYERS.get(raw.get("claimed_by", "")),
        )
        for index, raw in enumerate(data["position"]["stones"])
    )
    discards, hand = parsed("position", "discards"), parsed("position", "hand")
    raw_table = data.get("table")
    their_hand = None
    facts: list[tuple[str, str]] = []
    if raw_table is not None:
        if "their_hand" in raw_table:
            their_hand = parsed("table", "their_hand")
        for key, label in (("clan_deck", "Clan deck, top"), ("tactic_deck", "Tactic deck, top")):
            if key in raw_table:
                names = [card_name(card) for card in parsed("table", key)]
                facts.append((label, ", ".join(names) or "nothing listed"))
        if "tactics_played" in raw_table:
            played = raw_table["tactics_played"]
            facts.append(("Tactic cards played", f"you {played['you']}, them {played['them']}"))
        for key, label in WRITTEN_TABLE_FACTS:
            if key in raw_table:
                value = raw_table[key]
                shown = ("yes" if value else "no") if isinstance(value, bool) else str(value)
                facts.append((label, shown))
    return WrittenBoard(
        variant=data["variant"],
        stones=stones,
        hand=hand,
        discards=discards,
        jokers_played=tuple(PLAYERS[name] for name in data["position"].get("jokers_played", ())),
        their_hand=their_hand,
        table=tuple(facts),
    )


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


@dataclass(frozen=True)
class CaseEntry:
    """One entry under the case folder: a file to load as a case, or why it cannot be one."""

    path: Path
    problem: str | None = None

    @property
    def error(self) -> CaseError | None:
        """The problem as a located error (a whole file: no line), or None for a case."""
        return None if self.problem is None else CaseError(self.path, None, self.problem)


def case_entries(directory: Path) -> list[CaseEntry]:
    """Every entry under ``directory`` except hidden ones, in table order; nothing is skipped.

    The one decision that pytest, ``check``, ``ask`` and the site build all take about files:
    a case is a regular file ``TOPIC/NAME.yaml`` one folder below ``directory``. Anything else,
    a symbolic link (never followed), a FIFO or device, a file at the top, a folder inside a
    topic folder (never walked into, however deep it goes), an empty topic folder, another
    suffix, a name that is not lowercase words and hyphens, is an entry with a problem.
    Files of a topic sort by their leading number (``9-a`` before ``10-b``), then by name.
    """
    entries: list[CaseEntry] = []
    if directory.is_symlink():  # never followed, as no link under it is
        return [
            CaseEntry(
                directory,
                "a symbolic link: the case folder must be a real folder (links are never followed)",
            )
        ]
    for child in _visible(directory, entries):
        path = Path(child.path)
        if child.is_dir(follow_symlinks=False):
            entries += _topic_entries(path, directory)
        else:
            entries.append(CaseEntry(path, case_file_problem(path, directory)))
    return entries


def _visible(folder: Path, entries: list[CaseEntry]) -> list[os.DirEntry[str]]:
    """The folder's entries in table order, without hidden files and editors' backups; a folder
    that cannot be read is an entry with its problem."""
    try:
        with os.scandir(folder) as listing:
            children = sorted(listing, key=lambda entry: _table_order(entry.name))
    except OSError as error:
        entries.append(CaseEntry(folder, f"cannot read this folder: {error.strerror}"))
        return []
    return [c for c in children if not (c.name.startswith(".") or c.name.endswith("~"))]


def _topic_entries(folder: Path, directory: Path) -> list[CaseEntry]:
    """The entries of one topic folder: its files, and what no topic folder may hold."""
    entries: list[CaseEntry] = []
    children = _visible(folder, entries)
    if not children and not entries:
        problem = "an empty topic folder: add a case to it, or remove it"
        if not NAME_PATTERN.fullmatch(folder.name):
            problem = _name_problem(folder.name, "topic folder")
        entries.append(CaseEntry(folder, problem))
    for child in children:
        path = Path(child.path)
        if child.is_dir(follow_symlinks=False):
            entries.append(
                CaseEntry(
                    path,
                    f"a folder inside the topic folder {folder.name}/: cases live one level"
                    f" down, as {directory.name}/TOPIC/NAME.yaml; move its files up",
                )
            )
        else:
            entries.append(CaseEntry(path, case_file_problem(path, directory)))
    return entries


def _table_order(name: str) -> tuple[int, str]:
    match = re.match(r"\d+", name)
    return (int(match.group()) if match else -1, name)


def case_file_problem(path: Path, directory: Path) -> str | None:
    """Why ``path`` (under the case folder ``directory``) cannot be a case, or None if it can."""
    try:
        status = path.lstat()
    except OSError as error:
        return f"cannot read this file: {error.strerror}"
    if stat.S_ISLNK(status.st_mode):
        return "a symbolic link: case files must be real files (links are never followed)"
    if not stat.S_ISREG(status.st_mode):
        return "not a regular file (a FIFO, socket or device): case files are plain text files"
    parts = path.relative_to(directory).parts
    if path.suffix != CASE_SUFFIX:
        if path.suffix.lower() in (".yaml", ".yml"):
            return f"case files end in {CASE_SUFFIX} (lowercase); rename this file so it is checked"
        return f"not a case file: everything under {directory.name}/ must be a {CASE_SUFFIX} case"
    if len(parts) != 2:
        return (
            f"a case lives in a topic folder, {directory.name}/TOPIC/{path.name}: move it there"
            f" (its folder is its table)"
        )
    for name, what in ((parts[0], "topic folder"), (path.stem, "file name")):
        if not NAME_PATTERN.fullmatch(name):
            return _name_problem(name, what)
    return None


def _name_problem(name: str, what: str) -> str:
    return f"the {what} {echoed(name)} must be lowercase words joined by hyphens; rename it"


def case_files(directory: Path) -> list[Path]:
    """Every entry under ``directory`` that is, or looks meant to be, a case, in table order."""
    return [entry.path for entry in case_entries(directory)]


@dataclass(frozen=True)
class CaseCollection:
    """All case files of a directory: those that loaded, and an error for each one that did not."""

    cases: tuple[Case, ...]
    errors: tuple[CaseError, ...]
    entries: tuple[tuple[Path, Case | CaseError], ...] = ()
    """Every entry in table order, with its case or its error."""


def load_cases(
    directory: Path, rules: RulesIndex | None = None, root: Path | None = None
) -> CaseCollection:
    """Load every case under ``directory``; nothing is skipped: each entry is a case or an error.

    An id used by several files is an error on each of them, naming the others.
    """
    results: list[tuple[Path, Case | CaseError]] = []
    for entry in case_entries(directory):
        if entry.error is not None:
            results.append((entry.path, entry.error))
            continue
        try:
            results.append((entry.path, load_case(entry.path, rules)))
        except PositionError as error:  # an engine objection the loader did not locate
            results.append((entry.path, CaseError(entry.path, None, str(error))))
        except SourceError as error:
            located = (
                error
                if isinstance(error, CaseError)
                else CaseError(error.path, error.line, error.problem, error.others)
            )
            results.append((entry.path, located))
    by_id: dict[str, list[Case]] = {}
    for _, result in results:
        if isinstance(result, Case):
            by_id.setdefault(result.id, []).append(result)
    entries: list[tuple[Path, Case | CaseError]] = []
    for path, result in results:
        if isinstance(result, Case) and len(by_id[result.id]) > 1:
            others = [other for other in by_id[result.id] if other is not result]
            result = duplicate_id_error(result, others, root)
        entries.append((path, result))
    return CaseCollection(
        tuple(result for _, result in entries if isinstance(result, Case)),
        tuple(result for _, result in entries if isinstance(result, CaseError)),
        tuple(entries),
    )


def load_case_file(path: Path, directory: Path, rules: RulesIndex | None = None) -> Case:
    """One file of the case folder ``directory`` as :func:`load_cases` would take it."""
    problem = case_file_problem(path, directory)
    if problem is not None:
        raise CaseError(path, None, problem)
    return load_case(path, rules)


def duplicate_id_error(case: Case, others: Sequence[Case], root: Path | None = None) -> CaseError:
    """The error for a case whose id other cases use too (paths shown below ``root``)."""
    where = ", ".join(f"{shown_path(other.path, root)}:{other.line}" for other in others)
    return CaseError(
        case.path,
        case.line,
        f"case id {case.id!r} is also used by {where}; each case needs its own id",
    )
