"""What must hold of every moment of a game, and where every card of it lies.

:func:`invariant_problems` lists every broken invariant of a state in words (each card of the
game in exactly one place, each player's view a position that can exist, Tactic counts that can
be true); the game checks them as it goes, and the oracle at every moment a case reaches. A game
set up from a table (:mod:`engine.game.table`, which names these too) deals its hands and decks
with :func:`hands_and_decks`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.cards.card import Card, card_name
from engine.game.moves import Deck
from engine.game.play_state import PlayState
from engine.proof.pieces import MODE_CARDS, DuplicateCard, Player, face_up_mask, who, whose
from engine.proof.position import Position
from engine.proof.reachable import elite_troops_on_side, joker_problem, tactic_cards_face_up


def invariant_problems(state: PlayState) -> list[str]:
    """Every broken invariant, in words: each card of the game in exactly one place, and each
    player's view a position that can exist (:meth:`Position.status`: no side over capacity,
    one Joker a player on the border, a hand within its size...), and each Joker that has left
    the border remembered as played by its owner."""
    problems = []
    counted: dict[Card, int] = dict.fromkeys(state.variant.cards, 0)
    for card in all_places(state):
        counted[card] = counted.get(card, 0) + 1
    for card, count in counted.items():
        if count != 1:
            problems.append(f"{card_name(card)} is in {count} places")
    if state.face_up != face_up_mask(state.stones, state.discards):
        problems.append("the cards the game counts as face up are not the ones on the table")
    for player in Player:
        if state.room(player) != _room_on_the_table(state, player):
            problems.append(f"the sides with room the game counts for {player.name} are wrong")
        if state.held_mask(player) != _held_on_the_table(state, player):
            problems.append(f"the stones the game counts as {player.name}'s are wrong")
    if state.open_mask() != _held_on_the_table(state, None):
        problems.append("the stones the game counts as open are wrong")
    tactics_problem = tactics_played_problem(state, state.current_player)
    if tactics_problem is not None:
        problems.append(tactics_problem)
    for player in Player:
        position = state.position(player)
        for problem in [*position.status(), joker_problem(position)]:
            if problem is None or isinstance(problem, DuplicateCard):
                continue
            if str(problem) not in problems:
                problems.append(str(problem))
    return problems


def tactics_played_problem(state: PlayState, viewer: Player) -> str | None:
    """Why the count of Tactic cards each player has played cannot be true, in ``viewer``'s
    words, or None. Every Tactic card played stays face up (on a side, on its stone or in the
    discards), elite troops stay on their owner's side unless moved to the discards, and the
    tactic limit keeps the two counts at most one apart."""
    mine, theirs = state.tactics_played[viewer], state.tactics_played[viewer.other]
    if abs(mine - theirs) > 1:
        return (
            f"{mine} Tactic cards against {theirs}: the tactic limit keeps the two counts at"
            " most one apart"
        )
    for player in (viewer, viewer.other):
        troops = elite_troops_on_side(state, player)
        played = state.tactics_played[player]
        if troops > played:
            lie = "elite troops lie" if troops != 1 else "elite troop lies"
            cards = "Tactic card" if played == 1 else "Tactic cards"
            return (
                f"{troops} {lie} on {whose(player, viewer)} side, but {who(player, viewer)} have"
                f" played {played} {cards}"
            )
    face_up = tactic_cards_face_up(state)
    if face_up != mine + theirs:
        lie = "s lie" if face_up != 1 else " lies"
        counted = "is counted" if mine + theirs == 1 else "are counted"
        return (
            f"{face_up} Tactic card{lie} face up, but {mine + theirs} {counted} as played:"
            " every Tactic card played stays face up (on a side, on its stone or in the"
            " discards), so the two must be equal"
        )
    return None


def all_places(state: PlayState) -> Iterable[Card]:
    """Every card of the game where it lies: the hands, the decks, the discards, the stones."""
    yield from state.hands[0]
    yield from state.hands[1]
    for cards in state.decks.values():
        yield from cards
    yield from state.discards
    for stone in state.stones:
        yield from stone.sides[0]
        yield from stone.sides[1]
        for mode in stone.modes:
            yield MODE_CARDS[mode]


def hands_and_decks(
    position: Position,
    their_hand: Sequence[Card],
    clan_deck: Sequence[Card],
    tactic_deck: Sequence[Card],
    has_tactics: bool,
) -> tuple[tuple[list[Card], list[Card]], dict[Deck, list[Card]]]:
    """The hands and the decks of a table (decks given top card first, kept bottom first)."""
    me = position.viewer
    hands: tuple[list[Card], list[Card]] = ([], [])
    hands[me].extend(position.hand)
    hands[me.other].extend(their_hand)
    decks = {Deck.CLAN: list(reversed(clan_deck))}
    if has_tactics:
        decks[Deck.TACTICS] = list(reversed(tactic_deck))
    return hands, decks


def _room_on_the_table(state: PlayState, player: Player) -> int:
    """The open stones where ``player``'s side has room, a mask, read from the table."""
    return sum(
        1 << index
        for index, stone in enumerate(state.stones)
        if stone.claimed_by is None and len(stone.sides[player]) < stone.capacity
    )


def _held_on_the_table(state: PlayState, player: Player | None) -> int:
    """The stones ``player`` holds (None: the open ones), a mask, read from the table."""
    return sum(1 << index for index, stone in enumerate(state.stones) if stone.claimed_by is player)
