"""The Python side of bench/rust_compare.py, as a lean whole process: build and judge a file.

    python bench/rust_judge.py POSITIONS_FILE

Reads the positions one a line, builds each ``engine.Position`` (the validated constructor) and
runs ``engine.claim_verdict``; prints ``1`` (granted) or ``0`` (refused) a line, and on stderr
the in-process seconds (reading and printing excluded), split into building and judging. It
imports nothing but the engine, so its start-up is the engine's.

What a batch tool does with Python's cyclic garbage collector, it does too. Building and judging
make no reference cycles (``tests/test_position_cycles.py`` keeps it so), so the collector, which
would only scan the positions again and again as they pile up, is paused for the batch; what the
imports made, and then what the batch made, lives to the end, so each is frozen (``gc.freeze``)
out of the collector's scans, the one at shutdown included. Every object is still freed at exit
as before. Each line is still built through the validated constructors and judged afresh:
nothing is carried from one line to the next but the stones and sides already read (immutable
values, shared as any reader of the same text could share them).

The line format (read here and by bench/rust_glue): ``STONE HAND S1 .. S9``, whitespace
separated; HAND and each side are comma-separated card numbers (``colour * 9 + value - 1``) or
``.``; a stone is ``A_SIDE/B_SIDE/COMPLETED_FIRST/CLAIMED_BY``, the last two ``A``, ``B`` or
``-``. Player A, the viewer, claims STONE.
"""

from __future__ import annotations

import gc
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
_STONE_NUMBER = {str(stone): stone for stone in range(1, 10)}
"""A stone number's text to the number (as :data:`_CARD_NUMBER`)."""


class _Cards(dict[str, tuple[Card, ...]]):
    """Each card list's text (a side's or a hand's) read once: a hit is a look-up at C speed,
    and most sides repeat one read before (the empty side, ``.``, most of all). A miss is read
    here, in the one call ``dict`` makes for it: one card is one look-up, more are looked up by
    one ``itemgetter`` call (which returns them as a tuple), cheaper than a ``map``."""

    def __missing__(self, text: str) -> tuple[Card, ...]:
        if text in _CARD_NUMBER:  # one card
            cards: tuple[Card, ...] = (_CARD_NUMBER[text],)
        else:  # two or more: a tuple
            cards = itemgetter(*text.split(","))(_CARD_NUMBER)
        self[text] = cards
        return cards


class _Stones(dict[str, StoneState]):
    """Each stone's text built once, through the validated constructor (a stone is an
    immutable value, and a third of the fields repeat one before them, mostly empty stones)."""

    def __missing__(self, field: str) -> StoneState:
        side_a, side_b, first, claimed = field.split("/")
        sides = (_CARDS[side_a], _CARDS[side_b])
        stone = self[field] = StoneState(sides, _PLAYER[first], _NO_MODES, _PLAYER[claimed])
        return stone


_CARDS = _Cards({".": ()})
_STONES = _Stones()
_NO_MODES = StoneState().modes  # the constructor's own empty set, which it need not check


def decode(line: str) -> tuple[Position, int]:
    """The position and claimed stone of one line, through the validated constructor."""
    stone_text, hand, *stone_fields = line.split()
    stones = tuple(map(_STONES.__getitem__, stone_fields))
    return Position(stones, (), _CARDS[hand], Player.A, _BASE), _STONE_NUMBER[stone_text]


def judge_file(path: str) -> None:
    """Build and judge every line, print ``1``/``0`` a line, seconds on stderr. (The file is
    read with ``open``: importing :mod:`pathlib` would cost this process more than reading.)"""
    with open(path, encoding="utf-8") as file:
        lines = [line for line in file.read().splitlines() if line.strip()]
    gc.disable()  # nothing built or judged here makes a reference cycle (see the docstring)
    start = time.perf_counter()
    built = [decode(line) for line in lines]
    middle = time.perf_counter()
    verdicts = [claim_verdict(position, stone).granted for position, stone in built]
    end = time.perf_counter()
    gc.freeze()  # all of it lives to the end (see the docstring)
    sys.stdout.write("".join("1\n" if granted else "0\n" for granted in verdicts))
    print(
        f"in-process seconds {end - start:.6f} build {middle - start:.6f}"
        f" judge {end - middle:.6f} positions {len(lines)}",
        file=sys.stderr,
    )


if __name__ == "__main__":
    gc.freeze()  # what the imports made lives to the end: the collector need not scan it
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    judge_file(sys.argv[1])
