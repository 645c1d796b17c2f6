"""A run's results for people and for CI: one line per case, a summary, a JUnit XML report."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from oracle.conformance.runner import CaseResult, describe_question
from oracle.protocol.compare import NO_ANSWER, NOT_ASKED, UNSUPPORTED_NOT_ASKED, Result


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
    """The results as a JUnit XML report: a test case per question of each catalogue case
    (``claims.3``, ``turn.winner``: class ``TOPIC.CASE_ID``), so that a case answered in part
    shows what passed, what failed and what was left out (skipped); a case the engine gave no
    usable answer to is one failed test case, named by the case."""
    cases = [_junit_cases(result) for result in results]
    flat = [case for group in cases for case in group]
    failures = sum(kind == "failure" for _, _, kind, _ in flat)
    skipped = sum(kind == "skipped" for _, _, kind, _ in flat)
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        JUNIT_MARK,
        f'<testsuite name={quoteattr(suite)} tests="{len(flat)}" failures="{failures}"'
        f' errors="0" skipped="{skipped}">',
    ]
    for result, group in zip(results, cases, strict=True):
        seconds = result.seconds / max(1, len(group))
        for classname, name, kind, message in group:
            head = (
                f"  <testcase classname={quoteattr(classname)} name={quoteattr(name)}"
                f' time="{seconds:.3f}"'
            )
            if kind == "pass":
                lines.append(head + "/>")
            elif kind == "skipped":
                lines.append(head + f"><skipped message={quoteattr(message)}/></testcase>")
            else:
                lines.append(
                    head + f"><failure message={quoteattr(message[:500])}>{escape(message)}"
                    "</failure></testcase>"
                )
    lines.append("</testsuite>")
    return "\n".join(lines) + "\n"


def _junit_cases(result: CaseResult) -> list[tuple[str, str, str, str]]:
    """The JUnit test cases of one case: (class, name, pass/failure/skipped, message)."""
    classname = f"{result.topic}.{result.case_id}"
    if result.problem is not None or not result.questions:
        kind = "pass" if result.result is Result.PASS else "failure"
        if result.result is Result.UNSUPPORTED:
            kind = "skipped"
        return [(classname, result.case_id, kind, result.describe())]
    cases = []
    for question in result.questions:
        if question.result is Result.PASS:
            cases.append((classname, question.name, "pass", ""))
        elif question.result is Result.UNSUPPORTED:
            cases.append((classname, question.name, "skipped", "unsupported by the engine"))
        else:
            cases.append((classname, question.name, "failure", describe_question(question)))
    return cases


def report(results: Sequence[CaseResult], quiet: bool, out: Any = None) -> None:
    """One line per case (failures only with ``quiet``), then the summary."""
    out = out or sys.stdout
    for result in results:
        if result.result is Result.FAIL or not quiet:
            print(result.describe(), file=out)
    print(summary(results), file=out)


JSON_FORMAT = "schotten-totten-oracle-conformance-report"
"""The ``format`` of a JSON report, which also tells a report this runner wrote from others."""

_NO_VALUE = {
    id(NO_ANSWER): "no answer",
    id(NOT_ASKED): "a question the case does not ask",
    id(UNSUPPORTED_NOT_ASKED): "declared unsupported, but not asked",
}


def is_json_report(head: str) -> bool:
    """Whether a file's first characters are those of a JSON report this runner wrote."""
    return head.lstrip().startswith("{") and f'"format": "{JSON_FORMAT}"' in head[:200]


def json_report(
    results: Sequence[CaseResult],
    engine: str,
    catalogue: str,
    submitted: dict[str, str] | None = None,
    protocol: int | None = None,
) -> str:
    """The results for tools: the catalogue's version, the engine, and every case with each of
    its questions, the catalogue's answer and the engine's side by side, so that a case only
    partly answered shows what passed, what failed and what was left out; with ``submitted``
    (the engine's name, version, link and the date), a report to publish in ``results/``; the
    ``protocol`` version the run spoke, when it is known."""
    counts = {result.value: sum(r.result is result for r in results) for result in Result}
    document: dict[str, Any] = {
        "format": JSON_FORMAT,
        "version": 1,
        "catalogue": catalogue,
        **({"protocol": protocol} if protocol is not None else {}),
        "engine": engine,
        "summary": {"cases": len(results), **counts},
        "cases": [_case(result) for result in results],
    }
    if submitted is not None:
        document["submitted"] = submitted
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"


def _case(result: CaseResult) -> dict[str, Any]:
    return {
        "id": result.case_id,
        "topic": result.topic,
        "result": result.result.value,
        "problem": result.problem,
        "seconds": round(result.seconds, 3),
        "questions": [
            {
                "name": question.name,
                "result": question.result.value,
                "expected": question.expected,
                "actual": None if id(question.actual) in _NO_VALUE else question.actual,
                "note": _NO_VALUE.get(id(question.actual)),
            }
            for question in result.questions
        ],
    }
