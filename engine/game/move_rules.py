"""The rules a move must keep, each defined once: the same rule filters the moves listed as
legal and words the refusal of any other.

A :class:`MoveRule` pairs a rule's id in the rules index with a test of the facts it needs
(:attr:`~MoveRule.holds`) and the words for when they fail it (:attr:`~MoveRule.broken`). Listing
the legal moves (:mod:`engine.game.legality`, :mod:`engine.game.tactic_cards`) keeps a candidate
when the rule holds; explaining a refusal (``why_illegal``) raises the rule's words with
:meth:`~MoveRule.check`, which asks the same test. So a rule cannot change in the one and not in the
other. The test is a plain predicate because listing the moves asks it thousands of times a game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations
from typing import Generic, ParamSpec

from engine.cards.card import Card, card_name, is_clan_card
from engine.cards.tactics import COMBAT_MODE_CARDS, JOKERS
from engine.game.cards_in_play import STONES_IN_MASK
from engine.game.moves import PLAYS, Claim, IllegalMove, Move, Play
from engine.game.play_state import OPPONENT, PlayState
from engine.game.stone_in_play import StoneInPlay
from engine.proof.pieces import STONES, Player

Facts = ParamSpec("Facts")


@dataclass(frozen=True)
class MoveRule(Generic[Facts]):
    """A rule of the rules index (its ``id``): whether some facts keep it, and what is wrong
    when they do not."""

    id: str
    holds: Callable[Facts, bool]
    """Whether the facts keep the rule (a candidate move is listed)."""
    broken: Callable[Facts, str]
    """What the facts break, in words, when they do not keep it."""

    def check(self, move: Move | str, *facts: Facts.args, **named: Facts.kwargs) -> None:
        """Raise :class:`IllegalMove` with the rule's words if the facts break it (``move`` is
        the move refused, or a card's name when no move of it is possible at all)."""
        if not self.holds(*facts, **named):
            raise IllegalMove(move, self.broken(*facts, **named), self.id)


def _within_the_tactic_limit(state: PlayState, player: Player) -> bool:
    return state.tactics_played[player] <= state.tactics_played[OPPONENT[player]]


def _over_the_tactic_limit(state: PlayState, player: Player) -> str:
    mine, theirs = state.tactics_played[player], state.tactics_played[player.other]
    return f"you have played {mine} Tactic cards and your opponent {theirs}"


TACTIC_LIMIT = MoveRule("tactics.limit", _within_the_tactic_limit, _over_the_tactic_limit)
"""A player may play a Tactic card only while they have played no more than their opponent."""


def _first_joker(state: PlayState, player: Player, card: Card) -> bool:
    return card not in JOKERS or player not in state.jokers_played


def _second_joker(state: PlayState, player: Player, card: Card) -> str:
    return "you have already played a Joker"


ONE_JOKER = MoveRule("tactics.one-joker-per-player", _first_joker, _second_joker)
"""Once a player has played a Joker, the other stays in their hand."""


def _a_stone(number: int) -> bool:
    return number in STONES


def _no_such_stone(number: int) -> str:
    return f"there is no stone {number}"


STONE_EXISTS = MoveRule("components.stones", _a_stone, _no_such_stone)
"""The stones are numbered 1 to 9."""


def _stone_open(state: PlayState, number: int) -> bool:
    return state.stones[number - 1].claimed_by is None


def _stone_claimed(state: PlayState, number: int) -> str:
    return f"stone {number} is claimed"


CLAIMED_STONE_CLOSED = MoveRule("claim.claimed-stone-closed", _stone_open, _stone_claimed)
"""No card is laid on a claimed stone, nor taken from it."""
RUSE_TARGETS_OPEN = MoveRule("tactics.ruse-targets", _stone_open, _stone_claimed)
"""A ruse aims at an open stone."""
MUD_FIGHT_ON_OPEN = MoveRule("tactics.mud-fight", _stone_open, _stone_claimed)
BLUFF_ON_OPEN = MoveRule("tactics.blind-mans-bluff", _stone_open, _stone_claimed)


def _room_on_the_side(stone: StoneInPlay, number: int, player: Player) -> bool:
    return len(stone.sides[player]) < stone.capacity


def _side_full(stone: StoneInPlay, number: int, player: Player) -> str:
    return f"your side of stone {number} is full"


ROOM_FOR_A_CARD = MoveRule("turn.play-card", _room_on_the_side, _side_full)
"""A card is played onto a side that has room."""
ROOM_FOR_THE_STRATEGIST = MoveRule("tactics.strategist", _room_on_the_side, _side_full)
ROOM_FOR_THE_TRAITOR = MoveRule("tactics.traitor", _room_on_the_side, _side_full)


