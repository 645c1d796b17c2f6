"""Reading each kind of question a case may ask: the claims, the plays, the turn, the deal and
the match, with the names (misreadings, rule ids) a case pins."""

from __future__ import annotations

import difflib
import hashlib
import json
from enum import Enum
from typing import Any

from engine import (
    Player,
    Position,
    Verdict,
)
from engine.misreadings import MISREADINGS
from oracle.casefile.board import read_cards
from oracle.casefile.errors import CaseError
from oracle.casefile.model import (
    Case,
    Claim,
    DealQuestion,
    MatchQuestion,
    PlayQuestion,
    RoundPlayed,
    RulesIndex,
    TurnExpectation,
    TurnQuestion,
)
from oracle.casefile.source import DataPath, LocatedDocument
from oracle.casefile.vocabulary import OUTCOMES, PLACEHOLDERS, PLAYERS


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
            f"a published {what} pins its reason: add because: with the engine's words"
            " (schotten-oracle pin writes them), or mark the case draft: true",
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


def answers_fingerprint(document: LocatedDocument) -> str:
    """A short fingerprint of a case's questions and the answers it pins (spaces in texts
    aside): the situation and why are written for these answers, and ``reviewed:`` holds the
    fingerprint they were last read for."""
    data = document.data
    asked = {kind.key: data[kind.key] for kind in QuestionKind if kind.key in data}
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


def read_guards(document: LocatedDocument) -> tuple[str, ...]:
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


def read_turn(document: LocatedDocument, places: dict[int, list[int]]) -> TurnQuestion:
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
        ),
        document.line_of(("turn",)),
        lines,
    )


def read_deal(document: LocatedDocument) -> DealQuestion:
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


class QuestionKind(Enum):
    """The kinds of question a case may ask: one registry that every stage consults (the loader,
    the verifier, the protocol, the pages). Each value is the key that asks it in a case file."""

    CLAIMS = "claims"
    PLAYS = "plays"
    TURN = "turn"
    DEAL = "deal"
    MATCH = "match"
    IMPOSSIBLE = "impossible"

    @property
    def key(self) -> str:
        """The key of a case file that asks this question."""
        return self.value

    def item_name(self, number: int = 0) -> str:
        """How a test item (and a report's check) names this question of a case: ``stone-3``
        for the claim of stone ``number``, ``play-2`` for the ``number``-th play, ``board`` for
        a board the engine must refuse, the key for the others (each asked once)."""
        if self is QuestionKind.CLAIMS:
            return f"stone-{number}"
        if self is QuestionKind.PLAYS:
            return f"play-{number}"
        return "board" if self is QuestionKind.IMPOSSIBLE else self.key

    @property
    def exported(self) -> bool:
        """Whether other engines are asked it: a board's refusal is in this engine's own words,
        so the conformance protocol leaves it out."""
        return self is not QuestionKind.IMPOSSIBLE

    @property
    def shape(self) -> AnswerShape:
        """How its answer is laid out."""
        shapes = {
            QuestionKind.CLAIMS: AnswerShape.BY_STONE,
            QuestionKind.PLAYS: AnswerShape.IN_ORDER,
            QuestionKind.TURN: AnswerShape.FACTS,
        }
        return shapes.get(self, AnswerShape.WHOLE)

    def asked_by(self, case: Case) -> bool:
        """Whether ``case`` asks this question."""
        asked = {
            QuestionKind.CLAIMS: bool(case.claims),
            QuestionKind.PLAYS: bool(case.plays),
            QuestionKind.TURN: case.turn is not None,
            QuestionKind.DEAL: case.deal is not None,
            QuestionKind.MATCH: case.match is not None,
            QuestionKind.IMPOSSIBLE: case.impossible is not None,
        }
        return asked[self]


EXPORTED_KINDS = tuple(kind for kind in QuestionKind if kind.exported)
"""The questions other engines are asked, in the order of a request and of its answers."""
