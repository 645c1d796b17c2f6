"""Random positions from an explicit, seeded generator, for the benchmarks.

Chance is always passed in (a ``random.Random``), never taken from the global ``random`` module,
so every position can be made again from its seed. The tests draw the same kinds of positions
with hypothesis instead (``tests/strategies.py``), so that a failure shrinks to a small board.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence

from engine import (
    CARDS,
    JOKERS,
    STONES,
    Card,
    CombatMode,
    Player,
    Position,
    StoneState,
    Tactic,
    side_capacity,
    strength,
    variant_named,
)


def random_claim_position(
    rng: random.Random,
    *,
    modes: Collection[CombatMode] = (),
    claimed_stone: int | None = None,
    table_cards: tuple[int, int] = (0, 40),
    mine: Sequence[Card] | None = None,
    theirs_count: int | None = None,
    tactics: bool = False,
) -> tuple[Position, int]:
    """A random position in which the viewer (player A) may claim the returned stone.

    The claimed stone carries ``modes`` (which makes the position a tactics one); other stones hold
    random cards, between ``table_cards`` in number, and some are already claimed. The viewer's
    side of the claimed stone is usually complete, the opponent's side anything from empty to full.
    ``mine`` and ``theirs_count`` fix the viewer's cards and the size of the opponent's side.
    """
    deck: list[Card] = [card for card in CARDS if mine is None or card not in mine]
    rng.shuffle(deck)
    stone = claimed_stone if claimed_stone is not None else rng.choice(STONES)
    capacity = side_capacity(modes)
    if mine is None:
        mine_count = capacity if rng.random() < 0.85 else rng.randrange(capacity)
        mine, deck = deck[:mine_count], deck[mine_count:]
    if theirs_count is None:
        theirs_count = rng.randint(0, capacity)
    mine_count = len(mine)
    theirs, rest = tuple(deck[:theirs_count]), deck[theirs_count:]
    completed_first = None
    if mine_count == theirs_count == capacity:
        completed_first = rng.choice(list(Player))
    stones = {
        stone: StoneState(
            sides=(tuple(mine), theirs), completed_first=completed_first, modes=frozenset(modes)
        )
    }
    others = [number for number in STONES if number != stone]
    sides: dict[int, list[list[Card]]] = {number: [[], []] for number in others}
    for _ in range(rng.randint(*table_cards)):
        number, player = rng.choice(others), rng.randrange(2)
        if len(sides[number][player]) < 3:
            sides[number][player].append(rest.pop())
    for number, (side_a, side_b) in sides.items():
        claimed_by = rng.choice([None, None, None, Player.A, Player.B])
        complete = len(side_a) == len(side_b) == 3
        tie = complete and strength(side_a) == strength(side_b)
        stones[number] = StoneState(
            sides=(tuple(side_a), tuple(side_b)),
            completed_first=rng.choice(list(Player)) if tie else None,
            claimed_by=claimed_by,
        )
    variant = variant_named("tactics" if modes or tactics else "base")
    hand = tuple(rest[: rng.randint(0, variant.hand_size - 1)])
    return Position.from_stones(stones, hand=hand, variant=variant), stone


def random_tactics_claim_position(
    rng: random.Random, *, table_cards: tuple[int, int] = (30, 46)
) -> tuple[Position, int]:
    """A random tactics-variant position for a claim, with combat modes and elite troops.

    The claimed stone may carry either combat mode or both; each elite troop lies on a side (at
    most one Joker a player), in the discards, in the viewer's hand or unseen.
    """
    modes = [mode for mode in CombatMode if rng.random() < 0.4]
    position, stone = random_claim_position(rng, modes=modes, table_cards=table_cards, tactics=True)
    stones = list(position.stones)
    hand = list(position.hand)
    discards: list[Card] = []
    joker_holders: set[Player] = set()
    for troop in (*JOKERS, Tactic.SPY, Tactic.SHIELD_BEARER):
        place = rng.choice(["side", "side", "discards", "hand", "unseen", "unseen"])
        if place == "discards":
            discards.append(troop)
        elif place == "hand" and len(hand) < position.variant.hand_size:
            hand.append(troop)
        elif place == "side":
            number = stone if rng.random() < 0.6 else rng.choice(STONES)
            player = rng.choice(list(Player))
            state = stones[number - 1]
            if troop in JOKERS and player in joker_holders:
                continue
            if state.claimed_by is not None or len(state.sides[player]) >= state.capacity:
                continue
            sides = list(state.sides)
            sides[player] = (*sides[player], troop)
            complete = all(len(side) == state.capacity for side in sides)
            tie = complete and strength(sides[0], state.modes) == strength(sides[1], state.modes)
            stones[number - 1] = StoneState(
                sides=(sides[0], sides[1]),
                completed_first=rng.choice(list(Player)) if tie else None,
                modes=state.modes,
                claimed_by=state.claimed_by,
            )
            if troop in JOKERS:
                joker_holders.add(player)
    discarded_jokers = sum(card in JOKERS for card in discards)
    jokers_played = set(rng.sample(list(Player), rng.randint(0, min(2, discarded_jokers))))
    return (
        Position(
            stones=tuple(stones),
            discards=tuple(discards),
            hand=tuple(hand),
            variant=position.variant,
            jokers_played=frozenset(jokers_played),
        ),
        stone,
    )
