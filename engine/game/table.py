"""A game set up from a table (a position, the hands, the decks and the facts of the turn); the
invariants every state of a game keeps are :mod:`engine.game.invariants`, named here too.

A table states every fact the game needs to go on exactly as a real game would, or
:class:`TableError` says which one is missing or cannot be true. Its errors are typed: the fact
at fault (:class:`TableFact`) and, where it applies, the stone and the part of the position, so
that whoever wrote the table (a case file, a test) can point at it in its own terms.
"""

from __future__ import annotations

from engine.cards.card import is_clan_card
from engine.cards.tactics import Tactic
from engine.frozen import IdentityEnum
from engine.game.invariants import (
    all_places,
    hands_and_decks,
    invariant_problems,
    tactics_played_problem,
)
from engine.game.move_rules import may_pass, someone_can_go_on, stones_with_room
from engine.game.play_state import Phase, PlayState
from engine.proof.pieces import STONES, Player, PositionError, who, whose
from engine.proof.position import Position
from engine.proof.reachable import (
    reachability_problems,
)


class TableFact(IdentityEnum):
    """A fact of a table that the board cannot show, which a :class:`TableError` is about.
    For example:

        >>> from engine import TableFact
        >>> TableFact.IDLE_TURNS, TableFact.IDLE_TURNS.value
        (<TableFact.IDLE_TURNS: 'the idle turns before this one'>, 'the idle turns before this one')
    """

    COMPLETION_ORDER = "who completed each complete stone first"
    STEP = "the step of the turn"
    PASSED = "whether you passed instead of playing"
    COULD_CLAIM = "whether a stone was provable at this turn's claim step"
    IDLE_TURNS = "the idle turns before this one"
    TACTICS_PLAYED = "the Tactic cards each player has played"


class TableError(PositionError):
    """A table that cannot be a game: a card missing or in two places, a fact of the turn unsaid
    or impossible. ``fact`` names the fact at fault, if one is, and ``missing`` says the table
    must state it (the board cannot show it); ``stone`` and ``part`` the place on the board, as
    for a position.

        >>> from engine import CARDS, Game, GameState, Position, TableError
        >>> seen = Position.from_stones({}, hand=CARDS[:6])
        >>> table = dict(their_hand=CARDS[6:12], clan_deck=CARDS[12:], idle_turns=-1)
        >>> try: GameState.from_table(Game.named("base"), seen, **table)
        ... except TableError as error: print(error.fact, error)
        TableFact.IDLE_TURNS there cannot be -1 idle turns
    """

    def __init__(
        self,
        message: str,
        *,
        fact: TableFact | None = None,
        missing: bool = False,
        stone: int | None = None,
        part: str | None = None,
    ) -> None:
        super().__init__(message, stone=stone, part=part)
        self.fact = fact
        self.missing = missing


def set_up(
    state: PlayState,
    position: Position,
    tactics_played: tuple[int, int],
    phase: Phase | None,
) -> None:
    """Lay the position's board, discards and counts into a new ``state`` at the viewer's turn;
    :class:`TableError` for a board no game in progress reaches."""
    state.current_player = position.viewer
    state.discards = list(position.discards)
    state.tactics_played = list(tactics_played)
    _lay_stones(state, position)
    state.changed()  # the cards face up, from the board as laid
    state.jokers_played = {p for p in Player if position.has_played_joker(p)}
    state.phase = phase or (Phase.CLAIM if state.game.expert else Phase.PLAY)
    if state.phase not in (Phase.PLAY, Phase.CLAIM, Phase.DRAW):
        raise TableError(
            f"a table starts at the play, claim or draw step, not the {state.phase.value} step",
            fact=TableFact.STEP,
        )
    reachable = reachability_problems(position)
    if reachable:
        raise reachable[0]
    problem = tactics_played_problem(state, position.viewer)
    if problem is not None:
        raise TableError(problem, fact=TableFact.TACTICS_PLAYED)
    problems = invariant_problems(state)
    if problems:
        raise TableError("; ".join(problems))


def _lay_stones(state: PlayState, position: Position) -> None:
    """Each stone's cards, modes and owner, completed sides in the order they were completed."""
    clock = 0
    for number, stone, seen in zip(STONES, state.stones, position.stones, strict=True):
        stone.modes = set(seen.modes)
        stone.refit()
        stone.claimed_by = seen.claimed_by
        complete = all(seen.is_complete(p) for p in Player)
        if seen.claimed_by is None and seen.completed_first is None and complete:
            raise TableError(
                f"stone {number}: both sides are complete, so the game needs to know who"
                " completed first",
                fact=TableFact.COMPLETION_ORDER,
                missing=True,
                stone=number,
            )
        first = seen.completed_first
        for player in (first, first.other) if first is not None else tuple(Player):
            stone.sides[player].extend(seen.sides[player])
            if len(seen.sides[player]) == stone.capacity:
                clock += 1
                stone.completed_at[player] = clock
    state.clock = clock


