"""The Schotten Totten rules engine: cards, formations, positions, the claim proof and the game.

Pure: no I/O, no YAML, no printing. Everything else in the project calls it.

It is laid out by concept, in floors each standing only on those below it (``make lint`` checks
it): :mod:`engine.cards` (the cards, Tactic cards and formations), :mod:`engine.proof` (a
position, the rulings and the claim proof), :mod:`engine.game` (a whole game: its state, moves,
turns, Tactic cards and legality), :mod:`engine.match` (matches and game records) and
:mod:`engine.tools` (the odds and the computer opponent); :mod:`engine.frozen` is the immutable
values' helper under them all. Everything outside the engine imports the names listed here, from
``engine`` itself, never from a module inside it: those may move.

Importing it loads what judging a position needs (cards, formations, positions, the claim proof);
the game, its moves, records and matches load the first time one of their names is asked for, so
that a process that only judges positions starts faster.

Every class and function named here shows its use in its docstring. The constants, and the two
names for types (``Card``, an ``int``, and ``Move``, any move), show theirs here:

    >>> from engine import CARDS, COLOUR_NAMES, STONES, Card, card_name, parse_card
    >>> len(CARDS), card_name(CARDS[0]), card_name(CARDS[-1]), list(STONES) == list(range(1, 10))
    (54, 'red 1', 'pink 9', True)
    >>> COLOUR_NAMES
    ('red', 'blue', 'green', 'yellow', 'purple', 'pink')
    >>> Card is int, parse_card("red 7")  # a Clan card is colour * 9 + (value - 1)
    (True, 6)
    >>> from engine import COMBAT_MODE_CARDS, ELITE_TROOPS, JOKERS, SECOND_JOKER_NAME, TACTICS_MASK
    >>> sorted(COMBAT_MODE_CARDS), JOKERS[1] == parse_card(SECOND_JOKER_NAME)
    ([<Tactic.BLIND_MANS_BLUFF: 58>, <Tactic.MUD_FIGHT: 59>], True)
    >>> len(ELITE_TROOPS), TACTICS_MASK.bit_count()
    (4, 10)
    >>> from engine import CARD_RULES, CLAIM_RULES, RULING_IDS, RULINGS, VARIANTS, Reason, Tactic
    >>> CARD_RULES[Tactic.MUD_FIGHT], CLAIM_RULES[Reason.WITNESS]
    ('tactics.mud-fight', 'claim.prove-incomplete-side')
    >>> RULINGS.tie_break, RULING_IDS["tie_break"]
    (<TieBreak.COMPLETED_FIRST: 'the side completed first'>, 'formations.tie-break')
    >>> sorted(VARIANTS), VARIANTS["tactics"].hand_size
    (['base', 'tactics'], 7)
    >>> from engine import Claim, Game, Move
    >>> state = Game.named("base", seed=1).new_initial_state()
    >>> all(isinstance(move, Move) for move in state.legal_moves()), isinstance(Claim(), Move)
    (True, True)
"""

from __future__ import annotations

import importlib

from engine.cards.card import (
    CARDS,
    COLOUR_NAMES,
    Card,
    CardError,
    CardSet,
    Colour,
    card_colour,
    card_name,
    card_value,
    is_clan_card,
    make_card,
    parse_card,
    parse_cards,
)
from engine.cards.formations import (
    CombatMode,
    Completion,
    Formation,
    describe,
    forget_strengths,
    formation_of,
    side_capacity,
    strength,
    strongest_completion,
)
from engine.cards.tactics import (
    CARD_RULES,
    COMBAT_MODE_CARDS,
    ELITE_TROOPS,
    JOKERS,
    SECOND_JOKER_NAME,
    TACTICS_MASK,
    Tactic,
)
from engine.proof.claims import ClaimVerdict, claim_verdict, claim_verdicts, elite_troops_for
from engine.proof.pieces import (
    STONES,
    DuplicateCard,
    HandTooLarge,
    MisplacedCard,
    MisplacedCompletionOrder,
    MissingCompletionOrder,
    Player,
    PositionError,
    SideOverCapacity,
    StoneNumberError,
    StoneState,
    VariantError,
)
from engine.proof.position import Position
from engine.proof.reasons import DuplicateClaim, Reason, Verdict
from engine.proof.rulings import (
    RULING_IDS,
    RULINGS,
    DrawnRoundPoints,
    DrawnRoundStarter,
    OpenSideTie,
    Rulings,
    TieBreak,
)
from engine.proof.variants import VARIANTS, TacticsVariant, Variant, variant_named

