"""The engine's answers for the site's two interactive pages, as JSON in and JSON out.

The pages run this module, with ``engine/`` and the loader, unchanged in the reader's browser
(Pyodide). Nothing here decides a rule: a board typed on the "Ask the engine" page becomes the
text of a case file, which the loader reads and :func:`~oracle.verify.replay.verify_case` judges
exactly as ``schotten-oracle ask`` and the case pages do; a game on the "Play a game" page is a
:class:`~engine.GameState` whose opponent sees only its own view. The engine's worker starts
Python once and gives each page it serves a :class:`Session` of its own (from
:func:`session_maker`), which holds what the page needs (the rules index, its game); every call
takes and returns plain data, so the page's script needs no knowledge of the engine's types.
"""

from __future__ import annotations

import gc
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine import CARDS, Claim, Game, IllegalMove, MoveSyntaxError, Player, Tactic, card_name
from oracle.browser.forms import (
    ANSWERED_KEYS,
    Answered,
    PageError,
    WrittenCase,
    answered_document,
    field_label,
    form_case_text,
    form_of,
    written_case,
)
from oracle.browser.games import (
    GameSession,
    card_rule_texts,
    game_view,
    moment_view,
    opponent_moves,
)
from oracle.casefile.errors import CaseError
from oracle.casefile.loader import (
    case_of_document,
    checked_document,
    load_case_text,
    read_case_document,
)
from oracle.casefile.model import Case, RulesIndex
from oracle.casefile.rules import load_rules_index
from oracle.casefile.source import LocatedDocument
from oracle.site.boards import board_html, card_html
from oracle.site.casepages import answers
from oracle.verify.replay import verify_case
from oracle.verify.report import CaseReport, answers_digest

NO_CLAIM = "tick at least one stone to claim"
"""What a board with no claim ticked is told: there is no question to answer yet."""

CASE_PATH = Path("asked") / "your-case.yaml"
"""Where a case asked on the page is said to come from, in messages (it is never written)."""


def session_maker(rules_index: str) -> Callable[[], Session]:
    """Sessions over one engine, one for each page the engine serves: the rules index the
    catalogue pins (so a pasted case's rule ids are checked) is read once, for all of them."""
    rules = load_rules_index(Path(rules_index))
    return lambda: Session(rules)