def stones_with_room(
    state: PlayState, player: Player, room: MoveRule[[StoneInPlay, int, Player]] = ROOM_FOR_A_CARD
) -> tuple[int, ...]:
    """The open stones where ``player``'s side has room. ``room`` names the rule a move breaks
    without it; every such rule asks :func:`_room_on_the_side`, which the state's mask of the
    sides with room (:meth:`~engine.game.play_state.PlayState.room`, kept by each step) answers
    for all the stones at once."""
    return STONES_IN_MASK[state.room(player)]


def _some_room(state: PlayState, player: Player) -> bool:
    return bool(stones_with_room(state, player))


def _no_room(state: PlayState, player: Player) -> str:
    return "no stone has room on your side"


SOME_STONE_HAS_ROOM = MoveRule("turn.play-card", _some_room, _no_room)
"""A card laid on your side needs an open stone where your side has room."""
TRAITOR_HAS_ROOM = MoveRule("tactics.traitor", _some_room, _no_room)


def _cards_within_reach(state: PlayState, player: Player, clan_only: bool) -> bool:
    return any(
        is_clan_card(card) or not clan_only
        for _, stone in state.open_stones()
        for card in stone.sides[player]
    )


def _no_card_within_reach(state: PlayState, player: Player, clan_only: bool) -> str:
    whose = "your" if player is state.current_player else "their"
    return f"no open stone has a {'Clan card' if clan_only else 'card'} on {whose} side"


STRATEGIST_HAS_A_CARD = MoveRule("tactics.strategist", _cards_within_reach, _no_card_within_reach)
"""The Strategist moves a card of yours from an open stone: there must be one."""
BANSHEE_HAS_A_CARD = MoveRule("tactics.banshee", _cards_within_reach, _no_card_within_reach)
"""The Banshee discards a card of theirs from an open stone: there must be one."""
TRAITOR_HAS_A_CARD = MoveRule("tactics.traitor", _cards_within_reach, _no_card_within_reach)
"""The Traitor takes a Clan card of theirs from an open stone: there must be one."""


def check_open(state: PlayState, move: Move, number: int, rule: MoveRule[[PlayState, int]]) -> None:
    """The stone a move aims at must exist and be open (``rule`` names the rule it breaks)."""
    STONE_EXISTS.check(move, number)
    rule.check(move, state, number)


def check_room(
    state: PlayState, move: Move, number: int, room: MoveRule[[StoneInPlay, int, Player]]
) -> None:
    """A card goes to an open stone where the mover's side has room (``room`` names the rule)."""
    check_open(state, move, number, CLAIMED_STONE_CLOSED)
    room.check(move, state.stones[number - 1], number, state.current_player)


def _not_a_combat_mode(card: Card) -> bool:
    return card not in COMBAT_MODE_CARDS


def _a_combat_mode(card: Card) -> str:
    return f"{card_name(card)} is a combat mode: no ruse can move or remove one"


NOT_A_COMBAT_MODE = MoveRule("tactics.ruse-targets", _not_a_combat_mode, _a_combat_mode)
"""A combat mode lies on the stone, not on a side: no ruse can move or remove it."""


def _not_a_clan_card(card: Card) -> str:
    return "the Traitor takes Clan cards only"


TRAITOR_TAKES_CLAN_CARDS = MoveRule("tactics.traitor", is_clan_card, _not_a_clan_card)


def _another_stone(source: int, target: int | None) -> bool:
    return target != source


def _same_stone(source: int, target: int | None) -> str:
    return "the card must go to another stone"


STRATEGIST_TO_ANOTHER_STONE = MoveRule("tactics.strategist", _another_stone, _same_stone)


def _on_the_side(state: PlayState, number: int, player: Player, card: Card, whose: str) -> bool:
    return card in state.stones[number - 1].sides[player]


def _not_on_the_side(state: PlayState, number: int, player: Player, card: Card, whose: str) -> str:
    return f"{card_name(card)} is not on {whose} side of stone {number}"


STRATEGIST_MOVES_YOURS = MoveRule("tactics.strategist", _on_the_side, _not_on_the_side)
BANSHEE_TAKES_THEIRS = MoveRule("tactics.banshee", _on_the_side, _not_on_the_side)
TRAITOR_TAKES_THEIRS = MoveRule("tactics.traitor", _on_the_side, _not_on_the_side)


def clan_plays(state: PlayState, player: Player) -> tuple[Play, ...]:
    """Each Clan card in ``player``'s hand to each open stone where their side has room: the
    plays the pass rule asks about, and the first of the legal moves, worked out once a step."""
    return state.derived(_CLAN_PLAYS[player], clan_plays_now, state, player)


