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
import ctypes
import functools
import json
import os
import queue
import re
import select as select_module
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

from engine.cards import echoed

PROTOCOL = 1
DEFAULT_TIMEOUT = 10.0
GIVE_UP_AFTER = 5
"""Engine problems in a row (crashes, silences, garbage) after which the run stops asking."""
QUESTIONS = ("claims", "plays", "turn", "deal", "match")
NO_ANSWER = object()
UNKNOWN_KEY = object()
NOT_ASKED = object()


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

    def stop(self) -> None: ...


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

    def stop(self) -> None:
        self.close()


MAX_LINE_BYTES = 1024 * 1024
"""The longest answer line read: a case's answers take a few kilobytes."""

STDERR_KEPT_BYTES = 4096
"""What is kept of the engine's standard error, for the message when it fails."""

MAX_TIMEOUT = 3600.0
"""The longest wait for one answer that ``--timeout`` accepts: an hour."""

QUEUED_LINES = 8
"""Answer lines read ahead at most: an engine that writes faster waits on its pipe."""

_OVERLONG = object()
"""Put in the line queue for an answer line longer than :data:`MAX_LINE_BYTES`."""


def timeout_seconds(text: str) -> float:
    """A ``--timeout`` value: a finite number of seconds above 0 and at most an hour."""
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a number of seconds") from None
    if not 0 < seconds <= MAX_TIMEOUT:  # NaN fails both comparisons
        raise argparse.ArgumentTypeError(
            f"{text[:40]!r}: give a number of seconds above 0 and at most {MAX_TIMEOUT:g}"
        )
    return seconds


class CommandEngine:
    """Another program, started as a subprocess, speaking the protocol on stdin and stdout.

    Whatever it does, a run stays bounded: an answer line is read up to :data:`MAX_LINE_BYTES`
    (the rest of a longer one is discarded), only the end of its standard error is kept, the
    timeout holds however many lines arrive, and stopping it stops every process of its session
    (it is started in a session of its own, so a child it leaves behind holding the pipes is
    found and stopped too).
    """

    def __init__(self, command: Sequence[str], timeout: float = DEFAULT_TIMEOUT) -> None:
        if not command:
            raise ValueError("no engine command given (conform -- COMMAND ...)")
        if not 0 < timeout <= MAX_TIMEOUT:
            raise ValueError(f"the timeout must be above 0 and at most {MAX_TIMEOUT:g} seconds")
        self.command = list(command)
        self.timeout = timeout
        self.process: subprocess.Popen[bytes] | None = None
        self.lines: queue.Queue[bytes | object | None] = queue.Queue(maxsize=QUEUED_LINES)
        self.stderr = bytearray()
        self.stopped = threading.Event()
        self.children_before: set[int] = set()

    def _start(self) -> subprocess.Popen[bytes]:
        adopt_orphans()
        self.children_before = _children(os.getpid())
        try:
            process = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                bufsize=0,
                start_new_session=True,  # its own session: stopping it stops its children
            )
        except OSError as error:
            raise EngineProblem(f"cannot start {self.command[0]!r}: {error.strerror}") from None
        self.process = process  # at once: an interruption from here on still stops it
        assert process.stdin is not None
        os.set_blocking(process.stdin.fileno(), False)
        self.lines = queue.Queue(maxsize=QUEUED_LINES)
        self.stderr = bytearray()
        self.stopped = threading.Event()
        lines, stderr, stopped = self.lines, self.stderr, self.stopped

        def offer(item: bytes | object | None) -> None:
            """Queue a line, waiting while the queue is full, unless the engine was stopped."""
            while not stopped.is_set():
                try:
                    lines.put(item, timeout=0.2)
                    return
                except queue.Full:
                    continue

        def read_out() -> None:
            assert process.stdout is not None
            pending = bytearray()
            overlong = False
            while chunk := _read(process.stdout):
                start = 0
                while (end := chunk.find(b"\n", start)) >= 0:
                    if overlong:
                        overlong = False
                    else:
                        pending += chunk[start:end]
                        offer(bytes(pending))
                    pending.clear()
                    start = end + 1
                if not overlong:
                    pending += chunk[start:]
                    if len(pending) > MAX_LINE_BYTES:
                        pending.clear()
                        overlong = True
                        offer(_OVERLONG)
            offer(None)

        def read_err() -> None:
            assert process.stderr is not None
            while chunk := _read(process.stderr):
                stderr.extend(chunk)
                del stderr[:-STDERR_KEPT_BYTES]

        threading.Thread(target=read_out, daemon=True).start()
        threading.Thread(target=read_err, daemon=True).start()
        return process

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        if self.process is None or self.process.poll() is not None:
            self.process = self._start()
        process = self.process
        deadline = time.monotonic() + self.timeout
        self._send(process, json.dumps(request).encode("utf-8") + b"\n", deadline)
        exited_at: float | None = None
        while True:
            left = deadline - time.monotonic()
            if left <= 0:  # however many lines keep arriving
                self._stop()
                raise EngineProblem(f"no answer within {self.timeout:g} s")
            try:
                line = self.lines.get(timeout=min(left, 0.1))
            except queue.Empty:
                # An engine that exited while a child of its own holds the pipe open never
                # closes it: once it is gone, a short grace for its last line is enough.
                if exited_at is None and process.poll() is not None:
                    exited_at = time.monotonic()
                if exited_at is not None and time.monotonic() - exited_at > 0.3:
                    line = None
                else:
                    continue
            if line is None:
                self._stop()
                raise EngineProblem(f"the engine exited without answering{self._said()}")
            if line is _OVERLONG:
                self._stop()  # out of step with the requests: start afresh
                raise EngineProblem(f"the engine wrote a line over {MAX_LINE_BYTES:,} bytes")
            assert isinstance(line, bytes)
            text = line.decode("utf-8", errors="replace")
            if text.strip():
                try:
                    return _parsed(text, request["id"])
                except EngineProblem:
                    self._stop()
                    raise

    def _send(self, process: subprocess.Popen[bytes], data: bytes, deadline: float) -> None:
        """Write a request within the deadline: an engine that never reads its input (and so
        lets the pipe fill) cannot hold the run."""
        assert process.stdin is not None
        descriptor = process.stdin.fileno()
        view = memoryview(data)
        while view:
            left = deadline - time.monotonic()
            if left <= 0:
                self._stop()
                raise EngineProblem(f"the engine read no request within {self.timeout:g} s")
            try:
                _, writable, _ = select_module.select([], [descriptor], [], min(left, 0.1))
                if writable:
                    view = view[os.write(descriptor, view) :]
            except BlockingIOError:
                continue
            except OSError:
                self._stop()
                raise EngineProblem(
                    f"the engine exited before reading the case{self._said()}"
                ) from None

    def _said(self) -> str:
        time.sleep(0.05)
        said = self.stderr.decode("utf-8", errors="replace").strip().splitlines()
        return f" (it said: {printable(said[-1][:200])})" if said else ""

    def stop(self) -> None:
        """Stop the engine and everything it started, at once."""
        self._stop()

    def _stop(self) -> None:
        self.stopped.set()  # its reader threads stop waiting on a full queue
        if self.process is not None:
            stop_session(self.process.pid)
            stop_adopted(self.children_before | {self.process.pid})
            self.process.kill()
            self.process.wait()
            for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
                if stream is not None:
                    with contextlib.suppress(OSError):
                        stream.close()
            self.process = None

    def close(self) -> None:
        if self.process is not None and self.process.stdin is not None:
            try:
                self.process.stdin.close()
                self.process.wait(timeout=2)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self._stop()


