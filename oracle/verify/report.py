"""The result of replaying a case: each question's expected and actual answer, and the lines
that tell an editor where the engine disagrees. The plugin, the catalogue and the CLI all read
these reports, so they can never disagree about what "verified" means."""

from __future__ import annotations

import difflib
import hashlib
import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from engine import (
    ClaimVerdict,
    card_name,
)
from oracle.casefile import questions
from oracle.casefile.model import Case, Claim
from oracle.casefile.questions import CLAIMS, IMPOSSIBLE
from oracle.casefile.source import DataPath, shown_path


@dataclass(frozen=True)
class ClaimCheck:
    """One claim of a case: what the case expects and what the engine says."""

    claim: Claim
    verdict: ClaimVerdict

    @property
    def matches(self) -> bool:
        """Whether the engine agrees with the case (a draft's open claims always do): the
        verdict, and the reason in words where the case pins it."""
        return self.verdict_matches and self.reason_matches

    @property
    def verdict_matches(self) -> bool:
        return self.claim.expect is None or self.claim.expect is self.verdict.verdict

    @property
    def reason_matches(self) -> bool:
        return self.claim.because is None or self.claim.because == words(self.verdict.explanation)

    def repin(self, index: int) -> tuple[tuple[DataPath, Any], ...]:
        """The engine's answer as the case file pins it, the claim being ``claims[index]``."""
        return (
            (("claims", index, "expect"), self.verdict.verdict.label),
            (("claims", index, "because"), words(self.verdict.explanation)),
        )


def agrees(pinned: Any, now: Any) -> bool:
    """Whether the engine's answer ``now`` says what the case pins: nothing pinned (an open
    question) agrees with any answer, pinned facts (a dict) each with the engine's fact of
    the same name, any other value with an equal one."""
    if pinned is None:
        return True
    if isinstance(pinned, dict) and isinstance(now, dict):
        return all(key in now and now[key] == value for key, value in pinned.items())
    return bool(pinned == now)


@dataclass(frozen=True)
class GameCheck:
    """One question about the game (a move, a turn, a deal, a match): what the case pins and
    the engine's answer, as data (``pinned`` and ``now``, compared by :func:`agrees`), and
    both in an editor's words (``expected`` and ``actual``, for messages and pages)."""

    what: str
    line: int
    expected: str | None
    actual: str
    label: str
    detail: tuple[str, ...] = ()
    question: str = ""
    """Which question of the case this check answers: ``play-2``, ``turn``, ``deal``, ``match``."""
    repin: tuple[tuple[DataPath, Any], ...] = ()
    """The engine's answer as the case file would pin it: each value at its place in the file
    (None: the key no longer belongs there), for ``schotten-oracle pin``."""
    pinned: Any = None
    """What the case pins, in the shape of the engine's answer (None: nothing, an open
    question or a fact only shown)."""
    now: Any = None
    """The engine's answer to it."""
    filled_in: bool = False
    """Whether ``expected`` is the engine's own answer, filled in: a whole answer the case pins
    no part of (a deal or a match without ``expect:``), shown as open, never as agreed."""

    @property
    def matches(self) -> bool:
        """Whether the engine agrees with the case (an open question in a draft always does)."""
        return agrees(self.pinned, self.now)


