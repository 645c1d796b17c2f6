"""How far the engine is checked while it answers a case's questions. The answers are worked out
by one set of functions (:mod:`oracle.verify.questions`) under a judge: :data:`CHECKED` when a
case is verified (every move the case names must be carried out, and the engine must agree with
itself at every step: :mod:`oracle.verify.moves`), :data:`TRUSTED` when only the answers matter
(a case as a misreading changed it, a case read from a request): a refused move is then an
answer, as the conformance protocol gives it, and the engine is not checked."""

from __future__ import annotations

from engine import ClaimVerdict, GameState, IllegalMove, Move, MoveSyntaxError, claim_verdicts
from oracle.casefile.model import Case, PlayQuestion
from oracle.verify.moves import (
    Unjudgeable,
    agrees,
    copy_of,
    keeps_its_invariants,
    make_move,
    reads_back,
    refused_or_made,
)


class Judge:
    """Answers without checking the engine: a move the engine refuses raises its
    :class:`engine.IllegalMove` (or :class:`engine.MoveSyntaxError`) for the question to
    answer with."""

    checked = False

    def built(self, state: GameState, line: int) -> None:
        """The case's moment, just built for the question at ``line``."""

    def copy(self, state: GameState, line: int) -> GameState:
        """A copy of the moment ``state`` for the question at ``line`` to play on."""
        return state.clone()

    def move(self, state: GameState, text: str, line: int, reaching: str = "") -> None:
        """Make a move the case names (``reaching`` the question it leads to)."""
        state.apply_text(text)

    def last_move(self, state: GameState, text: str, line: int) -> None:
        """Make a turn's last move where the case may pin its refusal: one the engine refuses
        raises its :class:`engine.IllegalMove`, as the turn's answer."""
        state.apply_text(text)

    def explained(self, state: GameState, move: Move) -> IllegalMove | None:
        """The engine's reason against ``move``, where it is asked before the move is made."""
        return None

    def carried_out(
        self,
        state: GameState,
        explained: IllegalMove | None,
        refused: IllegalMove | None,
        line: int,
        what: str,
    ) -> None:
        """A move the engine carried out (``refused`` None) or refused, as its reason said."""

    def unreadable(self, play: PlayQuestion, error: MoveSyntaxError) -> None:
        """A play the engine cannot read: its answer is ``unreadable``."""

    def dealt(self, state: GameState, line: int) -> None:
        """A new game's state, just dealt."""


class CheckedJudge(Judge):
    """Answers while checking the engine: a move a case names that the engine refuses, cannot
    read or contradicts itself on stops the question (:class:`Unjudgeable`)."""

    checked = True

    def built(self, state: GameState, line: int) -> None:
        reads_back(state, line, "the case's moment")

    def copy(self, state: GameState, line: int) -> GameState:
        return copy_of(state, line)

    def move(self, state: GameState, text: str, line: int, reaching: str = "") -> None:
        make_move(state, text, line, reaching)

    def last_move(self, state: GameState, text: str, line: int) -> None:
        """A refusal is an answer here, once the engine's reason agrees with it; a move it
        cannot read, or contradicts itself on, stops the question as any move does."""
        refused = refused_or_made(state, text, line)
        if refused is not None:
            raise refused

    def explained(self, state: GameState, move: Move) -> IllegalMove | None:
        return state.why_illegal(move)

    def carried_out(
        self,
        state: GameState,
        explained: IllegalMove | None,
        refused: IllegalMove | None,
        line: int,
        what: str,
    ) -> None:
        agrees(explained, refused, line, what)
        if refused is None:
            keeps_its_invariants(state, line, what)

    def unreadable(self, play: PlayQuestion, error: MoveSyntaxError) -> None:
        """Only a play the case asks to be unreadable may be: any other is a move the case
        cannot be judged on."""
        if not play.unreadable:
            raise Unjudgeable(play.line, str(error)) from None

    def dealt(self, state: GameState, line: int) -> None:
        keeps_its_invariants(state, line, "the deal")


TRUSTED = Judge()
CHECKED = CheckedJudge()


class Moment:
    """The case's moment, built once when a question first needs it (and checked as ``judge``
    checks), and the verdicts on the stones it claims; each question plays on a copy."""

    def __init__(self, case: Case, judge: Judge) -> None:
        self.case, self.judge = case, judge
        self.state: GameState | None = None
        self.claimed: tuple[ClaimVerdict, ...] | None = None

    def copy(self, line: int) -> GameState:
        """A copy of the moment for the question at ``line``."""
        if self.state is None:
            self.state = self.case.game_state()
            self.judge.built(self.state, line)
        return self.judge.copy(self.state, line)

    def verdicts(self) -> tuple[ClaimVerdict, ...]:
        """The engine's verdict on each stone the case claims, in order."""
        if self.claimed is None:
            self.claimed = claim_verdicts(self.case.position, self.case.claimed_stones)
        return self.claimed
