"""Replay a case through the engine and compare its verdicts with the expected ones.

The plugin, the renderer and the CLI all verify through :func:`verify_case`, so they can never
disagree about what "verified" means.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, replace
from pathlib import Path

from engine import (
    ClaimVerdict,
    Game,
    IllegalMove,
    Match,
    MoveSyntaxError,
    Player,
    PositionError,
    Verdict,
    card_name,
    claim_verdicts,
)
from engine.game import GameState, TableError
from engine.moves import Deck
from oracle.casefile.model import (
    Case,
    Claim,
    DealQuestion,
    MatchQuestion,
    PlayQuestion,
    TurnQuestion,
)
from oracle.casefile.source import shown_path
from oracle.verify.consistency import engine_problems, verdict_problem


@dataclass(frozen=True)
class ClaimCheck:
    """One claim of a case: what the case expects and what the engine says."""

    claim: Claim
    verdict: ClaimVerdict

    @property
    def matches(self) -> bool:
        """Whether the engine agrees with the case (a draft's open claims always do): the
        verdict, and the reason in words where the case pins it."""
        return self.verdict_matches and self.reason_matches

    @property
    def verdict_matches(self) -> bool:
        return self.claim.expect is None or self.claim.expect is self.verdict.verdict

    @property
    def reason_matches(self) -> bool:
        return self.claim.because is None or self.claim.because == words(self.verdict.explanation)


@dataclass(frozen=True)
class GameCheck:
    """One question about the game (a move, a turn, a deal, a match): expected and actual."""

    what: str
    line: int
    expected: str | None
    actual: str
    label: str
    detail: tuple[str, ...] = ()
    question: str = ""
    """Which question of the case this check answers: ``play-2``, ``turn``, ``deal``, ``match``."""

    @property
    def matches(self) -> bool:
        """Whether the engine agrees with the case (an open question in a draft always does)."""
        return self.expected is None or self.expected == self.actual


@dataclass(frozen=True)
class CaseReport:
    """The result of replaying one case: each claim checked, or the engine's objection."""

    case: Case
    checks: tuple[ClaimCheck, ...]
    engine_error: str | None = None
    game_checks: tuple[GameCheck, ...] = ()
    engine_error_line: int | None = None

    @property
    def verified(self) -> bool:
        """The engine answered every question and agrees with every expected answer."""
        return (
            self.engine_error is None
            and all(check.matches for check in self.checks)
            and all(check.matches for check in self.game_checks)
        )

    @property
    def publishable(self) -> bool:
        """Verified and not a draft: fit for the published table."""
        return self.verified and not self.case.draft

    @property
    def verdict_label(self) -> str:
        """The engine's answer for the table: one word, or one part per question."""
        verdicts = {check.verdict.verdict for check in self.checks}
        parts = []
        if len(verdicts) == 1 and not self.game_checks:
            return verdicts.pop().label.capitalize()
        parts += [
            f"stone {check.verdict.stone}: {check.verdict.verdict.label}" for check in self.checks
        ]
        parts += [check.label for check in self.game_checks if check.label]
        text = "; ".join(parts)
        return text[:1].upper() + text[1:]

    def problems(self, root: Path | None = None) -> list[str]:
        """One located line per disagreement: the case, its file and line, expected and actual."""
        case = self.case
        path = shown_path(case.path, root)
        if self.engine_error is not None:
            return [
                f"{path}:{self.engine_error_line or case.line}: case {case.id!r}: the engine"
                f" cannot judge it: {self.engine_error}"
            ]
        lines = []
        for check in self.checks:
            if check.matches:
                continue
            where = f"{path}:{check.claim.line}: case {case.id!r}, stone {check.claim.stone}:"
            if not check.verdict_matches:
                expected = check.claim.expect.label if check.claim.expect else "?"
                lines.append(
                    f"{where} expected {expected}, the engine says {check.verdict.verdict.label}"
                )
            else:
                lines.append(
                    f"{where} {check.verdict.verdict.label} as expected, but the reason has"
                    f" changed: the case says {check.claim.because!r},"
                    f" the engine says {words(check.verdict.explanation)!r}"
                )
        for game_check in self.game_checks:
            if not game_check.matches and game_check.question == BOARD:
                lines.append(
                    f"{path}:{game_check.line}: case {case.id!r}, {board_problem(game_check)}"
                )
            elif not game_check.matches:
                lines.append(
                    f"{path}:{game_check.line}: case {case.id!r}, {game_check.what}:"
                    f" expected {game_check.expected}, the engine says {game_check.actual}"
                )
        return lines

    def explained_problems(self, root: Path | None = None) -> list[str]:
        """:meth:`problems`, each followed by the engine's reason and witness, indented."""
        lines = []
        problems = self.problems(root)
        for problem, check in zip(problems, self.drifted, strict=False):
            lines.append(problem)
            lines += describe_verdict(check.verdict)[1:]
        drifted_games = [check for check in self.game_checks if not check.matches]
        for problem, game_check in zip(problems[len(self.drifted) :], drifted_games, strict=False):
            lines.append(problem)
            lines += [f"  {line}" for line in game_check.detail]
        return lines or problems

    def on_question(self, question: str) -> CaseReport:
        """This report cut to one question of :func:`questions_of`. When the engine could not
        judge the case, the questions answered before the line it stopped at keep their
        answers; the one it stopped at and those after it (or all, when it names no line) carry
        its objection."""
        lines = questions_of(self.case)
        error = self.engine_error
        if error is not None and self.engine_error_line is not None:
            later = [line for line in lines.values() if line > lines[question]]
            stopped_before = min(later, default=None)
            if stopped_before is not None and self.engine_error_line >= stopped_before:
                error = None  # the engine stopped at a later question
        return replace(
            self,
            checks=tuple(c for c in self.checks if f"stone-{c.claim.stone}" == question),
            game_checks=tuple(c for c in self.game_checks if c.question == question),
            engine_error=error,
        )

    @property
    def unassigned(self) -> tuple[str, ...]:
        """Checks no question of the case owns (a new kind of check not yet named): a test
        item per question would never judge them."""
        names = questions_of(self.case)
        return tuple(
            check.what for check in self.game_checks if check.question not in names
        ) + tuple(
            f"stone {check.claim.stone}"
            for check in self.checks
            if f"stone-{check.claim.stone}" not in names
        )

    @property
    def drifted(self) -> tuple[ClaimCheck, ...]:
        """The claims where the engine disagrees with the case."""
        return tuple(check for check in self.checks if not check.matches)


class _Unjudgeable(Exception):
    def __init__(self, line: int, problem: str) -> None:
        super().__init__(problem)
        self.line, self.problem = line, problem


def questions_of(case: Case) -> dict[str, int]:
    """The case's questions in order, as its test items name them, each with its line:
    ``stone-3`` for each claimed stone, ``play-1``... for each move judged on its own, ``turn``,
    ``deal`` and ``match``, and ``board`` for a board the engine must refuse."""
    found = {f"stone-{claim.stone}": claim.line for claim in case.claims}
    found |= {f"play-{number}": play.line for number, play in enumerate(case.plays, 1)}
    for name, asked in (("turn", case.turn), ("deal", case.deal), ("match", case.match)):
        if asked is not None:
            found[name] = asked.line
    if case.impossible is not None:
        found[BOARD] = case.impossible.line
    return found


BOARD = "board"
"""The question of a case whose board the engine must refuse (``impossible:``)."""


def _check_board(case: Case) -> GameCheck:
    """Whether the engine refused the board of an ``impossible`` case with the message pinned
    (spaces and line breaks aside). Its problem line is worded by :func:`board_problem`."""
    board = case.impossible
    assert board is not None
    actual = "accepted" if board.refusal is None else f"refused: {words(board.refusal)}"
    expected = None if board.expected is None else f"refused: {board.expected}"
    if board.refusal is None:
        label = "Board accepted"
        detail: tuple[str, ...] = ("the engine builds this board and its game without objection",)
    else:
        label = f"Board refused: {words(board.refusal)}"
        detail = (f"refused: {words(board.refusal)}",)
        if board.refusal_line is not None:
            detail += (f"the engine objects to line {board.refusal_line} of the case file",)
    return GameCheck("the board", board.line, expected, actual, label, detail, BOARD)


def board_problem(check: GameCheck) -> str:
    """What went wrong with an ``impossible`` case, after its ``path:line: case 'id', ``."""
    expected = (check.expected or "").removeprefix("refused: ")
    found = (
        "but it accepted it"
        if check.actual == "accepted"
        else f'but it refused it with "{check.actual.removeprefix("refused: ")}"'
    )
    return f'impossible: expected the engine to refuse this board with "{expected}", {found}'


def verify_case(case: Case) -> CaseReport:
    """Replay ``case`` through the engine: its claims, moves, turn, deal and match, or the
    refusal of its board."""
    if case.impossible is not None:  # the loader built the board, and kept what the engine said
        return CaseReport(case, (), None, (_check_board(case),))
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
            _reads_back(moment, first, "the case's moment")
        for number, play in enumerate(case.plays, 1):
            assert moment is not None
            check = _check_play(_copy_of(moment, play.line), play)
            game_checks.append(replace(check, question=f"play-{number}"))
        if case.turn is not None:
            assert moment is not None
            turn_checks = _check_turn(_copy_of(moment, case.turn.line), case.turn)
            game_checks += [replace(c, question="turn") for c in turn_checks]
        if case.deal is not None:
            game_checks += [replace(c, question="deal") for c in _check_deal(case, case.deal)]
        if case.match is not None:
            game_checks += [replace(c, question="match") for c in _check_match(case.match)]
    except _Unjudgeable as error:  # the answers found so far are kept, for `schotten-oracle ask`
        return CaseReport(case, checks, error.problem, tuple(game_checks), error.line)
    except (PositionError, TableError) as error:
        return CaseReport(case, checks, str(error), tuple(game_checks))
    return CaseReport(case, checks, None, tuple(game_checks))


WHO = {Player.A: "you", Player.B: "them"}


def _check_play(state: GameState, play: PlayQuestion) -> GameCheck:
    what = play.label
    for text in play.after:
        _make_move(state, text, play.line, f"cannot reach {what}: ")
    earlier = f" (after {', '.join(play.after)})" if play.after else ""
    expected = None if play.legal is None else ("legal" if play.legal else "illegal")
    if play.unreadable:
        expected = "unreadable" + ("" if play.because is None else f": {play.because}")
    try:
        move = state.parse_move(play.move)
    except MoveSyntaxError as error:
        if not play.unreadable:
            raise _Unjudgeable(play.line, str(error)) from None
        actual = "unreadable" + ("" if play.because is None else f": {words(str(error))}")
        label = f"{play.move!r}{earlier}: unreadable"
        return GameCheck(what, play.line, expected, actual, label, (f"unreadable: {error}",))
    explained = state.why_illegal(move)
    try:
        state.apply(move)
    except IllegalMove as error:
        _agrees(explained, error, play.line, what)
        detail = (f"refused: {error.problem} ({error.rule})",)
        label = f"{move}{earlier}: illegal ({error.rule})"
        actual = "illegal"
        if play.legal is False and (play.rule is not None or play.because is not None):
            expected = "illegal"
            if play.rule is not None:
                expected += f" under {play.rule}"
                actual += f" under {error.rule}"
            if play.because is not None:
                expected += f": {play.because}"
                actual += f": {words(error.problem)}"
        return GameCheck(what, play.line, expected, actual, label, detail)
    _agrees(explained, None, play.line, what)
    _keeps_its_invariants(state, play.line, what)
    return GameCheck(what, play.line, expected, "legal", f"{move}{earlier}: legal")


def _make_move(state: GameState, text: str, line: int, reaching: str = "") -> None:
    """Make a move a case names (in its turn, or before a play's own move), as the engine
    lists it; a move the engine refuses or contradicts itself on stops the question there.
    ``reaching`` says which question the move leads to."""
    try:
        move = state.parse_move(text)
        explained = state.why_illegal(move)
        state.apply(move)
    except MoveSyntaxError as error:
        raise _Unjudgeable(line, str(error)) from None
    except IllegalMove as error:
        whose = " (it is their turn now)" if state.current_player is not Player.A else ""
        problem = f"move {text!r} is illegal{whose}: {error.problem} ({error.rule})"
        raise _Unjudgeable(line, f"{reaching}{problem}") from None
    _agrees(explained, None, line, f"move {text!r}")
    _keeps_its_invariants(state, line, f"move {text!r}")


def _agrees(
    explained: IllegalMove | None, refused: IllegalMove | None, line: int, what: str
) -> None:
    """The engine's list of legal moves and its explanation of a refusal must tell the same
    story: a move it carries out has no reason against it, and a move it refuses has one.
    Otherwise the engine contradicts itself, and the question cannot be answered."""
    if refused is None and explained is not None:
        raise _Unjudgeable(
            line,
            f"the engine carries out {what} yet explains it away: {explained.problem}"
            f" ({explained.rule})",
        )
    if refused is not None and explained is None:
        raise _Unjudgeable(
            line, f"the engine refuses {what} but finds no rule against it: {refused.problem}"
        )


_CACHES = ("_legal", "_provable")
"""The slots of a state that only keep answers already worked out, for speed."""


def _copy_of(moment: GameState, line: int, where: str = "the case's moment") -> GameState:
    """A copy of a moment, for a question to play on. It must be the moment itself, fact for
    fact, or the question would be answered about another game."""
    copy = moment.clone()
    missing = object()
    slots = [name for kind in type(moment).__mro__ for name in getattr(kind, "__slots__", ())]
    for name in slots:
        if name not in _CACHES and getattr(copy, name, missing) != getattr(moment, name):
            raise _Unjudgeable(line, f"the engine's copy of {where} differs in {name}")
    return copy


def _reads_back(state: GameState, line: int, where: str) -> None:
    """Every move the engine lists must read back, from the words it writes for it, as the
    same move: the notation is how cases, records and other engines name moves."""
    for move in state.legal_moves():
        text = str(move)
        try:
            again = state.parse_move(text)
        except MoveSyntaxError as error:
            raise _Unjudgeable(
                line, f"at {where} the engine lists {text!r} but cannot read it: {error}"
            ) from None
        if again != move or str(again) != text:
            raise _Unjudgeable(
                line, f"at {where} the engine lists {text!r} but reads it as {again!r}"
            )


def _keeps_its_invariants(state: GameState, line: int, after: str) -> None:
    """A move the engine carried out must leave a game it would accept as a board: each card in
    exactly one place, no side over capacity... Otherwise the engine itself is wrong, and the
    question cannot be answered."""
    problems = engine_problems(state)
    if problems:
        raise _Unjudgeable(line, f"after {after} the game is broken: {'; '.join(problems)}")
    _reads_back(state, line, f"the moment after {after}")
    _copy_of(state, line, f"the moment after {after}")


def _check_turn(state: GameState, turn: TurnQuestion) -> list[GameCheck]:
    start = len(state.events)
    before = list(state.events)
    for text, line in turn.moves:
        _make_move(state, text, line)
    log = [f"{WHO[event.player]}: {event.text}" for event in before + state.events[start:]]
    expect, lines, checks = turn.expect, turn.expect_lines, []
    outcome = _outcome(state)
    ending = {"you": "you win", "them": "they win"}.get(outcome)
    if ending:
        ending = f"{ending} ({state.outcome})"
    elif state.outcome is not None:
        ending = str(state.outcome)
    summary = " → ".join(log + ([ending] if ending else []))
    detail = (f"log: {'; '.join(log)}", f"outcome: {outcome}")
    checks.append(GameCheck("the turn", turn.line, None, summary, summary, detail))
    expected_log = "; ".join(expect.log) if expect.log is not None else None
    diff = tuple(
        line.rstrip()
        for line in difflib.ndiff(list(expect.log or ()), log)
        if not line.startswith("?")
    )
    checks.append(
        GameCheck(
            "the log",
            lines.get("log", turn.line),
            expected_log,
            "; ".join(log),
            "",
            ("log, expected (-) against the engine's (+):", *diff),
        )
    )
    checks.append(
        GameCheck("the winner", lines.get("winner", turn.line), expect.winner, outcome, "", detail)
    )
    checks.append(
        GameCheck(
            "how the game ended",
            lines.get("ending", turn.line),
            expect.ending,
            ending_words(state),
            "",
            detail,
        )
    )
    held = tuple(tuple(sorted(state.stones_held(player))) for player in Player)
    checks.append(
        GameCheck(
            "the stones held",
            lines.get("held", turn.line),
            None
            if expect.held is None
            else _held_text(tuple(tuple(sorted(stones)) for stones in expect.held)),
            _held_text(held),
            "",
            detail,
        )
    )
    checks.append(
        GameCheck(
            "your hand",
            lines.get("hand", turn.line),
            None if expect.hand is None else _cards_text(expect.hand),
            _cards_text(state.hands[Player.A]),
            "",
            detail,
        )
    )
    if state.variant.has_tactics or expect.discards is not None:
        checks.append(
            GameCheck(
                "the discards",
                lines.get("discards", turn.line),
                None if expect.discards is None else _cards_text(expect.discards),
                _cards_text(state.discards),
                "",
                detail,
            )
        )
    checks.append(
        GameCheck(
            "whose turn it is",
            lines.get("next", turn.line),
            None if expect.next_player is None else WHO[expect.next_player],
            "nobody (the game is over)" if state.is_over else WHO[state.current_player],
            "",
            detail,
        )
    )
    return checks


def ending_words(state: GameState) -> str:
    """How the game ended, as a case writes it: a :class:`engine.Termination`'s words, or none."""
    return "none" if state.outcome is None else str(state.outcome)


def _outcome(state: GameState) -> str:
    if not state.is_over:
        return "nobody"
    return "draw" if state.winner is None else WHO[state.winner]


def _held_text(held: tuple[tuple[int, ...], ...]) -> str:
    return "; ".join(
        f"{WHO[player]}: {', '.join(map(str, stones)) or 'none'}"
        for player, stones in zip(Player, held, strict=True)
    )


def _cards_text(cards: tuple[int, ...] | list[int]) -> str:
    return ", ".join(sorted(card_name(card) for card in cards)) or "none"


def _check_deal(case: Case, deal: DealQuestion) -> list[GameCheck]:
    game = Game(case.position.variant, False, deal.first, deal.seed)
    state = game.new_initial_state()
    _keeps_its_invariants(state, deal.line, "the deal")
    hands = (len(state.hands[Player.A]), len(state.hands[Player.B]))
    decks = (len(state.decks[Deck.CLAN]), len(state.decks.get(Deck.TACTICS, ())))
    actual = (
        f"hands {hands[0]} and {hands[1]}; decks {decks[0]} and {decks[1]};"
        f" {WHO[state.current_player]} to move"
    )
    label = f"dealt {hands[0]} and {hands[1]} cards, {WHO[state.current_player]} to move"
    expected_hands = deal.hand_sizes or hands
    expected_decks = deal.deck_sizes or decks
    expected = (
        f"hands {expected_hands[0]} and {expected_hands[1]};"
        f" decks {expected_decks[0]} and {expected_decks[1]}; {WHO[deal.first]} to move"
    )
    if deal.hand is not None:  # the shuffle itself, pinned
        expected += f"; your hand {_cards_text(deal.hand)}"
        actual += f"; your hand {_cards_text(state.hands[Player.A])}"
        label += f"; your hand {_cards_text(state.hands[Player.A])}"
    return [GameCheck("the deal", deal.line, expected, actual, label)]


def _check_match(question: MatchQuestion) -> list[GameCheck]:
    match = Match(len(question.rounds), first_player=question.rounds[0].starter)
    for played in question.rounds:
        starter, number = match.next_starter, len(match.results) + 1
        try:
            match.record_result(played.starter, played.winner, played.stones)
        except ValueError:
            raise _Unjudgeable(
                question.line,
                f"round {number} is started by {WHO[starter]}, not {WHO[played.starter]}: the"
                " winner of a round starts the next (after a draw, the player who did not start"
                " it)",
            ) from None
    a, b = match.scores
    winner = "a draw" if match.winner is None else f"{WHO[match.winner]} win"
    actual = [f"points {a} to {b}", winner, f"{WHO[match.next_starter]} start next"]
    expected = list(actual)
    if question.points is not None:
        expected[0] = f"points {question.points[0]} to {question.points[1]}"
    if question.winner is not None:
        expected[1] = "a draw" if question.winner == "draw" else f"{question.winner} win"
    if question.next_starter is not None:
        expected[2] = f"{WHO[question.next_starter]} start next"
    label = "; ".join(actual)
    return [GameCheck("the match", question.line, "; ".join(expected), label, label)]


def words(text: str) -> str:
    """``text`` with its spaces as a case pins it: single, none at either end."""
    return " ".join(text.split())


def describe_verdict(verdict: ClaimVerdict) -> list[str]:
    """The engine's verdict on one stone as indented lines: verdict, reason, witness."""
    lines = [
        f"stone {verdict.stone}: {verdict.verdict.label} ({verdict.reason.value})",
        f"  reason: {verdict.explanation}",
    ]
    if verdict.witness:
        lines.append(f"  witness: {', '.join(card_name(card) for card in verdict.witness)}")
    return lines


__all__ = [
    "CaseReport",
    "ClaimCheck",
    "GameCheck",
    "Verdict",
    "describe_verdict",
    "verify_case",
]
