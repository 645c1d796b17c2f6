"""Recorded playthroughs: every step of a few whole games, as text, compared with the engine.

A playthrough (after open_spiel's) records, at every step where a player chooses, the turn, the
step and the player to move, what each player sees (:meth:`GameState.view`), the full list of
legal moves in the engine's order, and the move chosen; then the steps the rules forced. The test
replays the recorded moves and compares the text it writes with the file, so a move that goes
missing from ``legal_moves()`` (or appears there wrongly, or changes place) shows up as a diff,
not only a move that is refused.

The files live in ``tests/playthroughs/``. They change only when asked to:

    .venv/bin/python tests/test_playthroughs.py --update            # rewrite every file
    .venv/bin/python tests/test_playthroughs.py --update base-3     # or just some
    UPDATE_PLAYTHROUGHS=1 .venv/bin/pytest tests/test_playthroughs.py

``--update`` replays the moves a file records (the engine's new text, the same game); a game
without a file, or given with ``--fresh``, is played anew from its seed with :func:`choose`.
``--search`` plays many seeds and prints which of them exercise which rules, to pick games from.
"""

from __future__ import annotations

import argparse
import difflib
import os
import random
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from engine import card_name, parse_record, result_text
from engine.cards.tactics import JOKERS, Tactic
from engine.game.interface import (
    Game,
    GameState,
    Phase,
    PlayerView,
)
from engine.game.moves import (
    Banshee,
    Claim,
    Draw,
    IllegalMove,
    Move,
    MoveSyntaxError,
    Pass,
    Play,
    Recruit,
    Return,
    Strategist,
    Traitor,
)
from engine.proof.pieces import Player

ROOT = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent / "playthroughs"
WALKTHROUGH = ROOT / "games" / "walkthrough.txt"


@dataclass(frozen=True)
class Spec:
    """One recorded game: its parameters, and whether the default run replays it."""

    name: str
    game: Game
    slow: bool = False


def _spec(name: str, variant: str, seed: int, *, expert: bool = False, slow: bool = False) -> Spec:
    return Spec(name, Game.named(variant, expert=expert, seed=seed), slow)


SPECS: tuple[Spec, ...] = (
    Spec("walkthrough", parse_record(WALKTHROUGH.read_text()).game),
    _spec("base-53", "base", 53),
    _spec("base-103", "base", 103),
    _spec("tactics-636", "tactics", 636),
    _spec("tactics-expert-1358", "tactics", 1358, expert=True),
)
"""The games, by file name. Seeds were picked with ``--search`` to cover the rules listed in
:data:`FEATURES` between them (see the test that checks it)."""


# ------------------------------------------------------------------------------------ the text


GROUPED = re.compile(r"^(.* (?:on|to|at) )(\d+)$")


def moves_text(moves: Sequence[Move]) -> list[str]:
    """The moves' text in order, runs that differ only in the final stone number on one line.

    ``red 5 on {1,2,4}`` stands for ``red 5 on 1``, ``red 5 on 2``, ``red 5 on 4``, in that
    order: lossless, and a fifth the size.
    """
    lines: list[str] = []
    prefix: str | None = None
    numbers: list[str] = []

    def flush() -> None:
        if prefix is not None:
            lines.append(
                f"{prefix}{{{','.join(numbers)}}}" if len(numbers) > 1 else prefix + numbers[0]
            )

    for move in moves:
        text = str(move)
        match = GROUPED.match(text)
        if match and match.group(1) == prefix:
            numbers.append(match.group(2))
            continue
        flush()
        if match:
            prefix, numbers = match.group(1), [match.group(2)]
        else:
            prefix = None
            lines.append(text)
    flush()
    return lines


def _cards(cards: Iterable[int]) -> str:
    return ", ".join(card_name(card) for card in cards) or "-"


