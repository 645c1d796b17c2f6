"""The drift report as text for a terminal, Markdown for a pull request's comment, or JSON for
tools and ``pin --report``: the answers that moved by case and by rule, each case file that no
longer loads with its reason, and the cases to read again although their answers stand."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from oracle.casefile.source import shown_path
from oracle.review.drift import DriftedCase, DriftReport

FORMAT = "schotten-oracle-drift"
"""The ``format`` of a JSON drift report."""

VERSION = 2
"""The JSON report's version: 2 lists each unreadable file (1 held only their count)."""

MARKDOWN_MARK = "<!-- schotten-oracle drift -->"
"""The first line of a Markdown report: hidden in a pull request's comment, it tells a report
``drift -o`` wrote from an editor's file."""


def by_rule(cases: Sequence[DriftedCase]) -> dict[str, list[str]]:
    """The drifted cases under each rule they pin, rules in order of first appearance."""
    grouped: dict[str, list[str]] = {}
    for drifted in cases:
        for rule in drifted.rules or ("(no rule named)",):
            grouped.setdefault(rule, []).append(drifted.report.case.id)
    return grouped


def _count(number: int, what: str) -> str:
    return f"{number} {what}{'' if number == 1 else 's'}"


def summary(report: DriftReport) -> str:
    """One line: how many answers of how many cases drifted (or that none did), and how many
    case files cannot be read and cases want reading again."""
    cases = report.cases
    answers = sum(len(drifted.answers) for drifted in cases)
    if not cases:
        line = "drift: every answer the case files pin is the engine's"
    else:
        line = (
            f"drift: {_count(answers, 'answer')} in {_count(len(cases), 'case')}"
            f" differ{'s' if answers == 1 else ''} from the engine's"
        )
    files = {file.path for file in report.unreadable}
    if files:
        line += f"; {_count(len(files), 'case file')} cannot be read"
    again = {entry.path for entry in report.read_again}
    if again:
        line += f"; {_count(len(again), 'case')} to read again"
    return line


def text_report(report: DriftReport, root: Path) -> list[str]:
    """The report for a terminal: each case at its file and line, each answer pinned and now,
    then the cases under each rule, the files that cannot be read, the cases to read again."""
    lines: list[str] = [summary(report)]
    for drifted in report.cases:
        case = drifted.report.case
        draft = " (draft)" if case.draft else ""
        lines.append(f"{shown_path(case.path, root)}:{case.line}: {case.id}{draft}")
        for answer in drifted.answers:
            first, *rest = answer.shown_lines("    ")
            lines += [f"  line {answer.line}, {first}", *rest]
    if report.cases:
        lines.append("by rule:")
        lines += [f"  {rule}: {', '.join(ids)}" for rule, ids in by_rule(report.cases).items()]
    if report.unreadable:
        lines.append("cannot be read (fix each, or remove the case; schotten-oracle check):")
        lines += [f"  {file.located(root)}: {file.reason}" for file in report.unreadable]
    if report.read_again:
        lines.append("read again (the answers stand; the prose may not):")
        lines += [
            f"  {shown_path(entry.path, root)}:{entry.line}: {entry.case_id}: {entry.reason}"
            for entry in report.read_again
        ]
    return lines


def markdown_report(report: DriftReport, root: Path) -> list[str]:
    """The report for a pull request's comment: a table a case, then the cases by rule, the
    files that cannot be read and the cases to read again."""
    heading = summary(report).removeprefix("drift: ")
    lines = [MARKDOWN_MARK, f"### {heading[:1].upper()}{heading[1:]}", ""]
    for drifted in report.cases:
        case = drifted.report.case
        lines += [f"**{_cell(case.id)}** (`{shown_path(case.path, root)}`)", ""]
        lines += ["| Line | Answer | Pinned | The engine now |", "|---|---|---|---|"]
        lines += [
            f"| {a.line} | {_cell(a.question)} | {_cell(a.pinned)} | {_cell(a.now)} |"
            for a in drifted.answers
        ]
        lines.append("")
    if report.cases:
        lines += ["| Rule | Cases |", "|---|---|"]
        grouped = by_rule(report.cases).items()
        lines += [f"| `{rule}` | {_cell(', '.join(ids))} |" for rule, ids in grouped]
    if report.unreadable:
        lines += ["", "**Cannot be read**", "", "| File | Line | Why |", "|---|---|---|"]
        lines += [
            f"| `{_cell(shown_path(f.path, root))}` | {f.line or ''} | {_cell(f.reason)} |"
            for f in report.unreadable
        ]
    if report.read_again:
        lines += ["", "**Read again**", "", "| File | Line | Case | Why |", "|---|---|---|---|"]
        lines += [
            f"| `{_cell(shown_path(e.path, root))}` | {e.line} | {_cell(e.case_id)} |"
            f" {_cell(e.reason)} |"
            for e in report.read_again
        ]
    return lines


def _cell(text: str) -> str:
    """Text for a Markdown table cell: no line break, no cell border, no HTML."""
    return (
        " ".join(text.split())
        .replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("|", "\\|")
        .replace("`", "'")
    )


def json_report(report: DriftReport, root: Path) -> dict[str, Any]:
    """The report for tools, and for ``pin --report``: each case with its file's digest."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "summary": summary(report),
        "cases": [_case_data(drifted, root) for drifted in report.cases],
        "by_rule": by_rule(report.cases),
        "unreadable": [
            {
                "file": shown_path(file.path, root),
                "line": file.line,
                "reason": file.reason,
                "id": file.case_id,
            }
            for file in report.unreadable
        ],
        "read_again": [
            {
                "file": shown_path(entry.path, root),
                "line": entry.line,
                "id": entry.case_id,
                "reason": entry.reason,
            }
            for entry in report.read_again
        ],
    }


def _case_data(drifted: DriftedCase, root: Path) -> dict[str, Any]:
    case = drifted.report.case
    return {
        "file": shown_path(case.path, root),
        "digest": drifted.digest,
        "id": case.id,
        "topic": case.topic,
        "line": case.line,
        "draft": case.draft,
        "rules": list(drifted.rules),
        "answers": [
            {
                "question": answer.question,
                "line": answer.line,
                "pinned": answer.pinned,
                "now": answer.now,
                "repin": [{"at": list(where), "value": value} for where, value in answer.repin],
            }
            for answer in drifted.answers
        ],
    }


def is_drift_report(head: str) -> bool:
    """Whether a file's first characters are those of a drift report (any format)."""
    if head.startswith(("drift: ", MARKDOWN_MARK)):
        return True
    return head.lstrip().startswith("{") and f'"format": "{FORMAT}"' in head[:200]


def dumped(document: dict[str, Any]) -> str:
    """A JSON document as the report writes it."""
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"
