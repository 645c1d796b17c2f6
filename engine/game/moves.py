"""The moves of a game and their notation: what a player can choose, and how it is written.

Each move is a small frozen value; ``str(move)`` is its notation and :func:`read_move` reads it
back. Whether a move is legal is the game's business (:mod:`engine.game.interface`), not the move's.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.cards.card import Card, CardError, card_name, echoed, is_clan_card, parse_card
from engine.cards.tactics import JOKERS, Tactic
from engine.frozen import IdentityEnum


class Deck(IdentityEnum):
    """The two decks: the Clan deck, and in the tactics variant the Tactic deck.
    For example:

        >>> from engine import Deck
        >>> Deck.TACTICS, Deck.TACTICS.value
        (<Deck.TACTICS: 'tactics'>, 'tactics')
    """

    CLAN = "clan"
    TACTICS = "tactics"

    @staticmethod
    def of(card: Card) -> Deck:
        """The deck a card belongs to (and returns to, under a Recruiter)."""
        return Deck.CLAN if is_clan_card(card) else Deck.TACTICS


class IllegalMove(ValueError):
    """A move the rules do not allow here. ``rule`` is the id of the rule it breaks.
    For example:

        >>> from engine import Game, IllegalMove
        >>> state = Game.named("base", seed=1).new_initial_state()
        >>> try: state.apply_text("claim 3")
        ... except IllegalMove as error: print(error.rule, error)
        turn.order claim 3: no claim in the play step (turn.order)
    """

    def __init__(self, move: object, problem: str, rule: str) -> None:
        super().__init__(f"{move}: {problem} ({rule})")
        self.move, self.problem, self.rule = move, problem, rule


class MoveSyntaxError(ValueError):
    """Move text that cannot be read.
    For example:

        >>> from engine import Game, MoveSyntaxError
        >>> try: Game.named("base", seed=1).new_initial_state().apply_text("red 5 to 3")
        ... except MoveSyntaxError as error: print(error)
        'red 5 to 3' is not a move: write 'red 5 on 3', 'claim 3', 'draw clan', 'pass', ...
    """


def _name(card: Card) -> str:
    """A card's name, or its number when no card has that number (for error messages)."""
    return card_name(card) if isinstance(card, int) and 0 <= card < 64 else f"card {card!r}"


@dataclass(frozen=True)
class Play:
    """Play a card: a Clan card or elite troop onto your side, a combat mode onto the stone.
    For example:

        >>> from engine import Play, parse_card
        >>> str(Play(parse_card("red 5"), 3)), str(Play(parse_card("mud fight"), 3))
        ('red 5 on 3', 'mud fight on 3')
    """

    card: Card
    stone: int

    def __str__(self) -> str:
        return f"{_name(self.card)} on {self.stone}"


@dataclass(frozen=True)
class Pass:
    """Play no card this turn.
    For example:

        >>> from engine import Pass
        >>> str(Pass())
        'pass'
    """

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True)
class Claim:
    """Claim these stones, all in the same step (none at all is a choice too).
    For example:

        >>> from engine import Claim
        >>> str(Claim((2, 5))), str(Claim())
        ('claim 2, 5', 'claim nothing')
    """

    stones: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "stones", tuple(sorted(self.stones)))

    def __str__(self) -> str:
        return f"claim {', '.join(map(str, self.stones))}" if self.stones else "claim nothing"


@dataclass(frozen=True)
class Draw:
    """Draw the top card of a deck: at the end of the turn, or for a Recruiter.
    For example:

        >>> from engine import Deck, Draw
        >>> str(Draw(Deck.TACTICS))
        'draw tactics'
    """

    deck: Deck

    def __str__(self) -> str:
        return f"draw {self.deck.value}"


@dataclass(frozen=True)
class Recruit:
    """Play the Recruiter: draw up to three cards, then put two back under their decks.
    For example:

        >>> from engine import Recruit
        >>> str(Recruit())
        'recruiter'
    """

    def __str__(self) -> str:
        return "recruiter"


@dataclass(frozen=True)
class Return:
    """Put a card from hand at the bottom of its deck (the second half of a Recruiter).
    For example:

        >>> from engine import Return, parse_card
        >>> str(Return(parse_card("red 5")))
        'return red 5'
    """

    card: Card

    def __str__(self) -> str:
        return f"return {_name(self.card)}"


