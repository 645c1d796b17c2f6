"""How a player who misreads the rules answers a case: the answers a misreading gives, shaped as
the conformance protocol's (:mod:`oracle.protocol`), or None where it says nothing about the case.
"""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

from engine import Phase, Termination
from oracle.casefile.model import Case
from oracle.casefile.questions import exported_kinds
from oracle.judges.misreadings import Reading
from oracle.judges.sides import Judgements
from oracle.verify.replay import engine_answers
from oracle.verify.report import CaseReport


def asked_questions(case: Case) -> list[str]:
    """The questions a case asks, by their keys in a request (``claims``, ``turn``...)."""
    return [kind.key for kind in exported_kinds() if kind.asked_by(case)]


Answers = tuple[dict[str, Any], dict[str, Any]]
"""The engine's answers to a case's questions, and how it explains them."""


def misread(
    case: Case,
    reading: Reading,
    answered: CaseReport | None = None,
    kept: Judgements | None = None,
) -> dict[str, Any] | None:
    """The answers a player reading the rules as ``reading`` gives, as the protocol's response
    (``answers`` and ``unsupported``), or None where the misreading says nothing about the case.
    Where the misreading answers as the rules do, the answers of ``answered`` (the case's
    verified report) are taken rather than worked out again. The judge keeps what it works out
    in ``kept`` (its caller's, who judges many cases in a row; none: this case's alone)."""
    kept = Judgements() if kept is None else kept
    if reading.claims_before_playing:
        return _claims_before_playing(case)
    if not reading.blocked_games_end:
        return _blocked_games_go_on(case, _rules_answers(case, answered))
    if reading.allowed_rules and case.plays and not case.turn:
        return _rules_allowed(case, reading, _rules_answers(case, answered), kept)
    if not case.claims or not case.asks_about_claims_only:
        return None
    claims = _misread_claims(case, reading, kept)
    return None if claims is None else {"answers": {"claims": claims}}


def _rules_answers(case: Case, answered: CaseReport | None) -> Answers:
    """The engine's answers to ``case`` (copies, to change): verified ones where a report of
    the case is given, else worked out now (a case read from a request)."""
    if answered is None:
        return engine_answers(case)
    return copy.deepcopy(answered.answers), copy.deepcopy(answered.explanations)


def _claims_before_playing(case: Case) -> dict[str, Any] | None:
    table = case.table
    if table is None or table.step is not Phase.PLAY or table.expert:
        return None
    if not (case.plays or case.turn):
        return None
    moved = replace(case, table=replace(table, expert=True, step=Phase.CLAIM))
    # The claim step moves to the start of the turn, so the log is reordered: not judged.
    return {"answers": engine_answers(moved)[0], "unsupported": ["turn.log"]}


def _blocked_games_go_on(case: Case, rules: Answers) -> dict[str, Any] | None:
    if case.turn is None:
        return None
    answers = rules[0]
    facts = answers["turn"]
    if "refused" in facts:  # the turn stops at a refused move: no game to end
        return {"answers": answers}
    # How the turn's game ended, as the engine answered it (the turn is not played again).
    if facts["ending"] != "none" and not Termination(facts["ending"]).is_victory:
        # The game would go on: nobody wins yet; what else happens is not modelled.
        others = [f"turn.{fact}" for fact in ("log", "ending", "held", "hand", "discards", "next")]
        return {"answers": {**answers, "turn": {"winner": "nobody"}}, "unsupported": others}
    return {"answers": answers}


def _rules_allowed(
    case: Case, reading: Reading, rules: Answers, kept: Judgements
) -> dict[str, Any] | None:
    answers, detail = rules
    answers["plays"] = [
        "legal" if legality == "illegal" and why.get("rule") in reading.allowed_rules else legality
        for legality, why in zip(answers["plays"], detail["plays"], strict=True)
    ]
    if case.claims:
        claims = _misread_claims(case, reading, kept)
        if claims is None:
            return None
        answers["claims"] = claims
    return {"answers": answers}


def _misread_claims(case: Case, reading: Reading, kept: Judgements) -> dict[str, str] | None:
    played_first = dict(case.played_first)
    verdicts = {
        str(claim.stone): reading.claim_granted(
            case.position, claim.stone, played_first.get(claim.stone), kept
        )
        for claim in case.claims
    }
    if any(granted is None for granted in verdicts.values()):
        return None
    return {stone: "granted" if granted else "refused" for stone, granted in verdicts.items()}
