"""The engine's answers for the site's two interactive pages, as JSON in and JSON out.

The pages run this module, with ``engine/`` and the loader, unchanged in the reader's browser
(Pyodide). Nothing here decides a rule: a board typed on the "Ask the engine" page becomes the
text of a case file, which the loader reads and :func:`~oracle.verify.replay.verify_case` judges
exactly as ``schotten-oracle ask`` and the case pages do; a game on the "Play a game" page is a
:class:`~engine.GameState` whose opponent sees only its own view. Every function takes and
returns plain data, so the page's script needs no knowledge of the engine's types.
"""

from __future__ import annotations

import json
import random
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import (
    Claim,
    Game,
    GameState,
    IllegalMove,
    MoveSyntaxError,
    Play,
    Player,
    card_name,
    parse_card,
    record_text,
    result_text,
)
from engine.cards import CARDS, CardError
from engine.opponent import choose_move
from engine.position import STONES
from engine.tactics import Tactic
from oracle.casefile.loader import CaseError, load_case, load_rules_index
from oracle.casefile.model import Case, RulesIndex
from oracle.casefile.writer import _quoted
from oracle.site.boards import board_html, card_html
from oracle.site.casepages import answers
from oracle.verify.replay import CaseReport, verify_case

WHO = {Player.A: "you", Player.B: "them"}
PLAYERS = {"you": Player.A, "them": Player.B}
CASE_NAME = "your-case.yaml"
FORM_SITUATION = "A board set up on the Ask the engine page"
FORM_WHY = "Say why the engine must answer as it does"


class PageError(ValueError):
    """A request the page should never send (a bug in the page, not in the reader's board)."""


@dataclass
class _Session:
    rules: RulesIndex | None = None
    folder: Path | None = None
    games: dict[int, _GameSession] = field(default_factory=dict)


_session = _Session()


def configure(rules_index: str) -> dict[str, Any]:
    """Load the rules index the catalogue pins (so a pasted case's rule ids are checked too)."""
    _session.rules = load_rules_index(Path(rules_index))
    return {"rules": len(_session.rules.entries)}


def _case_path() -> Path:
    if _session.folder is None:
        _session.folder = Path(tempfile.mkdtemp(prefix="oracle-ask-")) / "asked"
        _session.folder.mkdir()
    return _session.folder / CASE_NAME


def _load_text(text: str) -> Case:
    path = _case_path()
    path.write_text(text, encoding="utf-8")
    return load_case(path, _session.rules)


def _error(error: CaseError, fields: dict[int, str] | None = None) -> dict[str, Any]:
    found: dict[str, Any] = {"ok": False, "line": error.line, "problem": error.problem}
    found["message"] = f"line {error.line}: {error.problem}" if error.line else error.problem
    if fields is not None and error.line in fields:
        found["field"] = fields[error.line]
        found["message"] = f"{field_label(fields[error.line])}: {error.problem}"
    return found


def field_label(field_id: str) -> str:
    """A form field as the page names it: ``Stone 5, their cards``."""
    named = {
        "variant": "The game",
        "hand": "Your hand",
        "discards": "The face-up discards",
        "jokers_played": "Jokers played",
        "claims": "The claims",
    }
    if field_id in named:
        return named[field_id]
    parts = field_id.split("-", 2)
    if len(parts) == 2:
        return f"Stone {parts[1]}"
    what = {
        "you": "your cards",
        "them": "their cards",
        "completed_first": "completed first",
        "claimed_by": "claimed by",
        "modes": "combat modes",
        "claim": "the claim",
    }
    return f"Stone {parts[1]}, {what.get(parts[2], parts[2])}"


# ------------------------------------------------------------------------------ the board form


def _card_items(text: str) -> list[str]:
    """The cards typed in one box, each as a YAML scalar; a name the engine knows is normalised."""
    items = []
    for raw in text.replace(";", ",").split(","):
        word = " ".join(raw.split())
        if not word:
            continue
        try:
            items.append(_quoted(card_name(parse_card(word))))
        except CardError:
            items.append(json.dumps(word))  # the loader names what is wrong with it
    return items


