"""A board drawn as HTML for the site: the nine stones in order, both sides of each, and in words.

Plain markup and one stylesheet (``site_src/assets/stylesheets/oracle.css``), no script: the
diagram is part of the page the engine verified, and reads without JavaScript. Nothing in it
depends on colour alone: every Clan card shows its value and a colour code, every Tactic card its
full name, and the whole board is also written out in words for screen readers. The drawing is
kept out of the site's search index (its words are the page's summary instead).
"""

from __future__ import annotations

from functools import lru_cache

from engine import CARDS, STONES, Card, Colour, Player, Position, StoneState, card_name
from oracle.casefile.model import WrittenBoard
from oracle.casefile.vocabulary import PLAYER_WORDS
from oracle.site.markup import Markup
from oracle.site.markup import text as escape

COLOUR_CODES = {
    "red": "Rd",
    "blue": "Bl",
    "green": "Gn",
    "yellow": "Ye",
    "purple": "Pu",
    "pink": "Pk",
}
"""A two-letter code per colour, printed on each card so that no colour is told by its hue."""

TACTIC_TITLES = {
    "joker": "Joker",
    "spy": "Spy",
    "shield-bearer": "Shield-Bearer",
    "recruiter": "Recruiter",
    "strategist": "Strategist",
    "banshee": "Banshee",
    "traitor": "Traitor",
    "mud fight": "Mud Fight",
    "blind-man's bluff": "Blind-Man's Bluff",
}


