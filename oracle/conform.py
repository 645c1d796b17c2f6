"""Run the catalogue through any engine: the conformance runner and its JSON Lines protocol.

The protocol (version 1), one JSON object a line each way:

- The runner writes ``{"protocol": 1, "id": CASE_ID, "case": CASE}``. ``CASE`` holds a case
  file's keys without its expectations: ``variant``, ``position`` (``stones``, ``hand``,
  ``discards``, ``jokers_played``; cards by name, "you" is the player to answer for), ``table``
  when the case has one, and its questions: ``claims`` (stones claimed in one step), ``plays``
  (moves to judge), ``turn`` (``moves`` to make in order, and the ``facts`` asked), ``deal``,
  ``match``.
- The engine writes ``{"id": CASE_ID, "answers": {...}, "unsupported": [...]}``. ``answers`` is
  shaped like a case file's expectations: ``{"claims": {"3": "refused"}}``, ``{"plays": ["legal",
  "illegal"]}``, ``{"turn": {"winner": "you", "held": {"you": [1], "them": []}, ...}}``,
  ``{"deal": {...}}``, ``{"match": {...}}``. A question it does not handle goes in
  ``unsupported`` (``"turn"``, or a single fact such as ``"turn.log"``). An engine that cannot
  read a case may answer ``{"id": CASE_ID, "error": "why"}``.

Each question is then pass, fail (both answers shown) or unsupported; a case fails when any of
its questions fails. No answer within the timeout, a crash or a line that is not an answer fails
that case with the reason, and the engine is started again for the next one.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any, Protocol
from xml.sax.saxutils import escape, quoteattr

PROTOCOL = 1
DEFAULT_TIMEOUT = 10.0
GIVE_UP_AFTER = 5
"""Engine problems in a row (crashes, silences, garbage) after which the run stops asking."""
QUESTIONS = ("claims", "plays", "turn", "deal", "match")
NO_ANSWER = object()
UNKNOWN_KEY = object()


class Result(Enum):
    """A question's or a case's result."""

    PASS = "pass"
    FAIL = "fail"
    UNSUPPORTED = "unsupported"


class EngineProblem(Exception):
    """The engine gave no usable answer: it crashed, timed out, or wrote something else."""


class Engine(Protocol):
    """Something that answers one request with one response (both as JSON objects)."""

    def ask(self, request: dict[str, Any]) -> dict[str, Any]: ...

    def close(self) -> None: ...


class FunctionEngine:
    """An engine in this process: a function from request line to answer line."""

    def __init__(
        self, answer_line: Callable[[str], str], on_close: Callable[[], None] | None = None
    ) -> None:
        self.answer_line = answer_line
        self.on_close = on_close

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        return _parsed(self.answer_line(json.dumps(request)), request["id"])

    def close(self) -> None:
        if self.on_close is not None:
            self.on_close()


class CommandEngine:
    """Another program, started as a subprocess, speaking the protocol on stdin and stdout."""

    def __init__(self, command: Sequence[str], timeout: float = DEFAULT_TIMEOUT) -> None:
        if not command:
            raise ValueError("no engine command given (conform -- COMMAND ...)")
        self.command = list(command)
        self.timeout = timeout
        self.process: subprocess.Popen[str] | None = None
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.stderr: list[str] = []

    def _start(self) -> subprocess.Popen[str]:
        try:
            process = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
                start_new_session=True,  # its own process group: stopping it stops its children
            )
        except OSError as error:
            raise EngineProblem(f"cannot start {self.command[0]!r}: {error}") from None
        self.lines = queue.Queue()
        self.stderr = []
        lines, stderr = self.lines, self.stderr

        def read_out() -> None:
            assert process.stdout is not None
            for line in process.stdout:
                lines.put(line)
            lines.put(None)

        def read_err() -> None:
            assert process.stderr is not None
            for line in process.stderr:
                stderr.append(line.rstrip())
                del stderr[:-5]

        threading.Thread(target=read_out, daemon=True).start()
        threading.Thread(target=read_err, daemon=True).start()
        return process

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        if self.process is None or self.process.poll() is not None:
            self.process = self._start()
        process = self.process
        assert process.stdin is not None
        try:
            process.stdin.write(json.dumps(request) + "\n")
            process.stdin.flush()
        except (BrokenPipeError, OSError):
            self._stop()
            raise EngineProblem(
                f"the engine exited before reading the case{self._said()}"
            ) from None
        deadline = time.monotonic() + self.timeout
        exited_at: float | None = None
        while True:
            left = deadline - time.monotonic()
            try:
                line = self.lines.get(timeout=min(max(left, 0), 0.1))
            except queue.Empty:
                # An engine that exited while a child of its own holds the pipe open never
                # closes it: once it is gone, a short grace for its last line is enough.
                if exited_at is None and process.poll() is not None:
                    exited_at = time.monotonic()
                if exited_at is not None and time.monotonic() - exited_at > 0.3:
                    line = None
                elif left <= 0:
                    self._stop()
                    raise EngineProblem(f"no answer within {self.timeout:g} s") from None
                else:
                    continue
            if line is None:
                self._stop()
                raise EngineProblem(f"the engine exited without answering{self._said()}")
            if line.strip():
                try:
                    return _parsed(line, request["id"])
                except EngineProblem:
                    self._stop()  # out of step with the requests: start afresh
                    raise

    def _said(self) -> str:
        time.sleep(0.05)
        return f" (it said: {self.stderr[-1][:200]})" if self.stderr else ""

    def _stop(self) -> None:
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.kill()
            self.process.wait()
            self.process = None

    def close(self) -> None:
        if self.process is not None and self.process.stdin is not None:
            try:
                self.process.stdin.close()
                self.process.wait(timeout=2)
            except (OSError, subprocess.TimeoutExpired):
                pass
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.process.pid, signal.SIGKILL)  # whatever it left behind
        self._stop()


def _parsed(line: str, expected_id: str) -> dict[str, Any]:
    try:
        response = json.loads(line)
    except json.JSONDecodeError:
        raise EngineProblem(
            f"the engine wrote something that is not JSON: {line.strip()[:120]!r}"
        ) from None
    if not isinstance(response, dict):
        raise EngineProblem(f"the engine's answer is not a JSON object: {line.strip()[:120]!r}")
    if response.get("id") != expected_id:
        raise EngineProblem(
            f"the engine answered for {response.get('id')!r}, not for {expected_id!r}"
        )
    return response


# ------------------------------------------------------------------------------ judging


@dataclass(frozen=True)
class QuestionResult:
    """One question of a case: what the catalogue says, what the engine said."""

    name: str
    result: Result
    expected: Any = None
    actual: Any = None


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
        if self.problem is not None:
            return f"{self.case_id}: fail: {self.problem}"
        failed = [q for q in self.questions if q.result is Result.FAIL]
        if not failed:
            return f"{self.case_id}: {self.result.value}"
        parts = [_describe_failure(q) for q in failed]
        return f"{self.case_id}: fail: " + "; ".join(parts)


def _describe_failure(question: QuestionResult) -> str:
    if question.actual is UNKNOWN_KEY:
        return f"{question.name}: no such question (the questions: {', '.join(QUESTIONS)})"
    if question.actual is NO_ANSWER:
        return (
            f"{question.name}: expected {json.dumps(question.expected)}, the engine gave no answer"
        )
    return (
        f"{question.name}: expected {json.dumps(question.expected)},"
        f" the engine said {json.dumps(question.actual)}"
    )


def _unsupported(name: str, declared: set[str]) -> bool:
    return name in declared or name.split(".")[0] in declared or name.split("/")[0] in declared


def compare(expected: dict[str, Any], response: dict[str, Any]) -> tuple[QuestionResult, ...]:
    """Each expected answer against the engine's response, question by question."""
    answers = response.get("answers") or {}
    declared = {str(item) for item in response.get("unsupported") or ()}
    results: list[QuestionResult] = []

    def judge(name: str, want: Any, got: Any, present: bool) -> None:
        if _unsupported(name, declared):
            results.append(QuestionResult(name, Result.UNSUPPORTED, want))
        elif not present:
            results.append(QuestionResult(name, Result.FAIL, want, NO_ANSWER))
        else:
            result = Result.PASS if got == want else Result.FAIL
            results.append(QuestionResult(name, result, want, got))

    for key in sorted(set(answers) if isinstance(answers, dict) else set()):
        if key not in QUESTIONS:
            results.append(QuestionResult(f"answers.{key}", Result.FAIL, None, UNKNOWN_KEY))
    for name in sorted(declared):
        if name.split(".")[0] not in QUESTIONS:
            results.append(QuestionResult(f"unsupported.{name}", Result.FAIL, None, UNKNOWN_KEY))
    for key, want in expected.items():
        got = answers.get(key) if isinstance(answers, dict) else None
        if key == "claims":
            verdicts = got if isinstance(got, dict) else {}
            for stone, verdict in want.items():
                judge(f"claims.{stone}", verdict, verdicts.get(stone), stone in verdicts)
        elif key == "plays":
            legal = got if isinstance(got, list) else []
            for index, legality in enumerate(want):
                present = index < len(legal)
                judge(f"plays.{index + 1}", legality, legal[index] if present else None, present)
        elif key == "turn" and isinstance(want, dict) and "refused" not in want:
            facts = got if isinstance(got, dict) else {}
            for fact, value in want.items():
                judge(f"turn.{fact}", value, facts.get(fact), fact in facts)
        else:
            judge(key, want, got, got is not None)
    return tuple(results)


