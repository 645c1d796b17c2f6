"""Games as text: replaying moves, the random driver, and the record a game is written as."""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

from engine.cards.card import echoed
from engine.game.interface import Game, GameState, Phase
from engine.game.legality import listing
from engine.game.moves import Move, MoveSyntaxError
from engine.proof.pieces import Player


def replay(game: Game, moves: Iterable[str | Move]) -> GameState:
    """The state after playing ``moves`` (notation or objects) from ``game``'s deal.
    For example:

        >>> from engine import Game, replay
        >>> state = replay(Game.named("base", seed=1), ["red 9 on 9", "yellow 4 on 1"])
        >>> state.current_player, [str(move) for move in state.moves]
        (<Player.A: 0>, ['red 9 on 9', 'yellow 4 on 1'])
    """
    state = game.new_initial_state()
    for move in moves:
        if isinstance(move, str):
            state.apply_text(move)
        else:
            state.apply(move)
    return state


def random_move(state: GameState, rng: random.Random) -> Move:
    """A legal move chosen with ``rng``; a claim step claims everything provable.
    For example:

        >>> import random
        >>> from engine import Game, random_move
        >>> random_move(Game.named("base", seed=1).new_initial_state(), random.Random(1))
        Play(card=8, stone=9)
    """
    listed = listing(state)  # the legal moves, kept by the state: not copied as a list
    if state.phase is Phase.CLAIM:
        return listed[0]  # the claim of every provable stone, listed first (claims_of)
    return rng.choice(listed)


def play_random_game(game: Game, rng: random.Random, *, max_moves: int = 2000) -> GameState:
    """Play ``game`` to the end with random legal moves drawn from ``rng``.
    For example:

        >>> import random
        >>> from engine import Game, play_random_game
        >>> finished = play_random_game(Game.named("base", seed=1), random.Random(1))
        >>> finished.is_over, finished.outcome
        (True, Outcome(termination=<Termination.FIVE_STONES: 'five stones'>, winner=<Player.A: 0>))
    """
    state = game.new_initial_state()
    for _ in range(max_moves):
        if state.is_over:
            return state
        state.apply(random_move(state, rng))
    raise RuntimeError(f"no end after {max_moves} moves: {state!r}")


def result_text(state: GameState) -> str:
    """How the game stands, in words: ``A wins (five stones)``, a draw, or still playing.
    For example:

        >>> import random
        >>> from engine import Game, play_random_game, result_text
        >>> game = Game.named("base", seed=1)
        >>> finished = play_random_game(game, random.Random(1))
        >>> result_text(game.new_initial_state()), result_text(finished)
        ('still playing', 'A wins (five stones)')
    """
    if not state.is_over:
        return "still playing"
    if state.winner is None:
        return str(state.outcome)
    return f"{state.winner.name} wins ({state.outcome})"


def length_text(state: GameState) -> str:
    """How long a game has run, counted one way wherever it is told (the Play page, ``replay``):
    the moves the players chose, as the record lists them (a step the rules make for a player
    is no move), in the turns begun.

        >>> from engine import Game, length_text, replay
        >>> length_text(replay(Game.named("base", seed=1), ["red 9 on 9", "yellow 4 on 1"]))
        '2 moves in 2 turns'
    """
    moves, turns = len(state.moves), len({event.turn for event in state.events})
    return f"{moves} move{'' if moves == 1 else 's'} in {turns} turn{'' if turns == 1 else 's'}"


@dataclass(frozen=True)
class GameRecord:
    """A game as text records it: its parameters, the moves chosen, and the result it claims.
    For example:

        >>> from engine import GameRecord, parse_record
        >>> record = parse_record("variant: base\\nseed: 1\\nfirst: A\\n1. A red 9 on 9")
        >>> isinstance(record, GameRecord), record.game.seed, record.moves, record.result
        (True, 1, ('red 9 on 9',), None)
    """

    game: Game
    moves: tuple[str, ...]
    move_lines: tuple[int, ...]
    result: str | None


def record_text(state: GameState) -> str:
    """The game as text: its parameters, one line per turn of the moves chosen, the result.
    For example:

        >>> from engine import Game, record_text, replay
        >>> print(record_text(replay(Game.named("base", seed=1), ["red 9 on 9", "yellow 4 on 1"])))
        variant: base
        seed: 1
        first: A
        expert: no
        1. A red 9 on 9
        2. B yellow 4 on 1
        <BLANKLINE>
    """
    game = state.game
    lines = [
        f"variant: {game.variant.name}",
        f"seed: {game.seed if isinstance(game.seed, int) else repr(game.seed)}",
        f"first: {game.first_player.name}",
        f"expert: {'yes' if game.expert else 'no'}",
    ]
    turns: dict[int, list[str]] = {}
    for event in state.events:
        if not event.forced:
            turns.setdefault(event.turn, []).append(f"{event.player.name} {event.text}")
    for turn, texts in turns.items():
        lines.append(f"{turn}. {'; '.join(texts)}")
    if state.is_over:
        lines.append(f"result: {result_text(state)}")
    return "\n".join(lines) + "\n"


RECORD_KEYS = ("variant", "seed", "first", "expert", "result")


def parse_record(text: str) -> GameRecord:
    """Read :func:`record_text`'s output back. Each move is ``A red 5 on 3`` or just the move.
    For example:

        >>> import random
        >>> from engine import Game, parse_record, play_random_game, record_text, replay
        >>> finished = play_random_game(Game.named("base", seed=1), random.Random(1))
        >>> record = parse_record(record_text(finished))
        >>> replay(record.game, record.moves).winner == finished.winner, record.result
        (True, 'A wins (five stones)')
    """
    header: dict[str, str] = {}
    moves: list[str] = []
    move_lines: list[int] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, colon, value = line.partition(":")
        if colon and key in RECORD_KEYS:
            header[key] = value.strip()
            continue
        for move in _turn_moves(line, number):
            moves.append(move)
            move_lines.append(number)
    try:
        first = Player[header.get("first", "A")]
    except KeyError:
        raise MoveSyntaxError(f"first: {echoed(header['first'])} is neither A nor B") from None
    game = Game.named(
        header.get("variant", "base"),
        expert=header.get("expert", "no") == "yes",
        first_player=first,
        seed=_seed(header.get("seed", "0")),
    )
    return GameRecord(game, tuple(moves), tuple(move_lines), header.get("result"))


def _turn_moves(line: str, number: int) -> list[str]:
    """The moves of a turn's line ``12. A red 5 on 3; A claim 3; A draw clan``."""
    turn, dot, rest = line.partition(". ")
    if not dot or not turn.isdigit():
        raise MoveSyntaxError(f"line {number}: {echoed(line)} is neither a header nor a turn")
    moves = []
    for part in rest.split(";"):
        part = part.strip()
        if part[:2] in ("A ", "B "):
            part = part[2:]
        if part:
            moves.append(part)
    return moves


def _seed(text: str) -> int | str:
    """The seed as :func:`record_text` writes it: a number, or a text in quotes."""
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    if text.lstrip("-").isdigit():
        return int(text)
    raise MoveSyntaxError(f"seed: {echoed(text)} is neither a whole number nor a text in quotes")


__all__ = [
    "GameRecord",
    "parse_record",
    "play_random_game",
    "random_move",
    "record_text",
    "replay",
    "result_text",
]