class Session:
    """What one page holds between calls: the rules index pasted cases are checked against,
    and the game being played."""

    def __init__(self, rules: RulesIndex | None = None) -> None:
        self.rules = rules
        self.card_rules = card_rule_texts(rules)  # each Tactic card's rule, for its hints
        self.games: dict[int, GameSession] = {}
        self.warm_up_texts: dict[int, str] = {}  # each warm-up board's case file, once asked
        self.calls: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
            "cards": card_names,
            "ask_text": self.ask_text,
            "ask_form": self.ask_form,
            "new_game": self.new_game,
            "game_move": self.game_move,
            "game_at": self.game_at,
        }

    def call(self, name: str, request_json: str) -> str:
        """The page's one entry point: run ``name`` on the JSON request, answer in JSON."""
        if name not in self.calls:
            raise PageError(f"no call {name!r}")
        request = json.loads(request_json)
        if not isinstance(request, dict):
            raise PageError("a request is a JSON object")
        return json.dumps(self.calls[name](request))

    def load(self, text: str) -> Case:
        """A case from its text, read as any case file is."""
        return load_case_text(text, CASE_PATH, self.rules)

    # -------------------------------------------------------------------------- asking

    def ask_text(self, request: dict[str, Any]) -> dict[str, Any]:
        """Judge a pasted case file, exactly as ``schotten-oracle ask`` would."""
        text = str(request.get("text", ""))
        try:
            case = self.load(text)
        except CaseError as error:
            return _error(error)
        if case.impossible is not None:
            return _refused_board(case, text)
        report = verify_case(case)
        return {"ok": True, "form": form_of(case), "report": _report(report), "case_text": text}

    def ask_form(self, request: dict[str, Any]) -> dict[str, Any]:
        """Judge the claims ticked on a board set up on the page, and write the board as a
        finished case file: the engine's verdicts and reasons pinned, the rules they relied on
        named, the id made from the reader's situation (a draft while that or why is unwritten).
        The text comes back with every answer, so the page's two views never disagree."""
        form = request.get("form", {})
        board = written_case(form)
        text, fields = board.text, board.fields
        if "claims:" not in text.splitlines():
            return {
                "ok": False,
                "line": None,
                "field": "claims",
                "problem": NO_CLAIM,
                "message": NO_CLAIM,
                "case_text": text,
            }
        try:
            document = read_case_document(text, CASE_PATH)
            case = case_of_document(document, text, self.rules)
        except CaseError as error:
            return {**_error(error, fields), "case_text": text}
        answered = engine_answers(verify_case(case))
        finished = written_case(form, answered)
        try:
            checked = verify_case(self.finished_case(document, board, finished, answered))
        except CaseError as error:
            return {**_error(error, finished.fields), "case_text": finished.text}
        if not checked.verified:  # pragma: no cover - the engine would disagree with itself
            raise PageError("the case file written for this board does not agree with the engine")
        return {"ok": True, "report": _report(checked), "case_text": finished.text}

    def finished_case(
        self,
        document: LocatedDocument,
        board: WrittenCase,
        finished: WrittenCase,
        answered: Answered,
    ) -> Case:
        """The case ``finished`` holds, the board's file with the engine's answers written in:
        not read again, but made from the board's document with the answers put in
        (:func:`~oracle.browser.forms.answered_document`), and checked by the loader as any
        case read (its board, its claims and their reasons, its rules; its schema where the
        answers went, the rest having passed with the board's)."""
        answered_in = answered_document(document, board, finished, answered)
        if answered_in is None:
            return self.load(finished.text)
        checked = checked_document(answered_in, ANSWERED_KEYS)
        return case_of_document(checked, finished.text, self.rules)

    def warm_up(self, step: int) -> dict[str, Any]:
        """One claim on a board of the page's own (:data:`WARM_UP_BOARDS`), asked from the
        board and then typed, in turn: run by the engine's worker while no page asks anything,
        so that the WebAssembly code a claim runs is compiled to its faster tier before the
        reader's first claim (the first dozen claims after a start take 7-40 ms, the next 3-5)."""
        board = step % len(WARM_UP_BOARDS)
        if step // len(WARM_UP_BOARDS) % 2 and board in self.warm_up_texts:
            return self.ask_text({"text": self.warm_up_texts[board]})
        asked = self.ask_form({"form": WARM_UP_BOARDS[board]})
        self.warm_up_texts[board] = asked["case_text"]
        return asked

    # -------------------------------------------------------------------------- playing

    def new_game(self, request: dict[str, Any]) -> dict[str, Any]:
        """Deal a game against the computer; the computer moves first when it starts."""
        variant = str(request.get("variant", "base"))
        if variant not in ("base", "tactics"):
            raise PageError(f"no variant {variant!r}")
        seed = int(request.get("seed", 0))
        you_first = bool(request.get("you_first", True))
        game = Game.named(
            variant,
            expert=bool(request.get("expert", False)),
            first_player=Player.A if you_first else Player.B,
            seed=seed,
        )
        number = max(self.games, default=0) + 1
        session = GameSession(
            game,
            game.new_initial_state(),
            Player.A,
            random.Random(f"opponent {seed}"),
            card_rules=self.card_rules,
        )
        self.games = {number: session}
        opponent_moves(session)
        return game_view(number, session)

    def game_move(self, request: dict[str, Any]) -> dict[str, Any]:
        """Play the reader's move (in the notation, or the stones of a claim), then the
        computer's."""
        number = int(request.get("game", 0))
        session = self.games.get(number)
        if session is None:
            raise PageError(f"no game {number}")
        state = session.state
        if "at" in request and int(request["at"]) != len(state.moves):
            # Sent for a moment of the game already past (a double click, say): not again.
            return game_view(number, session, notice="that move was already made")
        if state.is_over or state.current_player is not session.you:
            return {**game_view(number, session), "ok": False, "problem": "it is not your turn"}
        try:
            if "claim" in request:
                state.apply(Claim(tuple(int(stone) for stone in request["claim"])))
            else:
                state.apply_text(str(request.get("move", "")))
        except IllegalMove as error:
            reason = f"{error.problem} (the rule: {error.rule})"
            problem = f"{error.move}: {reason}"
            return {**game_view(number, session), "ok": False, "problem": problem}
        except MoveSyntaxError as error:
            return {**game_view(number, session), "ok": False, "problem": str(error)}
        opponent_moves(session)
        return game_view(number, session)

    def game_at(self, request: dict[str, Any]) -> dict[str, Any]:
        """The game as it stood after a number of moves, for stepping back through it."""
        number = int(request.get("game", 0))
        session = self.games.get(number)
        if session is None:
            raise PageError(f"no game {number}")
        return moment_view(session, int(request.get("step", 0)))


def _warm_up_board(
    variant: str, hand: str, stones: dict[int, tuple[str, str, str, list[str]]]
) -> dict[str, Any]:
    """A board form as the Ask page sends it: ``stones`` maps a stone's number to its cards
    (yours, theirs), who completed it first and its combat modes; each of them is claimed."""
    form_stones: list[dict[str, Any]] = []
    for number in range(1, 10):
        you, them, first, modes = stones.get(number, ("", "", "", []))
        claim = number in stones
        form_stones.append(
            {"you": you, "them": them, "completed_first": first, "modes": modes}
            | {"claimed_by": "", "claim": claim}
        )
    return {
        "situation": "",
        "why": "",
        "variant": variant,
        "stones": form_stones,
        "hand": hand,
        "discards": "",
        "jokers_played": [],
    }


