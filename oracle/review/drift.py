"""Every answer a case file pins that the engine now gives otherwise, all at once: by case and by
rule, the pinned answer and the engine's side by side, as text, Markdown or JSON."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from oracle.casefile.source import DataPath, SourceError, parse_yaml, read_text, shown_path
from oracle.catalogue import Catalogue, unmet_guards
from oracle.verify.report import BOARD, CaseReport, GameCheck, words

LONG_ANSWER = 40
"""Beyond this many characters, an answer pinned and now are shown on two lines."""


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
    def long(self) -> bool:
        """Whether the change is shown as two lines (a reason), not as ``old -> new``."""
        return len(self.pinned) > LONG_ANSWER or len(self.now) > LONG_ANSWER

    def shown_lines(self, indent: str = "  ") -> list[str]:
        """The change for a terminal: ``old -> new`` on the answer's line, or, for a long one
        such as a reason, the pinned text and the engine's each on a line of its own."""
        if not self.long:
            return [f"{self.question}: {self.pinned} -> {self.now}"]
        return [
            f"{self.question}:",
            f"{indent}pinned: {self.pinned}",
            f"{indent}now:    {self.now}",
        ]


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


def open_answers(report: CaseReport) -> tuple[DriftedAnswer, ...]:
    """Each answer a draft leaves open that the engine gives: a claim's verdict and reason, a
    claim's or refused move's missing reason, a move, a turn's facts, a deal or a match that
    pins nothing, a refused board's message; for ``pin`` to fill in."""
    case = report.case
    if not case.draft or report.engine_error is not None:
        return ()
    found = []
    for index, check in enumerate(report.checks):
        stone = f"stone {check.claim.stone}"
        now = words(check.verdict.explanation)
        if check.claim.expect is None:
            label = f"{check.verdict.verdict.label}: {now}"
            found.append(DriftedAnswer(stone, check.claim.line, "open", label, check.repin(index)))
        elif check.claim.because is None and check.verdict_matches:
            repin = check.repin(index)[1:]
            found.append(
                DriftedAnswer(f"{stone}, its reason", check.claim.line, "open", now, repin)
            )
    for game_check in report.game_checks:
        if _reason_open(game_check):
            found.append(
                DriftedAnswer(
                    f"{game_check.what}, its reason",
                    game_check.line,
                    "open",
                    game_check.now["because"],
                    game_check.repin,
                )
            )
            continue
        if game_check.repin and (game_check.expected is None or game_check.filled_in):
            question = (
                "the refusal of the board" if game_check.question == BOARD else game_check.what
            )
            found.append(
                DriftedAnswer(
                    question, game_check.line, "open", game_check.actual, game_check.repin
                )
            )
    return tuple(found)


def _reason_open(check: GameCheck) -> bool:
    """Whether a move judged as the case expects leaves open the reason the engine gives (a
    refused or unreadable move of a draft without its ``because:``)."""
    pinned, now = check.pinned, check.now
    return (
        isinstance(pinned, dict)
        and isinstance(now, dict)
        and pinned.get("answer") == now.get("answer")
        and "because" in now
        and "because" not in pinned
    )


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


@dataclass(frozen=True)
class Unreadable:
    """A case file that does not load (a board a changed ruling made unreachable, say): where,
    why, and what the file says of itself where it still parses (its id and rule ids)."""

    path: Path
    line: int | None
    reason: str
    case_id: str | None = None
    rules: tuple[str, ...] = ()

    def located(self, root: Path) -> str:
        """``file:line`` of the problem, the file shown from ``root``."""
        shown = shown_path(self.path, root)
        return f"{shown}:{self.line}" if self.line else shown


@dataclass(frozen=True)
class ReadAgain:
    """A case whose answers did not move but whose prose an editor should read again: a
    misreading it guards against that no longer changes its answer, or a ruling it pins that
    other cases' answers moved under."""

    path: Path
    line: int
    case_id: str
    reason: str


@dataclass(frozen=True)
class DriftReport:
    """Everything ``drift`` reports: the cases whose answers moved, the case files that no
    longer load, and the cases to read again although their answers stand."""

    cases: tuple[DriftedCase, ...] = ()
    unreadable: tuple[Unreadable, ...] = ()
    read_again: tuple[ReadAgain, ...] = ()

    @property
    def anything(self) -> bool:
        """Whether there is anything for an editor to do."""
        return bool(self.cases or self.unreadable or self.read_again)


def unreadable_files(catalogue: Catalogue) -> tuple[Unreadable, ...]:
    """Each problem of each case file that does not load, with the file's id and rule ids
    where its YAML still parses."""
    found = []
    for error in catalogue.collection.errors:
        case_id, rules = _own_words(error.path)
        found += [
            Unreadable(problem.path, problem.line, problem.problem, case_id, rules)
            for problem in error.every()
        ]
    return tuple(found)


def _own_words(path: Path) -> tuple[str | None, tuple[str, ...]]:
    """The ``id`` and ``rules`` a case file gives, if it parses as YAML at all."""
    try:
        data = parse_yaml(read_text(path), path).data
    except (SourceError, OSError, RecursionError, ValueError):
        return None, ()
    if not isinstance(data, dict):
        return None, ()
    case_id = data.get("id") if isinstance(data.get("id"), str) else None
    rules = data.get("rules")
    named = tuple(r for r in rules if isinstance(r, str)) if isinstance(rules, list) else ()
    return case_id, named


def read_again(
    catalogue: Catalogue, cases: Sequence[DriftedCase], unreadable: Sequence[Unreadable]
) -> tuple[ReadAgain, ...]:
    """The published cases whose answers did not move but whose prose may no longer hold: a
    misreading named in ``guards_against`` that no longer changes an answer, and a ruling pinned
    by a case that drifted or no longer loads, pinned here too."""
    root = catalogue.root
    moved = {d.report.case.path for d in cases}
    rulings = {entry.id for entry in catalogue.rules.rulings()}
    pinned = {rule for d in cases for rule in d.rules}
    pinned |= {rule for file in unreadable for rule in file.rules}
    changed = rulings & pinned
    found = []
    for report in catalogue.published:
        case = report.case
        if case.path in moved:
            continue
        for problem in unmet_guards((report,), catalogue.cache, root):
            reason = problem.line.removeprefix(f"{case.named_at(root)} ")
            found.append(ReadAgain(case.path, case.line, case.id, reason))
        shared = [rule for rule in case.rules if rule in changed]
        if shared:
            found.append(
                ReadAgain(
                    case.path,
                    case.line,
                    case.id,
                    f"pins {', '.join(shared)}, a ruling other cases' answers moved under;"
                    " its own did not: read its situation and why again",
                )
            )
    catalogue.cache.save()
    return tuple(found)


def drift_report(catalogue: Catalogue) -> DriftReport:
    """The whole report of ``catalogue``: drifted, unreadable, to read again."""
    cases = drift(catalogue)
    unreadable = unreadable_files(catalogue)
    return DriftReport(tuple(cases), unreadable, read_again(catalogue, cases, unreadable))


def is_held(report: CaseReport) -> bool:
    """Whether a published case's prose waits for an editor: never confirmed, or its answers or
    the texts of its rules changed since its situation and why were last read for them (as
    ``check`` says, and ``held`` lists)."""
    return report.publishable and not report.case.prose_reviewed
