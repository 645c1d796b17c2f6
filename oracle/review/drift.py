"""Every answer a case file pins that the engine now gives otherwise, all at once: by case and by
rule, the pinned answer and the engine's side by side, as text, Markdown or JSON."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from oracle.casefile.source import DataPath, shown_path
from oracle.catalogue import Catalogue
from oracle.verify.report import BOARD, CaseReport, word_diff, words

FORMAT = "schotten-oracle-drift"
"""The ``format`` of a JSON drift report."""


@dataclass(frozen=True)
class DriftedAnswer:
    """One answer of a case that the engine now gives otherwise."""

    question: str
    line: int
    pinned: str
    now: str
    repin: tuple[tuple[DataPath, Any], ...] = ()
    """The engine's answer as the file would pin it (empty: it cannot be re-pinned)."""

    @property
    def shown_change(self) -> str:
        """The change in one line: a reason as a word diff, anything else as old -> new."""
        if len(self.pinned) > 40 and len(self.now) > 40:
            return word_diff(self.pinned, self.now)
        return f"{self.pinned} -> {self.now}"


@dataclass(frozen=True)
class DriftedCase:
    """A case file whose answers drifted, with what it pins and what the engine says."""

    report: CaseReport
    digest: str
    """A digest of the file's text when the report was made: ``pin --report`` edits only the
    text it was made from."""
    answers: tuple[DriftedAnswer, ...] = field(default=())

    @property
    def rules(self) -> tuple[str, ...]:
        """The rule ids of the case, and those a refused move of it names."""
        case = self.report.case
        named = tuple(play.rule for play in case.plays if play.rule is not None)
        return tuple(dict.fromkeys(case.rules + named))


def file_digest(path: Path) -> str:
    """A short digest of a file's bytes, to tell that a file changed since a report."""
    return "sha256:" + hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def drifted_answers(report: CaseReport) -> tuple[DriftedAnswer, ...]:
    """Each answer of ``report``'s case that the engine gives otherwise, in file order."""
    found = []
    for index, check in enumerate(report.checks):
        if check.matches:
            continue
        stone = f"stone {check.claim.stone}"
        now_reason = words(check.verdict.explanation)
        repin = check.repin(index)
        if not check.verdict_matches:
            pinned = check.claim.expect.label if check.claim.expect else "open"
            now = check.verdict.verdict.label
            found.append(DriftedAnswer(stone, check.claim.line, pinned, now, repin))
        if check.claim.because is not None and check.claim.because != now_reason:
            pinned_reason = check.claim.because
            found.append(
                DriftedAnswer(
                    f"{stone}, its reason", check.claim.line, pinned_reason, now_reason, repin
                )
            )
    for game_check in report.game_checks:
        if not game_check.matches:
            board = game_check.question == BOARD
            question = "the refusal of the board" if board else game_check.what
            found.append(
                DriftedAnswer(
                    question,
                    game_check.line,
                    game_check.expected or "open",
                    game_check.actual,
                    game_check.repin,
                )
            )
    if report.engine_error is not None:
        found.append(
            DriftedAnswer(
                "the case",
                report.engine_error_line or report.case.line,
                "judged",
                f"the engine cannot judge it: {report.engine_error}",
            )
        )
    return tuple(found)


def drift(catalogue: Catalogue, paths: Sequence[Path] = ()) -> list[DriftedCase]:
    """Every case file of ``catalogue`` (or only those at ``paths``) whose answers drifted."""
    wanted = {path.resolve() for path in paths}
    found = []
    for report in catalogue.reports:
        path = report.case.path
        if wanted and path.resolve() not in wanted:
            continue
        if report.verified:
            continue
        found.append(DriftedCase(report, file_digest(path), drifted_answers(report)))
    return found


def by_rule(cases: Sequence[DriftedCase]) -> dict[str, list[str]]:
    """The drifted cases under each rule they pin, rules in order of first appearance."""
    grouped: dict[str, list[str]] = {}
    for drifted in cases:
        for rule in drifted.rules or ("(no rule named)",):
            grouped.setdefault(rule, []).append(drifted.report.case.id)
    return grouped


