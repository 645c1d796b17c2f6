"""Reading each kind of question a case may ask: the claims, the plays, the turn, the deal and
the match, with the names (misreadings, rule ids) a case pins."""

from __future__ import annotations

import difflib
import hashlib
import json
from abc import ABC, abstractmethod
from collections.abc import Sequence
from enum import Enum
from functools import cache
from typing import Any, ClassVar, Generic, TypeVar, cast

from engine import (
    Player,
    Position,
    Verdict,
)
from oracle.casefile.board import Board, read_cards
from oracle.casefile.errors import CaseError
from oracle.casefile.model import (
    Case,
    Claim,
    DealQuestion,
    ImpossibleBoard,
    MatchQuestion,
    PlayQuestion,
    RoundPlayed,
    RulesIndex,
    TurnExpectation,
    TurnQuestion,
    Twin,
)
from oracle.casefile.source import DataPath, LocatedDocument
from oracle.casefile.validation import SchemaCheck, inlined, load_schema
from oracle.casefile.vocabulary import OUTCOMES, PLACEHOLDERS, PLAYER_WORDS, PLAYERS
from oracle.judges.misreadings import MISREADINGS, misreading_now_in_force


def read_claims(document: LocatedDocument, position: Position) -> tuple[Claim, ...]:
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
        because = pinned_words(raw.get("because"))
        claims.append(Claim(stone=stone, expect=expect, line=line, because=because))
    return tuple(claims)


def read_plays(document: LocatedDocument) -> tuple[PlayQuestion, ...]:
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
                pinned_words(raw.get("because")),
                tuple(raw.get("after", ())),
                unreadable=expect == "unreadable",
            )
        )
    return tuple(plays)


def check_reasons_pinned(document: LocatedDocument) -> None:
    """Refuse a published claim, or illegal or unreadable move, that does not pin its reason:
    the engine's words would be published unchecked, and a change of them would pass unseen.
    A draft may leave them open. Checked once the rest of the case has read well."""
    if document.data.get("draft") is True:
        return
    unpinned = [
        (("claims", index), "claim")
        for index, raw in enumerate(document.data.get("claims", ()))
        if "expect" in raw and "because" not in raw
    ]
    unpinned += [
        (("plays", index), f"{raw['expect']} move")
        for index, raw in enumerate(document.data.get("plays", ()))
        if raw.get("expect") in ("illegal", "unreadable") and "because" not in raw
    ]
    if unpinned:
        where, what = unpinned[0]
        raise CaseError(
            document.path,
            document.line_of(where),
            f"a published {what} pins its reason: add because: with the engine's words, or mark"
            " the case draft: true (schotten-oracle pin then writes them; remove draft: after)",
        )


def check_prose_written(document: LocatedDocument) -> None:
    """Refuse a published case whose situation or why is still the text a new case starts with
    (:data:`oracle.casefile.vocabulary.PLACEHOLDERS`): the table would publish the instruction
    in place of the case's own words. A draft may keep them."""
    if document.data.get("draft") is True:
        return
    for key in ("situation", "why"):
        if pinned_words(str(document.data[key])) in PLACEHOLDERS:
            raise CaseError(
                document.path,
                document.line_of((key,)),
                f"{key} is still the text a new case starts with: write the case's own words"
                " in its place, or mark the case draft: true",
            )


def answers_fingerprint(document: LocatedDocument, rules: RulesIndex | None = None) -> str:
    """A short fingerprint of a case's questions and the answers it pins, and (with ``rules``)
    of the title and text of each rule it pins (spaces in texts aside): the situation and why
    are written for these answers and these rules, and ``reviewed:`` holds the fingerprint they
    were last read for. A changed answer, or a changed text of a rule it pins, holds the case."""
    data = document.data
    asked: dict[str, Any] = {
        kind.key: data[kind.key] for kind in QUESTION_KINDS if kind.key in data
    }
    if rules is not None:
        pinned = [rules.entry(str(rule_id)) for rule_id in data.get("rules", ())]
        read = [[entry.id, entry.title, entry.text] for entry in pinned if entry is not None]
        if read:
            asked["rules read"] = read
    canonical = json.dumps(_spaced(asked), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:8]