def _public(view: PlayerView) -> tuple[str, list[str]]:
    """What both players see alike: the counts and whose step; then the border and discards."""
    position = view.position
    decks = ", ".join(f"{deck.value} {size}" for deck, size in view.deck_sizes.items())
    jokers = ", ".join(p.name for p in Player if p in position.jokers_played) or "-"
    counts = (
        f"  decks: {decks}; tactics played: A {view.tactics_played[0]}, B {view.tactics_played[1]};"
        f" jokers played: {jokers}; to move: {view.current_player.name}, {view.phase.value}"
    )
    border = []
    for number, stone in enumerate(position.stones, 1):
        if stone.is_empty:
            continue
        parts = [f"A {_cards(stone.sides[0])}", f"B {_cards(stone.sides[1])}"]
        if stone.modes:
            parts.append(", ".join(sorted(mode.label for mode in stone.modes)))
        if stone.completed_first is not None:
            parts.append(f"first {stone.completed_first.name}")
        if stone.claimed_by is not None:
            parts.append(f"held by {stone.claimed_by.name}")
        border.append(f"  stone {number}: {' | '.join(parts)}")
    if position.discards:
        border.append(f"  discards: {_cards(position.discards)}")
    return counts, border


@dataclass
class _Writer:
    """Writes the views step by step; a border unchanged since the last step is not repeated."""

    last_border: list[str] | None = None
    last_step: int = 0

    def views(self, state: GameState, step: int) -> list[str]:
        """Both players' views: each one's hand and count of the other's, then the shared table.

        The table is written once when the two views agree on it (they always should), else
        once per view; the border and discards, when the same as at the step before, as
        ``border: as at step N``.
        """
        views = {player: state.view(player) for player in Player}
        lines = [
            f"view {p.name}: hand {_cards(v.position.hand)}; their hand {v.their_hand_size}"
            for p, v in views.items()
        ]
        public = {player: _public(view) for player, view in views.items()}
        if public[Player.A] != public[Player.B]:
            for player in Player:
                counts, border = public[player]
                lines += [f"table ({player.name}'s view):", counts, *border]
            self.last_border = None
            return lines
        counts, border = public[Player.A]
        lines += ["table (both views):", counts]
        if border and border == self.last_border:
            lines.append(f"  border: as at step {self.last_step}")
        else:
            lines += border
            self.last_border, self.last_step = border, step
        return lines


def playthrough_text(spec: Spec, moves: Sequence[str]) -> str:
    """The playthrough of ``spec``'s game with ``moves`` chosen, as the file records it."""
    state = spec.game.new_initial_state()
    writer = _Writer()
    lines = [
        f"# playthrough {spec.name}: {spec.game!r}",
        "# Written by tests/test_playthroughs.py (--update); a test compares it with the engine.",
        "# 'red 5 on {1,2,4}' lists the moves 'red 5 on 1', 'red 5 on 2', 'red 5 on 4' in order.",
    ]
    lines += _forced(state, 0)
    for step, text in enumerate(moves, 1):
        legal = state.legal_moves()
        lines += [
            "",
            f"## step {step}: turn {state.turn}, {state.current_player.name}, {state.phase.value}",
            *writer.views(state, step),
            f"legal ({len(legal)}):",
            *(f"  {line}" for line in moves_text(legal)),
            f"move: {text}",
        ]
        seen = len(state.events)
        try:
            state.apply_text(text)
        except (IllegalMove, MoveSyntaxError) as error:  # shown in the diff, not as a crash
            return "\n".join([*lines, f"refused: {error}"]) + "\n"
        lines += _forced(state, seen + 1)
    lines += ["", f"## end: {result_text(state)}", *writer.views(state, len(moves) + 1)]
    return "\n".join(lines) + "\n"


def _forced(state: GameState, since: int) -> list[str]:
    return [
        f"forced: {event.player.name} {event.text}"
        for event in state.events[since:]
        if event.forced
    ]


