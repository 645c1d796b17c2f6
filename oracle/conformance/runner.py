"""Run the catalogue through an engine: each case asked, its answers judged, the run's options.

The protocol itself is described in :mod:`oracle.protocol`."""

from __future__ import annotations

import argparse
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from oracle.conformance.engines import (
    DEFAULT_TIMEOUT,
    Engine,
    EngineProblem,
    timeout_seconds,
)
from oracle.protocol.compare import (
    NO_ANSWER,
    NOT_ASKED,
    UNSUPPORTED_NOT_ASKED,
    QuestionResult,
    Result,
    compare,
    printable,
    shown,
)
from oracle.protocol.schema import VERSIONS, answer_problem

GIVE_UP_AFTER = 5
"""Engine problems in a row (crashes, silences, garbage) after which the run stops asking."""


@dataclass(frozen=True)
class CaseResult:
    """One case through an engine."""

    case_id: str
    topic: str
    result: Result
    questions: tuple[QuestionResult, ...] = ()
    problem: str | None = None
    seconds: float = 0.0
    engine_problem: bool = False
    """The engine gave no usable answer at all (a crash, a silence, a line that is no answer)."""

    def describe(self) -> str:
        """One line: the result, and why it failed."""
        why = self.why_failed()
        return f"{self.case_id}: fail: {why}" if why else f"{self.case_id}: {self.result.value}"

    def why_failed(self) -> str | None:
        """Why the case failed, in one line (each failed question with both answers, or what
        was wrong with the engine's answer); None when it did not fail."""
        if self.problem is not None:
            return self.problem
        failed = [q for q in self.questions if q.result is Result.FAIL]
        return "; ".join(describe_question(q) for q in failed) if failed else None


def describe_question(question: QuestionResult) -> str:
    """Why one question failed, in one line: both answers, or what was wrong with the answer."""
    if question.actual is NOT_ASKED:
        return f"{question.name}: an answer to a question the case does not ask"
    if question.actual is UNSUPPORTED_NOT_ASKED:
        return f"{question.name}: declared unsupported, but the case does not ask it"
    if isinstance(question.actual, dict) and set(question.actual) == {"refused"}:
        return (
            f"{question.name}: the case carries every move out, the engine refused one:"
            f" {shown(question.actual['refused'])}"
        )
    if question.actual is NO_ANSWER:
        return f"{question.name}: expected {shown(question.expected)}, the engine gave no answer"
    return (
        f"{question.name}: expected {shown(question.expected)},"
        f" the engine said {shown(question.actual)}"
    )


def request_line(record: dict[str, Any], catalogue: str | None, protocol: int) -> dict[str, Any]:
    """What an engine is sent for a case of the export: its request, naming the ``catalogue``
    (its version) when it is known, in the given ``protocol`` version."""
    request: dict[str, Any] = {"protocol": protocol, "id": record["id"], "case": record["request"]}
    if catalogue is not None:
        request["catalogue"] = catalogue
    return request


def run_case(
    engine: Engine,
    record: dict[str, Any],
    catalogue: str | None = None,
    protocol: int = VERSIONS[-1],
) -> CaseResult:
    """Ask ``engine`` one case of the export and judge its answers."""
    started = time.monotonic()
    request = request_line(record, catalogue, protocol)
    try:
        response = engine.ask(request)
    except EngineProblem as problem:
        return CaseResult(
            record["id"], record["topic"], Result.FAIL, problem=str(problem), engine_problem=True
        )
    seconds = time.monotonic() - started
    shape = answer_problem(response)
    if shape is not None:
        return CaseResult(
            record["id"],
            record["topic"],
            Result.FAIL,
            problem=f"an answer the protocol does not allow: {printable(shape)}",
        )
    if "error" in response:
        unread = f"the engine could not read the case: {printable(response['error'][:300])}"
        return CaseResult(record["id"], record["topic"], Result.FAIL, problem=unread)
    questions = compare(record["answers"], response)
    if any(q.result is Result.FAIL for q in questions):
        result = Result.FAIL
    elif any(q.result is Result.UNSUPPORTED for q in questions):
        result = Result.UNSUPPORTED
    else:
        result = Result.PASS
    return CaseResult(record["id"], record["topic"], result, questions, seconds=seconds)