@dataclass(frozen=True)
class CaseReport:
    """The result of replaying one case: each claim checked, or the engine's objection."""

    case: Case
    checks: tuple[ClaimCheck, ...]
    engine_error: str | None = None
    game_checks: tuple[GameCheck, ...] = ()
    engine_error_line: int | None = None
    engine_error_detail: tuple[str, ...] = ()
    """How far the engine got before it could not judge the case (the turn so far)."""
    answers: dict[str, Any] = field(default_factory=dict, hash=False)
    """The engine's answer to each question it answered, by the question's key, in the
    conformance protocol's shape (:mod:`oracle.verify.answers`): worked out once, here, and
    read by the export and the misreadings' matrix. Read it, never change it."""
    explanations: dict[str, Any] = field(default_factory=dict, hash=False)
    """How the engine explains its answers, by the same keys (where it has something to say)."""
    shown: dict[str, Any] = field(default_factory=dict, hash=False)
    """What the engine showed on the way that no other engine is asked, by the same keys (the
    cards a deal gave each player): kept from verifying, for ``ask`` to print."""

    @property
    def verified(self) -> bool:
        """The engine answered every question and agrees with every expected answer."""
        return (
            self.engine_error is None
            and all(check.matches for check in self.checks)
            and all(check.matches for check in self.game_checks)
        )

    @property
    def publishable(self) -> bool:
        """Verified and not a draft: fit for the published table."""
        return self.verified and not self.case.draft

    @property
    def verdict_label(self) -> str:
        """The engine's answer for the table: one word, or one part per question."""
        verdicts = {check.verdict.verdict for check in self.checks}
        parts = []
        if len(verdicts) == 1 and not self.game_checks:
            return verdicts.pop().label.capitalize()
        parts += [
            f"stone {check.verdict.stone}: {check.verdict.verdict.label}" for check in self.checks
        ]
        parts += [check.label for check in self.game_checks if check.label]
        text = "; ".join(parts)
        return text[:1].upper() + text[1:]

    def problems(self, root: Path | None = None) -> list[str]:
        """One located line per disagreement: the case, its file and line, expected and actual."""
        case = self.case
        path = shown_path(case.path, root)
        if self.engine_error is not None:
            return [
                f"{path}:{self.engine_error_line or case.line}: case {case.id!r}: the engine"
                f" cannot judge it: {self.engine_error}"
            ]
        lines = []
        for check in self.checks:
            if check.matches:
                continue
            where = f"{path}:{check.claim.line}: case {case.id!r}, stone {check.claim.stone}:"
            if not check.verdict_matches:
                expected = check.claim.expect.label if check.claim.expect else "?"
                lines.append(
                    f"{where} expected {expected}, the engine says {check.verdict.verdict.label}"
                )
            else:
                lines.append(
                    f"{where} {check.verdict.verdict.label} as expected, but the reason has"
                    " changed (the case's words [-so-], the engine's {+so+}):"
                    f" {word_diff(check.claim.because or '', words(check.verdict.explanation))}"
                )
        for game_check in self.game_checks:
            if not game_check.matches and game_check.question == BOARD:
                lines.append(
                    f"{path}:{game_check.line}: case {case.id!r}, {board_problem(game_check)}"
                )
            elif not game_check.matches:
                lines.append(
                    f"{path}:{game_check.line}: case {case.id!r}, {game_check.what}:"
                    f" {_disagreement(game_check.expected or '', game_check.actual)}"
                )
        return lines

    def explained(self, root: Path | None = None) -> list[tuple[str, tuple[str, ...]]]:
        """Each line of :meth:`problems` with the lines that explain it, indented: the engine's
        reason and witness, the turn so far, the log's difference... (kept apart, so that every
        front end has the problem and its explanation without reading them back from text)."""
        problems = self.problems(root)
        if self.engine_error is not None:
            return [(problems[0], tuple(f"  {line}" for line in self.engine_error_detail))]
        explained = [
            (problem, tuple(describe_verdict(check.verdict)[1:]))
            for problem, check in zip(problems, self.drifted, strict=False)
        ]
        drifted_games = [check for check in self.game_checks if not check.matches]
        explained += [
            (problem, tuple(f"  {line}" for line in game_check.detail))
            for problem, game_check in zip(
                problems[len(self.drifted) :], drifted_games, strict=False
            )
        ]
        return explained or [(problem, ()) for problem in problems]

    def explained_problems(self, root: Path | None = None) -> list[str]:
        """:meth:`problems`, each followed by the engine's reason and witness, indented."""
        return [line for problem, detail in self.explained(root) for line in (problem, *detail)]

    def on_question(self, question: str) -> CaseReport:
        """This report cut to one question of :func:`questions_of`. When the engine could not
        judge the case, the questions answered before the line it stopped at keep their
        answers; the one it stopped at and those after it (or all, when it names no line) carry
        its objection."""
        lines = questions_of(self.case)
        error = self.engine_error
        if error is not None and self.engine_error_line is not None:
            later = [line for line in lines.values() if line > lines[question]]
            stopped_before = min(later, default=None)
            if stopped_before is not None and self.engine_error_line >= stopped_before:
                error = None  # the engine stopped at a later question
        return replace(
            self,
            checks=tuple(c for c in self.checks if CLAIMS.item_name(c.claim.stone) == question),
            game_checks=tuple(c for c in self.game_checks if c.question == question),
            engine_error=error,
        )

    @property
    def unassigned(self) -> tuple[str, ...]:
        """Checks no question of the case owns (a new kind of check not yet named): a test
        item per question would never judge them."""
        names = questions_of(self.case)
        return tuple(
            check.what for check in self.game_checks if check.question not in names
        ) + tuple(
            f"stone {check.claim.stone}"
            for check in self.checks
            if CLAIMS.item_name(check.claim.stone) not in names
        )

    @property
    def drifted(self) -> tuple[ClaimCheck, ...]:
        """The claims where the engine disagrees with the case."""
        return tuple(check for check in self.checks if not check.matches)