def _spaced(value: Any) -> Any:
    """``value`` with every text's spaces as a case pins them (a folded text and the same text
    on one line are the same answer)."""
    if isinstance(value, str):
        return " ".join(value.split())
    if isinstance(value, dict):
        return {str(key): _spaced(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_spaced(item) for item in value]
    return value


def pinned_words(text: str | None) -> str | None:
    """An explanation pinned by a case, its spaces as the engine writes them (a folded YAML
    string may end in a newline)."""
    return None if text is None else " ".join(text.split())


def unknown_guard(name: str) -> str:
    """What is wrong with a ``guards_against`` name no misreading has, and what to write."""
    in_force = misreading_now_in_force(name)
    if in_force is not None:
        ruling, renamed = in_force
        return (
            f"{name!r} is what the engine's rulings now hold ({ruling}), so it is no"
            f" misreading; the ruling it replaced is now the misreading {renamed!r}: guard"
            " against that if this case catches it, or drop it"
        )
    close = difflib.get_close_matches(name, sorted(MISREADINGS), n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return f"unknown misreading {name!r}{hint} (the misreadings: {', '.join(MISREADINGS)})"


def read_twin(document: LocatedDocument) -> Twin | None:
    """The case's ``twin_of:`` (checked against the published cases by the catalogue)."""
    raw = document.data.get("twin_of")
    if raw is None:
        return None
    return Twin(raw["case"], pinned_words(raw["because"]) or "", document.line_of(("twin_of",)))


def read_guards(document: LocatedDocument) -> tuple[str, ...]:
    """The misreadings the case says it catches, each one the engine knows."""
    guards = tuple(document.data.get("guards_against", ()))
    for index, name in enumerate(guards):
        if name not in MISREADINGS:
            raise CaseError(
                document.path, document.line_of(("guards_against", index)), unknown_guard(name)
            )
    return guards


def read_rules(document: LocatedDocument, rules: RulesIndex | None) -> tuple[str, ...]:
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


def read_turn(document: LocatedDocument) -> TurnQuestion:
    """The moves of a turn, in order, and the facts the case asserts once they are made."""
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
            hand=read_cards(document, ("turn", "expect", "hand"), scratch)
            if "hand" in expect
            else None,
            discards=read_cards(document, ("turn", "expect", "discards"), {})
            if "discards" in expect
            else None,
            next_player=PLAYERS[expect["next"]] if "next" in expect else None,
            refused=expect.get("refused"),
        ),
        document.line_of(("turn",)),
        lines,
    )


def read_deal(document: LocatedDocument) -> DealQuestion:
    """A new game's seed and first player, and what the deal must give."""
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
        read_cards(document, ("deal", "expect", "hand"), {}) if "hand" in expect else None,
    )


def read_match(document: LocatedDocument) -> MatchQuestion:
    """A match's rounds as played, and what their scoring must give."""
    raw = document.data["match"]
    expect = raw.get("expect", {})
    rounds = tuple(
        RoundPlayed(
            PLAYERS[entry["started"]],
            OUTCOMES[entry["winner"]],
            (entry["stones"]["you"], entry["stones"]["them"]),
            document.line_of(("match", "rounds", index)),
        )
        for index, entry in enumerate(raw["rounds"])
    )
    points = expect.get("points")
    return MatchQuestion(
        rounds,
        (points["you"], points["them"]) if points else None,
        PLAYERS[expect["next_starter"]] if "next_starter" in expect else None,
        expect.get("winner"),
        document.line_of(("match",)),
    )


