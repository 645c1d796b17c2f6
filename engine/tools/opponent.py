"""A simple computer opponent that decides from its own view only.

It is a player, not a rule: it picks one of the moves the game lists as legal, seeing only what
:meth:`GameState.view` shows its seat (the table, the discards, its own hand and the counts).
It claims every stone it can prove, and otherwise lays the Clan card that best builds a
formation, now and then a Tactic card. Its chance is a seeded generator, never the global one.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations

from engine.cards.card import Card, card_colour, card_value, is_clan_card
from engine.cards.formations import RANK_WEIGHT, side_capacity, strength
from engine.game.interface import Phase, PlayerView
from engine.game.moves import Claim, Deck, Draw, Move, Pass, Play, Return
from engine.proof.claims import claim_verdict

TACTIC_CHANCE = 0.25
"""How often the opponent plays a Tactic card when it could lay a Clan card instead."""


def provable_in_view(view: PlayerView) -> tuple[int, ...]:
    """The stones the player to move can prove from what it sees, by the claim proof."""
    position = view.position
    me = position.viewer
    return tuple(
        number
        for number, stone in enumerate(position.stones, 1)
        if stone.claimed_by is None
        and len(stone.sides[me]) == side_capacity(stone.modes)
        and claim_verdict(position, number).granted
    )


def _promise(cards: Sequence[Card]) -> float:
    """How well Clan cards on one unfinished side fit together: colour, run and value ties."""
    score = 0.0
    clan = [card for card in cards if is_clan_card(card)]
    score += 2.5 * (len(cards) - len(clan))  # an elite troop fits whatever comes
    for first, second in combinations(clan, 2):
        same_colour = card_colour(first) == card_colour(second)
        gap = abs(card_value(first) - card_value(second))
        if same_colour:
            score += 2.0 + (3.0 if 0 < gap <= 2 else 0.0)
        elif gap == 0:
            score += 3.0
        elif gap <= 2:
            score += 1.0
    return score


def _play_score(view: PlayerView, move: Play) -> float:
    """A Clan card's worth at a stone: a strong complete side, or cards that fit together."""
    stone = view.position.stones[move.stone - 1]
    me = view.position.viewer
    side = (*stone.sides[me], move.card)
    capacity = side_capacity(stone.modes)
    value = card_value(move.card) / 10
    if len(side) == capacity:
        return strength(side, stone.modes) / RANK_WEIGHT * 2.5 + value
    return _promise(side) + value - len(stone.sides[me.other]) * 0.2


def _weakest_card(hand: Sequence[Card]) -> Card:
    clan = [card for card in hand if is_clan_card(card)]
    return min(clan, key=card_value) if clan else hand[0]


def choose_move(view: PlayerView, legal: Sequence[Move], rng: random.Random) -> Move:
    """One of ``legal``, chosen from ``view`` alone with ``rng``.
    For example:

        >>> import random
        >>> from engine import Game, choose_move
        >>> state = Game.named("base", seed=1).new_initial_state()
        >>> choose_move(state.view(state.current_player), state.legal_moves(), random.Random(1))
        Play(card=8, stone=2)
    """
    if not legal:
        raise ValueError("no legal move to choose from")
    if view.phase is Phase.CLAIM:
        claim = Claim(provable_in_view(view))
        return claim if claim in legal else legal[0]
    if view.phase is Phase.PLAY:
        return _choose_play(view, legal, rng)
    if view.phase is Phase.RECRUITER_RETURN:
        weakest = Return(_weakest_card(view.position.hand))
        return weakest if weakest in legal else rng.choice(list(legal))
    return _choose_draw(view, legal, rng)


def _choose_play(view: PlayerView, legal: Sequence[Move], rng: random.Random) -> Move:
    """The Clan card that builds best, now and then a Tactic card or a pass."""
    clan_plays = [m for m in legal if isinstance(m, Play) and is_clan_card(m.card)]
    tactics = [m for m in legal if not isinstance(m, Pass) and m not in clan_plays]
    if tactics and (not clan_plays or rng.random() < TACTIC_CHANCE):
        if Pass() in legal and rng.random() < 0.5:
            return Pass()
        return rng.choice(tactics)
    if clan_plays:
        return max(clan_plays, key=lambda move: _play_score(view, move) + rng.random() / 100)
    return legal[0]


def _choose_draw(view: PlayerView, legal: Sequence[Move], rng: random.Random) -> Move:
    """A Clan card while holding a Tactic card (or with no choice), else either deck."""
    draws = [m for m in legal if isinstance(m, Draw)]
    holds_a_tactic = not all(map(is_clan_card, view.position.hand))
    if view.phase is Phase.DRAW and Draw(Deck.CLAN) in draws and (holds_a_tactic or len(draws) < 2):
        return Draw(Deck.CLAN)
    return rng.choice(list(legal))


__all__ = ["TACTIC_CHANCE", "choose_move", "provable_in_view"]
