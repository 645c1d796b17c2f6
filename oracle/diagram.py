"""A case in plain text, for the command line: its board as a small table, and the engine's
answers as ``schotten-oracle ask`` prints them.

One row per stone that holds anything: your side, their side (each with how full it is), the
combat modes, and who holds the stone; then the hands and the face-up discards.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from engine import Player, Position, card_name
from oracle.casefile.model import Case, TurnExpectation, WrittenBoard
from oracle.casefile.questions import DEAL
from oracle.casefile.source import shown_path
from oracle.casefile.vocabulary import PLAYER_WORDS
from oracle.verify.report import CaseReport, GameCheck, describe_verdict, words

EXPECT_KEYS = {
    "the log": "log",
    "the winner": "winner",
    "the stones held": "held",
    "your hand": "hand",
    "the discards": "discards",
    "whose turn it is": "next",
}
"""The key under ``turn.expect`` that each answer of a turn goes to, printed by ``ask``."""

MOVES_SHOWN = 40
"""The legal moves ``ask`` lists unless asked for all."""


def _names(cards: Sequence[int]) -> str:
    return ", ".join(card_name(card) for card in cards)


def _table(rows: Sequence[tuple[str, ...]], empty: str) -> list[str]:
    """Rows as columns padded to their widest cell, with a rule under the heading."""
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    lines = [
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        for row in rows
    ]
    lines.insert(1, "  ".join("-" * width for width in widths))
    if len(rows) == 1:
        lines.append(empty)
    return lines


def board_text(position: Position, *, their_hand: tuple[int, ...] | None = None) -> str:
    """``position`` as a small text table, seen by its viewer ("you")."""
    me, them = position.viewer, position.viewer.other
    rows = [("stone", "your side", "their side", "modes", "held by")]
    for number, stone in enumerate(position.stones, 1):
        if stone.is_empty:
            continue
        holder = {None: "", me: "you", them: "them"}[stone.claimed_by]
        modes = ", ".join(sorted(mode.label for mode in stone.modes))
        mine, theirs = (
            f"{_names(stone.sides[p]) or '-'} ({len(stone.sides[p])}/{stone.capacity})"
            for p in (me, them)
        )
        rows.append((str(number), mine, theirs, modes, holder))
    lines = _table(rows, "(every stone is empty)")
    lines.append(f"your hand: {_names(position.hand) or 'empty'}")
    if their_hand is not None:
        lines.append(f"their hand: {_names(their_hand) or 'empty'}")
    if position.discards:
        lines.append(f"discards: {_names(position.discards)}")
    return "\n".join(lines)


def written_board_text(board: WrittenBoard) -> str:
    """A board the engine refuses, as its case file writes it: one row per stone listed, then
    the hands, the discards and the facts of the table (nothing judged, nothing drawn)."""
    rows = [("stone", "your side", "their side", "also")]
    for stone in board.stones:
        notes = list(stone.modes)
        if stone.completed_first is not None:
            notes.append(f"completed first: {PLAYER_WORDS[stone.completed_first]}")
        if stone.claimed_by is not None:
            notes.append(f"held by {PLAYER_WORDS[stone.claimed_by]}")
        mine, theirs = (_names(side) or "-" for side in (stone.you, stone.them))
        rows.append((str(stone.number), mine, theirs, "; ".join(notes)))
    lines = _table(rows, "(no stone listed)")
    lines.append(f"your hand: {_names(board.hand) or 'empty'}")
    if board.their_hand is not None:
        lines.append(f"their hand: {_names(board.their_hand) or 'empty'}")
    if board.discards:
        lines.append(f"discards: {_names(board.discards)}")
    if board.jokers_played:
        gone = ", ".join(PLAYER_WORDS[player] for player in board.jokers_played)
        lines.append(f"jokers played and gone: {gone}")
    lines += [f"{label[:1].lower()}{label[1:]}: {value}" for label, value in board.table]
    return "\n".join(lines)


def answer_lines(report: CaseReport, root: Path, all_moves: bool = False) -> list[str]:
    """What ``ask`` prints of a case the engine can build: the board, each answer, the legal
    moves at the case's moment, and whether the case agrees with the engine."""
    case = report.case
    where = f"{shown_path(case.path, root)}:{case.line}"
    lines = [
        f"case {case.id!r} ({where}), {case.position.variant.name}",
        f"situation: {case.situation}",
        "",
        board_text(case.position, their_hand=case.table.their_hand if case.table else None),
        "",
    ]
    for check in report.checks:
        lines += describe_verdict(check.verdict)
    lines += _game_answer_lines(report)
    lines += _dealt_lines(report)
    if case.table is not None:
        lines += ["", *_legal_moves_lines(case, all_moves)]
    return lines + _closing_lines(report, root)


