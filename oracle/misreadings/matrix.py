"""Every published case under every misreading: which misreadings would change its answer.

A misreading is *caught* by a case when a player reading the rules that way would answer the case
differently from the engine. :func:`misread` gives that player's answers, shaped as the conformance
protocol's (:mod:`oracle.conformance.runner`), so the matrix the misreadings page shows is exactly
what the runner finds with each misreading behind the protocol. The tests check that every
misreading is caught by some case, and that every case that says it guards against a misreading
catches it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from functools import cache
from pathlib import Path
from typing import Any

import engine
from engine.game import Phase
from engine.misreadings import MISREADINGS, Reading
from oracle.casefile.model import Case
from oracle.conformance.export import (
    QUESTIONS,
    catalogue_records,
    engine_answers,
    expected_answers,
    request_of,
)
from oracle.conformance.runner import Result, compare
from oracle.site.odds import cache_folder, save_json
from oracle.verify.replay import CaseReport


class Outcome(Enum):
    """What a misreading does to a case."""

    FLIPS = "flips"
    SAME = "same"
    NOT_APPLICABLE = "n/a"


def asked_questions(case: Case) -> list[str]:
    """The questions a case asks, by their keys in a request (``claims``, ``turn``...)."""
    return [
        key
        for key in QUESTIONS
        if (
            bool(getattr(case, key))
            if key in ("claims", "plays")
            else getattr(case, key) is not None
        )
    ]


def misread(case: Case, reading: Reading) -> dict[str, Any] | None:
    """The answers a player reading the rules as ``reading`` gives, as the protocol's response
    (``answers`` and ``unsupported``), or None where the misreading says nothing about the case.
    """
    if reading.claims_before_playing:
        table = case.table
        if table is None or table.step is not Phase.PLAY or table.expert:
            return None
        if not (case.plays or case.turn):
            return None
        moved = replace(case, table=replace(table, expert=True, step=Phase.CLAIM))
        # The claim step moves to the start of the turn, so the log is reordered: not judged.
        return {"answers": engine_answers(moved)[0], "unsupported": ["turn.log"]}
    if not reading.blocked_games_end:
        if case.turn is None:
            return None
        answers = engine_answers(case)[0]
        state = case.game_state()
        for text, _ in case.turn.moves:
            state.apply_text(text)
        if state.outcome is not None and not state.outcome.is_victory:
            # The game would go on: nobody wins yet; what else happens is not modelled.
            others = [
                f"turn.{fact}" for fact in ("log", "ending", "held", "hand", "discards", "next")
            ]
            return {"answers": {**answers, "turn": {"winner": "nobody"}}, "unsupported": others}
        return {"answers": answers}
    if reading.allowed_rules and case.plays and not case.turn:
        answers, detail = engine_answers(case)
        answers["plays"] = [
            "legal"
            if legality == "illegal" and why.get("rule") in reading.allowed_rules
            else legality
            for legality, why in zip(answers["plays"], detail["plays"], strict=True)
        ]
        if case.claims:
            claims = _misread_claims(case, reading)
            if claims is None:
                return None
            answers["claims"] = claims
        return {"answers": answers}
    if not case.claims or not case.asks_about_claims_only:
        return None
    claims = _misread_claims(case, reading)
    return None if claims is None else {"answers": {"claims": claims}}


def _misread_claims(case: Case, reading: Reading) -> dict[str, str] | None:
    played_first = dict(case.played_first)
    verdicts = {
        str(claim.stone): reading.claim_granted(
            case.position, claim.stone, played_first.get(claim.stone)
        )
        for claim in case.claims
    }
    if any(granted is None for granted in verdicts.values()):
        return None
    return {stone: "granted" if granted else "refused" for stone, granted in verdicts.items()}


def outcome(
    report: CaseReport, reading: Reading, expected: dict[str, Any] | None = None
) -> Outcome:
    """Whether ``reading`` changes the answer to ``report``'s case (whose ``expected`` answers
    may be given, to work them out once for every reading)."""
    response = remembered_misread(report.case, reading)
    if response is None:
        return Outcome.NOT_APPLICABLE
    wanted = expected_answers(report.case)[0] if expected is None else expected
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

    @property
    def caught(self) -> tuple[str, ...]:
        """The misreadings this case catches."""
        return tuple(name for name, result in self.outcomes.items() if result is Outcome.FLIPS)


def misreading_matrix(reports: tuple[CaseReport, ...]) -> tuple[MatrixRow, ...]:
    """Every case under every misreading, in catalogue order; a board the engine must refuse
    (``impossible:``) asks no question a misreading answers, so it has no row."""
    rows = []
    for report in reports:
        if report.case.impossible is not None:
            continue
        expected = expected_answers(report.case)[0]
        outcomes = {
            name: outcome(report, reading, expected) for name, reading in MISREADINGS.items()
        }
        rows.append(MatrixRow(report, outcomes))
    save_remembered()
    return tuple(rows)


# ------------------------------------------------------------------------------ remembering
# The misreadings' judge enumerates completions, which takes seconds over the catalogue, and
# every site build asks for the same answers twice (the matrix, and each misreading behind the
# conformance protocol), as do many tests. So each answer is kept in the user's cache folder,
# in a file named by a digest of the code it depends on, keyed by the reading and the case's
# request: a change to either works the answer out again.

_remembered: dict[str, Any] = {}
_unsaved: list[bool] = []


def remembered_misread(case: Case, reading: Reading) -> dict[str, Any] | None:
    """:func:`misread`, from the cache when this code has answered this case before."""
    if not _remembered:
        try:
            _remembered.update(json.loads(_store().read_text(encoding="utf-8")))
        except (OSError, ValueError):
            _remembered["version"] = _code_digest()
    request = json.dumps(request_of(case), sort_keys=True)
    key = hashlib.sha256(f"{reading.name}\0{request}".encode()).hexdigest()
    if key not in _remembered:
        _remembered[key] = {"response": misread(case, reading)}
        _unsaved.append(True)
    response: dict[str, Any] | None = _remembered[key]["response"]
    return response


def save_remembered() -> None:
    """Keep the answers worked out in this process for the next one."""
    if _unsaved:
        save_json(_store(), _remembered)
        _unsaved.clear()


def _store() -> Path:
    return cache_folder() / f"misreadings-{_code_digest()}.json"


@cache
def _code_digest() -> str:
    """A digest of the engine and of the oracle modules a misread answer depends on."""
    digest = hashlib.sha256()
    for folder in (Path(engine.__file__).parent, Path(__file__).parent):
        for source in sorted(folder.glob("*.py")):
            digest.update(source.name.encode() + b"\0" + source.read_bytes())
    return digest.hexdigest()[:16]


def published_records(
    reports: Sequence[CaseReport], matrix: Sequence[MatrixRow] | None = None
) -> list[dict[str, Any]]:
    """The published cases as export records, each with the misreadings it catches (from
    ``matrix``, worked out here when not given)."""
    rows = misreading_matrix(tuple(reports)) if matrix is None else matrix
    caught: Mapping[str, Sequence[str]] = {row.report.case.id: row.caught for row in rows}
    return catalogue_records(reports, caught)


__all__ = [
    "MatrixRow",
    "Outcome",
    "misread",
    "misreading_matrix",
    "outcome",
    "published_records",
    "remembered_misread",
    "save_remembered",
]
