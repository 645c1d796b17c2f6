"""A game on the "Play a game" page: the computer's moves, and the game as the page shows it.

The opponent decides from its own view only (:func:`engine.choose_move`); the page gets
plain data: the table (each stone's cards as the engine draws them, its marks and its words for a
screen reader), the reader's hand, every legal move as the table picks it, the log and the record
that ``schotten-oracle replay`` reads. The page decides nothing itself: what it offers is what
the engine lists.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine import (
    CARD_RULES,
    STONES,
    Banshee,
    Claim,
    Draw,
    Game,
    GameState,
    Move,
    Pass,
    Phase,
    Play,
    Player,
    Position,
    Recruit,
    Return,
    Strategist,
    Termination,
    Traitor,
    card_name,
    choose_move,
    length_text,
    record_text,
    replay,
    stones_named,
)
from oracle.casefile.model import RulesIndex
from oracle.casefile.vocabulary import PLAYER_WORDS
from oracle.site.boards import card_html, stone_words


@dataclass
class GameSession:
    """A game on the page: its state, which seat the reader has, the computer's chance, and the
    moves the computer made since the reader's last (the table highlights them)."""

    game: Game
    state: GameState
    you: Player
    opponent_rng: random.Random
    their_last: list[Move] = field(default_factory=list)
    card_rules: Mapping[int, str] = field(default_factory=dict)
    """Each Tactic card's rule, in the rules index's words, shown with the card in the hand."""


def card_rule_texts(rules: RulesIndex | None) -> dict[int, str]:
    """What each Tactic card does, from the rules index: its rule's title and text."""
    entries = {} if rules is None else {entry.id: entry for entry in rules.entries}
    return {
        int(tactic): f"{entries[rule].title}: {entries[rule].text}"
        for tactic, rule in CARD_RULES.items()
        if rule in entries
    }