# ------------------------------------------------------------------ the turn so far


def turn_so_far(
    state: PlayState, played: bool | None, could_claim: bool | None, idle: int | None
) -> tuple[bool, bool, int]:
    """Check or derive the facts of the turn in progress that a table cannot show: whether
    the player played (or passed), could claim, and how many idle turns came before."""
    expert = state.game.expert
    play_done = state.phase is Phase.DRAW or (state.phase is Phase.CLAIM and not expert)
    claim_done = state.phase is Phase.DRAW or (state.phase is Phase.PLAY and expert)
    played = _played(state, played, play_done)
    _hand_sizes(state, play_done and played)
    _cards_laid(state, play_done and played)
    could_claim = _could_claim(state, could_claim, claim_done, play_done and played)
    idle = _idle_turns(state, idle, play_done and played, could_claim)
    return played, could_claim, idle


def _hand_sizes(state: PlayState, played_card: bool) -> None:
    """Every turn ends with a draw up to the hand size while a deck holds a card, and decks
    only shrink (but for a Recruiter, which puts cards back): so a hand below its size beside
    a deck to draw from cannot be, save yours by the card you have just played."""
    if not state.drawable() or (state.variant.has_tactics and Tactic.RECRUITER in state.discards):
        return
    me = state.current_player
    size = state.variant.hand_size
    decks = "the Clan deck holds" if not state.variant.has_tactics else "a deck holds"
    for player in (me, me.other):
        least = size - (player is me and played_card)
        held = len(state.hands[player])
        if held < least:
            after = " after the card you have just played" if least < size else ""
            raise TableError(
                f"{whose(player, me)} hand holds {held} card{'s' if held != 1 else ''}, but"
                f" {decks} cards, so every turn has ended with a draw back to {size}: it holds"
                f" at least {least}{after}",
                part="hand" if player is me else "their_hand",
            )


def _cards_laid(state: PlayState, played_card: bool) -> None:
    """In the base game cards never leave a side, so a player with room who holds a card never
    passed: they laid a card on every turn. Turns alternate, so the cards each player has laid
    can differ only as far as who started (and your play this turn) allows."""
    if state.variant.has_tactics:
        return
    me = state.current_player
    laid = {p: sum(len(stone.sides[p]) for stone in state.stones) for p in Player}
    this_turn = int(played_card)
    never_passed = {p: bool(state.hands[p]) and bool(stones_with_room(state, p)) for p in Player}
    problem: str | None
    # Before this turn you have had as many turns as they, or one fewer if they started.
    if never_passed[me.other] and laid[me] > laid[me.other] + this_turn:
        problem = (
            f"you have laid {laid[me]} cards and they {laid[me.other]}, but they hold cards"
            " and have room, so they never passed: they laid a card on each of their turns,"
            " and you have had no more turns than they"
            + (" (this one included, one more)" if this_turn else "")
        )
    elif never_passed[me] and laid[me.other] > laid[me] - this_turn + 1:
        problem = (
            f"they have laid {laid[me.other]} cards and you {laid[me]}, but you hold cards and"
            " have room, so you never passed: you laid a card on each of your turns, and they"
            " have had at most one turn more than you"
        )
    else:
        problem = _draws_problem(state, laid)
    if problem is not None:
        raise TableError(problem, part="stones")


def _draws_problem(state: PlayState, laid: dict[Player, int]) -> str | None:
    """A player with room now always had it (cards never leave a side in the base game), so
    while the deck held cards they never passed: they drew on each of their turns, and the other
    player, whose turns alternate with theirs, drew at most once more. What each has drawn is
    on the board: the cards laid and held, less the six dealt."""
    me = state.current_player
    size = state.variant.hand_size
    drawn = {p: laid[p] + len(state.hands[p]) - size for p in Player}
    for player in (me, me.other):
        other = player.other
        if stones_with_room(state, player) and drawn[other] > drawn[player] + 1:
            return (
                f"{who(other, me)} have drawn {drawn[other]} cards and {who(player, me)}"
                f" {drawn[player]} (the cards each has laid and holds, less the {size} dealt),"
                f" but {who(player, me)} have room, so {who(player, me)} never passed while the"
                f" deck held cards and drew on each turn: {who(other, me)} can have drawn at"
                " most one card more"
            )
    return None