def run_case(engine: Engine, record: dict[str, Any]) -> CaseResult:
    """Ask ``engine`` one case of the export and judge its answers."""
    started = time.monotonic()
    request = {"protocol": PROTOCOL, "id": record["id"], "case": record["request"]}
    try:
        response = engine.ask(request)
    except EngineProblem as problem:
        return CaseResult(
            record["id"], record["topic"], Result.FAIL, problem=str(problem), engine_problem=True
        )
    seconds = time.monotonic() - started
    if "error" in response:
        unread = f"the engine could not read the case: {str(response['error'])[:300]}"
        return CaseResult(record["id"], record["topic"], Result.FAIL, problem=unread)
    questions = compare(record["answers"], response)
    if any(q.result is Result.FAIL for q in questions):
        result = Result.FAIL
    elif any(q.result is Result.UNSUPPORTED for q in questions):
        result = Result.UNSUPPORTED
    else:
        result = Result.PASS
    return CaseResult(record["id"], record["topic"], result, questions, seconds=seconds)


def run(engine: Engine, records: Sequence[dict[str, Any]]) -> list[CaseResult]:
    """Every case through ``engine``, in order; the engine is closed afterwards.

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
            result = run_case(engine, record)
            in_a_row = in_a_row + 1 if result.engine_problem else 0
            results.append(result)
        return results
    finally:
        engine.close()


def adapter_engine(reading: str | None = None) -> FunctionEngine:
    """Our adapter in this process: the engine, or the misreading named ``reading``."""
    from engine.misreadings import MISREADINGS, RULES
    from oracle.conform_adapter import respond  # the adapter imports the loader and the engine

    chosen = RULES if reading is None else MISREADINGS[reading]
    folder = Path(tempfile.mkdtemp(prefix="oracle-conform-"))
    return FunctionEngine(
        lambda line: json.dumps(respond(line, chosen, folder)),
        on_close=lambda: shutil.rmtree(folder, ignore_errors=True),
    )


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


def summary(results: Sequence[CaseResult]) -> str:
    """The closing line: how many cases passed, failed or were not supported."""
    counts = {result: sum(r.result is result for r in results) for result in Result}
    return (
        f"conformance: {len(results)} cases: {counts[Result.PASS]} pass,"
        f" {counts[Result.FAIL]} fail, {counts[Result.UNSUPPORTED]} unsupported"
    )


def junit_xml(results: Sequence[CaseResult], suite: str) -> str:
    """The results as a JUnit XML report, a test case per catalogue case."""
    failures = sum(r.result is Result.FAIL for r in results)
    skipped = sum(r.result is Result.UNSUPPORTED for r in results)
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<testsuite name={quoteattr(suite)} tests="{len(results)}" failures="{failures}"'
        f' errors="0" skipped="{skipped}">',
    ]
    for result in results:
        head = (
            f"  <testcase classname={quoteattr(result.topic)} name={quoteattr(result.case_id)}"
            f' time="{result.seconds:.3f}"'
        )
        if result.result is Result.PASS:
            lines.append(head + "/>")
        elif result.result is Result.UNSUPPORTED:
            lines.append(head + '><skipped message="unsupported"/></testcase>')
        else:
            message = result.describe()
            lines.append(
                head + f"><failure message={quoteattr(message[:500])}>{escape(message)}</failure>"
                "</testcase>"
            )
    lines.append("</testsuite>")
    return "\n".join(lines) + "\n"


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
        "--timeout",
        type=float,
        default=DEFAULT_TIMEOUT,
        help=f"seconds to wait for each answer ({DEFAULT_TIMEOUT:g})",
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="print failures only")
    parser.add_argument("engine", nargs=argparse.REMAINDER, help="-- COMMAND ... (the engine)")


def report(results: Sequence[CaseResult], quiet: bool, out: Any = None) -> None:
    """One line per case (failures only with ``quiet``), then the summary."""
    out = out or sys.stdout
    for result in results:
        if result.result is Result.FAIL or not quiet:
            print(result.describe(), file=out)
    print(summary(results), file=out)


def engine_command(arguments: Sequence[str]) -> list[str]:
    """The engine's command from ``conform -- COMMAND ...``."""
    command = list(arguments)
    if command and command[0] == "--":
        command = command[1:]
    return command


__all__ = [
    "PROTOCOL",
    "CaseResult",
    "CommandEngine",
    "Engine",
    "EngineProblem",
    "FunctionEngine",
    "QuestionResult",
    "Result",
    "adapter_engine",
    "add_arguments",
    "compare",
    "engine_command",
    "junit_xml",
    "report",
    "run",
    "run_case",
    "select",
    "summary",
]
