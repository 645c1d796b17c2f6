"""Replay a case through the engine and compare its answers with the expected ones.

The plugin, the renderer and the CLI all verify through :func:`verify_case`."""

from __future__ import annotations

from dataclasses import replace

from engine import (
    PositionError,
    claim_verdicts,
)
from engine.game import TableError
from oracle.casefile.model import Case
from oracle.verify.consistency import verdict_problem
from oracle.verify.moves import Unjudgeable, copy_of, reads_back
from oracle.verify.questions import check_board, check_deal, check_match, check_play, check_turn
from oracle.verify.report import CaseReport, ClaimCheck, GameCheck


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
    game_checks: list[GameCheck] = []
    try:
        # The case's moment is built once; each move and the turn play on a copy of it.
        moment = case.game_state() if case.plays or case.turn is not None else None
        if moment is not None:
            first = case.plays[0].line if case.plays else case.turn.line if case.turn else 0
            reads_back(moment, first, "the case's moment")
        for number, play in enumerate(case.plays, 1):
            assert moment is not None
            check = check_play(copy_of(moment, play.line), play)
            game_checks.append(replace(check, question=f"play-{number}"))
        if case.turn is not None:
            assert moment is not None
            turn_checks = check_turn(copy_of(moment, case.turn.line), case.turn)
            game_checks += [replace(c, question="turn") for c in turn_checks]
        if case.deal is not None:
            game_checks += [replace(c, question="deal") for c in check_deal(case, case.deal)]
        if case.match is not None:
            game_checks += [replace(c, question="match") for c in check_match(case.match)]
    except Unjudgeable as error:  # the answers found so far are kept, for `schotten-oracle ask`
        return CaseReport(case, checks, error.problem, tuple(game_checks), error.line)
    except (PositionError, TableError) as error:
        return CaseReport(case, checks, str(error), tuple(game_checks))
    return CaseReport(case, checks, None, tuple(game_checks))
