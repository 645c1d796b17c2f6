"""The ten Tactic cards of the tactics variant, as card numbers after the 54 Clan cards.

Elite troops (the two Jokers, the Spy, the Shield-Bearer) lie on a side like Clan cards and take a
Clan identity when their side is judged: the one best for their owner. The two combat modes lie on
a stone; the four ruses end in the face-up discard pile.
"""

from __future__ import annotations

from enum import IntEnum


class Tactic(IntEnum):
    """The Tactic cards, numbered after the Clan cards so that one bitmask holds every card.
    For example:

        >>> from engine import Tactic
        >>> Tactic.MUD_FIGHT, Tactic.MUD_FIGHT.label
        (<Tactic.MUD_FIGHT: 59>, 'mud fight')
    """

    JOKER = 54
    SECOND_JOKER = 55
    SPY = 56
    SHIELD_BEARER = 57
    BLIND_MANS_BLUFF = 58
    MUD_FIGHT = 59
    RECRUITER = 60
    STRATEGIST = 61
    BANSHEE = 62
    TRAITOR = 63

    @property
    def label(self) -> str:
        """The card as an editor writes it; both Jokers are ``joker``."""
        return TACTIC_NAMES[self]


TACTIC_NAMES: dict[Tactic, str] = {
    Tactic.JOKER: "joker",
    Tactic.SECOND_JOKER: "joker",
    Tactic.SPY: "spy",
    Tactic.SHIELD_BEARER: "shield-bearer",
    Tactic.BLIND_MANS_BLUFF: "blind-man's bluff",
    Tactic.MUD_FIGHT: "mud fight",
    Tactic.RECRUITER: "recruiter",
    Tactic.STRATEGIST: "strategist",
    Tactic.BANSHEE: "banshee",
    Tactic.TRAITOR: "traitor",
}

SECOND_JOKER_NAME = "second joker"
"""How an editor names the second Joker where it must be told apart: a lone ``joker`` is the
first, and a second ``joker`` the second, but a board may show the second Joker while the first is
still out of sight (whoever draws a Joker may draw either). The two are the same card in play, so
the engine's words, its notation and its reasons call both ``joker``."""

CARD_RULES: dict[Tactic, str] = {
    tactic: "tactics." + TACTIC_NAMES[tactic].replace(" ", "-").replace("'", "")
    for tactic in Tactic
}
"""The rule of the rules index each Tactic card is played by (``tactics.blind-mans-bluff``)."""

JOKERS = (Tactic.JOKER, Tactic.SECOND_JOKER)
"""The two Jokers, first then second: a player may play one of them in a game."""
ELITE_TROOPS = frozenset({Tactic.JOKER, Tactic.SECOND_JOKER, Tactic.SPY, Tactic.SHIELD_BEARER})
"""The Tactic cards laid on a side as a troop (both Jokers, the Spy, the Shield-Bearer)."""
COMBAT_MODE_CARDS = frozenset({Tactic.BLIND_MANS_BLUFF, Tactic.MUD_FIGHT})
"""The Tactic cards laid on a stone, changing how its sides are compared or completed."""

WILD_VALUES: dict[int, tuple[int, ...]] = {
    Tactic.JOKER: tuple(range(1, 10)),
    Tactic.SECOND_JOKER: tuple(range(1, 10)),
    Tactic.SPY: (7,),
    Tactic.SHIELD_BEARER: (1, 2, 3),
}
"""The values an elite troop may take; its colour is always free."""

TACTICS_MASK = sum(1 << tactic for tactic in Tactic)
"""The ten Tactic cards as a card bitmask (bit ``card`` set for each)."""
