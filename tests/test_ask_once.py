"""A board asked on the Ask page is read once: the finished case file (the board with the
engine's answers written in) is not read again, but made from the board's document with the
answers put in (:func:`oracle.browser.forms.answered_document`); it is the very document, and
the very case, that reading the finished file gives, on the fixture catalogue's boards and on
boards of any cards and claims."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

import pytest
from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import claim_positions, tactics_claim_positions
from test_blockyaml import RULES

from oracle.browser.forms import Answered, answered_document, form_of, written_case
from oracle.browser.pages import CASE_PATH, Session, engine_answers
from oracle.casefile.errors import CaseError
from oracle.casefile.loader import (
    case_of_document,
    checked_document,
    load_case_text,
    read_case_document,
)
from oracle.casefile.model import Case
from oracle.verify.replay import verify_case
from oracle.verify.report import CaseReport

SESSION = Session(RULES)


def read_once_and_twice(form: dict[str, Any], answered: Answered | None = None) -> bool:
    """Check that the finished case made from the board's document is the one its text reads
    as; whether the board could be asked at all (a board the loader refuses cannot)."""
    board = written_case(form)
    try:
        document = read_case_document(board.text, CASE_PATH)
        case = case_of_document(document, board.text, RULES)
    except CaseError:
        return False
    if not case.claims:
        return False
    answered = answered or engine_answers(verify_case(case))
    finished = written_case(form, answered)
    made = answered_document(document, board, finished, answered)
    read = read_case_document(finished.text, CASE_PATH)
    assert made is not None, finished.text
    assert made.data == read.data, finished.text
    assert made.lines == read.lines, finished.text
    assert made.path == read.path
    once = case_of_document(checked_document(made), finished.text, RULES)
    assert once == load_case_text(finished.text, CASE_PATH, RULES), finished.text
    assert SESSION.finished_case(document, board, finished, answered) == once
    return True


def test_every_fixture_board_is_read_once_as_its_finished_file_reads(
    published: tuple[CaseReport, ...],
) -> None:
    asked = sum(
        read_once_and_twice(form_of(report.case))
        for report in published
        if report.case.impossible is None and report.case.claims
    )
    assert asked >= 20


@st.composite
def claimed_boards(draw: st.DrawFn) -> dict[str, Any]:
    """The form of a board where a claim can be asked (base or tactics), with its claim."""
    positions = claim_positions() | tactics_claim_positions()
    position, stone = draw(positions)
    words = draw(st.sampled_from(["", "A board of the tests", "yes"]))
    case = cast(
        Case,
        SimpleNamespace(position=position, claimed_stones=(stone,), situation=words, why=words),
    )
    form = form_of(case)
    # No stone claimed before: a random board with one is mostly one no game reaches.
    return {**form, "stones": [{**stone, "claimed_by": ""} for stone in form["stones"]]}


@settings(max_examples=examples(200))
@given(form=claimed_boards())
def test_any_board_is_read_once_as_its_finished_file_reads(form: dict[str, Any]) -> None:
    read_once_and_twice(form)


@pytest.mark.parametrize(
    "because", ["two  spaces", " leading", "a\u2028b", "bidi \u202e", "", "\uffff"]
)
def test_a_reason_that_would_not_read_back_as_written_is_read_from_the_text(because: str) -> None:
    form: dict[str, Any] = {"variant": "base", "stones": [{} for _ in range(9)]}
    form["stones"][2] = {"you": "red 1, blue 1, green 1", "them": "red 3", "claim": True}
    board = written_case(form)
    document = read_case_document(board.text, CASE_PATH)
    answered = Answered(expects={3: ("refused", because)}, rules=("claim.out-of-sight",))
    finished = written_case(form, answered)
    assert answered_document(document, board, finished, answered) is None
    try:
        read: Any = load_case_text(finished.text, CASE_PATH, RULES)
    except CaseError as error:
        read = error.located
    try:
        once: Any = SESSION.finished_case(document, board, finished, answered)
    except CaseError as error:
        once = error.located
    assert once == read


@pytest.mark.parametrize(
    ("expects", "rules", "words"),
    [
        ({3: ("maybe", "a reason")}, ("claim.out-of-sight",), ""),
        ({}, (), "A board of the tests"),
        ({3: ("refused", "a reason")}, ("claim.out-of-sight", "claim.out-of-sight"), ""),
        ({3: ("refused", "a reason")}, ("claim.no-such-rule",), "A board of the tests"),
    ],
    ids=["no-such-verdict", "published-without-its-verdict", "a-rule-twice", "unknown-rule"],
)
def test_answers_the_case_schema_refuses_are_told_as_reading_the_text_tells_them(
    expects: dict[int, tuple[str, str]], rules: tuple[str, ...], words: str
) -> None:
    """The finished case's schema is checked where the answers went only: answers that do not
    fit it are refused with the very message the finished file gets when read."""
    form: dict[str, Any] = {"variant": "base", "stones": [{} for _ in range(9)]}
    form |= {"situation": words, "why": words}
    form["stones"][2] = {"you": "red 1, blue 1, green 1", "them": "red 3", "claim": True}
    board = written_case(form)
    document = read_case_document(board.text, CASE_PATH)
    answered = Answered(expects=expects, rules=rules)
    finished = written_case(form, answered)
    assert answered_document(document, board, finished, answered) is not None
    with pytest.raises(CaseError) as read:
        load_case_text(finished.text, CASE_PATH, RULES)
    with pytest.raises(CaseError) as once:
        SESSION.finished_case(document, board, finished, answered)
    assert once.value.located == read.value.located
