"""Every published case under every misreading: which misreadings would change its answer.

A misreading is *caught* by a case when a player reading the rules that way would answer the
case differently from the engine. The matrix is what the misreadings page shows, and what the
tests check: every misreading must be caught by some case, and every case that says it guards
against a misreading must catch it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

from engine.game import Phase
from engine.misreadings import MISREADINGS, Reading
from oracle.model import Case
from oracle.verify import CaseReport, verify_case


class Outcome(Enum):
    """What a misreading does to a case."""

    FLIPS = "flips"
    SAME = "same"
    NOT_APPLICABLE = "n/a"


GAME_FACTS = ("the stones held", "the winner", "whose turn it is", "your hand", "the discards")
"""What a turn decides, compared under a misreading; the log is not, since the timing of the
claim step alone reorders it."""


def answers(report: CaseReport) -> tuple[object, ...]:
    """The engine's answers to a case, comparable with a misreading's: verdicts, the legality of
    each move asked about, whether the turn could be played, and what it decided."""
    claims = tuple(check.verdict.granted for check in report.checks)
    games = tuple(
        check.actual.split(" under ")[0]  # legal or illegal; the rule named may differ
        for check in report.game_checks
        if check.what.startswith("move ")
        or (check.what in GAME_FACTS and check.expected is not None)  # what the case asserts
    )
    return (report.engine_error is not None, claims, games)


def misread_answers(case: Case, report: CaseReport, reading: Reading) -> tuple[object, ...] | None:
    """The case's answers under ``reading``, or None where the misreading does not apply."""
    if reading.claims_before_playing:
        if case.table is None or case.table.step is not Phase.PLAY or case.table.expert:
            return None
        if not (case.plays or case.turn):
            return None
        misread = replace(case, table=replace(case.table, expert=True, step=Phase.CLAIM))
        return answers(verify_case(misread))
    if not case.claims or not case.asks_about_claims_only:
        return None
    played_first = dict(case.played_first)
    claims = tuple(
        reading.claim_granted(case.position, claim.stone, played_first.get(claim.stone))
        for claim in case.claims
    )
    if any(granted is None for granted in claims):
        return None
    return (False, claims, answers(report)[2])


def outcome(report: CaseReport, reading: Reading) -> Outcome:
    """Whether ``reading`` changes the answer to ``report``'s case."""
    misread = misread_answers(report.case, report, reading)
    if misread is None:
        return Outcome.NOT_APPLICABLE
    return Outcome.SAME if misread == answers(report) else Outcome.FLIPS


@dataclass(frozen=True)
class MatrixRow:
    """One case across every misreading, and the misreadings the case says it guards against."""

    report: CaseReport
    outcomes: dict[str, Outcome]

    @property
    def caught(self) -> tuple[str, ...]:
        """The misreadings this case catches."""
        return tuple(name for name, result in self.outcomes.items() if result is Outcome.FLIPS)


def misreading_matrix(reports: tuple[CaseReport, ...]) -> tuple[MatrixRow, ...]:
    """Every case under every misreading, in catalogue order."""
    return tuple(
        MatrixRow(report, {name: outcome(report, reading) for name, reading in MISREADINGS.items()})
        for report in reports
    )
