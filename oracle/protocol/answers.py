"""What a case asks another engine, as plain data in the keys of a case file, and the answers
this engine gives: the request and answer shapes of the conformance protocol
(:mod:`oracle.protocol`), and the answers every misreading is compared with."""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engine import (
    Game,
    GameState,
    IllegalMove,
    Match,
    MoveSyntaxError,
    Player,
    Position,
    claim_verdicts,
)
from oracle.casefile.model import (
    Case,
    DealQuestion,
    MatchQuestion,
    PlayQuestion,
    Table,
    TurnQuestion,
)
from oracle.casefile.questions import EXPORTED_KINDS, QuestionKind
from oracle.casefile.vocabulary import PLAYER_WORDS
from oracle.verify.answers import (
    card_names,
    claims_answer,
    deal_facts,
    illegal_play,
    legal_play,
    match_facts,
    turn_facts,
    unreadable_play,
)
from oracle.verify.report import CaseReport


def position_data(
    position: Position, played_first: Sequence[tuple[int, Player]] = ()
) -> dict[str, Any]:
    """A position in the keys of a case file's ``position`` (you are the viewer)."""
    first = dict(played_first)
    stones = []
    for number, stone in enumerate(position.stones, 1):
        entry: dict[str, Any] = {"stone": number}
        for player in (Player.A, Player.B):
            if stone.sides[player]:
                entry[PLAYER_WORDS[player]] = card_names(stone.sides[player])
        if stone.completed_first is not None:
            entry["completed_first"] = PLAYER_WORDS[stone.completed_first]
        if stone.modes:
            entry["modes"] = sorted(mode.value for mode in stone.modes)
        if stone.claimed_by is not None:
            entry["claimed_by"] = PLAYER_WORDS[stone.claimed_by]
        if number in first:
            entry["played_first"] = PLAYER_WORDS[first[number]]
        if len(entry) > 1:
            stones.append(entry)
    data: dict[str, Any] = {"stones": stones, "hand": card_names(position.hand)}
    if position.discards:
        data["discards"] = card_names(position.discards)
    gone = [
        PLAYER_WORDS[player]
        for player in (Player.A, Player.B)
        if player in position.jokers_played and not position.jokers_on_border(player)
    ]
    if gone:
        data["jokers_played"] = gone
    return data


def table_data(table: Table) -> dict[str, Any]:
    """A table in the keys of a case file's ``table``: the decks complete, top card first."""
    data: dict[str, Any] = {
        "their_hand": card_names(table.their_hand),
        "clan_deck": card_names(table.clan_deck),
        "tactic_deck": card_names(table.tactic_deck),
        "tactics_played": {"you": table.tactics_played[0], "them": table.tactics_played[1]},
        "expert": table.expert,
        "step": table.step.value,
    }
    for key, value in (
        ("passed", table.passed),
        ("could_claim", table.could_claim),
        ("idle_turns", table.idle_turns),
    ):
        if value is not None:
            data[key] = value
    return data


def asserted_facts(turn: TurnQuestion) -> tuple[str, ...]:
    """The facts a turn question asserts: only those are asked of another engine."""
    expect = turn.expect
    named = {
        "log": expect.log,
        "winner": expect.winner,
        "ending": expect.ending,
        "held": expect.held,
        "hand": expect.hand,
        "discards": expect.discards,
        "next": expect.next_player,
    }
    return tuple(key for key, value in named.items() if value is not None)


def deal_answer(variant: str, deal: DealQuestion) -> dict[str, Any]:
    """The deal's facts, in the keys of a case file's ``deal.expect``."""
    state = Game.named(variant, first_player=deal.first, seed=deal.seed).new_initial_state()
    return deal_facts(state)


def match_answer(question: MatchQuestion) -> dict[str, Any]:
    """The match's facts, in the keys of a case file's ``match.expect``."""
    match = Match(len(question.rounds), first_player=question.rounds[0].starter)
    for played in question.rounds:
        match.record_result(played.starter, played.winner, played.stones)
    return match_facts(match)


class _Moment:
    """The case's moment, built when a question first needs it; each question plays on a copy."""

    def __init__(self, case: Case) -> None:
        self.case = case
        self.state: GameState | None = None

    def copy(self) -> GameState:
        if self.state is None:
            self.state = self.case.game_state()
        return self.state.clone()


_Answer = tuple[Any, Any]
"""An answer and how the engine explains it (None: nothing more to say)."""


def _claims_request(case: Case) -> Any:
    return [{"stone": claim.stone} for claim in case.claims]


def _claims_answer(case: Case, moment: _Moment) -> _Answer:
    return claims_answer(claim_verdicts(case.position, [claim.stone for claim in case.claims]))


def _plays_request(case: Case) -> Any:
    return [
        {"move": play.move, **({"after": list(play.after)} if play.after else {})}
        for play in case.plays
    ]


def _plays_answer(case: Case, moment: _Moment) -> _Answer:
    judged = [play_answer(moment.copy(), play) for play in case.plays]
    return [answer for answer, _ in judged], [why for _, why in judged]


