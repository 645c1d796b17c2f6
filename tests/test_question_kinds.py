"""A kind of question is one class a stage: a kind added here, in the test (how many cards your
hand holds), is read, named, verified, answered, asked and compared by every stage through
their registries, with no change to any of them; a kind a stage has no entry for is refused.
And the answers are worked out once: breaking the one function that answers a deal breaks
verifying and the answers other engines are held to alike."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from case_files import case_yaml
from conftest import FIXTURE

from oracle.casefile import loader, questions
from oracle.casefile.board import Board
from oracle.casefile.errors import CaseError
from oracle.casefile.loader import load_case_text
from oracle.casefile.model import Case
from oracle.casefile.questions import QuestionKind, answers_fingerprint, case_schema
from oracle.casefile.source import LocatedDocument, parse_yaml
from oracle.misreadings.answers import asked_questions
from oracle.protocol.answers import expected_answers, request_of
from oracle.protocol.compare import Result, compare
from oracle.verify import replay
from oracle.verify.answers import deal_facts
from oracle.verify.judging import Moment
from oracle.verify.questions import Answer, ComparedWhole
from oracle.verify.replay import MissingStage, engine_answers, verified_kinds, verify_case
from oracle.verify.report import GameCheck, questions_of


@dataclass(frozen=True)
class HandSizeQuestion:
    """How many cards your hand holds (None: a draft that leaves it open)."""

    expect: int | None
    line: int


class HandSize(QuestionKind[HandSizeQuestion]):
    """The toy kind's reading part: ``hand_size: {expect: 7}``."""

    key = "hand_size"

    def read(self, document: LocatedDocument, board: Board) -> HandSizeQuestion:
        raw = document.data[self.key]
        return HandSizeQuestion(raw.get("expect"), document.line_of((self.key,)))

    def item_name(self, number: int = 0) -> str:
        return "hand-size"

    def schema_part(self) -> dict[str, Any]:
        """Given as data (a kind of the package reads it from ``oracle/schema/kinds/``)."""
        return {
            "properties": {
                self.key: {
                    "description": "How many cards your hand holds.",
                    "type": "object",
                    "additionalProperties": False,
                    "properties": {"expect": {"$ref": "#/definitions/hand_count"}},
                }
            },
            "then": {"properties": {self.key: {"required": ["expect"]}}},
            "definitions": {"hand_count": {"type": "integer", "minimum": 0, "maximum": 9}},
        }


class HandSizeVerified(ComparedWhole):
    """The toy kind's verifying part: the engine's position counts your hand."""

    kind = HandSize()

    def answer(self, case: Case, moment: Moment) -> Answer:
        return len(case.position.hand), None

    def compared(self, case: Case, answer: Answer) -> Iterable[GameCheck]:
        question = self.kind.of(case)
        assert question is not None
        pinned, now = question.expect, answer[0]
        expected = None if pinned is None else str(pinned)
        label = f"{now} cards in hand"
        what = "your hand's size"
        yield GameCheck(what, question.line, expected, str(now), label, pinned=pinned, now=now)


TOY = HandSizeVerified.kind