def game_view(number: int, session: GameSession, notice: str = "") -> dict[str, Any]:
    """The game now, from the reader's seat, as the Play page's table shows it."""
    state, you = session.state, session.you
    position = state.position(you)
    moves = legal_moves_of(state, you)
    return {
        "ok": True,
        "game": number,
        "notice": notice,
        "variant": state.variant.name,
        "expert": state.game.expert,
        "seed": state.game.seed,
        "you_first": state.game.first_player is you,
        "over": state.is_over,
        "result": _result_words(state, you),
        "phase": state.phase.value,
        "your_turn": state.current_player is you and not state.is_over,
        "turn": state.turn,
        "held": {
            "you": list(state.stones_held(you)),
            "them": list(state.stones_held(you.other)),
        },
        "their_hand_size": len(state.hands[you.other]),
        "decks": {deck.value: len(cards) for deck, cards in state.decks.items()},
        "table": table_view(position, _touched(session.their_last), provable(moves)),
        "hand_cards": _hand(session, state),
        "moves": [move_view(move) for move in moves],
        "their_last": [str(move) for move in session.their_last],
        "moves_made": len(state.moves),
        "length": length_text(state),
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


def _result_words(state: GameState, you: Player) -> str:
    """Who won and how, in the reader's words: "You win: five stones."; the record's own
    line (``A wins (five stones)``) stays in the record."""
    if state.outcome is None:
        return ""
    how = str(state.outcome)
    if state.outcome.termination is Termination.STALEMATE_AWARD:
        how = "the award of a blocked game (nobody could play on, so the stones were awarded)"
    if state.winner is None:
        return f"Nobody wins, a {how}." if how.startswith("draw") else f"Nobody wins: {how}."
    who = "You win" if state.winner is you else "The computer wins"
    return f"{who}: {how}."


def opponent_moves(session: GameSession) -> None:
    """The computer's moves until it is the reader's turn, kept so the table can show them."""
    state = session.state
    session.their_last = []
    while not state.is_over and state.current_player is not session.you:
        them = state.current_player
        move = choose_move(state.view(them), state.legal_moves(), session.opponent_rng)
        state.apply(move)
        session.their_last.append(move)


def legal_moves_of(state: GameState, you: Player) -> list[Move]:
    """The reader's legal moves now (none on the computer's turn)."""
    return state.legal_moves() if state.current_player is you and not state.is_over else []


def provable(moves: list[Move]) -> tuple[int, ...]:
    """The stones the reader may claim in this step (marked on the table): those the legal
    claims name."""
    named = {stone for move in moves if isinstance(move, Claim) for stone in move.stones}
    return tuple(sorted(named))


def _hand(session: GameSession, state: GameState) -> list[dict[str, Any]]:
    """The reader's hand: each card drawn, a Tactic card's rule, and in the reader's play step
    why a card that no move plays cannot be played, in the engine's words."""
    cards = state.hands[session.you]
    playing = state.current_player is session.you and state.phase is Phase.PLAY
    return [
        {
            **_card(card),
            "rule": session.card_rules.get(card, ""),
            "refused": _refused(state, card) if playing else "",
        }
        for card in cards
    ]


def _refused(state: GameState, card: int) -> str:
    refused = state.why_unplayable(card)
    return "" if refused is None else refused.problem


def _card(card: int, *, last: bool = False) -> dict[str, Any]:
    return {"name": card_name(card), "html": card_html(card), "last": last}


def table_view(
    position: Position, touched: dict[int, set[int]], claimable: tuple[int, ...] = ()
) -> list[dict[str, Any]]:
    """The nine stones for the page's table: each side's cards (name and the engine's drawing),
    the modes, the owner, whether the reader may claim it now, what the computer just touched,
    and the stone in words for a screen reader."""
    me, them = position.viewer, position.viewer.other
    stones = []
    for number, stone in zip(STONES, position.stones, strict=True):
        moved = touched.get(number, set())
        owner = None if stone.claimed_by is None else PLAYER_WORDS[stone.claimed_by]
        stones.append(
            {
                "number": number,
                "you": [_card(card) for card in stone.sides[me]],
                "them": [_card(card, last=card in moved) for card in stone.sides[them]],
                "capacity": stone.capacity,
                "modes": sorted(mode.label for mode in stone.modes),
                "held_by": owner,
                "claimable": number in claimable,
                "touched": number in touched,
                "words": stone_words(number, stone, me, False),
            }
        )
    return stones


def _touched(moves: list[Move]) -> dict[int, set[int]]:
    """The stones the computer's moves named, and the cards it put on them."""
    touched: dict[int, set[int]] = {}
    for move in moves:
        for stone in stones_named(move):
            touched.setdefault(stone, set())
        if isinstance(move, Play):
            touched[move.stone].add(move.card)
        elif isinstance(move, (Traitor, Strategist)) and move.to is not None:
            touched[move.to].add(move.card)
    return touched


def move_view(move: Move) -> dict[str, Any]:
    """One legal move as the table picks it: the hand card it starts from, the card on the
    board it takes (for a ruse), the stone it ends at; and its text in the notation."""
    found: dict[str, Any] = {"text": str(move), "kind": type(move).__name__.lower()}
    if isinstance(move, Play):
        found |= {"hand": card_name(move.card), "stone": move.stone}
    elif isinstance(move, Strategist):
        found |= {"hand": "strategist", "card": card_name(move.card), "from": move.source}
        found["stone"] = move.to
    elif isinstance(move, Traitor):
        found |= {"hand": "traitor", "card": card_name(move.card), "from": move.source}
        found["stone"] = move.to
    elif isinstance(move, Banshee):
        found |= {"hand": "banshee", "card": card_name(move.card), "from": move.stone}
    elif isinstance(move, Recruit):
        found["hand"] = "recruiter"
    elif isinstance(move, Return):
        found["card"] = card_name(move.card)
    elif isinstance(move, Draw):
        found["deck"] = move.deck.value
    elif isinstance(move, Claim):
        found["stones"] = list(move.stones)
    else:
        assert isinstance(move, Pass)
    return found


def moment_view(session: GameSession, step: int) -> dict[str, Any]:
    """The game as it stood after its first ``step`` moves, seen from the reader's seat, for
    stepping back through a game: the table, the hand, and the move that led there."""
    state = session.state
    step = max(0, min(step, len(state.moves)))
    then = replay(session.game, state.moves[:step])
    before = replay(session.game, state.moves[: step - 1]) if step else None
    who = (
        ""
        if before is None
        else ("you" if before.current_player is session.you else "the computer")
    )
    last = [state.moves[step - 1]] if step and who == "the computer" else []
    return {
        "step": step,
        "total": len(state.moves),
        "turn": then.turn if before is None else before.turn,  # the turn the move was made in
        "move": "" if before is None else f"{who}: {state.moves[step - 1]}",
        "table": table_view(then.position(session.you), _touched(last)),
        "hand_cards": _hand(session, then),
    }