def _played(state: PlayState, played: bool | None, play_done: bool) -> bool:
    me = state.current_player
    if not play_done and played is not None:
        expert = " of the expert variant" if state.game.expert else ""
        raise TableError(
            f"at the {state.phase.value} step{expert} you have not played yet, so there is"
            " nothing to say about it",
            fact=TableFact.PASSED,
        )
    played = play_done if played is None else played
    recruited = state.variant.has_tactics and Tactic.RECRUITER in state.discards
    full = len(state.hands[me]) >= state.variant.hand_size
    if play_done and played and full and not recruited:
        raise TableError(
            f"you have played a card this turn, so your hand holds at most"
            f" {state.variant.hand_size - 1} cards until the draw",
            fact=TableFact.PASSED,
            missing=True,
            part="hand",
        )
    if play_done and not played and not may_pass(state, me):
        raise TableError(
            "you cannot have passed: you hold a Clan card that has room on your side",
            fact=TableFact.PASSED,
        )
    return played


def _could_claim(
    state: PlayState, could_claim: bool | None, claim_done: bool, played_card: bool
) -> bool:
    me = state.current_player
    # Under expert timing a card played after the claim step may have made a stone provable
    # since; the turn is not idle then, so the claim step no longer matters.
    played_since_claim = state.game.expert and played_card
    provable_now = bool(claim_done and not played_since_claim and state.provable_stones(me))
    if not claim_done:
        if could_claim is not None:
            raise TableError(
                f"this turn's claim step is still to come at the {state.phase.value} step, so"
                " there is nothing to say about it",
                fact=TableFact.COULD_CLAIM,
            )
        return False
    if played_since_claim:
        return bool(could_claim)
    if could_claim is None:
        if not provable_now and state.stones_held(me):
            raise TableError(
                "this turn's claim step is over and the board does not show whether you could"
                " prove a stone there (you hold stones you may have just claimed)",
                fact=TableFact.COULD_CLAIM,
                missing=True,
            )
        return provable_now
    if provable_now and not could_claim:
        raise TableError(
            "the table says no stone was provable at this turn's claim step, but one is"
            " provable now, so it was then too",
            fact=TableFact.COULD_CLAIM,
        )
    return could_claim


def _idle_turns(state: PlayState, idle: int | None, played_card: bool, could_claim: bool) -> int:
    them = state.current_player.other
    they_may_have_passed = may_have_passed(state, them, played_card)
    if idle is None:
        if they_may_have_passed:
            raise TableError(
                "they may have passed on their last turn, and the board does not show it",
                fact=TableFact.IDLE_TURNS,
                missing=True,
            )
        idle = 0
    elif idle < 0:
        raise TableError(f"there cannot be {idle} idle turns", fact=TableFact.IDLE_TURNS)
    elif idle > 0 and not they_may_have_passed:
        reason = (
            "their hand is empty while a deck still holds cards, so they would have drawn"
            if not state.hands[them]
            else "they hold Clan cards and have room for them"
        )
        turns = "turn" if idle == 1 else "turns"
        raise TableError(
            f"{idle} idle {turns} before this one, but they cannot have passed on their last"
            f" turn: {reason}",
            fact=TableFact.IDLE_TURNS,
        )
    if idle >= 2 and not (played_card or could_claim) and not someone_can_go_on(state):
        raise TableError(
            f"after {idle} idle turns in a row with nobody able to go on, the game would"
            " already be over",
            fact=TableFact.IDLE_TURNS,
        )
    return idle


def may_have_passed(state: PlayState, player: Player, after_a_play: bool) -> bool:
    """Whether ``player``'s last turn, just before this one, may have been a pass.

    A pass is followed by the usual draw, so an empty hand beside a deck to draw from rules it
    out. In the base game a pass needs an empty hand or no room, neither of which a later turn
    undoes. In the tactics variant the card drawn after the pass may be the one Clan card they
    hold now, and a ruse or Mud Fight just played may have made them room.
    """
    hand = state.hands[player]
    if not hand and state.drawable() and not after_a_play:  # a Recruiter refills the decks
        return False
    if not state.variant.has_tactics:
        return may_pass(state, player)
    clan_cards = sum(map(is_clan_card, hand))
    return not stones_with_room(state, player) or clan_cards <= 1 or after_a_play


__all__ = [
    "TableError",
    "TableFact",
    "all_places",
    "hands_and_decks",
    "invariant_problems",
    "may_have_passed",
    "set_up",
    "tactics_played_problem",
    "turn_so_far",
]
