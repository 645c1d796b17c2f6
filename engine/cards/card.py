"""Cards: small ints with a name table, and card sets as int bitmasks.

A Clan card is ``colour * 9 + (value - 1)``, so the 54 Clan cards are the ints 0 to 53; the ten
Tactic cards follow as 54 to 63 (:mod:`engine.cards.tactics`). A set of cards is an int whose bit
``card`` is set; this keeps the claim proof to a few integer operations per check.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum

from engine.cards.tactics import SECOND_JOKER_NAME, TACTIC_NAMES, TACTICS_MASK, Tactic

TYPE_CHECKING = False  # typing is not imported at run time (see engine.frozen)
if TYPE_CHECKING:
    from typing import TypeAlias

Card: TypeAlias = int
"""A card: a Clan card, 0 to 53 (``colour * 9 + (value - 1)``), or a :class:`Tactic`, 54 to 63."""

VALUES = range(1, 10)
VALUE_WORDS = {str(value): value for value in VALUES}


class Colour(IntEnum):
    """The six Clan colours, named as in the licensed digital edition.
    For example:

        >>> from engine import Colour
        >>> Colour.BLUE, Colour.BLUE.label
        (<Colour.BLUE: 1>, 'blue')
    """

    RED = 0
    BLUE = 1
    GREEN = 2
    YELLOW = 3
    PURPLE = 4
    PINK = 5

    @property
    def label(self) -> str:
        """The colour as an editor writes it: ``red``."""
        return self.name.lower()


CARDS: tuple[Card, ...] = tuple(range(len(Colour) * 9))
"""Every Clan card, in colour order then value order."""

ALL_CARDS_MASK = (1 << len(CARDS)) - 1
"""The 54 Clan cards."""

EVERY_CARD_MASK = ALL_CARDS_MASK | TACTICS_MASK
"""The Clan cards and the ten Tactic cards."""


def is_clan_card(card: Card) -> bool:
    """Whether ``card`` is a Clan card rather than a Tactic card: the one test of it, for a
    card that exists (``card_name`` tells a number that is no card).

        >>> from engine import Tactic, is_clan_card, parse_card
        >>> is_clan_card(parse_card("pink 9")), is_clan_card(Tactic.JOKER)
        (True, False)
    """
    return card < _CLAN_CARD_COUNT


def clan_cards(cards: Iterable[Card]) -> list[Card]:
    """The Clan cards among ``cards``, in order (:func:`is_clan_card` for each, in one pass)."""
    return [card for card in cards if card < _CLAN_CARD_COUNT]


_CLAN_CARD_COUNT = len(CARDS)

COLOUR_NAMES: tuple[str, ...] = tuple(colour.label for colour in Colour)
"""The colours as an editor writes them, in :class:`Colour` order: ``red``, ``blue``, ..."""


class CardError(ValueError):
    """A card that does not exist or is written in a way we cannot read.
    For example:

        >>> from engine import CardError, parse_card
        >>> try:
        ...     parse_card("red 10")
        ... except CardError as error:
        ...     print(error)
        'red 10': unknown value '10'; values run from 1 to 9
    """


ECHO_LIMIT = 60
"""The most characters of a reader's text that a message repeats."""