@pytest.fixture
def with_toy_kind(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The registries of the reading and the verifying stage with the toy kind added (the case
    schema is composed of the registered kinds' parts: it takes the toy's with it)."""
    monkeypatch.setattr(questions, "QUESTION_KINDS", (*questions.QUESTION_KINDS, TOY))
    monkeypatch.setattr(replay, "VERIFIED_KINDS", (*replay.VERIFIED_KINDS, HandSizeVerified()))
    yield


def _toy_text(asked: dict[str, Any]) -> str:
    hand = ["red 1", "red 2", "blue 3"]
    return case_yaml("toy", hand=hand, claims=None, more={"hand_size": asked})


def _line_of(text: str, key: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if line.startswith(f"{key}:"))


def _toy_case(expect: Any) -> Case:
    return load_case_text(_toy_text({"expect": expect}), Path("cases/toys/toy.yaml"))


@pytest.mark.usefixtures("with_toy_kind")
def test_every_stage_handles_a_kind_added_as_one_class_a_stage() -> None:
    case = _toy_case(3)
    asked = case.asked[TOY.key]
    assert asked == HandSizeQuestion(3, asked.line) and asked.line > 1  # read, with its line
    assert questions_of(case)["hand-size"] == asked.line  # its test item
    report = verify_case(case)
    assert report.verified and report.answers == {"hand_size": 3}
    assert report.verdict_label == "3 cards in hand"
    assert engine_answers(case)[0] == {"hand_size": 3}  # the same code, trusting the engine
    assert request_of(case)[TOY.key] == {}
    assert asked_questions(case) == ["hand_size"]
    expected = expected_answers(report)[0]
    assert [r.result for r in compare(expected, {"answers": {"hand_size": 3}})] == [Result.PASS]
    assert [r.result for r in compare(expected, {"answers": {"hand_size": 4}})] == [Result.FAIL]
    document = parse_yaml(case.text, case.path)
    assert answers_fingerprint(document) != answers_fingerprint(
        parse_yaml(_toy_case(4).text, case.path)
    )

    wrong = verify_case(_toy_case(5))
    assert not wrong.verified
    assert wrong.problems() == [
        f"cases/toys/toy.yaml:{asked.line}: case 'toy', your hand's size: expected 5, the engine"
        " says 3"
    ]
    assert wrong.on_question("hand-size").problems() == wrong.problems()


@pytest.mark.usefixtures("with_toy_kind")
def test_a_kind_added_as_one_class_brings_its_part_of_the_case_schema() -> None:
    """The case schema is composed of the registered kinds' parts: the toy's property, its
    definition and what a published case must give in it, each after the last kind's; a value
    it refuses is told at its line, as the schema of any other kind."""
    schema = case_schema()
    assert list(schema["properties"])[-3:] == ["hand_size", "twin_of", "guards_against"]
    assert list(schema["definitions"])[-1] == "hand_count"
    assert schema["then"]["properties"]["hand_size"] == {"required": ["expect"]}
    assert _toy_case(3).asked[TOY.key].expect == 3
    line = _line_of(_toy_text({}), "hand_size")
    with pytest.raises(CaseError) as refused:
        _toy_case("seven")
    assert (refused.value.line, refused.value.problem) == (
        line + 1,
        "'expect' must be a whole number, not 'seven'",
    )
    with pytest.raises(CaseError, match="12 is greater than the maximum of 9"):
        _toy_case(12)
    published = _toy_text({}).replace("draft: true\n", "")
    with pytest.raises(CaseError, match="expect") as unpinned:
        load_case_text(published, Path("cases/toys/toy.yaml"))
    assert unpinned.value.line == _line_of(published, "hand_size")


def test_a_kind_without_a_verifier_is_refused_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(questions, "QUESTION_KINDS", (*questions.QUESTION_KINDS, TOY))
    with pytest.raises(MissingStage, match="no verifier for the question kinds hand_size"):
        verified_kinds()


def test_one_broken_answer_fails_verifying_and_the_answers_alike(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The deal's facts come from one function: every hand read as 99 cards there is a wrong
    answer to the case file and to the answers other engines are held to."""
    facts = deal_facts

    def ninety_nine(state: Any) -> dict[str, Any]:
        return {**facts(state), "hands": {"you": 99, "them": 99}}

    monkeypatch.setattr("oracle.verify.questions.deal_facts", ninety_nine)
    case = loader.load_case(FIXTURE / "cases" / "setup" / "01-base-deal.yaml")
    report = verify_case(case)
    assert not report.verified
    assert "{+99+} and [-6;-] {+99;+}" in report.problems()[0]  # the long answers' word diff
    assert engine_answers(case)[0]["deal"]["hands"] == {"you": 99, "them": 99}


def _play_case(expect: dict[str, str]) -> Case:
    """A move of a card you do not hold, pinned as ``expect`` says."""
    table = {"their_hand": [f"blue {n}" for n in range(1, 7)], "idle_turns": 0}
    plays = [{"move": "red 9 on 3", **expect}]
    hand = [f"red {n}" for n in range(2, 8)]
    text = case_yaml("play", hand=hand, more={"table": table, "plays": plays})
    return load_case_text(text, Path("cases/t/play.yaml"))


def test_a_move_pinned_unreadable_that_the_engine_refuses_fails_even_in_the_same_words() -> None:
    """The answer is compared, not its words: a move the engine reads and refuses is not
    unreadable, whatever the reason pinned (the rendered words once agreed, as 'illegal: ...'
    on both sides, and such a case passed)."""
    refused = verify_case(_play_case({"expect": "illegal"}))
    because = refused.game_checks[0].now["because"]
    report = verify_case(_play_case({"expect": "unreadable", "because": because}))
    assert not report.verified
    assert report.problems()[0].endswith(
        f"move 'red 9 on 3': expected unreadable: {because}, the engine says illegal under"
        f" {refused.game_checks[0].now['rule']}: {because}"
    )


def test_a_draft_that_pins_only_a_refusal_agrees_with_the_engine_refusing() -> None:
    """What a draft leaves open (the rule, the reason) is not compared."""
    assert verify_case(_play_case({"expect": "illegal"})).verified


def test_ask_prints_the_hands_the_verified_deal_gave_without_dealing_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The cards ``ask`` shows beside a deal's answer are those of the one deal that verified
    it (kept in the report), not of a game dealt again for the printout."""
    from engine import Game
    from oracle.diagram import answer_lines

    case = loader.load_case(FIXTURE / "cases" / "setup" / "01-base-deal.yaml")
    report = verify_case(case)
    assert set(report.shown["deal"]) == {"you", "them"}

    def no_second_deal(game: Game) -> Any:
        raise AssertionError("a game dealt again")

    monkeypatch.setattr(Game, "new_initial_state", no_second_deal)
    dealt = [line for line in answer_lines(report, FIXTURE) if "the engine dealt" in line]
    assert dealt == [
        "  the engine dealt you: green 3, green 8, red 4, yellow 8, green 6, pink 5",
        "  the engine dealt them: blue 1, purple 6, red 5, red 7, purple 2, yellow 6",
    ]


class MovingHandSize(HandSize):
    """The toy kind, played from the case's moment: the loader gives it a table, and it asks
    for one written out."""

    plays_moves = True

    def check_table(self, document: LocatedDocument) -> None:
        if "table" not in document.data:
            raise CaseError(document.path, document.line_of((self.key,)), "write the table")


@pytest.mark.usefixtures("with_toy_kind")
def test_a_kind_says_whether_it_plays_moves_and_what_table_it_needs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The loader asks each kind asked, not a list of keys, whether the case needs a table."""
    assert _toy_case(3).table is None  # the toy kind reads the position alone
    moving = (*questions.QUESTION_KINDS[:-1], MovingHandSize())
    monkeypatch.setattr(questions, "QUESTION_KINDS", moving)
    with pytest.raises(CaseError, match="write the table"):
        _toy_case(3)
    hand = [f"red {n}" for n in range(1, 7)]
    text = case_yaml(
        "toy",
        hand=hand,
        claims=None,
        more={"hand_size": {}, "table": {"their_hand": [f"blue {n}" for n in range(1, 7)]}},
    )
    assert load_case_text(text, Path("cases/toys/toy.yaml")).table is not None