def form_case_text(
    form: dict[str, Any], expects: dict[int, str] | None = None
) -> tuple[str, dict[int, str]]:
    """The case file for a board set up on the page, and which form field each line came from.

    ``form`` holds ``variant``, ``stones`` (nine mappings of ``you``, ``them``, ``completed_first``,
    ``modes``, ``claimed_by`` and ``claim``), ``hand``, ``discards`` and ``jokers_played``; card
    boxes hold names separated by commas, as in the case files. With ``expects`` (stone to
    verdict), each claim carries the expected verdict, so the file is a complete case.
    """
    variant = str(form.get("variant", "base"))
    lines = [
        "# yaml-language-server: $schema=../../oracle/schema/case.schema.json",
        "id: your-board",
        f"situation: {FORM_SITUATION}",
        f"why: {FORM_WHY}",
        f"variant: {json.dumps(variant) if variant not in ('base', 'tactics') else variant}",
        "draft: true",
        "position:",
        "  stones:",
    ]
    fields: dict[int, str] = {len(lines): "variant"}

    def add(line: str, field_id: str) -> None:
        lines.append(line)
        fields[len(lines)] = field_id

    stones = form.get("stones", [])
    if not isinstance(stones, list) or len(stones) != len(STONES):
        raise PageError("the form must describe the nine stones")
    claims = []
    written = 0
    for number, stone in enumerate(stones, 1):
        name = f"stone-{number}"
        parts: list[tuple[str, str]] = []
        for who in ("you", "them"):
            items = _card_items(str(stone.get(who, "")))
            if items:
                parts.append((f"      {who}: [{', '.join(items)}]", f"{name}-{who}"))
        for key in ("completed_first", "claimed_by"):
            value = stone.get(key) or ""
            if value:
                parts.append((f"      {key}: {json.dumps(value)}", f"{name}-{key}"))
        modes = [json.dumps(mode) for mode in stone.get("modes", [])]
        if modes:
            parts.append((f"      modes: [{', '.join(modes)}]", f"{name}-modes"))
        if stone.get("claim"):
            claims.append(number)
        if not parts:
            continue
        written += 1
        add(f"    - stone: {number}", name)
        for line, field_id in parts:
            add(line, field_id)
    if not written:
        lines[-1] = "  stones: []"
    for key in ("discards", "hand"):
        items = _card_items(str(form.get(key, "")))
        if items:
            add(f"  {key}: [{', '.join(items)}]", key)
    jokers = [json.dumps(who) for who in form.get("jokers_played", [])]
    if jokers:
        add(f"  jokers_played: [{', '.join(jokers)}]", "jokers_played")
    if claims:
        lines.append("claims:")
        for number in claims:
            add(f"  - stone: {number}", f"stone-{number}-claim")
            if expects and number in expects:
                add(f"    expect: {expects[number]}", f"stone-{number}-claim")
    return "\n".join(lines) + "\n", fields


def _form_of(case: Case) -> dict[str, Any]:
    """The board form showing a loaded case's position."""
    position = case.position
    claimed = set(case.claimed_stones)
    stones = []
    for number, stone in enumerate(position.stones, 1):
        stones.append(
            {
                "you": ", ".join(card_name(card) for card in stone.sides[Player.A]),
                "them": ", ".join(card_name(card) for card in stone.sides[Player.B]),
                "completed_first": ""
                if stone.completed_first is None
                else WHO[stone.completed_first],
                "modes": sorted(mode.value for mode in stone.modes),
                "claimed_by": "" if stone.claimed_by is None else WHO[stone.claimed_by],
                "claim": number in claimed,
            }
        )
    gone = [
        WHO[player]
        for player in (Player.A, Player.B)
        if player in position.jokers_played and not position.jokers_on_border(player)
    ]
    return {
        "variant": position.variant.name,
        "stones": stones,
        "hand": ", ".join(card_name(card) for card in position.hand),
        "discards": ", ".join(card_name(card) for card in position.discards),
        "jokers_played": gone,
    }