def echoed(text: str, limit: int = ECHO_LIMIT) -> str:
    """``text`` quoted for a message, clipped to ``limit`` characters (a 5,000-digit number is
    not worth repeating)."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[: limit - 10]!r}... ({len(text):,} characters)"


def foreign_letter(text: str) -> str:
    """A note naming the first character of ``text`` that no name in the notation uses (a
    Cyrillic ``U+0435`` looks like a Latin ``e``), or an empty string."""
    for character in text:
        if not character.isascii():
            import unicodedata  # only a misread card needs it: not loaded by every import

            name = unicodedata.name(character, "a character with no name")
            return f" (it holds U+{ord(character):04X} {name}, which no card's name uses)"
    return ""


def make_card(colour: Colour | int, value: int) -> Card:
    """The card of this colour and value (1 to 9).
    For example:

        >>> from engine import Colour, card_name, make_card
        >>> card_name(make_card(Colour.RED, 7))
        'red 7'
    """
    if value not in VALUES:
        raise CardError(f"no Clan card has value {value!r}: values run from 1 to 9")
    if colour not in range(len(Colour)):
        raise CardError(f"no colour number {colour!r}")
    return int(colour) * 9 + value - 1


def card_colour(card: Card) -> Colour:
    """The colour of a card.
    For example:

        >>> from engine import card_colour, parse_card
        >>> card_colour(parse_card("blue 3"))
        <Colour.BLUE: 1>
    """
    return Colour(card // 9)


def card_value(card: Card) -> int:
    """The value of a card, 1 to 9.
    For example:

        >>> from engine import card_value, parse_card
        >>> card_value(parse_card("blue 3"))
        3
    """
    return card % 9 + 1


def card_name(card: Card) -> str:
    """The card as an editor writes it: ``red 7``, ``spy``. Inverse of :func:`parse_card`.

    Both Jokers are ``joker``: they are the same card twice.

        >>> from engine import Tactic, card_name, parse_card
        >>> card_name(parse_card("Red  7")), card_name(Tactic.SECOND_JOKER)
        ('red 7', 'joker')
    """
    if card in range(len(CARDS)):
        return f"{COLOUR_NAMES[card // 9]} {card % 9 + 1}"
    if card in TACTIC_NAMES:
        return TACTIC_NAMES[Tactic(card)]
    raise CardError(f"no card number {card!r}")


_TACTICS_BY_NAME = {
    **{name: tactic for tactic, name in reversed(TACTIC_NAMES.items())},
    SECOND_JOKER_NAME: Tactic.SECOND_JOKER,
}


def parse_card(text: str) -> Card:
    """Read a card written as colour then value, ``red 7``; case and spacing are forgiven.

    A Tactic card is written by its name: ``joker``, ``spy``, ``mud fight``; ``joker`` is the
    first Joker (whoever reads a list of cards numbers a second ``joker`` as the second one), and
    ``second joker`` (:data:`~engine.cards.tactics.SECOND_JOKER_NAME`) the second, named apart.
    Raises :class:`CardError`, naming the text, for anything else.

        >>> from engine import parse_card
        >>> parse_card("red 7"), parse_card("spy"), parse_card("second joker")
        (6, <Tactic.SPY: 56>, <Tactic.SECOND_JOKER: 55>)
    """
    words = text.split()
    tactic = _TACTICS_BY_NAME.get(" ".join(words).lower())
    if tactic is not None:
        return tactic
    if len(words) != 2:
        raise CardError(
            f"{echoed(text)} is not a card: write a colour then a value, as in 'red 7',"
            f" or a Tactic card's name, as in 'joker'{foreign_letter(text)}"
        )
    colour_word, value_word = words[0].lower(), words[1]
    if colour_word not in COLOUR_NAMES:
        if value_word.lower() in COLOUR_NAMES:
            raise CardError(
                f"{echoed(text)}: write the colour first, as in"
                f" '{value_word.lower()} {words[0][:ECHO_LIMIT]}'"
            )
        raise CardError(
            f"{echoed(text)}: unknown colour {echoed(words[0])}{foreign_letter(words[0])};"
            f" the colours are {', '.join(COLOUR_NAMES)}"
        )
    if value_word not in VALUE_WORDS:
        raise CardError(
            f"{echoed(text)}: unknown value {echoed(value_word)}{foreign_letter(value_word)};"
            " values run from 1 to 9"
        )
    return make_card(COLOUR_NAMES.index(colour_word), VALUE_WORDS[value_word])


def parse_cards(text: str) -> tuple[Card, ...]:
    """Read cards separated by commas, ``"red 7, red 8"``; an empty text is no cards.
    For example:

        >>> from engine import parse_cards
        >>> parse_cards("red 7, red 8, joker"), parse_cards("")
        ((6, 7, <Tactic.JOKER: 54>), ())
    """
    return tuple(parse_card(part) for part in text.split(",")) if text.strip() else ()


def cards_text(cards: Iterable[Card]) -> str:
    """Cards as :func:`parse_cards` reads them: ``"red 7, red 8"``."""
    return ", ".join(card_name(card) for card in cards)


def cards_repr(cards: Iterable[Card]) -> str:
    """Source text that makes these cards again: ``parse_cards('red 7, red 8')``. The second
    Joker is named apart, ``(*parse_cards('red 7'), Tactic.SECOND_JOKER)``, since ``joker``
    reads as the first wherever it is written alone."""
    cards = tuple(cards)
    if Tactic.SECOND_JOKER not in cards:
        return f"parse_cards({cards_text(cards)!r})"
    parts: list[str] = []
    run: list[Card] = []
    for card in (*cards, Tactic.SECOND_JOKER):
        if card != Tactic.SECOND_JOKER:
            run.append(card)
            continue
        if run:
            parts.append(f"*parse_cards({cards_text(run)!r})")
            run = []
        parts.append("Tactic.SECOND_JOKER")
    return f"({', '.join(parts[:-1])},)"


def colour_mask(colour: Colour | int) -> int:
    """The set of the nine cards of one colour."""
    return 0x1FF << (int(colour) * 9)


VALUE_MASKS: tuple[int, ...] = (
    0,
    *(sum(1 << make_card(colour, value) for colour in Colour) for value in VALUES),
)
"""``VALUE_MASKS[v]``: the six cards of value ``v`` (index 0 unused)."""

VALUE_CARDS: tuple[tuple[Card, ...], ...] = (
    (),
    *(tuple(make_card(colour, value) for colour in Colour) for value in VALUES),
)
"""``VALUE_CARDS[v]``: the six cards of value ``v``, in colour order (index 0 unused)."""

COLOUR_MASKS: tuple[int, ...] = tuple(colour_mask(colour) for colour in Colour)


def mask_of(cards: Iterable[Card]) -> int:
    """The bitmask of some cards."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_in(mask: int) -> Iterator[Card]:
    """The cards of a bitmask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class CardSet:
    """An immutable set of cards backed by a bitmask, like python-chess's ``SquareSet``.
    For example:

        >>> from engine import CardSet, parse_card, parse_cards
        >>> cards = CardSet(parse_cards("red 8, red 7"))
        >>> cards, len(cards), parse_card("red 7") in cards
        (CardSet(parse_cards('red 7, red 8')), 2, True)
        >>> (cards | CardSet(parse_cards("blue 1"))).names()
        ['red 7', 'red 8', 'blue 1']
    """

    __slots__ = ("mask",)

    def __init__(self, cards: Iterable[Card] | int = 0) -> None:
        if isinstance(cards, int):
            if cards & ~EVERY_CARD_MASK or cards < 0:
                raise CardError(f"mask {cards:#x} has bits outside the 64 cards")
            self.mask = cards
        else:
            self.mask = mask_of(cards)

    def __iter__(self) -> Iterator[Card]:
        return cards_in(self.mask)

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and 0 <= card < 64 and bool(self.mask >> card & 1)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(self.mask)

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & ~other.mask)

    def names(self) -> list[str]:
        """The cards' names, lowest first."""
        return [card_name(card) for card in self]

    def __repr__(self) -> str:
        return f"CardSet({cards_repr(self)})"