class AnswerShape(Enum):
    """How a question's expected answer is laid out, in a case file and in the protocol."""

    BY_STONE = "by stone"
    """A verdict for each stone asked about (claims)."""
    IN_ORDER = "in order"
    """An answer for each question of a list, in order (plays)."""
    FACTS = "facts"
    """Named facts, each judged on its own, or one refusal (a turn)."""
    WHOLE = "whole"
    """One answer (a deal, a match, a refused board)."""


Asked = TypeVar("Asked")
"""What a kind of question reads into the model (a tuple of claims, a turn...)."""


class QuestionKind(ABC, Generic[Asked]):
    """One kind of question a case may ask, as a case file holds it: its key (the file's key,
    the schema's property, the protocol's name), its part of the case schema, how it is read,
    with its lines, into the model, how its test items are named, how its answer is laid out
    and what a request asks.
    The stages after reading find each kind's other parts in their own registries, keyed by
    the kind (:data:`oracle.verify.replay.VERIFIED_KINDS`); a test checks each covers every kind."""

    key: ClassVar[str]
    """The key of a case file that asks it, and its name in the protocol."""
    shape: ClassVar[AnswerShape] = AnswerShape.WHOLE
    """How its answer is laid out (and so compared)."""
    exported: ClassVar[bool] = True
    """Whether other engines are asked it (a board's refusal is this engine's own words)."""
    plays_moves: ClassVar[bool] = False
    """Whether it plays moves from the case's moment: a case asking it has a table (the game
    around the position), written or the loader's empty one."""
    schema_follows: ClassVar[str | None] = None
    """The property and definition of the base case schema its part follows in the composed
    schema (:func:`case_schema`), for editors to read it there; None: the previous kind's."""

    def schema_part(self) -> dict[str, Any]:
        """Its part of the case schema: its ``properties`` (its key), ``then`` (what a
        published case must give in it) and the ``definitions`` only it uses, as
        ``oracle/schema/kinds/KEY.schema.json`` holds them."""
        return load_schema(f"kinds/{self.key}")

    @abstractmethod
    def read(self, document: LocatedDocument, board: Board) -> Asked:
        """The question as the model holds it, read from ``document`` (asking it) with lines."""

    def check_table(self, document: LocatedDocument) -> None:
        """Refuse a table (or its absence) this question cannot be asked with; checked once
        every question is read, before the table is."""

    def from_request(self, asked: Any) -> Any:
        """The question as a case file asks it, from a conformance request's (the inverse of
        :meth:`request`)."""
        return asked

    def held_to(self, case: Case, answer: Any) -> tuple[Any, Any]:
        """What another engine is held to of the verified ``answer`` (a copy, to change), and
        what is shown beside it instead (None: nothing)."""
        return answer, None

    def of(self, case: Case) -> Asked | None:
        """The question ``case`` asks of this kind, or None."""
        return cast("Asked | None", case.asked.get(self.key))

    def asked_by(self, case: Case) -> bool:
        """Whether ``case`` asks this question."""
        return bool(case.asked.get(self.key))

    def item_name(self, number: int = 0) -> str:
        """How a test item (and a report's check) names a question of this kind: the key,
        for a kind asked once a case."""
        return self.key

    def items(self, case: Case) -> dict[str, int]:
        """Each question of this kind ``case`` asks, by its item name, with its line."""
        asked = case.asked.get(self.key)
        return {self.item_name(): asked.line} if asked else {}

    def request(self, case: Case) -> Any:
        """The question as a conformance request asks it: the case file's keys, no answer."""
        return {}

    def __repr__(self) -> str:
        return f"<question kind {self.key}>"