@dataclass(frozen=True)
class Strategist:
    """Move one of your own cards from a stone to another stone, or discard it (``to`` None).
    For example:

        >>> from engine import Strategist, parse_card
        >>> red_5 = parse_card("red 5")
        >>> str(Strategist(red_5, 3, 4)), str(Strategist(red_5, 3, None))
        ('strategist: red 5 from 3 to 4', 'strategist: red 5 from 3 to discards')
    """

    card: Card
    source: int
    to: int | None

    def __str__(self) -> str:
        target = "discards" if self.to is None else str(self.to)
        return f"strategist: {_name(self.card)} from {self.source} to {target}"


@dataclass(frozen=True)
class Banshee:
    """Discard a card from your opponent's side of a stone.
    For example:

        >>> from engine import Banshee, parse_card
        >>> str(Banshee(parse_card("red 5"), 3))
        'banshee: red 5 at 3'
    """

    card: Card
    stone: int

    def __str__(self) -> str:
        return f"banshee: {_name(self.card)} at {self.stone}"


@dataclass(frozen=True)
class Traitor:
    """Take a Clan card from your opponent's side of a stone onto your side of a stone.
    For example:

        >>> from engine import Game, Traitor
        >>> state = Game.named("tactics", seed=44).new_initial_state()
        >>> state.parse_move("traitor: red 5 from 3 to 4") == Traitor(card=4, source=3, to=4)
        True
    """

    card: Card
    source: int
    to: int

    def __str__(self) -> str:
        return f"traitor: {_name(self.card)} from {self.source} to {self.to}"


Move = Play | Pass | Claim | Draw | Recruit | Return | Strategist | Banshee | Traitor
"""Every kind of move. ``str(move)`` is its notation, read back by :meth:`GameState.parse_move`."""


def stones_named(move: Move) -> tuple[int, ...]:
    """The stones ``move`` names: where a card goes, where one is taken from, what is claimed.
    A draw, a pass, and the Recruiter's or a returned card's moves name none.

        >>> from engine import Pass, Traitor, parse_card, stones_named
        >>> stones_named(Traitor(parse_card("red 5"), 3, 4)), stones_named(Pass())
        ((3, 4), ())
    """
    if isinstance(move, (Play, Banshee)):
        return (move.stone,)
    if isinstance(move, (Traitor, Strategist)):
        return (move.source,) if move.to is None else (move.source, move.to)
    if isinstance(move, Claim):
        return move.stones
    return ()


PLAYS = tuple(tuple(Play(card, stone) for stone in range(10)) for card in range(64))
"""Every play of a card to a stone, made once (``PLAYS[card][stone]``): listing the legal moves
only looks them up."""


def play_of(card: Card, stone: int) -> Play:
    """The play of ``card`` to ``stone``: the one in :data:`PLAYS` when there is one, so that
    a move read from its notation is the very move the legal list holds."""
    if type(card) is int and type(stone) is int and 0 <= card < 64 and 0 <= stone < 10:
        return PLAYS[card][stone]
    return Play(card, stone)


RUSE_OF_MOVE: dict[type, Tactic] = {
    Recruit: Tactic.RECRUITER,
    Strategist: Tactic.STRATEGIST,
    Banshee: Tactic.BANSHEE,
    Traitor: Tactic.TRAITOR,
}


def read_move(text: str, hand: Sequence[Card], side: Callable[[int, bool], Sequence[Card]]) -> Move:
    """Read a move written as :func:`str` writes it. ``hand`` is the mover's hand and
    ``side(stone, theirs)`` a side of a stone, where a ``joker`` in the text is looked up."""
    words = " ".join(text.replace(",", " , ").split()).lower()
    try:
        return _read_words(words, hand, side)
    except CardError as error:
        raise MoveSyntaxError(f"{echoed(text)}: {error}") from None


