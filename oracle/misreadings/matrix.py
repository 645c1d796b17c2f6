"""Every published case under every misreading: which misreadings would change its answer.

A misreading is *caught* by a case when a player reading the rules that way would answer the
case differently from the engine. The answers are compared as the conformance runner compares
another engine's (:func:`oracle.protocol.compare.compare`), so the matrix the misreadings page
shows is exactly what the runner finds with each misreading behind the protocol. The tests check
that every misreading is caught by some case, and that every case that says it guards against a
misreading catches it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from oracle.judges.misreadings import MISREADINGS, Reading
from oracle.misreadings.cache import MisreadingCache
from oracle.protocol.answers import expected_answers
from oracle.protocol.compare import Result, compare
from oracle.verify.report import CaseReport


class Outcome(Enum):
    """What a misreading does to a case."""

    FLIPS = "flips"
    SAME = "same"
    NOT_APPLICABLE = "n/a"


def outcome(
    report: CaseReport,
    reading: Reading,
    cache: MisreadingCache,
    expected: dict[str, Any] | None = None,
) -> Outcome:
    """Whether ``reading`` changes the answer to ``report``'s case (whose ``expected`` answers
    may be given, to work them out once for every reading)."""
    response = cache.misread(report.case, reading, report)
    if response is None:
        return Outcome.NOT_APPLICABLE
    wanted = expected_answers(report)[0] if expected is None else expected
    results = compare(wanted, response)
    if any(result.result is Result.FAIL for result in results):
        return Outcome.FLIPS
    if all(result.result is Result.UNSUPPORTED for result in results):
        return Outcome.NOT_APPLICABLE
    return Outcome.SAME


@dataclass(frozen=True)
class MatrixRow:
    """One case across every misreading, and the misreadings the case says it guards against."""

    report: CaseReport
    outcomes: dict[str, Outcome]
    """By misreading; rows with the same outcomes share this dict: never change it."""

    @property
    def caught(self) -> tuple[str, ...]:
        """The misreadings this case catches."""
        return tuple(name for name, result in self.outcomes.items() if result is Outcome.FLIPS)


def misreading_matrix(
    reports: tuple[CaseReport, ...], cache: MisreadingCache | None = None
) -> tuple[MatrixRow, ...]:
    """Every case under every misreading, in catalogue order; a board the engine must refuse
    (``impossible:``) asks no question a misreading answers, so it has no row. The answers come
    from ``cache`` (one of the user's cache folder when none is given), which is saved."""
    cache = cache or MisreadingCache()
    rows = []
    # One outcomes dict for the rows that have the same outcomes (most cases have one of a
    # few): a build holds the matrix while it writes every page.
    alike: dict[tuple[Outcome, ...], dict[str, Outcome]] = {}
    for report in reports:
        if report.case.impossible is not None:
            continue
        expected = expected_answers(report)[0]
        outcomes = {
            name: outcome(report, reading, cache, expected) for name, reading in MISREADINGS.items()
        }
        rows.append(MatrixRow(report, alike.setdefault(tuple(outcomes.values()), outcomes)))
    cache.save()
    # The judge's memos speed up one matrix; a site build goes on to write its pages.
    cache.judgements.clear()
    return tuple(rows)


__all__ = ["MatrixRow", "Outcome", "misreading_matrix", "outcome"]