class Claims(QuestionKind[tuple[Claim, ...]]):
    """Stones claimed in one step: each granted or refused, and why."""

    key = "claims"
    shape = AnswerShape.BY_STONE
    schema_follows = "position"

    def read(self, document: LocatedDocument, board: Board) -> tuple[Claim, ...]:
        return read_claims(document, board.position)

    def item_name(self, number: int = 0) -> str:
        """``stone-3`` for the claim of stone ``number``."""
        return f"stone-{number}"

    def items(self, case: Case) -> dict[str, int]:
        return {self.item_name(claim.stone): claim.line for claim in case.claims}

    def request(self, case: Case) -> Any:
        return [{"stone": claim.stone} for claim in case.claims]


class Plays(QuestionKind[tuple[PlayQuestion, ...]]):
    """Moves judged each on its own: legal, illegal under a rule, or unreadable."""

    key = "plays"
    shape = AnswerShape.IN_ORDER
    plays_moves = True
    schema_follows = "table"

    def read(self, document: LocatedDocument, board: Board) -> tuple[PlayQuestion, ...]:
        return read_plays(document)

    def item_name(self, number: int = 0) -> str:
        """``play-2`` for the ``number``-th play."""
        return f"play-{number}"

    def items(self, case: Case) -> dict[str, int]:
        return {self.item_name(number): play.line for number, play in enumerate(case.plays, 1)}

    def request(self, case: Case) -> Any:
        return [
            {"move": play.move, **({"after": list(play.after)} if play.after else {})}
            for play in case.plays
        ]


class Turn(QuestionKind[TurnQuestion]):
    """The rest of a turn played: its log and the facts it leaves."""

    key = "turn"
    shape = AnswerShape.FACTS
    plays_moves = True

    def read(self, document: LocatedDocument, board: Board) -> TurnQuestion:
        return read_turn(document)

    def check_table(self, document: LocatedDocument) -> None:
        """A turn may go on into theirs: the table gives their hand."""
        data = document.data
        if "their_hand" not in data.get("table", {}):
            raise CaseError(
                document.path,
                document.line_of(("table",) if "table" in data else (self.key,)),
                "a turn may go on into their turn, so the table must give their_hand"
                " (write their_hand: [] if their hand is empty)",
            )

    def held_to(self, case: Case, answer: Any) -> tuple[Any, Any]:
        """Only the facts the case asserts (or the refusal); the others are shown."""
        if case.turn is None or "refused" in answer:
            return answer, None
        asked = asserted_facts(case.turn)
        shown = {key: value for key, value in answer.items() if key not in asked}
        return {key: answer[key] for key in asked}, shown

    def from_request(self, asked: Any) -> Any:
        """A request's turn asks its facts too; a case file pins them under ``expect``."""
        return {"moves": asked.get("moves", [])} if isinstance(asked, dict) else asked

    def request(self, case: Case) -> Any:
        assert case.turn is not None
        return {
            "moves": [text for text, _ in case.turn.moves],
            "facts": list(asserted_facts(case.turn)),
        }


def asserted_facts(turn: TurnQuestion) -> tuple[str, ...]:
    """The facts a turn question asserts: only those are asked of another engine."""
    expect = turn.expect
    named = {
        "log": expect.log,
        "winner": expect.winner,
        "ending": expect.ending,
        "held": expect.held,
        "hand": expect.hand,
        "discards": expect.discards,
        "next": expect.next_player,
    }
    return tuple(key for key, value in named.items() if value is not None)


class Deal(QuestionKind[DealQuestion]):
    """A new game dealt with a seed: the hands, the decks, who moves."""

    key = "deal"

    def read(self, document: LocatedDocument, board: Board) -> DealQuestion:
        return read_deal(document)

    def request(self, case: Case) -> Any:
        assert case.deal is not None
        return {"seed": case.deal.seed, "first": PLAYER_WORDS[case.deal.first]}