def run(
    engine: Engine,
    records: Sequence[dict[str, Any]],
    catalogue: str | None = None,
    protocol: int = VERSIONS[-1],
) -> list[CaseResult]:
    """Every case through ``engine``, in order, each request in the ``protocol`` version and
    naming the ``catalogue`` (its version: :func:`oracle.conformance.export.catalogue_version`);
    the engine is closed afterwards.

    After :data:`GIVE_UP_AFTER` engine problems in a row the remaining cases fail unasked, so an
    engine that cannot start does not cost a timeout per case.
    """
    results: list[CaseResult] = []
    in_a_row = 0
    try:
        for record in records:
            if in_a_row >= GIVE_UP_AFTER:
                problem = (
                    f"not asked: the engine failed {in_a_row} cases in a row without answering"
                )
                results.append(
                    CaseResult(record["id"], record["topic"], Result.FAIL, problem=problem)
                )
                continue
            result = run_case(engine, record, catalogue, protocol)
            in_a_row = in_a_row + 1 if result.engine_problem else 0
            results.append(result)
    except BaseException:  # interrupted: stop the engine at once, without its grace to finish
        engine.stop()
        raise
    engine.close()
    return results


def select(
    records: Sequence[dict[str, Any]], expressions: Sequence[str] | str | None
) -> list[dict[str, Any]]:
    """The cases a ``-k`` selects: each expression is one or more alternatives joined by ``or``;
    an alternative matches a case whose topic or id holds it as whole hyphenated words
    (``early`` matches ``early-claims-with-a-run``, ``three-of-a-kind`` matches the cases of that
    formation), whatever the case of the letters."""
    if not expressions:
        return list(records)
    if isinstance(expressions, str):
        expressions = [expressions]
    alternatives = [
        word.strip().lower()
        for expression in expressions
        for word in re.split(r"\s+or\s+", expression)
        if word.strip()
    ]

    def holds(name: str, word: str) -> bool:
        parts, wanted = name.lower().split("-"), word.split("-")
        return any(parts[i : i + len(wanted)] == wanted for i in range(len(parts)))

    return [
        record
        for record in records
        if any(holds(record["id"], word) or holds(record["topic"], word) for word in alternatives)
    ]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``conform`` sub-command's options."""
    parser.add_argument(
        "--catalogue",
        type=Path,
        help="an export (JSON or JSON Lines) to run; default: the published catalogue here",
    )
    parser.add_argument(
        "-k",
        dest="keyword",
        action="append",
        help="only cases whose topic or id holds these whole words (a or b: either; repeatable)",
    )
    parser.add_argument("--junit", type=Path, help="also write a JUnit XML report here")
    parser.add_argument(
        "--json",
        type=Path,
        help="also write a JSON report here: every question's result and both answers",
    )
    for flag, what in (
        ("--engine-name", "the engine's name"),
        ("--engine-version", "its version"),
        ("--engine-link", "its home page (http or https)"),
    ):
        parser.add_argument(
            flag, help=f"with --json: {what}, to publish the report in results/ (all three)"
        )
    parser.add_argument(
        "--timeout",
        type=timeout_seconds,
        default=DEFAULT_TIMEOUT,
        help=f"seconds to wait for each answer ({DEFAULT_TIMEOUT:g})",
    )
    parser.add_argument(
        "--protocol",
        type=int,
        choices=VERSIONS,
        default=VERSIONS[-1],
        help=f"the protocol version to speak ({VERSIONS[-1]}; 1 for an engine that wants it)",
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="print failures only")
    parser.add_argument(
        "--force",
        action="store_true",
        help="replace the --junit or --json file even if conform did not write it",
    )
    parser.add_argument("engine", nargs=argparse.REMAINDER, help="-- COMMAND ... (the engine)")


def engine_command(arguments: Sequence[str]) -> list[str]:
    """The engine's command from ``conform -- COMMAND ...``."""
    command = list(arguments)
    if command and command[0] == "--":
        command = command[1:]
    return command