def recorded_moves(text: str) -> list[str]:
    """The moves a playthrough file records, in order."""
    return [line[6:] for line in text.splitlines() if line.startswith("move: ")]


# ------------------------------------------------------------------------- playing new games


def choose(state: GameState, rng: random.Random) -> Move:
    """The move a new playthrough makes: uniform over the legal moves, except that a claim step
    claims everything provable four times in five (so games end by claims, not only stalemate)."""
    if state.phase is Phase.CLAIM and rng.random() < 0.8:
        return Claim(state.provable_stones())
    return rng.choice(state.legal_moves())


def play_seeded(game: Game, seed: int, limit: int = 2000) -> list[str]:
    """A whole game from ``game``'s deal, the moves chosen by :func:`choose` with ``seed``."""
    state = game.new_initial_state()
    rng = random.Random(seed)
    moves: list[str] = []
    while not state.is_over:
        move = choose(state, rng)
        moves.append(str(move))
        state.apply(move)
        if len(moves) > limit:
            raise RuntimeError(f"{game!r}: no end after {limit} moves")
    return moves


def seeded_moves(spec: Spec) -> list[str]:
    """The moves of a game played anew: the walkthrough's record, or :func:`play_seeded`."""
    if spec.name == "walkthrough":
        return list(parse_record(WALKTHROUGH.read_text()).moves)
    assert isinstance(spec.game.seed, int)
    return play_seeded(spec.game, spec.game.seed)


# ------------------------------------------------------------------------------------ features


def _plays_card(card: int) -> Callable[[Move], bool]:
    return lambda move: isinstance(move, Play) and move.card == card


FEATURES: dict[str, Callable[[GameState, list[Move], Move], bool]] = {
    "recruiter": lambda s, legal, m: isinstance(m, Recruit),
    "recruiter draw": lambda s, legal, m: s.phase is Phase.RECRUITER_DRAW,
    "recruiter return": lambda s, legal, m: isinstance(m, Return),
    "strategist to a stone": lambda s, legal, m: isinstance(m, Strategist) and m.to is not None,
    "strategist to discards": lambda s, legal, m: isinstance(m, Strategist) and m.to is None,
    "banshee": lambda s, legal, m: isinstance(m, Banshee),
    "traitor": lambda s, legal, m: isinstance(m, Traitor),
    "mud fight": lambda s, legal, m: _plays_card(Tactic.MUD_FIGHT)(m),
    "blind-man's bluff": lambda s, legal, m: _plays_card(Tactic.BLIND_MANS_BLUFF)(m),
    "joker": lambda s, legal, m: isinstance(m, Play) and m.card in JOKERS,
    "spy": lambda s, legal, m: _plays_card(Tactic.SPY)(m),
    "shield-bearer": lambda s, legal, m: _plays_card(Tactic.SHIELD_BEARER)(m),
    "spy listed after own joker": lambda s, legal, m: (
        s.current_player in s.jokers_played
        and any(isinstance(x, Play) and x.card == Tactic.SPY for x in legal)
    ),
    "pass chosen": lambda s, legal, m: isinstance(m, Pass),
    "claim nothing chosen": lambda s, legal, m: m == Claim(),
    "claim of two stones": lambda s, legal, m: isinstance(m, Claim) and len(m.stones) >= 2,
    "draw chosen": lambda s, legal, m: isinstance(m, Draw),
}
"""What a step may exercise: (state before, legal moves, move chosen) -> whether it does."""

ENDINGS = ("five stones", "three adjacent stones", "stalemate award", "draw")


def features_of(game: Game, moves: Sequence[str]) -> set[str]:
    """The features of :data:`FEATURES` the game's steps exercise, its ending, forced passes."""
    state = game.new_initial_state()
    found: set[str] = set()
    for text in moves:
        legal = state.legal_moves()
        move = state.parse_move(text)
        found |= {name for name, test in FEATURES.items() if test(state, legal, move)}
        state.apply(move)
    found |= {f"ends: {end}" for end in ENDINGS if str(state.outcome).startswith(end)}
    if any(e.forced and e.text == "pass" for e in state.events):
        found.add("pass forced")
    return found