class MatchKind(QuestionKind[MatchQuestion]):
    """A match's rounds scored: the points, who wins, who starts next."""

    key = "match"

    def read(self, document: LocatedDocument, board: Board) -> MatchQuestion:
        return read_match(document)

    def request(self, case: Case) -> Any:
        assert case.match is not None
        return {
            "rounds": [
                {
                    "started": PLAYER_WORDS[played.starter],
                    "winner": "nobody" if played.winner is None else PLAYER_WORDS[played.winner],
                    "stones": {"you": played.stones[0], "them": played.stones[1]},
                }
                for played in case.match.rounds
            ]
        }


class Impossible(QuestionKind[ImpossibleBoard]):
    """A board the engine must refuse to build. It asks nothing else, and the loader reads it
    apart (:func:`oracle.casefile.loader.load_case_text`): its board may not build."""

    key = "impossible"
    exported = False

    def read(self, document: LocatedDocument, board: Board) -> ImpossibleBoard:
        raise NotImplementedError("the loader reads a refused board apart: it may not build")

    def item_name(self, number: int = 0) -> str:
        """``board``: the one question of such a case."""
        return "board"


CLAIMS = Claims()
PLAYS = Plays()
TURN = Turn()
DEAL = Deal()
MATCH = MatchKind()
IMPOSSIBLE = Impossible()

QUESTION_KINDS: tuple[QuestionKind[Any], ...] = (CLAIMS, PLAYS, TURN, DEAL, MATCH, IMPOSSIBLE)
"""Every kind of question a case may ask, in the order a case's questions are read, verified,
listed and asked: the one registry of the reading stage."""


def exported_kinds() -> tuple[QuestionKind[Any], ...]:
    """The questions other engines are asked, in the order of a request and of its answers."""
    return tuple(kind for kind in QUESTION_KINDS if kind.exported)


def kind_named(key: str) -> QuestionKind[Any]:
    """The kind of question whose key is ``key``."""
    return next(kind for kind in QUESTION_KINDS if kind.key == key)


def case_schema() -> dict[str, Any]:
    """The case schema: ``oracle/schema/case.base.schema.json`` (what every case may hold) with
    the part of every kind of :data:`QUESTION_KINDS`, the one schema the loader validates
    against and the editors' schema is made from. Not to be changed (copy it)."""
    return _composed(QUESTION_KINDS)


def case_validator() -> SchemaCheck:
    """The check of :func:`case_schema`, its references resolved once."""
    return _case_validator(QUESTION_KINDS)


@cache
def _case_validator(kinds: tuple[QuestionKind[Any], ...]) -> SchemaCheck:
    return SchemaCheck(inlined(_composed(kinds)))


@cache
def _composed(kinds: tuple[QuestionKind[Any], ...]) -> dict[str, Any]:
    """The base case schema with the parts of ``kinds``, in their order: each kind's
    properties, definitions and ``then`` after the base's it follows, or the previous kind's."""
    base = load_schema("case.base")
    parts = [(kind.schema_follows, kind.schema_part()) for kind in kinds]
    merged = {
        name: _merged(base[name], [(follows, part.get(name, {})) for follows, part in parts])
        for name in ("properties", "definitions")
    }
    then = [(None, part.get("then", {}).get("properties", {})) for _, part in parts]
    merged["then"] = {**base["then"], "properties": _merged(base["then"]["properties"], then)}
    return {name: merged.get(name, value) for name, value in base.items()}


def _merged(
    base: dict[str, Any], parts: Sequence[tuple[str | None, dict[str, Any]]]
) -> dict[str, Any]:
    """``base``'s entries with each part's inserted after the entry of ``base`` it follows
    (None, or not in ``base``: after the previous part's, the first at the end)."""
    entries = list(base.items())
    after = len(entries)
    for follows, part in parts:
        if follows in base:
            after = next(n for n, (name, _) in enumerate(entries) if name == follows) + 1
        clashing = set(part) & {name for name, _ in entries}
        if clashing:
            raise ValueError(f"the case schema has {', '.join(sorted(clashing))} twice")
        entries[after:after] = part.items()
        after += len(part)
    return dict(entries)
