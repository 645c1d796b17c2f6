"""Replay a case through the engine and compare its verdicts with the expected ones.

The plugin, the renderer and the CLI all verify through :func:`verify_case`, so they can never
disagree about what "verified" means.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from engine import ClaimVerdict, PositionError, Verdict, card_name, claim_verdicts
from oracle.model import Case, Claim
from oracle.yamlsource import shown_path


@dataclass(frozen=True)
class ClaimCheck:
    """One claim of a case: what the case expects and what the engine says."""

    claim: Claim
    verdict: ClaimVerdict

    @property
    def matches(self) -> bool:
        """Whether the engine agrees with the case (a draft's open claims always do)."""
        return self.claim.expect is None or self.claim.expect is self.verdict.verdict


@dataclass(frozen=True)
class CaseReport:
    """The result of replaying one case: each claim checked, or the engine's objection."""

    case: Case
    checks: tuple[ClaimCheck, ...]
    engine_error: str | None = None

    @property
    def verified(self) -> bool:
        """The engine judged every claim and agrees with every expected verdict."""
        return self.engine_error is None and all(check.matches for check in self.checks)

    @property
    def publishable(self) -> bool:
        """Verified and not a draft: fit for the published table."""
        return self.verified and not self.case.draft

    @property
    def verdict_label(self) -> str:
        """The engine's verdict for the table: one word, or one per stone when they differ."""
        verdicts = {check.verdict.verdict for check in self.checks}
        if len(verdicts) == 1:
            return verdicts.pop().label.capitalize()
        return "; ".join(
            f"stone {check.verdict.stone}: {check.verdict.verdict.label}" for check in self.checks
        )

    def problems(self, root: Path | None = None) -> list[str]:
        """One located line per disagreement: the case, its file and line, expected and actual."""
        case = self.case
        path = shown_path(case.path, root)
        if self.engine_error is not None:
            return [
                f"{path}:{case.line}: case {case.id!r}: the engine cannot judge it:"
                f" {self.engine_error}"
            ]
        lines = []
        for check in self.checks:
            if check.matches:
                continue
            expected = check.claim.expect.label if check.claim.expect else "?"
            lines.append(
                f"{path}:{check.claim.line}: case {case.id!r}, stone {check.claim.stone}:"
                f" expected {expected}, the engine says {check.verdict.verdict.label}"
            )
        return lines

    def explained_problems(self, root: Path | None = None) -> list[str]:
        """:meth:`problems`, each followed by the engine's reason and witness, indented."""
        lines = []
        for problem, check in zip(self.problems(root), self.drifted, strict=False):
            lines.append(problem)
            lines += describe_verdict(check.verdict)[1:]
        return lines or self.problems(root)

    @property
    def drifted(self) -> tuple[ClaimCheck, ...]:
        """The claims where the engine disagrees with the case."""
        return tuple(check for check in self.checks if not check.matches)


def verify_case(case: Case) -> CaseReport:
    """Replay ``case`` through the engine."""
    try:
        verdicts = claim_verdicts(case.position, case.claimed_stones)
    except PositionError as error:
        return CaseReport(case, (), engine_error=str(error))
    return CaseReport(
        case,
        tuple(
            ClaimCheck(claim, verdict) for claim, verdict in zip(case.claims, verdicts, strict=True)
        ),
    )


def describe_verdict(verdict: ClaimVerdict) -> list[str]:
    """The engine's verdict on one stone as indented lines: verdict, reason, witness."""
    lines = [
        f"stone {verdict.stone}: {verdict.verdict.label} ({verdict.reason.value})",
        f"  reason: {verdict.explanation}",
    ]
    if verdict.witness:
        lines.append(f"  witness: {', '.join(card_name(card) for card in verdict.witness)}")
    return lines


__all__ = ["CaseReport", "ClaimCheck", "Verdict", "describe_verdict", "verify_case"]