WARM_UP_BOARDS = (
    _warm_up_board(
        "base",
        "pink 1, pink 2, purple 8, green 6, yellow 5",
        {
            1: ("red 7, red 8, red 9", "blue 2, green 3", "", []),
            4: ("red 4, blue 5, green 9", "yellow 4, purple 5, pink 9", "them", []),
            6: ("yellow 1, blue 1, green 1", "", "", []),
        },
    ),
    _warm_up_board(
        "tactics",
        "green 1, purple 2, blue 9, red 3, yellow 8",
        {
            3: ("yellow 2, green 4, pink 9", "red 5, blue 6", "", []),
            5: ("red 8, blue 8, green 8, yellow 7", "purple 6, pink 6", "", ["mud fight"]),
        },
    ),
)
"""The boards the engine's worker asks about while it waits for the reader's first question
(:meth:`Session.warm_up`): the game of each variant, claims proved and refused, Mud Fight."""


def warm_up(make: Callable[[], Session]) -> None:
    """Ask each of :data:`WARM_UP_BOARDS` from the board and typed, on a session of its own,
    dropped after, then put every object made so far out of the garbage collector's reach. The
    site's snapshot is made after this, so that in the memory a browser restores, what Python
    does once at a start's first claim is done (the case schema's check compiled: 130 ms in
    CPython, several times that in the browser), and a full collection during a claim no longer
    walks the engine's and the loader's 26,000 objects (10-16 ms in CPython)."""
    session = make()
    for step in range(2 * len(WARM_UP_BOARDS)):
        session.warm_up(step)
    del session
    gc.collect()
    gc.freeze()


def engine_answers(report: CaseReport) -> Answered:
    """What the engine answered about a board, to be written into its case file."""
    verdicts = [check.verdict for check in report.checks]
    return Answered(
        expects={v.stone: (v.verdict.label, v.explanation) for v in verdicts},
        rules=tuple(dict.fromkeys(rule for v in verdicts for rule in v.rules)),
    )


def card_names(request: dict[str, Any]) -> dict[str, Any]:
    """Every card's name for the page's palette: the Clan cards, then the Tactic cards."""
    return {
        "clan": [{"name": card_name(card), "html": card_html(card)} for card in CARDS],
        "tactics": [{"name": card_name(int(t)), "html": card_html(int(t))} for t in Tactic],
    }


def _error(error: CaseError, fields: dict[int, str] | None = None) -> dict[str, Any]:
    found: dict[str, Any] = {"ok": False, "line": error.line, "problem": error.problem}
    found["message"] = f"line {error.line}: {error.problem}" if error.line else error.problem
    if fields is not None and error.line in fields:
        found["field"] = fields[error.line]
        found["message"] = f"{field_label(fields[error.line])}: {error.problem}"
    return found


def _report(report: CaseReport) -> dict[str, Any]:
    """What a case page shows of the engine's answer, as data."""
    case = report.case
    witness = frozenset(card for check in report.checks for card in check.verdict.witness)
    return {
        "id": case.id,
        "answers_digest": answers_digest(report),
        "situation": case.situation,
        "why": case.why,
        "variant": case.position.variant.name,
        "has_table": case.table is not None,
        "asks_claims_only": case.asks_about_claims_only,
        "board": board_html(
            case.position,
            claimed=case.claimed_stones,
            witness=witness,
            their_hand=case.table.their_hand if case.table else None,
        ),
        "verdicts": [
            {
                "stone": check.verdict.stone,
                "verdict": check.verdict.verdict.label,
                "reason": check.verdict.reason.value,
                "explanation": check.verdict.explanation,
                "witness": [card_name(card) for card in check.verdict.witness],
                "expected": check.claim.expect.label if check.claim.expect else None,
            }
            for check in report.checks
        ],
        "answers": [
            {"title": answer.title, "lines": list(answer.lines)} for answer in answers(report)
        ],
        "verdict_label": report.verdict_label,
        "verified": report.verified,
        "problems": report.explained_problems(case.path.parent) if not report.verified else [],
    }


def _refused_board(case: Case, text: str) -> dict[str, Any]:
    """A pasted case whose board the engine must refuse (``impossible:``): the page judges
    claims on boards it can draw, so it shows the refusal as it shows any board's, at its line,
    and whether it is the one the case pins."""
    board = case.impossible
    assert board is not None
    if board.refusal is None:
        line = board.line
        problem = (
            "the engine accepts this board, though the case says it must refuse it;"
            " remove impossible: to ask about the board"
        )
    else:
        line = board.refusal_line or board.line
        problem = f"the engine refuses this board: {board.refusal}"
        if board.expected is not None and verify_case(case).verified:
            problem += " (as the case expects)"
        elif board.expected is not None:
            problem += f" (the case expects: {board.expected})"
    return {
        "ok": False,
        "line": line,
        "problem": problem,
        "message": f"line {line}: {problem}",
        "case_text": text,
    }


__all__ = [
    "CASE_PATH",
    "NO_CLAIM",
    "PageError",
    "Session",
    "card_names",
    "field_label",
    "form_case_text",
]
