"""A game on the "Play a game" page: the computer's moves, and the game as the page shows it.

The opponent decides from its own view only (:func:`engine.opponent.choose_move`); the page gets
plain data: the board drawn, the legal moves grouped as its controls need them, the log and the
record that ``schotten-oracle replay`` reads.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from engine import Claim, GameState, Play, Player, card_name, record_text, result_text
from engine.opponent import choose_move
from engine.position import STONES
from oracle.casefile.vocabulary import PLAYER_WORDS
from oracle.site.boards import board_html


@dataclass
class GameSession:
    state: GameState
    you: Player
    opponent_rng: random.Random


def game_view(number: int, session: GameSession, notice: str = "") -> dict[str, Any]:
    state, you = session.state, session.you
    position = state.position(you)
    legal = [str(move) for move in state.legal_moves()] if state.current_player is you else []
    open_stones = [
        n for n, stone in zip(STONES, position.stones, strict=True) if stone.claimed_by is None
    ]
    winner = (
        None
        if state.winner is None
        else PLAYER_WORDS[Player.A if state.winner is you else Player.B]
    )
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


def opponent_moves(session: GameSession) -> None:
    state = session.state
    while not state.is_over and state.current_player is not session.you:
        them = state.current_player
        state.apply(choose_move(state.view(them), state.legal_moves(), session.opponent_rng))