TYPE_CHECKING = False  # typing is not imported at run time (see engine.frozen)
if TYPE_CHECKING:
    from typing import Any

    from engine.game.interface import (
        CLAIM_RULES,
        Event,
        Game,
        GameState,
        Outcome,
        Phase,
        PlayerView,
        TableError,
        TableFact,
        Termination,
    )
    from engine.game.moves import (
        Banshee,
        Claim,
        Deck,
        Draw,
        IllegalMove,
        Move,
        MoveSyntaxError,
        Pass,
        Play,
        Recruit,
        Return,
        Strategist,
        Traitor,
        stones_named,
    )
    from engine.match.records import (
        GameRecord,
        length_text,
        parse_record,
        play_random_game,
        random_move,
        record_text,
        replay,
        result_text,
    )
    from engine.match.rounds import Match, RoundResult, round_points
    from engine.proof.reachable import reachability_problems
    from engine.tools.odds import formation_counts
    from engine.tools.opponent import choose_move

_LOADED_ON_FIRST_USE = {
    "CLAIM_RULES": "engine.game.interface",
    "Banshee": "engine.game.moves",
    "Claim": "engine.game.moves",
    "Deck": "engine.game.moves",
    "Draw": "engine.game.moves",
    "Event": "engine.game.interface",
    "Game": "engine.game.interface",
    "GameRecord": "engine.match.records",
    "GameState": "engine.game.interface",
    "IllegalMove": "engine.game.moves",
    "Match": "engine.match.rounds",
    "Move": "engine.game.moves",
    "MoveSyntaxError": "engine.game.moves",
    "Outcome": "engine.game.interface",
    "Pass": "engine.game.moves",
    "Phase": "engine.game.interface",
    "Play": "engine.game.moves",
    "PlayerView": "engine.game.interface",
    "Recruit": "engine.game.moves",
    "Return": "engine.game.moves",
    "RoundResult": "engine.match.rounds",
    "Strategist": "engine.game.moves",
    "TableError": "engine.game.interface",
    "TableFact": "engine.game.interface",
    "Termination": "engine.game.interface",
    "Traitor": "engine.game.moves",
    "choose_move": "engine.tools.opponent",
    "formation_counts": "engine.tools.odds",
    "reachability_problems": "engine.proof.reachable",
    "length_text": "engine.match.records",
    "parse_record": "engine.match.records",
    "play_random_game": "engine.match.records",
    "random_move": "engine.match.records",
    "record_text": "engine.match.records",
    "replay": "engine.match.records",
    "result_text": "engine.match.records",
    "round_points": "engine.match.rounds",
    "stones_named": "engine.game.moves",
}
"""Each name of the game's modules, and the module it is loaded from when first asked for."""


def __getattr__(name: str) -> Any:
    module = _LOADED_ON_FIRST_USE.get(name)
    if module is None:
        raise AttributeError(f"module 'engine' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # asked for once
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


__all__ = [
    "CARDS",
    "CARD_RULES",
    "CLAIM_RULES",
    "COLOUR_NAMES",
    "COMBAT_MODE_CARDS",
    "ELITE_TROOPS",
    "JOKERS",
    "RULINGS",
    "RULING_IDS",
    "SECOND_JOKER_NAME",
    "STONES",
    "TACTICS_MASK",
    "VARIANTS",
    "Banshee",
    "Card",
    "CardError",
    "CardSet",
    "Claim",
    "ClaimVerdict",
    "Colour",
    "CombatMode",
    "Completion",
    "Deck",
    "Draw",
    "DrawnRoundPoints",
    "DrawnRoundStarter",
    "DuplicateCard",
    "DuplicateClaim",
    "Event",
    "Formation",
    "Game",
    "GameRecord",
    "GameState",
    "HandTooLarge",
    "IllegalMove",
    "Match",
    "MisplacedCard",
    "MisplacedCompletionOrder",
    "MissingCompletionOrder",
    "Move",
    "MoveSyntaxError",
    "OpenSideTie",
    "Outcome",
    "Pass",
    "Phase",
    "Play",
    "Player",
    "PlayerView",
    "Position",
    "PositionError",
    "Reason",
    "Recruit",
    "Return",
    "RoundResult",
    "Rulings",
    "SideOverCapacity",
    "StoneNumberError",
    "StoneState",
    "Strategist",
    "TableError",
    "TableFact",
    "Tactic",
    "TacticsVariant",
    "Termination",
    "TieBreak",
    "Traitor",
    "Variant",
    "VariantError",
    "Verdict",
    "card_colour",
    "card_name",
    "card_value",
    "choose_move",
    "claim_verdict",
    "claim_verdicts",
    "describe",
    "elite_troops_for",
    "forget_strengths",
    "formation_counts",
    "formation_of",
    "is_clan_card",
    "length_text",
    "make_card",
    "parse_card",
    "parse_cards",
    "parse_record",
    "play_random_game",
    "random_move",
    "reachability_problems",
    "record_text",
    "replay",
    "result_text",
    "round_points",
    "side_capacity",
    "stones_named",
    "strength",
    "strongest_completion",
    "variant_named",
]