def printable(text: str) -> str:
    """An engine's text as a terminal may show it: every character that is not printable
    written as its escape, so that nothing it wrote can move the cursor or forge a line."""
    return "".join(c if c.isprintable() else ascii(c)[1:-1] for c in text)


def _read(stream: Any) -> bytes:
    """The next bytes of a pipe, or nothing once it is closed (by either end)."""
    try:
        chunk: bytes = os.read(stream.fileno(), 65536)
    except (OSError, ValueError):
        return b""
    return chunk


def stop_session(session: int) -> None:
    """Kill every process of a session (the engine's, which it leads) and every process below
    its leader: its process group, any process of the session in a group of its own, and a
    descendant that left for a session of its own."""
    members = {*_tree(session), *_session_members(session)}
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(session, signal.SIGKILL)
    for pid in members:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)


_PR_SET_CHILD_SUBREAPER = 36


@functools.cache
def adopt_orphans() -> bool:
    """Make this process the one that orphans of its children are given to (Linux), so that a
    process an engine detached from its session (``setsid``) and left behind can still be
    found and stopped. False where the system has no such thing."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def _stat_fields(pid: str) -> list[str]:
    """A process's fields from /proc after its name: state, ppid, pgrp, session..."""
    try:
        return (Path("/proc") / pid / "stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return []


def _children(parent: int) -> set[int]:
    """The processes whose parent is ``parent`` (from /proc; none where there is none)."""
    return {
        int(entry.name)
        for entry in Path("/proc").glob("[0-9]*")
        if _stat_fields(entry.name)[1:2] == [str(parent)]
    }


def stop_adopted(known: set[int]) -> None:
    """Kill the processes this one adopted (see :func:`adopt_orphans`) since ``known`` were its
    children, and everything below them, and reap them."""
    for pid in _children(os.getpid()) - known:
        for member in _tree(pid):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(member, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError, OSError):
            os.waitpid(pid, 0)


def _tree(root: int) -> list[int]:
    """``root`` and every process below it."""
    found, queue_ = [root], [root]
    while queue_:
        for child in _children(queue_.pop()):
            found.append(child)
            queue_.append(child)
    return found


def _session_members(session: int) -> list[int]:
    """The processes of a session, read from /proc (none where there is no /proc)."""
    return [
        int(entry.name)
        for entry in Path("/proc").glob("[0-9]*")
        if _stat_fields(entry.name)[3:4] == [str(session)]
    ]


def _parsed(line: str, expected_id: str) -> dict[str, Any]:
    try:
        response = json.loads(line)
    except (ValueError, RecursionError):  # not JSON, a number too long, nesting too deep
        raise EngineProblem(
            f"the engine wrote something that is not JSON: {printable(line.strip()[:120])!r}"
        ) from None
    if not isinstance(response, dict):
        raise EngineProblem(
            f"the engine's answer is not a JSON object: {printable(line.strip()[:120])!r}"
        )
    if response.get("id") != expected_id:
        raise EngineProblem(
            f"the engine answered for {_named(response.get('id'))}, not for {expected_id!r}"
        )
    return response


def _named(value: Any) -> str:
    """An id from an engine's answer, quoted as ids are, or as JSON if it is not a text."""
    return echoed(printable(value)) if isinstance(value, str) else shown(value, 60)


def shown(value: Any, limit: int = 200) -> str:
    """A value from an engine's answer as JSON for a message, clipped to ``limit`` characters."""
    try:
        text = json.dumps(value, ensure_ascii=True)
    except (ValueError, RecursionError):
        return "(a value too deep to show)"
    return text if len(text) <= limit else f"{text[: limit - 20]}... ({len(text):,} characters)"


def malformed(response: dict[str, Any]) -> str | None:
    """What is wrong with the shape of an answer line, or None: ``answers`` is an object,
    ``unsupported`` a list of question names, ``error`` a text."""
    if "answers" in response and not isinstance(response["answers"], dict | None):
        return f"'answers' must be an object, not {shown(response['answers'], 60)}"
    unsupported = response.get("unsupported")
    if unsupported is not None and not (
        isinstance(unsupported, list) and all(isinstance(name, str) for name in unsupported)
    ):
        return f"'unsupported' must be a list of question names, not {shown(unsupported, 60)}"
    if "error" in response and not isinstance(response["error"], str):
        return f"'error' must be a text, not {shown(response['error'], 60)}"
    return None


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
    if question.actual is NOT_ASKED:
        return f"{question.name}: an answer to a question the case does not ask"
    if question.actual is NO_ANSWER:
        return f"{question.name}: expected {shown(question.expected)}, the engine gave no answer"
    return (
        f"{question.name}: expected {shown(question.expected)},"
        f" the engine said {shown(question.actual)}"
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
            results.append(
                QuestionResult(f"answers.{printable(key[:60])}", Result.FAIL, None, UNKNOWN_KEY)
            )
    for name in sorted(declared):
        if name.split(".")[0] not in QUESTIONS:
            results.append(
                QuestionResult(
                    f"unsupported.{printable(name[:60])}", Result.FAIL, None, UNKNOWN_KEY
                )
            )
    for key, want in expected.items():
        got = answers.get(key) if isinstance(answers, dict) else None
        if key == "claims":
            verdicts = got if isinstance(got, dict) else {}
            for stone, verdict in want.items():
                judge(f"claims.{stone}", verdict, verdicts.get(stone), stone in verdicts)
            for stone in sorted(set(verdicts) - set(want), key=str)[:3]:  # an answer to all
                results.append(
                    QuestionResult(
                        f"claims.{printable(str(stone)[:20])}", Result.FAIL, None, NOT_ASKED
                    )
                )
        elif key == "plays":
            legal = got if isinstance(got, list) else []
            for index, legality in enumerate(want):
                present = index < len(legal)
                judge(f"plays.{index + 1}", legality, legal[index] if present else None, present)
            if len(legal) > len(want):
                results.append(
                    QuestionResult(f"plays.{len(want) + 1}", Result.FAIL, None, NOT_ASKED)
                )
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
    shape = malformed(response)
    if shape is not None:
        return CaseResult(
            record["id"], record["topic"], Result.FAIL, problem=f"a malformed answer: {shape}"
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
    except BaseException:  # interrupted: stop the engine at once, without its grace to finish
        engine.stop()
        raise
    engine.close()
    return results


def adapter_engine(reading: str | None = None) -> FunctionEngine:
    """Our adapter in this process: the engine, or the misreading named ``reading``."""
    from engine.misreadings import MISREADINGS, RULES
    from oracle.conformance.adapter import respond  # the adapter imports the loader and the engine

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


JUNIT_MARK = "<!-- written by schotten-oracle conform -->"
"""The line that tells a JUnit report this runner wrote (which it may replace) from others."""


def is_junit(head: str) -> bool:
    """Whether a file's first characters are those of a report this runner wrote."""
    return JUNIT_MARK in head.split("\n", 2)[1:2]


def junit_xml(results: Sequence[CaseResult], suite: str) -> str:
    """The results as a JUnit XML report, a test case per catalogue case."""
    failures = sum(r.result is Result.FAIL for r in results)
    skipped = sum(r.result is Result.UNSUPPORTED for r in results)
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        JUNIT_MARK,
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
        type=timeout_seconds,
        default=DEFAULT_TIMEOUT,
        help=f"seconds to wait for each answer ({DEFAULT_TIMEOUT:g})",
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="print failures only")
    parser.add_argument(
        "--force",
        action="store_true",
        help="replace the --junit file even if conform did not write it",
    )
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
    "is_junit",
    "junit_xml",
    "report",
    "run",
    "run_case",
    "select",
    "summary",
]