_CLAN_PLAYS = (("clan plays", Player.A), ("clan plays", Player.B))
"""The keys each player's Clan plays are kept under (:meth:`PlayState.derived`)."""


def clan_plays_now(state: PlayState, player: Player) -> tuple[Play, ...]:
    """:func:`clan_plays` worked out afresh, not kept: for the listing, itself kept."""
    room, rows = state.room(player), CLAN_PLAYS_TO
    plays: list[Play] = []
    for card in state.hands[player]:
        block = rows[card][room]
        plays += block if block is not None else plays_to(card, room)
    return tuple(plays)


def plays_to(card: Card, stones: int) -> tuple[Play, ...]:
    """The plays of ``card`` to each stone of the mask ``stones`` (stone ``n`` is bit ``n - 1``),
    in order: the same tuple each time, made the first time it is asked."""
    block = _PLAYS_TO[card][stones]
    if block is None:
        block = tuple(map(PLAYS[card].__getitem__, STONES_IN_MASK[stones]))
        _PLAYS_TO[card][stones] = block
        if is_clan_card(card):
            CLAN_PLAYS_TO[card][stones] = block
    return block


_PLAYS_TO: list[list[tuple[Play, ...] | None]] = [[None] * (1 << len(STONES)) for _ in range(64)]
""":func:`plays_to` of each card number and mask of stones, once asked."""
CLAN_PLAYS_TO: list[list[tuple[Play, ...] | None]] = [
    [None if is_clan_card(card) else ()] * (1 << len(STONES)) for card in range(64)
]
""":func:`plays_to` of a Clan card, once asked, and no plays for a Tactic card: a hand's Clan
plays are its cards' plays to the stones with room, one card after another."""


def claims_of(provable: tuple[int, ...]) -> tuple[Claim, ...]:
    """The claims a claim step allows when ``provable`` are the stones provable: every subset,
    the largest first, made once for each set of stones."""
    claims = _CLAIMS.get(provable)
    if claims is None:
        claims = _CLAIMS[provable] = tuple(
            Claim(stones)
            for size in range(len(provable), -1, -1)
            for stones in combinations(provable, size)
        )
    return claims


_CLAIMS: dict[tuple[int, ...], tuple[Claim, ...]] = {}


def _no_clan_card_fits(state: PlayState, player: Player) -> bool:
    return not clan_plays(state, player)


def _a_clan_card_fits(state: PlayState, player: Player) -> str:
    return "you can still play a Clan card"


def pass_rule(state: PlayState) -> MoveRule[[PlayState, Player]]:
    """When a player may pass: no Clan card of theirs fits anywhere. The variant names the rule
    (in the tactics variant a player holding only Tactic cards may pass too)."""
    return MoveRule(state.variant.pass_rule, _no_clan_card_fits, _a_clan_card_fits)


def may_pass(state: PlayState, player: Player | None = None) -> bool:
    """Whether ``player`` (the current one by default) may pass."""
    return _no_clan_card_fits(state, state.current_player if player is None else player)


def someone_can_go_on(state: PlayState) -> bool:
    """Whether a player, judged on the hands as they are now, must play or can prove a stone.

    A player who may pass (no Clan card fits anywhere) cannot go on, even holding a Tactic card
    they could play: passing instead is their right, so the game cannot wait on it.
    """
    return any(not may_pass(state, player) or state.provable_stones(player) for player in Player)


__all__ = [
    "BANSHEE_HAS_A_CARD",
    "BANSHEE_TAKES_THEIRS",
    "BLUFF_ON_OPEN",
    "CLAIMED_STONE_CLOSED",
    "CLAN_PLAYS_TO",
    "MUD_FIGHT_ON_OPEN",
    "NOT_A_COMBAT_MODE",
    "ONE_JOKER",
    "ROOM_FOR_A_CARD",
    "ROOM_FOR_THE_STRATEGIST",
    "ROOM_FOR_THE_TRAITOR",
    "RUSE_TARGETS_OPEN",
    "SOME_STONE_HAS_ROOM",
    "STONE_EXISTS",
    "STRATEGIST_HAS_A_CARD",
    "STRATEGIST_MOVES_YOURS",
    "STRATEGIST_TO_ANOTHER_STONE",
    "TACTIC_LIMIT",
    "TRAITOR_HAS_A_CARD",
    "TRAITOR_HAS_ROOM",
    "TRAITOR_TAKES_CLAN_CARDS",
    "TRAITOR_TAKES_THEIRS",
    "MoveRule",
    "check_open",
    "check_room",
    "claims_of",
    "clan_plays",
    "clan_plays_now",
    "may_pass",
    "pass_rule",
    "plays_to",
    "someone_can_go_on",
    "stones_with_room",
]
