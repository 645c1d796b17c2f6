"""Replay a case through the engine and compare its answers with the expected ones.

The plugin, the renderer and the CLI all verify through :func:`verify_case`. A case's claims are
judged by the claim proof, a refused board by what the loader kept of the engine's refusal, and
each question about the game by its entry in :data:`GAME_QUESTIONS`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

from engine import PositionError, claim_verdicts
from engine.game import GameState, TableError
from oracle.casefile.model import Case
from oracle.casefile.questions import QuestionKind
from oracle.verify.answers import claims_answer
from oracle.verify.consistency import verdict_problem
from oracle.verify.moves import Unjudgeable, copy_of, reads_back
from oracle.verify.questions import (
    Answer,
    check_board,
    check_deal,
    check_match,
    check_play,
    check_turn,
)
from oracle.verify.report import CaseReport, ClaimCheck, GameCheck


class Moment:
    """The case's moment, built once when a question first needs it (and checked to list only
    moves it can read back); each question plays on a copy of it."""

    def __init__(self, case: Case) -> None:
        self.case = case
        self.state: GameState | None = None

    def copy(self, line: int) -> GameState:
        """A copy of the moment for the question at ``line``."""
        if self.state is None:
            self.state = self.case.game_state()
            reads_back(self.state, line, "the case's moment")
        return copy_of(self.state, line)


class Answered:
    """The engine's answers as a case's questions are verified, in the order they are asked,
    each with how the engine explains it: what :class:`CaseReport` keeps."""

    def __init__(self) -> None:
        self.answers: dict[str, Any] = {}
        self.explanations: dict[str, Any] = {}

    def add(self, kind: QuestionKind, answer: Answer) -> None:
        """The answer to the question of ``kind``, and its explanation (None: none)."""
        self.answers[kind.key], why = answer
        if why is not None:
            self.explanations[kind.key] = why


def _plays(case: Case, moment: Moment, answered: Answered) -> Iterator[GameCheck]:
    judged = []
    for index, play in enumerate(case.plays):
        check, answer = check_play(moment.copy(play.line), play, index)
        judged.append(answer)
        yield replace(check, question=QuestionKind.PLAYS.item_name(index + 1))
    answered.add(QuestionKind.PLAYS, ([a for a, _ in judged], [why for _, why in judged]))


def _turn(case: Case, moment: Moment, answered: Answered) -> Iterator[GameCheck]:
    assert case.turn is not None
    checks, answer = check_turn(moment.copy(case.turn.line), case.turn)
    answered.add(QuestionKind.TURN, answer)
    for check in checks:
        yield replace(check, question=QuestionKind.TURN.item_name())


def _deal(case: Case, moment: Moment, answered: Answered) -> Iterator[GameCheck]:
    assert case.deal is not None
    checks, answer = check_deal(case, case.deal)
    answered.add(QuestionKind.DEAL, answer)
    for check in checks:
        yield replace(check, question=QuestionKind.DEAL.item_name())


def _match(case: Case, moment: Moment, answered: Answered) -> Iterator[GameCheck]:
    assert case.match is not None
    checks, answer = check_match(case.match)
    answered.add(QuestionKind.MATCH, answer)
    for check in checks:
        yield replace(check, question=QuestionKind.MATCH.item_name())


GAME_QUESTIONS: dict[QuestionKind, Callable[[Case, Moment, Answered], Iterator[GameCheck]]] = {
    QuestionKind.PLAYS: _plays,
    QuestionKind.TURN: _turn,
    QuestionKind.DEAL: _deal,
    QuestionKind.MATCH: _match,
}
"""How each question about the game is verified, in the order a report lists them (the claims
and a refused board are verified apart: they are not about a game). Each yields its checks one
by one, so that those found before the engine could not go on are kept, and adds the engine's
answer to what was answered."""


def verify_case(case: Case) -> CaseReport:
    """Replay ``case`` through the engine: its claims, moves, turn, deal and match, or the
    refusal of its board."""
    if case.impossible is not None:  # the loader built the board, and kept what the engine said
        return CaseReport(case, (), None, (check_board(case),))
    try:
        verdicts = claim_verdicts(case.position, case.claimed_stones)
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
    if case.claims:
        answered.add(QuestionKind.CLAIMS, claims_answer(verdicts))
    game_checks: list[GameCheck] = []
    moment = Moment(case)
    try:
        for kind, verify in GAME_QUESTIONS.items():
            if kind.asked_by(case):
                game_checks.extend(verify(case, moment, answered))
    except Unjudgeable as error:  # the answers found so far are kept, for `schotten-oracle ask`
        return CaseReport(case, checks, error.problem, tuple(game_checks), error.line, error.detail)
    except (PositionError, TableError) as error:
        return CaseReport(case, checks, str(error), tuple(game_checks))
    return CaseReport(
        case,
        checks,
        None,
        tuple(game_checks),
        answers=answered.answers,
        explanations=answered.explanations,
    )
