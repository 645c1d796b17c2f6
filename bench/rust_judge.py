"""The Python side of bench/rust_compare.py, as a lean whole process: build and judge a file.

    python bench/rust_judge.py POSITIONS_FILE

Reads the positions one a line, builds each ``engine.Position`` (the validated constructor) and
runs ``engine.claim_verdict``; prints ``1`` (granted) or ``0`` (refused) a line, and on stderr
the in-process seconds (reading and printing excluded), split into building and judging. It
imports nothing but the engine, so its start-up is the engine's.

The line format (read here and by bench/rust_glue): ``STONE HAND S1 .. S9``, whitespace
separated; HAND and each side are comma-separated card numbers (``colour * 9 + value - 1``) or
``.``; a stone is ``A_SIDE/B_SIDE/COMPLETED_FIRST/CLAIMED_BY``, the last two ``A``, ``B`` or
``-``. Player A, the viewer, claims STONE.
"""

from __future__ import annotations

import sys
import time
from operator import itemgetter

from engine import Card, Player, Position, StoneState, claim_verdict, variant_named

_PLAYER = {"A": Player.A, "B": Player.B, "-": None}
_BASE = variant_named("base")


def _cards_text(cards: tuple[Card, ...]) -> str:
    return ",".join(map(str, cards)) if cards else "."


def _player_text(player: Player | None) -> str:
    return "-" if player is None else player.name


def encode(position: Position, stone: int) -> str:
    """One line of the file: the claimed stone, the hand, then the nine stones."""
    fields = [str(stone), _cards_text(position.hand)]
    for state in position.stones:
        fields.append(
            f"{_cards_text(state.sides[0])}/{_cards_text(state.sides[1])}"
            f"/{_player_text(state.completed_first)}/{_player_text(state.claimed_by)}"
        )
    return " ".join(fields)


_CARD_NUMBER = {str(card): card for card in range(64)}
"""A card number's text to the number: a look-up costs less than ``int()``."""


def _cards(text: str) -> tuple[Card, ...]:
    """The cards of a side's or a hand's text: one card is one look-up, more are looked up by
    one ``itemgetter`` call (which returns them as a tuple), cheaper than a ``map``."""
    if text in _CARD_NUMBER:  # one card
        return (_CARD_NUMBER[text],)
    if text == ".":
        return ()
    cards: tuple[Card, ...] = itemgetter(*text.split(","))(_CARD_NUMBER)  # two or more: a tuple
    return cards


class _Sides(dict[str, tuple[Card, ...]]):
    """Each side's text read once: a hit is a look-up at C speed, and most sides repeat one read
    before (the empty side most of all). (A hand seldom repeats: it is read each time.)"""

    def __missing__(self, text: str) -> tuple[Card, ...]:
        cards = self[text] = _cards(text)
        return cards


class _Stones(dict[str, StoneState]):
    """Each stone's text built once, through the validated constructor (a stone is an
    immutable value, and a third of the fields repeat one before them, mostly empty stones)."""

    def __missing__(self, field: str) -> StoneState:
        side_a, side_b, first, claimed = field.split("/")
        sides = (_SIDES[side_a], _SIDES[side_b])
        stone = self[field] = StoneState(sides, _PLAYER[first], _NO_MODES, _PLAYER[claimed])
        return stone


_SIDES = _Sides()
_STONES = _Stones()
_NO_MODES = StoneState().modes  # the constructor's own empty set, which it need not check


def decode(line: str) -> tuple[Position, int]:
    """The position and claimed stone of one line, through the validated constructor."""
    stone_text, hand, *stone_fields = line.split()
    stones = tuple(map(_STONES.__getitem__, stone_fields))
    return Position(stones, (), _cards(hand), Player.A, _BASE), int(stone_text)


def judge_file(path: str) -> None:
    """Build and judge every line, print ``1``/``0`` a line, seconds on stderr. (The file is
    read with ``open``: importing :mod:`pathlib` would cost this process more than reading.)"""
    with open(path, encoding="utf-8") as file:
        lines = [line for line in file.read().splitlines() if line.strip()]
    start = time.perf_counter()
    built = [decode(line) for line in lines]
    middle = time.perf_counter()
    verdicts = [claim_verdict(position, stone).granted for position, stone in built]
    end = time.perf_counter()
    sys.stdout.write("".join("1\n" if granted else "0\n" for granted in verdicts))
    print(
        f"in-process seconds {end - start:.6f} build {middle - start:.6f}"
        f" judge {end - middle:.6f} positions {len(lines)}",
        file=sys.stderr,
    )


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    judge_file(sys.argv[1])