def _report(report: CaseReport) -> dict[str, Any]:
    """What a case page shows of the engine's answer, as data."""
    case = report.case
    witness = frozenset(card for check in report.checks for card in check.verdict.witness)
    return {
        "id": case.id,
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


def ask_text(request: dict[str, Any]) -> dict[str, Any]:
    """Judge a pasted case file, exactly as ``schotten-oracle ask`` would."""
    text = str(request.get("text", ""))
    try:
        case = _load_text(text)
    except CaseError as error:
        return _error(error)
    if case.impossible is not None:
        return _refused_board(case, text)
    report = verify_case(case)
    return {"ok": True, "form": _form_of(case), "report": _report(report), "case_text": text}


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


def ask_form(request: dict[str, Any]) -> dict[str, Any]:
    """Judge the claims ticked on a board set up on the page; return a case file to copy."""
    form = request.get("form", {})
    text, fields = form_case_text(form)
    if "claims:" not in text.splitlines():
        return {
            "ok": False,
            "line": None,
            "field": "claims",
            "problem": "tick at least one stone to claim",
            "message": "tick at least one stone to claim",
            "case_text": text,
        }
    try:
        case = _load_text(text)
    except CaseError as error:
        return {**_error(error, fields), "case_text": text}
    report = verify_case(case)
    expects = {check.verdict.stone: check.verdict.verdict.label for check in report.checks}
    complete, _ = form_case_text(form, expects)
    checked = verify_case(_load_text(complete))
    if not checked.verified:  # pragma: no cover - the engine would disagree with itself
        raise PageError("the case file written for this board does not agree with the engine")
    return {"ok": True, "report": _report(report), "case_text": complete}


# ------------------------------------------------------------------------------ playing a game


@dataclass
class _GameSession:
    state: GameState
    you: Player
    opponent_rng: random.Random


def _view(number: int, session: _GameSession, notice: str = "") -> dict[str, Any]:
    state, you = session.state, session.you
    position = state.position(you)
    legal = [str(move) for move in state.legal_moves()] if state.current_player is you else []
    open_stones = [
        n for n, stone in zip(STONES, position.stones, strict=True) if stone.claimed_by is None
    ]
    winner = None if state.winner is None else WHO[Player.A if state.winner is you else Player.B]
    return {
        "ok": True,
        "game": number,
        "notice": notice,
        "variant": state.variant.name,
        "expert": state.game.expert,
        "seed": state.game.seed,
        "over": state.is_over,
        "winner": winner,
        "result": _result_words(state, you),
        "phase": state.phase.value,
        "your_turn": state.current_player is you and not state.is_over,
        "turn": state.turn,
        "hand": [card_name(card) for card in state.hands[you]],
        "legal": legal,
        "plays": _plays_by_card(state, you),
        "other_moves": [
            str(move)
            for move in (state.legal_moves() if state.current_player is you else [])
            if not isinstance(move, (Play, Claim))
        ],
        "open_stones": open_stones,
        "held": {
            "you": list(state.stones_held(you)),
            "them": list(state.stones_held(you.other)),
        },
        "their_hand_size": len(state.hands[you.other]),
        "decks": {deck.value: len(cards) for deck, cards in state.decks.items()},
        "board": board_html(position),
        "their_moves": _their_last_moves(state, you),
        "log": [
            {
                "turn": event.turn,
                "who": "you" if event.player is you else "the computer",
                "text": event.text,
                "forced": event.forced,
            }
            for event in state.events
        ],
        "record": record_text(state),
    }


def _their_last_moves(state: GameState, you: Player) -> list[str]:
    """The moves the computer chose since your last move, in order (its forced steps left out)."""
    moves: list[str] = []
    for event in reversed(state.events):
        if event.player is you:
            break
        if not event.forced:
            moves.append(event.text)
    return moves[::-1]


def _plays_by_card(state: GameState, you: Player) -> dict[str, list[int]]:
    """The legal plays of one card onto a stone, grouped by card (the hand's buttons)."""
    plays: dict[str, list[int]] = {}
    if state.current_player is not you:
        return plays
    for move in state.legal_moves():
        if isinstance(move, Play):
            plays.setdefault(card_name(move.card), []).append(move.stone)
    return plays


def _result_words(state: GameState, you: Player) -> str:
    if not state.is_over:
        return ""
    if state.winner is None:
        return f"Nobody wins: {state.outcome}."
    who = "You win" if state.winner is you else "The computer wins"
    return f"{who} ({state.outcome}). Record: {result_text(state)}."


def _opponent_moves(session: _GameSession) -> None:
    state = session.state
    while not state.is_over and state.current_player is not session.you:
        them = state.current_player
        state.apply(choose_move(state.view(them), state.legal_moves(), session.opponent_rng))


def new_game(request: dict[str, Any]) -> dict[str, Any]:
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
    number = max(_session.games, default=0) + 1
    session = _GameSession(game.new_initial_state(), Player.A, random.Random(f"opponent {seed}"))
    _session.games = {number: session}
    _opponent_moves(session)
    return _view(number, session)


def game_move(request: dict[str, Any]) -> dict[str, Any]:
    """Play the reader's move (in the notation, or the stones of a claim), then the computer's."""
    number = int(request.get("game", 0))
    session = _session.games.get(number)
    if session is None:
        raise PageError(f"no game {number}")
    state = session.state
    if state.is_over or state.current_player is not session.you:
        return {**_view(number, session), "ok": False, "problem": "it is not your turn"}
    try:
        if "claim" in request:
            move = Claim(tuple(int(stone) for stone in request["claim"]))
            state.apply(move)
        else:
            state.apply_text(str(request.get("move", "")))
    except IllegalMove as error:
        reason = f"{error.problem} (the rule: {error.rule})"
        return {**_view(number, session), "ok": False, "problem": f"{error.move}: {reason}"}
    except MoveSyntaxError as error:
        return {**_view(number, session), "ok": False, "problem": str(error)}
    _opponent_moves(session)
    return _view(number, session)


def card_names(request: dict[str, Any]) -> dict[str, Any]:
    """Every card's name for the page's palette: the Clan cards, then the Tactic cards."""
    return {
        "clan": [{"name": card_name(card), "html": card_html(card)} for card in CARDS],
        "tactics": [{"name": card_name(int(t)), "html": card_html(int(t))} for t in Tactic],
    }


CALLS = {
    "configure": lambda request: configure(str(request["rules_index"])),
    "cards": card_names,
    "ask_text": ask_text,
    "ask_form": ask_form,
    "new_game": new_game,
    "game_move": game_move,
}


def call(name: str, request_json: str) -> str:
    """The page's one entry point: run ``name`` on the JSON request, answer in JSON."""
    if name not in CALLS:
        raise PageError(f"no call {name!r}")
    request = json.loads(request_json)
    if not isinstance(request, dict):
        raise PageError("a request is a JSON object")
    return json.dumps(CALLS[name](request))


__all__ = [
    "PageError",
    "ask_form",
    "ask_text",
    "call",
    "configure",
    "form_case_text",
    "game_move",
    "new_game",
]