def summary(cases: Sequence[DriftedCase]) -> str:
    """One line: how many answers of how many cases drifted, or that none did."""
    answers = sum(len(drifted.answers) for drifted in cases)
    if not cases:
        return "drift: every answer the case files pin is the engine's"
    return (
        f"drift: {answers} answer{'s' if answers != 1 else ''} in {len(cases)}"
        f" case{'s' if len(cases) != 1 else ''} differ from the engine's"
    )


def text_report(cases: Sequence[DriftedCase], root: Path) -> list[str]:
    """The report for a terminal: each case at its file and line, each answer pinned and now,
    then the cases under each rule, then the summary."""
    lines: list[str] = [summary(cases)]
    for drifted in cases:
        case = drifted.report.case
        draft = " (draft)" if case.draft else ""
        lines.append(f"{shown_path(case.path, root)}:{case.line}: {case.id}{draft}")
        for answer in drifted.answers:
            lines.append(f"  line {answer.line}, {answer.question}: {answer.shown_change}")
    if cases:
        lines.append("by rule:")
        lines += [f"  {rule}: {', '.join(ids)}" for rule, ids in by_rule(cases).items()]
    return lines


def markdown_report(cases: Sequence[DriftedCase], root: Path) -> list[str]:
    """The report for a pull request's comment: a table a case, then the cases by rule."""
    lines = [MARKDOWN_MARK, f"### {summary(cases).removeprefix('drift: ').capitalize()}", ""]
    for drifted in cases:
        case = drifted.report.case
        lines += [f"**{_cell(case.id)}** (`{shown_path(case.path, root)}`)", ""]
        lines += ["| Line | Answer | Pinned | The engine now |", "|---|---|---|---|"]
        lines += [
            f"| {a.line} | {_cell(a.question)} | {_cell(a.pinned)} | {_cell(a.now)} |"
            for a in drifted.answers
        ]
        lines.append("")
    if cases:
        lines += ["| Rule | Cases |", "|---|---|"]
        lines += [f"| `{rule}` | {_cell(', '.join(ids))} |" for rule, ids in by_rule(cases).items()]
    return lines


def _cell(text: str) -> str:
    """Text for a Markdown table cell: no line break, no cell border, no HTML."""
    return (
        " ".join(text.split())
        .replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("|", "\\|")
    )


def json_report(cases: Sequence[DriftedCase], root: Path) -> dict[str, Any]:
    """The report for tools, and for ``pin --report``: each case with its file's digest."""
    return {
        "format": FORMAT,
        "version": 1,
        "summary": summary(cases),
        "cases": [
            {
                "file": shown_path(drifted.report.case.path, root),
                "digest": drifted.digest,
                "id": drifted.report.case.id,
                "topic": drifted.report.case.topic,
                "line": drifted.report.case.line,
                "draft": drifted.report.case.draft,
                "rules": list(drifted.rules),
                "answers": [
                    {
                        "question": answer.question,
                        "line": answer.line,
                        "pinned": answer.pinned,
                        "now": answer.now,
                        "repin": [
                            {"at": list(where), "value": value} for where, value in answer.repin
                        ],
                    }
                    for answer in drifted.answers
                ],
            }
            for drifted in cases
        ],
        "by_rule": by_rule(cases),
    }


MARKDOWN_MARK = "<!-- schotten-oracle drift -->"
"""The first line of a Markdown report: hidden in a pull request's comment, it tells a report
``drift -o`` wrote from an editor's file."""


def is_drift_report(head: str) -> bool:
    """Whether a file's first characters are those of a drift report (any format)."""
    if head.startswith(("drift: ", MARKDOWN_MARK)):
        return True
    return head.lstrip().startswith("{") and f'"format": "{FORMAT}"' in head[:200]


def dumped(document: dict[str, Any]) -> str:
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"