def _read_words(
    words: str, hand: Sequence[Card], side: Callable[[int, bool], Sequence[Card]]
) -> Move:
    simple = _WORD_MOVES.get(words)
    if simple is not None:
        return simple()
    first_word = re.match(r"[^\s:]*", words)
    for prefix, reader in _PREFIXED_MOVES:
        if first_word is not None and first_word.group() == prefix.strip():
            move = reader(words, hand, side)
            if move is not None:
                return move
    card_text, found, stone_text = words.rpartition(" on ")
    if not found:
        raise MoveSyntaxError(
            f"{echoed(words)} is not a move: write 'red 5 on 3', 'claim 3', 'draw clan', 'pass',"
            " 'recruiter', 'return red 5', 'strategist: red 5 from 3 to 4',"
            " 'banshee: red 5 at 3' or 'traitor: red 5 from 3 to 4'"
        )
    return play_of(held_card(parse_card(card_text), hand), _stone_number(stone_text, words))


_Reader = Callable[[str, Sequence[Card], Callable[[int, bool], Sequence[Card]]], Move | None]


def _read_claim(words: str, hand: Sequence[Card], side: object) -> Move:
    parts = [part for part in words[6:].replace(",", " ").split() if part != "and"]
    if not all(part.isdigit() for part in parts):
        raise MoveSyntaxError(f"{echoed(words)}: write the stones as numbers, 'claim 3, 5'")
    return Claim(tuple(int(part) for part in parts))


def _read_draw(words: str, hand: Sequence[Card], side: object) -> Move:
    try:
        return Draw(Deck(words[5:].strip()))
    except ValueError:
        raise MoveSyntaxError(f"{echoed(words)}: the decks are 'clan' and 'tactics'") from None


def _read_return(words: str, hand: Sequence[Card], side: object) -> Move:
    return Return(held_card(parse_card(words[7:]), hand))


def _read_ruse_between(kind: type[Strategist] | type[Traitor]) -> _Reader:
    """The reader of ``strategist: CARD from N to M`` or ``traitor: ...`` (the Strategist may
    send the card to the discards)."""
    name = "strategist" if kind is Strategist else "traitor"

    def read(
        words: str, hand: Sequence[Card], side: Callable[[int, bool], Sequence[Card]]
    ) -> Move | None:
        if " from " not in words:
            return None
        body = words[len(name) :].lstrip(": ")
        card_text, _, rest = body.partition(" from ")
        source_text, _, target_text = rest.partition(" to ")
        source = _stone_number(source_text, words)
        card = held_card(parse_card(card_text), side(source, kind is Traitor))
        if kind is Strategist and target_text.strip() in ("discards", "discard"):
            return Strategist(card, source, None)
        return kind(card, source, _stone_number(target_text, words))

    return read


def _read_banshee(
    words: str, hand: Sequence[Card], side: Callable[[int, bool], Sequence[Card]]
) -> Move | None:
    if " at " not in words:
        return None
    card_text, _, stone_text = words[7:].lstrip(": ").partition(" at ")
    stone = _stone_number(stone_text, words)
    return Banshee(held_card(parse_card(card_text), side(stone, True)), stone)


_WORD_MOVES: dict[str, Callable[[], Move]] = {
    "pass": Pass,
    "recruiter": Recruit,
    "claim nothing": Claim,
    "claim none": Claim,
}
"""The moves written as a word or two."""

_PREFIXED_MOVES: tuple[tuple[str, _Reader], ...] = (
    ("claim ", _read_claim),
    ("draw ", _read_draw),
    ("return ", _read_return),
    ("strategist", _read_ruse_between(Strategist)),
    ("traitor", _read_ruse_between(Traitor)),
    ("banshee", _read_banshee),
)
"""The moves told by their first word, each with its reader (None: read it as a play)."""


def held_card(card: Card, place: Sequence[Card]) -> Card:
    """The first Joker in ``place`` when ``card`` is a Joker (the two play alike, and the moves
    list the first); any other card as it is."""
    if card in JOKERS:
        return next((held for held in place if held in JOKERS), card)
    return card


def _stone_number(text: str, words: str) -> int:
    text = text.strip()
    if not text.isdigit():
        raise MoveSyntaxError(f"{echoed(words)}: {echoed(text)} is not a stone number")
    return int(text)


__all__ = [
    "PLAYS",
    "RUSE_OF_MOVE",
    "Banshee",
    "Claim",
    "Deck",
    "Draw",
    "IllegalMove",
    "Move",
    "MoveSyntaxError",
    "Pass",
    "Play",
    "Recruit",
    "Return",
    "Strategist",
    "Traitor",
    "held_card",
    "play_of",
    "read_move",
]
