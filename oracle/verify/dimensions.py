"""What each published case shows of the game, beyond its own answers: the formations a claim
pits against each other, the Tactic cards it plays, refuses or weighs in a proof, the combat
modes it claims under, the facts of a turn it pins. The site draws its grids and its Tactic
cards' table from these (:mod:`oracle.site.figures`), and the catalogue checks that they cover
what ``coverage.yaml`` asks (:mod:`oracle.coverage`): one reading of a case for both."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine import CombatMode, Formation, Tactic, card_name, formation_of
from oracle.verify.openings import plain_claims, plain_side
from oracle.verify.report import CaseReport


@dataclass(frozen=True)
class RankPair:
    """A claim between two complete sides of Clan cards, with no combat mode: the rank grid."""

    mine: Formation
    theirs: Formation
    report: CaseReport
    verdict: str


def rank_pairs(reports: Iterable[CaseReport]) -> list[RankPair]:
    """Every claim of the catalogue that pits one plain formation against another."""
    return [
        RankPair(formation_of(claim.mine), formation_of(claim.theirs), claim.report, claim.verdict)
        for claim in plain_claims(reports)
        if plain_side(claim.mine) and plain_side(claim.theirs)
    ]


TACTIC_USES = ("legal", "illegal", "proof")
"""What the catalogue shows of each Tactic card: a legal use, an illegal one, and its effect on
a proof (the card on the board where a claim is judged, or played in a turn that claims or
asserts the stones held)."""


def tactic_card_cases(reports: Iterable[CaseReport]) -> dict[str, dict[str, list[CaseReport]]]:
    """For each kind of Tactic card, the published cases that show each of its uses."""
    names = sorted({card_name(int(tactic)) for tactic in Tactic})
    found: dict[str, dict[str, list[CaseReport]]] = {
        name: {use: [] for use in TACTIC_USES} for name in names
    }
    for report in reports:
        if report.case.impossible is not None:
            continue  # a board the engine refuses shows no use of a card, only its refusal
        for name, use in sorted(_tactic_uses(report, names)):
            found[name][use].append(report)
    return found


def _tactic_uses(report: CaseReport, names: list[str]) -> set[tuple[str, str]]:
    """The (card, use) pairs one case shows: a move played or refused, a card in a turn, a card
    on the board of a claim."""
    return _move_uses(report, names) | _turn_uses(report, names) | _board_uses(report, names)


def _move_uses(report: CaseReport, names: list[str]) -> set[tuple[str, str]]:
    uses: set[tuple[str, str]] = set()
    for check in report.game_checks:
        if check.what.startswith("move "):
            move = check.what[len("move ") :].strip("'\"").lower()
            use = "legal" if check.actual == "legal" else "illegal"
            uses |= {(name, use) for name in names if move.startswith(name)}
    return uses


def _turn_uses(report: CaseReport, names: list[str]) -> set[tuple[str, str]]:
    """A card played in a turn is a legal use, and weighs in a proof when the turn claims or
    asserts the stones held."""
    turn = report.case.turn
    if turn is None:
        return set()
    moves = [text.lower() for text, _ in turn.moves]
    claims = turn.expect.held is not None or any(
        move.startswith("claim ") and move != "claim nothing" for move in moves
    )
    played = {name for move in moves for name in names if move.startswith(name)}
    return {(name, "legal") for name in played} | {(name, "proof") for name in played if claims}


def _board_uses(report: CaseReport, names: list[str]) -> set[tuple[str, str]]:
    """A card on the board (or in the discards) of a claim weighs in its proof."""
    if not report.checks:
        return set()
    position = report.case.position
    seen = {card_name(card) for card in position.discards}
    for stone in position.stones:
        seen |= {card_name(card) for side in stone.sides for card in side}
        seen |= {mode.value for mode in stone.modes}
    return {(name, "proof") for name in names if name in seen}


@dataclass(frozen=True)
class ModeClaim:
    """A claim of a complete side on a stone under a combat mode: ``early`` when the other side
    is not complete yet, ``tie`` when the engine's reason weighs a tie."""

    mode: CombatMode
    report: CaseReport
    verdict: str
    early: bool
    tie: bool


def mode_claims(reports: Iterable[CaseReport]) -> list[ModeClaim]:
    """Every claim of a complete side on a stone under a combat mode (a board the engine
    refuses claims nothing)."""
    found = []
    for report in reports:
        if report.case.impossible is not None:
            continue
        position = report.case.position
        for check in report.checks:
            stone = position.stone(check.verdict.stone)
            if len(stone.sides[position.viewer]) != stone.capacity:
                continue
            early = len(stone.sides[position.viewer.other]) < stone.capacity
            verdict = check.verdict
            tie = "tie" in verdict.explanation
            found += [
                ModeClaim(mode, report, verdict.verdict.label, early, tie) for mode in stone.modes
            ]
    return found


TURN_FACTS = {"winner": "winner", "ending": "ending", "held": "held", "next": "next_player"}
"""What a turn may pin of the game after it, by its key under ``expect:`` (and the field of the
case's model that holds it): who won, how it ended, the stones each holds, who plays next."""


def turn_facts(report: CaseReport) -> set[str]:
    """The keys of :data:`TURN_FACTS` the case's turn pins, and ``ending: E`` for the ending
    it pins."""
    turn = report.case.turn
    if turn is None:
        return set()
    facts = {key for key, field in TURN_FACTS.items() if getattr(turn.expect, field) is not None}
    if turn.expect.ending is not None:
        facts.add(f"ending: {turn.expect.ending}")
    return facts


__all__ = [
    "TACTIC_USES",
    "TURN_FACTS",
    "ModeClaim",
    "RankPair",
    "mode_claims",
    "rank_pairs",
    "tactic_card_cases",
    "turn_facts",
]