def _turn_request(case: Case) -> Any:
    assert case.turn is not None
    return {
        "moves": [text for text, _ in case.turn.moves],
        "facts": list(asserted_facts(case.turn)),
    }


def _turn_answer(case: Case, moment: _Moment) -> _Answer:
    assert case.turn is not None
    state = moment.copy()
    try:
        for text, _ in case.turn.moves:
            state.apply_text(text)
    except IllegalMove as error:
        return {"refused": str(error)}, None
    return turn_facts(state), None


def _deal_request(case: Case) -> Any:
    assert case.deal is not None
    return {"seed": case.deal.seed, "first": PLAYER_WORDS[case.deal.first]}


def _deal_answer(case: Case, moment: _Moment) -> _Answer:
    assert case.deal is not None
    return deal_answer(case.position.variant.name, case.deal), None


def _match_request(case: Case) -> Any:
    assert case.match is not None
    return {
        "rounds": [
            {
                "started": PLAYER_WORDS[played.starter],
                "winner": "nobody" if played.winner is None else PLAYER_WORDS[played.winner],
                "stones": {"you": played.stones[0], "them": played.stones[1]},
            }
            for played in case.match.rounds
        ]
    }


def _match_answer(case: Case, moment: _Moment) -> _Answer:
    assert case.match is not None
    return match_answer(case.match), None


@dataclass(frozen=True)
class ProtocolQuestion:
    """A kind of question as the protocol asks it: its part of a request, and the engine's
    answer (shaped like a case file's expectations) with how it explains it."""

    request: Callable[[Case], Any]
    answer: Callable[[Case, _Moment], _Answer]


PROTOCOL_QUESTIONS: dict[QuestionKind, ProtocolQuestion] = {
    QuestionKind.CLAIMS: ProtocolQuestion(_claims_request, _claims_answer),
    QuestionKind.PLAYS: ProtocolQuestion(_plays_request, _plays_answer),
    QuestionKind.TURN: ProtocolQuestion(_turn_request, _turn_answer),
    QuestionKind.DEAL: ProtocolQuestion(_deal_request, _deal_answer),
    QuestionKind.MATCH: ProtocolQuestion(_match_request, _match_answer),
}
"""Every question other engines are asked (:data:`EXPORTED_KINDS`), as the protocol asks it."""


def request_of(case: Case) -> dict[str, Any]:
    """The case as a conformance request: a case file's keys, without any expected answer."""
    request: dict[str, Any] = {
        "variant": case.position.variant.name,
        "position": position_data(case.position, case.played_first),
    }
    if case.table is not None:
        request["table"] = table_data(case.table)
    for kind in EXPORTED_KINDS:
        if kind.asked_by(case):
            request[kind.key] = PROTOCOL_QUESTIONS[kind].request(case)
    return request


def engine_answers(case: Case) -> tuple[dict[str, Any], dict[str, Any]]:
    """The engine's answers to every question of ``case``, and how it explains them.

    Answers are shaped like a case file's expectations: ``claims`` maps each stone to
    ``granted`` or ``refused``, ``plays`` lists ``legal``, ``illegal`` or ``unreadable`` in
    order, ``turn`` holds the facts of :func:`turn_facts` (or ``{"refused": ...}`` when a move
    is illegal), ``deal`` and ``match`` their ``expect`` keys.
    """
    answers: dict[str, Any] = {}
    detail: dict[str, Any] = {}
    moment = _Moment(case)
    for kind in EXPORTED_KINDS:
        if kind.asked_by(case):
            answer, why = PROTOCOL_QUESTIONS[kind].answer(case, moment)
            answers[kind.key] = answer
            if why is not None:
                detail[kind.key] = why
    return answers, detail


def play_answer(state: GameState, play: PlayQuestion) -> tuple[str, dict[str, str]]:
    """``legal``, ``illegal`` or ``unreadable`` for one play from the case's moment ``state``
    (played on), and why: the same answer verifying gives
    (:func:`oracle.verify.questions.check_play`), without its checks of the engine, for a case
    as a misreading changed it."""
    try:
        # The earlier moves are legal in a published case; a misreading that refuses one cannot
        # make the move either.
        for earlier in play.after:
            state.apply_text(earlier)
        move = state.parse_move(play.move)
        state.apply(move)
    except MoveSyntaxError as error:
        return unreadable_play(str(error))
    except IllegalMove as error:
        return illegal_play(error.rule, error.problem)
    return legal_play()


def expected_answers(report: CaseReport) -> tuple[dict[str, Any], dict[str, Any]]:
    """What another engine must answer: the answers verifying ``report``'s case gave (never
    worked out again), a turn cut to the facts the case asserts. They are copies, the caller's
    to change: the report's own answers are shared by everything that reads the report."""
    answers, detail = copy.deepcopy(report.answers), copy.deepcopy(report.explanations)
    case = report.case
    if case.turn is not None and "refused" not in answers["turn"]:
        facts = answers["turn"]
        asked = asserted_facts(case.turn)
        answers["turn"] = {key: facts[key] for key in asked}
        detail["turn"] = {key: value for key, value in facts.items() if key not in asked}
    return answers, detail