def _game_answer_lines(report: CaseReport) -> list[str]:
    lines = []
    for check in report.game_checks:
        if check.what == "the turn":
            lines.append(f"{check.what}: {check.actual}")
            continue
        agreed = check.expected is not None and check.matches
        if check.what == "the log" and (agreed or check.expected is None):
            if agreed:  # the turn above is the log; only say that it agrees
                lines.append("the log [log]: as expected")
            continue
        key = EXPECT_KEYS.get(check.what)
        label = f"{check.what} [{key}]" if key else check.what
        if check.filled_in:
            agreed = False  # its expected answer is the engine's own, filled in: nothing pinned
        pinned = " (as expected)" if agreed else " (nothing pinned)" if check.matches else ""
        lines.append(f"{label}: {check.actual}{pinned}")
        lines += _open_reason(check)
    return lines


def _open_reason(check: GameCheck) -> list[str]:
    """The reason of a refusal the case leaves open, as pin would write it."""
    now = check.now
    if isinstance(now, dict) and "because" in now and check.actual == now.get("answer"):
        return [f"  its reason (not pinned): {now['because']}"]
    return []


def _dealt_lines(report: CaseReport) -> list[str]:
    """The hands a case's deal gives each player, as the engine dealt them when it verified
    the deal (never dealt again here)."""
    hands = report.shown.get(DEAL.key)
    if hands is None:
        return []
    return [f"  the engine dealt {words}: {_names(hands[words])}" for words in ("you", "them")]


def _legal_moves_lines(case: Case, all_moves: bool) -> list[str]:
    """The legal moves at the case's moment, saying first what the engine carried out on its
    own from there (a forced draw, pass or empty claim) and whose moves they then are."""
    state = case.game_state()
    step = case.table.step.value if case.table is not None else state.phase.value
    lines = []
    forced = [f"{PLAYER_WORDS[event.player]}: {event.text}" for event in state.events]
    if forced:
        lines.append(
            f"from the case's moment ({step} step) the engine carried out what left no choice:"
            f" {'; '.join(forced)}"
        )
    moves = [str(move) for move in state.legal_moves()]
    if not moves:
        return [*lines, "no legal moves: the game is over"]
    limit = len(moves) if all_moves else MOVES_SHOWN
    shown = ", ".join(moves[:limit])
    if len(moves) > limit:
        shown += f", ... ({len(moves)} in all; --all-moves shows them)"
    if forced:
        whose = "your" if state.current_player is Player.A else "their"
        return [*lines, f"then, at the {state.phase.value} step, {whose} legal moves: {shown}"]
    return [f"at the case's moment ({step} step), your legal moves: {shown}"]


def _closing_lines(report: CaseReport, root: Path) -> list[str]:
    if report.engine_error is not None:
        return ["", *report.explained_problems(root)]
    problems = report.explained_problems(root)
    if problems:
        return ["", "the case expects otherwise:", *problems]
    return ["", _draft_or_agreed(report.case, root)]


def _draft_or_agreed(case: Case, root: Path) -> str:
    expects_nothing = case.draft and (
        any(claim.expect is None for claim in case.claims)
        or any(play.legal is None for play in case.plays)
        or (case.turn is not None and case.turn.expect == TurnExpectation())
        or not (case.claims or case.plays or case.turn)
    )
    if expects_nothing:
        return (
            "draft: once you agree with these answers, schotten-oracle pin"
            f" {shown_path(case.path, root)} writes them into the case"
        )
    return "the case agrees with the engine"


def refusal_lines(report: CaseReport, root: Path) -> list[str]:
    """What ``ask`` prints of a board the case says the engine must refuse: the board as written
    (no position of it can be built to draw), and the engine's refusal or its acceptance."""
    case = report.case
    board = case.impossible
    assert board is not None
    lines = [
        f"case {case.id!r} ({shown_path(case.path, root)}:{case.line}), {board.board.variant}",
        f"situation: {case.situation}",
        "",
        "the board as the case writes it (the case says no game can reach it):",
        written_board_text(board.board),
        "",
    ]
    if board.refusal is None:
        lines.append("the board [impossible]: the engine accepts it")
    else:
        lines.append(f"the board [impossible]: refused: {words(board.refusal)}")
        lines.append(f"  (the loader points at line {board.refusal_line})")
    problems = report.problems(root)
    if problems:
        return [*lines, "", "the case expects otherwise:", *problems]
    if board.expected is None:
        return [*lines, "", "draft: copy the refusal into impossible: once you agree with it"]
    return [*lines, "", "the case agrees with the engine"]


def ask_status(report: CaseReport) -> int:
    """``ask``'s exit status: 0 when the case agrees with the engine (or is a draft that pins
    nothing yet), 1 otherwise."""
    return 0 if not report.problems() else 1
