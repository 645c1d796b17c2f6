"""Whether a position can arise in a game still being played, beyond the constructor's checks.

:class:`~engine.proof.position.Position` refuses what can never lie on a table (a card twice, a side
over capacity). A case or a table built by hand can still describe a board that no game reaches
while play goes on: a stone held by a player who could never have proved it, a player who has
already won, a Joker nobody can have played, a hand over its size between turns. These checks
cost a claim proof per claimed stone, so they run where a position is written by hand (the case
loader, :meth:`engine.game.interface.GameState.from_table`), not on every position the game builds.
"""

from __future__ import annotations

from engine.cards.card import card_name, is_clan_card
from engine.cards.tactics import ELITE_TROOPS, JOKERS, TACTICS_MASK, Tactic
from engine.proof.claims import claim_verdict
from engine.proof.pieces import STONES, HandTooLarge, Player, PositionError, who, whose
from engine.proof.position import Position

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Protocol

    from engine.cards.card import Card
    from engine.proof.pieces import _Stone

    class _Board(Protocol):
        """A board as both a position and a game state show it."""

        @property
        def stones(self) -> Sequence[_Stone]: ...
        @property
        def discards(self) -> Sequence[Card]: ...


class UnprovableClaim(PositionError):
    """A stone held by a player who could never have proved it."""


class GameAlreadyWon(PositionError):
    """A player holds five stones or three adjacent ones: the game would be over."""


class UnplayedJoker(PositionError):
    """A Joker face up that no player can have played (one Joker a player, ever)."""


class UnexplainedDiscard(PositionError):
    """Discards that no ruse lying there can have made: a card with no Banshee or Strategist
    to have put it there, or a Banshee without its victim."""


class OverTheTacticLimit(PositionError):
    """More Tactic cards played by one player than the tactic limit lets them play."""


def has_won(held: set[int] | frozenset[int]) -> bool:
    """Whether these stones win: five of them, or three adjacent ones."""
    return len(held) >= 5 or any(three <= held for three in _ADJACENT_THREES)


_ADJACENT_THREES = tuple(frozenset({n, n + 1, n + 2}) for n in range(1, 8))
"""Every three adjacent stones."""


def stones_held(position: Position, player: Player) -> tuple[int, ...]:
    """The stones ``player`` holds in ``position``."""
    return tuple(
        number
        for number, stone in zip(STONES, position.stones, strict=True)
        if stone.claimed_by is player
    )


def reachability_problems(position: Position) -> list[PositionError]:
    """Every reason ``position`` cannot be a moment of a game still going on, in board order.

    The position is taken between turns or within one (never in the middle of a Recruiter), so
    a hand holds at most the hand size. A claimed stone must still be provable by its holder: a
    claimed stone never changes and cards only ever become face up, so a proof that fails now
    failed when the stone was claimed.

        >>> from engine import Player, Position, StoneState, parse_cards, reachability_problems
        >>> sides = (parse_cards("red 1, red 2, red 3"), parse_cards("blue 7, blue 8"))
        >>> claimed = Position.from_stones({2: StoneState(sides=sides, claimed_by=Player.A)})
        >>> reachability_problems(Position())
        []
        >>> [str(error) for error in reachability_problems(claimed)]
        ['stone 2 is claimed by you, who could never have proved it: they could still add ...']
    """
    problems: list[PositionError] = []
    if len(position.hand) > position.variant.hand_size:
        problems.append(
            HandTooLarge(
                f"a hand of {len(position.hand)} cards, but a hand in the"
                f" {position.variant.name} game holds at most {position.variant.hand_size}",
                part="hand",
            )
        )
    problems += _claimed_stone_problems(position)
    for player in Player:
        held = stones_held(position, player)
        if has_won(set(held)):
            winning = "five stones" if len(held) >= 5 else "three adjacent stones"
            stones = ", ".join(map(str, held))
            problems.append(
                GameAlreadyWon(
                    f"{who(player, position.viewer)} already hold {winning} ({stones}):"
                    " that game is over, so nothing more can be asked of it",
                    stone=held[-1],
                    part="claimed_by",
                )
            )
    for check in (joker_problem, discard_problem, tactic_limit_problem):
        problem = check(position)
        if problem is not None:
            problems.append(problem)
    return problems


