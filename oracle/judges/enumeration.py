"""The slow reference: exhaustive enumeration over the cards out of sight.

It exists to check :func:`engine.strongest_completion` and the claim proof, in tests and in the
benchmark. It tries every set of unseen cards that could complete the opponent's side and, for
every elite troop on it, every identity the troop may take. It shares no code with the proof:
sides are ranked, and elite troops given their values, by :mod:`oracle.judges.reference_rules`,
written apart from the engine's tables, so a wrong table in the engine shows up as a
disagreement. Its strengths are therefore :class:`~oracle.judges.reference_rules.Standing`
values, not the engine's ints: compare them with each other, or order them against the engine's.

:func:`strongest_completion` is the one enumerating loop: the misreadings' judge
(:mod:`oracle.judges.misreadings`) runs it too, with its own way of scoring a side, or reads the
same completions by their kinds (:func:`oracle.judges.sides.completion_kinds`, which takes the
elite troops a completion may add from :func:`troops_added` here).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Sequence
from functools import cache, lru_cache, partial
from itertools import combinations
from math import comb

from engine import RULINGS, Card, CombatMode, OpenSideTie, Position, Rulings
from oracle.judges import reference_rules as rules
from oracle.judges.reference_rules import CLAN_CARDS_MASK, Standing, cards_in, mask_of


def strongest_completion(
    placed: Sequence[Card],
    cards: Sequence[Card],
    wilds: Sequence[Card],
    missing: int,
    scored: Callable[[tuple[Card, ...]], Standing],
) -> Standing | None:
    """The strongest side made of ``placed`` and ``missing`` more cards, by ``scored``: Clan
    cards of ``cards`` (each combination in their order) and any of the elite troops ``wilds``
    (at most one Joker among them); None if no completion exists.

    The one loop of both slow judges: the enumeration here and the misreadings' judge, which
    differ only in how they score a side.
    """
    best: Standing | None = None
    for extra in troops_added(wilds, missing):
        for added in combinations(cards, missing - len(extra)):
            score = scored((*placed, *extra, *added))
            if best is None or score > best:
                best = score
    return best


def troops_added(wilds: Sequence[Card], missing: int) -> Iterator[tuple[Card, ...]]:
    """Each choice of the elite troops ``wilds`` that a completion of ``missing`` more cards
    may add, in :func:`strongest_completion`'s order: none, then each one, each two and so on
    (at most ``missing``, and at most one Joker among them); Clan cards make up the rest."""
    for used in range(min(len(wilds), missing) + 1):
        for extra in combinations(wilds, used):
            if sum(card in rules.JOKERS for card in extra) <= 1:
                yield extra


def best_strength_by_enumeration(
    placed: Sequence[Card],
    pool: int,
    modes: Collection[CombatMode] = (),
    wilds: Sequence[Card] = (),
) -> Standing | None:
    """The strongest finished side reachable from ``placed`` with Clan cards of ``pool`` and any
    of the elite troops ``wilds`` (at most one Joker among them); None if no completion exists.
    """
    missing = rules.side_size(mud_fight=CombatMode.MUD_FIGHT in modes) - len(placed)
    bluff = CombatMode.BLIND_MANS_BLUFF in modes
    scored: Callable[[tuple[Card, ...]], Standing]
    if not wilds and all(rules.is_clan_card(card) for card in placed):
        scored = partial(_clan_side_standing, bluff=bluff)
    else:
        scored = partial(side_strength_by_enumeration, modes=modes)
    return strongest_completion(placed, tuple(cards_in(pool)), wilds, missing, scored)


def side_strength_by_enumeration(side: Sequence[Card], modes: Collection[CombatMode]) -> Standing:
    """A complete side's standing, trying every identity of every elite troop on it."""
    bluff = CombatMode.BLIND_MANS_BLUFF in modes
    cards = mask_of(side)
    if cards.bit_count() != len(side):  # a card twice: no set stands for it
        return rules.best_standing(side, blind_mans_bluff=bluff)
    if all(rules.is_clan_card(card) for card in side):
        return _standing_of_set(cards, bluff)
    return _best_standing_of_set(cards, bluff)


def _clan_side_standing(side: Sequence[Card], bluff: bool) -> Standing:
    """The standing of a side of Clan cards, remembered by its set of cards."""
    return _standing_of_set(mask_of(side), bluff)


@cache
def _standing_of_set(cards: int, bluff: bool) -> Standing:
    """The standing of a set of Clan cards given as a mask, remembered across positions."""
    return rules.standing_of(tuple(cards_in(cards)), blind_mans_bluff=bluff)


@lru_cache(maxsize=1 << 17)
def _best_standing_of_set(cards: int, bluff: bool) -> Standing:
    """The best standing of a set of cards holding elite troops (every identity tried),
    remembered: the same sides come back across completions and positions."""
    return rules.best_standing(tuple(cards_in(cards)), blind_mans_bluff=bluff)


def claim_granted_by_enumeration(
    position: Position, stone: int, rulings: Rulings = RULINGS
) -> bool:
    """Whether the viewer's claim on ``stone`` holds by ``rulings``, by brute force over every
    completion."""
    state = position.stone(stone)
    me, them = position.viewer, position.viewer.other
    if state.claimed_by is not None or not state.is_complete(me):
        return False
    mine = side_strength_by_enumeration(state.side(me), state.modes)
    if state.is_complete(them):
        theirs = side_strength_by_enumeration(state.side(them), state.modes)
        first = state.completed_first
        tie_won = first is not None and rulings.tie_break.winner(first) is me
        return mine > theirs or (mine == theirs and tie_won)
    unseen = position.out_of_sight_mask()
    troops = rules.troops_a_player_could_add(
        unseen, has_played_joker=rules.has_played_joker(position, them)
    )
    best = best_strength_by_enumeration(
        state.side(them), unseen & CLAN_CARDS_MASK, state.modes, troops
    )
    if best is None or best < mine:
        return True
    return best == mine and rulings.open_side_tie is OpenSideTie.GRANTED


def enumeration_size(position: Position, stone: int) -> int:
    """Roughly how many sides :func:`claim_granted_by_enumeration` would score: tests use it to
    keep their random boards within a time budget."""
    state = position.stone(stone)
    them = position.viewer.other
    theirs = state.side(them)
    missing = state.capacity - len(theirs)
    unseen = position.out_of_sight_mask()
    pool = (unseen & CLAN_CARDS_MASK).bit_count()
    troops = _unseen_troops(unseen) if missing > 0 else []  # a full side takes no more cards
    identities = 1
    for card in (*theirs, *troops):
        if not rules.is_clan_card(card):
            identities *= len(rules.troop_identities(card))
    return comb(pool + len(troops), max(missing, 0)) * identities


def _unseen_troops(unseen: int) -> list[Card]:
    return [card for card in rules.ELITE_TROOPS if unseen >> card & 1]


def clear_strength_cache() -> None:
    """Forget remembered strengths, so that a timing of the enumeration starts cold."""
    _standing_of_set.cache_clear()
    _best_standing_of_set.cache_clear()