def questions_of(case: Case) -> dict[str, int]:
    """The case's questions in order, as its test items name them
    (:meth:`QuestionKind.item_name`), each with its line: ``stone-3`` for each claimed stone,
    ``play-1``... for each move judged on its own, ``turn``, ``deal`` and ``match``, and
    ``board`` for a board the engine must refuse."""
    found: dict[str, int] = {}
    for kind in questions.QUESTION_KINDS:
        found |= kind.items(case)
    return found


BOARD = IMPOSSIBLE.item_name()
"""The question of a case whose board the engine must refuse (``impossible:``)."""


def board_problem(check: GameCheck) -> str:
    """What went wrong with an ``impossible`` case, after its ``path:line: case 'id', ``."""
    expected = (check.expected or "").removeprefix("refused: ")
    found = (
        "but it accepted it"
        if check.actual == "accepted"
        else f'but it refused it with "{check.actual.removeprefix("refused: ")}"'
    )
    return f'impossible: expected the engine to refuse this board with "{expected}", {found}'


def words(text: str) -> str:
    """``text`` with its spaces as a case pins it: single, none at either end."""
    return " ".join(text.split())


def _disagreement(expected: str, actual: str) -> str:
    """The case's answer against the engine's: both, or where both are long, one word diff."""
    if min(len(expected), len(actual)) <= LONG_ANSWER:
        return f"expected {expected}, the engine says {actual}"
    return f"the case and the engine differ ([-case-] {{+engine+}}): {word_diff(expected, actual)}"


LONG_ANSWER = 80
"""Beyond this many characters, two answers are shown as one word diff."""


def word_diff(old: str, new: str) -> str:
    """Two wordings as one, the words only the old one has as ``[-...-]`` and those only the
    new one has as ``{+...+}`` (as ``git diff --word-diff`` shows them): a changed reason reads
    at a glance, not as two long sentences to compare."""
    before, after = old.split(), new.split()
    parts: list[str] = []
    matcher = difflib.SequenceMatcher(a=before, b=after, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            parts += before[i1:i2]
            continue
        if i2 > i1:
            parts.append("[-" + " ".join(before[i1:i2]) + "-]")
        if j2 > j1:
            parts.append("{+" + " ".join(after[j1:j2]) + "+}")
    return " ".join(parts)


def describe_verdict(verdict: ClaimVerdict) -> list[str]:
    """The engine's verdict on one stone as indented lines: verdict, reason, witness."""
    lines = [
        f"stone {verdict.stone}: {verdict.verdict.label} ({verdict.reason.value})",
        f"  reason: {verdict.explanation}",
    ]
    if verdict.witness:
        lines.append(f"  witness: {', '.join(card_name(card) for card in verdict.witness)}")
    return lines


def same_answers(report: CaseReport) -> tuple[object, ...]:
    """What two cases share when they answer alike: the variant, each claim's verdict and
    reason, each answer about the game."""
    case = report.case
    return (
        case.variant,
        tuple((c.claim.stone, c.verdict.verdict, c.verdict.explanation) for c in report.checks),
        tuple((check.question, check.actual) for check in report.game_checks),
    )


def answers_digest(report: CaseReport) -> str:
    """A short digest of :func:`same_answers`: two cases with the same digest answer alike, so
    the Ask page can say that a board is already published (``check`` would refuse it as a
    duplicate unless it catches another misreading)."""
    canonical = json.dumps(same_answers(report), default=str, ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:16]
