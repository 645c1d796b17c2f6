"""The engine's answer to each question, in the one shape every stage reads: the conformance
protocol's (a case file's expectations as plain data). Verifying a case works each answer out
once, here, and keeps it in the case's report (:attr:`oracle.verify.report.CaseReport.answers`);
the editor's messages are worded from it, and the export and the misreadings' matrix reuse it
rather than replaying the case."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine import ClaimVerdict, GameState, Match, Player, card_name
from oracle.casefile.model import (
    Case,
    DealQuestion,
    MatchQuestion,
    PlayQuestion,
    TurnExpectation,
)
from oracle.casefile.vocabulary import PLAYER_WORDS
from oracle.verify.report import words


def card_names(cards: Sequence[int]) -> list[str]:
    """Cards by their names, in the order given."""
    return [card_name(card) for card in cards]


def claims_answer(verdicts: Sequence[ClaimVerdict]) -> tuple[dict[str, str], dict[str, Any]]:
    """Each claimed stone's verdict (``granted`` or ``refused``), and how the proof explains it:
    the reason, the explanation and the witness."""
    detail = {
        str(v.stone): {
            "reason": v.reason.value,
            "explanation": v.explanation,
            "witness": card_names(v.witness),
        }
        for v in verdicts
    }
    return {str(v.stone): v.verdict.label for v in verdicts}, detail


def legal_play() -> tuple[str, dict[str, str]]:
    """A move the engine carries out, and why (nothing to say)."""
    return "legal", {}


def illegal_play(rule: str, problem: str) -> tuple[str, dict[str, str]]:
    """A move the engine refuses, and why: the rule it breaks and the engine's words."""
    return "illegal", {"rule": rule, "problem": problem}


def unreadable_play(problem: str) -> tuple[str, dict[str, str]]:
    """A move the engine cannot read, and why."""
    return "unreadable", {"problem": problem}


def ending_words(state: GameState) -> str:
    """How the game ended, as a case writes it: a :class:`engine.Termination`'s words, or none."""
    return "none" if state.outcome is None else str(state.outcome)


def outcome_word(state: GameState) -> str:
    """Who won, as a case writes it: ``you``, ``them``, ``draw``, or ``nobody`` yet."""
    if not state.is_over:
        return "nobody"
    return "draw" if state.winner is None else PLAYER_WORDS[state.winner]


def turn_facts(state: GameState) -> dict[str, Any]:
    """What a turn decided, as plain data: the log, the winner, the stones, your hand..."""
    return {
        "log": [f"{PLAYER_WORDS[event.player]}: {event.text}" for event in state.events],
        "winner": outcome_word(state),
        "ending": ending_words(state),
        "held": {PLAYER_WORDS[player]: sorted(state.stones_held(player)) for player in Player},
        "hand": sorted(card_names(state.hands[Player.A])),
        "discards": sorted(card_names(state.discards)),
        "next": "nobody" if state.is_over else PLAYER_WORDS[state.current_player],
    }


def deal_facts(state: GameState) -> dict[str, Any]:
    """A new game's facts as dealt, in the keys of a case file's ``deal.expect``."""
    return {
        "hands": {PLAYER_WORDS[player]: len(state.hands[player]) for player in Player},
        "decks": {deck.value: len(cards) for deck, cards in state.decks.items()},
        "to_move": PLAYER_WORDS[state.current_player],
    }


def match_facts(match: Match) -> dict[str, Any]:
    """A match's facts once its rounds are scored, in the keys of a case file's ``match.expect``."""
    a, b = match.scores
    return {
        "points": {"you": a, "them": b},
        "next_starter": PLAYER_WORDS[match.next_starter],
        "winner": "draw" if match.winner is None else PLAYER_WORDS[match.winner],
    }


def pinned_answers(case: Case) -> dict[str, Any]:
    """What the case file pins, in the shape of the engine's answers (only what it pins: an
    open claim, a fact the turn does not assert, are left out). The answers a case's report
    keeps must agree with these wherever both say something; a test holds the export to it."""
    pinned: dict[str, Any] = {}
    claims = {str(c.stone): c.expect.label for c in case.claims if c.expect is not None}
    if claims:
        pinned["claims"] = claims
    plays = [pinned_play(play) for play in case.plays]
    if any(play is not None for play in plays):
        pinned["plays"] = [None if play is None else play["answer"] for play in plays]
    if case.turn is not None:
        pinned["turn"] = pinned_turn(case.turn.expect)
    if case.deal is not None:
        pinned["deal"] = pinned_deal(case.deal)
    if case.match is not None:
        pinned["match"] = pinned_match(case.match)
    return pinned


def pinned_play(play: PlayQuestion) -> dict[str, str] | None:
    """What a case pins of a play: its ``answer`` (``legal``, ``illegal`` or ``unreadable``),
    and the ``rule`` and the words (``because``) of a refusal where it names them; None for
    an open play."""
    if play.unreadable:
        answer = "unreadable"
    elif play.legal is None:
        return None
    else:
        answer = "legal" if play.legal else "illegal"
    pinned = {"answer": answer}
    if play.rule is not None:
        pinned["rule"] = play.rule
    if play.because is not None:
        pinned["because"] = play.because
    return pinned


def pinned_turn(expect: TurnExpectation) -> dict[str, Any]:
    """The facts a turn asserts, in the keys of :func:`turn_facts`, or its refusal."""
    if expect.refused is not None:
        return {"refused": words(expect.refused)}
    facts: dict[str, Any] = {
        "log": None if expect.log is None else list(expect.log),
        "winner": expect.winner,
        "ending": expect.ending,
        "held": None
        if expect.held is None
        else {PLAYER_WORDS[p]: sorted(s) for p, s in zip(Player, expect.held, strict=True)},
        "hand": None if expect.hand is None else sorted(card_names(expect.hand)),
        "discards": None if expect.discards is None else sorted(card_names(expect.discards)),
        "next": None if expect.next_player is None else PLAYER_WORDS[expect.next_player],
    }
    return {key: value for key, value in facts.items() if value is not None}


def pinned_deal(deal: DealQuestion) -> dict[str, Any]:
    """What a case pins of a deal, in the keys of :func:`deal_facts`."""
    facts: dict[str, Any] = {"to_move": PLAYER_WORDS[deal.first]}
    if deal.hand_sizes is not None:
        facts["hands"] = dict(zip(("you", "them"), deal.hand_sizes, strict=True))
    if deal.deck_sizes is not None:
        clan, tactics = deal.deck_sizes
        facts["decks"] = {"clan": clan, **({"tactics": tactics} if tactics else {})}
    return facts


def pinned_match(question: MatchQuestion) -> dict[str, Any]:
    """What a case pins of a match, in the keys of :func:`match_facts`."""
    facts: dict[str, Any] = {}
    if question.points is not None:
        facts["points"] = dict(zip(("you", "them"), question.points, strict=True))
    if question.next_starter is not None:
        facts["next_starter"] = PLAYER_WORDS[question.next_starter]
    if question.winner is not None:
        facts["winner"] = question.winner
    return facts
