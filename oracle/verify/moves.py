"""Making the moves a case names, and the checks that the engine agrees with itself while it
does: a move it carries out has no reason against it, every move it lists reads back from its
notation, its copy of a moment is the moment, and the game it leaves keeps its invariants.
Where the engine contradicts itself, the question cannot be answered (:class:`Unjudgeable`)."""

from __future__ import annotations

from engine import (
    GameState,
    IllegalMove,
    MoveSyntaxError,
    Player,
)
from oracle.verify.consistency import engine_problems


class Unjudgeable(Exception):
    """A question the engine cannot judge: at ``line``, because of ``problem``; ``detail``
    shows an editor how far it got (the turn so far, say)."""

    def __init__(self, line: int, problem: str, detail: tuple[str, ...] = ()) -> None:
        super().__init__(problem)
        self.line, self.problem, self.detail = line, problem, detail


def make_move(state: GameState, text: str, line: int, reaching: str = "") -> None:
    """Make a move a case names (in its turn, or before a play's own move), as the engine
    lists it; a move the engine refuses or contradicts itself on stops the question there.
    ``reaching`` says which question the move leads to."""
    try:
        move = state.parse_move(text)
        explained = state.why_illegal(move)
        state.apply(move)
    except MoveSyntaxError as error:
        raise Unjudgeable(line, str(error)) from None
    except IllegalMove as error:
        whose = " (it is their turn now)" if state.current_player is not Player.A else ""
        problem = f"move {text!r} is illegal{whose}: {error.problem} ({error.rule})"
        raise Unjudgeable(line, f"{reaching}{problem}") from None
    agrees(explained, None, line, f"move {text!r}")
    keeps_its_invariants(state, line, f"move {text!r}")


def refused_or_made(state: GameState, text: str, line: int) -> IllegalMove | None:
    """Make a move a case may pin the refusal of: the engine's refusal, where its reason
    against the move agrees, or None once the move is made and the game keeps its invariants.
    A move it cannot read or contradicts itself on stops the question."""
    try:
        move = state.parse_move(text)
    except MoveSyntaxError as error:
        raise Unjudgeable(line, str(error)) from None
    explained = state.why_illegal(move)
    try:
        state.apply(move)
    except IllegalMove as error:
        agrees(explained, error, line, f"move {text!r}")
        return error
    agrees(explained, None, line, f"move {text!r}")
    keeps_its_invariants(state, line, f"move {text!r}")
    return None


def agrees(
    explained: IllegalMove | None, refused: IllegalMove | None, line: int, what: str
) -> None:
    """The engine's list of legal moves and its explanation of a refusal must tell the same
    story: a move it carries out has no reason against it, and a move it refuses has one.
    Otherwise the engine contradicts itself, and the question cannot be answered."""
    if refused is None and explained is not None:
        raise Unjudgeable(
            line,
            f"the engine carries out {what} yet explains it away: {explained.problem}"
            f" ({explained.rule})",
        )
    if refused is not None and explained is None:
        raise Unjudgeable(
            line, f"the engine refuses {what} but finds no rule against it: {refused.problem}"
        )


_CACHES = ("_legal", "_provable")
"""The slots of a state that only keep answers already worked out, for speed."""


def copy_of(moment: GameState, line: int, where: str = "the case's moment") -> GameState:
    """A copy of a moment, for a question to play on. It must be the moment itself, fact for
    fact, or the question would be answered about another game."""
    copy = moment.clone()
    missing = object()
    slots = [name for kind in type(moment).__mro__ for name in getattr(kind, "__slots__", ())]
    for name in slots:
        if name not in _CACHES and getattr(copy, name, missing) != getattr(moment, name):
            raise Unjudgeable(line, f"the engine's copy of {where} differs in {name}")
    return copy


def reads_back(state: GameState, line: int, where: str) -> None:
    """Every move the engine lists must read back, from the words it writes for it, as the
    same move: the notation is how cases, records and other engines name moves."""
    for move in state.legal_moves():
        text = str(move)
        try:
            again = state.parse_move(text)
        except MoveSyntaxError as error:
            raise Unjudgeable(
                line, f"at {where} the engine lists {text!r} but cannot read it: {error}"
            ) from None
        if again != move or str(again) != text:
            raise Unjudgeable(
                line, f"at {where} the engine lists {text!r} but reads it as {again!r}"
            )


def keeps_its_invariants(state: GameState, line: int, after: str) -> None:
    """A move the engine carried out must leave a game it would accept as a board: each card in
    exactly one place, no side over capacity... Otherwise the engine itself is wrong, and the
    question cannot be answered."""
    problems = engine_problems(state)
    if problems:
        raise Unjudgeable(line, f"after {after} the game is broken: {'; '.join(problems)}")
    reads_back(state, line, f"the moment after {after}")
    copy_of(state, line, f"the moment after {after}")
