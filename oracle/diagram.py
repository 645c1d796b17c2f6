"""A board drawn as plain text, for the command line and for messages.

One row per stone that holds anything: your side, their side (each with how full it is), the
combat modes, and who holds the stone; then your hand and the face-up discards.
"""

from __future__ import annotations

from engine import Player, Position, card_name
from oracle.casefile.model import WrittenBoard


def _side(cards: tuple[int, ...], capacity: int) -> str:
    shown = ", ".join(card_name(card) for card in cards) or "-"
    return f"{shown} ({len(cards)}/{capacity})"


def board_text(position: Position, *, their_hand: tuple[int, ...] | None = None) -> str:
    """``position`` as a small text table, seen by its viewer ("you")."""
    me, them = position.viewer, position.viewer.other
    rows = [("stone", "your side", "their side", "modes", "held by")]
    for number, stone in enumerate(position.stones, 1):
        if stone.is_empty:
            continue
        holder = {None: "", me: "you", them: "them"}[stone.claimed_by]
        modes = ", ".join(sorted(mode.label for mode in stone.modes))
        mine, theirs = (_side(stone.sides[p], stone.capacity) for p in (me, them))
        rows.append((str(number), mine, theirs, modes, holder))
    widths = [max(len(row[column]) for row in rows) for column in range(5)]
    lines = [
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        for row in rows
    ]
    lines.insert(1, "  ".join("-" * width for width in widths))
    if len(rows) == 1:
        lines.append("(every stone is empty)")
    lines.append(f"your hand: {', '.join(card_name(card) for card in position.hand) or 'empty'}")
    if their_hand is not None:
        lines.append(f"their hand: {', '.join(card_name(card) for card in their_hand) or 'empty'}")
    if position.discards:
        lines.append(f"discards: {', '.join(card_name(card) for card in position.discards)}")
    return "\n".join(lines)


def written_board_text(board: WrittenBoard) -> str:
    """A board the engine refuses, as its case file writes it: one row per stone listed, then
    the hands, the discards and the facts of the table (nothing judged, nothing drawn)."""
    who = {Player.A: "you", Player.B: "them"}
    rows = [("stone", "your side", "their side", "also")]
    for stone in board.stones:
        notes = list(stone.modes)
        if stone.completed_first is not None:
            notes.append(f"completed first: {who[stone.completed_first]}")
        if stone.claimed_by is not None:
            notes.append(f"held by {who[stone.claimed_by]}")
        mine, theirs = (
            ", ".join(card_name(card) for card in side) or "-" for side in (stone.you, stone.them)
        )
        rows.append((str(stone.number), mine, theirs, "; ".join(notes)))
    widths = [max(len(row[column]) for row in rows) for column in range(4)]
    lines = [
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        for row in rows
    ]
    lines.insert(1, "  ".join("-" * width for width in widths))
    if len(rows) == 1:
        lines.append("(no stone listed)")
    lines.append(f"your hand: {', '.join(card_name(card) for card in board.hand) or 'empty'}")
    if board.their_hand is not None:
        their = ", ".join(card_name(card) for card in board.their_hand)
        lines.append(f"their hand: {their or 'empty'}")
    if board.discards:
        lines.append(f"discards: {', '.join(card_name(card) for card in board.discards)}")
    if board.jokers_played:
        lines.append(f"jokers played and gone: {', '.join(who[p] for p in board.jokers_played)}")
    lines += [f"{label[:1].lower()}{label[1:]}: {value}" for label, value in board.table]
    return "\n".join(lines)