def _claimed_stone_problems(position: Position) -> list[PositionError]:
    problems: list[PositionError] = []
    for number, stone in zip(STONES, position.stones, strict=True):
        holder = stone.claimed_by
        if holder is None:
            continue
        open_stone = stone.replace(claimed_by=None)
        stones = tuple(
            open_stone if n == number else other
            for n, other in zip(STONES, position.stones, strict=True)
        )
        as_holder = position.replace(stones=stones, hand=(), viewer=holder)
        verdict = claim_verdict(as_holder, number)
        if not verdict.granted:
            problems.append(
                UnprovableClaim(
                    f"stone {number} is claimed by {'you' if holder is Player.A else 'them'},"
                    " who could never have proved it"
                    + ("" if holder is Player.A else " (seen from their side)")
                    + f": {verdict.explanation}",
                    stone=number,
                    part="claimed_by",
                )
            )
    return problems


def joker_problem(position: Position) -> PositionError | None:
    """Each player plays at most one Joker, ever: the discarded ones need players to own them."""
    discarded = sum(card in JOKERS for card in position.discards)
    on_sides = {player for player in Player if position.jokers_on_border(player)}
    gone = set(position.jokers_played) - on_sides
    if discarded == len(gone):
        return None
    if discarded > len(gone):
        named = (
            ", ".join(who(p, position.viewer) for p in sorted(position.jokers_played)) or "nobody"
        )
        return UnplayedJoker(
            f"{discarded} Joker{'s lie' if discarded > 1 else ' lies'} in the discards, but"
            f" jokers_played names {named}, and a player whose Joker is still on their side"
            " cannot have played another: name who played each discarded Joker",
            part="jokers_played",
        )
    return UnplayedJoker(
        f"jokers_played names {len(gone)} player{'s' if len(gone) > 1 else ''} whose Joker left"
        f" the border, but {discarded} Joker{'s lie' if discarded != 1 else ' lies'} in the"
        " discards",
        part="jokers_played",
    )


def discard_problem(position: Position) -> PositionError | None:
    """A ruse goes to the discards once carried out; any other card only through a ruse there:
    a Banshee discards one card of the opponent's side, a Strategist may discard one of its
    player's own, and a Banshee always takes a card (a ruse needs a target)."""
    discards = position.discards
    banshees = discards.count(Tactic.BANSHEE)
    strategists = discards.count(Tactic.STRATEGIST)
    taken = [card for card in discards if is_clan_card(card) or card in ELITE_TROOPS]
    if len(taken) > banshees + strategists:
        names = ", ".join(card_name(card) for card in taken)
        ruses = " and ".join(
            name
            for name, count in (("the Banshee", banshees), ("the Strategist", strategists))
            if count
        )
        return UnexplainedDiscard(
            f"{len(taken)} card{'s' if len(taken) != 1 else ''} in the discards ({names}) that"
            " only a Banshee or a Strategist can put there, one card each, but the discards"
            + (f" hold only {ruses}" if ruses else " hold neither"),
            part="discards",
        )
    if banshees > len(taken):
        return UnexplainedDiscard(
            "the Banshee lies in the discards without its victim: it discards a card of the"
            " opponent's side, which must lie there too",
            part="discards",
        )
    return None


def tactic_cards_face_up(board: _Board) -> int:
    """The Tactic cards a board shows: ruses and elite troops in the discards, combat modes on
    their stones, elite troops on the sides. Each was played, and stays face up."""
    return sum(TACTICS_MASK >> card & 1 for card in board.discards) + sum(
        len(stone.modes) + sum(card in ELITE_TROOPS for side in stone.sides for card in side)
        for stone in board.stones
    )


def elite_troops_on_side(board: _Board, player: Player) -> int:
    """The elite troops on ``player``'s side of the border: each one theirs, since the Traitor
    takes Clan cards only."""
    return sum(card in ELITE_TROOPS for stone in board.stones for card in stone.sides[player])


def tactic_limit_problem(position: Position) -> PositionError | None:
    """Whatever the case says of the counts, the Tactic cards face up were played under the
    tactic limit, which keeps the two players' counts at most one apart. An elite troop on a
    side was played by that side's player (the Traitor takes Clan cards only), and so was a
    Joker that has left the border; the rest may be either player's."""
    face_up = tactic_cards_face_up(position)
    most = (face_up + 1) // 2
    for player in Player:
        troops = elite_troops_on_side(position, player)
        gone_joker = player in position.jokers_played and not position.jokers_on_border(player)
        least = troops + gone_joker
        if least > most:
            return OverTheTacticLimit(
                f"{who(player, position.viewer)} have played at least {least} Tactic cards"
                f" (the elite troops on {whose(player, position.viewer)} side"
                + (", and a Joker since gone" if gone_joker else "")
                + f"), so {who(player.other, position.viewer)} have played at most"
                f" {face_up - least} of the {face_up} face up: the tactic limit keeps the two"
                " counts at most one apart",
                part="tactics",
            )
    return None