# ----------------------------------------------------------------------------------- the test


def _path(spec: Spec) -> Path:
    return HERE / f"{spec.name}.txt"


def _params() -> list[object]:
    return [
        pytest.param(spec, id=spec.name, marks=[pytest.mark.slow] if spec.slow else [])
        for spec in SPECS
    ]


@pytest.mark.parametrize("spec", _params())
def test_playthrough_matches_the_engine(spec: Spec) -> None:
    path = _path(spec)
    if os.environ.get("UPDATE_PLAYTHROUGHS") == "1":
        update(spec)
    recorded = path.read_text()
    actual = playthrough_text(spec, recorded_moves(recorded))
    if actual != recorded:
        diff = difflib.unified_diff(
            recorded.splitlines(), actual.splitlines(), str(path), "engine now", lineterm="", n=2
        )
        shown = "\n".join(list(diff)[:80])
        pytest.fail(
            f"{path.name} differs from what the engine writes now (first lines of the diff;"
            f" if the change is meant, rerun with --update, see this module's docstring):\n{shown}",
            pytrace=False,
        )


def test_the_walkthrough_playthrough_is_the_walkthrough_game() -> None:
    recorded = recorded_moves(_path(SPECS[0]).read_text())
    assert recorded == list(parse_record(WALKTHROUGH.read_text()).moves)


def test_the_playthroughs_between_them_exercise_every_feature() -> None:
    """Regenerated files (``--fresh``) must still cover the rules the seeds were chosen for.

    No ending in a draw is listed: in 4,000 seeded games :func:`choose` never reached one (the
    case ``cases/end-of-game/02-nobody-wins-the-award.yaml`` covers it).
    """
    found: set[str] = set()
    for spec in SPECS:
        found |= features_of(spec.game, recorded_moves(_path(spec).read_text()))
    wanted = {*FEATURES, "pass forced", *(f"ends: {end}" for end in ENDINGS if end != "draw")}
    assert not wanted - found, f"no playthrough exercises {sorted(wanted - found)}"


def update(spec: Spec, *, fresh: bool = False) -> None:
    """Rewrite ``spec``'s file: its recorded moves replayed, or a game played anew."""
    path = _path(spec)
    moves = seeded_moves(spec) if fresh or not path.exists() else recorded_moves(path.read_text())
    path.parent.mkdir(exist_ok=True)
    path.write_text(playthrough_text(spec, moves))


def search(variant: str, expert: bool, seeds: Iterable[int]) -> None:
    """Print, per seed, the features of the game :func:`choose` plays from it."""
    for seed in seeds:
        game = Game.named(variant, expert=expert, seed=seed)
        moves = play_seeded(game, seed)
        found = sorted(features_of(game, moves))
        print(f"{seed}\t{len(moves)}\t{'; '.join(found)}")


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: --update [names] [--fresh], or --search."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--update", action="store_true", help="rewrite playthrough files")
    parser.add_argument("--fresh", action="store_true", help="play the games anew from seeds")
    parser.add_argument("--search", metavar="VARIANT", help="list the features of many seeds")
    parser.add_argument("--expert", action="store_true", help="with --search: expert timing")
    parser.add_argument("--seeds", type=int, default=200, help="with --search: how many seeds")
    parser.add_argument("names", nargs="*", help="playthroughs to update (default: all)")
    args = parser.parse_args(argv)
    if args.search:
        search(args.search, args.expert, range(args.seeds))
        return 0
    if not args.update:
        parser.error("say --update or --search")
    chosen = [spec for spec in SPECS if not args.names or spec.name in args.names]
    for spec in chosen:
        update(spec, fresh=args.fresh)
        print(f"{_path(spec).relative_to(ROOT)}: {_path(spec).stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
