"""Replay a recorded game and render it turn by turn, so the walkthrough page cannot drift.

A plain function of the record's text: any failure to replay (a move no longer legal, a result
that differs from the one recorded) is a :class:`WalkthroughError` naming the file and line.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from engine import (
    GameState,
    IllegalMove,
    MoveSyntaxError,
    Player,
    card_name,
    length_text,
    parse_record,
    result_text,
)
from oracle.casefile.source import echoed, shown_path

PLAYER_NAMES = {Player.A: "A", Player.B: "B"}


class WalkthroughError(ValueError):
    """A recorded game that no longer replays as recorded."""


@dataclass(frozen=True)
class BorderRow:
    """One stone after a turn: both sides, its combat modes, its owner."""

    stone: int
    side_a: str
    side_b: str
    modes: str
    held_by: str


@dataclass(frozen=True)
class TurnShown:
    """One turn: who played, what happened in order, and the border afterwards."""

    number: int
    player: str
    events: tuple[str, ...]
    border: tuple[BorderRow, ...]
    held: tuple[str, str]


@dataclass(frozen=True)
class Walkthrough:
    """A replayed game: its parameters, its turns, and how it ended."""

    variant: str
    seed: str
    first: str
    turns: tuple[TurnShown, ...]
    result: str
    length: str = ""
    """How long the game ran, as the Play page counts it too (:func:`engine.length_text`)."""


def replay_walkthrough(text: str, path: Path, root: Path | None = None) -> Walkthrough:
    """Replay the record ``text`` (read from ``path``) turn by turn."""
    where = shown_path(path, root)
    try:
        record = parse_record(text)
    except (MoveSyntaxError, ValueError) as error:
        raise WalkthroughError(f"{where}: {error}") from None
    state = record.game.new_initial_state()
    turns: list[TurnShown] = []
    shown_events = 0
    owners: dict[int, Player] = {}

    def close_turns(upto_turn: int | None) -> None:
        nonlocal shown_events
        pending = state.events[shown_events:]
        by_turn: dict[int, list[str]] = {}
        players: dict[int, Player] = {}
        for event in pending:
            if upto_turn is not None and event.turn >= upto_turn:
                break
            owners.update(dict.fromkeys(_stones_taken(event.text), event.player))
            by_turn.setdefault(event.turn, []).append(
                event.text + (" (forced)" if event.forced else "")
            )
            players.setdefault(event.turn, event.player)
            shown_events += 1
        for number, events in by_turn.items():
            turns.append(_turn(state, number, PLAYER_NAMES[players[number]], events, owners))

    for move, line in zip(record.moves, record.move_lines, strict=True):
        close_turns(state.turn)
        try:
            state.apply_text(move)
        except (IllegalMove, MoveSyntaxError) as error:
            raise WalkthroughError(
                f"{where}:{line}: {echoed(move)} no longer replays: {error}"
            ) from None
    close_turns(None)
    result = result_text(state)
    if record.result is not None and record.result != result:
        raise WalkthroughError(
            f"{where}: the record says {echoed(record.result)}, the engine now says {result!r}"
        )
    if not state.is_over:
        raise WalkthroughError(f"{where}: the recorded game does not reach its end")
    game = record.game
    return Walkthrough(
        game.variant.name,
        str(game.seed),
        PLAYER_NAMES[game.first_player],
        tuple(turns),
        result,
        length_text(state),
    )


def _stones_taken(text: str) -> list[int]:
    """The stones an event gives its player: a claim, or a stone received in the award."""
    if text.startswith("claim ") and text != "claim nothing":
        return [int(part) for part in text[6:].split(",")]
    if text.startswith("receives stone "):
        return [int(text.rsplit(" ", 1)[1])]
    return []


def _turn(
    state: GameState, number: int, player: str, events: list[str], owners: dict[int, Player]
) -> TurnShown:
    """A turn as shown: the sides as they stand now, the owners as of the end of the turn.

    Steps the engine forces after a turn (a pass, an empty claim, the award) never move a card,
    so the sides are exact; the owners come from the claims and awards logged so far.
    """
    rows = []
    for index, stone in enumerate(state.stones, 1):
        if not any(stone.sides) and not stone.modes and index not in owners:
            continue
        rows.append(
            BorderRow(
                index,
                ", ".join(card_name(card) for card in stone.sides[Player.A]),
                ", ".join(card_name(card) for card in stone.sides[Player.B]),
                ", ".join(sorted(mode.label for mode in stone.modes)),
                PLAYER_NAMES[owners[index]] if index in owners else "",
            )
        )
    held = tuple(
        ", ".join(str(n) for n in sorted(owners) if owners[n] is player) or "none"
        for player in Player
    )
    return TurnShown(number, player, tuple(events), tuple(rows), (held[0], held[1]))
