"""Replay a case through the engine and compare its answers with the expected ones.

The plugin, the renderer and the CLI all verify through :func:`verify_case`: each question the
case asks is answered and judged by the entry of its kind in :data:`VERIFIED_KINDS`, under the
judge that checks the engine. :func:`engine_answers` gives the same answers, from the same
code, trusting the engine, for a case that is not verified (one a misreading changed, one read
from a request).
"""

from __future__ import annotations

from typing import Any

from engine import PositionError, TableError
from oracle.casefile import questions
from oracle.casefile.model import Case
from oracle.casefile.questions import QuestionKind
from oracle.verify.consistency import verdict_problem
from oracle.verify.judging import CHECKED, TRUSTED, Moment
from oracle.verify.moves import Unjudgeable
from oracle.verify.questions import (
    Answered,
    BoardVerified,
    ClaimsVerified,
    DealVerified,
    MatchVerified,
    PlaysVerified,
    TurnVerified,
    VerifiedKind,
)
from oracle.verify.report import CaseReport, ClaimCheck, GameCheck

VERIFIED_KINDS: tuple[VerifiedKind, ...] = (
    ClaimsVerified(),
    PlaysVerified(),
    TurnVerified(),
    DealVerified(),
    MatchVerified(),
    BoardVerified(),
)
"""How the engine answers, and the verifier judges, each kind of question: the registry of this
stage, one entry a kind of :data:`oracle.casefile.questions.QUESTION_KINDS`."""


class MissingStage(LookupError):
    """A kind of question some stage has no entry for."""


def verified_kinds(
    kinds: tuple[QuestionKind[Any], ...] | None = None,
    verified: tuple[VerifiedKind, ...] | None = None,
) -> tuple[VerifiedKind, ...]:
    """The verifier of each kind of question, in the kinds' order; a kind without one is
    refused by name, rather than left unverified."""
    kinds = questions.QUESTION_KINDS if kinds is None else kinds
    by_kind = {entry.kind.key: entry for entry in (verified or VERIFIED_KINDS)}
    missing = [kind.key for kind in kinds if kind.key not in by_kind]
    if missing:
        raise MissingStage(f"no verifier for the question kinds {', '.join(missing)}")
    return tuple(by_kind[kind.key] for kind in kinds)


def verify_case(case: Case) -> CaseReport:
    """Replay ``case`` through the engine: its claims, moves, turn, deal and match, or the
    refusal of its board."""
    moment = Moment(case, CHECKED)
    try:
        verdicts = moment.verdicts()
    except PositionError as error:
        return CaseReport(case, (), engine_error=str(error))
    checks = tuple(
        ClaimCheck(claim, verdict) for claim, verdict in zip(case.claims, verdicts, strict=True)
    )
    for verdict in verdicts:
        problem = verdict_problem(verdict)
        if problem is not None:
            return CaseReport(case, checks, engine_error=problem)
    answered = Answered()
    game_checks: list[GameCheck] = []
    try:
        for verified in verified_kinds():
            if verified.kind.asked_by(case):
                game_checks.extend(verified.judged(case, moment, answered))
    except Unjudgeable as error:  # the answers found so far are kept, for `schotten-oracle ask`
        return CaseReport(
            case,
            checks,
            error.problem,
            tuple(game_checks),
            error.line,
            error.detail,
            shown=answered.shown,
        )
    except (PositionError, TableError) as error:
        return CaseReport(case, checks, str(error), tuple(game_checks))
    return CaseReport(
        case,
        checks,
        None,
        tuple(game_checks),
        answers=answered.answers,
        explanations=answered.explanations,
        shown=answered.shown,
    )


def engine_answers(case: Case) -> tuple[dict[str, Any], dict[str, Any]]:
    """The engine's answers to every question of ``case`` other engines are asked, and how
    it explains them, worked out as :func:`verify_case` works them out but trusting the engine
    (for a case not verified: one a misreading changed, one read from a request).

    Answers are shaped like a case file's expectations: ``claims`` maps each stone to
    ``granted`` or ``refused``, ``plays`` lists ``legal``, ``illegal`` or ``unreadable`` in
    order, ``turn`` holds the facts of :func:`oracle.verify.answers.turn_facts` (or
    ``{"refused": ...}`` when a move is illegal), ``deal`` and ``match`` their ``expect`` keys.
    """
    answered = Answered()
    moment = Moment(case, TRUSTED)
    for verified in verified_kinds():
        if verified.kind.exported and verified.kind.asked_by(case):
            answered.add(verified.kind, verified.answer(case, moment))
    return answered.answers, answered.explanations
