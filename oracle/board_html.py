"""A board drawn as HTML for the site: cards in their colours, both sides of each stone.

Plain markup and one stylesheet (``site_src/assets/stylesheets/oracle.css``), no script: the
diagram is part of the page the engine verified, and reads without JavaScript.
"""

from __future__ import annotations

from html import escape

from engine import Card, Player, Position, card_name
from engine.cards import CARDS, Colour

TACTIC_SHORT = {
    "joker": "Joker",
    "spy": "Spy",
    "shield-bearer": "Shield",
    "recruiter": "Recruit",
    "strategist": "Strat",
    "banshee": "Banshee",
    "traitor": "Traitor",
    "mud fight": "Mud",
    "blind-man's bluff": "Bluff",
}


def card_html(card: Card, *, marked: bool = False) -> str:
    """One card: a Clan card shows its value on its colour; a Tactic card its short name."""
    name = card_name(card)
    extra = " oracle-card--marked" if marked else ""
    if card < len(CARDS):
        colour = Colour(card // 9).label
        return (
            f'<span class="oracle-card oracle-card--{colour}{extra}" title="{escape(name)}">'
            f"{card % 9 + 1}</span>"
        )
    return (
        f'<span class="oracle-card oracle-card--tactic{extra}" title="{escape(name)}">'
        f"{escape(TACTIC_SHORT[name])}</span>"
    )


def _cards(cards: tuple[Card, ...], capacity: int, marked: frozenset[Card] = frozenset()) -> str:
    shown = [card_html(card, marked=card in marked) for card in cards]
    shown += ['<span class="oracle-card oracle-card--empty"></span>'] * (capacity - len(cards))
    return "".join(shown)


def board_html(
    position: Position,
    *,
    claimed: tuple[int, ...] = (),
    witness: frozenset[Card] = frozenset(),
    their_hand: tuple[Card, ...] | None = None,
) -> str:
    """The stones that hold anything, your side below and theirs above, then hand and discards.

    ``claimed`` stones are highlighted; ``witness`` cards are marked where they appear (in your
    hand, say, when your own card is the one that refutes the claim).
    """
    me, them = position.viewer, position.viewer.other
    columns = []
    for number, stone in enumerate(position.stones, 1):
        if stone.is_empty and number not in claimed:
            continue
        classes = "oracle-stone" + (" oracle-stone--claimed" if number in claimed else "")
        owner = {None: "", me: "held by you", them: "held by them"}[stone.claimed_by]
        modes = "".join(
            f'<span class="oracle-mode">{escape(mode.label)}</span>'
            for mode in sorted(stone.modes, key=lambda mode: mode.label)
        )
        columns.append(
            f'<div class="{classes}" data-stone="{number}">'
            f'<div class="oracle-side oracle-side--them">'
            f"{_cards(stone.sides[them], stone.capacity, witness)}</div>"
            f'<div class="oracle-stone-label"><strong>{number}</strong>{modes}'
            f'<span class="oracle-owner">{owner}</span></div>'
            f'<div class="oracle-side oracle-side--you">'
            f"{_cards(stone.sides[me], stone.capacity)}</div>"
            "</div>"
        )
    rows = [
        '<div class="oracle-board" role="img" aria-label="The board">',
        '<div class="oracle-row-label">Their side</div>' if columns else "",
        f'<div class="oracle-stones">{"".join(columns)}</div>'
        if columns
        else '<p class="oracle-empty">Every stone is empty.</p>',
        '<div class="oracle-row-label">Your side</div>' if columns else "",
        _line("Your hand", position.hand, witness),
    ]
    if their_hand is not None:
        rows.append(_line("Their hand", their_hand, frozenset()))
    if position.discards:
        rows.append(_line("Discards, face up", position.discards, frozenset()))
    rows.append("</div>")
    return "".join(row for row in rows if row)


def _line(label: str, cards: tuple[Card, ...], marked: frozenset[Card]) -> str:
    shown = "".join(card_html(card, marked=card in marked) for card in cards) or "none"
    return f'<div class="oracle-line"><span class="oracle-line-label">{label}:</span> {shown}</div>'


__all__ = ["Player", "board_html", "card_html"]