@lru_cache(maxsize=512)
def card_html(card: Card, *, marked: bool = False) -> Markup:
    """One card: a Clan card shows its value and colour code; a Tactic card its full name
    (kept once made: a large catalogue's boards draw the same few cards tens of thousands of
    times)."""
    name = card_name(card)
    extra = " oracle-card--marked" if marked else ""
    if card < len(CARDS):
        colour = Colour(card // 9).label
        return Markup(
            f'<span class="oracle-card oracle-card--{colour}{extra}" title="{escape(name)}">'
            f'<span class="oracle-value">{card % 9 + 1}</span>'
            f'<span class="oracle-code">{COLOUR_CODES[colour]}</span></span>'
        )
    return Markup(
        f'<span class="oracle-card oracle-card--tactic{extra}" title="{escape(name)}">'
        f"{escape(TACTIC_TITLES[name])}</span>"
    )


def _cards(cards: tuple[Card, ...], capacity: int, marked: frozenset[Card] = frozenset()) -> str:
    shown: list[str] = [card_html(card, marked=card in marked) for card in cards]
    shown += ['<span class="oracle-card oracle-card--empty"></span>'] * (capacity - len(cards))
    return "".join(shown)


def _names(cards: tuple[Card, ...]) -> str:
    return ", ".join(card_name(card) for card in cards) or "none"


def _side_words(cards: tuple[Card, ...], capacity: int) -> str:
    if not cards:
        return "empty"
    state = "complete" if len(cards) == capacity else f"{len(cards)} of {capacity}"
    return f"{_names(cards)} ({state})"


def stone_words(number: int, stone: StoneState, viewer: Player, claimed: bool) -> str:
    """One stone in words, as the screen reader reads it."""
    notes = []
    if claimed:
        notes.append("the stone claimed in this case")
    notes += [TACTIC_TITLES[mode.label] for mode in sorted(stone.modes, key=lambda m: m.label)]
    if stone.claimed_by is not None:
        notes.append("held by you" if stone.claimed_by is viewer else "held by them")
    head = f"Stone {number}" + (f" ({'; '.join(notes)})" if notes else "")
    if not stone.sides[0] and not stone.sides[1]:
        return f"{head}: empty."
    return (
        f"{head}: your side {_side_words(stone.sides[viewer], stone.capacity)};"
        f" their side {_side_words(stone.sides[viewer.other], stone.capacity)}."
    )


def board_html(
    position: Position,
    *,
    claimed: tuple[int, ...] = (),
    witness: frozenset[Card] = frozenset(),
    their_hand: tuple[Card, ...] | None = None,
) -> Markup:
    """The nine stones in order, their side above and yours below, then hands and discards.

    ``claimed`` stones are outlined; ``witness`` cards are marked where they appear (in your
    hand, say, when your own card is the one that refutes the claim). A legend explains both.
    """
    me, them = position.viewer, position.viewer.other
    columns = []
    for number, stone in zip(STONES, position.stones, strict=True):
        classes = "oracle-stone" + (" oracle-stone--claimed" if number in claimed else "")
        owner = {None: "", me: "held by you", them: "held by them"}[stone.claimed_by]
        modes = "".join(
            f'<span class="oracle-mode">{escape(TACTIC_TITLES[mode.label])}</span>'
            for mode in sorted(stone.modes, key=lambda mode: mode.label)
        )
        columns.append(
            f'<div class="{classes}" data-stone="{number}">'
            f'<div class="oracle-side oracle-side--them">'
            f"{_cards(stone.sides[them], stone.capacity, witness)}</div>"
            f'<div class="oracle-stone-label"><strong>{number}</strong>{modes}'
            f'<span class="oracle-owner">{escape(owner)}</span></div>'
            f'<div class="oracle-side oracle-side--you">'
            f"{_cards(stone.sides[me], stone.capacity)}</div>"
            "</div>"
        )
    lines = [("Your hand", position.hand, witness)]
    if their_hand is not None:
        lines.append(("Their hand", their_hand, frozenset()))
    if position.discards:
        lines.append(("Discards, face up", position.discards, frozenset()))
    words = [
        stone_words(n, s, me, n in claimed) for n, s in zip(STONES, position.stones, strict=True)
    ]
    words += [f"{label}: {_names(cards)}." for label, cards, _ in lines]
    if witness:
        words.append(f"Witness, the completion that beats your side: {_names(tuple(witness))}.")
    legend = [
        "Cards show their value and colour: "
        + ", ".join(f"{code} {colour}" for colour, code in COLOUR_CODES.items())
        + "."
    ]
    if claimed:
        legend.append("An outlined stone is the one claimed.")
    if witness:
        legend.append("A card with a thick outline and a star belongs to the witness.")
    return Markup(
        "".join(
            [
                '<figure class="oracle-board" data-search-exclude>',
                '<div class="oracle-drawing" aria-hidden="true">',
                '<div class="oracle-row-label oracle-row-label--them">Their side</div>',
                f'<div class="oracle-border">{"".join(columns)}</div>',
                '<div class="oracle-row-label oracle-row-label--you">Your side</div>',
                *(_line(label, cards, marked) for label, cards, marked in lines),
                "</div>",
                '<ul class="oracle-sr-only">',
                *(f"<li>{escape(line)}</li>" for line in words),
                "</ul>",
                f'<figcaption class="oracle-legend">{escape(" ".join(legend))}</figcaption>',
                "</figure>",
            ]
        )
    )


def written_board_html(board: WrittenBoard) -> Markup:
    """A board the engine refuses, as its case file writes it: a table of the stones that hold
    anything, then the hands, the discards and the facts of the table, all in words.

    It is not drawn like :func:`board_html`, which needs a position the engine accepts; nothing
    in it is judged, so it reads the same whatever is wrong with the board.
    """
    rows = []
    for stone in board.stones:
        notes = [TACTIC_TITLES.get(mode, mode) for mode in stone.modes]
        if stone.completed_first is not None:
            notes.append(f"completed first: {PLAYER_WORDS[stone.completed_first]}")
        if stone.claimed_by is not None:
            notes.append(f"held by {PLAYER_WORDS[stone.claimed_by]}")
        cells = (_names(stone.you), _names(stone.them), "; ".join(notes) or "none")
        rows.append(
            f'<tr><th scope="row">{stone.number}</th>'
            + "".join(f"<td>{escape(cell)}</td>" for cell in cells)
            + "</tr>"
        )
    lines = [("Your hand", _names(board.hand))]
    if board.their_hand is not None:
        lines.append(("Their hand", _names(board.their_hand)))
    if board.discards:
        lines.append(("Discards, face up", _names(board.discards)))
    if board.jokers_played:
        lines.append(
            ("Jokers played and gone", ", ".join(PLAYER_WORDS[p] for p in board.jokers_played))
        )
    lines += list(board.table)
    table = (
        [
            "<table>",
            "<caption>The stones as the case file writes them</caption>",
            '<thead><tr><th scope="col">Stone</th><th scope="col">Your side</th>'
            '<th scope="col">Their side</th><th scope="col">Also</th></tr></thead>',
            f"<tbody>{''.join(rows)}</tbody>",
            "</table>",
        ]
        if rows
        else ["<p>The case file lists no stone: every stone is empty.</p>"]
    )
    return Markup(
        "".join(
            [
                '<div class="oracle-written-board" data-search-exclude>',
                *table,
                "<ul>",
                *(f"<li>{escape(label)}: {escape(value)}</li>" for label, value in lines),
                "</ul>",
                "</div>",
            ]
        )
    )


def _line(label: str, cards: tuple[Card, ...], marked: frozenset[Card]) -> Markup:
    shown = "".join(card_html(card, marked=card in marked) for card in cards) or "none"
    return Markup(
        f'<div class="oracle-line"><span class="oracle-line-label">{escape(label)}:</span>'
        f" {shown}</div>"
    )


__all__ = ["COLOUR_CODES", "board_html", "card_html", "stone_words", "written_board_html"]
